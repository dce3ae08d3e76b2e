import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LogRow } from '../../src/shared/api/syslog';
import { areaOf } from '../../src/server/modules/drive/area';
import { startServer, driveServiceOf, DEMO_PASSWORD, type TestServer } from './harness';
import { driveUser, type DriveUser, W } from './drive-util';
import {
  HD,
  LOCK_BODY,
  PERSONAL,
  RES,
  appPasswordFor,
  at,
  basic,
  davClient,
  hrefs,
  messageOf,
  valueOf,
  type Dav,
} from './dav-util';
import { picture } from './media-util';
import { M, clearLoginAttempts, userIdOf } from './util';

/**
 * Issue 26, WebDAV against the real server: who may connect and how (app passwords, HTTPS,
 * the throttle), the drive's rules through /dav/ (names, other people's files, libraries,
 * quota before and while writing, interrupted uploads, copy-on-write, the recycle bin, hidden
 * macOS files, Windows' properties), locks between people, the system log and thumbnails.
 * The client library's view is in dav-client.test.ts; litmus runs in dav-litmus.test.ts.
 */

let s: TestServer;
let admin: string;
let pw02: string;
let dav02: Dav;
let me: DriveUser;

beforeAll(async () => {
  // TRUST_PROXY lets a test speak as a client elsewhere on the LAN through a "proxy" (loopback).
  s = await startServer({ TRUST_PROXY: '127.0.0.1', RATE_LIMIT_PER_MINUTE: '1000000' });
  admin = await s.login('admin');
  pw02 = await appPasswordFor(s, 'staff02');
  dav02 = davClient(s, basic('staff02', pw02));
  me = await driveUser(s, 'staff02');
});
afterAll(async () => s?.close());
beforeEach(() => clearLoginAttempts(s));

const md5 = (b: Buffer | string) => createHash('md5').update(b).digest('hex');

async function logEntries(): Promise<LogRow[]> {
  const res = await s.call('GET', `${M}/sysLog/pageList?pageCount=200`, { token: admin });
  expect(res.body.success, JSON.stringify(res.body)).toBe(true);
  return res.body.result.list as LogRow[];
}
async function logEntry(pred: (r: LogRow) => boolean): Promise<LogRow> {
  let found: LogRow | undefined;
  await vi.waitFor(
    async () => {
      found = (await logEntries()).find(pred);
      if (!found) throw new Error('no such entry yet');
    },
    { timeout: 5000, interval: 50 },
  );
  return found!;
}

