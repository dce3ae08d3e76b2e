import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTACH_CHUNK_BYTES } from '../../src/shared/api/attach';
import { CHUNK_MSG, createChunkUploads } from '../../src/server/modules/attach/attach.chunks';
import { ATTACH_BUDGET_MSG, createAttachService } from '../../src/server/modules/attach/attach.service';
import type { DriveService } from '../../src/server/modules/drive/drive.service';
import { PENDING_MSG, createUploadService } from '../../src/server/modules/drive/upload.service';
import { driveServiceOf, startServer, type TestServer } from './harness';
import { storedBytes, uploadIds } from './store-probe';
import { driveUser, type DriveUser } from './drive-util';
import { M } from './util';
import {
  CHUNK,
  KIB,
  UPLOAD,
  bytes,
  chunkOf,
  md5,
  paramsOf,
  postChunk,
  postChunkOctet,
  testRequest,
} from './upload-util';

/*
 * Issue 16 §1: bytes that escape the quota. Every path that writes bytes to the disk, finished
 * or not, counts against a limit a person cannot raise by starting more sessions. Declared
 * sizes are large; only first chunks (64 KiB) are really sent, so the tests stay fast.
 */

const MIB = 1024 * KIB;
const OPEN_MAX = 4;
const ATTACH_BUDGET = 8 * MIB;
const ATTACH_OPEN = 3;

let s: TestServer;
let svc: DriveService;

beforeAll(async () => {
  s = await startServer({
    UPLOAD_OPEN_MAX: String(OPEN_MAX),
    UPLOAD_SHARED_MAX_MB: '1',
    ATTACH_PENDING_MB: '8',
    ATTACH_OPEN_MAX: String(ATTACH_OPEN),
  });
  svc = driveServiceOf(s);
});
afterAll(() => s.close());

/** An upload that declares `declared` bytes in 64 KiB chunks; `first` is its real first chunk. */
function declared(declaredBytes: number, name: string, extra: Record<string, string | number> = {}) {
  const first = bytes(CHUNK);
  const p = {
    ...paramsOf(first, name, extra),
    totalSize: declaredBytes,
    totalChunks: Math.floor(declaredBytes / CHUNK),
    // A fresh identifier, as an attacker would send: nothing ties it to the bytes yet.
    identifier: md5(bytes(16)),
  };
  return { p, first };
}

const cancel = (token: string, p: Record<string, string | number>) =>
  s.call('DELETE', `${UPLOAD}?${new URLSearchParams(Object.entries(p).map(([k, v]) => [k, String(v)]))}`, {
    token,
  });

async function held(userId: number) {
  const rows = await s.db
    .selectFrom('upload_session')
    .select('reserved_bytes')
    .where('user_id', '=', userId)
    .where('done_user_file_id', 'is', null)
    .execute();
  return rows.reduce((n, r) => n + Number(r.reserved_bytes), 0);
}

async function withQuota(account: string, quota: number): Promise<DriveUser> {
  const u = await driveUser(s, account, svc);
  await svc.setQuota(u.userId, quota);
  return u;
}

