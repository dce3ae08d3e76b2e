import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Sharp, SharpOptions } from 'sharp';
import { POSTER_MAX } from '../../../shared/api/drive';
import { invalid } from '../../errors';
import { type BlobStore, isBlobKey } from '../../storage/blob-store';
import { decodeBmp } from '../../storage/bmp';
import { StoreReadError, withLocalFile } from '../../storage/local-copy';
import { createLocalShelf, type Shelf } from '../../storage/shelf';
import { createKeyedLock, type KeyedLock } from './keyed-lock';
import { createLimiter, createOnce } from './limiter';
import { loadSharp } from '../../lazy';

/*
 * Small images made with sharp, kept on a shelf (DATA_DIR/thumbs, or the object store's
 * `thumbs/`, which every instance sees):
 *
 * - image thumbnails, keyed by the content blob alone: content is immutable and its MD5 is
 *   computed by the server, so one entry serves everyone who has those bytes;
 * - video posters, keyed by (blob, space): a frame one person's browser captured is that
 *   person's (or that library's) choice, never what someone else sees for their own copy;
 * - album covers, re-encoded into the music tags' row (not cached here).
 *
 * Every decode is bounded (pixels, input bytes, time, two at a time). The shelf never shows
 * half a thumbnail. A thumbnail is made once: concurrent requests on this instance share one
 * piece of work, and across instances the thumbnail's lock makes the others wait and read it.
 */

// sharp is loaded on the first thumbnail (../../lazy.ts), with libvips' cache off: no file is
// kept open once a job is done, so content removed from the drive frees its space at once.

/** The box a thumbnail or poster fits inside (the grid shows at most 80 px; 256 is sharp on 3x screens). */
export const THUMB_BOX = 256;
/** The box an album cover fits inside (music details; a data: URL in the detail row). */
export const COVER_BOX = 300;
/**
 * The most pixels decoded for a thumbnail: 150 MP covers the museum's high-definition scans
 * (高清图片, e.g. 14,000 × 10,000); beyond it the list shows the icon.
 */
export const MAX_PIXELS = 150_000_000;
/** A poster is one video frame: 8K is 33 MP. */
const POSTER_MAX_PIXELS = 40_000_000;
/** SVG is read into memory to be rasterised; BMP to be decoded (about 21 MP at 24 bits). */
const SVG_MAX_BYTES = 8 * 1024 * 1024;
const BMP_MAX_BYTES = 64 * 1024 * 1024;
const TIMEOUT_SECONDS = 20;
/** Part of the cache names and ETags: raising it makes every thumbnail again. */
const VERSION = 1;

export const POSTER_BAD = '封面图片格式不正确，请使用 JPEG、PNG 或 WebP 图片';
export const POSTER_BIG = `封面图片过大，不能超过 ${POSTER_MAX / 1024} KB`;
export const POSTER_EMPTY = '请选择封面图片';

export type Raster = 'jpeg' | 'png' | 'gif' | 'webp' | 'bmp';

/** The raster format of an image from its first bytes; null for anything else (SVG included). */
export function sniff(h: Uint8Array): Raster | null {
  const b = Buffer.from(h.buffer, h.byteOffset, Math.min(h.byteLength, 16));
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) return 'png';
  if (b.length >= 6 && /^GIF8[79]a$/.test(b.toString('latin1', 0, 6))) return 'gif';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') {
    return 'webp';
  }
  if (b.length >= 2 && b.toString('latin1', 0, 2) === 'BM') return 'bmp';
  return null;
}

/** How much of a file is looked at to tell SVG (text) from anything else. */
const SVG_SNIFF_BYTES = 4096;

/** SVG text: an `<svg` element near the start, after any XML prolog, comments or doctype. */
export function looksLikeSvg(start: Uint8Array): boolean {
  return /<svg[\s>/]/i.test(Buffer.from(start).toString('utf8'));
}

/** A cached image: the bytes (WebP) and a strong validator. */
export interface Thumb {
  data: Buffer;
  etag: string;
}

/** Content that is not a thumbnailable image (remembered, as the content never changes). */
class Unthumbable extends Error {}

/** Fit inside `box`, upright (EXIF orientation applied), as WebP. */
function encode(img: Sharp, box: number): Promise<Buffer> {
  return img
    .rotate()
    .resize(box, box, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 70 })
    .timeout({ seconds: TIMEOUT_SECONDS })
    .toBuffer();
}

