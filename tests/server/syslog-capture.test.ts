import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LogRow } from '../../src/shared/api/syslog';
import { formatMuseumTime } from '../../src/shared/rules/museum-time';
import { createSyslog } from '../../src/server/modules/syslog/syslog.service';
import { startServer, type TestServer } from './harness';
import { driveUser, type DriveUser } from './drive-util';
import { M, clearLoginAttempts, deptIdByName, userIdOf } from './util';
import { CHUNK, bytes, paramsOf, postChunk, chunkOf } from './upload-util';

/**
 * Issue 18, the system log: each kind of event is captured with the right fields, and what is
 * stored of its parameters has every secret redacted. Entries are read back the way an auditor
 * reads them, through sysLog/pageList.
 */

let s: TestServer;
let admin: string;
const UA = 'syslog-test/1.0 (iPad; CPU OS 17_0 like Mac OS X)';
const ID = '11010519491231002X';
const MASKED = '1101**********002X';

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  admin = await s.login('admin');
});
afterAll(async () => s?.close());

async function entries(q: Record<string, string | number> = {}): Promise<LogRow[]> {
  const qs = new URLSearchParams({
    pageCount: '200',
    ...Object.fromEntries(Object.entries(q).map(([k, v]) => [k, String(v)])),
  });
  const res = await s.call('GET', `${M}/sysLog/pageList?${qs}`, { token: admin });
  expect(res.body.success, JSON.stringify(res.body)).toBe(true);
  return res.body.result.list as LogRow[];
}

/** The newest entry matching `pred`, waiting briefly for the writer (entries are queued after the answer). */
async function entry(pred: (r: LogRow) => boolean, q: Record<string, string | number> = {}): Promise<LogRow> {
  let found: LogRow | undefined;
  await vi.waitFor(
    async () => {
      found = (await entries(q)).find(pred);
      if (!found) throw new Error('no such entry yet');
    },
    { timeout: 5000, interval: 50 },
  );
  return found!;
}