describe('connecting', () => {
  it('answers OPTIONS without credentials with the DAV classes Windows and Finder look for', async () => {
    for (const p of ['/dav/', PERSONAL, '/']) {
      const res = await davClient(s, null)('OPTIONS', p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('dav')).toBe('1, 2');
      expect(res.headers.get('ms-author-via')).toBe('DAV');
      expect(res.headers.get('allow')).toContain('PROPFIND');
    }
  });

  it('answers Windows’ first questions: OPTIONS of the server root, PROPFIND of /dav without the slash', async () => {
    const root = await dav02('PROPFIND', '/dav', { headers: { depth: '0' } });
    expect(root.status).toBe(207);
    expect(hrefs(root.text)).toEqual(['/dav/']);
    const all = await dav02('PROPFIND', PERSONAL, {
      headers: { depth: '0' },
      body:
        '<?xml version="1.0" encoding="utf-8" ?><D:propfind xmlns:D="DAV:"><D:prop xmlns:Z="urn:schemas-microsoft-com:">' +
        '<D:getcontentlength/><D:creationdate/><D:displayname/><D:getetag/><D:getlastmodified/><D:resourcetype/>' +
        '<Z:Win32CreationTime/><Z:Win32LastAccessTime/><Z:Win32LastModifiedTime/><Z:Win32FileAttributes/></D:prop></D:propfind>',
    });
    expect(all.status).toBe(207);
    // Found: what the drive knows; 404: Windows' own attributes, which it does not keep.
    expect(all.text).toMatch(/<D:displayname>我的网盘<\/D:displayname>/);
    expect(all.text).toMatch(
      /<x:Win32FileAttributes xmlns:x="urn:schemas-microsoft-com:"\/><\/D:prop><D:status>HTTP\/1.1 404/,
    );
  });

  it('asks for credentials with a realm and says, in Chinese, which password to use', async () => {
    const res = await davClient(s, null)('PROPFIND', '/dav/', { headers: { depth: '0' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="[^"]+"/);
    expect(res.text).toContain('应用密码（不是登录密码）');
  });

  it('refuses plain HTTP from another machine before looking at credentials, and takes HTTPS through a trusted proxy', async () => {
    const lan = { 'x-forwarded-for': '192.168.1.23' };
    const refused = await dav02('PROPFIND', PERSONAL, { headers: { depth: '0', ...lan } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    expect(refused.text).toContain('只能通过 HTTPS 连接');
    const viaTls = await dav02('PROPFIND', PERSONAL, {
      headers: { depth: '0', ...lan, 'x-forwarded-proto': 'https' },
    });
    expect(viaTls.status).toBe(207);
  });

  it('never takes the sign-in password, and counts it as a failed attempt', async () => {
    const res = await davClient(s, basic('staff02', DEMO_PASSWORD))('PROPFIND', PERSONAL, {
      headers: { depth: '0' },
    });
    expect(res.status).toBe(401);
    expect(res.text).toContain('请使用在“个人中心”新建的应用密码，不能使用登录密码（还可尝试 4 次）');
    const wrong = await davClient(s, basic('staff02', 'abcd-efgh-jkmn-pqrs-tuvw-xyz2'))(
      'PROPFIND',
      PERSONAL,
      {
        headers: { depth: '0' },
      },
    );
    expect(wrong.text).toContain('用户名或应用密码错误，还可尝试 3 次');
  });

  it('takes the account or the phone number, any case, with or without the dashes', async () => {
    const bare = pw02.replace(/-/g, '').toUpperCase();
    for (const user of ['STAFF02', '13800000002']) {
      const res = await davClient(s, basic(user, bare))('PROPFIND', PERSONAL, { headers: { depth: '0' } });
      expect(res.status, user).toBe(207);
    }
  });

  it('throttles guesses like sign-in, in its own count: the web sign-in still works, the log names the account', async () => {
    const guess = davClient(s, basic('staff03', 'abcd-efgh-jkmn-pqrs-tuvw-xyz2'));
    const codes: number[] = [];
    for (let i = 0; i < 7; i++)
      codes.push((await guess('PROPFIND', PERSONAL, { headers: { depth: '0' } })).status);
    // As at sign-in: four wrong answers, then the fifth failure locks (30 s, growing).
    expect(codes).toEqual([401, 401, 401, 401, 429, 429, 429]);
    const locked = await guess('PROPFIND', PERSONAL, { headers: { depth: '0' } });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(locked.text).toContain('登录失败次数过多');
    // A client retrying a bad password locks WebDAV, not its owner's web sign-in.
    await expect(s.login('staff03')).resolves.toBeTruthy();
    const row = await logEntry(
      (r) => r.action === '登录失败' && r.userName === 'staff03' && r.params !== null,
    );
    expect(row.module).toBe('登录');
    expect(row.params).toEqual({ username: 'staff03', via: 'WebDAV' });
    expect(JSON.stringify(await s.db.selectFrom('system_log').selectAll().execute())).not.toContain('xyz2');
  });

  it('stops a revoked app password at once, and a password change revokes them all', async () => {
    const token = await s.login('staff05');
    const pw = await appPasswordFor(s, 'staff05', '旧电脑');
    const d = davClient(s, basic('staff05', pw));
    expect((await d('PROPFIND', PERSONAL, { headers: { depth: '0' } })).status).toBe(207);
    const list = await s.call('GET', `${M}/personal/appPassword/list`, { token });
    const row = list.body.result.list.find((r: { name: string }) => r.name === '旧电脑');
    expect(row.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(list.body)).not.toContain(pw);
    await s.call('POST', `${M}/personal/appPassword/delete`, { token, body: { id: row.id } });
    const after = await d('PROPFIND', PERSONAL, { headers: { depth: '0' } });
    expect(after.status).toBe(401);
    expect(after.text).toContain('该应用密码已撤销');

    const pw2 = await appPasswordFor(s, 'staff05', '新电脑');
    const changed = await s.call('POST', `${M}/personal/password`, {
      token: await s.login('staff05'),
      body: { oldPassword: DEMO_PASSWORD, newPassword: 'Next@2026' },
    });
    expect(changed.body.success).toBe(true);
    const gone = await davClient(s, basic('staff05', pw2))('PROPFIND', PERSONAL, { headers: { depth: '0' } });
    expect(gone.status).toBe(401);
  });
});

describe('app passwords in 个人中心', () => {
  it('need the sign-in password, have a checked name, are shown once and are one’s own', async () => {
    const token = await s.login('staff07');
    const add = (body: unknown) => s.call('POST', `${M}/personal/appPassword/add`, { token, body });
    expect((await add({ name: '手机', password: 'wrong' })).body.message).toMatch(
      /^登录密码不正确，还可尝试 \d+ 次$/,
    );
    expect((await add({ name: '', password: DEMO_PASSWORD })).body.message).toBe('请输入应用密码名称');
    expect((await add({ name: 'a\u202Eb', password: DEMO_PASSWORD })).body.message).toContain('不可见字符');
    const made = await add({ name: '办公室电脑', password: DEMO_PASSWORD });
    expect(made.body.result).toMatchObject({ name: '办公室电脑', account: 'staff07' });
    expect(made.body.result.appPassword).toMatch(/^([a-z2-9]{4}-){5}[a-z2-9]{4}$/);
    const stored = await s.db
      .selectFrom('app_password')
      .selectAll()
      .where('id', '=', made.body.result.id)
      .executeTakeFirstOrThrow();
    expect(stored.hash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(stored)).not.toContain(made.body.result.appPassword.replace(/-/g, ''));
    // Somebody else's id is not found, and changes nothing.
    const other = await s.call('POST', `${M}/personal/appPassword/delete`, {
      token: await s.login('staff08'),
      body: { id: made.body.result.id },
    });
    expect(other.body.message).toBe('该应用密码不存在或已撤销，请刷新后重试');
    const list = await s.call('GET', `${M}/personal/appPassword/list`, { token });
    expect(list.body.result.list.map((r: { name: string }) => r.name)).toEqual(['办公室电脑']);
    const log = await logEntry((r) => r.path.endsWith('/personal/appPassword/add') && r.result === 1);
    expect(log.params).toMatchObject({ name: '办公室电脑', password: '******' });
  });
});

describe('the drive through /dav/', () => {
  it('lists the three areas, the quota and Chinese names; Depth: infinity is refused as RFC 4918 says', async () => {
    const root = await dav02('PROPFIND', '/dav/', { headers: { depth: '1' } });
    expect(root.status).toBe(207);
    expect(hrefs(root.text)).toEqual(['/dav/', '/dav/我的网盘/', '/dav/其他资源/', '/dav/高清图片/']);
    const inf = await dav02('PROPFIND', PERSONAL, { headers: { depth: 'infinity' } });
    expect(inf.status).toBe(403);
    expect(inf.text).toContain('<D:propfind-finite-depth/>');
    expect(messageOf(inf.text)).toContain('不支持 Depth: infinity');
    const q = await dav02('PROPFIND', PERSONAL, {
      headers: { depth: '0' },
      body: '<propfind xmlns="DAV:"><prop><quota-available-bytes/><quota-used-bytes/></prop></propfind>',
    });
    const used = Number(valueOf(q.text, 'D:quota-used-bytes'));
    const free = Number(valueOf(q.text, 'D:quota-available-bytes'));
    expect(used + free).toBe(s.config.defaultQuotaBytes);
  });

  it('stores a PUT as the web app shows it: Chinese name, bytes, MD5, Range, attachment', async () => {
    await me.mkdir('/', '藏品照片');
    const body = Buffer.from('青铜器 2026 年度清点记录\n'.repeat(100));
    const put = await dav02('PUT', at(PERSONAL, '藏品照片', '清点记录.txt'), { body });
    expect(put.status).toBe(201);
    expect(put.headers.get('etag')).toBe(`"${md5(body)}"`);
    expect(await me.names('/藏品照片/')).toContain('清点记录.txt');
    const get = await dav02('GET', at(PERSONAL, '藏品照片', '清点记录.txt'));
    expect(Buffer.from(get.text)).toEqual(body);
    expect(get.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(get.headers.get('x-content-type-options')).toBe('nosniff');
    expect(get.headers.get('content-security-policy')).toContain('sandbox');
    const range = await dav02('GET', at(PERSONAL, '藏品照片', '清点记录.txt'), {
      headers: { range: 'bytes=0-5' },
    });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe(`bytes 0-5/${body.length}`);
    const head = await dav02('HEAD', at(PERSONAL, '藏品照片', '清点记录.txt'));
    expect(head.headers.get('content-length')).toBe(String(body.length));
    const list = await dav02('PROPFIND', at(PERSONAL, '藏品照片') + '/', { headers: { depth: '1' } });
    expect(hrefs(list.text)).toEqual(['/dav/我的网盘/藏品照片/', '/dav/我的网盘/藏品照片/清点记录.txt']);
    expect(list.text).toContain(`<D:getetag>&quot;${md5(body)}&quot;</D:getetag>`);
  });

  it('refuses the names the drive refuses, with its words and a 400', async () => {
    for (const [name, words] of [
      ['CON.txt', '“CON”是 Windows 的保留名称'],
      ['evil\u202Etxt.exe', '不能包含不可见字符或文字方向控制字符'],
      ['a|b.txt', '文件名称不能包含以下字符'],
      ['结尾.', '不能以“.”或空格结尾'],
    ] as const) {
      const res = await dav02('PUT', at(PERSONAL, name), { body: 'x' });
      expect(res.status, name).toBe(400);
      expect(messageOf(res.text), name).toContain(words);
    }
    const mk = await dav02('MKCOL', at(PERSONAL, 'AUX'));
    expect(mk.status).toBe(400);
    expect(messageOf(mk.text)).toContain('请换一个文件夹名称');
    // fetch() would resolve `..` itself; a raw request sends the path as written.
    for (const p of [PERSONAL + '%2e%2e/', PERSONAL + '../', PERSONAL + 'a%2Fb', PERSONAL + 'a%00b']) {
      expect(await rawStatus('PROPFIND', p, basic('staff02', pw02)), p).toBe(400);
    }
    expect(await me.names('/')).not.toContain('CON.txt');
  });

  it('shows only one’s own drive: another person’s files are not there, even by name', async () => {
    const other = await driveUser(s, 'staff08');
    await other.put('/', '人事档案.txt', 'private');
    expect((await dav02('GET', at(PERSONAL, '人事档案.txt'))).status).toBe(404);
    expect((await dav02('DELETE', at(PERSONAL, '人事档案.txt'))).status).toBe(404);
    const list = await dav02('PROPFIND', PERSONAL, { headers: { depth: '1' } });
    expect(list.text).not.toContain(encodeURIComponent('人事档案'));
    expect(await other.names('/')).toContain('人事档案.txt');
  });

  it('lets everyone read a library and only its managers change it', async () => {
    const keeper = davClient(s, basic('staff04', await appPasswordFor(s, 'staff04')));
    expect((await keeper('PUT', at(RES, '馆藏目录.txt'), { body: '目录' })).status).toBe(201);
    expect((await keeper('MKCOL', at(HD, '展厅'))).status).toBe(201);
    const read = await dav02('GET', at(RES, '馆藏目录.txt'));
    expect(read.text).toBe('目录');
    for (const [method, p] of [
      ['PUT', at(RES, 'x.txt')],
      ['DELETE', at(RES, '馆藏目录.txt')],
      ['MKCOL', at(HD, '新文件夹')],
      ['LOCK', at(RES, '馆藏目录.txt')],
    ] as const) {
      const res = await dav02(method, p, {
        body: method === 'LOCK' ? LOCK_BODY() : method === 'PUT' ? 'x' : undefined,
      });
      expect(res.status, `${method} ${p}`).toBe(403);
      expect(messageOf(res.text)).toMatch(/^无权限管理(其他资源|高清图片)，请联系管理员开通$/);
    }
    // A manager deletes into the library's own bin, as 其他资源管理 does.
    expect((await keeper('DELETE', at(RES, '馆藏目录.txt'))).status).toBe(204);
    const bin = await s.call('GET', `${W}/recoveryfile/list?fileType=9`, { token: await s.login('staff04') });
    expect(bin.body.data.list.map((r: { fileName: string }) => r.fileName)).toContain('馆藏目录');
  });

  it('refuses a PUT the quota cannot take before reading it, and one that outgrows it while streaming', async () => {
    const u = await driveUser(s, 'staff09');
    const pass = await appPasswordFor(s, 'staff09');
    const d = davClient(s, basic('staff09', pass));
    await driveServiceOf(s).setQuota(u.userId, 64 * 1024);
    const blobsBefore = (await s.db.selectFrom('blob').select('id').execute()).length;

    const big = await d('PUT', at(PERSONAL, '大文件.bin'), { body: Buffer.alloc(100 * 1024, 7) });
    expect(big.status).toBe(507);
    expect(messageOf(big.text)).toMatch(/^存储空间不足：还剩 64(\.0)? KB，需要 100(\.0)? KB$/);

    // No length declared (Finder's chunked PUT): refused once the bytes pass the free room.
    const chunked = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        `${s.url}${at(PERSONAL, '流式.bin')}`,
        { method: 'PUT', headers: { authorization: basic('staff09', pass), 'transfer-encoding': 'chunked' } },
        (res) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString() }),
          );
        },
      );
      req.on('error', reject);
      req.write(Buffer.alloc(50 * 1024, 8));
      req.end(Buffer.alloc(50 * 1024, 9));
    });
    expect(chunked.status).toBe(507);
    expect(messageOf(chunked.text)).toMatch(/^存储空间不足：还剩 64(\.0)? KB，文件未保存$/);
    expect(await u.names('/')).toEqual([]);
    expect((await s.db.selectFrom('blob').select('id').execute()).length).toBe(blobsBefore);
    expect(fs.readdirSync(path.join(s.config.blobDir, 'tmp'))).toEqual([]);
    await driveServiceOf(s).setQuota(u.userId, s.config.defaultQuotaBytes);
  });

  it('leaves nothing of a PUT whose client goes away halfway', async () => {
    const u = await driveUser(s, 'staff10');
    const pass = await appPasswordFor(s, 'staff10');
    const tmp = path.join(s.config.blobDir, 'tmp');
    const blobsBefore = (await s.db.selectFrom('blob').select('id').execute()).length;
    await new Promise<void>((resolve) => {
      const req = http.request(`${s.url}${at(PERSONAL, '中断.bin')}`, {
        method: 'PUT',
        headers: { authorization: basic('staff10', pass), 'content-length': String(8 * 1024 * 1024) },
      });
      req.on('error', () => resolve());
      req.write(Buffer.alloc(1024 * 1024, 1), () => {
        // Wait until the server holds the partial bytes, then vanish.
        void vi
          .waitFor(() => expect(fs.readdirSync(tmp).length).toBeGreaterThan(0), { timeout: 10_000 })
          .then(() => req.destroy())
          .catch(() => req.destroy());
      });
    });
    await vi.waitFor(() => expect(fs.readdirSync(tmp)).toEqual([]), { timeout: 10_000 });
    expect(await u.names('/')).toEqual([]);
    expect((await s.db.selectFrom('blob').select('id').execute()).length).toBe(blobsBefore);
  });

  it('replaces content copy-on-write: a copy keeps the old bytes, the same bytes store nothing new', async () => {
    const v1 = Buffer.from('第一版');
    const v2 = Buffer.from('第二版，内容更长一些');
    expect((await dav02('PUT', at(PERSONAL, '说明.txt'), { body: v1 })).status).toBe(201);
    const id = await me.idOf('/', '说明.txt');
    await me.post('/file/copyfile', { userFileId: id, filePath: '/藏品照片/' });
    const replaced = await dav02('PUT', at(PERSONAL, '说明.txt'), { body: v2 });
    expect(replaced.status).toBe(204);
    expect(replaced.headers.get('etag')).toBe(`"${md5(v2)}"`);
    expect(await me.idOf('/', '说明.txt')).toBe(id);
    expect((await dav02('GET', at(PERSONAL, '说明.txt'))).text).toBe(v2.toString());
    expect((await dav02('GET', at(PERSONAL, '藏品照片', '说明.txt'))).text).toBe(v1.toString());
    const blobs = (await s.db.selectFrom('blob').select('id').execute()).length;
    expect((await dav02('PUT', at(PERSONAL, '副本.txt'), { body: v2 })).status).toBe(201);
    expect((await s.db.selectFrom('blob').select('id').execute()).length).toBe(blobs);
  });

  it('honours If-Match and If-None-Match, so a sync client never overwrites what it did not see', async () => {
    const p = at(PERSONAL, '清单.csv');
    expect((await dav02('PUT', p, { body: 'a,b', headers: { 'if-none-match': '*' } })).status).toBe(201);
    expect((await dav02('PUT', p, { body: 'c,d', headers: { 'if-none-match': '*' } })).status).toBe(412);
    const stale = `"${md5('old')}"`;
    expect((await dav02('PUT', p, { body: 'c,d', headers: { 'if-match': stale } })).status).toBe(412);
    expect((await dav02('DELETE', p, { headers: { 'if-match': stale } })).status).toBe(412);
    expect((await dav02('GET', p)).text).toBe('a,b');
    expect((await dav02('PUT', p, { body: 'c,d', headers: { 'if-match': `"${md5('a,b')}"` } })).status).toBe(
      204,
    );
    expect(
      (await dav02('PUT', at(PERSONAL, '无此文件.csv'), { body: 'x', headers: { 'if-match': '*' } })).status,
    ).toBe(412);
  });

  it('deletes into the recycle bin, where the web app restores from', async () => {
    expect((await dav02('PUT', at(PERSONAL, '待删除.txt'), { body: 'bin me' })).status).toBe(201);
    expect((await dav02('DELETE', at(PERSONAL, '待删除.txt'))).status).toBe(204);
    expect((await dav02('GET', at(PERSONAL, '待删除.txt'))).status).toBe(404);
    const bin = await me.get('/recoveryfile/list');
    const row = bin.body.data.list.find((r: { fileName: string }) => r.fileName === '待删除');
    expect(row).toBeTruthy();
    await me.post('/recoveryfile/restorefile', { deleteBatchNum: row.deleteBatchNum, filePath: '/' });
    expect((await dav02('GET', at(PERSONAL, '待删除.txt'))).text).toBe('bin me');
  });

  it('copies and moves inside an area with Overwrite, never across areas', async () => {
    expect((await dav02('PUT', at(PERSONAL, '甲.txt'), { body: '甲' })).status).toBe(201);
    expect((await dav02('PUT', at(PERSONAL, '乙.txt'), { body: '乙' })).status).toBe(201);
    const dest = (p: string) => ({ destination: `${s.url}${p}` });
    const noOverwrite = await dav02('MOVE', at(PERSONAL, '甲.txt'), {
      headers: { ...dest(at(PERSONAL, '乙.txt')), overwrite: 'F' },
    });
    expect(noOverwrite.status).toBe(412);
    const moved = await dav02('MOVE', at(PERSONAL, '甲.txt'), { headers: dest(at(PERSONAL, '乙.txt')) });
    expect(moved.status).toBe(204);
    expect((await dav02('GET', at(PERSONAL, '乙.txt'))).text).toBe('甲');
    // The overwritten file went to the bin, not away.
    const bin = await me.get('/recoveryfile/list');
    expect(bin.body.data.list.some((r: { fileName: string }) => r.fileName === '乙')).toBe(true);
    const across = await dav02('COPY', at(PERSONAL, '乙.txt'), { headers: dest(at(RES, '乙.txt')) });
    expect(across.status).toBe(403);
    expect(messageOf(across.text)).toContain('不能直接复制或移动');
    const into = await dav02('COPY', at(PERSONAL, '藏品照片') + '/', {
      headers: dest(at(PERSONAL, '藏品照片', '子')),
    });
    expect(into.status).toBe(403);
  });

  it('keeps Finder’s hidden files out of the drive and Windows’ properties out of the database', async () => {
    expect((await dav02('PUT', at(PERSONAL, '._照片.jpg'), { body: 'apple double' })).status).toBe(201);
    expect((await dav02('PUT', at(PERSONAL, '.DS_Store'), { body: 'ds' })).status).toBe(201);
    expect((await dav02('GET', at(PERSONAL, '._照片.jpg'))).text).toBe('apple double');
    expect((await dav02('PROPFIND', at(PERSONAL, '.DS_Store'), { headers: { depth: '0' } })).status).toBe(
      207,
    );
    const list = await dav02('PROPFIND', PERSONAL, { headers: { depth: '1' } });
    expect(hrefs(list.text).filter((h) => h.includes('/._') || h.endsWith('.DS_Store'))).toEqual([]);
    expect(await me.names('/')).not.toContain('.DS_Store');
    expect((await dav02('DELETE', at(PERSONAL, '._照片.jpg'))).status).toBe(204);
    const big = await dav02('PUT', at(PERSONAL, '._大.jpg'), { body: Buffer.alloc(1024 * 1024 + 1) });
    expect(big.status).toBe(507);
    expect(messageOf(big.text)).toBe('系统隐藏文件过大，未保存');

    const id = await me.idOf('/', '乙.txt');
    const ms = await dav02('PROPPATCH', at(PERSONAL, '乙.txt'), {
      body:
        '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:schemas-microsoft-com:"><D:set><D:prop>' +
        '<Z:Win32CreationTime>Tue, 01 Sep 2026 08:00:00 GMT</Z:Win32CreationTime><Z:Win32FileAttributes>00000020</Z:Win32FileAttributes>' +
        '</D:prop></D:set></D:propertyupdate>',
    });
    expect(ms.status).toBe(207);
    expect(ms.text).toContain('HTTP/1.1 200 OK');
    expect(
      await s.db.selectFrom('dav_property').selectAll().where('user_file_id', '=', id).execute(),
    ).toEqual([]);
    const live = await dav02('PROPPATCH', at(PERSONAL, '乙.txt'), {
      body: '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><D:getetag>x</D:getetag><x:n xmlns:x="urn:n">1</x:n></D:prop></D:set></D:propertyupdate>',
    });
    expect(live.text).toContain('<D:cannot-modify-protected-property/>');
    expect(live.text).toContain('HTTP/1.1 424 Failed Dependency');
  });

  it('keeps dead properties small, all or nothing: too many or too large stores none', async () => {
    const p = at(PERSONAL, '乙.txt');
    const patch = (props: string) =>
      dav02('PROPPATCH', p, {
        body: `<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop>${props}</D:prop></D:set></D:propertyupdate>`,
      });
    const many = Array.from({ length: 101 }, (_, i) => `<n:p${i} xmlns:n="urn:n">${i}</n:p${i}>`).join('');
    const tooMany = await patch(many);
    expect(tooMany.status).toBe(207);
    expect(tooMany.text).toContain('HTTP/1.1 507 Insufficient Storage');
    const big = await patch(
      `<n:big xmlns:n="urn:n">${'长'.repeat(70 * 1024)}</n:big><n:small xmlns:n="urn:n">1</n:small>`,
    );
    expect(big.text).toContain('HTTP/1.1 507 Insufficient Storage');
    expect(big.text).toContain('HTTP/1.1 424 Failed Dependency');
    const id = await me.idOf('/', '乙.txt');
    expect(
      await s.db.selectFrom('dav_property').selectAll().where('user_file_id', '=', id).execute(),
    ).toEqual([]);
    const ok = await patch('<n:note xmlns:n="urn:n" xml:lang="zh">馆藏</n:note>');
    expect(ok.text).toContain('HTTP/1.1 200 OK');
    const got = await dav02('PROPFIND', p, {
      headers: { depth: '0' },
      body: '<propfind xmlns="DAV:"><prop><note xmlns="urn:n"/></prop></propfind>',
    });
    expect(got.text).toMatch(/<x\d+:note xmlns:x\d+="urn:n" xml:lang="zh">馆藏<\/x\d+:note>/);
  });

  it('makes thumbnails for images PUT over WebDAV, as for uploads', async () => {
    const png = await picture(640, 480, 'png');
    expect((await dav02('PUT', at(PERSONAL, '展品.png'), { body: png })).status).toBe(201);
    const id = await me.idOf('/', '展品.png');
    const thumb = await fetch(`${s.url}${W}/filetransfer/preview?userFileId=${id}&isMin=1`, {
      headers: { token: me.token },
    });
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    const row = (await me.rows('/')).find((r) => r.fileName === '展品');
    expect([row.imageWidth, row.imageHeight]).toEqual([640, 480]);
  });
});

