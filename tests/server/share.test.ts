import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShareService, SHARE_FAILURES } from '../../src/server/modules/share/share.service';
import { CODE_ALPHABET, formatMuseumTime } from '../../src/shared/drive/share-rules';
import { driveServiceOf, startServer, type TestServer } from './harness';
import { W, driveUser, failed, readZip, type DriveUser } from './drive-util';
import { M, demoPhone } from './util';

/*
 * Sharing by link (issue 6): the code and the expiry are enforced by the server on every read
 * (info, list, preview, download, save), the code never leaves the server except to its sharer,
 * code guesses are throttled, only the share's own items are reachable, and revoking works.
 */

let s: TestServer;
let owner: DriveUser;
let saver: DriveUser;
let third: DriveUser;

const GONE = failed(404, '分享链接不存在或已失效');
const REVOKED = failed(404, '该分享已被取消');
const EXPIRED = failed(1010, '分享已过期');
const NEED_CODE = failed(1005, '请先输入提取码');
const inDays = (d: number) => formatMuseumTime(Date.now() + d * 86_400_000);

beforeAll(async () => {
  s = await startServer();
  owner = await driveUser(s, 'staff03');
  saver = await driveUser(s, 'staff04');
  third = await driveUser(s, 'staff05');
});
afterAll(() => s.close());

/** An anonymous browser: no token, its own cookie jar. */
function visitor() {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  async function raw(path: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    if (jar.size) headers.set('cookie', cookieHeader());
    const res = await fetch(`${s.url}${W}${path}`, { ...init, headers });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return res;
  }
  return {
    jar,
    raw,
    async get(path: string, query: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
      const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
      const res = await raw(`${path}?${qs}`, { headers });
      const text = await res.text();
      try {
        return { status: res.status, headers: res.headers, body: JSON.parse(text), text };
      } catch {
        return { status: res.status, headers: res.headers, body: null as any, text };
      }
    },
  };
}

async function share(
  user: DriveUser,
  ids: number[],
  opts: { shareType?: number; endTime?: string; remarks?: string } = {},
) {
  const res = await user.post('/share/sharefile', {
    files: JSON.stringify(ids.map((userFileId) => ({ userFileId }))),
    endTime: opts.endTime ?? inDays(7),
    shareType: opts.shareType ?? 1,
    remarks: opts.remarks ?? '',
  });
  if (!res.body?.success) throw new Error(`share: ${JSON.stringify(res.body)}`);
  return res.body.data as { shareBatchNum: string; extractionCode: string | null; endTime: string };
}

describe('share/sharefile', () => {
  it('answers an unguessable batch and a 6-character code from the alphabet (private) or none (public)', async () => {
    const id = await owner.put('/', '藏品清单.txt', '青花瓷');
    const priv = await share(owner, [id], { shareType: 1 });
    expect(priv.shareBatchNum).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(priv.extractionCode).toMatch(new RegExp(`^[${CODE_ALPHABET}]{6}$`));
    const pub = await share(owner, [id], { shareType: 0 });
    expect(pub.extractionCode).toBeNull();
    expect(pub.shareBatchNum).not.toBe(priv.shareBatchNum);
  });

  it('refuses a missing, malformed, past, impossible or too distant expiry, in words a person can act on', async () => {
    const id = await owner.put('/', '期限.txt', 'x');
    const files = JSON.stringify([{ userFileId: id }]);
    const send = (endTime: unknown) => owner.post('/share/sharefile', { files, endTime, shareType: 0 });
    expect((await send(undefined)).body.message).toBe('请选择链接有效期');
    expect((await send('')).body.message).toBe('请选择链接有效期');
    expect((await send('2026/12/01')).body.message).toBe('链接有效期格式不正确，应为 yyyy-MM-dd HH:mm:ss');
    expect((await send(formatMuseumTime(Date.now() - 1000))).body.message).toBe(
      '链接有效期须晚于当前时间，请重新选择',
    );
    expect((await send('2099-02-30 10:00:00')).body.message).toBe('链接有效期不是有效的时间，请重新选择');
    expect((await send(inDays(400))).body.message).toBe('链接有效期最长一年，请重新选择');
  });

  it('shares only the caller’s own live files', async () => {
    const theirs = await third.put('/', '别人的.txt', 'secret');
    const res = await owner.post('/share/sharefile', {
      files: [{ userFileId: theirs }],
      endTime: inDays(1),
      shareType: 0,
    });
    expect(res.body).toEqual(failed(404, '只能分享自己网盘中的文件，所选文件不存在或已被删除'));
    const binned = await owner.put('/', '删掉的.txt', 'x');
    await owner.post('/file/deletefile', { userFileId: binned });
    const res2 = await owner.post('/share/sharefile', {
      files: [{ userFileId: binned }],
      endTime: inDays(1),
    });
    expect(res2.body.success).toBe(false);
    expect(await s.db.selectFrom('share').selectAll().where('owner_id', '=', third.userId).execute()).toEqual(
      [],
    );
  });
});

