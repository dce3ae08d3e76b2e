import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ZipFile } from 'yazl';
import { ErrorCode } from '../../../shared/api/envelope';
import type { PreviewKind } from '../../../shared/drive/file-types';
import { windowsSafePaths } from '../../../shared/drive/names';
import { AppError, invalid, notFound } from '../../errors';
import type { BlobStore, ByteRange } from '../../storage/blob-store';
import type { DownloadPlan, ZipEntry } from './drive.service';
import type { Thumb } from './thumbs';

/*
 * Sending downloads: one blob with HTTP Range, or a zip built while it streams (nothing is
 * staged on disk, so a folder of any size starts downloading at once). Downloads are always
 * attachments with nosniff, so no stored HTML or SVG ever renders on our origin (ARCHITECTURE.md
 * §6).
 */

/**
 * `attachment` with an ASCII fallback and the RFC 6266/5987 UTF-8 form, which every current
 * browser prefers, so Chinese names arrive intact.
 */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * One `bytes=` range of a body of `size` bytes: the range, 'unsatisfiable' (answer 416), or
 * null to send the whole body with 200. RFC 9110 §14.2 lets a server ignore a Range header it
 * does not take, so a malformed one (`bytes=5-2`, `items=0-1`, `bytes=abc`) is ignored, and so
 * are several ranges (`bytes=0-1,5-6`): players ask for one range at a time, and a multipart
 * answer would only add a format for no client we have. A suffix range (`bytes=-500`) is the
 * last 500 bytes, all of them when shorter; `bytes=-0` and a start at or past the end are
 * unsatisfiable, as is every range of an empty body.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const last = m[2] === '' ? Number.POSITIVE_INFINITY : Number(m[2]);
  if (last < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(last, size - 1) };
}

/**
 * Whether an If-None-Match header matches `etag` (weak comparison, as RFC 9110 §13.1.2 asks):
 * `*`, or any listed tag equal to it once `W/` is dropped.
 */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => bare(t) === bare(etag));
}

/** Formats that deflate cannot shrink: stored as they are, which saves the CPU. */
const STORED = new Set([
  ...[
    'jpg',
    'jpeg',
    'png',
    'gif',
    'webp',
    'heic',
    'mp4',
    'mov',
    'mkv',
    'webm',
    'avi',
    'mp3',
    'aac',
    'm4a',
    'ogg',
  ],
  ...['flac', 'zip', 'rar', '7z', 'gz', 'tgz', 'bz2', 'xz', 'docx', 'xlsx', 'pptx', 'pdf', 'epub'],
]);

function shouldCompress(name: string): boolean {
  const dot = name.lastIndexOf('.');
  return !(dot > 0 && STORED.has(name.slice(dot + 1).toLowerCase()));
}

function zipStream(entries: ZipEntry[], store: BlobStore): Readable {
  const zip = new ZipFile();
  // Rows made before names were checked for Windows may be `CON` or `aux.txt`; Windows'
  // extractor stops at such an entry, so the zip carries them as `CON_`, `aux_.txt` (README
  // "The drive"). Every zip the drive sends (own files, shares) passes here.
  const names = windowsSafePaths(entries.map((e) => e.name));
  entries.forEach((e, i) => {
    const name = names[i]!;
    const mtime = new Date(e.mtime);
    if (e.dir) {
      zip.addEmptyDirectory(name, { mtime });
      return;
    }
    // Lazy: each blob is opened only when the zip reaches it, so one file is open at a time.
    zip.addReadStreamLazy(name, { mtime, size: e.size, compress: shouldCompress(name) }, (cb) =>
      cb(null, store.open(e.md5)),
    );
  });
  zip.end();
  return zip.outputStream as Readable;
}

/**
 * Route options of a GET that answers a file: it keeps its HEAD twin (the server turns them off
 * for JSON calls, app.ts), so a download manager or player may ask a file's size and type first.
 */
export const FILE_ANSWER = { exposeHeadRoute: true } as const;

/**
 * Answers a download plan on `reply`: a ranged blob or a streamed zip. WebDAV's GET and HEAD
 * use it too: `head` sends the same headers without a body, `type` a content type other than
 * application/octet-stream (never an active one: dav/mime.ts).
 */
export async function sendDownload(
  req: FastifyRequest,
  reply: FastifyReply,
  plan: DownloadPlan,
  store: BlobStore,
  opts: { head?: boolean; type?: string } = {},
) {
  reply.header('content-disposition', contentDisposition(plan.name));
  reply.header('x-content-type-options', 'nosniff');
  reply.header('cache-control', 'private, no-cache');

  if (plan.kind === 'zip') {
    const out = zipStream(plan.entries, store);
    // A browser that gives up must not leave the zip reading blobs into a dead socket.
    reply.raw.on('close', () => out.destroy());
    return reply.type('application/zip').send(out);
  }

  return sendBlob(req, reply, plan, store, opts.type ?? 'application/octet-stream', opts.head);
}

