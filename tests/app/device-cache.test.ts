import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UserDb, keepAnswer } from '../../src/app/lib/offline-db';

/** The device's copy of server answers (lib/offline-db.ts, keepAnswer). */
let db: UserDb;
let n = 0;
beforeEach(() => {
  db = new UserDb(`cache-${++n}`);
});
afterEach(async () => {
  await db.delete();
});

describe('keeping an answer on the device', () => {
  it('an answer sent before a newer one was kept does not put the older figure back', async () => {
    // The bell's read was sent at 100; the live stream's count came at 200; the read's answer
    // (from before the change) arrives after. The device keeps the stream's count.
    await keepAnswer(db, 'counts', { noticeCount: 2 }, 200);
    const held = await keepAnswer(db, 'counts', { noticeCount: 1 }, 100);
    expect(held).toEqual({ key: 'counts', data: { noticeCount: 2 }, syncedAt: 200 });
    expect((await db.cache.get('counts'))?.data).toEqual({ noticeCount: 2 });
  });

  it('a later read replaces what it finds, whenever its answer arrives', async () => {
    await keepAnswer(db, 'list', ['a'], 100);
    expect(await keepAnswer(db, 'list', ['a', 'b'], 150)).toEqual({
      key: 'list',
      data: ['a', 'b'],
      syncedAt: 150,
    });
    // The same instant is not older: a second answer to the same moment stands.
    expect((await keepAnswer(db, 'list', ['c'], 150)).data).toEqual(['c']);
    expect(await db.cache.get('list')).toEqual({ key: 'list', data: ['c'], syncedAt: 150 });
    // Other views are left alone.
    await keepAnswer(db, 'other', 1, 10);
    expect((await db.cache.get('list'))?.data).toEqual(['c']);
  });
});