describe('drive: unfinished chunks count against the quota', () => {
  it('a full drive refuses chunks posted without the test request, in both methods; nothing reaches the disk', async () => {
    const u = await withQuota('staff02', 1 * MIB);
    const before = await storedBytes(s);
    // The case: three 400 MB sessions at once, each with a fresh identifier.
    const answers = await Promise.all(
      [0, 1, 2].map((i) => {
        const { p, first } = declared(400 * MIB, `big${i}.bin`);
        return (i % 2 ? postChunkOctet : postChunk)(s, u.token, p, 1, first);
      }),
    );
    for (const r of answers) {
      expect(r.body.success).toBe(false);
      expect(r.body.message).toBe('存储空间不足：还剩 1.0 MB，需要 400.0 MB');
    }
    expect(await storedBytes(s)).toBe(before);
    expect(await held(u.userId)).toBe(0);
    // Nor does a refusal leave a session row behind (it would count towards UPLOAD_OPEN_MAX).
    const rows = await s.db
      .selectFrom('upload_session')
      .select('id')
      .where('user_id', '=', u.userId)
      .execute();
    expect(rows).toEqual([]);
  });

  it('three parallel sessions with 1 MB free: only what fits is accepted, and the test request sees the held room', async () => {
    const u = await withQuota('staff03', 1 * MIB);
    const before = await storedBytes(s);
    const ups = [0, 1, 2].map((i) => declared(400 * KIB, `par${i}.bin`));
    const answers = await Promise.all(ups.map(({ p, first }) => postChunk(s, u.token, p, 1, first)));
    const accepted = answers.filter((a) => a.body.success);
    const refused = answers.filter((a) => !a.body.success);
    expect(accepted).toHaveLength(2);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.body.message).toBe(
      '存储空间不足：还剩 224 KB，需要 400 KB（其中 800 KB 被未完成的上传占用，取消不需要的上传可腾出空间）',
    );
    expect(await held(u.userId)).toBe(800 * KIB);
    // Two first chunks on disk, no more.
    expect((await storedBytes(s)) - before).toBe(2 * CHUNK);
    // The test request counts what the unfinished sessions hold.
    const t = await testRequest(s, u.token, declared(300 * KIB, 'later.bin').p);
    expect(t.success).toBe(false);
    expect(t.message).toMatch(/^存储空间不足：还剩 224 KB，需要 300 KB/);
    // A session resuming is not refused because of its own held room.
    const i = answers.findIndex((a) => a.body.success);
    expect((await testRequest(s, u.token, ups[i]!.p)).data).toMatchObject({ uploaded: [1] });
  });

  it('cancel frees a session at once; it is idempotent, and nobody else can cancel it', async () => {
    const u = await withQuota('staff05', 1 * MIB);
    const other = await driveUser(s, 'staff06', svc);
    const a = declared(700 * KIB, 'a.bin');
    const b = declared(700 * KIB, 'b.bin');
    expect((await postChunk(s, u.token, a.p, 1, a.first)).body.success).toBe(true);
    expect((await postChunk(s, u.token, b.p, 1, b.first)).body.success).toBe(false);
    const sessionDirs = async () => (await uploadIds(s, 'drive')).length;
    const dirs = await sessionDirs();
    // Another person naming the same upload finds nothing of theirs: nothing changes.
    expect((await cancel(other.token, a.p)).body).toMatchObject({
      success: true,
      data: { cancelled: false },
    });
    expect(await held(u.userId)).toBe(700 * KIB);
    const done = await cancel(u.token, a.p);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ success: true, data: { cancelled: true } });
    expect(await held(u.userId)).toBe(0);
    expect(await sessionDirs()).toBe(dirs - 1);
    expect((await cancel(u.token, a.p)).body).toMatchObject({ success: true, data: { cancelled: false } });
    // The room is free again: the upload that did not fit now goes.
    expect((await postChunk(s, u.token, b.p, 1, b.first)).body.success).toBe(true);
  });

  it('cancel needs the token header and a valid key', async () => {
    const u = await driveUser(s, 'staff05', svc);
    const q = new URLSearchParams({ identifier: 'not-md5', filename: 'x.bin' });
    const bad = await s.call('DELETE', `${UPLOAD}?${q}`, { token: u.token });
    expect(bad.body).toMatchObject({ success: false, message: '文件标识不正确' });
    const nobody = await s.call('DELETE', `${UPLOAD}?identifier=${'0'.repeat(32)}&filename=x.bin`);
    expect(nobody.status).toBe(999);
  });

  it('completion turns the held room into the file, counted once', async () => {
    const u = await withQuota('staff07', 1 * MIB);
    const file = bytes(6 * CHUNK);
    const p = paramsOf(file, 'whole.bin');
    const other = declared(400 * KIB, 'other.bin');
    expect((await postChunk(s, u.token, other.p, 1, other.first)).body.success).toBe(true);
    let last: any;
    for (let n = 1; n <= p.totalChunks; n++)
      last = (await postChunk(s, u.token, p, n, chunkOf(file, p, n))).body;
    expect(last).toMatchObject({ success: true, data: { done: true } });
    expect(await held(u.userId)).toBe(400 * KIB);
    const info = await svc.storage(u.userId, `u:${u.userId}`);
    expect(info.storageSize).toBe(6 * CHUNK);
    // Room left: 1 MiB - 384 KiB (the file) - 400 KiB (held) = 240 KiB, exactly.
    expect((await testRequest(s, u.token, declared(240 * KIB, 'fits.bin').p)).success).toBe(true);
    const over = await testRequest(s, u.token, {
      ...declared(240 * KIB, 'over.bin').p,
      totalSize: 240 * KIB + 1,
    });
    expect(over.message).toMatch(/^存储空间不足：还剩 240 KB/);
  });

  it('the sweep releases what abandoned sessions held', async () => {
    const u = await withQuota('staff08', 1 * MIB);
    const a = declared(900 * KIB, 'left.bin');
    expect((await postChunk(s, u.token, a.p, 1, a.first)).body.success).toBe(true);
    const b = declared(900 * KIB, 'next.bin');
    expect((await testRequest(s, u.token, b.p)).success).toBe(false);
    const uploads = createUploadService({
      db: s.db,
      drive: svc,
      store: s.storage.blobs,
      dir: s.config.uploadDir,
      chunks: s.storage.uploadChunks,
      sessionMs: s.config.uploadSessionMs,
    });
    await uploads.sweep(Date.now() + s.config.uploadSessionMs + 1000);
    expect(await held(u.userId)).toBe(0);
    expect((await postChunk(s, u.token, b.p, 1, b.first)).body.success).toBe(true);
  });

  it('a re-laid session (another size) replaces its held room', async () => {
    const u = await withQuota('staff09', 1 * MIB);
    const a = declared(800 * KIB, 'relaid.bin');
    expect((await postChunk(s, u.token, a.p, 1, a.first)).body.success).toBe(true);
    const smaller = { ...a.p, totalSize: 200 * KIB, totalChunks: 3 };
    expect((await postChunk(s, u.token, smaller, 1, a.first)).body.success).toBe(true);
    expect(await held(u.userId)).toBe(200 * KIB);
  });

  it(`at most ${OPEN_MAX} unfinished sessions per person, whatever their size`, async () => {
    const u = await driveUser(s, 'staff10', svc);
    const ups = Array.from({ length: OPEN_MAX + 1 }, (_, i) => declared(2 * CHUNK, `tiny${i}.bin`));
    for (const { p } of ups.slice(0, OPEN_MAX)) expect((await testRequest(s, u.token, p)).success).toBe(true);
    const extra = ups[OPEN_MAX]!;
    const refused = await postChunk(s, u.token, extra.p, 1, extra.first);
    expect(refused.body).toMatchObject({ success: false, message: PENDING_MSG.tooMany(OPEN_MAX) });
    expect((await testRequest(s, u.token, extra.p)).message).toBe(PENDING_MSG.tooMany(OPEN_MAX));
    expect((await cancel(u.token, ups[0]!.p)).body.data).toEqual({ cancelled: true });
    expect((await postChunk(s, u.token, extra.p, 1, extra.first)).body.success).toBe(true);
  });
});

