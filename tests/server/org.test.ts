import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ROLE_MENU, allLeafKeys } from '../../src/shared/menu/catalogue';
import { DEMO_DEPARTMENTS } from '../../src/server/modules/seed/seed';
import { startServer, type TestServer } from './harness';
import {
  M,
  deptIdByName,
  deptTree,
  demoPhone,
  failure,
  flatten,
  loginCall,
  roleIdByCode,
  sessionCount,
  userIdOf,
} from './util';

/*
 * The organisation admin calls: users, departments, roles, role menus, and who may call them.
 * Tests run in file order over one server; reads of the seeded state come first.
 */

let s: TestServer;
let admin: string;
let staff09: string;
const ok = (result: unknown = {}) => ({ success: true, code: 0, message: '成功', result });
const FORBIDDEN = failure(1005, '无权限执行此操作，请联系管理员开通');

beforeAll(async () => {
  s = await startServer();
  admin = await s.login('admin');
  staff09 = await s.login('staff09');
});
afterAll(() => s.close());

const post = (path: string, body: unknown, token = admin) => s.call('POST', `${M}${path}`, { token, body });
const get = (path: string, token = admin) => s.call('GET', `${M}${path}`, { token });
const accounts = (res: { body: any }) => res.body.result.list.map((u: { account: string }) => u.account);

async function listAll(query = '') {
  const res = await get(`/sysUser/list?pageCount=200${query}`);
  expect(res.body.success).toBe(true);
  return res.body.result as { list: any[]; total: number };
}
async function rowOf(account: string) {
  return (await listAll(`&keyword=${account}`)).list.find((u) => u.account === account);
}

/** A valid user-create body; override what a test is about. */
function newUser(account: string, extra: Record<string, unknown> = {}) {
  return { account, password: 'Abc@123', userName: '新员工', phone: '', ...extra };
}

