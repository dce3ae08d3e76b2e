import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UserDb, pruneCache } from '../../src/app/lib/offline-db';
import {
  BYTES_LOST,
  OutboxRefusal,
  createOutbox,
  keyHasPrefix,
  opsFor,
  type OutboxEvent,
  type OutboxOp,
} from '../../src/app/lib/outbox';

/** A fake server: answers by path, remembers idempotency keys like the real one, can go down. */
class FakeServer {
  online = true;
  /** Requests that reached the server, in order (a replayed key counts once as applied). */
  applied: { path: string; body: unknown; key: string; bytes?: string }[] = [];
  sends = 0;
  refuse = new Map<string, string>();
  /** When set, the next send is applied on the server but its answer is lost on the way back. */
  loseNextAnswer = false;
  private answers = new Map<string, unknown>();
  private refusedKeys = new Map<string, string>();

  send = async (op: OutboxOp, blob?: Blob): Promise<unknown> => {
    this.sends++;
    if (!this.online) throw new NetworkError();
    if (this.answers.has(op.idempotencyKey)) return this.answers.get(op.idempotencyKey);
    if (this.refusedKeys.has(op.idempotencyKey)) throw new Error(this.refusedKeys.get(op.idempotencyKey));
    const reason = this.refuse.get(op.path);
    if (reason) {
      // Like the real server: a refusal is the stored answer to its key.
      this.refusedKeys.set(op.idempotencyKey, reason);
      throw new Error(reason);
    }
    this.applied.push({
      path: op.path,
      body: op.body,
      key: op.idempotencyKey,
      ...(blob ? { bytes: await blob.text() } : {}),
    });
    const answer = { n: this.applied.length };
    this.answers.set(op.idempotencyKey, answer);
    if (this.loseNextAnswer) {
      this.loseNextAnswer = false;
      throw new NetworkError();
    }
    return answer;
  };
}
class NetworkError extends Error {}

let db: UserDb;
let server: FakeServer;
let online: boolean;
let n = 0;

function makeOutbox() {
  return createOutbox({
    db: () => db,
    send: server.send,
    classify: (e) => (e instanceof NetworkError ? 'network' : 'refused'),
    isOnline: () => online,
  });
}

const write = (path: string, label = path) => ({
  client: 'drive' as const,
  path,
  body: { path },
  label,
  kind: 'test',
});

beforeEach(() => {
  db = new UserDb(`test-${++n}`);
  server = new FakeServer();
  online = true;
});
afterEach(async () => {
  db.close();
  await db.delete();
});