describe('a private share seen by an anonymous visitor', () => {
  let batch: string;
  let code: string;
  let fileId: number;
  let folderId: number;
  let innerId: number;

  beforeAll(async () => {
    await owner.mkdir('/', '展览资料');
    folderId = await owner.idOf('/', '展览资料');
    await owner.mkdir('/展览资料/', '图录');
    innerId = await owner.put('/展览资料/图录/', '说明.txt', '宋代青瓷');
    fileId = await owner.put('/', '海报.txt', 'poster');
    const made = await share(owner, [folderId, fileId], { remarks: '请查收' });
    batch = made.shareBatchNum;
    code = made.extractionCode!;
  });

  it('is described without the code, and asks for it', async () => {
    const v = visitor();
    const info = await v.get('/share/sharetype', { shareBatchNum: batch });
    expect(info.body.data).toMatchObject({
      shareType: 1,
      needCode: true,
      remarks: '请查收',
      sharer: '赵磊',
      fileCount: 2,
    });
    expect(info.text).not.toContain(code);
    expect((await v.get('/share/checkendtime', { shareBatchNum: batch })).body.success).toBe(true);
    expect((await v.get('/share/sharefileList', { shareBatchNum: batch })).body).toEqual(NEED_CODE);
  });

  it('refuses listing, preview and download before the code, and a wrong code says how many tries are left', async () => {
    const v = visitor();
    expect((await v.get('/filetransfer/preview', { userFileId: fileId, shareBatchNum: batch })).body).toEqual(
      NEED_CODE,
    );
    expect(
      (await v.get('/filetransfer/downloadfile', { userFileId: fileId, shareBatchNum: batch })).body,
    ).toEqual(NEED_CODE);
    const wrong = await v.get('/share/checkextractioncode', {
      shareBatchNum: batch,
      extractionCode: 'zzzzzz',
    });
    expect(wrong.body).toMatchObject({
      success: false,
      message: '提取码错误，还可尝试 4 次',
      data: { attemptsLeft: 4 },
    });
    expect(v.jar.size).toBe(0);
    await s.db.deleteFrom('share_attempt').execute();
  });

  it('a right code (any case) grants this client listing, preview and download without the code again', async () => {
    const v = visitor();
    const ok = await v.get('/share/checkextractioncode', {
      shareBatchNum: batch,
      extractionCode: ` ${code.toUpperCase()} `,
    });
    expect(ok.body.success).toBe(true);
    const setCookie = ok.headers.getSetCookie()[0]!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/Path=\/wangpan\//);
    expect(setCookie).not.toContain(code);

    const top = await v.get('/share/sharefileList', { shareBatchNum: batch });
    expect(top.body.data.list.map((r: any) => [r.fileName, r.isDir, r.shareFilePath])).toEqual([
      ['展览资料', 1, '/'],
      ['海报', 0, '/'],
    ]);
    // Nothing about the sharer's drive or the code.
    expect(top.text).not.toContain(code);
    expect(top.text).not.toMatch(/filePath"|extractionCode|md5|blob/);
    const inner = await v.get('/share/sharefileList', {
      shareBatchNum: batch,
      shareFilePath: '/展览资料/图录/',
    });
    expect(inner.body.data.list.map((r: any) => r.fileName)).toEqual(['说明']);
    // The spec's `path` is the same thing.
    const viaPath = await v.get('/share/sharefileList', { shareBatchNum: batch, path: '/展览资料/' });
    expect(viaPath.body.data.list.map((r: any) => r.fileName)).toEqual(['图录']);
    expect(
      (await v.get('/share/sharefileList', { shareBatchNum: batch, shareFilePath: '/没有/' })).body,
    ).toEqual(failed(404, '该文件夹不存在或已不在分享中'));

    const preview = await v.get('/filetransfer/preview', { userFileId: innerId, shareBatchNum: batch });
    expect(preview.status).toBe(200);
    expect(preview.text).toBe('宋代青瓷');
    const dl = await v.get('/filetransfer/downloadfile', { userFileId: fileId, shareBatchNum: batch });
    expect(dl.text).toBe('poster');
    const zip = await v.raw(`/filetransfer/downloadfile?userFileId=${folderId}&shareBatchNum=${batch}`);
    const names = (await readZip(Buffer.from(await zip.arrayBuffer()))).map((e) => e.name);
    expect(names).toEqual(['展览资料/', '展览资料/图录/', '展览资料/图录/说明.txt']);

    // Another browser holds no grant.
    expect((await visitor().get('/share/sharefileList', { shareBatchNum: batch })).body).toEqual(NEED_CODE);
  });

  it('reaches only the share’s own items, also with a grant', async () => {
    const v = visitor();
    await v.get('/share/checkextractioncode', { shareBatchNum: batch, extractionCode: code });
    const outside = await owner.put('/', '未分享.txt', 'private');
    for (const path of ['/filetransfer/preview', '/filetransfer/downloadfile']) {
      const res = await v.get(path, { userFileId: outside, shareBatchNum: batch });
      expect(res.body).toEqual(failed(404, '分享中没有该文件，或它已被分享者删除'));
    }
    const several = await v.get('/filetransfer/downloadfile', {
      userFileIds: `${fileId},${outside}`,
      shareBatchNum: batch,
    });
    expect(several.body.success).toBe(false);
    // The one-off code in the URL is checked (the spec's form) but is not needed by the page.
    const oneOff = await visitor().get('/filetransfer/preview', {
      userFileId: fileId,
      shareBatchNum: batch,
      extractionCode: code,
    });
    expect(oneOff.text).toBe('poster');
  });

  it('keeps the folder’s contents as they were when shared; deleted files drop out', async () => {
    const v = visitor();
    await v.get('/share/checkextractioncode', { shareBatchNum: batch, extractionCode: code });
    await owner.put('/展览资料/', '后来加的.txt', 'later');
    await owner.post('/file/renamefile', { userFileId: folderId, fileName: '改名了' });
    const list = await v.get('/share/sharefileList', { shareBatchNum: batch, shareFilePath: '/展览资料/' });
    expect(list.body.data.list.map((r: any) => r.fileName)).toEqual(['图录']);
    await owner.post('/file/renamefile', { userFileId: folderId, fileName: '展览资料' });
  });

  it('details through the share withhold where the sharer keeps the file', async () => {
    const v = visitor();
    expect((await v.get('/file/detail', { userFileId: innerId, shareBatchNum: batch })).body).toEqual(
      NEED_CODE,
    );
    await v.get('/share/checkextractioncode', { shareBatchNum: batch, extractionCode: code });
    const d = await v.get('/file/detail', { userFileId: innerId, shareBatchNum: batch });
    expect(d.body.data).toMatchObject({
      fileName: '说明',
      extendName: 'txt',
      fileSize: 12,
      filePath: '/',
      music: null,
    });
    expect(d.text).not.toContain('展览资料');
    // Without shareBatchNum, details are the caller's own: a visitor has none.
    expect((await v.get('/file/detail', { userFileId: innerId })).status).toBe(999);
  });

  it('the sharer opens their own private link without the code', async () => {
    const res = await owner.get('/share/sharetype', { shareBatchNum: batch });
    expect(res.body.data.needCode).toBe(false);
    expect((await owner.get('/share/sharefileList', { shareBatchNum: batch })).body.success).toBe(true);
  });
});

describe('code attempts', () => {
  it('lock a client after 5 wrong codes, with the wait; the right code is refused meanwhile', async () => {
    const id = await owner.put('/', '锁定.txt', 'x');
    const { shareBatchNum, extractionCode } = await share(owner, [id]);
    const v = visitor();
    const left: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await v.get('/share/checkextractioncode', { shareBatchNum, extractionCode: '222222' });
      left.push(r.body.message);
    }
    expect(left).toEqual([
      '提取码错误，还可尝试 4 次',
      '提取码错误，还可尝试 3 次',
      '提取码错误，还可尝试 2 次',
      '提取码错误，还可尝试 1 次',
      '提取码错误次数过多，请 15 分钟后再试',
    ]);
    const right = await v.get('/share/checkextractioncode', { shareBatchNum, extractionCode });
    expect(right.body).toMatchObject({
      success: false,
      code: 1008,
      message: '提取码错误次数过多，请 15 分钟后再试',
    });
    expect(v.jar.size).toBe(0);
    await s.db.deleteFrom('share_attempt').execute();
  });

  it('lock the whole share after many wrong codes from many clients, and open again after the lock', async () => {
    const id = await owner.put('/', '分布式.txt', 'x');
    const { shareBatchNum, extractionCode } = await share(owner, [id]);
    let t = Date.now();
    const svc = createShareService({ db: s.db, drive: driveServiceOf(s), now: () => t });
    const messages: string[] = [];
    for (let i = 0; i < SHARE_FAILURES; i++) {
      // A new address every 4 guesses, so no single client is locked.
      await svc
        .checkExtractionCode(shareBatchNum, '222222', `10.0.0.${Math.floor(i / 4)}`)
        .catch((e: Error) => {
          messages.push(e.message);
        });
    }
    expect(messages.at(-1)).toBe('该分享的提取码尝试次数过多，已暂时锁定，请 60 分钟后再试');
    await expect(svc.checkExtractionCode(shareBatchNum, extractionCode!, '10.9.9.9')).rejects.toThrow(
      '已暂时锁定',
    );
    t += 61 * 60_000;
    await expect(svc.checkExtractionCode(shareBatchNum, extractionCode!, '10.9.9.9')).resolves.toMatch(
      /^[\w-]{43}$/,
    );
  });
});

