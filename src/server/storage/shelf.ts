import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { isNotFound, type S3Bucket } from './s3';

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
  return {
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
    async removeStartingWith(prefix) {
      const folder = path.dirname(fileOf(`${prefix}x`));
      const start = path.basename(`${prefix}x`).slice(0, -1);
      let names: string[];
      try {
        names = await fsp.readdir(folder);
      } catch {
        return;
      }
      for (const n of names) if (n.startsWith(start)) await fsp.rm(path.join(folder, n), { force: true });
    },
  };
}

export function createS3Shelf(bucket: S3Bucket, area: string): Shelf {
  const rel = (name: string) => `${area}/${checkName(name)}`;
  return {
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
    put: (name, data) => bucket.put(rel(name), data),
    async removeStartingWith(prefix) {
      checkName(`${prefix}x`);
      await bucket.removePrefix(`${area}/${prefix}`);
    },
  };
}
