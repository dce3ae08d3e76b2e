import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESTARTED, createUnzipService } from '../../src/server/modules/unzip/unzip.service';
import { createDriveService } from '../../src/server/modules/drive/drive.service';
import { driveUser } from '../server/drive-util';
import {
  KIB,
  bytes,
  chunkOf,
  download,
  md5,
  paramsOf,
  postChunk,
  postChunkOctet,
} from '../server/upload-util';
import { startInstances, type Group, type Instance } from './instances';

/*
 * Two instances of the server in this process, sharing one database (PostgreSQL), one Redis
 * and one bucket (s3rver), as a museum group's installation behind a load balancer: any
 * request may land on either. Here what needs the instances' insides (job claims, locks, the
 * unzip service) or a precise meeting of two requests; the journeys through nginx with real
 * processes (the 200 MB upload across a killed instance, instant upload and Range, the live
 * bus, approval and quota races) are in behind-nginx.test.ts.
 */

let group: Group;
let a: Instance;
let b: Instance;

beforeAll(async () => {
  group = await startInstances(2, {
    RATE_LIMIT_PER_MINUTE: '60',
    // A Document Server address nobody answers at: only the links the instances sign are used.
    ONLYOFFICE_URL: 'http://127.0.0.1:9/',
    ONLYOFFICE_JWT_SECRET: 'ds-secret-for-tests-0123456789',
  });
  [a, b] = group.instances as [Instance, Instance];
});
afterAll(() => group.close());

describe('shared counters', () => {
  it("one person's flood-guard limit counts requests on both instances together", async () => {
    const token = await a.login('staff09');
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const s = i % 2 ? b : a;
      statuses.push((await s.call('GET', '/singleMuseum/workflowActvity/count', { token })).status);
    }
    expect(statuses.every((st) => st === 200)).toBe(true);
    const over = await b.call('GET', '/singleMuseum/workflowActvity/count', { token });
    expect(over.status).toBe(429);
    expect(over.body.message).toMatch(/^请求过于频繁，请 \d+ 秒后再试$/);
    expect((await a.call('GET', '/singleMuseum/workflowActvity/count', { token })).status).toBe(429);
  });

  it('wrong share codes lock the share for everyone, whichever instance checks them', async () => {
    const owner = await driveUser(a, 'staff05');
    const id = await owner.put('/', '展陈方案.txt', '方案');
    const made = await owner.post('/share/sharefile', {
      files: JSON.stringify([{ userFileId: id }]),
      endTime: new Date(Date.now() + 86_400_000).toISOString().replace('T', ' ').slice(0, 19),
      shareType: 1,
    });
    expect(made.body.success, JSON.stringify(made.body)).toBe(true);
    const batch = made.body.data.shareBatchNum as string;
    const check = (s: Instance) =>
      s.call('GET', `/wangpan/share/checkextractioncode?shareBatchNum=${batch}&extractionCode=zzzzzz`);
    const messages: string[] = [];
    for (let i = 0; i < 5; i++) messages.push((await check(i % 2 ? b : a)).body.message);
    expect(messages.slice(0, 4)).toEqual([4, 3, 2, 1].map((n) => `提取码错误，还可尝试 ${n} 次`));
    // The fifth locks this address out of the share, and the other instance knows it.
    expect((await check(b)).body.code).toBe(1008);
  });

  it('failed sign-ins count against the account whichever instance they reach', async () => {
    const attempt = (s: Instance) =>
      s.call('POST', '/singleMuseum/login/webLogin', {
        body: { username: 'staff10', password: 'wrong-Password1' },
      });
    const messages: string[] = [];
    for (let i = 0; i < 5; i++) messages.push((await attempt(i % 2 ? b : a)).body.message);
    expect(messages).toEqual(
      [4, 3, 2, 1].map((n) => `账号或密码错误，还可尝试 ${n} 次`).concat([messages[4]!]),
    );
    expect(messages[4]).toMatch(/^登录失败次数过多，请 \d+ 秒后再试$/);
    // Locked on the other instance too, even with the right password.
    const right = await a.call('POST', '/singleMuseum/login/webLogin', {
      body: { username: 'staff10', password: 'Demo@2026' },
    });
    expect(right.body.message).toMatch(/^登录失败次数过多/);
  });
});