describe('outbox', () => {
  it('queues writes offline and replays them in order, once each', async () => {
    const outbox = makeOutbox();
    online = false;
    server.online = false;
    for (const p of ['/a', '/b', '/c']) expect((await outbox.submit(write(p))).queued).toBe(true);
    expect(server.applied).toEqual([]);
    expect((await outbox.list()).map((o) => [o.path, o.status])).toEqual([
      ['/a', 'pending'],
      ['/b', 'pending'],
      ['/c', 'pending'],
    ]);

    online = true;
    server.online = true;
    const summary = await outbox.replay();
    expect(summary).toEqual({ sent: 3, refused: 0, pending: 0 });
    expect(server.applied.map((a) => a.path)).toEqual(['/a', '/b', '/c']);
    expect(await outbox.list()).toEqual([]);
  });

  it('fixes the idempotency key at enqueue: a lost answer is resent with it and applies once', async () => {
    const outbox = makeOutbox();
    online = false;
    await outbox.submit(write('/a'));
    const [queued] = await outbox.list();
    online = true;
    server.loseNextAnswer = true;
    expect(await outbox.replay()).toMatchObject({ sent: 0, pending: 1 });
    expect((await outbox.list())[0]?.idempotencyKey).toBe(queued!.idempotencyKey);
    expect(await outbox.replay()).toMatchObject({ sent: 1, pending: 0 });
    expect(server.sends).toBe(2);
    expect(server.applied).toHaveLength(1);
  });

  it('keeps a refused write with the reason, goes on with the next, and never drops it', async () => {
    const outbox = makeOutbox();
    online = false;
    await outbox.submit(write('/a'));
    await outbox.submit(write('/taken'));
    await outbox.submit(write('/c'));
    online = true;
    server.refuse.set('/taken', '同名文件已存在');

    const events: OutboxEvent[] = [];
    outbox.subscribe((e) => void events.push(e));
    expect(await outbox.replay()).toEqual({ sent: 2, refused: 1, pending: 0 });
    expect(server.applied.map((a) => a.path)).toEqual(['/a', '/c']);
    const left = await outbox.list();
    expect(left.map((o) => [o.path, o.status, o.error])).toEqual([['/taken', 'failed', '同名文件已存在']]);
    expect(events.some((e) => e.type === 'refused' && e.error === '同名文件已存在')).toBe(true);

    // Replaying again does not resend or drop it.
    await outbox.replay();
    expect(await outbox.list()).toHaveLength(1);
    expect(server.applied).toHaveLength(2);
  });

  it('stops at a network failure and keeps the rest in order', async () => {
    const outbox = makeOutbox();
    online = false;
    for (const p of ['/a', '/b', '/c']) await outbox.submit(write(p));
    online = true;
    let calls = 0;
    const flaky = createOutbox({
      db: () => db,
      send: async (op) => {
        if (++calls === 2) throw new NetworkError();
        return server.send(op);
      },
      classify: (e) => (e instanceof NetworkError ? 'network' : 'refused'),
    });
    expect(await flaky.replay()).toEqual({ sent: 1, refused: 0, pending: 2 });
    expect((await outbox.list()).map((o) => [o.path, o.status])).toEqual([
      ['/b', 'pending'],
      ['/c', 'pending'],
    ]);
    expect(await flaky.replay()).toEqual({ sent: 2, refused: 0, pending: 0 });
    expect(server.applied.map((a) => a.path)).toEqual(['/a', '/b', '/c']);
  });

  it('submit online sends behind older queued writes and returns the answer', async () => {
    const outbox = makeOutbox();
    online = false;
    await outbox.submit(write('/older'));
    online = true;
    const result = await outbox.submit(write('/now'));
    expect(result.queued).toBe(false);
    expect(server.applied.map((a) => a.path)).toEqual(['/older', '/now']);
    expect(await outbox.list()).toEqual([]);
  });

  it('submit online rejects with the refusal and leaves nothing in the panel', async () => {
    const outbox = makeOutbox();
    server.refuse.set('/taken', '同名文件已存在');
    await expect(outbox.submit(write('/taken'))).rejects.toThrow(OutboxRefusal);
    await expect(outbox.submit(write('/taken'))).rejects.toThrow('同名文件已存在');
    expect(await outbox.list()).toEqual([]);
  });

  it('submit online with a dead network keeps the write queued', async () => {
    const outbox = makeOutbox();
    server.online = false;
    const result = await outbox.submit(write('/a'));
    expect(result.queued).toBe(true);
    expect((await outbox.list()).map((o) => o.status)).toEqual(['pending']);
  });

  it('retry re-queues a failed write, optionally corrected; discard drops it', async () => {
    const outbox = makeOutbox();
    online = false;
    await outbox.submit(write('/taken'));
    await outbox.submit(write('/other'));
    online = true;
    server.refuse.set('/taken', '同名文件已存在');
    server.refuse.set('/other', '文件不存在');
    await outbox.replay();
    const [taken, other] = await outbox.list();

    // Unchanged retry is refused again and kept.
    await outbox.retry(taken!.id);
    expect((await outbox.list()).map((o) => o.status)).toEqual(['failed', 'failed']);

    // Corrected: the server takes it. It goes with a new key, since the server keeps the
    // refusal as the answer to the old one.
    server.refuse.delete('/taken');
    await outbox.retry(taken!.id, { body: { path: '/fixed' }, label: 'fixed' });
    expect(server.applied).toHaveLength(1);
    expect(server.applied[0]).toMatchObject({ path: '/taken', body: { path: '/fixed' } });
    expect(server.applied[0]!.key).not.toBe(taken!.idempotencyKey);

    const drained: unknown[][] = [];
    outbox.subscribe((e) => {
      if (e.type === 'drained') drained.push(...e.scopes);
    });
    await outbox.discard(other!.id);
    expect(await outbox.list()).toEqual([]);
    expect(drained).toEqual([]);
  });

  it('recovers a write cut off mid-send by a closed page', async () => {
    const outbox = makeOutbox();
    online = false;
    await outbox.submit(write('/a'));
    const [row] = await outbox.list();
    await db.outbox.update(row!.seq, { status: 'sending' });
    online = true;
    expect(await outbox.replay()).toMatchObject({ sent: 1 });
    expect(server.applied.map((a) => a.key)).toEqual([row!.idempotencyKey]);
  });

  it('after a closed page: every cut-off write goes again in order, once each, and done ones are cleared', async () => {
    const outbox = makeOutbox();
    online = false;
    for (const p of ['/done', '/a', '/queued', '/b']) await outbox.submit(write(p));
    const rows = await outbox.list();
    const seq = (path: string) => rows.find((r) => r.path === path)!.seq;
    // The page closed after /done was answered and while /a and /b were in flight (two tabs).
    await db.outbox.update(seq('/done'), { status: 'done' });
    await db.outboxBlobs.put({ id: rows.find((r) => r.path === '/done')!.id, blob: new Blob(['x']) });
    await db.outbox.update(seq('/a'), { status: 'sending' });
    await db.outbox.update(seq('/b'), { status: 'sending' });
    online = true;
    expect(await outbox.replay()).toMatchObject({ sent: 3, refused: 0, pending: 0 });
    expect(server.applied.map((a) => a.path)).toEqual(['/a', '/queued', '/b']);
    expect(await outbox.list()).toEqual([]);
    expect(await db.outboxBlobs.count()).toBe(0);
    // Each went once, with its attempts counted.
    expect(server.sends).toBe(3);
  });

  it('serialises concurrent replays: nothing is sent twice', async () => {
    const outbox = makeOutbox();
    online = false;
    for (const p of ['/a', '/b', '/c', '/d']) await outbox.submit(write(p));
    online = true;
    await Promise.all([outbox.replay(), outbox.replay(), outbox.replay()]);
    expect(server.sends).toBe(4);
    expect(server.applied.map((a) => a.path)).toEqual(['/a', '/b', '/c', '/d']);
  });

  it('keeps a sent write drawn (done) until the views have refreshed', async () => {
    const outbox = makeOutbox();
    online = false;
    await outbox.submit({ ...write('/a'), scope: [['drive', 'list', '/']] });
    online = true;
    const seenWhileRefreshing: string[] = [];
    outbox.subscribe(async (e) => {
      if (e.type === 'drained') {
        expect(e.scopes).toEqual([['drive', 'list', '/']]);
        seenWhileRefreshing.push(...(await outbox.list()).map((o) => o.status));
      }
    });
    await outbox.replay();
    expect(seenWhileRefreshing).toEqual(['done']);
    expect(await outbox.list()).toEqual([]);
  });
});