describe('libraries and project documents: a per-person budget of unfinished bytes', () => {
  const RES = { fileType: 9, isAdmin: 1 };

  it('UPLOAD_SHARED_MAX_MB bounds what one person holds there; cancel frees it', async () => {
    // staff04 manages 其他资源 (seed); the budget here is 1 MiB.
    const u = await driveUser(s, 'staff04', svc);
    const before = await storedBytes(s);
    const a = declared(400 * KIB, 'lib-a.bin', RES);
    const b = declared(400 * KIB, 'lib-b.bin', RES);
    const c = declared(400 * KIB, 'lib-c.bin', RES);
    expect((await postChunk(s, u.token, a.p, 1, a.first)).body.success).toBe(true);
    expect((await postChunk(s, u.token, b.p, 1, b.first)).body.success).toBe(true);
    const refused = await postChunk(s, u.token, c.p, 1, c.first);
    expect(refused.body.message).toBe(PENDING_MSG.sharedFull(224 * KIB, 400 * KIB));
    expect(refused.body.message).toBe(
      '未完成的上传占用过多：资料库和项目文档中还可占用 224 KB，本次上传需要 400 KB；请先完成或取消其他上传',
    );
    expect((await testRequest(s, u.token, c.p)).message).toBe(refused.body.message);
    expect((await storedBytes(s)) - before).toBe(2 * CHUNK);
    // The personal drive is not this budget: its own quota applies there.
    const mine = declared(400 * KIB, 'mine.bin');
    expect((await postChunk(s, u.token, mine.p, 1, mine.first)).body.success).toBe(true);
    expect((await cancel(u.token, a.p)).body.data).toEqual({ cancelled: true });
    expect((await postChunk(s, u.token, c.p, 1, c.first)).body.success).toBe(true);
  });
});

