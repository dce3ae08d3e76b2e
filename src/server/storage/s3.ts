import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Settings } from '../scale-config';
import type { ByteRange } from './blob-store';
import { isNotFound } from './s3-not-found';

/*
 * The one place that speaks S3 (README "Scale-out: object store and Redis"). Only calls every
 * S3-compatible store implements are used: Put, Get with Range, Head, Copy, ListObjectsV2,
 * DeleteObjects and multipart uploads. Checksums are sent only where the API requires them
 * (WHEN_REQUIRED): the SDK's default trailing CRC checksums use aws-chunked bodies that some
 * stores (older Ceph RGW, s3rver in the tests) do not read. Integrity does not depend on them:
 * the server hashes every byte itself (MD5, the blob's key).
 */

// The locked SDK runs on Node 20; its warning concerns SDK releases after January 2027 (README).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** Largest object one CopyObject may copy (S3's limit); larger ones are copied by streaming. */
export const COPY_MAX_BYTES = 5 * 1024 ** 3;
/** Smallest multipart part except the last (S3's limit; MinIO and Ceph enforce it too). */
export const PART_MIN_BYTES = 5 * 1024 * 1024;

export interface ObjectInfo {
  key: string;
  size: number;
  modified: number;
}

export interface S3Bucket {
  client: S3Client;
  bucket: string;
  /** The full key of `rel` (S3_PREFIX first). */
  key(rel: string): string;
  /** Bytes of an object, or one range of them, streamed (never buffered whole). */
  get(rel: string, range?: ByteRange): Readable;
  head(rel: string): Promise<{ size: number; modified: number } | null>;
  /**
   * Small objects and streams of a known length in one PUT; a stream that fails midway aborts
   * the request and its error is thrown.
   */
  put(rel: string, body: Buffer | Readable, length?: number): Promise<void>;
  /** A stream of unknown length, in parts (lib-storage): memory is two parts whatever the size. */
  upload(rel: string, body: Readable): Promise<void>;
  copy(fromRel: string, toRel: string, size: number): Promise<void>;
  remove(rels: string[]): Promise<void>;
  /** Every object under a relative prefix, page by page. */
  list(relPrefix: string): AsyncGenerator<ObjectInfo>;
  removePrefix(relPrefix: string): Promise<void>;
  multipart: {
    create(rel: string): Promise<string>;
    part(rel: string, uploadId: string, n: number, body: Readable, length: number): Promise<string>;
    complete(rel: string, uploadId: string, parts: { n: number; etag: string }[]): Promise<void>;
    /** Best effort: some stores (s3rver) lack the call; a lifecycle rule is the backstop (README). */
    abort(rel: string, uploadId: string): Promise<void>;
  };
  /** At start: the bucket answers, or an error naming what to check. */
  check(): Promise<void>;
}

/** True for "no such object" however the store words it (s3-not-found.ts). */
export { isNotFound };

export function createS3Client(s: S3Settings): S3Client {
  return new S3Client({
    endpoint: s.endpoint,
    region: s.region,
    forcePathStyle: s.forcePathStyle,
    credentials: s.credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  });
}

