/*
 * s3rver (the npm package) as the tests' S3 endpoint: `node s3rver-child.mjs <dir> <bucket>`
 * prints `s3rver-port N` once it listens.
 *
 * s3rver 3.7 answers a PUT before its bytes are on disk (its filesystem store resolves on the
 * hashing transform's 'finish', or straight after `end()` for a buffer, not on the file's
 * 'close') and writes over the object in place. A GET right after the PUT's answer can then read
 * a short or empty file: a CI run read an upload's state.json back empty. S3, MinIO and Ceph
 * answer a PUT once the object is stored and replace it whole, and the product relies on that,
 * so the object is written to a file beside it and renamed over it before the answer.
 *
 * Its DELETE also removes the directories a key's slashes made once they look empty, with a
 * synchronous readdir and an rmdir per level. Two deletes under one prefix at once (DeleteObjects
 * removes its keys in parallel; an upload's chunks, or two uploads' files under tmp/) race there:
 * the loser's readdir or rmdir meets ENOENT and the whole request answers 500 InternalError, and a
 * PUT whose mkdir came just before the rmdir fails the same way. A CI run lost an upload to it
 * (behind-nginx.test.ts, 服务器异常 on a chunk). S3 has no directories, so nothing is removed here
 * but the object's own files; an empty directory is invisible to listings, which walk objects.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import S3rver from 's3rver';
import FilesystemStore from 's3rver/lib/stores/filesystem.js';

const [dir, bucket] = process.argv.slice(2);

FilesystemStore.prototype.putObject = async function putObject(object) {
  const objectPath = this.getResourcePath(object.bucket, object.key, 'object');
  await fs.promises.mkdir(path.dirname(objectPath), { recursive: true });
  // Not ending in `._S3rver_object`, so a listing never shows it.
  const partial = `${objectPath}.${crypto.randomUUID()}.partial`;
  const hash = crypto.createHash('md5');
  let size = 0;
  const content = Buffer.isBuffer(object.content) ? Readable.from([object.content]) : object.content;
  try {
    await pipeline(
      content,
      new Transform({
        transform(chunk, _encoding, callback) {
          hash.update(chunk);
          size += chunk.length;
          callback(null, chunk);
        },
      }),
      fs.createWriteStream(partial),
    );
    await fs.promises.rename(partial, objectPath);
  } catch (err) {
    await fs.promises.rm(partial, { force: true });
    throw err;
  }
  const md5 = hash.digest('hex');
  await this.putMetadata(object.bucket, object.key, object.metadata, md5);
  return { size, md5 };
};

FilesystemStore.prototype.deleteObject = async function deleteObject(bucket, key) {
  await Promise.all(
    ['object', 'object.md5', 'metadata.json'].map((kind) =>
      fs.promises.unlink(this.getResourcePath(bucket, key, kind)).catch((err) => {
        if (err.code !== 'ENOENT') throw err;
      }),
    ),
  );
};

new S3rver({
  port: 0,
  address: '127.0.0.1',
  silent: true,
  directory: dir,
  configureBuckets: [{ name: bucket }],
})
  .run()
  .then(
    ({ port }) => console.log(`s3rver-port ${port}`),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
