import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definition, superior } from '../../src/shared/workflow/build';
import { startServer, type TestServer } from './harness';
import { M } from './util';

/*
 * 考勤 and the summaries (issue 8) over requests really started and decided through
 * /workflowInst: staff02 (办公室, superior staff01 李明, who reports to the director) and
 * staff04 (典藏部, superior staff03 赵磊). 请假 of more than 3 days also goes to the director.
 * An administrator adds an hours-unit overtime template whose name says nothing (周末值守), marked
 * by `attendanceKind`.
 */

let s: TestServer;
const tok: Record<string, string> = {};
const uid: Record<string, number> = {};
const tpl: Record<string, number> = {};
const ids: Record<string, number> = {};

const post = async (who: string, path: string, body: unknown) =>
  (await s.call('POST', `${M}${path}`, { token: tok[who], body })).body;
const get = async (who: string, path: string) =>
  (await s.call('GET', `${M}${path}`, { token: tok[who] })).body;

async function start(who: string, template: string, form: Record<string, unknown>) {
  const res = await post(who, '/workflowInst/start', { templateId: tpl[template], form });
  expect(res.success, JSON.stringify(res)).toBe(true);
  return res.result.actvityId as number;
}
async function decide(who: string, id: number, action: 2 | 3 = 2) {
  const res = await post(who, '/workflowInst/approval', {
    actvityId: id,
    action,
    ...(action === 3 && { reason: '人手不足' }),
  });
  expect(res.success, JSON.stringify(res)).toBe(true);
}
const leave = (start: string, end: string, duration: number) => ({
  leaveType: 'annual',
  period: { start, end, duration },
  reason: '休假',
});

beforeAll(async () => {
  s = await startServer();
  for (const a of ['admin', 'director', 'staff01', 'staff02', 'staff03', 'staff04', 'staff08']) {
    tok[a] = await s.login(a);
    uid[a] = (
      await s.db.selectFrom('user').select('id').where('account', '=', a).executeTakeFirstOrThrow()
    ).id;
  }
  for (const t of await s.db.selectFrom('approval_template').select(['id', 'name']).execute())
    tpl[t.name] = t.id;

  const overtime = {
    ...definition([superior(1)], {
      fields: [
        { id: 'when', type: 'dateRange', label: '值守时间', required: true, unit: 0 },
        { id: 'reason', type: 'textarea', label: '事由', required: false },
      ],
    }),
    attendanceKind: 'overtime' as const,
  };
  const saved = await post('admin', '/workflowTemplate/save', {
    name: '周末值守',
    category: 'normal',
    definition: overtime,
  });
  expect(saved.success, JSON.stringify(saved)).toBe(true);
  tpl['周末值守'] = saved.result.id;
  expect((await post('admin', '/workflowTemplate/publish', { id: saved.result.id })).success).toBe(true);

  // Passed: a 4-day leave across January and February (staff01, then the director).
  ids.cross = await start('staff02', '请假', leave('2026-01-30', '2026-02-02', 4));
  await decide('staff01', ids.cross);
  await decide('director', ids.cross);
  // Passed: 出差 counted by its name.
  ids.travel = await start('staff02', '出差', {
    destination: '西安',
    period: { start: '2026-02-10', end: '2026-02-11', duration: 2 },
    reason: '文物交流',
  });
  await decide('staff01', ids.travel);
  // Passed: 12 hours of overtime = 1.5 working days.
  ids.overtime = await start('staff04', '周末值守', {
    when: { start: '2026-02-14 08:00', end: '2026-02-14 20:00', duration: 12 },
  });
  await decide('staff03', ids.overtime);
  // Refused, cancelled and still running: none of them count.
  ids.refused = await start('staff04', '请假', leave('2026-02-05', '2026-02-05', 1));
  await decide('staff03', ids.refused, 3);
  ids.cancelled = await start('staff02', '请假', leave('2026-02-20', '2026-02-20', 1));
  expect(
    (await post('staff02', '/workflowInst/cancel', { actvityId: ids.cancelled, action: 4, reason: '不休了' }))
      .success,
  ).toBe(true);
  ids.running = await start('staff04', '请假', leave('2026-02-06', '2026-02-06', 1));
  // A passed request of another kind (报销) never counts.
  const expense = await start('staff02', '报销', { amount: 100, reason: '文具' });
  await decide('staff01', expense);
});
afterAll(() => s.close());

type Row = { userId: number; leave: number; travel: number; overtime: number; count: number };
const rowOf = (list: Row[], who: string) => list.find((r) => r.userId === uid[who]);

