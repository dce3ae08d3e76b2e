import Dexie, { liveQuery, type EntityTable } from 'dexie';

/**
 * The device's offline store (ARCHITECTURE.md §5): one IndexedDB database per signed-in user,
 * named `gwy-<userId>`, so two people sharing a gallery tablet never see each other's cached
 * folders or queued changes. This is the only module that imports Dexie; everything else goes
 * through the types and helpers below (lib/outbox.ts, lib/cached-query.ts).
 */

/**
 * One cached server answer, by the JSON of its query key. `syncedAt` is how recent the answer
 * is: when the read that got it was sent (or when the live stream said so), see keepAnswer.
 */
export interface CacheRow {
  key: string;
  data: unknown;
  syncedAt: number;
}

export type OutboxStatus = 'pending' | 'sending' | 'done' | 'failed';

/**
 * One queued write. `seq` (auto-increment) is the replay order; `id` is its stable handle;
 * `idempotencyKey` is fixed when it is queued, so a replay after a lost answer applies once.
 * `done` rows have reached the server and wait only for the views to refresh, then go.
 */
export interface OutboxRow {
  seq?: number;
  id: string;
  idempotencyKey: string;
  client: 'drive' | 'museum';
  path: string;
  body: unknown;
  /** What it does, in Chinese, for the 待同步 panel: 重命名“a.txt”为“b.txt”. */
  label: string;
  /** Query-key prefixes whose views it changes: refreshed after it settles, overlaid while queued. */
  scope: unknown[][];
  /** The feature's name for the kind of change (`drive.rename`), read by its view overlays. */
  kind: string;
  /** Whatever the feature's overlay needs to draw the change before the server confirms it. */
  meta: unknown;
  /** Query parameters sent with it (a binary write's other parameters go here). */
  query?: Record<string, string | number>;
  /**
   * A write whose body is bytes (an office document saved in the browser): the bytes wait in
   * `outboxBlobs` under the row's `id` and are sent as the body instead of `body`.
   */
  binary?: { size: number; type: string };
  status: OutboxStatus;
  /** The server's reason, for a refused (failed) row. */
  error?: string;
  createdAt: number;
  attempts: number;
  lastTriedAt?: number;
}

/**
 * One file in the upload queue (lib/upload): what was chosen, where it goes and how far it
 * got. The row outlives reloads and app restarts; its bytes live apart (UploadBytesRow or
 * OPFS), and `kept` says where, or null when the device could not keep them.
 */
export interface UploadRow {
  seq?: number;
  id: string;
  /** Files added together; the 上传完成 toast and the quota check are per batch. */
  batchId: string;
  /** How it was added: 1 files, 2 folder, 3 drag and drop (spec §4), 4 pasted image. */
  way: 1 | 2 | 3 | 4;
  name: string;
  /** `a/b/name.ext` for a file inside a chosen or dropped folder, else ''. */
  relativePath: string;
  /** The folder it goes to, and the area flags of that folder's drive (AreaQuery). */
  filePath: string;
  area: Record<string, number>;
  size: number;
  lastModified: number;
  mime: string;
  md5?: string;
  state: 'waiting' | 'hashing' | 'uploading' | 'paused' | 'offline' | 'success' | 'error' | 'needsFile';
  /** The server's or the device's reason, for error and needsFile. */
  error?: string;
  /** Bytes hashed so far (校验MD5 n%), and bytes the server holds. */
  hashed: number;
  done: number;
  kept: 'opfs' | 'idb' | null;
  userFileId?: number;
  createdAt: number;
  updatedAt: number;
  /** Timings for the benchmarks and for support: when hashing ended, when it finished. */
  hashedAt?: number;
  finishedAt?: number;
  /** Chunk bytes put on the wire, repeats included (what a resume cost). */
  sent: number;
}

/** The bytes of a binary outbox write, kept apart so listing the queue never reads them. */
export interface OutboxBlobRow {
  id: string;
  blob: Blob;
}

/** An upload's bytes, where the browser has no OPFS. */
export interface UploadBytesRow {
  id: string;
  blob: Blob;
}