/** One blob with HTTP Range (206 with true lengths, 416 beyond the end, If-Range honoured). */
async function sendBlob(
  req: FastifyRequest,
  reply: FastifyReply,
  plan: Extract<DownloadPlan, { kind: 'file' }>,
  store: BlobStore,
  type: string,
  head = false,
) {
  const stat = await store.stat(plan.md5);
  if (!stat) throw notFound('文件内容已丢失，请联系管理员');
  const etag = `"${plan.md5}"`;
  reply.header('accept-ranges', 'bytes');
  reply.header('etag', etag);
  reply.header('last-modified', new Date(plan.mtime).toUTCString());
  reply.type(type);

  // A revalidation of bytes the browser holds costs no body. (Blobs never change under a key.)
  if (noneMatch(req.headers['if-none-match'], etag)) return reply.code(304).send();
  // If-Range: the range only while the browser's copy is still this content (a strong ETag
  // match); a date or another tag gets the whole body. An ETag here names the content, so a
  // date is never needed to decide.
  const ifRange = req.headers['if-range'];
  const range = ifRange && ifRange !== etag ? null : parseRange(req.headers.range, stat.size);
  if (range === 'unsatisfiable') {
    reply.header('content-range', `bytes */${stat.size}`);
    return reply.code(416).send();
  }
  if (range) {
    reply.header('content-range', `bytes ${range.start}-${range.end}/${stat.size}`);
    reply.header('content-length', range.end - range.start + 1);
    return reply.code(206).send(head ? undefined : store.open(plan.md5, range));
  }
  reply.header('content-length', stat.size);
  return reply.send(head ? undefined : store.open(plan.md5));
}

/** The largest text the code dialog is sent; beyond it, download. */
export const TEXT_PREVIEW_MAX = 5 * 1024 * 1024;

const MIME: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  bmp: 'image/bmp',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  mkv: 'video/x-matroska',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  wav: 'audio/wav',
  flac: 'audio/flac',
  ogg: 'audio/ogg',
};

/**
 * Text as UTF-8: UTF-8 (with or without BOM) as it is; anything that is not valid UTF-8 is read
 * as GB18030, the superset of GBK and GB2312 that Chinese Windows tools write.
 */
export function decodeText(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('gb18030').decode(bytes);
  }
}

/**
 * The previewers' bytes (`filetransfer/preview`). Never active content on our origin
 * (ARCHITECTURE.md §6): text of any kind (HTML and XML included) is sent as text/plain in UTF-8;
 * SVG is an image under `CSP: sandbox`, so opened directly its scripts cannot run; everything
 * carries nosniff and a sandbox CSP. Images, audio and video are inline with Range for seeking.
 */
export async function sendPreview(
  req: FastifyRequest,
  reply: FastifyReply,
  plan: Extract<DownloadPlan, { kind: 'file' }>,
  kind: PreviewKind,
  store: BlobStore,
) {
  previewHeaders(reply);
  reply.header('cache-control', 'private, no-cache');
  if (kind === 'text') {
    if (plan.size > TEXT_PREVIEW_MAX) throw invalid('文件过大，无法在线查看，请下载后查看');
    const parts: Buffer[] = [];
    for await (const c of store.open(plan.md5)) parts.push(c as Buffer);
    return reply.type('text/plain; charset=utf-8').send(decodeText(Buffer.concat(parts)));
  }
  const ext = plan.name.slice(plan.name.lastIndexOf('.') + 1).toLowerCase();
  reply.header('content-disposition', contentDisposition(plan.name).replace(/^attachment/, 'inline'));
  return sendBlob(req, reply, plan, store, MIME[ext] ?? 'application/octet-stream');
}

/** The headers every preview answer carries: never sniffed, never active on our origin. */
function previewHeaders(reply: FastifyReply) {
  reply.header('x-content-type-options', 'nosniff');
  reply.header(
    'content-security-policy',
    "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox",
  );
}

/** The answer when a file has no thumbnail: HTTP 404 (the list then shows its icon). */
export const NO_THUMB = '暂无缩略图';

/**
 * A thumbnail or poster (`filetransfer/preview?isMin=1`): WebP with a strong ETag and
 * `private, no-cache`, so the browser keeps it but asks each time, and a 304 costs no body.
 * None answers HTTP 404 with the drive envelope.
 */
export function sendThumbnail(req: FastifyRequest, reply: FastifyReply, thumb: Thumb | null) {
  previewHeaders(reply);
  if (!thumb) throw new AppError(ErrorCode.notFound, NO_THUMB, 404);
  reply.header('cache-control', 'private, no-cache');
  reply.header('etag', thumb.etag);
  if (noneMatch(req.headers['if-none-match'], thumb.etag)) return reply.code(304).send();
  reply.header('content-length', thumb.data.length);
  return reply.type('image/webp').send(thumb.data);
}