describe('user list', () => {
  it('lists the admin and the eleven demo people, in id order, with their details', async () => {
    const res = await get('/sysUser/list');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.result.total).toBe(12);
    expect(accounts(res)).toEqual([
      'admin',
      'director',
      ...Array.from({ length: 10 }, (_, i) => `staff${String(i + 1).padStart(2, '0')}`),
    ]);
    const [adminRow] = res.body.result.list;
    expect(adminRow).toEqual({
      userId: await userIdOf(s, 'admin'),
      account: 'admin',
      userName: '系统管理员',
      phone: '',
      image: '',
      enabled: true,
      superiorId: null,
      superiorName: '',
      deptIds: [],
      deptNames: [],
      roleIds: [await roleIdByCode(s, admin, 'viviHignAdmin')],
      roleNames: ['超级管理员'],
    });
    const staff02 = res.body.result.list.find((u: { account: string }) => u.account === 'staff02');
    expect(staff02).toEqual({
      userId: await userIdOf(s, 'staff02'),
      account: 'staff02',
      userName: '王芳',
      phone: demoPhone(2),
      image: '',
      enabled: true,
      superiorId: await userIdOf(s, 'staff01'),
      superiorName: '李明',
      deptIds: [await deptIdByName(s, admin, '办公室')],
      deptNames: ['办公室'],
      roleIds: [],
      roleNames: [],
    });
    const staff03 = res.body.result.list.find((u: { account: string }) => u.account === 'staff03');
    expect(staff03.roleNames).toEqual(['部门主任', '典藏管理员']);
  });

  it('pages with currentPage and pageCount', async () => {
    const p2 = await get('/sysUser/list?currentPage=2&pageCount=5');
    expect(p2.body.result.total).toBe(12);
    expect(accounts(p2)).toEqual(['staff04', 'staff05', 'staff06', 'staff07', 'staff08']);
    const p3 = await get('/sysUser/list?currentPage=3&pageCount=5');
    expect(accounts(p3)).toEqual(['staff09', 'staff10']);
    const p4 = await get('/sysUser/list?currentPage=4&pageCount=5');
    expect(p4.body.result).toEqual({ list: [], total: 12 });
  });

  it('refuses page parameters out of range', async () => {
    for (const [q, message] of [
      ['pageCount=0', '每页条数不能小于 1'],
      ['pageCount=201', '每页条数不能大于 200'],
      ['currentPage=0', '页码不能小于 1'],
      ['currentPage=abc', '页码必须是数字'],
    ]) {
      const res = await get(`/sysUser/list?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body, q).toEqual(failure(400, message!));
    }
  });

  it('searches account, Chinese name (substring) and phone', async () => {
    expect(accounts(await get(`/sysUser/list?keyword=${encodeURIComponent('王芳')}`))).toEqual(['staff02']);
    expect(accounts(await get(`/sysUser/list?keyword=${encodeURIComponent('芳')}`))).toEqual(['staff02']);
    expect(accounts(await get(`/sysUser/list?keyword=${encodeURIComponent('张国')}`))).toEqual(['director']);
    expect(accounts(await get('/sysUser/list?keyword=staff1'))).toEqual(['staff10']);
    expect(accounts(await get('/sysUser/list?keyword=1380000001'))).toEqual(['staff10']);
    const byPrefix = await get('/sysUser/list?keyword=1380000000');
    expect(byPrefix.body.result.total).toBe(10);
    const none = await get(`/sysUser/list?keyword=${encodeURIComponent('不存在的人')}`);
    expect(none.body.result).toEqual({ list: [], total: 0 });
  });

  it('treats % and _ in the keyword as plain characters', async () => {
    for (const k of ['%', '_', 'staff_1', '%a%']) {
      const res = await get(`/sysUser/list?keyword=${encodeURIComponent(k)}`);
      expect(res.body.result, k).toEqual({ list: [], total: 0 });
    }
  });

  it('filters by department, alone and with a keyword', async () => {
    const office = await deptIdByName(s, admin, '办公室');
    const res = await get(`/sysUser/list?deptId=${office}`);
    expect(res.body.result.total).toBe(2);
    expect(accounts(res)).toEqual(['staff01', 'staff02']);
    const edu = await deptIdByName(s, admin, '社教部');
    expect(accounts(await get(`/sysUser/list?deptId=${edu}&keyword=${encodeURIComponent('何')}`))).toEqual([
      'staff10',
    ]);
    expect((await get('/sysUser/list?deptId=99999')).body.result).toEqual({ list: [], total: 0 });
  });
});

describe('role list (seeded)', () => {
  it('lists the built-in and demo roles with counts and menus', async () => {
    const res = await get('/sysRole/list');
    expect(res.body.success).toBe(true);
    const roles = res.body.result as any[];
    expect(roles.map((r) => r.code)).toEqual([
      'viviHignAdmin',
      'myselfRole',
      'auditor',
      'volunteerRole',
      'leader',
      'deptHead',
      'keeper',
      'curator',
      'educator',
      'conservator',
      'itAdmin',
    ]);
    const byCode = new Map(roles.map((r) => [r.code, r]));
    expect(byCode.get('viviHignAdmin')).toMatchObject({
      name: '超级管理员',
      builtin: true,
      allMenus: true,
      userCount: 1,
      menuKeys: allLeafKeys(),
    });
    expect(byCode.get('myselfRole')).toMatchObject({ name: '普通员工', builtin: true, allMenus: false });
    expect([...byCode.get('myselfRole').menuKeys].sort()).toEqual([...DEFAULT_ROLE_MENU].sort());
    expect(byCode.get('deptHead')).toMatchObject({ name: '部门主任', builtin: false, userCount: 4 });
    expect(byCode.get('itAdmin').userCount).toBe(1);
    // 审计员 (issue 18) reads the system log and nothing else; 系统日志 is the auditor's alone.
    expect(byCode.get('auditor')).toMatchObject({ name: '审计员', builtin: true, menuKeys: ['system.log'] });
    // 志愿者 (issue 20): built in, no staff menu (the volunteer's phone view is /m).
    expect(byCode.get('volunteerRole')).toMatchObject({ name: '志愿者', builtin: true, menuKeys: [] });
    expect(byCode.get('itAdmin').menuKeys).not.toContain('system.log');
  });
});

describe('department tree', () => {
  it('holds the museum root with the seven demo departments and member counts', async () => {
    const tree = await deptTree(s, admin);
    expect(tree).toHaveLength(1);
    const [root] = tree;
    expect(root).toMatchObject({ name: '博物馆', parentId: null, userCount: 0 });
    expect(root!.children.map((d) => d.name)).toEqual(DEMO_DEPARTMENTS);
    const counts = Object.fromEntries(root!.children.map((d) => [d.name, d.userCount]));
    expect(counts).toEqual({
      馆长办公室: 1,
      办公室: 2,
      典藏部: 2,
      陈列部: 2,
      社教部: 2,
      文保部: 1,
      信息中心: 1,
    });
    for (const d of root!.children) expect(d.parentId).toBe(root!.id);
  });

  it('creates departments under a parent and at the root', async () => {
    const rootId = await deptIdByName(s, admin, '博物馆');
    const res = await post('/sysDept/save', { name: '安保部', parentId: rootId });
    expect(res.body).toEqual(ok({ id: expect.any(Number) }));
    const node = flatten(await deptTree(s, admin)).find((d) => d.id === res.body.result.id)!;
    expect(node).toMatchObject({ name: '安保部', parentId: rootId, userCount: 0, children: [] });
    const siblings = flatten(await deptTree(s, admin)).filter((d) => d.parentId === rootId);
    expect(siblings.at(-1)!.name).toBe('安保部');

    const top = await post('/sysDept/save', { name: '分馆' });
    expect(top.body.success).toBe(true);
    const tree = await deptTree(s, admin);
    expect(tree.map((d) => d.name)).toEqual(['博物馆', '分馆']);
  });

  it('refuses a duplicate name among siblings, but allows it under another parent', async () => {
    const rootId = await deptIdByName(s, admin, '博物馆');
    expect((await post('/sysDept/save', { name: '办公室', parentId: rootId })).body).toEqual(
      failure(1007, '同一上级下已有部门“办公室”'),
    );
    expect((await post('/sysDept/save', { name: '  办公室 ', parentId: rootId })).body).toEqual(
      failure(1007, '同一上级下已有部门“办公室”'),
    );
    // Not a way round the duplicate rule either: an invisible character makes a look-alike.
    expect((await post('/sysDept/save', { name: '办公\u200d室', parentId: rootId })).body).toEqual(
      failure(400, '部门名称不能包含不可见字符或文字方向控制字符，请删除后重试'),
    );
    expect((await post('/sysDept/save', { name: '博物馆' })).body).toEqual(
      failure(1007, '同一上级下已有部门“博物馆”'),
    );
    const branch = await deptIdByName(s, admin, '分馆');
    const res = await post('/sysDept/save', { name: '办公室', parentId: branch });
    expect(res.body.success).toBe(true);
    // Later tests look 办公室 up by name; the copy has served its purpose.
    expect((await post('/sysDept/delete', { id: res.body.result.id })).body).toEqual(ok());
  });

  it('refuses a missing parent and a bad name', async () => {
    expect((await post('/sysDept/save', { name: '某部', parentId: 99999 })).body).toEqual(
      failure(1010, '所选上级部门不存在，请刷新后重试'),
    );
    const empty = await post('/sysDept/save', { name: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual(failure(400, '请输入部门名称'));
    const long = await post('/sysDept/save', { name: '部'.repeat(31) });
    expect(long.status).toBe(400);
    expect(long.body).toEqual(failure(400, '部门名称不能超过 30 个字符'));
  });

  it('renames and moves a department', async () => {
    const rootId = await deptIdByName(s, admin, '博物馆');
    const id = (await post('/sysDept/save', { name: '临时部', parentId: rootId })).body.result.id;
    expect((await post('/sysDept/update', { id, name: '临时展览部', parentId: rootId })).body).toEqual(ok());
    const branch = await deptIdByName(s, admin, '分馆');
    expect((await post('/sysDept/update', { id, name: '临时展览部', parentId: branch })).body).toEqual(ok());
    const node = flatten(await deptTree(s, admin)).find((d) => d.id === id)!;
    expect(node).toMatchObject({ name: '临时展览部', parentId: branch });
    // To the top level.
    expect((await post('/sysDept/update', { id, name: '临时展览部', parentId: null })).body).toEqual(ok());
    expect((await deptTree(s, admin)).map((d) => d.name)).toContain('临时展览部');
  });

  it('refuses a rename onto a sibling, a move under itself or its own child, and unknown ids', async () => {
    const rootId = await deptIdByName(s, admin, '博物馆');
    const office = await deptIdByName(s, admin, '办公室');
    expect((await post('/sysDept/update', { id: office, name: '典藏部', parentId: rootId })).body).toEqual(
      failure(1007, '同一上级下已有部门“典藏部”'),
    );
    // Renaming to its own name is no conflict.
    expect((await post('/sysDept/update', { id: office, name: '办公室', parentId: rootId })).body).toEqual(
      ok(),
    );

    const cycle = failure(1010, '不能把部门移动到它自己或它的下级部门之下');
    expect((await post('/sysDept/update', { id: rootId, name: '博物馆', parentId: office })).body).toEqual(
      cycle,
    );
    expect((await post('/sysDept/update', { id: office, name: '办公室', parentId: office })).body).toEqual(
      cycle,
    );
    const child = (await post('/sysDept/save', { name: '文秘组', parentId: office })).body.result.id;
    const grandchild = (await post('/sysDept/save', { name: '档案小组', parentId: child })).body.result.id;
    expect(
      (await post('/sysDept/update', { id: office, name: '办公室', parentId: grandchild })).body,
    ).toEqual(cycle);

    expect((await post('/sysDept/update', { id: 99999, name: '某部', parentId: null })).body).toEqual(
      failure(404, '该部门不存在，请刷新后重试'),
    );
    expect((await post('/sysDept/update', { id: office, name: '办公室', parentId: 99999 })).body).toEqual(
      failure(1010, '所选上级部门不存在，请刷新后重试'),
    );
    // Nothing moved.
    const tree = await deptTree(s, admin);
    expect(tree[0]!.id).toBe(rootId);
    expect(flatten(tree).find((d) => d.id === office)!.parentId).toBe(rootId);
  });

  it('refuses to delete a department with members or sub-departments, deletes an empty one', async () => {
    const office = await deptIdByName(s, admin, '办公室');
    const rootId = await deptIdByName(s, admin, '博物馆');
    const guard = await deptIdByName(s, admin, '安保部');
    expect((await post('/sysDept/delete', { id: rootId })).body).toEqual(
      failure(1010, '请先删除或移走该部门的下级部门'),
    );
    expect((await post('/sysDept/delete', { id: await deptIdByName(s, admin, '信息中心') })).body).toEqual(
      failure(1010, '该部门下还有员工，请先调整员工的部门'),
    );
    // 办公室 now has a sub-department (文秘组) as well as members.
    expect((await post('/sysDept/delete', { id: office })).body.success).toBe(false);

    expect((await post('/sysDept/delete', { id: guard })).body).toEqual(ok());
    expect(flatten(await deptTree(s, admin)).some((d) => d.id === guard)).toBe(false);
    expect((await post('/sysDept/delete', { id: guard })).body).toEqual(
      failure(404, '该部门不存在，请刷新后重试'),
    );
  });
});

describe('creating users', () => {
  it('creates a user with departments, roles and a superior, who can then sign in', async () => {
    const office = await deptIdByName(s, admin, '办公室');
    const curator = await roleIdByCode(s, admin, 'curator');
    const superior = await userIdOf(s, 'staff01');
    const res = await post('/sysUser/save', {
      account: 'newbie1',
      password: 'Abc123',
      userName: '  新员工甲 ',
      phone: '13912345678',
      deptIds: [office, office],
      roleIds: [curator],
      superiorId: superior,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(ok({ userId: expect.any(Number) }));
    const row = await rowOf('newbie1');
    expect(row).toEqual({
      userId: res.body.result.userId,
      account: 'newbie1',
      userName: '新员工甲',
      phone: '13912345678',
      image: '',
      enabled: true,
      superiorId: superior,
      superiorName: '李明',
      deptIds: [office],
      deptNames: ['办公室'],
      roleIds: [curator],
      roleNames: ['策展人'],
    });

    const byAccount = await loginCall(s, 'newbie1', 'Abc123');
    expect(byAccount.body.result).toMatchObject({ userId: row.userId, userName: '新员工甲' });
    const byPhone = await loginCall(s, '13912345678', 'Abc123');
    expect(byPhone.body.success).toBe(true);
    const rf = await post('/login/getRoleFunction', undefined, byPhone.body.result.token);
    expect(rf.body.result).toEqual({ roles: ['curator'], firstUrl: '/home/workbench' });
  });

  it('creates users without a phone (several may have none)', async () => {
    expect((await post('/sysUser/save', newUser('nophone1'))).body.success).toBe(true);
    expect((await post('/sysUser/save', newUser('nophone2'))).body.success).toBe(true);
    expect((await rowOf('nophone2')).phone).toBe('');
  });

  it('refuses a duplicate account or phone', async () => {
    expect((await post('/sysUser/save', newUser('staff01'))).body).toEqual(
      failure(1007, '账号 staff01 已存在，请换一个账号'),
    );
    expect((await post('/sysUser/save', newUser('dupphone', { phone: demoPhone(3) }))).body).toEqual(
      failure(1007, '该手机号已被其他账号使用'),
    );
    expect(await rowOf('dupphone')).toBeUndefined();
  });

  it('refuses passwords that break the rule, with HTTP 400', async () => {
    const cases: [string, string][] = [
      ['abcdefg', '密码须至少包含数字、字母、符号中的两种'],
      ['12345678', '密码须至少包含数字、字母、符号中的两种'],
      ['Ab1', '密码长度须为 6–20 位'],
      ['Abc123456789012345678', '密码长度须为 6–20 位'],
      ['abc 123', '密码不能包含空格'],
    ];
    for (const [password, message] of cases) {
      const res = await post('/sysUser/save', newUser('pwtest', { password }));
      expect(res.status, password).toBe(400);
      expect(res.body, password).toEqual(failure(400, message));
    }
    expect(await rowOf('pwtest')).toBeUndefined();
  });

  it('refuses a bad phone, account or name, with HTTP 400', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ phone: '12345' }, '请输入正确的 11 位手机号'],
      [{ phone: '12012345678' }, '请输入正确的 11 位手机号'],
      [{ phone: '139123456789' }, '请输入正确的 11 位手机号'],
      [{ account: 'a' }, '账号须为 2–30 位字母或数字'],
      [{ account: 'bad-acc' }, '账号须为 2–30 位字母或数字'],
      [{ account: '张三' }, '账号须为 2–30 位字母或数字'],
      [{ account: 'a'.repeat(31) }, '账号须为 2–30 位字母或数字'],
      [{ userName: '  ' }, '请输入姓名'],
      [{ userName: '名'.repeat(31) }, '姓名不能超过 30 个字符'],
      // A name colleagues read must not be reversed or padded with invisible characters.
      [{ userName: '王\u202e芳' }, '姓名不能包含不可见字符或文字方向控制字符，请删除后重试'],
      [{ userName: '王芳\u200b' }, '姓名不能包含不可见字符或文字方向控制字符，请删除后重试'],
    ];
    for (const [extra, message] of cases) {
      const res = await post('/sysUser/save', { ...newUser('badfield'), ...extra });
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body, JSON.stringify(extra)).toEqual(failure(400, message));
    }
  });

  it('refuses departments, roles or a superior that do not exist', async () => {
    expect((await post('/sysUser/save', newUser('ghost1', { deptIds: [99999] }))).body).toEqual(
      failure(1010, '所选部门不存在，请刷新后重试'),
    );
    expect((await post('/sysUser/save', newUser('ghost1', { roleIds: [99999] }))).body).toEqual(
      failure(1010, '所选角色不存在，请刷新后重试'),
    );
    expect((await post('/sysUser/save', newUser('ghost1', { superiorId: 99999 }))).body).toEqual(
      failure(1010, '所选直属上级不存在，请刷新后重试'),
    );
    expect(await rowOf('ghost1')).toBeUndefined();
  });

  it('answers two simultaneous creations of one account with one success and one refusal', async () => {
    const body = newUser('racer1');
    const answers = await Promise.all([post('/sysUser/save', body), post('/sysUser/save', body)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const bodies = answers.map((a) => a.body);
    expect(bodies.filter((b) => b.success)).toHaveLength(1);
    expect(bodies.find((b) => !b.success)).toEqual(failure(1007, '账号 racer1 已存在，请换一个账号'));
  });

  it('answers two simultaneous creations with one phone with one success and one refusal', async () => {
    const answers = await Promise.all([
      post('/sysUser/save', newUser('racer2', { phone: '13711112222' })),
      post('/sysUser/save', newUser('racer3', { phone: '13711112222' })),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const bodies = answers.map((a) => a.body);
    expect(bodies.filter((b) => b.success)).toHaveLength(1);
    expect(bodies.find((b) => !b.success)).toEqual(failure(1007, '该手机号已被其他账号使用'));
  });
});

describe('updating users', () => {
  it('updates name, phone, departments, roles and superior; the menu follows at once', async () => {
    const token = await s.login('staff06');
    const before = await get('/login/menu', token);
    expect(before.body.result.modules.map((m: { key: string }) => m.key)).toEqual([
      'home',
      'oa',
      'project',
      'book',
      'resources',
    ]);
    const id = await userIdOf(s, 'staff06');
    const keeper = await roleIdByCode(s, admin, 'keeper');
    const dept = await deptIdByName(s, admin, '典藏部');
    const superior = await userIdOf(s, 'staff03');
    const res = await post('/sysUser/update', {
      userId: id,
      userName: '孙悦悦',
      phone: '13700000006',
      deptIds: [dept],
      roleIds: [keeper],
      superiorId: superior,
    });
    expect(res.body).toEqual(ok());
    expect(await rowOf('staff06')).toMatchObject({
      userName: '孙悦悦',
      phone: '13700000006',
      deptNames: ['典藏部'],
      roleNames: ['典藏管理员'],
      superiorId: superior,
      superiorName: '赵磊',
    });
    const after = await get('/login/menu', token);
    expect(after.body.result.modules.map((m: { key: string }) => m.key)).toEqual([
      'home',
      'oa',
      'book',
      'resources',
    ]);
    expect((await loginCall(s, '13700000006')).body.success).toBe(true);
    expect((await loginCall(s, demoPhone(6))).body.success).toBe(false);
  });

  it('keeps the own phone, and refuses another person’s', async () => {
    const id = await userIdOf(s, 'staff04');
    const same = await post('/sysUser/update', { userId: id, userName: '陈静', phone: demoPhone(4) });
    expect(same.body).toEqual(ok());
    const taken = await post('/sysUser/update', { userId: id, userName: '陈静', phone: demoPhone(5) });
    expect(taken.body).toEqual(failure(1007, '该手机号已被其他账号使用'));
    expect((await rowOf('staff04')).phone).toBe(demoPhone(4));
  });

  it('refuses an unknown user', async () => {
    expect((await post('/sysUser/update', { userId: 99999, userName: '某人', phone: '' })).body).toEqual(
      failure(404, '该员工不存在，请刷新后重试'),
    );
  });

  it('refuses the user as their own superior, and any cycle of superiors', async () => {
    const staff02 = await userIdOf(s, 'staff02');
    const staff01 = await userIdOf(s, 'staff01');
    const director = await userIdOf(s, 'director');
    expect(
      (await post('/sysUser/update', { userId: staff02, userName: '王芳', phone: '', superiorId: staff02 }))
        .body,
    ).toEqual(failure(1010, '直属上级不能是本人'));
    const cycle = failure(1010, '所选上级是该员工的下属，不能形成循环的上下级关系');
    // staff02 → staff01 → director: the director may not report to either.
    expect(
      (
        await post('/sysUser/update', {
          userId: director,
          userName: '张国华',
          phone: '',
          superiorId: staff02,
        })
      ).body,
    ).toEqual(cycle);
    expect(
      (await post('/sysUser/update', { userId: staff01, userName: '李明', phone: '', superiorId: staff02 }))
        .body,
    ).toEqual(cycle);
    expect(
      (await post('/sysUser/update', { userId: staff01, userName: '李明', phone: '', superiorId: 99999 }))
        .body,
    ).toEqual(failure(1010, '所选直属上级不存在，请刷新后重试'));
    expect((await rowOf('director')).superiorId).toBeNull();
    expect((await rowOf('staff01')).superiorId).toBe(director);
  });
});

describe('enabling and disabling', () => {
  it('refuses to disable oneself or the admin account', async () => {
    const adminId = await userIdOf(s, 'admin');
    expect((await post('/sysUser/enable', { userId: adminId, enabled: false })).body).toEqual(
      failure(1005, '不能停用自己的账号'),
    );
    expect((await post('/sysUser/enable', { userId: adminId, enabled: false }, staff09)).body).toEqual(
      failure(1005, '不能停用系统管理员账号 admin'),
    );
    expect((await rowOf('admin')).enabled).toBe(true);
    expect((await post('/sysUser/enable', { userId: 99999, enabled: false })).body).toEqual(
      failure(404, '该员工不存在，请刷新后重试'),
    );
  });

  it('shows a disabled user as such, and enables again', async () => {
    const id = await userIdOf(s, 'nophone1');
    expect((await post('/sysUser/enable', { userId: id, enabled: false })).body).toEqual(ok());
    expect((await rowOf('nophone1')).enabled).toBe(false);
    expect((await post('/sysUser/enable', { userId: id, enabled: true })).body).toEqual(ok());
    expect((await rowOf('nophone1')).enabled).toBe(true);
  });
});

describe('resetting a password', () => {
  it('ends the user’s sessions; the new password works and the old does not', async () => {
    const token = await s.login('staff10');
    const id = await userIdOf(s, 'staff10');
    const res = await post('/sysUser/resetPassword', { userId: id, password: 'Reset#2026' });
    expect(res.body).toEqual(ok());
    expect(await sessionCount(s, id)).toBe(0);
    expect((await get('/login/userInfo', token)).status).toBe(999);
    expect((await loginCall(s, 'staff10')).body.code).toBe(1001);
    expect((await loginCall(s, 'staff10', 'Reset#2026')).body.success).toBe(true);
  });

  it('makes its owner choose their own at the next sign-in (must_change_password), for any account', async () => {
    // Seeded accounts are never asked (the e2e journeys sign them in straight to their pages);
    // staff10's was reset by the test above.
    const flagged = await s.db
      .selectFrom('user')
      .select('account')
      .where('must_change_password', '=', 1)
      .execute();
    const seeded = /^(admin|director|staff\d\d)$/;
    expect(flagged.filter((u) => seeded.test(u.account))).toEqual([{ account: 'staff10' }]);
    const id = await userIdOf(s, 'staff08');
    const before = await s.login('staff08');
    expect((await get('/login/userInfo', before)).body.result.mustChangePassword).toBe(false);

    expect((await post('/sysUser/resetPassword', { userId: id, password: 'Reset#2027' })).body).toEqual(ok());
    const token = await s.login('staff08', 'Reset#2027');
    expect((await get('/login/userInfo', token)).body.result.mustChangePassword).toBe(true);
    // The change of their own clears it; the chosen password is theirs alone.
    const changed = await post(
      '/personal/password',
      { oldPassword: 'Reset#2027', newPassword: 'Mine#2027' },
      token,
    );
    expect(changed.body.success).toBe(true);
    const again = await s.login('staff08', 'Mine#2027');
    expect((await get('/login/userInfo', again)).body.result.mustChangePassword).toBe(false);
  });

  it('asks a person an administrator added for their own password at the first sign-in', async () => {
    const made = await post('/sysUser/save', {
      account: 'newcomer24',
      userName: '新同事',
      phone: '',
      password: 'Start#2026',
      roleIds: [],
    });
    expect(made.body.success, made.body.message).toBe(true);
    const token = await s.login('newcomer24', 'Start#2026');
    expect((await get('/login/userInfo', token)).body.result.mustChangePassword).toBe(true);
    const changed = await post(
      '/personal/password',
      { oldPassword: 'Start#2026', newPassword: 'Own#2026x' },
      token,
    );
    expect(changed.body.success).toBe(true);
    const again = await s.login('newcomer24', 'Own#2026x');
    expect((await get('/login/userInfo', again)).body.result.mustChangePassword).toBe(false);
  });

  it('refuses a password that breaks the rule, and an unknown user', async () => {
    const id = await userIdOf(s, 'staff10');
    const bad = await post('/sysUser/resetPassword', { userId: id, password: 'short' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(failure(400, '密码长度须为 6–20 位'));
    expect((await post('/sysUser/resetPassword', { userId: 99999, password: 'Reset#2026' })).body).toEqual(
      failure(404, '该员工不存在，请刷新后重试'),
    );
  });
});

describe('roles', () => {
  it('creates a role, refusing a duplicate or malformed code', async () => {
    const res = await post('/sysRole/save', { code: 'guide', name: '讲解员', remark: '展厅讲解' });
    expect(res.body).toEqual(ok({ roleId: expect.any(Number) }));
    const row = (await get('/sysRole/list')).body.result.find((r: { code: string }) => r.code === 'guide');
    expect(row).toEqual({
      roleId: res.body.result.roleId,
      code: 'guide',
      name: '讲解员',
      remark: '展厅讲解',
      builtin: false,
      userCount: 0,
      menuKeys: [],
      allMenus: false,
    });

    expect((await post('/sysRole/save', { code: 'guide', name: '另一个' })).body).toEqual(
      failure(1007, '角色编码 guide 已存在'),
    );
    expect((await post('/sysRole/save', { code: 'leader', name: '另一个' })).body).toEqual(
      failure(1007, '角色编码 leader 已存在'),
    );
    for (const code of ['1abc', 'a', 'has-dash', 'x'.repeat(41)]) {
      const bad = await post('/sysRole/save', { code, name: '某角色' });
      expect(bad.status, code).toBe(400);
      expect(bad.body, code).toEqual(failure(400, '角色编码须以字母开头，由 2–40 位字母、数字或下划线组成'));
    }
    const noName = await post('/sysRole/save', { code: 'noname', name: ' ' });
    expect(noName.status).toBe(400);
    expect(noName.body).toEqual(failure(400, '请输入角色名称'));
  });

  it('updates a role', async () => {
    const id = await roleIdByCode(s, admin, 'guide');
    expect((await post('/sysRole/update', { roleId: id, name: '金牌讲解员', remark: '' })).body).toEqual(
      ok(),
    );
    const row = (await get('/sysRole/list')).body.result.find((r: { roleId: number }) => r.roleId === id);
    expect(row).toMatchObject({ code: 'guide', name: '金牌讲解员', remark: '' });
    expect((await post('/sysRole/update', { roleId: 99999, name: '某角色' })).body).toEqual(
      failure(404, '该角色不存在，请刷新后重试'),
    );
  });

  it('refuses to delete a built-in role', async () => {
    expect((await post('/sysRole/delete', { id: await roleIdByCode(s, admin, 'myselfRole') })).body).toEqual(
      failure(1005, '内置角色“普通员工”不能删除'),
    );
    expect(
      (await post('/sysRole/delete', { id: await roleIdByCode(s, admin, 'viviHignAdmin') })).body,
    ).toEqual(failure(1005, '内置角色“超级管理员”不能删除'));
    expect((await post('/sysRole/delete', { id: 99999 })).body).toEqual(
      failure(404, '该角色不存在，请刷新后重试'),
    );
  });

  it('refuses menus that are not catalogue leaves, and any menus for viviHignAdmin', async () => {
    const id = await roleIdByCode(s, admin, 'guide');
    const unknown = failure(1010, '包含不存在的菜单项，请刷新后重试');
    expect(
      (await post('/sysRole/setMenus', { roleId: id, menuKeys: ['home.workbench', 'nope.key'] })).body,
    ).toEqual(unknown);
    // A group key is not a grantable leaf.
    expect((await post('/sysRole/setMenus', { roleId: id, menuKeys: ['oa.approve'] })).body).toEqual(unknown);
    expect((await post('/sysRole/setMenus', { roleId: id, menuKeys: ['home'] })).body).toEqual(unknown);
    expect(
      (
        await post('/sysRole/setMenus', {
          roleId: await roleIdByCode(s, admin, 'viviHignAdmin'),
          menuKeys: [],
        })
      ).body,
    ).toEqual(failure(1005, '超级管理员始终拥有全部菜单，无需设置'));
    expect((await post('/sysRole/setMenus', { roleId: 99999, menuKeys: [] })).body).toEqual(
      failure(404, '该角色不存在，请刷新后重试'),
    );
    const row = (await get('/sysRole/list')).body.result.find((r: { roleId: number }) => r.roleId === id);
    expect(row.menuKeys).toEqual([]);
  });

  it("changes the menu and first page of the role's users at once", async () => {
    const roleId = await roleIdByCode(s, admin, 'guide');
    expect(
      (await post('/sysRole/setMenus', { roleId, menuKeys: ['repair.manage', 'repair.fill', 'repair.fill'] }))
        .body,
    ).toEqual(ok());
    const created = await post('/sysUser/save', newUser('guide01', { roleIds: [roleId] }));
    expect(created.body.success).toBe(true);
    const token = await s.login('guide01', 'Abc@123');

    const menu = await get('/login/menu', token);
    expect(menu.body.result.modules.map((m: { key: string }) => m.key)).toEqual(['repair']);
    expect(menu.body.result.modules[0].items.map((i: { key: string }) => i.key)).toEqual([
      'repair.manage',
      'repair.fill',
    ]);
    expect([...menu.body.result.grantedKeys].sort()).toEqual(['repair.fill', 'repair.manage']);
    // No workbench: the first page is the first entry the user may open.
    expect((await post('/login/getRoleFunction', undefined, token)).body.result).toEqual({
      roles: ['guide'],
      firstUrl: '/repair/repair-manage',
    });

    expect(
      (await post('/sysRole/setMenus', { roleId, menuKeys: ['order.view', 'home.workbench'] })).body,
    ).toEqual(ok());
    const menu2 = await get('/login/menu', token);
    expect(menu2.body.result.modules.map((m: { key: string }) => m.key)).toEqual(['home', 'order']);
    expect((await post('/login/getRoleFunction', undefined, token)).body.result.firstUrl).toBe(
      '/home/workbench',
    );

    expect((await post('/sysRole/setMenus', { roleId, menuKeys: [] })).body).toEqual(ok());
    const menu3 = await get('/login/menu', token);
    expect(menu3.body.result).toEqual({ modules: [], grantedKeys: [] });
    expect((await post('/login/getRoleFunction', undefined, token)).body.result).toEqual({
      roles: ['guide'],
      firstUrl: '/personal/base',
    });
  });

  it('deletes a role; its users fall back to myselfRole', async () => {
    const roleId = await roleIdByCode(s, admin, 'guide');
    const token = await s.login('guide01', 'Abc@123');
    expect((await post('/sysRole/delete', { id: roleId })).body).toEqual(ok());
    const codes = (await get('/sysRole/list')).body.result.map((r: { code: string }) => r.code);
    expect(codes).not.toContain('guide');
    expect((await rowOf('guide01')).roleIds).toEqual([]);
    expect((await post('/login/getRoleFunction', undefined, token)).body.result).toEqual({
      roles: ['myselfRole'],
      firstUrl: '/home/workbench',
    });
  });
});

describe('authorisation', () => {
  let staff02: string;
  beforeAll(async () => {
    staff02 = await s.login('staff02');
  });

  it('refuses every admin call to a person without the system pages', async () => {
    const deptId = await deptIdByName(s, admin, '办公室');
    const roleId = await roleIdByCode(s, admin, 'leader');
    const userId = await userIdOf(s, 'staff01');
    const calls: [string, string, unknown?][] = [
      ['GET', '/sysUser/list'],
      ['POST', '/sysUser/save', newUser('sneaky1')],
      ['POST', '/sysUser/update', { userId, userName: '李明', phone: '', roleIds: [] }],
      ['POST', '/sysUser/enable', { userId, enabled: false }],
      ['POST', '/sysUser/resetPassword', { userId, password: 'Hack@123' }],
      ['POST', '/sysDept/save', { name: '私设部门' }],
      ['POST', '/sysDept/update', { id: deptId, name: '改名', parentId: null }],
      ['POST', '/sysDept/delete', { id: deptId }],
      ['GET', '/sysRole/list'],
      ['POST', '/sysRole/save', { code: 'sneaky', name: '偷偷' }],
      ['POST', '/sysRole/update', { roleId, name: '改名' }],
      ['POST', '/sysRole/delete', { id: roleId }],
      ['POST', '/sysRole/setMenus', { roleId, menuKeys: [] }],
    ];
    for (const [method, path, body] of calls) {
      const res = await s.call(method, `${M}${path}`, { token: staff02, body });
      expect(res.status, path).toBe(200);
      expect(res.body, path).toEqual(FORBIDDEN);
    }
    // Nothing changed.
    expect(await rowOf('sneaky1')).toBeUndefined();
    expect((await rowOf('staff01')).enabled).toBe(true);
    expect((await rowOf('staff01')).roleNames).toEqual(['部门主任']);
    expect(flatten(await deptTree(s, admin)).some((d) => d.name === '私设部门')).toBe(false);
    expect((await loginCall(s, 'staff01')).body.success).toBe(true);
  });

  it('lets any signed-in person read the department tree', async () => {
    const res = await get('/sysDept/tree', staff02);
    expect(res.body.success).toBe(true);
    expect(res.body.result[0].name).toBe('博物馆');
  });

  it('lets the IT administrator (itAdmin, with the system module) manage people', async () => {
    const list = await get('/sysUser/list', staff09);
    expect(list.body.success).toBe(true);
    expect(list.body.result.total).toBeGreaterThan(12);
    expect((await get('/sysRole/list', staff09)).body.success).toBe(true);
    const dept = await post('/sysDept/save', { name: '网络组', parentId: null }, staff09);
    expect(dept.body.success).toBe(true);
  });

  it('lets a role with only the person page list roles (for its picker) but not change them', async () => {
    const created = await post('/sysRole/save', { code: 'hr', name: '人事专员' });
    const roleId = created.body.result.roleId;
    await post('/sysRole/setMenus', { roleId, menuKeys: ['system.person'] });
    await post('/sysUser/save', newUser('hr01', { roleIds: [roleId] }));
    const token = await s.login('hr01', 'Abc@123');
    expect((await get('/sysUser/list', token)).body.success).toBe(true);
    expect((await get('/sysRole/list', token)).body.success).toBe(true);
    expect((await post('/sysRole/save', { code: 'hr2', name: '人事二' }, token)).body).toEqual(FORBIDDEN);
    expect((await post('/sysDept/save', { name: '人事部' }, token)).body).toEqual(FORBIDDEN);
  });
});
