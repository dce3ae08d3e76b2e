import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { importFile, template, xlsxOf } from './records-import-util';
import { M, demoPhone, loginCall } from './util';

/**
 * The hand-made modules on the records' import mechanism: the address book (通讯录, schemeId
 * addressBook) and people (人员, schemeId sysUser). Same template, same all-or-nothing 1004, each
 * row checked by the module's own rules and words.
 */

let s: TestServer;
let admin: string;
let clerk: string;

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  admin = await s.login('admin');
  clerk = await s.login('staff01');
});
afterAll(async () => s?.close());

const BOOK = ['姓名', '部门', '职务', '手机号', '办公电话', '邮箱', '排序', '备注'];

describe('address book import', () => {
  it('offers its template to 通讯录管理', async () => {
    const t = await template(s, clerk, 'addressBook');
    expect(t.ok && t.headers).toEqual([
      '姓名*',
      '部门',
      '职务',
      '手机号',
      '办公电话',
      '邮箱',
      '排序',
      '备注',
    ]);
  });

  it('extends staff by phone and adds external entries, all or nothing; a second import updates', async () => {
    const rows = [
      ['王芳', '', '档案员', demoPhone(2), '010-66660002', 'wangfang@museum.cn', 5, ''],
      ['安保值班室', '办公室', '', '', '010-66669999', '', 1, '24 小时'],
      ['李四', '办公室', '', demoPhone(3), '', '', 0, ''],
      ['讲解台', '不存在的部门', '', '', '010-66661234', '', 0, ''],
      ['咨询台', '', '', '', '', 'bad-mail', 0, ''],
    ];
    const bad = await importFile(s, clerk, 'addressBook', await xlsxOf(BOOK, rows));
    expect(bad.body.code).toBe(1004);
    expect(bad.body.result.lines).toEqual([
      '第 4 行：手机号 13800000003 是员工“赵磊”的，姓名应为“赵磊”',
      '第 5 行：部门“不存在的部门”不是现有部门',
      '第 6 行：请输入正确的邮箱地址',
    ]);
    const before = await s.call('GET', `${M}/bs/bsAddressBook/list?includeHidden=1`, { token: clerk });

    const fixed = [
      rows[0]!,
      rows[1]!,
      ['赵磊', '', '主任', demoPhone(3), '', '', 0, ''],
      ['讲解台', '办公室', '', '', '010-66661234', '', 0, ''],
    ];
    const good = await importFile(s, clerk, 'addressBook', await xlsxOf(BOOK, fixed));
    expect(good.body).toMatchObject({
      success: true,
      message: '批量导入成功',
      result: { created: 4, replaced: 0 },
    });
    const after = await s.call('GET', `${M}/bs/bsAddressBook/list?includeHidden=1`, { token: clerk });
    // Two staff rows extended in place, two external entries added.
    expect(after.body.result.total).toBe(before.body.result.total + 2);
    const wang = after.body.result.list.find((r: { name: string }) => r.name === '王芳');
    expect(wang).toMatchObject({
      position: '档案员',
      officePhone: '010-66660002',
      email: 'wangfang@museum.cn',
    });
    const desk = after.body.result.list.find((r: { name: string }) => r.name === '安保值班室');
    expect(desk).toMatchObject({ userId: null, deptNames: ['办公室'], remark: '24 小时' });

    const again = await importFile(s, clerk, 'addressBook', await xlsxOf(BOOK, fixed));
    expect(again.body.result).toEqual({ imported: 4, created: 0, replaced: 4 });
    const same = await s.call('GET', `${M}/bs/bsAddressBook/list?includeHidden=1`, { token: clerk });
    expect(same.body.result.total).toBe(after.body.result.total);
  });

  it('refuses the same person twice in one file', async () => {
    const r = await importFile(
      s,
      clerk,
      'addressBook',
      await xlsxOf(BOOK, [
        ['王芳', '', '档案员', demoPhone(2)],
        ['王芳', '', '馆员', demoPhone(2)],
      ]),
    );
    expect(r.body.result.lines).toEqual(['第 3 行：与第 2 行是同一条目，请合并为一行']);
  });
});

const PEOPLE = ['账号', '姓名', '手机号', '部门', '角色', '直属上级', '初始密码'];

describe('people import', () => {
  it('creates accounts that can sign in, with departments, roles and a superior from the file', async () => {
    const rows = [
      ['guide01', '钱多多', '13911110001', '社教部', '社教专员', 'staff07', 'Museum@2026'],
      ['guide02', '孙小美', '13911110002', '社教部、陈列部', '', 'guide01', 'Museum@2026'],
    ];
    const r = await importFile(s, admin, 'sysUser', await xlsxOf(PEOPLE, rows));
    expect(r.body).toMatchObject({ success: true, message: '批量导入成功', result: { created: 2 } });
    const login = await loginCall(s, 'guide02', 'Museum@2026');
    expect(login.body.success).toBe(true);
    const list = await s.call('GET', `${M}/sysUser/list?keyword=guide02`, { token: admin });
    expect(list.body.result.list[0]).toMatchObject({
      userName: '孙小美',
      deptNames: ['陈列部', '社教部'],
      superiorName: '钱多多',
    });
  });

  it('refuses the whole file for any bad row, naming every one', async () => {
    const rows = [
      ['guide03', '周周', '13911110003', '社教部', '', '', 'Museum@2026'],
      ['director', '重名账号', '', '', '', '', 'Museum@2026'],
      ['guide04', '吴用', '13911110003', '', '', '', 'Museum@2026'],
      ['guide05', '郑好', '', '没有的部门', '', '', 'Museum@2026'],
      ['guide06', '王五', '', '', '', '', '123'],
      ['guide07', '赵六', '', '', '', 'nobody', 'Museum@2026'],
    ];
    const r = await importFile(s, admin, 'sysUser', await xlsxOf(PEOPLE, rows));
    expect(r.body.code).toBe(1004);
    expect(r.body.result.lines).toEqual([
      '第 4 行：与第 2 行重复',
      '第 5 行：部门“没有的部门”不存在',
      '第 6 行：密码长度须为 6–20 位',
    ]);
    // Once the rows read well, the accounts themselves are checked: all of them, still nothing saved.
    const second = await importFile(
      s,
      admin,
      'sysUser',
      await xlsxOf(PEOPLE, [rows[0]!, rows[1]!, rows[5]!]),
    );
    expect(second.body.result.lines).toEqual([
      '第 3 行：账号 director 已存在，请换一个账号',
      '第 4 行：直属上级“nobody”不是已有账号，也不是本文件前面行的账号',
    ]);
    const none = await s.call('GET', `${M}/sysUser/list?keyword=guide03`, { token: admin });
    expect(none.body.result.total).toBe(0);
  });

  it('lets only a super administrator import the super-administrator role', async () => {
    const itAdmin = await s.login('staff09');
    const r = await importFile(
      s,
      itAdmin,
      'sysUser',
      await xlsxOf(PEOPLE, [['boss01', '某某', '', '', '超级管理员', '', 'Museum@2026']]),
    );
    expect(r.body.result.lines).toEqual(['第 2 行：只有超级管理员可以授予超级管理员角色']);
  });
});