describe('every wrong code counts toward every counter (issue 16 §2)', () => {
  const CLIENT_LOCK = '提取码错误次数过多，请 15 分钟后再试';
  const SHARE_LOCK = '该分享的提取码尝试次数过多，已暂时锁定，请 60 分钟后再试';
  const wrong = (left: number) => `提取码错误，还可尝试 ${left} 次`;

  async function guesses(shareBatchNum: string, clients: string[]) {
    const svc = createShareService({ db: s.db, drive: driveServiceOf(s) });
    const messages: string[] = [];
    for (const client of clients) {
      await svc.checkExtractionCode(shareBatchNum, '222222', client).catch((e: Error) => {
        messages.push(e.message);
      });
    }
    return messages;
  }
  const sharedCount = async (shareBatchNum: string) => {
    const row = await s.db
      .selectFrom('share_attempt')
      .innerJoin('share', 'share.id', 'share_attempt.share_id')
      .select(['share_attempt.failures', 'share_attempt.locked_until'])
      .where('share.batch_num', '=', shareBatchNum)
      .where('share_attempt.client', '=', '*')
      .executeTakeFirst();
    return row;
  };

  it('a client locked at its 5th wrong code: that code counts for the whole share too', async () => {
    const id = await owner.put('/', '五次.txt', 'x');
    const { shareBatchNum } = await share(owner, [id]);
    const messages = await guesses(shareBatchNum, [
      '10.3.0.1',
      '10.3.0.1',
      '10.3.0.1',
      '10.3.0.1',
      '10.3.0.1',
    ]);
    expect(messages).toEqual([wrong(4), wrong(3), wrong(2), wrong(1), CLIENT_LOCK]);
    expect(await sharedCount(shareBatchNum)).toEqual({ failures: 5, locked_until: null });
  });

  it('six addresses locked in turn: the share locks at exactly the 30th wrong code', async () => {
    const id = await owner.put('/', '三十次.txt', 'x');
    const { shareBatchNum, extractionCode } = await share(owner, [id]);
    const clients = Array.from({ length: 6 }, (_, a) => Array<string>(5).fill(`10.4.0.${a}`)).flat();
    const messages = await guesses(shareBatchNum, clients);
    expect(messages).toHaveLength(SHARE_FAILURES);
    for (let a = 0; a < 5; a++) {
      expect(messages.slice(a * 5, a * 5 + 5)).toEqual([wrong(4), wrong(3), wrong(2), wrong(1), CLIENT_LOCK]);
    }
    // The 30th is the 6th address's 5th: both lock, and the whole share's lock is the one said.
    expect(messages.slice(25)).toEqual([wrong(4), wrong(3), wrong(2), wrong(1), SHARE_LOCK]);
    const lock = await sharedCount(shareBatchNum);
    expect(lock?.locked_until).toBeGreaterThan(Date.now() + 59 * 60_000);
    const svc = createShareService({ db: s.db, drive: driveServiceOf(s) });
    await expect(svc.checkExtractionCode(shareBatchNum, extractionCode!, '10.4.9.9')).rejects.toThrow(
      SHARE_LOCK,
    );
  });

  it('parallel wrong codes from one client are counted one by one: five counted, the rest refused', async () => {
    const id = await owner.put('/', '并发.txt', 'x');
    const { shareBatchNum } = await share(owner, [id]);
    const svc = createShareService({ db: s.db, drive: driveServiceOf(s) });
    const messages = await Promise.all(
      Array.from({ length: 8 }, () =>
        svc.checkExtractionCode(shareBatchNum, '222222', '10.7.0.1').then(
          () => 'opened',
          (e: Error) => e.message,
        ),
      ),
    );
    expect(messages.filter((m) => m.startsWith('提取码错误，还可尝试')).sort()).toEqual([
      wrong(1),
      wrong(2),
      wrong(3),
      wrong(4),
    ]);
    expect(messages.filter((m) => m === CLIENT_LOCK)).toHaveLength(4);
    expect(await sharedCount(shareBatchNum)).toEqual({ failures: 5, locked_until: null });
  });

  it('ten addresses in turn, three codes each: the 30th locks the share, the 29th says one left', async () => {
    const id = await owner.put('/', '十个地址.txt', 'x');
    const { shareBatchNum } = await share(owner, [id]);
    const clients = Array.from({ length: SHARE_FAILURES }, (_, i) => `10.5.0.${i % 10}`);
    const messages = await guesses(shareBatchNum, clients);
    expect(messages.slice(0, 10)).toEqual(Array<string>(10).fill(wrong(4)));
    expect(messages.slice(27)).toEqual([wrong(2), wrong(1), SHARE_LOCK]);
  });
});

