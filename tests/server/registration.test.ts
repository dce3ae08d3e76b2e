import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  LOGIN_PENDING,
  PHONE_TAKEN,
  REGISTER_DONE,
  REGISTER_FREE_PER_ADDRESS,
  loginRefused,
  welcomeNotice,
} from '../../src/shared/api/registration';
import { STALE_STATUS } from '../../src/shared/records/define';
import { startServer, type TestServer } from './harness';
import { M, clearLoginAttempts, deptIdByName, demoPhone, loginCall, userIdOf } from './util';

/**
 * Issue 18, self-registration and pending staff: the public page's calls (validation per field,
 * the per-address throttle, a phone already known), the pipeline an administrator decides
 * (通过 with roles creates a working account; 拒绝 with a reason; stale and replayed decisions;
 * who may decide), the sign-in's answer for a registered phone, the badge and the system log.
 */

let s: TestServer;
let admin: string;
let office: number;
const PASSWORD = 'Newbie#2026';
let phoneSeq = 0;
const nextPhone = () => `136${String(20_000_000 + ++phoneSeq).slice(-8)}`;

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  admin = await s.login('admin');
  office = await deptIdByName(s, admin, '办公室');
});
afterAll(async () => s?.close());
// Every test starts with the address's registration count (and sign-in failures) at zero.
beforeEach(async () => clearLoginAttempts(s));

const apply = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  s.call('POST', `${M}/register/apply`, { body, headers });
const valid = (over: Record<string, unknown> = {}) => ({
  userName: '林晓',
  phone: nextPhone(),
  deptId: office,
  password: PASSWORD,
  confirmPassword: PASSWORD,
  remark: '新入职办公室文员',
  ...over,
});

async function registered(over: Record<string, unknown> = {}) {
  const body = valid(over);
  const r = await apply(body);
  expect(r.body, JSON.stringify(r.body)).toMatchObject({ success: true, result: { message: REGISTER_DONE } });
  const row = await s.db
    .selectFrom('staff_registration')
    .select('id')
    .where('phone', '=', String(body.phone))
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return { ...body, id: Number(row.id) };
}

const get = (p: string, token = admin) => s.call('GET', `${M}${p}`, { token });
const post = (p: string, body: unknown, token = admin, headers: Record<string, string> = {}) =>
  s.call('POST', `${M}${p}`, { token, body, headers });