// ------------------------------------------------------------------ attachments

async function multipart(token: string, p: string, fields: [string, string | Blob, string?][]) {
  const fd = new FormData();
  for (const [k, v, name] of fields) {
    if (typeof v === 'string') fd.append(k, v);
    else fd.append(k, v, name);
  }
  const res = await fetch(`${s.url}${M}${p}`, { method: 'POST', headers: { token }, body: fd });
  return (await res.json()) as any;
}

/** The first (real, full-size) chunk of an attachment upload that declares `totalSize`. */
const firstChunk = (token: string, uploadId: string, totalSize: number) =>
  multipart(token, '/attach/chunk', [
    ['uploadId', uploadId],
    ['chunkNumber', '1'],
    ['totalChunks', String(Math.ceil(totalSize / ATTACH_CHUNK_BYTES))],
    ['totalSize', String(totalSize)],
    ['fileName', '展陈方案.zip'],
    ['tableName', 'approval'],
    ['file', new Blob([new Uint8Array(bytes(ATTACH_CHUNK_BYTES))]), 'blob'],
  ]);

const uploadFile = (token: string, size: number) =>
  multipart(token, '/attach/upload', [
    ['tableName', 'approval'],
    ['file', new Blob([new Uint8Array(bytes(size))]), '发票.pdf'],
  ]);

const cancelAttach = (token: string, uploadId: string) =>
  s.call('DELETE', `${M}/attach/chunk?uploadId=${uploadId}`, { token });