describe('exactly once', () => {
  it('a period of a background job is claimed by one instance only', async () => {
    const name = `probe-${randomUUID()}`;
    for (let slot = 0; slot < 20; slot++) {
      const wins = await Promise.all([a, b, a, b].map((s) => s.cluster.claim(name, slot, 60_000)));
      expect(wins.filter(Boolean)).toHaveLength(1);
    }
  });

  it("two instances' locks on one key never overlap", async () => {
    let inside = 0;
    let most = 0;
    let total = 0;
    const work = (s: Instance) =>
      s.cluster.locks.with('probe:counter', async () => {
        inside++;
        most = Math.max(most, inside);
        const seen = total;
        await new Promise((r) => setTimeout(r, 5));
        total = seen + 1;
        inside--;
      });
    await Promise.all(Array.from({ length: 20 }, (_, i) => work(i % 2 ? b : a)));
    expect(most).toBe(1);
    expect(total).toBe(20);
  });

  it('the same last chunk arriving at both instances at once makes one file', async () => {
    const u = await driveUser(a, 'staff06');
    const file = bytes(4 * 64 * KIB + 1000);
    const p = paramsOf(file, '同时到达.bin');
    for (let n = 1; n < p.totalChunks; n++) {
      expect((await postChunk(n % 2 ? a : b, u.token, p, n, chunkOf(file, p, n))).body.success).toBe(true);
    }
    const last = chunkOf(file, p, p.totalChunks);
    const [ra, rb] = await Promise.all([
      postChunk(a, u.token, p, p.totalChunks, last),
      postChunkOctet(b, u.token, p, p.totalChunks, last),
    ]);
    expect(ra.body.data).toMatchObject({ done: true });
    expect(rb.body.data).toMatchObject({ done: true });
    expect(ra.body.data.userFileId).toBe(rb.body.data.userFileId);
    expect(await u.names('/')).toEqual(['同时到达.bin']);
    expect(md5(await download(b, u.token, ra.body.data.userFileId))).toBe(p.identifier);
  });

  it('an unzip job running on one instance is not failed by the other; once its instance is gone, it is', async () => {
    const jobId = randomUUID();
    const v = await driveUser(a, 'staff07');
    await a.db
      .insertInto('unzip_job')
      .values({
        id: jobId,
        user_id: v.userId,
        space: `u:${v.userId}`,
        user_file_id: 1,
        archive_name: '馆藏照片.zip',
        target_path: '/',
        unzip_mode: 0,
        status: 'running',
        message: '',
        entries_done: 0,
        entries_total: 0,
        bytes_done: 0,
        bytes_total: 0,
        names: '[]',
        created_at: Date.now(),
      })
      .execute();
    const onB = createUnzipService({
      db: b.db,
      drive: createDriveService({ db: b.db, store: b.storage.blobs, defaultQuotaBytes: 1 }),
      store: b.storage.blobs,
      limits: b.config.unzip,
      locks: b.cluster.locks,
    });
    const status = async () =>
      (
        await a.db
          .selectFrom('unzip_job')
          .select(['status', 'message'])
          .where('id', '=', jobId)
          .executeTakeFirstOrThrow()
      ).status;
    let release!: () => void;
    const running = a.cluster.locks.with(`unzip:${jobId}`, () => new Promise<void>((r) => (release = r)));
    await new Promise((r) => setTimeout(r, 50));
    await onB.failOrphans();
    expect(await status()).toBe('running');
    release();
    await running;
    await onB.failOrphans();
    expect(await status()).toBe('failed');
    const row = await a.db
      .selectFrom('unzip_job')
      .select('message')
      .where('id', '=', jobId)
      .executeTakeFirstOrThrow();
    expect(row.message).toBe(RESTARTED);
  });
});

describe('one installation key', () => {
  it('a document link one instance signed opens on the other', async () => {
    const u = await driveUser(a, 'staff04');
    const id = await u.put('/', '藏品登记.xlsx', '登记表');
    const r = await u.post('/office/editofficefile', { userFileId: id });
    expect(r.body.success, JSON.stringify(r.body)).toBe(true);
    const t = new URL(r.body.data.config.document.url as string).searchParams.get('t')!;
    // Document Server fetches it through the balancer: either instance may answer.
    for (const s of [a, b]) {
      const res = await fetch(`${s.url}/wangpan/office/document?t=${encodeURIComponent(t)}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('登记表');
    }
  });
});