describe('expired, revoked and unknown links', () => {
  it('an expired share refuses info, listing, preview, download and save, also with a grant', async () => {
    const id = await owner.put('/', '过期.txt', 'old');
    const { shareBatchNum, extractionCode } = await share(owner, [id]);
    const v = visitor();
    await v.get('/share/checkextractioncode', { shareBatchNum, extractionCode: extractionCode! });
    expect((await v.get('/share/sharefileList', { shareBatchNum })).body.success).toBe(true);
    // The end time is not in the future: expired (spec §4), to the millisecond.
    await s.db
      .updateTable('share')
      .set({ end_time: Date.now() })
      .where('batch_num', '=', shareBatchNum)
      .execute();
    expect((await v.get('/share/checkendtime', { shareBatchNum })).body).toEqual(EXPIRED);
    expect((await v.get('/share/sharetype', { shareBatchNum })).body).toEqual(EXPIRED);
    expect((await v.get('/share/sharefileList', { shareBatchNum })).body).toEqual(EXPIRED);
    expect((await v.get('/filetransfer/preview', { userFileId: id, shareBatchNum })).body).toEqual(EXPIRED);
    expect((await v.get('/filetransfer/downloadfile', { userFileId: id, shareBatchNum })).body).toEqual(
      EXPIRED,
    );
    const save = await saver.post('/share/savesharefile', {
      shareBatchNum,
      files: [{ userFileId: id }],
      filePath: '/',
    });
    expect(save.body).toEqual(EXPIRED);
    // Still in my shares, marked expired.
    const mine = await owner.get('/share/shareList', { pageCount: 100 });
    expect(mine.body.data.list.find((r: any) => r.shareBatchNum === shareBatchNum).expired).toBe(true);
  });

  it('revoking stops the link at once, grants included; only the sharer can revoke', async () => {
    const id = await owner.put('/', '取消.txt', 'x');
    const { shareBatchNum, extractionCode } = await share(owner, [id]);
    const v = visitor();
    await v.get('/share/checkextractioncode', { shareBatchNum, extractionCode: extractionCode! });
    expect((await third.post('/share/cancelshare', { shareBatchNums: [shareBatchNum] })).body).toEqual(
      failed(404, '分享不存在或已取消，请刷新后重试'),
    );
    expect((await owner.post('/share/cancelshare', { shareBatchNums: [shareBatchNum] })).body.success).toBe(
      true,
    );
    expect((await v.get('/share/sharefileList', { shareBatchNum })).body).toEqual(REVOKED);
    expect((await v.get('/filetransfer/preview', { userFileId: id, shareBatchNum })).body).toEqual(REVOKED);
    expect((await v.get('/share/sharetype', { shareBatchNum })).body).toEqual(REVOKED);
    const mine = await owner.get('/share/shareList', { pageCount: 100 });
    expect(mine.body.data.list.some((r: any) => r.shareBatchNum === shareBatchNum)).toBe(false);
    expect((await owner.post('/share/cancelshare', { shareBatchNums: [shareBatchNum] })).body.success).toBe(
      false,
    );
  });

  it('unknown, guessed and malformed batches answer cleanly, never crash', async () => {
    const v = visitor();
    for (const b of ['nope', 'A'.repeat(22), "'; drop table share; --", '../../etc', '分享']) {
      expect((await v.get('/share/sharetype', { shareBatchNum: b })).body).toEqual(GONE);
      expect((await v.get('/share/sharefileList', { shareBatchNum: b })).body).toEqual(GONE);
      expect(
        (await v.get('/share/checkextractioncode', { shareBatchNum: b, extractionCode: '123456' })).body,
      ).toEqual(GONE);
    }
    expect((await v.get('/share/sharetype', { shareBatchNum: 'x'.repeat(65) })).body).toEqual(
      failed(400, '分享链接不正确'),
    );
    expect((await v.get('/share/sharetype', {})).status).toBe(400);
  });
});