describe('binary writes (documents saved in the browser)', () => {
  const save = (text: string) => ({
    ...write('/office/savefile'),
    body: null,
    query: { userFileId: 7, baseMd5: 'a'.repeat(32) },
    blob: new Blob([text], { type: 'application/octet-stream' }),
  });

  it('keeps the bytes on the device across a reload, sends them once, then frees them', async () => {
    online = false;
    const first = makeOutbox();
    const r = await first.submit(save('第一版'));
    expect(r.queued).toBe(true);
    const [row] = await first.list();
    expect(row).toMatchObject({ status: 'pending', binary: { size: 9, type: 'application/octet-stream' } });
    expect(row!.query).toEqual({ userFileId: 7, baseMd5: 'a'.repeat(32) });
    expect(await db.outboxBlobs.count()).toBe(1);

    // The page reloads: a new database handle and a new outbox find the write and its bytes.
    const name = db.name;
    db.close();
    db = new UserDb(name);
    online = true;
    const second = makeOutbox();
    expect(await (await second.bytesOf(row!.id))!.text()).toBe('第一版');
    expect(await second.replay()).toEqual({ sent: 1, refused: 0, pending: 0 });
    expect(server.applied).toEqual([
      { path: '/office/savefile', body: null, key: row!.idempotencyKey, bytes: '第一版' },
    ]);
    expect(await second.list()).toEqual([]);
    expect(await db.outboxBlobs.count()).toBe(0);
  });

  it('resends the same bytes with the same key after a lost answer: applied once', async () => {
    online = false;
    const box = makeOutbox();
    await box.submit(save('离线稿'));
    online = true;
    server.loseNextAnswer = true;
    expect(await box.replay()).toEqual({ sent: 0, refused: 0, pending: 1 });
    expect(await db.outboxBlobs.count()).toBe(1);
    expect(await box.replay()).toEqual({ sent: 1, refused: 0, pending: 0 });
    expect(server.applied).toHaveLength(1);
    expect(server.sends).toBe(2);
    expect(await db.outboxBlobs.count()).toBe(0);
  });

  it('keeps a refused save with its bytes, to download or retry; discarding frees them', async () => {
    online = false;
    const box = makeOutbox();
    await box.submit(save('被拒绝的稿'));
    server.refuse.set('/office/savefile', '文件已被删除');
    online = true;
    expect(await box.replay()).toEqual({ sent: 0, refused: 1, pending: 0 });
    const [row] = await box.list();
    expect(row).toMatchObject({ status: 'failed', error: '文件已被删除' });
    expect(await (await box.bytesOf(row!.id))!.text()).toBe('被拒绝的稿');
    await box.discard(row!.id);
    expect(await box.list()).toEqual([]);
    expect(await db.outboxBlobs.count()).toBe(0);
  });

  it('never sends a binary write whose bytes the device lost: it is kept, saying so', async () => {
    online = false;
    const box = makeOutbox();
    await box.submit(save('丢失'));
    await db.outboxBlobs.clear();
    online = true;
    expect(await box.replay()).toEqual({ sent: 0, refused: 1, pending: 0 });
    expect(server.sends).toBe(0);
    expect((await box.list())[0]).toMatchObject({ status: 'failed', error: BYTES_LOST });
  });

  it('drops the bytes of a save refused while its submitter waits', async () => {
    server.refuse.set('/office/savefile', '保存的内容不是有效的 Word 文档');
    const box = makeOutbox();
    await expect(box.submit(save('坏'))).rejects.toBeInstanceOf(OutboxRefusal);
    expect(await box.list()).toEqual([]);
    expect(await db.outboxBlobs.count()).toBe(0);
  });
});