describe('locks between people', () => {
  it('hold a file for the person who locked it, with the token they were given', async () => {
    const staff04 = davClient(s, basic('staff04', await appPasswordFor(s, 'staff04', '锁测试')));
    const staff03 = davClient(s, basic('staff03', await appPasswordFor(s, 'staff03')));
    expect((await staff04('PUT', at(RES, '借展协议.docx'), { body: 'v1' })).status).toBe(201);
    const lock = await staff04('LOCK', at(RES, '借展协议.docx'), {
      body: LOCK_BODY('exclusive', '孙悦的 Word'),
      headers: { timeout: 'Second-600' },
    });
    expect(lock.status).toBe(200);
    const token = lock.headers.get('lock-token')!.slice(1, -1);
    expect(lock.text).toContain('<D:timeout>Second-600</D:timeout>');
    const ifHeader = { if: `(<${token}>)` };

    // The holder without the token, and a colleague with it, are both refused (423).
    expect((await staff04('PUT', at(RES, '借展协议.docx'), { body: 'v2' })).status).toBe(423);
    const stolen = await staff03('PUT', at(RES, '借展协议.docx'), { body: 'v2', headers: ifHeader });
    expect(stolen.status).toBe(423);
    expect(stolen.text).toContain('<D:lock-token-submitted>');
    expect((await staff03('LOCK', at(RES, '借展协议.docx'), { body: LOCK_BODY('shared') })).status).toBe(423);
    expect(
      (await staff03('UNLOCK', at(RES, '借展协议.docx'), { headers: { 'lock-token': `<${token}>` } })).status,
    ).toBe(403);
    // The web app's listing still shows it; the lock is WebDAV's.
    expect((await staff04('PUT', at(RES, '借展协议.docx'), { body: 'v2', headers: ifHeader })).status).toBe(
      204,
    );
    const found = await staff03('PROPFIND', at(RES, '借展协议.docx'), {
      headers: { depth: '0' },
      body: '<propfind xmlns="DAV:"><prop><lockdiscovery/></prop></propfind>',
    });
    expect(found.text).toContain('孙悦的 Word');
    expect(
      (await staff04('UNLOCK', at(RES, '借展协议.docx'), { headers: { 'lock-token': `<${token}>` } })).status,
    ).toBe(204);
    expect((await staff03('PUT', at(RES, '借展协议.docx'), { body: 'v3' })).status).toBe(204);
  });

  it('let Finder save as it does: lock a new name, stream the bytes chunked with the lock, unlock', async () => {
    const p = at(PERSONAL, '藏品照片', '新照片.jpg');
    const lock = await dav02('LOCK', p, {
      body: LOCK_BODY('exclusive', 'Finder'),
      headers: { depth: '0', timeout: 'Second-600' },
    });
    expect(lock.status).toBe(201);
    const token = lock.headers.get('lock-token')!.slice(1, -1);
    expect(await me.names('/藏品照片/')).toContain('新照片.jpg');
    const bytes = Buffer.alloc(300 * 1024, 3);
    const put = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${s.url}${p}`,
        {
          method: 'PUT',
          headers: {
            authorization: basic('staff02', pw02),
            'transfer-encoding': 'chunked',
            'x-expected-entity-length': String(bytes.length),
            if: `(<${token}>)`,
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.write(bytes.subarray(0, 100_000));
      req.end(bytes.subarray(100_000));
    });
    expect(put).toBe(204);
    expect((await dav02('UNLOCK', p, { headers: { 'lock-token': `<${token}>` } })).status).toBe(204);
    const got = await fetch(`${s.url}${p}`, { headers: { authorization: basic('staff02', pw02) } });
    expect(Buffer.from(await got.arrayBuffer())).toEqual(bytes);
  });

  it('are kept in the database, so they hold across requests and expire on time', async () => {
    expect((await dav02('PUT', at(PERSONAL, '锁.txt'), { body: 'x' })).status).toBe(201);
    const lock = await dav02('LOCK', at(PERSONAL, '锁.txt'), {
      body: LOCK_BODY(),
      headers: { timeout: 'Second-60' },
    });
    const token = lock.headers.get('lock-token')!.slice(1, -1);
    const row = await s.db
      .selectFrom('dav_lock')
      .selectAll()
      .where('token', '=', token)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      space: areaOf(await userIdOf(s, 'staff02'), 'personal').space,
      path: '/锁.txt',
      exclusive: 1,
    });
    expect((await dav02('DELETE', at(PERSONAL, '锁.txt'))).status).toBe(423);
    await s.db
      .updateTable('dav_lock')
      .set({ expires_at: Date.now() - 1 })
      .where('token', '=', token)
      .execute();
    expect((await dav02('DELETE', at(PERSONAL, '锁.txt'))).status).toBe(204);
  });
});

describe('the system log', () => {
  it('writes every WebDAV change with who, what and where, and never the credentials', async () => {
    const ua = 'Microsoft-WebDAV-MiniRedir/10.0.19045';
    const d = (m: string, p: string, headers: Record<string, string> = {}, body?: string) =>
      dav02(m, p, { headers: { 'user-agent': ua, ...headers }, body });
    expect((await d('MKCOL', at(PERSONAL, '日志测试'))).status).toBe(201);
    expect((await d('PUT', at(PERSONAL, '日志测试', 'a.txt'), {}, 'a')).status).toBe(201);
    expect(
      (await d('MOVE', at(PERSONAL, '日志测试', 'a.txt'), { destination: at(PERSONAL, '日志测试', 'b.txt') }))
        .status,
    ).toBe(201);
    expect((await d('DELETE', at(PERSONAL, '日志测试', 'b.txt'))).status).toBe(204);
    expect((await d('PUT', at(RES, 'no.txt'), {}, 'x')).status).toBe(403);
    const mine = async () => (await logEntries()).filter((r) => r.userAgent === ua);
    await vi.waitFor(async () => expect((await mine()).length).toBe(5), { timeout: 5000, interval: 50 });
    const rows = (await mine()).reverse();
    expect(rows.map((r) => [r.action, r.method, r.path, r.result])).toEqual([
      ['新增', 'MKCOL', '/dav/我的网盘/日志测试', 1],
      ['新增', 'PUT', '/dav/我的网盘/日志测试/a.txt', 1],
      ['修改', 'MOVE', '/dav/我的网盘/日志测试/a.txt', 1],
      ['删除', 'DELETE', '/dav/我的网盘/日志测试/b.txt', 1],
      ['新增', 'PUT', '/dav/其他资源/no.txt', 0],
    ]);
    expect(rows.every((r) => r.userName === '王芳' && r.module === '网盘')).toBe(true);
    expect(rows[2]!.params).toMatchObject({ destination: '/dav/我的网盘/日志测试/b.txt' });
    expect(rows[4]!.errorMessage).toBe('无权限管理其他资源，请联系管理员开通');
    expect(rows[1]!.targetId).toBe(String(await idIn('/日志测试/', 'b.txt', true)));
    const stored = JSON.stringify(await s.db.selectFrom('system_log').selectAll().execute());
    expect(stored).not.toContain(pw02);
    expect(stored).not.toContain(pw02.replace(/-/g, ''));
  });
});

/** The status of a request whose path is sent exactly as written (no URL normalisation). */
function rawStatus(method: string, p: string, auth: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${s.url}/`,
      { method, path: p, headers: { authorization: auth, depth: '0' } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The id of a row by name, binned ones too. */
async function idIn(folder: string, full: string, binned = false): Promise<number> {
  const dot = full.lastIndexOf('.');
  const row = await s.db
    .selectFrom('user_file')
    .select('id')
    .where('file_path', '=', folder)
    .where('file_name', '=', full.slice(0, dot))
    .where('extend_name', '=', full.slice(dot + 1))
    .where('delete_flag', binned ? '!=' : '=', 0)
    .executeTakeFirstOrThrow();
  return row.id;
}