describe('考勤统计 (month)', () => {
  it('counts passed requests only, split across months, hours at 8 a day', async () => {
    const feb = await get('director', '/attendance/month?month=2026-02');
    expect(feb.success, JSON.stringify(feb)).toBe(true);
    expect(rowOf(feb.result.list, 'staff02')).toMatchObject({
      name: '王芳',
      deptNames: '办公室',
      leave: 2,
      travel: 2,
      overtime: 0,
      count: 2,
    });
    expect(rowOf(feb.result.list, 'staff04')).toMatchObject({ leave: 0, overtime: 1.5, count: 1 });
    expect(rowOf(feb.result.list, 'staff01')).toMatchObject({ leave: 0, travel: 0, overtime: 0, count: 0 });
    // The administrator account, in no department, is not a row.
    expect(rowOf(feb.result.list, 'admin')).toBeUndefined();
    const jan = await get('director', '/attendance/month?month=2026-01');
    expect(rowOf(jan.result.list, 'staff02')).toMatchObject({ leave: 2, count: 1 });
    const mar = await get('director', '/attendance/month?month=2026-03');
    expect(mar.result.list.every((r: Row) => r.count === 0)).toBe(true);
  });

  it('a department head sees the departments they head; others need the grant', async () => {
    const mine = await get('staff01', '/attendance/month?month=2026-02');
    expect(mine.success).toBe(true);
    expect(mine.result.list.map((r: Row) => r.userId).sort()).toEqual([uid.staff01, uid.staff02].sort());
    expect(mine.result.depts.map((d: { deptName: string }) => d.deptName)).toEqual(['办公室']);
    const curatorial = await s.db
      .selectFrom('department')
      .select('id')
      .where('name', '=', '典藏部')
      .executeTakeFirstOrThrow();
    const foreign = await get('staff01', `/attendance/month?month=2026-02&deptId=${curatorial.id}`);
    expect(foreign).toMatchObject({ success: false, code: 1005, message: '无权查看该部门的考勤' });
    const byDirector = await get('director', `/attendance/month?month=2026-02&deptId=${curatorial.id}`);
    expect(byDirector.result.list.map((r: Row) => r.userId).sort()).toEqual(
      [uid.staff03, uid.staff04].sort(),
    );

    for (const who of ['staff02', 'staff08']) {
      const res = await get(who, '/attendance/month?month=2026-02');
      expect(res, who).toMatchObject({
        success: false,
        code: 1005,
        message: '无权查看考勤统计，请联系管理员开通',
      });
      expect(
        (await s.call('GET', `${M}/attendance/month/export?month=2026-02`, { token: tok[who] })).body,
      ).toMatchObject({ success: false, code: 1005 });
    }
  });

  it('refuses a bad month with a message to act on', async () => {
    for (const month of ['2026-13', '2026-2', 'abc', '1999-12']) {
      const res = await s.call('GET', `${M}/attendance/month?month=${month}`, { token: tok.director });
      expect(res.status, month).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.message, month).toMatch(/月份/);
    }
    expect((await get('director', '/attendance/month')).message).toMatch(/月份/);
  });
});

describe('个人考勤 (person)', () => {
  it('shows my own month with the requests that count', async () => {
    const res = await get('staff02', '/attendance/person?month=2026-02');
    expect(res.success, JSON.stringify(res)).toBe(true);
    expect(res.result).toMatchObject({
      name: '王芳',
      totals: { leave: 2, travel: 2, overtime: 0, count: 2 },
    });
    expect(res.result.list).toEqual([
      expect.objectContaining({
        actvityId: ids.cross,
        templateName: '请假',
        kind: 'leave',
        start: '2026-01-30',
        end: '2026-02-02',
        duration: 4,
        unit: 1,
        days: 2,
      }),
      expect.objectContaining({ actvityId: ids.travel, kind: 'travel', days: 2 }),
    ]);
    const hours = await get('staff04', '/attendance/person?month=2026-02');
    expect(hours.result.list).toEqual([
      expect.objectContaining({
        actvityId: ids.overtime,
        kind: 'overtime',
        duration: 12,
        unit: 0,
        days: 1.5,
      }),
    ]);
  });

  it('another person only with the grant, inside the scope', async () => {
    const asStaff = await get('staff02', `/attendance/person?month=2026-02&userId=${uid.staff01}`);
    expect(asStaff).toMatchObject({ success: false, code: 1005, message: '只能查看本人的考勤' });
    const outside = await get('staff01', `/attendance/person?month=2026-02&userId=${uid.staff04}`);
    expect(outside).toMatchObject({ success: false, message: '只能查看本人的考勤' });
    const head = await get('staff01', `/attendance/person?month=2026-02&userId=${uid.staff02}`);
    expect(head.result.totals.leave).toBe(2);
    const director = await get('director', `/attendance/person?month=2026-02&userId=${uid.staff04}`);
    expect(director.result.totals.overtime).toBe(1.5);
    expect((await get('director', '/attendance/person?month=2026-02&userId=99999')).message).toBe(
      '该人员不存在或已停用',
    );
  });
});

