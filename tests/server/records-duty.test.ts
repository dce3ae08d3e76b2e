import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { importFile, template, xlsxOf } from './records-import-util';
import { M, userIdOf } from './util';

/**
 * 值班表's own rules (records-design §8; the generic suite covers the rest): nobody on two
 * overlapping shifts, whatever their kinds, with a hand-over (a night shift ending as the next
 * day shift starts) allowed; and its batch import, all or nothing with 1004.
 */

let s: TestServer;
let admin: string;
/** 李明, 办公室 head: holds 值班表管理 (oa.watchList) through the deptHead role. */
let clerk: string;
let staff: string;
const id: Record<string, number> = {};
const BASE = `${M}/bs/bsDutyRoster`;

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  admin = await s.login('admin');
  clerk = await s.login('staff01');
  staff = await s.login('staff02');
  for (const a of ['director', 'staff01', 'staff02', 'staff03', 'staff04', 'staff05'])
    id[a] = await userIdOf(s, a);
});
afterAll(async () => s?.close());

const row = (over: Record<string, unknown>) => ({
  dutyType: '1',
  shift: '1',
  leaderId: id.director,
  staffIds: [id.staff02],
  dutyPhone: '010-88886666',
  ...over,
});
const save = (body: Record<string, unknown>, token = clerk) =>
  s.call('POST', `${BASE}/save`, { token, body });

describe('nobody on two overlapping shifts', () => {
  it('refuses a person on a second shift that overlaps, naming them and the shift they hold', async () => {
    expect((await save(row({ dutyDate: '2027-03-01', shift: '1' }))).body.success).toBe(true);
    // 安保值班 全天 (08:30–次日 08:30) holds the 白班 hours of 王芳 already on 行政值班.
    const r = await save(row({ dutyDate: '2027-03-01', dutyType: '2', shift: '3', leaderId: id.staff05 }));
    expect(r.body).toMatchObject({ success: false, code: 1010 });
    expect(r.body.message).toBe('王芳已排在 2027-03-01 行政值班 白班，与本班次时间重叠');
    expect(r.body.result.fields.staffIds).toBe(r.body.message);
    // The same clash through the leader is said at 带班领导.
    const lead = await save(
      row({
        dutyDate: '2027-03-01',
        dutyType: '2',
        shift: '3',
        leaderId: id.director,
        staffIds: [id.staff03],
      }),
    );
    expect(lead.body.result.fields.leaderId).toBe('张国华已排在 2027-03-01 行政值班 白班，与本班次时间重叠');
  });

  it('allows hand-overs: a night shift and the day shifts either side of it', async () => {
    expect((await save(row({ dutyDate: '2027-03-10', shift: '2' }))).body.success).toBe(true);
    expect((await save(row({ dutyDate: '2027-03-10', shift: '1' }))).body.success).toBe(true);
    expect((await save(row({ dutyDate: '2027-03-11', shift: '1' }))).body.success).toBe(true);
    // 全天 the next day starts at 08:30 as the night ends: also a hand-over.
    expect(
      (
        await save(
          row({
            dutyDate: '2027-03-11',
            dutyType: '2',
            shift: '3',
            leaderId: id.staff05,
            staffIds: [id.staff04],
          }),
        )
      ).body.success,
    ).toBe(true);
    // But the night shift and a 全天 on the same day overlap.
    const r = await save(row({ dutyDate: '2027-03-10', dutyType: '3', shift: '3' }));
    expect(r.body.message).toContain('与本班次时间重叠');
  });

  it('checks an update against the other rows, not against the row itself', async () => {
    const a = (await save(row({ dutyDate: '2027-04-01', staffIds: [id.staff03] }))).body.result.id;
    const b = (await save(row({ dutyDate: '2027-04-02', staffIds: [id.staff04] }))).body.result.id;
    const same = await s.call('POST', `${BASE}/update`, {
      token: clerk,
      body: { ...row({ dutyDate: '2027-04-01', staffIds: [id.staff03] }), id: a, remark: '改' },
    });
    expect(same.body.success).toBe(true);
    const onto = await s.call('POST', `${BASE}/update`, {
      token: clerk,
      body: { ...row({ dutyDate: '2027-04-01', dutyType: '2', staffIds: [id.staff03] }), id: b },
    });
    expect(onto.body.message).toBe('张国华已排在 2027-04-01 行政值班 白班，与本班次时间重叠');
  });

  it('lists one day for the workbench, with names', async () => {
    await save(row({ dutyDate: '2027-05-05', staffIds: [id.staff02, id.staff04] }));
    const r = await s.call('GET', `${BASE}/list?dutyDateFrom=2027-05-05&dutyDateTo=2027-05-05`, {
      token: staff,
    });
    expect(r.body.result.list).toHaveLength(1);
    const names = r.body.result.names.users;
    expect(r.body.result.list[0].staffIds.map((x: number) => names[x])).toEqual(['王芳', '陈静']);
  });
});