describe('attachments: a per-person budget of unfinished and unbound bytes', () => {
  it('unfinished chunk uploads hold their declared size; refusals write nothing; cancel frees at once', async () => {
    const token = await s.login('staff01');
    const other = await s.login('staff10');
    const before = await storedBytes(s);
    const huge = await firstChunk(token, 'huge-0001', 500 * 1000 * 1000);
    expect(huge).toMatchObject({
      success: false,
      message: ATTACH_BUDGET_MSG(ATTACH_BUDGET, 500 * 1000 * 1000),
    });
    expect(huge.message).toBe(
      '附件暂存空间不足：未提交的附件还可占用 8.0 MB，本次上传需要 476.8 MB；请先提交或删除未用的附件，或取消其他上传',
    );
    expect(await storedBytes(s)).toBe(before);
    expect((await firstChunk(token, 'keep-0001', 3_000_000)).success).toBe(true);
    const refused = await firstChunk(token, 'next-0001', 6_000_000);
    expect(refused.message).toBe(ATTACH_BUDGET_MSG(ATTACH_BUDGET - 3_000_000, 6_000_000));
    // A whole file in one request is counted the same way.
    const single = await uploadFile(token, 5_500_000);
    expect(single).toMatchObject({
      success: false,
      message: ATTACH_BUDGET_MSG(ATTACH_BUDGET - 3_000_000, 5_500_000),
    });
    // One chunk and its small description (meta.json), nothing of the refused ones.
    const grown = (await storedBytes(s)) - before;
    expect(grown).toBeGreaterThanOrEqual(ATTACH_CHUNK_BYTES);
    expect(grown).toBeLessThan(ATTACH_CHUNK_BYTES + 1024);
    // Cancel: never another person's; the caller's at once; again is harmless.
    expect((await cancelAttach(other, 'keep-0001')).body).toMatchObject({
      success: true,
      result: { cancelled: false },
    });
    const done = await cancelAttach(token, 'keep-0001');
    expect(done.body).toMatchObject({ success: true, result: { cancelled: true } });
    expect(await storedBytes(s)).toBe(before);
    expect((await cancelAttach(token, 'keep-0001')).body.result).toEqual({ cancelled: false });
    expect((await firstChunk(token, 'next-0001', 6_000_000)).success).toBe(true);
    expect((await cancelAttach(token, 'next-0001')).body.result).toEqual({ cancelled: true });
  });

  it('unbound attachments count until a record uses them; binding releases them', async () => {
    const token = await s.login('staff02');
    const a = await uploadFile(token, 5 * MIB);
    expect(a.success, JSON.stringify(a)).toBe(true);
    const b = await uploadFile(token, 4 * MIB);
    expect(b).toMatchObject({ success: false, message: ATTACH_BUDGET_MSG(3 * MIB, 4 * MIB) });
    const tpl = await s.db
      .selectFrom('approval_template')
      .select('id')
      .where('name', '=', '报销')
      .executeTakeFirstOrThrow();
    const started = await s.call('POST', `${M}/workflowInst/start`, {
      token,
      body: { templateId: tpl.id, form: { amount: 100, reason: '材料', invoices: [a.result.attId] } },
    });
    expect(started.body.success, JSON.stringify(started.body)).toBe(true);
    const again = await uploadFile(token, 4 * MIB);
    expect(again.success).toBe(true);
    // Deleting an unbound one frees its room too.
    expect((await uploadFile(token, 5 * MIB)).success).toBe(false);
    await s.call('GET', `${M}/attach/deleteAttachment?id=${again.result.attId}`, { token });
    expect((await uploadFile(token, 5 * MIB)).success).toBe(true);
  });

  it('assembly turns the held room into the attachment, counted once', async () => {
    const token = await s.login('staff06');
    const size = ATTACH_CHUNK_BYTES + 1000;
    const file = bytes(size);
    const part = (n: number, b: Buffer) =>
      multipart(token, '/attach/chunk', [
        ['uploadId', 'whole-0001'],
        ['chunkNumber', String(n)],
        ['totalChunks', '2'],
        ['totalSize', String(size)],
        ['fileName', '方案.zip'],
        ['tableName', 'approval'],
        ['file', new Blob([new Uint8Array(b)]), 'blob'],
      ]);
    expect((await part(1, file.subarray(0, ATTACH_CHUNK_BYTES))).success).toBe(true);
    const last = await part(2, file.subarray(ATTACH_CHUNK_BYTES));
    expect(last).toMatchObject({ success: true, result: { done: true } });
    const held = await s.db
      .selectFrom('attach_upload')
      .selectAll()
      .where('upload_id', '=', 'whole-0001')
      .execute();
    expect(held).toEqual([]);
    // 8 MiB less the one attachment: exactly that much more fits, one byte more does not.
    const left = ATTACH_BUDGET - size;
    expect((await firstChunk(token, 'fits-0001', left)).success).toBe(true);
    expect((await cancelAttach(token, 'fits-0001')).body.result).toEqual({ cancelled: true });
    expect((await firstChunk(token, 'over-0001', left + 1)).message).toBe(ATTACH_BUDGET_MSG(left, left + 1));
  });

  it(`at most ${ATTACH_OPEN} open chunk uploads per person; the sweep releases abandoned ones`, async () => {
    const token = await s.login('staff08');
    const user = await s.db
      .selectFrom('user')
      .select('id')
      .where('account', '=', 'staff08')
      .executeTakeFirstOrThrow();
    for (let i = 0; i < ATTACH_OPEN; i++) {
      expect((await firstChunk(token, `open-000${i}`, ATTACH_CHUNK_BYTES + 1)).success).toBe(true);
    }
    const more = await firstChunk(token, 'open-0009', ATTACH_CHUNK_BYTES + 1);
    expect(more).toMatchObject({ success: false, message: CHUNK_MSG.tooMany(ATTACH_OPEN) });
    const later = createChunkUploads({
      db: s.db,
      dir: path.join(s.dataDir, 'attach-chunks'),
      chunks: s.storage.attachChunks,
      attach: createAttachService({
        db: s.db,
        dir: path.join(s.dataDir, 'attachments'),
        store: s.storage.attachments,
      }),
      now: () => Date.now() + 2 * 24 * 3600_000,
    });
    await later.sweep();
    const rows = await s.db.selectFrom('attach_upload').selectAll().where('user_id', '=', user.id).execute();
    expect(rows).toEqual([]);
    expect((await uploadIds(s, 'attach')).filter((n) => n.startsWith(`${user.id}-`))).toEqual([]);
    expect((await firstChunk(token, 'open-0009', ATTACH_CHUNK_BYTES + 1)).success).toBe(true);
  });
});
