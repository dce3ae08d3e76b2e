import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import SevenZip from '7z-wasm';
import iconv from 'iconv-lite';
import tarStream from 'tar-stream';
import yauzl from 'yauzl';
import { entrySegments, isMacLitter } from '../../../shared/drive/archive-names';
import { formatSize } from '../../../shared/drive/file-types';
import { CORRUPT, ExtractError } from './extract-error';

/*
 * Reading archives (issue 6 "Formats" and "Safety"). Runs inside a worker thread
 * (extract.worker.ts), never on the server's event loop. Every entry's bytes go to a temporary
 * folder under DATA_DIR; the service imports them as blobs afterwards. Zip, tar and gz entries
 * are written under generated names (`0`, `1`, …), so no entry name ever becomes a disk path;
 * 7z and rar go through 7-Zip (7z-wasm), which writes under the entry names inside its own
 * temporary folder after the listing has refused every unsafe path, and the result is read
 * back with lstat, so links are never followed.
 */

export type ArchiveKind = 'zip' | 'tar' | 'gz' | '7z' | 'rar';

export interface ExtractLimits {
  maxEntries: number;
  maxBytes: number;
  /** Uncompressed to compressed, checked once the uncompressed bytes pass `ratioFloor`. */
  maxRatio: number;
  ratioFloor: number;
  /** The free quota (null: no quota): refused before writing when the entries need more. */
  roomBytes: number | null;
}

export interface ExtractRequest {
  archive: string;
  archiveSize: number;
  /** The name a single .gz file's content gets: the archive's name without `.gz`. */
  gzName: string;
  outDir: string;
  limits: ExtractLimits;
}

export interface ExtractedItem {
  /** The entry's path inside the archive, as safe segments (not yet drive names). */
  segments: string[];
  isDir: boolean;
  /** The temporary file holding a file's bytes. */
  file: string | null;
  size: number;
}

export interface ExtractResult {
  items: ExtractedItem[];
  /** Symbolic and hard links, devices and the like: never extracted (README "Unzip"). */
  skippedLinks: number;
}

export interface Progress {
  entriesDone: number;
  bytesDone: number;
  entriesTotal: number;
  bytesTotal: number;
}

/** Defined in extract-error.ts (the server side needs them without the archive libraries). */
export { CORRUPT, ExtractError };
export const ENCRYPTED = '压缩包已加密，暂不支持解压加密的压缩包';
export const UNSUPPORTED = '无法识别的压缩包格式，仅支持 zip、rar、7z、tar、gz';
export const unsafePath = (name: string) =>
  `压缩包中有不安全的路径“${name.slice(0, 100)}”（../、绝对路径、盘符、反斜杠或空字符），已拒绝解压`;
export const tooMany = (max: number) => `压缩包中的文件过多（超过 ${max} 个），无法解压`;
export const tooBig = (max: number) => `解压后的总大小超过上限 ${formatSize(max)}，无法解压`;
export const noRoom = (room: number, need: number) =>
  `存储空间不足：还剩 ${formatSize(Math.max(0, room))}，解压需要 ${formatSize(need)}`;
export const badRatio = (max: number) => `压缩包的压缩比异常（超过 ${max}:1），可能是压缩炸弹，已拒绝解压`;

/** The archive's format from its first bytes; the extension only decides among the allowed ones. */
export async function sniff(file: string): Promise<ArchiveKind | null> {
  const fh = await fsp.open(file, 'r');
  try {
    const head = Buffer.alloc(512);
    const { bytesRead } = await fh.read(head, 0, 512, 0);
    return kindOf(head.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}

function kindOf(h: Buffer): ArchiveKind | null {
  if (h.length >= 4 && h[0] === 0x50 && h[1] === 0x4b && (h[2] === 3 || h[2] === 5)) return 'zip';
  if (h.subarray(0, 6).equals(Buffer.from('Rar!\x1a\x07', 'latin1'))) return 'rar';
  if (h.subarray(0, 6).equals(Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]))) return '7z';
  if (h[0] === 0x1f && h[1] === 0x8b) return 'gz';
  if (isTarHeader(h)) return 'tar';
  return null;
}

function isTarHeader(h: Buffer): boolean {
  return h.length >= 263 && h.subarray(257, 262).toString('latin1') === 'ustar';
}