describe('share/savesharefile', () => {
  let batch: string;
  let code: string;
  let folderId: number;
  let fileId: number;
  let innerId: number;

  beforeAll(async () => {
    await owner.mkdir('/', '转存');
    folderId = await owner.idOf('/', '转存');
    innerId = await owner.put('/转存/', '内页.txt', '内页内容');
    fileId = await owner.put('/', '单个.txt', '单个文件');
    const made = await share(owner, [folderId, fileId]);
    batch = made.shareBatchNum;
    code = made.extractionCode!;
  });

  const save = (user: DriveUser, ids: number[], filePath = '/', headers: Record<string, string> = {}) =>
    user.post(
      '/share/savesharefile',
      { shareBatchNum: batch, files: ids.map((userFileId) => ({ userFileId })), filePath },
      headers,
    );

  it('needs a session and the code', async () => {
    const anon = await s.call('POST', `${W}/share/savesharefile`, {
      body: { shareBatchNum: batch, files: [{ userFileId: fileId }], filePath: '/' },
    });
    expect(anon.status).toBe(999);
    expect((await save(saver, [fileId])).body).toEqual(NEED_CODE);
  });

  it('copies files and folders into the saver’s drive without copying bytes, with the collision rule', async () => {
    const grant = await fetch(
      `${s.url}${W}/share/checkextractioncode?shareBatchNum=${batch}&extractionCode=${code}`,
    );
    const cookie = grant.headers.getSetCookie()[0]!.split(';')[0]!;
    const blobsBefore = (await s.db.selectFrom('blob').select('id').execute()).length;
    await saver.mkdir('/', '收到');
    expect((await save(saver, [folderId, fileId], '/收到/', { cookie })).body.success).toBe(true);
    expect(await saver.names('/收到/')).toEqual(['转存/', '单个.txt']);
    expect(await saver.names('/收到/转存/')).toEqual(['内页.txt']);
    // Again: the folder merges, the files get name(1).
    expect((await save(saver, [folderId, fileId], '/收到/', { cookie })).body.success).toBe(true);
    expect(await saver.names('/收到/')).toEqual(['转存/', '单个.txt', '单个(1).txt']);
    expect(await saver.names('/收到/转存/')).toEqual(['内页.txt', '内页(1).txt']);
    // An item from inside a shared folder on its own.
    expect((await save(saver, [innerId], '/', { cookie })).body.success).toBe(true);
    expect(await saver.names('/')).toContain('内页.txt');
    expect((await s.db.selectFrom('blob').select('id').execute()).length).toBe(blobsBefore);
    const dl = await saver.get('/filetransfer/downloadfile', {
      userFileId: await saver.idOf('/', '内页.txt'),
    });
    expect(dl.body).toBe('内页内容');
  });

  it('refuses ids outside the share, a missing target folder, and a full quota, saving nothing', async () => {
    const grant = await fetch(
      `${s.url}${W}/share/checkextractioncode?shareBatchNum=${batch}&extractionCode=${code}`,
    );
    const cookie = grant.headers.getSetCookie()[0]!.split(';')[0]!;
    const ownerOther = await owner.put('/', '不在分享里.txt', 'x');
    const saversOwn = await saver.put('/', '自己的.txt', 'x');
    const before = await saver.names('/');
    for (const ids of [[ownerOther], [fileId, ownerOther], [saversOwn]]) {
      expect((await save(saver, ids, '/', { cookie })).body).toEqual(
        failed(404, '分享中没有该文件，或它已被分享者删除'),
      );
    }
    expect((await save(saver, [fileId], '/没有这个/', { cookie })).body).toEqual(
      failed(404, '目标文件夹不存在或已被删除'),
    );
    await saver.post('/file/deletefile', { userFileId: saversOwn, deleteMode: 2 });
    const used = Number((await saver.get('/filetransfer/getstorage')).body.data.storageSize);
    await s.db
      .insertInto('storage_quota')
      .values({ user_id: saver.userId, total_bytes: used + 5 })
      .execute();
    const full = await save(saver, [folderId], '/', { cookie });
    expect(full.body.success).toBe(false);
    expect(full.body.message).toMatch(/^存储空间不足/);
    expect(await saver.names('/')).toEqual(before.filter((n) => n !== '自己的.txt'));
    await s.db.deleteFrom('storage_quota').where('user_id', '=', saver.userId).execute();
  });
});

