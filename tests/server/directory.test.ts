import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { M, deptIdByName, demoPhone, failure, userIdOf } from './util';

/*
 * The staff directory, /bs/bsAddressBook: every signed-in member of staff reads it; only the
 * 通讯录管理 grant (oa.addressBook) edits it. Staff rows come from the organisation, the
 * directory's own rows extend them or add external entries. Tests run in file order over one
 * server.
 */

let s: TestServer;
let admin: string;
let staff09: string;
let ids: { office: number; storage: number; root: number; staff02: number };
const B = `${M}/bs/bsAddressBook`;
const FORBIDDEN = failure(1005, '无权限执行此操作，请联系管理员开通');
const GONE = failure(404, '该通讯录条目不存在或已被删除，请刷新后重试');
const NO_DEPT = failure(1010, '所选部门不存在，请刷新后重试');

beforeAll(async () => {
  s = await startServer();
  admin = await s.login('admin');
  staff09 = await s.login('staff09');
  ids = {
    office: await deptIdByName(s, admin, '办公室'),
    storage: await deptIdByName(s, admin, '典藏部'),
    root: await deptIdByName(s, admin, '博物馆'),
    staff02: await userIdOf(s, 'staff02'),
  };
});
afterAll(() => s.close());

const get = (path: string, token = staff09) => s.call('GET', `${B}${path}`, { token });
const post = (path: string, body: unknown, token = admin) => s.call('POST', `${B}${path}`, { token, body });

interface Row {
  id: number | null;
  userId: number | null;
  name: string;
  deptNames: string[];
  position: string;
  mobile: string;
  officePhone: string;
  hidden: boolean;
}
async function list(query = '', token = staff09) {
  const res = await get(`/list${query}`, token);
  expect(res.body.success, JSON.stringify(res.body)).toBe(true);
  return res.body.result as { list: Row[]; total: number; departments: any[] };
}
const names = async (query = '', token = staff09) => (await list(query, token)).list.map((r) => r.name);
const rowNamed = async (name: string, query = '', token = staff09) =>
  (await list(query, token)).list.filter((r) => r.name === name);

/** A valid external entry; override what a test is about. */
const external = (extra: Record<string, unknown> = {}) => ({
  name: '安保值班室',
  deptId: ids.office,
  officePhone: '010-12345678',
  position: '24小时值班',
  ...extra,
});