/** Counts entries and bytes against the limits, and reports progress now and then. */
class Meter {
  entries = 0;
  bytes = 0;
  private last = 0;
  constructor(
    private readonly req: ExtractRequest,
    private readonly report: (p: Progress) => void,
    public entriesTotal = 0,
    public bytesTotal = 0,
  ) {}

  /** An entry announced with its size: refuses before any of its bytes are written. */
  entry(size: number, compressedSoFar: number) {
    const { limits } = this.req;
    if (++this.entries > limits.maxEntries) throw new ExtractError(tooMany(limits.maxEntries));
    this.checkBytes(this.bytes + size, compressedSoFar);
  }

  checkBytes(total: number, compressed: number) {
    const { limits } = this.req;
    if (total > limits.maxBytes) throw new ExtractError(tooBig(limits.maxBytes));
    if (limits.roomBytes !== null && total > limits.roomBytes) {
      throw new ExtractError(noRoom(limits.roomBytes, total));
    }
    if (total > limits.ratioFloor && total / Math.max(1, compressed) > limits.maxRatio) {
      throw new ExtractError(badRatio(limits.maxRatio));
    }
  }

  add(n: number, compressed: number) {
    this.bytes += n;
    this.checkBytes(this.bytes, compressed);
    this.tick();
  }

  tick(force = false) {
    const now = Date.now();
    if (!force && now - this.last < 200) return;
    this.last = now;
    this.report({
      entriesDone: this.entries,
      bytesDone: this.bytes,
      entriesTotal: Math.max(this.entriesTotal, this.entries),
      bytesTotal: Math.max(this.bytesTotal, this.bytes),
    });
  }
}

/** Writes one entry's bytes to a new temporary file, metered. */
async function writeEntry(src: Readable, dest: string, meter: Meter, compressed: () => number) {
  const count = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      try {
        meter.add(chunk.length, compressed());
        cb(null, chunk);
      } catch (err) {
        cb(err as Error);
      }
    },
  });
  await pipeline(src, count, fs.createWriteStream(dest, { flags: 'wx' }));
}

/** Reads the archive into `outDir` and answers what it held, or throws (ExtractError or not). */
export async function extract(req: ExtractRequest, report: (p: Progress) => void): Promise<ExtractResult> {
  const kind = await sniff(req.archive);
  await fsp.mkdir(req.outDir, { recursive: true });
  switch (kind) {
    case 'zip':
      return extractZip(req, report);
    case 'gz':
      return extractGz(req, report);
    case 'tar':
      return extractTar(fs.createReadStream(req.archive), req, new Meter(req, report), () => req.archiveSize);
    case '7z':
    case 'rar':
      return extractWith7z(req, report);
    default:
      throw new ExtractError(UNSUPPORTED);
  }
}

// ------------------------------------------------------------------ zip

/**
 * An entry's name: UTF-8 when the entry says so (flag bit 11) or carries Info-ZIP's Unicode
 * Path field (0x7075) matching its raw name; else UTF-8 if the bytes are valid UTF-8, else GBK
 * (GB18030), which is what Chinese Windows writes.
 */
export function zipName(raw: Buffer, flags: number, extra: { id: number; data: Buffer }[]): string {
  if (flags & 0x800) return raw.toString('utf8');
  const up = extra.find((f) => f.id === 0x7075);
  if (up && up.data.length > 5 && up.data[0] === 1 && up.data.readUInt32LE(1) === zlib.crc32(raw)) {
    return up.data.subarray(5).toString('utf8');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    return iconv.decode(raw, 'gb18030');
  }
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(
      file,
      { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false },
      (err, zf) => (err ? reject(new ExtractError(CORRUPT)) : resolve(zf)),
    ),
  );
}

function zipEntries(zf: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const all: yauzl.Entry[] = [];
    zf.on('entry', (e: yauzl.Entry) => {
      all.push(e);
      zf.readEntry();
    });
    zf.on('end', () => resolve(all));
    zf.on('error', () => reject(new ExtractError(CORRUPT)));
    zf.readEntry();
  });
}