const detail = async (id: number) => (await get(`/sysUserPending/detail?id=${id}`)).body.result;
const roleIdOf = async (code: string) =>
  Number((await s.db.selectFrom('role').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id);

describe('the public page', () => {
  it('lists departments without a session: names and the tree, nothing else', async () => {
    const r = await s.call('GET', `${M}/register/depts`);
    expect(r.body.success).toBe(true);
    const list = r.body.result as { id: number; name: string; parentId: number | null }[];
    expect(list.map((d) => d.name)).toEqual(expect.arrayContaining(['博物馆', '办公室', '典藏部']));
    expect(Object.keys(list[0]!).sort()).toEqual(['id', 'name', 'parentId']);
    // Parents come before their children.
    const root = list.findIndex((d) => d.name === '博物馆');
    expect(list.findIndex((d) => d.name === '办公室')).toBeGreaterThan(root);
  });

  it('takes a registration without a session and keeps it 待审核, password never answered', async () => {
    const reg = await registered();
    const d = await detail(reg.id);
    expect(d.record).toMatchObject({ userName: '林晓', phone: reg.phone, deptId: office, status: 0 });
    expect(d.record.applyIp).toBe('127.0.0.1');
    expect(JSON.stringify(d)).not.toMatch(/password|scrypt/i);
    expect(d.log.map((l: { action: string }) => l.action)).toEqual(['create']);
    // Lists mask the phone; the detail shows it whole to those who decide.
    const page = (await get(`/sysUserPending/pageList?status=0&keyword=${reg.phone}`)).body.result;
    expect(page.list[0].phone).toBe(`${reg.phone.slice(0, 3)}****${reg.phone.slice(-4)}`);
  });

  it('refuses bad input field by field, in Chinese words naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ userName: '' }, '请输入姓名'],
      [{ userName: '林'.repeat(31) }, '姓名不能超过 30 个字符'],
      [{ userName: '林\u202e晓' }, '姓名'],
      [{ phone: '' }, '请输入手机号'],
      [{ phone: '1234567' }, '请输入正确的 11 位手机号'],
      [{ phone: '23800001111' }, '请输入正确的 11 位手机号'],
      [{ deptId: '' }, '请选择部门'],
      [{ deptId: 'abc' }, '请选择部门'],
      [{ password: '', confirmPassword: '' }, '请输入密码'],
      [{ password: 'a1', confirmPassword: 'a1' }, '密码长度须为 6–20 位'],
      [{ password: '12345678', confirmPassword: '12345678' }, '密码须至少包含数字、字母、符号中的两种'],
      [{ password: 'abc 12345', confirmPassword: 'abc 12345' }, '密码不能包含空格'],
      [{ password: `${'a1'.repeat(11)}`, confirmPassword: `${'a1'.repeat(11)}` }, '密码长度须为 6–20 位'],
      [{ confirmPassword: '' }, '请再次输入密码'],
      [{ confirmPassword: 'Other#2026' }, '两次输入的密码不一致'],
      [{ remark: '字'.repeat(201) }, '申请说明不能超过 200 个字符'],
    ];
    for (const [over, words] of cases) {
      const r = await apply(valid(over));
      expect(r.status, JSON.stringify(over)).toBe(400);
      expect(r.body.success).toBe(false);
      expect(r.body.message, JSON.stringify(over)).toContain(words);
    }
    const gone = await apply(valid({ deptId: 99_999 }));
    expect(gone.body).toMatchObject({ success: false, message: '所选部门不存在，请刷新页面后重新选择' });
    expect(
      await s.db
        .selectFrom('staff_registration')
        .select('id')
        .where('user_name', '=', '林'.repeat(31))
        .execute(),
    ).toEqual([]);
  });

  it('refuses a phone already registered or waiting with one answer that says no more', async () => {
    const reg = await registered();
    const again = await apply(valid({ phone: reg.phone, userName: '别人' }));
    const staff = await apply(valid({ phone: demoPhone(2) }));
    expect(again.body).toMatchObject({ success: false, message: PHONE_TAKEN });
    expect(staff.body).toEqual(again.body);
  });

  it('throttles an address: ten calls an hour, then a growing wait between calls, refused ones counted', async () => {
    for (let i = 0; i < REGISTER_FREE_PER_ADDRESS - 1; i++)
      expect((await apply(valid())).body.success).toBe(true);
    // A refused call counts as much as an accepted one (no free guessing of registered phones).
    expect((await apply(valid({ phone: demoPhone(1) }))).body.message).toBe(PHONE_TAKEN);
    // The eleventh goes through; the next must wait 30 s.
    expect((await apply(valid())).body.success).toBe(true);
    const over = await apply(valid());
    expect(over.body).toMatchObject({ success: false, code: 1008 });
    expect(over.body.message).toMatch(/^注册申请过于频繁，请 (29|30) 秒后再试$/);
    // After each wait one call goes through, and the next wait doubles.
    const waited = async () => {
      await s.db
        .updateTable('login_attempt')
        .set({ locked_until: Date.now() - 1 })
        .execute();
      expect((await apply(valid())).body.success).toBe(true);
      return (await apply(valid())).body.message as string;
    };
    expect(await waited()).toMatch(/请 (59|60) 秒后再试/);
    expect(await waited()).toMatch(/请 (119|120) 秒后再试/);
    // Other addresses' and the sign-in's counts are not touched.
    expect((await loginCall(s, 'staff02')).body.success).toBe(true);
  });
});

describe('signing in with a registered phone', () => {
  it('says the account is being reviewed, only with the password registered', async () => {
    const reg = await registered();
    const r = await loginCall(s, reg.phone, PASSWORD);
    expect(r.body).toMatchObject({ success: false, code: 1011, message: LOGIN_PENDING });
    // A wrong password answers exactly as for a phone nobody registered.
    const wrong = await loginCall(s, reg.phone, 'Wrong#2026');
    const nobody = await loginCall(s, '13999999999', 'Wrong#2026');
    expect(wrong.body.code).toBe(1001);
    expect(wrong.body.message).toBe(
      nobody.body.message.replace(/\d+ 次/, wrong.body.message.match(/\d+ 次/)![0]),
    );
    expect(wrong.body.message).toMatch(/^账号或密码错误/);
  });
});