const sharpOpts = (limitInputPixels: number): SharpOptions => ({ limitInputPixels, failOn: 'error' });

/** A tag for a space in a file name: 'u:12' → 'u-12'. Spaces come from the server, never a client. */
function spaceTag(space: string): string {
  const tag = space.replace(':', '-');
  if (!/^[a-z0-9-]{1,40}$/.test(tag)) throw new Error('invalid space');
  return tag;
}

export function createThumbs(opts: {
  /** DATA_DIR/thumbs, the local shelf's folder, unless `shelf` is given (the object store). */
  dir: string;
  shelf?: Shelf;
  store: BlobStore;
  /** Where a store without local files puts the temporary copy sharp reads (DATA_DIR/tmp). */
  tmpDir?: string;
  /** One maker per thumbnail; in-process unless given (Redis, every instance). */
  lock?: KeyedLock;
  /** Told about each thumbnail made or refused (for the log). */
  onMade?: (e: { md5: string; bytes: number; ms: number } | { md5: string; error: string }) => void;
}) {
  const { store } = opts;
  const shelf = opts.shelf ?? createLocalShelf(opts.dir);
  const tmpDir = opts.tmpDir ?? path.join(opts.dir, 'tmp');
  const lock = opts.lock ?? createKeyedLock();
  const limit = createLimiter(2);
  const once = createOnce<Thumb | null>();

  function nameOf(md5: string, suffix: string) {
    if (!isBlobKey(md5)) throw new Error('invalid blob key');
    return `${md5.slice(0, 2)}/${md5}.${suffix}`;
  }

  /** Bytes of the blob (all, or a range) in memory; the store's failures are not the content's. */
  async function read(md5: string, range?: { start: number; end: number }): Promise<Buffer> {
    const parts: Buffer[] = [];
    try {
      for await (const c of store.open(md5, range)) parts.push(c as Buffer);
    } catch (err) {
      throw new StoreReadError(err);
    }
    return Buffer.concat(parts);
  }

  /** The whole blob in memory, refused past `max` bytes. */
  async function readAll(md5: string, size: number, max: number): Promise<Buffer> {
    if (size > max) throw new Unthumbable(`larger than ${max} bytes`);
    return read(md5);
  }

  const head = (md5: string, size: number) =>
    read(md5, { start: 0, end: Math.min(size, SVG_SNIFF_BYTES) - 1 });

  /**
   * Decodes and encodes the thumbnail. The format is taken from the content, never the name, so
   * the one cache entry per content is right for every name it has. A raster goes to sharp by
   * path (it reads what it needs; from the object store, a temporary copy); BMP is decoded
   * here; SVG is handed over in memory, so librsvg has no base file and loads no other file (no
   * `<image href>` to a neighbour blob, no XInclude), and the result is a plain raster that
   * cannot run anything.
   */
  async function render(md5: string, size: number): Promise<Buffer> {
    const sharp = await loadSharp();
    const start = await head(md5, size);
    const kind = sniff(start);
    if (kind === 'bmp') {
      let raw;
      try {
        raw = decodeBmp(await readAll(md5, size, BMP_MAX_BYTES), MAX_PIXELS);
      } catch (err) {
        if (err instanceof StoreReadError) throw err;
        throw new Unthumbable((err as Error).message);
      }
      const { data, width, height, channels } = raw;
      return encode(
        sharp(data, { raw: { width, height, channels }, limitInputPixels: MAX_PIXELS }),
        THUMB_BOX,
      );
    }
    if (kind) {
      return withLocalFile(store, md5, tmpDir, (file) =>
        encode(sharp(file, sharpOpts(MAX_PIXELS)), THUMB_BOX),
      );
    }
    if (!looksLikeSvg(start)) throw new Unthumbable('not an image');
    const svg = await readAll(md5, size, SVG_MAX_BYTES);
    // Rasterise near the box, so a 16 px icon is not blown up blurred and a poster-sized
    // drawing is not rendered at full size only to be shrunk.
    const meta = await sharp(svg, sharpOpts(MAX_PIXELS)).metadata();
    const longest = Math.max(meta.width ?? 0, meta.height ?? 0) || THUMB_BOX;
    const density = Math.min(2400, Math.max(1, (72 * THUMB_BOX) / longest));
    return encode(sharp(svg, { ...sharpOpts(MAX_PIXELS), density }), THUMB_BOX);
  }

  return {
    /**
     * The thumbnail of an image blob (SVG rasterised), made on first use and then read from
     * disk. Null when the content is not an image that can be thumbnailed (broken, too large,
     * not an image), which is remembered, or when the blob is gone.
     */
    async image(md5: string): Promise<Thumb | null> {
      const name = nameOf(md5, `v${VERSION}.webp`);
      const bad = nameOf(md5, `v${VERSION}.bad`);
      const etag = `"t${VERSION}-${md5}"`;
      const cached = await shelf.get(name);
      if (cached) return { data: cached, etag };
      if (await shelf.has(bad)) return null;
      return once(name, () =>
        lock(`thumb:${name}`, async () => {
          // A request that missed the cache just as another one (here or on another instance)
          // finished finds it here.
          const again = await shelf.get(name);
          if (again) return { data: again, etag };
          const stat = await store.stat(md5);
          if (!stat || stat.size === 0) return null;
          const started = Date.now();
          let data: Buffer;
          try {
            data = await limit(() => render(md5, stat.size));
          } catch (err) {
            // Anything the decoder refuses (broken, huge, too slow) stays refused: the bytes
            // under this key never change. Trouble reading them (a system error code, the
            // object store) is not remembered, so the next request tries again.
            const e = err as NodeJS.ErrnoException;
            opts.onMade?.({ md5, error: e.message });
            const systemError = typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code);
            if (!systemError) await shelf.put(bad, Buffer.from(e.message ?? 'failed'));
            return null;
          }
          await shelf.put(name, data);
          opts.onMade?.({ md5, bytes: data.length, ms: Date.now() - started });
          return { data, etag };
        }),
      );
    },

    /** The poster a space set for a video blob, or null. */
    async poster(md5: string, space: string): Promise<Thumb | null> {
      const data = await shelf.get(nameOf(md5, `poster.${spaceTag(space)}.webp`));
      if (!data) return null;
      return { data, etag: `"p-${createHash('sha1').update(data).digest('hex').slice(0, 20)}"` };
    },

    /**
     * Stores a browser-captured frame as the poster of a video blob in a space. The frame is
     * re-encoded (which also drops anything but pixels); only JPEG, PNG and WebP are taken,
     * whatever the request's content type claims.
     */
    async setPoster(md5: string, space: string, body: Buffer): Promise<Thumb> {
      if (body.length === 0) throw invalid(POSTER_EMPTY);
      if (body.length > POSTER_MAX) throw invalid(POSTER_BIG);
      const kind = sniff(body);
      if (kind !== 'jpeg' && kind !== 'png' && kind !== 'webp') throw invalid(POSTER_BAD);
      let data: Buffer;
      const sharp = await loadSharp();
      try {
        data = await limit(() => encode(sharp(body, sharpOpts(POSTER_MAX_PIXELS)), THUMB_BOX));
      } catch {
        throw invalid(POSTER_BAD);
      }
      await shelf.put(nameOf(md5, `poster.${spaceTag(space)}.webp`), data);
      return { data, etag: `"p-${createHash('sha1').update(data).digest('hex').slice(0, 20)}"` };
    },

    /** An embedded album cover as a small `data:` URL, or null when it is not a readable image. */
    async cover(picture: Uint8Array): Promise<string | null> {
      const kind = sniff(picture);
      if (!kind || kind === 'bmp') return null;
      const sharp = await loadSharp();
      try {
        const data = await limit(() => encode(sharp(picture, sharpOpts(MAX_PIXELS)), COVER_BOX));
        return `data:image/webp;base64,${data.toString('base64')}`;
      } catch {
        return null;
      }
    },

    /** Removes everything made from a blob (its content left the drive). */
    async forget(md5: string) {
      if (!isBlobKey(md5)) return;
      await shelf.removeStartingWith(`${md5.slice(0, 2)}/${md5}.`);
    },
  };
}
export type Thumbs = ReturnType<typeof createThumbs>;

/** `store`, whose `remove` also removes what `thumbs` made from the blob. */
export function forgettingDerived(store: BlobStore, thumbs: Pick<Thumbs, 'forget'>): BlobStore {
  return {
    ...store,
    async remove(md5) {
      await store.remove(md5);
      await thumbs.forget(md5).catch(() => undefined);
    },
  };
}