describe('部门汇总 and 个人汇总', () => {
  it('sums each department’s members', async () => {
    const res = await get('director', '/attendance/departments?month=2026-02');
    expect(res.success, JSON.stringify(res)).toBe(true);
    const row = (name: string) => res.result.list.find((d: { deptName: string }) => d.deptName === name);
    expect(row('办公室')).toMatchObject({ people: 2, leave: 2, travel: 2, overtime: 0, count: 2 });
    expect(row('典藏部')).toMatchObject({ people: 2, leave: 0, overtime: 1.5, count: 1 });
    expect(row('博物馆')).toBeUndefined(); // no members of its own
    const head = await get('staff03', '/attendance/departments?month=2026-02');
    expect(head.result.list.map((d: { deptName: string }) => d.deptName)).toEqual(['典藏部']);
    expect((await get('staff08', '/attendance/departments?month=2026-02')).code).toBe(1005);
  });

  it('个人汇总 is my year by month; a request across months counts once in the year', async () => {
    const res = await get('staff02', '/attendance/personal?year=2026');
    expect(res.success, JSON.stringify(res)).toBe(true);
    expect(res.result.list).toHaveLength(12);
    expect(res.result.list[0]).toMatchObject({ month: '2026-01', leave: 2, count: 1 });
    expect(res.result.list[1]).toMatchObject({ month: '2026-02', leave: 2, travel: 2, count: 2 });
    expect(res.result.totals).toEqual({ leave: 4, travel: 2, overtime: 0, count: 2 });
    expect((await s.call('GET', `${M}/attendance/personal?year=20x6`, { token: tok.staff02 })).status).toBe(
      400,
    );
  });
});