describe('deciding a registration', () => {
  it('approves with the chosen roles: a working account, enabled, in the department', async () => {
    const reg = await registered();
    const curator = await roleIdOf('curator');
    const r = await post('/sysUserPending/approve', { id: reg.id, roleIds: [curator] });
    expect(r.body, JSON.stringify(r.body)).toMatchObject({ success: true });
    const d = await detail(reg.id);
    expect(d.record).toMatchObject({ status: 1, grantedRoles: '策展人' });
    expect(d.names.users[String(d.record.userId)]).toBe('林晓');
    expect(d.log.map((l: { action: string }) => l.action)).toEqual(['create', 'approve']);

    const token = await s.login(reg.phone, PASSWORD);
    const info = (await get('/login/userInfo', token)).body.result;
    expect(info).toMatchObject({
      account: reg.phone,
      userName: '林晓',
      phone: reg.phone,
      roles: ['curator'],
      mustChangePassword: false, // the registrant chose it
    });
    expect(info.departments.map((x: { name: string }) => x.name)).toEqual(['办公室']);
    const menu = (await get('/login/menu', token)).body.result.grantedKeys as string[];
    expect(menu).toContain('project.plan');
    // Her bell holds one notice, saying what she was granted (sent after the commit).
    await expect
      .poll(async () => (await post('/notice/list', {}, token)).body.result.map((n: any) => n.noticeContent))
      .toEqual([welcomeNotice('策展人')]);
  });

  it('refuses with a reason the person reads when signing in; they may register again', async () => {
    const reg = await registered();
    const bare = await post('/sysUserPending/refuse', { id: reg.id });
    expect(bare.status).toBe(400);
    expect(bare.body.message).toContain('拒绝理由');
    const reason = '请使用馆内登记的手机号重新注册';
    expect((await post('/sysUserPending/refuse', { id: reg.id, reason })).body.success).toBe(true);
    const d = await detail(reg.id);
    expect(d.record).toMatchObject({ status: 2, refuseReason: reason });
    expect(d.log.at(-1)).toMatchObject({ action: 'refuse', comment: reason, operatorName: '系统管理员' });
    const r = await loginCall(s, reg.phone, PASSWORD);
    expect(r.body).toMatchObject({ success: false, code: 1012, message: loginRefused(reason) });
    expect(r.body.message).toContain('未通过：');

    // A new registration after a refusal waits again, and the sign-in says so.
    await registered({ phone: reg.phone });
    expect((await loginCall(s, reg.phone, PASSWORD)).body.code).toBe(1011);
  });

  it('refuses a stale decision with 状态已变化，请刷新 and changes nothing', async () => {
    const reg = await registered();
    const role = await roleIdOf('myselfRole');
    expect((await post('/sysUserPending/refuse', { id: reg.id, reason: '重复申请' })).body.success).toBe(
      true,
    );
    const late = await post('/sysUserPending/approve', { id: reg.id, roleIds: [role] });
    expect(late.body).toMatchObject({ success: false, message: STALE_STATUS });
    expect(await s.db.selectFrom('user').select('id').where('phone', '=', reg.phone).execute()).toEqual([]);
    const other = await registered();
    expect((await post('/sysUserPending/approve', { id: other.id, roleIds: [role] })).body.success).toBe(
      true,
    );
    const again = await post('/sysUserPending/refuse', { id: other.id, reason: '晚了' });
    expect(again.body).toMatchObject({ success: false, message: STALE_STATUS });
    expect((await detail(other.id)).record.status).toBe(1);
  });

  it('answers an approval replayed with its Idempotency-Key once: one account', async () => {
    const reg = await registered();
    const role = await roleIdOf('myselfRole');
    const key = { 'idempotency-key': `approve-${reg.id}` };
    const [a, b] = [
      await post('/sysUserPending/approve', { id: reg.id, roleIds: [role] }, admin, key),
      await post('/sysUserPending/approve', { id: reg.id, roleIds: [role] }, admin, key),
    ];
    expect(a.body.success).toBe(true);
    expect(b.body).toEqual(a.body);
    expect(b.headers.get('idempotent-replay')).toBe('true');
    const users = await s.db.selectFrom('user').select('id').where('phone', '=', reg.phone).execute();
    expect(users).toHaveLength(1);
    expect((await detail(reg.id)).log.filter((l: { action: string }) => l.action === 'approve')).toHaveLength(
      1,
    );
  });

  it('lets only those granted 人员审核 read and decide; roles are required', async () => {
    const reg = await registered();
    const staff = await s.login('staff02');
    const role = await roleIdOf('myselfRole');
    for (const r of [
      await get('/sysUserPending/pageList', staff),
      await get(`/sysUserPending/detail?id=${reg.id}`, staff),
      await get('/sysUserPending/count', staff),
      await post('/sysUserPending/approve', { id: reg.id, roleIds: [role] }, staff),
      await post('/sysUserPending/refuse', { id: reg.id, reason: '不行' }, staff),
    ])
      expect(r.body).toMatchObject({ success: false, code: 1005 });
    const none = await post('/sysUserPending/approve', { id: reg.id, roleIds: [] });
    expect(none.status).toBe(400);
    expect(none.body.message).toContain('授予角色');
    // 信息管理员 holds 系统管理 (人员审核 with it) and decides, but cannot make a super administrator.
    const it = await s.login('staff09');
    const adminRole = await roleIdOf('viviHignAdmin');
    const grab = await post('/sysUserPending/approve', { id: reg.id, roleIds: [adminRole] }, it);
    expect(grab.body).toMatchObject({
      success: false,
      message: '只有超级管理员可以授予、修改或停用超级管理员账号',
    });
    expect((await detail(reg.id)).record.status).toBe(0);
    expect((await post('/sysUserPending/approve', { id: reg.id, roleIds: [role] }, it)).body.success).toBe(
      true,
    );
  });

  it('keeps the registration waiting when its phone was given to an account meanwhile', async () => {
    const reg = await registered();
    const made = await post('/sysUser/save', {
      account: 'lateuser',
      password: 'Late#2026',
      userName: '后来者',
      phone: reg.phone,
    });
    expect(made.body.success).toBe(true);
    const r = await post('/sysUserPending/approve', { id: reg.id, roleIds: [await roleIdOf('myselfRole')] });
    expect(r.body, JSON.stringify(r.body)).toMatchObject({
      success: false,
      message: '该手机号已被其他账号使用',
    });
    expect((await detail(reg.id)).record.status).toBe(0);
    const other = await registered();
    const unknownRole = await post('/sysUserPending/approve', { id: other.id, roleIds: [99_999] });
    expect(unknownRole.body).toMatchObject({ success: false, message: '所选角色不存在，请刷新后重试' });
    expect((await detail(other.id)).record.status).toBe(0);
  });
});

