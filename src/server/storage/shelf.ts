import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { S3Bucket } from './s3';
import { isNotFound } from './s3-not-found';

/**
 * Small named objects made by the server, not uploaded as content: thumbnails, video posters,
 * avatars. Names are built by the server from hashes and fixed words (`ab/<md5>.v1.webp`),
 * never from user text, and checked here: segments of letters, digits, `.`, `_` and `-`.
 * Local: files under a folder, written through a temporary file and renamed (a reader never
 * sees half an object). S3: objects under a prefix of the bucket, so every instance sees what
 * any instance made.
 */
export interface Shelf {
  get(name: string): Promise<Buffer | null>;
  has(name: string): Promise<boolean>;
  put(name: string, data: Buffer): Promise<void>;
  /** The names that start with `prefix` (within its folder), sorted. */
  namesStartingWith(prefix: string): Promise<string[]>;
  /** Removes every object whose name starts with `prefix` (within its folder). */
  removeStartingWith(prefix: string): Promise<void>;
}

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

function checkName(name: string): string {
  const segs = name.split('/');
  if (!segs.length || segs.some((s) => !SEGMENT.test(s))) throw new Error(`invalid shelf name: ${name}`);
  return name;
}

export function createLocalShelf(dir: string): Shelf {
  const tmpDir = path.join(dir, 'tmp');
  fs.mkdirSync(tmpDir, { recursive: true });
  const fileOf = (name: string) => path.join(dir, checkName(name));
  const shelf: Shelf = {
    async get(name) {
      try {
        return await fsp.readFile(fileOf(name));
      } catch {
        return null;
      }
    },
    async has(name) {
      try {
        await fsp.access(fileOf(name));
        return true;
      } catch {
        return false;
      }
    },
    async put(name, data) {
      const file = fileOf(name);
      await fsp.mkdir(path.dirname(file), { recursive: true });
      const tmp = path.join(tmpDir, `${randomUUID()}.part`);
      try {
        await fsp.writeFile(tmp, data);
        await fsp.rename(tmp, file);
      } catch (err) {
        await fsp.rm(tmp, { force: true });
        throw err;
      }
    },
    async namesStartingWith(prefix) {
      const folder = path.dirname(fileOf(`${prefix}x`));
      const start = path.basename(`${prefix}x`).slice(0, -1);
      const sub = path.relative(dir, folder);
      let names: string[];
      try {
        names = await fsp.readdir(folder);
      } catch {
        return [];
      }
      return names
        .filter((n) => n.startsWith(start))
        .map((n) => (sub ? `${sub.split(path.sep).join('/')}/${n}` : n))
        .sort();
    },
    async removeStartingWith(prefix) {
      for (const name of await shelf.namesStartingWith(prefix)) await fsp.rm(fileOf(name), { force: true });
    },
  };
  return shelf;
}

export function createS3Shelf(bucket: S3Bucket, area: string): Shelf {
  const rel = (name: string) => `${area}/${checkName(name)}`;
  const shelf: Shelf = {
    async get(name) {
      const parts: Buffer[] = [];
      try {
        for await (const c of bucket.get(rel(name))) parts.push(c as Buffer);
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
      return Buffer.concat(parts);
    },
    async has(name) {
      return (await bucket.head(rel(name))) !== null;
    },
    async put(name, data) {
      await bucket.put(rel(name), data);
    },
    async namesStartingWith(prefix) {
      checkName(`${prefix}x`);
      const out: string[] = [];
      for await (const o of bucket.list(`${area}/${prefix}`)) {
        const name = o.key.slice(area.length + 1);
        // Within its folder, as locally: `ab/x` does not reach `ab/x/deeper`.
        if (!name.slice(prefix.length).includes('/')) out.push(name);
      }
      return out.sort();
    },
    async removeStartingWith(prefix) {
      await bucket.remove((await shelf.namesStartingWith(prefix)).map(rel));
    },
  };
  return shelf;
}