const HEADERS = ['值班日期', '值班类型', '班次', '带班领导', '值班人员', '值班电话', '备注'];

describe('batch import (scheme/batchImport, schemeId dutyRoster)', () => {
  it('gives a template with the columns, required marks, choices and 填写说明', async () => {
    const t = await template(s, clerk, 'dutyRoster');
    expect(t.ok).toBe(true);
    if (!t.ok) return;
    expect(t.headers).toEqual([
      '值班日期*',
      '值班类型*',
      '班次*',
      '带班领导*',
      '值班人员*',
      '值班电话*',
      '备注',
    ]);
    expect(t.sheets).toEqual(['值班表', '选项', '填写说明']);
    expect(t.disposition).toContain(encodeURIComponent('值班表导入模板.xlsx'));
    const options = t.wb.getWorksheet('选项')!;
    expect([1, 2, 3].map((r) => options.getCell(r, 2).value)).toEqual(['行政值班', '安保值班', '节假日值班']);
    const help = t.wb.getWorksheet('填写说明')!;
    const lines = help.getColumn(3).values.map(String).join('\n');
    expect(lines).toContain('多人用顿号');
    expect(t.wb.worksheets[0]!.getCell('B2').dataValidation?.type).toBe('list');
  });

  it('refuses the whole file with 1004, listing every bad row and field; then a fixed file imports', async () => {
    const rows = [
      [new Date(Date.UTC(2027, 5, 1)), '行政值班', '白班', '张国华', '王芳、陈静', '010-66668888', ''],
      ['2027/6/2', '行政值班', '夜班', '张国华', '王芳', '12345', '电话写错了'],
      ['2027-06-03', '消防值班', '白班', '张国华', '不存在的人', '010-66668888', ''],
      ['2027-06-04', '行政值班', '白班', '', '王芳', '13800001111', ''],
    ];
    const bad = await importFile(s, clerk, 'dutyRoster', await xlsxOf(HEADERS, rows));
    expect(bad.body).toMatchObject({ success: false, code: 1004 });
    expect(bad.body.message).toBe('导入失败：文件中有 4 处错误，未导入任何数据。请按下列提示修改后重新导入');
    expect(bad.body.result.lines).toEqual([
      '第 3 行：值班电话须为手机号或固定电话（如 13812345678 或 010-12345678）',
      '第 4 行：值班类型“消防值班”不是可选项（可选：行政值班、安保值班、节假日值班）',
      '第 4 行：值班人员“不存在的人”不是在职人员的姓名或手机号',
      '第 5 行：请选择带班领导',
    ]);
    expect(bad.body.result.errors[0]).toEqual({ row: 3, column: '值班电话', message: expect.any(String) });
    // Nothing was saved, not even the good first row.
    const none = await s.call('GET', `${BASE}/list?dutyDateFrom=2027-06-01&dutyDateTo=2027-06-30`, {
      token: clerk,
    });
    expect(none.body.result.total).toBe(0);

    rows[1]![5] = '010-66668888';
    rows[2]![1] = '安保值班';
    rows[2]![4] = '陈静';
    rows[3]![3] = '李明';
    const good = await importFile(s, clerk, 'dutyRoster', await xlsxOf(HEADERS, rows));
    expect(good.body).toEqual({
      success: true,
      code: 0,
      message: '批量导入成功',
      result: { imported: 4, created: 4, replaced: 0 },
    });
    const list = await s.call('GET', `${BASE}/list?dutyDateFrom=2027-06-01&dutyDateTo=2027-06-30`, {
      token: clerk,
    });
    expect(list.body.result.list.map((r: { dutyDate: string }) => r.dutyDate)).toEqual([
      '2027-06-01',
      '2027-06-02',
      '2027-06-03',
      '2027-06-04',
    ]);
    expect(list.body.result.list[0].staffIds).toEqual([id.staff02, id.staff04]);

    // The same file again adds nothing: every slot is taken (type 1) …
    const again = await importFile(s, clerk, 'dutyRoster', await xlsxOf(HEADERS, rows));
    expect(again.body.code).toBe(1004);
    expect(again.body.result.lines[0]).toBe('第 2 行：这一天的该值班类型和班次已有排班');
    // … unless it replaces them (type 2).
    rows[0]![5] = '010-12340000';
    const replaced = await importFile(s, clerk, 'dutyRoster', await xlsxOf(HEADERS, rows), { type: 2 });
    expect(replaced.body.result).toEqual({ imported: 4, created: 0, replaced: 4 });
  });

  it('finds clashes between rows of the same file', async () => {
    const rows = [
      ['2027-07-01', '行政值班', '白班', '张国华', '王芳', '010-66668888'],
      ['2027-07-01', '安保值班', '全天', '李明', '王芳', '010-66668888'],
      ['2027-07-01', '行政值班', '白班', '李明', '陈静', '010-66668888'],
    ];
    const r = await importFile(s, clerk, 'dutyRoster', await xlsxOf(HEADERS.slice(0, 6), rows));
    expect(r.body.result.lines).toEqual([
      '第 3 行：王芳已排在 2027-07-01 行政值班 白班，与本班次时间重叠',
      '第 4 行：这一天的该值班类型和班次已有排班',
    ]);
  });

  it('tells two people of the same name apart by phone', async () => {
    const made = await s.call('POST', `${M}/sysUser/save`, {
      token: admin,
      body: { account: 'wangfang2', userName: '王芳', phone: '13900009999', password: 'Museum@2026' },
    });
    expect(made.body.success).toBe(true);
    const ambiguous = await importFile(
      s,
      clerk,
      'dutyRoster',
      await xlsxOf(HEADERS.slice(0, 6), [
        ['2027-08-01', '行政值班', '白班', '张国华', '王芳', '010-66668888'],
      ]),
    );
    expect(ambiguous.body.result.lines).toEqual([
      '第 2 行：值班人员“王芳”有 2 位同名人员，请写成“姓名（手机号）”',
    ]);
    const named = await importFile(
      s,
      clerk,
      'dutyRoster',
      await xlsxOf(HEADERS.slice(0, 6), [
        ['2027-08-01', '行政值班', '白班', '张国华', '王芳（13900009999）', '010-66668888'],
      ]),
    );
    expect(named.body.success).toBe(true);
  });

  it('refuses a file that is not a workbook, a missing column, a wrong scheme, and people without the grant', async () => {
    const notXlsx = await importFile(s, clerk, 'dutyRoster', Buffer.from('a,b,c'), {
      fileName: 'roster.csv',
    });
    expect(notXlsx.body.message).toBe('只能导入 .xlsx 格式的 Excel 文件，请使用页面上下载的导入模板');
    const broken = await importFile(s, clerk, 'dutyRoster', Buffer.from('not a zip'));
    expect(broken.body.message).toBe(
      '无法读取该文件，请上传由模板填写的 .xlsx 文件（可在页面上下载导入模板）',
    );
    const missing = await importFile(
      s,
      clerk,
      'dutyRoster',
      await xlsxOf(['值班日期', '班次'], [['2027-09-01', '白班']]),
    );
    expect(missing.body.code).toBe(1004);
    expect(missing.body.result.lines).toContain('第 1 行：表头缺少“值班类型”列，请使用页面上下载的导入模板');
    const empty = await importFile(s, clerk, 'dutyRoster', await xlsxOf(HEADERS, []));
    expect(empty.body.message).toBe('文件中没有数据，请在模板第 2 行起填写后再导入');
    const unknown = await importFile(s, clerk, 'nothing', await xlsxOf(HEADERS, []));
    expect(unknown.body.message).toMatch(/^导入类型“nothing”不存在/);
    const refused = await importFile(s, staff, 'dutyRoster', await xlsxOf(HEADERS, [['2027-09-01']]));
    expect(refused.body.code).toBe(1005);
    const tpl = await template(s, staff, 'dutyRoster');
    expect(tpl.ok).toBe(false);
  });
});