describe('the badge and the log', () => {
  it('counts waiting registrations for those who decide, and tells them live', async () => {
    const before = (await get('/sysUserPending/count')).body.result.pendingStaffCount as number;
    const adminId = await userIdOf(s, 'admin');
    const itId = await userIdOf(s, 'staff09');
    const staffId = await userIdOf(s, 'staff02');
    const told: number[] = [];
    const offs = [adminId, itId, staffId].map((id) =>
      s.bus.subscribe(id, (topics) => topics.includes('registration') && told.push(id)),
    );
    const reg = await registered();
    await expect.poll(() => told.length).toBeGreaterThanOrEqual(2);
    expect((await get('/sysUserPending/count')).body.result.pendingStaffCount).toBe(before + 1);
    told.length = 0;
    await post('/sysUserPending/refuse', { id: reg.id, reason: '信息不全' });
    await expect.poll(() => told.length).toBeGreaterThanOrEqual(2);
    expect(told.sort()).toEqual([adminId, itId].sort());
    expect((await get('/sysUserPending/count')).body.result.pendingStaffCount).toBe(before);
    offs.forEach((off) => off());
  });

  it('logs the registration (password redacted), the decision as 审批 and the sign-in', async () => {
    const reg = await registered();
    await post('/sysUserPending/approve', { id: reg.id, roleIds: [await roleIdOf('myselfRole')] });
    await s.login(reg.phone, PASSWORD);
    const page = async (q: string) =>
      (await get(`/sysLog/pageList?${q}`)).body.result.list as Record<string, any>[];
    const applied = (await page('module=注册')).find((r) => r.params?.phone === reg.phone)!;
    expect(applied).toMatchObject({ action: '新增', userId: null, result: 1 });
    expect(applied.params.password).toBe('******');
    expect(applied.params.confirmPassword).toBe('******');
    const decided = (await page('module=人员审核&action=审批')).find((r) => r.targetId === String(reg.id));
    expect(decided).toMatchObject({ userName: '系统管理员', path: `${M}/sysUserPending/approve`, result: 1 });
    const signIn = (await page(`action=登录&userName=林晓`))[0]!;
    expect(signIn.result).toBe(1);
  });
});