describe('reading', () => {
  it('lists every enabled member of staff by department, with full phones, never the system account', async () => {
    const res = await list();
    expect(res.total).toBe(11);
    expect(res.list.map((r) => r.name)).toEqual([
      '张国华', // 馆长办公室
      '李明', // 办公室, by pinyin
      '王芳',
      '陈静', // 典藏部: Chen before Zhao
      '赵磊',
      '刘洋', // 陈列部
      '孙悦',
      '何雪', // 社教部
      '周婷',
      '吴昊', // 文保部
      '郑凯', // 信息中心
    ]);
    expect(res.list[2]).toEqual({
      id: null,
      userId: ids.staff02,
      name: '王芳',
      image: '',
      deptIds: [ids.office],
      deptNames: ['办公室'],
      position: '',
      mobile: demoPhone(2),
      officePhone: '',
      email: '',
      remark: '',
      sort: 0,
      hidden: false,
    });
    expect(res.departments[0]).toEqual({ id: ids.root, name: '博物馆', parentId: null, depth: 0, count: 11 });
    expect(res.departments.find((d) => d.id === ids.storage)).toMatchObject({ depth: 1, count: 2 });
  });

  it('searches by name, by phone digits and filters by department with its sub-departments', async () => {
    expect(await names('?keyword=王')).toEqual(['王芳']);
    expect(await names(`?keyword=${encodeURIComponent('138-0000-0002')}`)).toEqual(['王芳']);
    expect(await names('?keyword=00000010')).toEqual(['何雪']);
    expect(await names(`?deptId=${ids.storage}`)).toEqual(['陈静', '赵磊']);
    expect((await list(`?deptId=${ids.root}`)).total).toBe(11);
    expect(await names(`?deptId=${ids.storage}&keyword=${encodeURIComponent('赵')}`)).toEqual(['赵磊']);
    expect(await names('?keyword=nobody')).toEqual([]);
  });

  it('refuses unknown departments and bad filters', async () => {
    expect((await get('/list?deptId=99999')).body).toEqual(NO_DEPT);
    for (const bad of ['0', '-1', 'abc']) {
      const res = await get(`/list?deptId=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
    }
    const long = await get(`/list?keyword=${'a'.repeat(31)}`);
    expect(long.body.message).toBe('搜索内容不能超过 30 个字符');
  });

  it('needs a session, the workbench grant, and the editing grant for hidden rows', async () => {
    expect((await s.call('GET', `${B}/list`)).status).toBe(999);
    const role = await s.call('POST', `${M}/sysRole/save`, {
      token: admin,
      body: { code: 'noMenus', name: '无菜单' },
    });
    await s.call('POST', `${M}/sysUser/save`, {
      token: admin,
      body: {
        account: 'nomenu01',
        userName: '无菜单',
        phone: '',
        password: 'Abc@1234',
        roleIds: [role.body.result.roleId],
      },
    });
    const nomenu = await s.login('nomenu01', 'Abc@1234');
    expect((await get('/list', nomenu)).body).toEqual(FORBIDDEN);
    expect((await get(`/detail?userId=${ids.staff02}`, nomenu)).body).toEqual(FORBIDDEN);
    expect((await get('/list?includeHidden=1')).body).toEqual(FORBIDDEN);
    // The new account has no department: it is listed, last, under none.
    expect((await rowNamed('无菜单'))[0]).toMatchObject({ deptNames: [] });
    expect((await names()).at(-1)).toBe('无菜单');
  });
});

describe('editing rights', () => {
  it('refuses save, update and delete without 通讯录管理 (code 1005)', async () => {
    expect((await post('/save', external(), staff09)).body).toEqual(FORBIDDEN);
    expect((await post('/update', { ...external(), id: 1 }, staff09)).body).toEqual(FORBIDDEN);
    expect((await post('/delete', { id: 1 }, staff09)).body).toEqual(FORBIDDEN);
    expect((await get('/delete?id=1', staff09)).body).toEqual(FORBIDDEN);
    expect(await rowNamed('安保值班室', '', admin)).toEqual([]);
  });
});

describe('external entries', () => {
  let guardId: number;

  it('adds one that staff then find under its department, by name, number and position', async () => {
    const res = await post('/save', external());
    expect(res.body).toEqual({ success: true, code: 0, message: '成功', result: { id: expect.any(Number) } });
    guardId = res.body.result.id;
    expect(await names(`?deptId=${ids.office}`)).toEqual(['安保值班室', '李明', '王芳']);
    expect(await names('?keyword=12345678')).toEqual(['安保值班室']);
    expect(await names(`?keyword=${encodeURIComponent('值班')}`)).toEqual(['安保值班室']);
    const detail = await get(`/detail?id=${guardId}`);
    expect(detail.body.result).toMatchObject({
      id: guardId,
      userId: null,
      name: '安保值班室',
      deptNames: ['办公室'],
      officePhone: '010-12345678',
      mobile: '',
    });
  });

  it('refuses bad fields with messages that say what to fix', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, '请输入姓名'],
      [{ name: '   ' }, '请输入姓名'],
      [{ name: '长'.repeat(31) }, '姓名不能超过 30 个字符'],
      [{ mobile: '12345' }, '请输入正确的 11 位手机号'],
      [{ officePhone: 'abc' }, '请输入正确的办公电话（数字，可含区号“-”，如 010-12345678）'],
      [{ officePhone: '', mobile: '' }, '请至少填写手机号或办公电话'],
      [{ email: 'not-mail' }, '请输入正确的邮箱地址'],
      [{ position: '职'.repeat(31) }, '职务不能超过 30 个字符'],
      [{ remark: '备'.repeat(201) }, '备注不能超过 200 个字符'],
      [{ sort: -1 }, '排序须为 0–9999 的整数'],
      [{ sort: 1.5 }, '排序须为 0–9999 的整数'],
      [{ deptId: 0 }, '部门编号必须大于 0'],
    ];
    for (const [extra, message] of cases) {
      const res = await post('/save', external(extra));
      expect(res.status, message).toBe(400);
      expect(res.body, message).toEqual(failure(400, message));
    }
    expect((await post('/save', external({ deptId: 99999 }))).body).toEqual(NO_DEPT);
    expect((await rowNamed('安保值班室', '', admin)).length).toBe(1);
  });

  it('updates it, hides it from staff but not from 通讯录管理', async () => {
    const res = await post('/update', external({ id: guardId, mobile: '13912345678', hidden: true }));
    expect(res.body.success).toBe(true);
    expect(await rowNamed('安保值班室')).toEqual([]);
    expect((await get(`/detail?id=${guardId}`)).body).toEqual(GONE);
    const [row] = await rowNamed('安保值班室', '?includeHidden=1', admin);
    expect(row).toMatchObject({ hidden: true, mobile: '13912345678' });
    expect((await get(`/detail?id=${guardId}`, admin)).body.result).toMatchObject({ hidden: true });
    await post('/update', external({ id: guardId, mobile: '13912345678' }));
    expect(await rowNamed('安保值班室')).toHaveLength(1);
  });

  it('refuses updates that break the rules or name rows that do not exist', async () => {
    expect((await post('/update', external({ id: guardId, name: '' }))).body).toEqual(
      failure(1010, '请输入姓名'),
    );
    expect((await post('/update', external({ id: guardId, deptId: 99999 }))).body).toEqual(NO_DEPT);
    expect((await post('/update', external({ id: 99999 }))).body).toEqual(GONE);
    for (const id of [0, -1, 'abc']) {
      const res = await post('/update', external({ id }));
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect((await get(`/detail?id=${id}`)).status).toBe(400);
      expect((await post('/delete', { id })).status).toBe(400);
    }
    expect((await get('/detail')).body).toEqual(
      failure(400, '请指定一个通讯录条目（编号 id 或人员 userId，二选一）'),
    );
    expect((await get('/detail?id=99999')).body).toEqual(GONE);
  });

  it('loses its department when the department goes, and stays listed', async () => {
    const dept = await s.call('POST', `${M}/sysDept/save`, { token: admin, body: { name: '临时部' } });
    const deptId = dept.body.result.id as number;
    const res = await post('/save', external({ name: '临时窗口', deptId }));
    expect(await names(`?deptId=${deptId}`)).toEqual(['临时窗口']);
    await s.call('POST', `${M}/sysDept/delete`, { token: admin, body: { id: deptId } });
    const [row] = await rowNamed('临时窗口');
    expect(row).toMatchObject({ id: res.body.result.id, deptNames: [] });
  });

  it('is deleted by the spec GET with the token header, never by the cookie alone', async () => {
    const cookieOnly = await s.call('GET', `${B}/delete?id=${guardId}`, {
      headers: { cookie: `token=${admin}` },
    });
    expect(cookieOnly.body).toEqual(failure(1005, '此操作须在馆务云页面中进行，请刷新页面后重试'));
    expect(await rowNamed('安保值班室')).toHaveLength(1);
    expect((await get(`/delete?id=${guardId}`, admin)).body.success).toBe(true);
    expect(await rowNamed('安保值班室', '?includeHidden=1', admin)).toEqual([]);
    expect((await post('/delete', { id: guardId })).body).toEqual(GONE);
  });
});

describe('staff extensions', () => {
  let extId: number;

  it('adds a position and office phone to a member of staff without listing them twice', async () => {
    const res = await post('/save', {
      userId: ids.staff02,
      position: '档案员',
      officePhone: '0101234',
      sort: 1,
    });
    expect(res.body.success).toBe(true);
    extId = res.body.result.id;
    const rows = await rowNamed('王芳');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: extId,
      userId: ids.staff02,
      position: '档案员',
      officePhone: '0101234',
      mobile: demoPhone(2),
    });
    // sort 1 puts her after 李明's default 0 either way; search finds the new position.
    expect(await names(`?keyword=${encodeURIComponent('档案')}`)).toEqual(['王芳']);
    expect((await get(`/detail?userId=${ids.staff02}`)).body.result.id).toBe(extId);
  });

  it('refuses a second extension, unknown or unlisted accounts, and organisation fields', async () => {
    expect((await post('/save', { userId: ids.staff02, position: '又一个' })).body).toEqual(
      failure(1007, '该员工已有通讯录信息，请刷新后编辑'),
    );
    const unlisted = failure(404, '所选员工不存在或已停用，请刷新后重试');
    expect((await post('/save', { userId: 99999, position: 'x' })).body).toEqual(unlisted);
    expect((await post('/save', { userId: await userIdOf(s, 'admin'), position: 'x' })).body).toEqual(
      unlisted,
    );
    const orgFields = '员工的姓名、手机号和部门来自人员管理，请在人员管理中修改';
    const named = await post('/save', { userId: await userIdOf(s, 'staff01'), name: '改名' });
    expect(named.body).toEqual(failure(400, orgFields));
    expect((await post('/update', { id: extId, mobile: '13911112222' })).body).toEqual(
      failure(1010, orgFields),
    );
    expect((await post('/update', { id: extId, deptId: ids.storage })).body).toEqual(
      failure(1010, orgFields),
    );
  });

  it('never goes stale: changes to the account show at once, a disabled account drops out', async () => {
    const user = await s.call('GET', `${M}/sysUser/list?keyword=staff02`, { token: admin });
    const u = user.body.result.list[0];
    await s.call('POST', `${M}/sysUser/update`, {
      token: admin,
      body: {
        userId: u.userId,
        userName: '王芳芳',
        phone: '13955556666',
        deptIds: [ids.storage],
        roleIds: u.roleIds,
      },
    });
    const [row] = await rowNamed('王芳芳');
    expect(row).toMatchObject({
      id: extId,
      mobile: '13955556666',
      deptNames: ['典藏部'],
      position: '档案员',
    });
    expect(await rowNamed('王芳')).toEqual([]);

    await s.call('POST', `${M}/sysUser/enable`, { token: admin, body: { userId: u.userId, enabled: false } });
    expect(await rowNamed('王芳芳', '?includeHidden=1', admin)).toEqual([]);
    expect((await get(`/detail?id=${extId}`)).body).toEqual(GONE);
    await s.call('POST', `${M}/sysUser/enable`, { token: admin, body: { userId: u.userId, enabled: true } });
    expect(await rowNamed('王芳芳')).toHaveLength(1);
  });

  it('hides a member of staff, and deleting the extension lists them from 人员管理 alone again', async () => {
    await post('/update', { id: extId, position: '档案员', hidden: true });
    expect(await rowNamed('王芳芳')).toEqual([]);
    expect((await post('/delete', { id: extId })).body.success).toBe(true);
    const [row] = await rowNamed('王芳芳');
    expect(row).toMatchObject({ id: null, position: '', officePhone: '', hidden: false });
  });
});