export function createS3Bucket(s: S3Settings, client: S3Client = createS3Client(s)): S3Bucket {
  const Bucket = s.bucket;
  const key = (rel: string) => s.prefix + rel;

  /**
   * Sends a command whose body is a stream of a promised length. If the stream fails midway (a
   * chunk shorter or longer than declared, a client gone), the request is aborted and the
   * stream's own error is thrown: HTTP would otherwise wait for the promised bytes forever.
   */
  async function sendStreaming<T>(
    body: Buffer | Readable,
    send: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const abort = new AbortController();
    if (Buffer.isBuffer(body)) return send(abort.signal);
    let failed: unknown;
    const onError = (err: unknown) => {
      failed ??= err;
      abort.abort();
    };
    body.once('error', onError);
    try {
      return await send(abort.signal);
    } catch (err) {
      throw failed ?? err;
    } finally {
      body.off('error', onError);
    }
  }

  function get(rel: string, range?: ByteRange): Readable {
    const abort = new AbortController();
    async function* body() {
      const res = await client.send(
        new GetObjectCommand({
          Bucket,
          Key: key(rel),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
        { abortSignal: abort.signal },
      );
      const stream = res.Body as Readable;
      try {
        yield* stream;
      } finally {
        // The reader stopped early (a client went away, a head read): drop the connection.
        stream.destroy();
      }
    }
    const out = Readable.from(body(), { objectMode: false });
    out.once('close', () => abort.abort());
    return out;
  }

  const bucket: S3Bucket = {
    client,
    bucket: Bucket,
    key,
    get,
    async head(rel) {
      try {
        const h = await client.send(new HeadObjectCommand({ Bucket, Key: key(rel) }));
        return { size: Number(h.ContentLength ?? 0), modified: h.LastModified?.getTime() ?? 0 };
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },
    async put(rel, body, length) {
      await sendStreaming(body, (abortSignal) =>
        client.send(
          new PutObjectCommand({
            Bucket,
            Key: key(rel),
            Body: body,
            ContentLength: Buffer.isBuffer(body) ? body.length : length,
          }),
          { abortSignal },
        ),
      );
    },
    async upload(rel, body) {
      // Two parts of 8 MiB in flight: the memory of a stage, whatever the file's size.
      const up = new Upload({
        client,
        params: { Bucket, Key: key(rel), Body: body },
        queueSize: 2,
        partSize: 8 << 20,
      });
      await up.done();
    },
    async copy(fromRel, toRel, size) {
      if (size <= COPY_MAX_BYTES) {
        await client.send(
          new CopyObjectCommand({
            Bucket,
            Key: key(toRel),
            CopySource: encodeURI(`${Bucket}/${key(fromRel)}`),
          }),
        );
      } else {
        // Past CopyObject's limit: through this server, streamed (rare: only UNZIP_MAX_MB > 5 GiB allows it).
        await bucket.upload(toRel, get(fromRel));
      }
    },
    async remove(rels) {
      for (let i = 0; i < rels.length; i += 1000) {
        const batch = rels.slice(i, i + 1000);
        if (!batch.length) continue;
        await client.send(
          new DeleteObjectsCommand({
            Bucket,
            Delete: { Objects: batch.map((r) => ({ Key: key(r) })), Quiet: true },
          }),
        );
      }
    },
    async *list(relPrefix) {
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: key(relPrefix), ContinuationToken: token }),
        );
        for (const o of page.Contents ?? []) {
          if (!o.Key) continue;
          yield {
            key: o.Key.slice(s.prefix.length),
            size: Number(o.Size ?? 0),
            modified: o.LastModified?.getTime() ?? 0,
          };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async removePrefix(relPrefix) {
      const keys: string[] = [];
      for await (const o of bucket.list(relPrefix)) keys.push(o.key);
      await bucket.remove(keys);
    },
    multipart: {
      async create(rel) {
        const r = await client.send(new CreateMultipartUploadCommand({ Bucket, Key: key(rel) }));
        if (!r.UploadId) throw new Error('object store gave no UploadId');
        return r.UploadId;
      },
      async part(rel, uploadId, n, body, length) {
        const r = await sendStreaming(body, (abortSignal) =>
          client.send(
            new UploadPartCommand({
              Bucket,
              Key: key(rel),
              UploadId: uploadId,
              PartNumber: n,
              Body: body,
              ContentLength: length,
            }),
            { abortSignal },
          ),
        );
        if (!r.ETag) throw new Error('object store gave no ETag for a part');
        return r.ETag;
      },
      async complete(rel, uploadId, parts) {
        await client.send(
          new CompleteMultipartUploadCommand({
            Bucket,
            Key: key(rel),
            UploadId: uploadId,
            MultipartUpload: {
              Parts: [...parts].sort((a, b) => a.n - b.n).map((p) => ({ PartNumber: p.n, ETag: p.etag })),
            },
          }),
        );
      },
      async abort(rel, uploadId) {
        await client
          .send(new AbortMultipartUploadCommand({ Bucket, Key: key(rel), UploadId: uploadId }))
          .catch(() => undefined);
      },
    },
    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (err) {
        const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        const why =
          status === 404
            ? '桶不存在，请先创建'
            : status === 403
              ? '没有访问权限，请检查 S3_ACCESS_KEY_ID 与 S3_SECRET_ACCESS_KEY'
              : (err as Error).message;
        throw new Error(`无法访问对象存储的桶 ${Bucket}（${s.endpoint ?? 'AWS'}）：${why}`, { cause: err });
      }
    },
  };
  return bucket;
}
