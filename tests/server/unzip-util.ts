import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import SevenZip from '7z-wasm';
import iconv from 'iconv-lite';
import tarStream from 'tar-stream';
import type { DriveUser } from './drive-util';

/** Archive fixtures made at test time (not a test file itself). */

export interface RawEntry {
  /** The stored name: a string (as UTF-8) or raw bytes (e.g. GBK). */
  name: string | Buffer;
  data?: Buffer;
  /** General-purpose flags: 0x800 UTF-8 names, 0x1 encrypted. */
  flags?: number;
  /** Unix mode in the high 16 bits of the external attributes (symlinks: 0o120777). */
  mode?: number;
  deflate?: boolean;
  extra?: Buffer;
}

/**
 * A zip written byte by byte, so tests can put in what zip tools refuse to write: `../` names,
 * absolute paths, symlinks, GBK names, the encrypted flag.
 */
export function rawZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.isBuffer(e.name) ? e.name : Buffer.from(e.name, 'utf8');
    const data = e.data ?? Buffer.alloc(0);
    const packed = e.deflate ? zlib.deflateRawSync(data) : data;
    // An encrypted entry starts with the 12-byte traditional encryption header.
    const body = (e.flags ?? 0) & 1 ? Buffer.concat([Buffer.alloc(12, 0x5a), packed]) : packed;
    const extra = e.extra ?? Buffer.alloc(0);
    const crc = zlib.crc32(data);
    const common = (h: Buffer, at: number) => {
      h.writeUInt16LE(e.flags ?? 0, at);
      h.writeUInt16LE(e.deflate ? 8 : 0, at + 2);
      h.writeUInt32LE(0, at + 4);
      h.writeUInt32LE(crc, at + 8);
      h.writeUInt32LE(body.length, at + 12);
      h.writeUInt32LE(data.length, at + 16);
      h.writeUInt16LE(name.length, at + 20);
      h.writeUInt16LE(extra.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    common(local, 6);
    locals.push(local, name, extra, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    common(central, 8);
    central.writeUInt32LE(((e.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name, extra);
    offset += 30 + name.length + extra.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** A GBK name as Chinese Windows writes it (no UTF-8 flag). */
export const gbk = (s: string) => iconv.encode(s, 'gbk');

/** Info-ZIP's Unicode Path extra field (0x7075) for a raw name. */
export function unicodePathExtra(raw: Buffer, utf8: string): Buffer {
  const name = Buffer.from(utf8, 'utf8');
  const h = Buffer.alloc(9);
  h.writeUInt16LE(0x7075, 0);
  h.writeUInt16LE(5 + name.length, 2);
  h.writeUInt8(1, 4);
  h.writeUInt32LE(zlib.crc32(raw), 5);
  return Buffer.concat([h, name]);
}

/** A tar of files and folders (names may be anything, links included). */
export async function tarOf(
  entries: {
    name: string;
    data?: string;
    type?: 'file' | 'directory' | 'symlink' | 'link';
    linkname?: string;
  }[],
): Promise<Buffer> {
  const pack = tarStream.pack();
  for (const e of entries) {
    const type = e.type ?? 'file';
    if (type === 'file') pack.entry({ name: e.name }, e.data ?? '');
    else pack.entry({ name: e.name, type, linkname: e.linkname });
  }
  pack.finalize();
  const parts: Buffer[] = [];
  for await (const c of pack) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

/** A folder on disk made into an archive by 7-Zip (7z-wasm): `-t7z`, with options such as `-pX`. */
export async function sevenZipOf(files: Record<string, string>, opts: string[] = []): Promise<Buffer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gwy-7z-'));
  try {
    for (const [name, data] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, 'src', name)), { recursive: true });
      fs.writeFileSync(path.join(dir, 'src', name), data);
    }
    const sz = await SevenZip({ print: () => undefined, printErr: () => undefined });
    sz.FS.mkdir('/w');
    sz.FS.mount(sz.NODEFS, { root: dir }, '/w');
    sz.FS.chdir('/w/src');
    sz.callMain(['a', '-t7z', ...opts, '../x.7z', '.']);
    return fs.readFileSync(path.join(dir, 'x.7z'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Debian's tar with gzip (CI has both), run on a folder of files. */
export function tgzOf(files: Record<string, string>): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gwy-tgz-'));
  try {
    for (const [name, data] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, 'src', name)), { recursive: true });
      fs.writeFileSync(path.join(dir, 'src', name), data);
    }
    execFileSync('tar', ['czf', path.join(dir, 'x.tgz'), '-C', path.join(dir, 'src'), '.']);
    return fs.readFileSync(path.join(dir, 'x.tgz'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface JobView {
  status?: string;
  success?: boolean;
  message: string;
  names: string[];
  targetPath: string;
  jobId: string;
}

/** Starts an unzip and waits for its job to end; answers the final job. */
export async function unzip(u: DriveUser, body: Record<string, unknown>) {
  const res = await u.post('/file/unzipfile', body);
  // A refused call answers its envelope (success false, message), a job otherwise.
  if (!res.body?.success) return res.body as JobView;
  let job = res.body.data;
  for (let i = 0; job.status === 'running' && i < 300; i++) {
    await new Promise((r) => setTimeout(r, 100));
    job = (await u.get('/file/unzipjob', { jobId: job.jobId })).body.data;
  }
  return job as JobView;
}
