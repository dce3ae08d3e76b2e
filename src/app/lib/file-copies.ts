import type { FileCopyRow, UserDb } from './offline-db';

/**
 * Copies of file bytes kept on the device (issue 5, "Offline"): list thumbnails and the files
 * last opened, so a keeper in a storeroom without Wi-Fi can still open what they looked at
 * upstairs. They live in the user's own database (callers pass `currentDb()`), so they go
 * with it at sign-out.
 *
 * The store is bounded: at most COPY_BUDGET bytes (never more than a quarter of the space the
 * browser says is free, so copies cannot crowd out queued uploads or listings), no single file
 * above COPY_FILE_MAX, and the least recently used go first. A copy is valid only for the
 * version it was made from (size and time of the entry), so an edited file never opens stale.
 */
export const COPY_BUDGET = 200 * 1024 ** 2;
export const COPY_FILE_MAX = 30 * 1024 ** 2;

export type CopyKind = 'full' | 'thumb';

export interface CopyTarget {
  userFileId: number;
  fileSize: number;
  uploadTime: string;
}

const keyOf = (f: CopyTarget, kind: CopyKind) => `${f.userFileId}:${kind}`;
const versionOf = (f: CopyTarget) => `${f.fileSize}|${f.uploadTime}`;

async function budget(): Promise<number> {
  try {
    const est = await navigator.storage?.estimate?.();
    if (est?.quota !== undefined)
      return Math.min(COPY_BUDGET, Math.max(0, (est.quota - (est.usage ?? 0)) / 4));
  } catch {
    // No estimate: the fixed budget alone.
  }
  return COPY_BUDGET;
}

/** The kept copy of this version of the file, or null. Marks it used. */
export async function readCopy(db: UserDb | null, f: CopyTarget, kind: CopyKind): Promise<Blob | null> {
  if (!db) return null;
  try {
    const row = await db.fileCopies.get(keyOf(f, kind));
    if (!row) return null;
    if (row.version !== versionOf(f)) {
      await db.fileCopies.delete(row.key);
      return null;
    }
    await db.fileCopies.update(row.key, { usedAt: Date.now() });
    return row.blob;
  } catch {
    // A private window or a full disk: act as if nothing was kept.
    return null;
  }
}

/** Keeps `blob` as this version's copy, making room by dropping the least recently used. */
export async function keepCopy(
  db: UserDb | null,
  f: CopyTarget,
  kind: CopyKind,
  blob: Blob,
  /** The budget in bytes; by default COPY_BUDGET capped by free space. */
  limit?: number,
): Promise<boolean> {
  if (!db || blob.size > COPY_FILE_MAX) return false;
  try {
    const room = limit ?? (await budget());
    if (blob.size > room) return false;
    const row: FileCopyRow = {
      key: keyOf(f, kind),
      version: versionOf(f),
      blob,
      size: blob.size,
      usedAt: Date.now(),
    };
    await db.transaction('rw', db.fileCopies, async () => {
      await db.fileCopies.delete(row.key);
      await evict(db, room - blob.size);
      await db.fileCopies.put(row);
    });
    return true;
  } catch {
    return false;
  }
}

/** Drops the least recently used copies until at most `room` bytes remain. */
async function evict(db: UserDb, room: number) {
  let total = 0;
  await db.fileCopies.each((r) => {
    total += r.size;
  });
  if (total <= room) return;
  const drop: string[] = [];
  await db.fileCopies
    .orderBy('usedAt')
    .until(() => total <= room, false)
    .each((r) => {
      total -= r.size;
      drop.push(r.key);
    });
  await db.fileCopies.bulkDelete(drop);
}

/** Bytes kept now (for the storage display and the tests). */
export async function copiesSize(db: UserDb | null): Promise<number> {
  if (!db) return 0;
  let total = 0;
  await db.fileCopies.each((r) => {
    total += r.size;
  });
  return total;
}