describe('my shares', () => {
  it('lists my live shares newest first, with the code for me, the expiry and the download count', async () => {
    const me = await driveUser(s, 'staff06');
    const a = await me.put('/', '甲.txt', 'a');
    const b = await me.put('/', '乙.txt', 'b');
    const first = await share(me, [a], { shareType: 0, endTime: inDays(1) });
    const second = await share(me, [a, b], { shareType: 1, remarks: '两份' });
    await visitor().get('/filetransfer/downloadfile', { userFileId: a, shareBatchNum: first.shareBatchNum });
    const res = await me.get('/share/shareList', { currentPage: 1, pageCount: 2 });
    expect(res.body.data.total).toBe(3);
    expect(
      res.body.data.list.map((r: any) => [
        r.fileName,
        r.shareBatchNum,
        r.shareType,
        r.extractionCode,
        r.fileCount,
      ]),
    ).toEqual([
      ['甲', second.shareBatchNum, 1, second.extractionCode, 2],
      ['乙', second.shareBatchNum, 1, second.extractionCode, 2],
    ]);
    const page2 = await me.get('/share/shareList', { currentPage: 2, pageCount: 2 });
    expect(page2.body.data.list).toMatchObject([
      {
        fileName: '甲',
        shareBatchNum: first.shareBatchNum,
        extractionCode: null,
        downloadCount: 1,
        expired: false,
      },
    ]);
    // Nobody else's.
    expect(
      (await third.get('/share/shareList')).body.data.list.some(
        (r: any) => r.shareBatchNum === first.shareBatchNum,
      ),
    ).toBe(false);
  });
});