describe('scopes', () => {
  it('matches query keys by prefix', () => {
    expect(keyHasPrefix(['drive', 'list', 'own', '/a/'], ['drive', 'list', 'own'])).toBe(true);
    expect(keyHasPrefix(['drive', 'list', 'own', '/a/'], ['drive', 'list', 'own', '/b/'])).toBe(false);
    expect(keyHasPrefix(['drive'], ['drive', 'list'])).toBe(false);
    expect(keyHasPrefix(['drive', { a: 1 }], ['drive', { a: 1 }])).toBe(true);
  });

  it('selects the writes to draw over a view, skipping failed ones', () => {
    const op = (status: OutboxOp['status'], scope: unknown[][]) => ({ status, scope }) as OutboxOp;
    const ops = [
      op('pending', [['drive', 'list', 'own', '/']]),
      op('failed', [['drive', 'list', 'own', '/']]),
      op('done', [['drive', 'list', 'own']]),
      op('sending', [['drive', 'tree']]),
    ];
    expect(opsFor(ops, ['drive', 'list', 'own', '/'])).toEqual([ops[0], ops[2]]);
  });
});

describe('device cache', () => {
  it('keeps the most recently synced views within the bound', async () => {
    await db.cache.bulkPut([1, 2, 3, 4, 5].map((i) => ({ key: `k${i}`, data: i, syncedAt: i })));
    expect(await pruneCache(db, 3)).toBe(2);
    expect((await db.cache.toArray()).map((r) => r.key).sort()).toEqual(['k3', 'k4', 'k5']);
    expect(await pruneCache(db, 3)).toBe(0);
  });
});
