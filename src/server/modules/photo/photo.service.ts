import {
  PHOTO_MAX_DISTANCE,
  PHOTO_MAX_HITS,
  PHOTO_MSG,
  PHOTO_QUERY_MAX,
  type PhotoHit,
  type PhotoResult,
  type PhotoSource,
} from '../../../shared/api/photo';
import type { Db } from '../../db/index';
import { forbidden, invalid } from '../../errors';
import type { BlobStore } from '../../storage/blob-store';
import { StoreReadError, withLocalFile } from '../../storage/local-copy';
import type { Access } from '../auth/access';
import type { SessionUser } from '../auth/auth.service';
import type { StoredFile } from '../drive/drive.service';
import { createLimiter, createOnce } from '../drive/limiter';
import { MAX_PIXELS, sniff } from '../drive/thumbs';
import { exifTakenAt, xmpTags } from './image-meta';
import { HASH_BITS, hashImage, toHex } from './phash';
import { createPhotoIndex, type PhotoIndex } from './photo-index';
import { unhashedCollection } from './photo-collection.repo';
import * as repo from './photo.repo';

/*
 * Image search (以图搜图; README "Image search"). Hashes are made once per content: when a
 * drive file is stored (upload, unzip, copy into a library, WebDAV…: the drive's onFileStored),
 * and by the backfill job for content stored before (at start, then hourly; one instance at a
 * time). Searching needs the grant of the 以图搜图 page; it reads the museum's libraries and the
 * collection records the caller may read, never a person's drive.
 */

/** Raise when the hashing changes: rows of an older method are hashed again by the backfill. */
export const HASH_VERSION = 1;
const PAGE_KEY = 'resources.photoSearch';
const LIBRARY_SPACES: Record<PhotoSource, readonly string[]> = {
  all: ['hd', 'res'],
  collection: [],
  hd: ['hd'],
  res: ['res'],
};
/** How far back the catch-up re-reads rows by time, for rows committed after a later id (PostgreSQL). */
const CATCH_UP_WINDOW_MS = 120_000;
const BACKFILL_BATCH = 50;
/** Collection images a search hashes itself before answering, at most. */
const LAZY_COLLECTION = 20;

/**
 * The collection records' side (issue 24, h24-coll): which records the caller may read hold
 * which images. Optional, so the search works over the libraries alone.
 */
export interface PhotoCollection {
  /** Hits among the records the caller may read whose images hold any of `md5s`. */
  byContent(
    user: SessionUser,
    md5s: readonly string[],
  ): Promise<(Omit<PhotoHit, 'similarity' | 'distance'> & { md5: string })[]>;
  /** Records' images by the records' fields (and the images' names), for the text search. */
  byText(
    user: SessionUser,
    q: { keyword?: string; from?: number; to?: number },
  ): Promise<(Omit<PhotoHit, 'similarity' | 'distance'> & { md5: string })[]>;
}

/** Midnight of a 'yyyy-MM-dd' in the museum's zone (UTC+8), epoch ms. */
function dayStart(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d) - 8 * 3600_000;
}

function withoutMd5<T extends { md5: string }>(h: T): Omit<T, 'md5'> {
  const out: Partial<T> = { ...h };
  delete out.md5;
  return out as Omit<T, 'md5'>;
}

function splitTags(tags: string | null): string[] {
  return tags ? tags.split('\n').filter(Boolean) : [];
}

function toHit(r: repo.FileHitRow, distance: number | null): PhotoHit {
  return {
    source: r.space === 'hd' ? 'hd' : 'res',
    userFileId: r.id,
    attachmentId: null,
    fileName: r.file_name,
    extendName: r.extend_name,
    filePath: r.file_path,
    similarity: distance === null ? null : Math.round((100 * (HASH_BITS - distance)) / HASH_BITS),
    distance,
    takenAt: r.taken_at === null ? null : Number(r.taken_at),
    tags: splitTags(r.tags),
    imageWidth: r.image_width ?? r.width,
    imageHeight: r.image_height ?? r.height,
    record: null,
  };
}