describe('sending a share to colleagues', () => {
  it('stores one notice per receiver; unknown receivers and empty text are refused', async () => {
    const res = await s.call('POST', `${M}/notice/shareFileToUsers`, {
      token: owner.token,
      body: { noticeContent: '分享链接：http://x/share/abc', receiver: `${saver.userId},${third.userId}` },
    });
    expect(res.body.success).toBe(true);
    const rows = await s.db.selectFrom('notice').selectAll().where('source', '=', 'share').execute();
    expect(rows.map((r) => [r.user_id, r.status, r.created_by]).sort()).toEqual(
      [
        [saver.userId, 1, owner.userId],
        [third.userId, 1, owner.userId],
      ].sort(),
    );
    const bad = await s.call('POST', `${M}/notice/shareFileToUsers`, {
      token: owner.token,
      body: { noticeContent: 'x', receiver: [saver.userId, 99999] },
    });
    expect(bad.body.message).toBe('接收人不存在或已停用，请重新选择');
    const empty = await s.call('POST', `${M}/notice/shareFileToUsers`, {
      token: owner.token,
      body: { noticeContent: '  ', receiver: [saver.userId] },
    });
    expect(empty.body.message).toBe('请输入通知内容');
    expect((await s.db.selectFrom('notice').selectAll().execute()).length).toBe(2);
  });

  it('finds colleagues by name or by their whole phone number, with the number masked', async () => {
    const find = async (q: string) =>
      (
        await s.call('GET', `${M}/sysUser/lookup?nameOrPhone=${encodeURIComponent(q)}`, {
          token: owner.token,
        })
      ).body;
    const byName = await find('赵');
    expect(byName.result).toEqual([
      { userId: owner.userId, userName: '赵磊', phone: '138****0003', deptName: '典藏部' },
    ]);
    expect((await find(demoPhone(4))).result.map((r: any) => r.userName)).toEqual(['陈静']);
    expect((await find('1380000')).result).toEqual([]);
    expect((await find('%')).result).toEqual([]);
    expect((await find(' ')).message).toBe('请输入姓名或手机号');
  });
});

describe('SHARE_REQUIRE_LOGIN', () => {
  it('makes every share call need a session', async () => {
    const strict = await startServer({ SHARE_REQUIRE_LOGIN: '1' });
    try {
      const u = await driveUser(strict, 'staff03');
      const id = await u.put('/', 'a.txt', 'a');
      const res = await u.post('/share/sharefile', {
        files: [{ userFileId: id }],
        endTime: inDays(1),
        shareType: 0,
      });
      const batch = res.body.data.shareBatchNum;
      for (const p of [
        `/share/sharetype?shareBatchNum=${batch}`,
        `/filetransfer/preview?userFileId=${id}&shareBatchNum=${batch}`,
      ]) {
        expect((await strict.call('GET', `${W}${p}`)).status).toBe(999);
      }
      const colleague = await driveUser(strict, 'staff04');
      expect(
        (await colleague.get('/share/sharefileList', { shareBatchNum: batch })).body.data.list,
      ).toHaveLength(1);
    } finally {
      await strict.close();
    }
  });
});