async function extractZip(req: ExtractRequest, report: (p: Progress) => void): Promise<ExtractResult> {
  const zf = await openZip(req.archive);
  try {
    const entries = await zipEntries(zf);
    const { limits } = req;
    if (entries.length > limits.maxEntries) throw new ExtractError(tooMany(limits.maxEntries));
    // Everything is checked from the central directory before one byte is written.
    const plan: { e: yauzl.Entry; segments: string[]; isDir: boolean }[] = [];
    let links = 0;
    let total = 0;
    for (const e of entries) {
      const raw = e.fileName as unknown as Buffer;
      const name = zipName(raw, e.generalPurposeBitFlag, e.extraFields);
      const p = entrySegments(name);
      if (!p.ok) throw new ExtractError(unsafePath(name));
      if (e.isEncrypted()) throw new ExtractError(ENCRYPTED);
      if (((e.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) {
        links++;
        continue;
      }
      if (!p.segments.length || isMacLitter(p.segments)) continue;
      const isDir = name.endsWith('/');
      if (!isDir) {
        const size = e.uncompressedSize;
        if (size > limits.ratioFloor && size / Math.max(1, e.compressedSize) > limits.maxRatio) {
          throw new ExtractError(badRatio(limits.maxRatio));
        }
        total += size;
      }
      plan.push({ e, segments: p.segments, isDir });
    }
    const meter = new Meter(req, report, plan.length, total);
    meter.checkBytes(total, req.archiveSize);
    const items: ExtractedItem[] = [];
    let compressed = 0;
    for (const [i, { e, segments, isDir }] of plan.entries()) {
      meter.entries++;
      if (isDir) {
        items.push({ segments, isDir, file: null, size: 0 });
        continue;
      }
      const dest = path.join(req.outDir, String(i));
      const stream = await new Promise<Readable>((resolve, reject) =>
        zf.openReadStream(e, (err, s) => (err ? reject(err) : resolve(s))),
      );
      compressed += e.compressedSize;
      await writeEntry(stream, dest, meter, () => Math.max(compressed, req.archiveSize));
      items.push({ segments, isDir, file: dest, size: e.uncompressedSize });
    }
    meter.tick(true);
    return { items, skippedLinks: links };
  } finally {
    zf.close();
  }
}

// ------------------------------------------------------------------ tar and gz

async function extractTar(
  source: Readable,
  req: ExtractRequest,
  meter: Meter,
  compressed: () => number,
): Promise<ExtractResult> {
  const items: ExtractedItem[] = [];
  let links = 0;
  let n = 0;
  const ex = tarStream.extract();
  // The first refusal wins over the stream errors that tearing down the pipe causes.
  let refusal: unknown = null;
  const done = new Promise<void>((resolve, reject) => {
    ex.on('finish', resolve);
    ex.on('error', reject);
    source.on('error', reject);
  });
  ex.on('entry', (header, stream, next) => {
    // Tearing down the extractor errors the entry's stream too; the refusal says why.
    stream.on('error', () => undefined);
    void (async () => {
      const p = entrySegments(header.name);
      if (!p.ok) throw new ExtractError(unsafePath(header.name));
      const type = header.type ?? 'file';
      if (type === 'directory' && p.segments.length && !isMacLitter(p.segments)) {
        meter.entry(0, compressed());
        items.push({ segments: p.segments, isDir: true, file: null, size: 0 });
      } else if ((type === 'file' || type === 'contiguous-file') && p.segments.length) {
        if (isMacLitter(p.segments)) {
          stream.resume();
          await new Promise<void>((r) => stream.on('end', () => r()));
          return;
        }
        meter.entry(header.size ?? 0, compressed());
        const dest = path.join(req.outDir, String(n++));
        await writeEntry(Readable.from(stream as AsyncIterable<Buffer>), dest, meter, compressed);
        items.push({ segments: p.segments, isDir: false, file: dest, size: header.size ?? 0 });
        return;
      } else if (type !== 'directory') {
        links++;
      }
      stream.resume();
      await new Promise<void>((r) => stream.on('end', () => r()));
    })().then(
      () => next(),
      (err: unknown) => {
        refusal ??= err;
        ex.destroy(err as Error);
      },
    );
  });
  source.pipe(ex);
  try {
    await done;
  } catch (err) {
    source.destroy();
    if (refusal instanceof ExtractError) throw refusal;
    if (err instanceof ExtractError) throw err;
    throw new ExtractError(CORRUPT);
  }
  meter.tick(true);
  return { items, skippedLinks: links };
}

/** A .gz: a tar inside (tar.gz, tgz, whatever its name) or one file named after the archive. */
async function extractGz(req: ExtractRequest, report: (p: Progress) => void): Promise<ExtractResult> {
  const file = fs.createReadStream(req.archive);
  const gunzip = zlib.createGunzip();
  file.on('error', (err) => gunzip.destroy(err));
  file.pipe(gunzip);
  const compressed = () => file.bytesRead;
  const it = gunzip[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const head: Buffer[] = [];
  let headLen = 0;
  let ended = false;
  try {
    while (headLen < 512) {
      const r = await it.next();
      if (r.done) {
        ended = true;
        break;
      }
      head.push(r.value);
      headLen += r.value.length;
    }
  } catch {
    throw new ExtractError(CORRUPT);
  }
  const first = Buffer.concat(head);
  const rest = Readable.from(
    (async function* () {
      yield first;
      if (ended) return;
      for (;;) {
        const r = await it.next();
        if (r.done) return;
        yield r.value;
      }
    })(),
  );
  const meter = new Meter(req, report);
  if (isTarHeader(first)) return extractTar(rest, req, meter, compressed);
  const dest = path.join(req.outDir, '0');
  meter.entry(0, 0);
  try {
    await writeEntry(rest, dest, meter, compressed);
  } catch (err) {
    if (err instanceof ExtractError) throw err;
    throw new ExtractError(CORRUPT);
  }
  meter.tick(true);
  return {
    items: [{ segments: [req.gzName], isDir: false, file: dest, size: meter.bytes }],
    skippedLinks: 0,
  };
}

// ------------------------------------------------------------------ 7z and rar (7-Zip in WASM)

interface SevenZipRun {
  ok: boolean;
  out: string[];
}

/** Runs one 7-Zip command with the archive's folder and the output folder mounted. */
async function run7z(req: ExtractRequest, args: string[]): Promise<SevenZipRun> {
  // Raw bytes of both streams (printErr would drop an unterminated last line, where 7-Zip
  // says "Wrong password").
  const bytes: number[] = [];
  let code = 0;
  const sz = await SevenZip({
    stdout: (c) => bytes.push(c),
    stderr: (c) => bytes.push(c),
    // A password prompt must never wait for input: an empty stdin answers it.
    stdin: () => null as unknown as number,
    onExit: (c) => (code = c),
  });
  sz.FS.mkdir('/a');
  sz.FS.mount(sz.NODEFS, { root: path.dirname(req.archive) }, '/a');
  sz.FS.mkdir('/o');
  sz.FS.mount(sz.NODEFS, { root: req.outDir }, '/o');
  try {
    sz.callMain([...args]);
  } catch {
    code = code || 2;
  }
  const out = Buffer.from(bytes).toString('utf8').split('\n');
  const ok = code === 0 && out.some((l) => l.includes('Everything is Ok') || l.startsWith('----------'));
  return { ok, out };
}

function archiveArg(req: ExtractRequest) {
  return `/a/${path.basename(req.archive)}`;
}

/**
 * True when a 7z archive's header itself is encrypted (`-mhe`): its next header is an encoded
 * header (0x17) whose coder is AES-256 (method id 06 F1 07 01). 7-Zip gives no message then.
 */
async function headerEncrypted7z(file: string): Promise<boolean> {
  const fh = await fsp.open(file, 'r');
  try {
    const start = Buffer.alloc(32);
    await fh.read(start, 0, 32, 0);
    const offset = Number(start.readBigUInt64LE(12));
    const size = Math.min(Number(start.readBigUInt64LE(20)), 4096);
    const next = Buffer.alloc(size);
    await fh.read(next, 0, size, 32 + offset);
    return next[0] === 0x17 && next.includes(Buffer.from([0x06, 0xf1, 0x07, 0x01]));
  } catch {
    return false;
  } finally {
    await fh.close();
  }
}

/** Fails with the right message when 7-Zip's output names a password or damage. */
function failure(out: string[]): ExtractError {
  const text = out.join('\n');
  if (/Wrong password|encrypted|Can not open encrypted/i.test(text)) return new ExtractError(ENCRYPTED);
  if (/Can not open the file as archive|Unsupported/i.test(text)) return new ExtractError(CORRUPT);
  return new ExtractError(CORRUPT);
}

interface Listed {
  path: string;
  size: number;
  isDir: boolean;
  encrypted: boolean;
  link: boolean;
}

/** The entries of `7zz l -slt`: blocks of `Key = value` lines after the `----------` line. */
function parseListing(out: string[]): Listed[] {
  const start = out.findIndex((l) => l.startsWith('----------'));
  const list: Listed[] = [];
  let cur: Record<string, string> = {};
  const flush = () => {
    if ('Path' in cur) {
      const attrs = cur.Attributes ?? '';
      list.push({
        path: cur.Path!,
        size: Number(cur.Size || 0),
        isDir: cur.Folder === '+' || attrs.startsWith('D'),
        encrypted: cur.Encrypted === '+',
        // A unix mode of `l…` (7z, tar) or a link field (rar, wim).
        link:
          /(^|\s)l[rwxsStT-]{9}/.test(attrs) || Boolean(cur['Symbolic Link'] || cur['Hard Link'] || cur.Link),
      });
    }
    cur = {};
  };
  for (const line of out.slice(start + 1)) {
    if (line.trim() === '') {
      flush();
      continue;
    }
    const eq = line.indexOf(' = ');
    if (eq > 0) cur[line.slice(0, eq)] = line.slice(eq + 3);
  }
  flush();
  return list;
}

async function extractWith7z(req: ExtractRequest, report: (p: Progress) => void): Promise<ExtractResult> {
  // -p with a dummy password: an encrypted archive fails at once instead of asking.
  const listing = await run7z(req, ['l', '-slt', '-sccUTF-8', '-pX', archiveArg(req)]);
  const error = listing.out.some((l) => /^(ERROR|Open ERROR|Errors:)/.test(l.trim()));
  if (!listing.ok || error) {
    if (await headerEncrypted7z(req.archive)) throw new ExtractError(ENCRYPTED);
    throw failure(listing.out);
  }
  const entries = parseListing(listing.out);
  const { limits } = req;
  if (entries.length > limits.maxEntries) throw new ExtractError(tooMany(limits.maxEntries));
  let total = 0;
  const links: string[] = [];
  for (const e of entries) {
    if (!entrySegments(e.path).ok) throw new ExtractError(unsafePath(e.path));
    if (e.encrypted) throw new ExtractError(ENCRYPTED);
    if (e.link) links.push(e.path);
    else if (!e.isDir) total += e.size;
  }
  const meter = new Meter(req, report, entries.length, total);
  meter.checkBytes(total, req.archiveSize);
  meter.tick(true);
  // Links are left out (7-Zip would refuse the dangerous ones and fail the whole run).
  await fsp.writeFile(path.join(req.outDir, 'skip.lst'), links.join('\n'));
  const skip = links.length ? ['-scsUTF-8', '-x@/o/skip.lst'] : [];
  const res = await run7z(req, ['x', '-y', '-bd', '-sccUTF-8', '-pX', ...skip, '-o/o/x', archiveArg(req)]);
  if (!res.ok) throw failure(res.out);
  // What 7-Zip wrote, read back without following links; checked again against the limits
  // (the listing's sizes are the archive's claims).
  const items: ExtractedItem[] = [];
  let skipped = links.length;
  const root = path.join(req.outDir, 'x');
  const walk = async (dir: string, segs: string[]) => {
    for (const d of await fsp.readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, d.name);
      const s = [...segs, d.name];
      if (isMacLitter(s)) continue;
      const st = await fsp.lstat(full);
      if (st.isDirectory()) {
        meter.entry(0, req.archiveSize);
        items.push({ segments: s, isDir: true, file: null, size: 0 });
        await walk(full, s);
      } else if (st.isFile()) {
        meter.entry(st.size, req.archiveSize);
        meter.add(st.size, req.archiveSize);
        items.push({ segments: s, isDir: false, file: full, size: st.size });
      } else {
        skipped++;
      }
    }
  };
  await fsp.mkdir(root, { recursive: true });
  await walk(root, []);
  meter.tick(true);
  return { items, skippedLinks: skipped };
}