describe('export to xlsx', () => {
  async function workbook(who: string, path: string) {
    const res = await fetch(`${s.url}${M}${path}`, { headers: { token: tok[who] } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    const rows: unknown[][] = [];
    wb.worksheets[0]!.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    return { rows, disposition: res.headers.get('content-disposition') ?? '' };
  }

  it('考勤统计: Chinese headers, one row per person, a Chinese file name', async () => {
    const { rows, disposition } = await workbook('director', '/attendance/month/export?month=2026-02');
    expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent('考勤统计-2026-02.xlsx')}`);
    expect(rows[0]).toEqual(['姓名', '部门', '请假（天）', '出差（天）', '加班（天）', '审批单数']);
    expect(rows).toContainEqual(['王芳', '办公室', 2, 2, 0, 2]);
    expect(rows).toContainEqual(['吴昊', '文保部', 0, 0, 0, 0]);
    const sheet = await get('director', '/attendance/month?month=2026-02');
    expect(rows).toHaveLength(sheet.result.list.length + 1);
  });

  it('部门汇总 and 个人汇总 workbooks', async () => {
    const depts = await workbook('director', '/attendance/departments/export?month=2026-02');
    expect(depts.rows[0]).toEqual(['部门', '人数', '请假（天）', '出差（天）', '加班（天）', '审批单数']);
    expect(depts.rows).toContainEqual(['典藏部', 2, 0, 0, 1.5, 1]);
    const mine = await workbook('staff02', '/attendance/personal/export?year=2026');
    expect(mine.disposition).toContain(encodeURIComponent('个人汇总-王芳-2026.xlsx'));
    expect(mine.rows[2]).toEqual(['2026-02', 2, 2, 0, 2]);
    expect(mine.rows.at(-1)).toEqual(['合计', 4, 2, 0, 2]);
  });
});

describe('half days (上午/下午, issue 17 §5)', () => {
  it('the server computes the length from the ends, refuses another, and attendance counts halves', async () => {
    // 05-29 下午 → 05-29 下午: half a day; the client sends no duration, the server fills it in.
    const half = await start('staff04', '请假', {
      leaveType: 'personal',
      period: { start: '2026-05-29', end: '2026-05-29', startHalf: 'pm', endHalf: 'pm' },
      reason: '办理证件',
    });
    const stored = await s.db
      .selectFrom('approval_request')
      .select('form')
      .where('id', '=', half)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.form).period).toEqual({
      start: '2026-05-29',
      end: '2026-05-29',
      startHalf: 'pm',
      endHalf: 'pm',
      duration: 0.5,
    });
    const shown = await post('staff04', '/workflowInst/data', { actvityId: half });
    expect(shown.result.fields).toContainEqual(
      expect.objectContaining({ name: 'period', value: '2026-05-29 下午 至 2026-05-29 下午（0.5天）' }),
    );
    await decide('staff03', half);

    // A client that claims another length is refused, in words a person can act on.
    const lie = await post('staff04', '/workflowInst/start', {
      templateId: tpl['请假'],
      form: { ...leave('2026-05-04', '2026-05-05', 1), reason: '休假' },
    });
    expect(lie).toMatchObject({
      success: false,
      message: '“请假时间”的时长应为 2天（按起止时间计算），请重新选择起止时间后再提交',
    });
    const backwards = await post('staff04', '/workflowInst/start', {
      templateId: tpl['请假'],
      form: {
        ...leave('2026-05-04', '2026-05-04', 0.5),
        period: { start: '2026-05-04', end: '2026-05-04', startHalf: 'pm', endHalf: 'am' },
      },
    });
    expect(backwards).toMatchObject({ success: false, message: '“请假时间”的结束时间不能早于开始时间' });

    // 05-30 下午 → 06-01 上午: 05-30 pm, 05-31 am and pm, 06-01 am are four halves, 2 days.
    const cross = await start('staff04', '请假', {
      leaveType: 'annual',
      period: { start: '2026-05-30', end: '2026-06-01', startHalf: 'pm', endHalf: 'am', duration: 2 },
      reason: '探亲',
    });
    await decide('staff03', cross);
    const may = await get('staff04', '/attendance/person?month=2026-05');
    // 0.5 (05-29) + 1.5 (05-30 pm, 05-31) of the second; 06-01 上午 goes to June.
    expect(may.result.totals).toMatchObject({ leave: 2, count: 2 });
    expect(may.result.list).toContainEqual(
      expect.objectContaining({
        actvityId: cross,
        start: '2026-05-30',
        startHalf: 'pm',
        end: '2026-06-01',
        endHalf: 'am',
        duration: 2,
        days: 1.5,
      }),
    );
    const june = await get('staff04', '/attendance/person?month=2026-06');
    expect(june.result.totals).toMatchObject({ leave: 0.5, count: 1 });
    const year = await get('staff04', '/attendance/personal?year=2026');
    expect(year.result.list[4]).toMatchObject({ leave: 2 });
    expect(year.result.list[5]).toMatchObject({ leave: 0.5 });
  });

  it('3.5 days is more than 3: the director decides too', async () => {
    const id = await start('staff02', '请假', {
      leaveType: 'annual',
      period: { start: '2026-07-06', end: '2026-07-09', startHalf: 'pm', endHalf: 'pm' },
      reason: '年假',
    });
    await decide('staff01', id);
    const after = await post('director', '/workflowInst/data', { actvityId: id });
    expect(after.result.status).toBe(1); // still running: waiting for the director
    await decide('director', id);
    const done = await post('staff02', '/workflowInst/data', { actvityId: id });
    expect(done.result.status).toBe(6);
  });
});

describe('a department head’s scope', () => {
  it('includes their sub-departments', async () => {
    const office = await s.db
      .selectFrom('department')
      .select('id')
      .where('name', '=', '办公室')
      .executeTakeFirstOrThrow();
    const dept = await post('admin', '/sysDept/save', { name: '档案室', parentId: office.id });
    expect(dept.success, JSON.stringify(dept)).toBe(true);
    const deptId = dept.result.id as number;
    const user = await post('admin', '/sysUser/save', {
      account: 'archivist1',
      userName: '档案员',
      phone: '',
      password: 'Test@2026',
      deptIds: [deptId],
      superiorId: uid.staff02,
    });
    expect(user.success, JSON.stringify(user)).toBe(true);
    const mine = await get('staff01', '/attendance/month?month=2026-02');
    expect(mine.result.list.map((r: { name: string }) => r.name)).toEqual(['李明', '王芳', '档案员']);
    expect(mine.result.depts.map((d: { deptName: string }) => d.deptName)).toEqual(['办公室', '档案室']);
    // Still nothing outside: 典藏部's head does not see the new room.
    const other = await get('staff03', '/attendance/month?month=2026-02');
    expect(other.result.list.map((r: { name: string }) => r.name)).not.toContain('档案员');
  });
});