export function createPhotoService(deps: {
  db: Db;
  /** The drive's blobs. */
  store: BlobStore;
  /** The attachments' blobs (the collection records' images). */
  attachments?: BlobStore;
  access: Access;
  tmpDir: string;
  collection?: PhotoCollection;
  /** Told about content that could not be hashed (for the log). */
  onHashError?: (md5: string, err: unknown) => void;
}) {
  const { db, store } = deps;
  const limit = createLimiter(1);
  const once = createOnce<void>();
  const index: PhotoIndex = createPhotoIndex();
  let lastId = 0;
  let lastSync = 0;
  let stopped = false;

  /** Catches the index up with rows any instance added since the last call. */
  async function sync() {
    const started = Date.now();
    const rows = await repo.rowsSince(db, lastId, lastSync - CATCH_UP_WINDOW_MS, HASH_VERSION);
    for (const r of rows) {
      index.put(r);
      if (r.id > lastId) lastId = r.id;
    }
    lastSync = started;
  }

  /** Hashes a content once (stored, or now); a store that cannot be read is not remembered. */
  function hashContent(md5: string, from: BlobStore = store): Promise<void> {
    return once(md5, async () => {
      const have = await repo.findHash(db, md5);
      if (have && have.version === HASH_VERSION) return;
      let row: repo.HashRow;
      try {
        const h = await limit(() =>
          withLocalFile(from, md5, deps.tmpDir, (file) =>
            hashImage(file, { windows: true, limitInputPixels: MAX_PIXELS }),
          ),
        );
        row = {
          md5,
          ok: 1,
          version: HASH_VERSION,
          hashes: h.hashes.map(toHex).join(''),
          width: h.width,
          height: h.height,
          taken_at: exifTakenAt(h.exif),
          tags: xmpTags(h.xmp).join('\n'),
          created_at: Date.now(),
        };
      } catch (err) {
        deps.onHashError?.(md5, err);
        if (err instanceof StoreReadError) return;
        const e = err as NodeJS.ErrnoException;
        if (typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code)) return;
        // Broken, too large or not a picture: remembered, the bytes never change.
        row = {
          md5,
          ok: 0,
          version: HASH_VERSION,
          hashes: '',
          width: null,
          height: null,
          taken_at: null,
          tags: '',
          created_at: Date.now(),
        };
      }
      await repo.saveHash(db, row, have !== undefined);
    });
  }

  function spacesFor(source: PhotoSource) {
    return LIBRARY_SPACES[source];
  }

  async function mayUse(user: SessionUser) {
    if (!(await deps.access.can(user, PAGE_KEY))) throw forbidden(PHOTO_MSG.forbidden);
  }

  return {
    /** The in-memory index (the benchmark and tests read its size). */
    index,
    sync,
    hashContent,

    /** After a drive file is stored: hashes an image's content in the background. */
    onStored(file: StoredFile): void {
      if (!(repo.HASHED_EXTS as readonly string[]).includes(file.extendName.toLowerCase())) return;
      void hashContent(file.md5).catch((err: unknown) => deps.onHashError?.(file.md5, err));
    },

    /**
     * The backfill: hashes content of image files stored before (or whose hashing failed on a
     * store error, or was made by an older method), a batch at a time until none is left.
     */
    async backfill(): Promise<number> {
      let done = 0;
      const failed = new Set<string>();
      const sources: [BlobStore | undefined, (n: number) => Promise<string[]>][] = [
        [store, async (n) => (await repo.unhashed(db, HASH_VERSION, n)).map((b) => b.md5)],
        [deps.attachments, (n) => unhashedCollection(db, HASH_VERSION, n)],
      ];
      for (const [from, next] of sources) {
        if (!from) continue;
        while (!stopped) {
          const batch = (await next(BACKFILL_BATCH + failed.size)).filter((m) => !failed.has(m));
          if (!batch.length) break;
          for (const md5 of batch) {
            if (stopped) break;
            await hashContent(md5, from);
            if (!(await repo.findHash(db, md5))) failed.add(md5);
            else done++;
          }
        }
      }
      return done;
    },
    /** Stops the backfill between two images (server close). */
    stop() {
      stopped = true;
    },
    prune: () => repo.pruneOrphans(db),

    /** searchByImage: the museum's images most like the picture, best first. */
    async searchByImage(user: SessionUser, source: PhotoSource, body: Buffer): Promise<PhotoResult> {
      await mayUse(user);
      if (body.length === 0) throw invalid(PHOTO_MSG.empty);
      if (body.length > PHOTO_QUERY_MAX) throw invalid(PHOTO_MSG.tooBig);
      const kind = sniff(body);
      if (kind !== 'jpeg' && kind !== 'png' && kind !== 'webp' && kind !== 'gif')
        throw invalid(PHOTO_MSG.notImage);
      let q: [number, number];
      try {
        q = (
          await limit(() =>
            hashImage(body, { windows: false, limitInputPixels: MAX_PIXELS, timeoutSeconds: 10 }),
          )
        ).hashes[0]!;
      } catch {
        throw invalid(PHOTO_MSG.notImage);
      }
      // Images a record gained since the last backfill are hashed now, a few at most (the
      // attachment service has no stored-hook; the minute's backfill does the rest).
      if (deps.attachments && (source === 'all' || source === 'collection')) {
        for (const md5 of await unhashedCollection(db, HASH_VERSION, LAZY_COLLECTION)) {
          await hashContent(md5, deps.attachments);
        }
      }
      await sync();
      // More candidates than hits: some content is held by nothing this person may see.
      const matches = index.nearest(q, PHOTO_MAX_DISTANCE, PHOTO_MAX_HITS * 8);
      const dist = new Map(matches.map((m) => [m.md5, m.distance]));
      const md5s = matches.map((m) => m.md5);
      const hits: (PhotoHit & { order: number })[] = [];
      if (source === 'all' || source === 'collection') {
        for (const h of (await deps.collection?.byContent(user, md5s)) ?? []) {
          const d = dist.get(h.md5) ?? HASH_BITS;
          hits.push({
            ...withoutMd5(h),
            distance: d,
            similarity: Math.round((100 * (HASH_BITS - d)) / HASH_BITS),
            order: 0,
          });
        }
      }
      for (const r of await repo.filesOf(db, spacesFor(source), md5s)) {
        hits.push({ ...toHit(r, dist.get(r.md5) ?? HASH_BITS), order: r.space === 'hd' ? 1 : 2 });
      }
      // Best first; at the same distance a collection record before a library file.
      hits.sort(
        (a, b) =>
          a.distance! - b.distance! ||
          a.order - b.order ||
          (a.attachmentId ?? a.userFileId ?? 0) - (b.attachmentId ?? b.userFileId ?? 0),
      );
      const list = hits.slice(0, PHOTO_MAX_HITS).map(({ order: _, ...h }) => h);
      return { list, total: list.length };
    },

    /** search: by name, keywords, the collection's fields and the date taken. */
    async search(
      user: SessionUser,
      q: {
        keyword?: string;
        takenFrom?: string;
        takenTo?: string;
        source: PhotoSource;
        currentPage: number;
        pageCount: number;
      },
    ): Promise<PhotoResult> {
      await mayUse(user);
      const from = q.takenFrom ? dayStart(q.takenFrom) : undefined;
      const to = q.takenTo ? dayStart(q.takenTo) + 86_400_000 : undefined;
      if (from !== undefined && to !== undefined && from >= to) throw invalid(PHOTO_MSG.badRange);
      const offset = (q.currentPage - 1) * q.pageCount;
      const keyword = q.keyword?.trim() || undefined;
      // Collection hits first (a record is what a keeper looks for), then the libraries' files.
      const records =
        (q.source === 'all' || q.source === 'collection') && deps.collection
          ? await deps.collection.byText(user, { keyword, from, to })
          : [];
      const fromRecords = records
        .slice(offset, offset + q.pageCount)
        .map((h) => ({ ...withoutMd5(h), similarity: null, distance: null }));
      const fileOffset = Math.max(0, offset - records.length);
      const fileLimit = q.pageCount - fromRecords.length;
      const files = await repo.searchFiles(db, spacesFor(q.source), {
        keyword,
        from,
        to,
        offset: fileOffset,
        limit: Math.max(fileLimit, 1),
      });
      const list = [...fromRecords, ...(fileLimit > 0 ? files.rows.map((r) => toHit(r, null)) : [])];
      return { list, total: records.length + files.total };
    },
  };
}
export type PhotoService = ReturnType<typeof createPhotoService>;