/**
 * A copy of a file's bytes kept on the device so it opens offline (lib/file-copies.ts): the
 * thumbnails of listed files and the files last opened. `version` is the entry's size and
 * time, so a changed file never opens from an old copy.
 */
export interface FileCopyRow {
  /** `<userFileId>:full` or `<userFileId>:thumb`. */
  key: string;
  version: string;
  blob: Blob;
  size: number;
  usedAt: number;
}

export class UserDb extends Dexie {
  cache!: EntityTable<CacheRow, 'key'>;
  outbox!: EntityTable<OutboxRow, 'seq'>;
  outboxBlobs!: EntityTable<OutboxBlobRow, 'id'>;
  uploads!: EntityTable<UploadRow, 'seq'>;
  uploadBytes!: EntityTable<UploadBytesRow, 'id'>;
  fileCopies!: EntityTable<FileCopyRow, 'key'>;

  constructor(name: string) {
    super(name);
    this.version(1).stores({ cache: 'key, syncedAt', outbox: '++seq, &id, status' });
    this.version(2).stores({ uploads: '++seq, &id, state', uploadBytes: 'id' });
    this.version(3).stores({ fileCopies: 'key, usedAt' });
    this.version(4).stores({ outboxBlobs: 'id' });
  }
}

/** Views kept on the device per user; the least recently synced go first beyond this. */
export const CACHE_MAX_VIEWS = 1000;

/** Drops the least recently synced views beyond CACHE_MAX_VIEWS (cheap: one index scan). */
export async function pruneCache(db: UserDb, max = CACHE_MAX_VIEWS): Promise<number> {
  const extra = (await db.cache.count()) - max;
  if (extra <= 0) return 0;
  const old = await db.cache.orderBy('syncedAt').limit(extra).primaryKeys();
  await db.cache.bulkDelete(old);
  return old.length;
}

/**
 * Keeps a server answer as of `asOf` unless the device already holds a newer one, and returns
 * what the device holds after. Reads overlap: a read sent before a change can be answered
 * after the change's newer figures were kept (the live stream's counts, lib/live.ts), and
 * writing it last put the older figure back on the device, so an offline reload showed a
 * notice count the screen had already moved past. Newer means sent later, not answered later.
 */
export async function keepAnswer(db: UserDb, key: string, data: unknown, asOf: number): Promise<CacheRow> {
  return db.transaction('rw', db.cache, async () => {
    const held = await db.cache.get(key);
    if (held && held.syncedAt > asOf) return held;
    const row = { key, data, syncedAt: asOf };
    await db.cache.put(row);
    return row;
  });
}

const open = new Map<string, UserDb>();

export function dbName(userId: number | string): string {
  return `gwy-${userId}`;
}

/** The user's database, opened once per page. */
export function userDb(userId: number | string): UserDb {
  const name = dbName(userId);
  let db = open.get(name);
  if (!db) {
    db = new UserDb(name);
    open.set(name, db);
  }
  return db;
}

/**
 * Calls `onValue` with the query's result now and again whenever the tables it read change,
 * in this tab or another (Dexie's liveQuery). Returns the unsubscribe function.
 */
export function observe<T>(query: () => Promise<T>, onValue: (value: T) => void): () => void {
  const sub = liveQuery(query).subscribe({ next: onValue, error: () => undefined });
  return () => sub.unsubscribe();
}

/**
 * Writes of this user still waiting on the device: queued, being sent, or refused and kept;
 * and uploads not yet finished (their queue and kept bytes would go with the database).
 */
export async function unsyncedCount(userId: number | string): Promise<number> {
  const db = userDb(userId);
  const [writes, uploads] = await Promise.all([
    db.outbox.where('status').anyOf('pending', 'sending', 'failed').count(),
    db.uploads.where('state').noneOf(['success']).count(),
  ]);
  return writes + uploads;
}

/**
 * Removes everything this user left on the device. Museum tablets are shared, so a person's
 * cached listings must not outlive their sign-out; callers keep the data when writes are
 * still unsynced, since deleting it would lose work.
 */
export async function forgetUser(userId: number | string): Promise<void> {
  const name = dbName(userId);
  const db = userDb(userId);
  open.delete(name);
  await db.delete();
}