const post = (token: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  s.call('POST', path, { token, body, headers: { 'user-agent': UA, ...headers } });

/** The row as stored, to show what never reaches it. */
const storedText = async () => JSON.stringify(await s.db.selectFrom('system_log').selectAll().execute());

describe('sign-in, sign-out and failed sign-in', () => {
  it('logs a sign-in with who, where from, the client and the redacted body', async () => {
    const res = await s.call('POST', `${M}/login/webLogin`, {
      body: { username: 'staff02', password: 'Demo@2026' },
      headers: { 'user-agent': UA },
    });
    expect(res.body.success).toBe(true);
    const id = await userIdOf(s, 'staff02');
    const e = await entry((r) => r.action === '登录' && r.userId === id);
    expect(e).toMatchObject({
      userName: '王芳',
      ip: '127.0.0.1',
      userAgent: UA,
      module: '登录',
      targetTable: 'user',
      targetId: String(id),
      method: 'POST',
      path: '/singleMuseum/login/webLogin',
      params: { username: 'staff02', password: '******' },
      result: 1,
      errorMessage: null,
    });
    expect(e.time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(e.durationMs).toBeGreaterThanOrEqual(0);
    // Neither the password nor the session token the answer carried is stored anywhere.
    const text = await storedText();
    expect(text).not.toContain('Demo@2026');
    expect(text).not.toContain(res.body.result.token);
  });

  it('logs a failed sign-in with the account typed and the reason, and no person', async () => {
    await clearLoginAttempts(s);
    await s.call('POST', `${M}/login/webLogin`, { body: { username: 'staff03', password: 'Wrong#pass1' } });
    await s.call('POST', `${M}/login/webLogin`, {
      body: { username: 'nobody-here', password: 'Wrong#pass2' },
    });
    const known = await entry((r) => r.action === '登录失败' && r.userName === 'staff03');
    expect(known).toMatchObject({
      userId: null,
      module: '登录',
      result: 0,
      params: { username: 'staff03', password: '******' },
    });
    expect(known.errorMessage).toContain('账号或密码错误');
    await entry((r) => r.action === '登录失败' && r.userName === 'nobody-here');
    expect(await storedText()).not.toMatch(/Wrong#pass/);
    await clearLoginAttempts(s);
  });

  it('records the real client address: X-Forwarded-For only from a proxy listed in TRUST_PROXY', async () => {
    const forged = { 'x-forwarded-for': '203.0.113.9' };
    await s.call('POST', `${M}/login/webLogin`, {
      body: { username: 'forged-xff', password: 'x' },
      headers: forged,
    });
    expect((await entry((r) => r.userName === 'forged-xff')).ip).toBe('127.0.0.1');

    const proxied = await startServer({ TRUST_PROXY: '127.0.0.1' });
    try {
      await proxied.call('POST', `${M}/login/webLogin`, {
        body: { username: 'behind-proxy', password: 'x' },
        headers: { 'x-forwarded-for': '203.0.113.9, 10.1.2.3' },
      });
      const token = await proxied.login('admin');
      await vi.waitFor(
        async () => {
          const res = await proxied.call('GET', `${M}/sysLog/pageList?userName=behind-proxy`, { token });
          expect(res.body.result.list[0]).toMatchObject({ action: '登录失败', ip: '10.1.2.3' });
        },
        { timeout: 5000, interval: 50 },
      );
    } finally {
      await proxied.close();
    }
  });

  it('logs a sign-out with the person who left', async () => {
    const token = await s.login('staff04');
    const id = await userIdOf(s, 'staff04');
    expect((await post(token, `${M}/login/logout`, {})).body.success).toBe(true);
    expect(await entry((r) => r.action === '登出' && r.userId === id)).toMatchObject({
      userName: '陈静',
      module: '登录',
      targetId: String(id),
      result: 1,
    });
  });
});

describe('writes', () => {
  let owner: DriveUser;
  beforeAll(async () => {
    owner = await driveUser(s, 'staff05');
  });

  it('logs a drive write with the new record, and a refused one with its reason', async () => {
    const res = await owner.post('/file/createfile', { filePath: '/', fileName: '日志测试', isDir: 1 });
    const id = res.body.data.userFileId as number;
    expect(
      await entry(
        (r) => r.path === '/wangpan/file/createfile' && r.userId === owner.userId && r.result === 1,
      ),
    ).toMatchObject({
      action: '新增',
      module: '网盘',
      targetTable: 'user_file',
      targetId: String(id),
      params: { filePath: '/', fileName: '日志测试', isDir: 1 },
    });
    const bad = await owner.post('/file/renamefile', { userFileId: id, fileName: 'a/b' });
    expect(bad.body.success).toBe(false);
    const refused = await entry((r) => r.path === '/wangpan/file/renamefile' && r.result === 0);
    expect(refused).toMatchObject({ action: '修改', targetId: String(id), userName: '刘洋' });
    expect(refused.errorMessage).toBe(bad.body.message);
  });

  it('logs a museum write, naming the created record from its answer', async () => {
    const root = await deptIdByName(s, admin, '博物馆');
    const res = await post(admin, `${M}/sysDept/save`, { name: '日志测试部', parentId: root });
    expect(res.body.success).toBe(true);
    expect(await entry((r) => r.path === '/singleMuseum/sysDept/save')).toMatchObject({
      action: '新增',
      module: '组织架构',
      targetTable: 'department',
      targetId: String(res.body.result.id),
      userName: '系统管理员',
      params: { name: '日志测试部', parentId: root },
      result: 1,
    });
  });

  it('logs a spec GET that deletes, and not the reads around it', async () => {
    const saved = await post(admin, `${M}/bs/bsAddressBook/save`, {
      name: '安保值班室',
      officePhone: '010-12345678',
    });
    expect(saved.body.success, JSON.stringify(saved.body)).toBe(true);
    const id = saved.body.result.id as number;
    await s.call('GET', `${M}/bs/bsAddressBook/detail?id=${id}`, { token: admin });
    await s.call('GET', `${M}/bs/bsAddressBook/delete?id=${id}`, { token: admin });
    expect(await entry((r) => r.path === '/singleMuseum/bs/bsAddressBook/delete')).toMatchObject({
      action: '删除',
      method: 'GET',
      module: '通讯录',
      targetId: String(id),
    });
    expect((await entries()).some((r) => r.path.endsWith('/bsAddressBook/detail'))).toBe(false);
  });

  it('logs a chunked upload once, when the file is complete, not per chunk', async () => {
    const file = bytes(CHUNK * 3);
    const p = paramsOf(file, '三段.bin');
    for (let n = 1; n <= 3; n++) {
      const r = await postChunk(s, owner.token, p, n, chunkOf(file, p, n));
      expect(r.body.success).toBe(true);
    }
    const e = await entry((r) => r.path === '/wangpan/filetransfer/uploadfile' && r.userId === owner.userId);
    expect(e).toMatchObject({ action: '新增', module: '网盘', result: 1 });
    expect(e.params).toMatchObject({ filename: '三段.bin', chunkNumber: '3', file: '[文件] 三段.bin' });
    const uploads = (await entries()).filter((r) => r.path === '/wangpan/filetransfer/uploadfile');
    expect(uploads).toHaveLength(1);
  });
});

describe('approval actions', () => {
  it('logs agreeing to a request as 审批, with the request and the decision', async () => {
    const tpl = await s.db
      .selectFrom('approval_template')
      .select('id')
      .where('name', '=', '报销')
      .executeTakeFirstOrThrow();
    const staff02 = await s.login('staff02');
    const started = await post(staff02, `${M}/workflowInst/start`, {
      templateId: tpl.id,
      form: { amount: 12, reason: `代付访客门票（访客证件 ${ID}）` },
    });
    expect(started.body.success, JSON.stringify(started.body)).toBe(true);
    const id = started.body.result.actvityId as number;
    const start = await entry((r) => r.path === '/singleMuseum/workflowInst/start');
    expect(start).toMatchObject({ action: '新增', module: '审批', targetId: String(id) });
    // An ID number inside a nested form field is masked.
    expect(start.params).toMatchObject({ form: { reason: `代付访客门票（访客证件 ${MASKED}）` } });

    const staff01 = await s.login('staff01');
    const res = await post(staff01, `${M}/workflowInst/approval`, {
      actvityId: id,
      action: 2,
      reason: '同意',
    });
    expect(res.body.success, JSON.stringify(res.body)).toBe(true);
    expect(await entry((r) => r.path === '/singleMuseum/workflowInst/approval')).toMatchObject({
      action: '审批',
      module: '审批',
      targetTable: 'approval_request',
      targetId: String(id),
      userName: '李明',
      params: { actvityId: id, action: 2, reason: '同意' },
      result: 1,
    });
    expect(await storedText()).not.toContain(ID);
  });
});

describe('downloads through a share', () => {
  it('logs an anonymous visitor’s download with the file, the share and the code hidden', async () => {
    const owner = await driveUser(s, 'staff06');
    const fileId = await owner.put('/', '展品清单.txt', '青花瓷 一件');
    const end = formatMuseumTime(Date.now() + 3 * 86_400_000);
    const made = await owner.post('/share/sharefile', {
      files: JSON.stringify([{ userFileId: fileId }]),
      endTime: end,
      shareType: 1,
      remarks: '',
    });
    expect(made.body.success).toBe(true);
    const { shareBatchNum, extractionCode } = made.body.data as {
      shareBatchNum: string;
      extractionCode: string;
    };
    expect(await entry((r) => r.path === '/wangpan/share/sharefile')).toMatchObject({
      action: '新增',
      module: '分享',
      targetId: shareBatchNum,
    });

    const q = new URLSearchParams({ userFileId: String(fileId), shareBatchNum, extractionCode });
    const res = await fetch(`${s.url}/wangpan/filetransfer/downloadfile?${q}`, {
      headers: { 'user-agent': UA },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('青花瓷 一件');
    const e = await entry((r) => r.action === '下载');
    expect(e).toMatchObject({
      userId: null,
      userName: '',
      userAgent: UA,
      module: '分享',
      targetTable: 'user_file',
      targetId: String(fileId),
      method: 'GET',
      path: '/wangpan/filetransfer/downloadfile',
      params: { userFileId: fileId, shareBatchNum, extractionCode: '******' },
      result: 1,
    });
    // A wrong code is a failed download, logged with the refusal.
    const wrong = new URLSearchParams({
      userFileId: String(fileId),
      shareBatchNum,
      extractionCode: 'zzzzzz',
    });
    await fetch(`${s.url}/wangpan/filetransfer/downloadfile?${wrong}`);
    expect((await entry((r) => r.action === '下载' && r.result === 0)).errorMessage).toBeTruthy();
    // The owner's own downloads are reads, not logged.
    await fetch(`${s.url}/wangpan/filetransfer/downloadfile?userFileId=${fileId}`, {
      headers: { token: owner.token },
    });
    expect((await entries({ action: '下载' })).every((r) => r.userId === null)).toBe(true);
    expect(await storedText()).not.toContain(extractionCode);
  });
});

describe('exports and views of ID numbers', () => {
  it('logs an export (its own export too) with its filters', async () => {
    const res = await fetch(`${s.url}${M}/sysLog/export?action=${encodeURIComponent('登录')}`, {
      headers: { token: admin },
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    expect(await entry((r) => r.path === '/singleMuseum/sysLog/export')).toMatchObject({
      action: '导出',
      module: '系统日志',
      userName: '系统管理员',
      params: { action: '登录' },
      result: 1,
    });
    const month = new Date().toISOString().slice(0, 7);
    const att = await fetch(`${s.url}${M}/attendance/month/export?month=${month}`, {
      headers: { token: admin },
    });
    expect(att.status).toBe(200);
    await att.arrayBuffer();
    expect(await entry((r) => r.path === '/singleMuseum/attendance/month/export')).toMatchObject({
      action: '导出',
      module: '考勤',
    });
  });

  it('logs a view of a full ID number when a module says so (idViewed), without the number', async () => {
    const reports: string[] = [];
    const audit = createSyslog({ db: s.db, report: (m) => reports.push(m) });
    const who = { userId: await userIdOf(s, 'staff10'), userName: '何雪', ip: '10.0.0.8', userAgent: UA };
    audit.idViewed(who, {
      module: '志愿者',
      table: 'bs_volunteer',
      id: 42,
      params: { id: 42, idNumber: ID },
    });
    await audit.writer.flush();
    expect(reports).toEqual([]);
    expect(await entry((r) => r.action === '查看证件号')).toMatchObject({
      userName: '何雪',
      ip: '10.0.0.8',
      module: '志愿者',
      targetTable: 'bs_volunteer',
      targetId: '42',
      params: { id: 42, idNumber: MASKED },
      result: 1,
    });
  });
});

describe('redaction', () => {
  it('hides passwords in a password change and a reset, JSON or form-encoded', async () => {
    const token = await s.login('staff07');
    const changed = await post(token, `${M}/personal/password`, {
      oldPassword: 'Demo@2026',
      newPassword: 'Change#2026a',
    });
    expect(changed.body.success, JSON.stringify(changed.body)).toBe(true);
    expect((await entry((r) => r.path === '/singleMuseum/personal/password')).params).toEqual({
      oldPassword: '******',
      newPassword: '******',
    });

    const id = await userIdOf(s, 'staff07');
    const form = new URLSearchParams({ userId: String(id), password: 'Reset#2026x' });
    const res = await fetch(`${s.url}${M}/sysUser/resetPassword`, {
      method: 'POST',
      headers: { token: admin, 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    expect(((await res.json()) as { success: boolean }).success).toBe(true);
    expect(await entry((r) => r.path === '/singleMuseum/sysUser/resetPassword')).toMatchObject({
      action: '修改',
      module: '人员管理',
      targetId: String(id),
      params: { userId: id, password: '******' },
    });
    const text = await storedText();
    for (const secret of ['Change#2026a', 'Reset#2026x']) expect(text).not.toContain(secret);
  });

  it('masks ID numbers in a form-encoded body and hides tokens in a refused one', async () => {
    const form = new URLSearchParams({
      title: '访客登记说明',
      content: `<p>登记示例：身份证号 ${ID}</p>`,
      audienceType: 'all',
    });
    const res = await fetch(`${s.url}${M}/infoPublish/add`, {
      method: 'POST',
      headers: { token: admin, 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    const body = (await res.json()) as { success: boolean; message: string };
    expect(body.success, body.message).toBe(true);
    expect((await entry((r) => r.path === '/singleMuseum/infoPublish/add')).params).toMatchObject({
      title: '访客登记说明',
      content: `<p>登记示例：身份证号 ${MASKED}</p>`,
    });

    // A refused body is stored as it came (not as validated), still redacted.
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VyIjoxfQ.c2lnbmF0dXJlLXZhbHVl';
    const bad = await post(admin, `${M}/sysDept/save`, {
      name: '',
      token: 'plain-token-value',
      nested: { accessToken: 'abc', note: `Bearer ${jwt}`, idCard: ID },
    });
    expect(bad.status).toBe(400);
    const e = await entry((r) => r.path === '/singleMuseum/sysDept/save' && r.result === 0);
    expect(e.params).toEqual({
      name: '',
      token: '******',
      nested: { accessToken: '******', note: 'Bearer ******', idCard: MASKED },
    });
    expect(e.errorMessage).toBeTruthy();
  });

  it('records multipart fields, a file by its name only, with secrets hidden', async () => {
    const fd = new FormData();
    fd.append('tableName', 'announcement');
    fd.append('password', 'in-a-form-Secret1');
    fd.append('file', new Blob([new TextEncoder().encode(`正文里有证件号 ${ID}`)]), `名单${ID}.txt`);
    const res = await fetch(`${s.url}${M}/attach/upload`, {
      method: 'POST',
      headers: { token: admin },
      body: fd,
    });
    const body = (await res.json()) as { success: boolean; message: string };
    expect(body.success, body.message).toBe(true);
    const e = await entry((r) => r.path === '/singleMuseum/attach/upload');
    expect(e).toMatchObject({ action: '新增', module: '附件', result: 1 });
    expect(e.params).toEqual({
      tableName: 'announcement',
      password: '******',
      file: `[文件] 名单${MASKED}.txt`,
    });
    const text = await storedText();
    expect(text).not.toContain('in-a-form-Secret1');
    expect(text).not.toContain('正文里有证件号');
  });
});
