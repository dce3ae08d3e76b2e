import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COPY_FILE_MAX, copiesSize, keepCopy, readCopy } from '../../src/app/lib/file-copies';
import { UserDb } from '../../src/app/lib/offline-db';

/** The device copies behind offline previews and thumbnails (lib/file-copies.ts). */
let db: UserDb;
let n = 0;
beforeEach(() => {
  db = new UserDb(`copies-${++n}`);
});
afterEach(async () => {
  await db.delete();
});

const file = (id: number, size = 10, time = '2026-11-01 10:00:00') => ({
  userFileId: id,
  fileSize: size,
  uploadTime: time,
});
const bytes = (size: number, fill = 'a') => new Blob([fill.repeat(size)], { type: 'image/png' });

describe('device copies', () => {
  it('returns what was kept, for the same version only', async () => {
    expect(await keepCopy(db, file(1), 'full', bytes(10), 1000)).toBe(true);
    expect(await (await readCopy(db, file(1), 'full'))?.text()).toBe('a'.repeat(10));
    // Thumbnails and full copies are separate.
    expect(await readCopy(db, file(1), 'thumb')).toBeNull();
    // The file was edited: its size and time changed, the old copy must not open.
    expect(await readCopy(db, file(1, 12, '2026-11-02 09:00:00'), 'full')).toBeNull();
    // ...and it is gone, not kept taking room.
    expect(await copiesSize(db)).toBe(0);
  });

  it('drops the least recently used to stay within the budget', async () => {
    await keepCopy(db, file(1), 'full', bytes(40), 100);
    await new Promise((r) => setTimeout(r, 5));
    await keepCopy(db, file(2), 'full', bytes(40), 100);
    await new Promise((r) => setTimeout(r, 5));
    // Opening 1 again makes 2 the least recently used.
    expect(await readCopy(db, file(1), 'full')).not.toBeNull();
    await new Promise((r) => setTimeout(r, 5));
    await keepCopy(db, file(3), 'full', bytes(40), 100);
    expect(await readCopy(db, file(2), 'full')).toBeNull();
    expect(await readCopy(db, file(1), 'full')).not.toBeNull();
    expect(await readCopy(db, file(3), 'full')).not.toBeNull();
    expect(await copiesSize(db)).toBeLessThanOrEqual(100);
  });

  it('keeps a newer copy in place of the old one, and refuses what can never fit', async () => {
    await keepCopy(db, file(1), 'full', bytes(30), 100);
    await keepCopy(db, file(1, 20, '2026-11-03 08:00:00'), 'full', bytes(20, 'b'), 100);
    expect(await copiesSize(db)).toBe(20);
    expect(await keepCopy(db, file(2), 'full', bytes(101), 100)).toBe(false);
    expect(await keepCopy(db, file(3), 'full', { size: COPY_FILE_MAX + 1 } as Blob, 2 * COPY_FILE_MAX)).toBe(
      false,
    );
    expect(await copiesSize(db)).toBe(20);
  });
});
