import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Locks } from '../cluster/locks';
import type { Config } from '../config';
import { type BlobStore, createLocalBlobStore } from './blob-store';
import { type ChunkStore, createLocalChunkStore } from './chunks';
import type { S3Bucket } from './s3';
import { createLocalShelf, createS3Shelf, type Shelf } from './shelf';

/**
 * Every place bytes are kept, chosen once at start (ARCHITECTURE.md §10): under DATA_DIR by
 * default, in an S3-compatible bucket with BLOB_STORE=s3. The two content stores stay apart
 * (README "Attachments": neither side's clean-up may remove the other's bytes).
 *
 * | what                       | local (DATA_DIR)        | S3 (bucket, after S3_PREFIX)    |
 * | -------------------------- | ----------------------- | ------------------------------- |
 * | drive blobs                | blobs/ab/cd/<md5>       | blobs/ab/cd/<md5>               |
 * | attachment blobs           | attachments/ab/cd/<md5> | attachments/ab/cd/<md5>         |
 * | unfinished drive uploads   | uploads/<session>/<n>   | uploads/<session>/<n>, parts    |
 * | unfinished attachment ones | attach-chunks/<id>/<n>  | attach-chunks/<id>/<n>, parts   |
 * | thumbnails, posters        | thumbs/ab/<md5>.…       | thumbs/ab/<md5>.…               |
 * | avatars                    | avatars/<sha256>.<ext>  | avatars/<sha256>.<ext>          |
 * | staged bytes               | blobs/tmp, …            | tmp/<uuid>                      |
 */
export interface Storage {
  kind: 'local' | 's3';
  blobs: BlobStore;
  attachments: BlobStore;
  uploadChunks: ChunkStore;
  attachChunks: ChunkStore;
  thumbs: Shelf;
  avatars: Shelf;
  /** Housekeeping of the store itself (staged objects a crash left); a background job. */
  sweep(): Promise<void>;
  /** The bucket, for tests and tools (move-data); undefined locally. */
  bucket: S3Bucket | undefined;
  /**
   * A random 32-byte key of this installation, made once and then the same for every instance
   * (the office document links one instance signs are checked by whichever instance Document
   * Server reaches). Locally a file beside the database; with the object store an object in
   * the bucket (under `secrets/`, which no route serves), made under a shared lock.
   */
  secret(name: string): Promise<Buffer>;
}

const SECRET_BYTES = 32;

/** The key in `dataDir/<name>.key`, made on first use (mode 0600). */
function localSecret(dataDir: string, name: string): Buffer {
  const file = path.join(dataDir, `${name}.key`);
  try {
    const key = fs.readFileSync(file);
    if (key.length >= SECRET_BYTES) return key;
  } catch {
    /* first start: made below */
  }
  const key = randomBytes(SECRET_BYTES);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, key, { mode: 0o600 });
  return key;
}

async function bucketSecret(bucket: S3Bucket, locks: Locks, name: string): Promise<Buffer> {
  const rel = `secrets/${name}.key`;
  // Two instances starting at once: the second waits, then reads what the first wrote.
  return locks.with(`secret:${name}`, async () => {
    if (await bucket.head(rel)) {
      const parts: Buffer[] = [];
      for await (const c of bucket.get(rel)) parts.push(c as Buffer);
      const key = Buffer.concat(parts);
      if (key.length >= SECRET_BYTES) return key;
    }
    const key = randomBytes(SECRET_BYTES);
    await bucket.put(rel, key, key.length);
    return key;
  });
}

export function createLocalStorage(config: Pick<Config, 'dataDir' | 'blobDir' | 'uploadDir'>): Storage {
  const blobs = createLocalBlobStore(config.blobDir);
  const attachments = createLocalBlobStore(path.join(config.dataDir, 'attachments'));
  return {
    kind: 'local',
    blobs,
    attachments,
    uploadChunks: createLocalChunkStore(config.uploadDir, blobs),
    attachChunks: createLocalChunkStore(path.join(config.dataDir, 'attach-chunks'), attachments),
    thumbs: createLocalShelf(path.join(config.dataDir, 'thumbs')),
    avatars: createLocalShelf(path.join(config.dataDir, 'avatars')),
    // The local stores sweep their temporary files when they open.
    sweep: async () => undefined,
    bucket: undefined,
    secret: async (name) => localSecret(config.dataDir, name),
  };
}

/** Answers once the bucket has answered (a wrong endpoint, bucket or key stops the start). */
export async function createStorage(
  config: Pick<Config, 'dataDir' | 'blobDir' | 'uploadDir' | 'scale'>,
  locks: Locks,
  onError?: (what: string, err: unknown) => void,
): Promise<Storage> {
  const s3 = config.scale.s3;
  if (!s3) return createLocalStorage(config);
  // Loaded only with BLOB_STORE=s3: the AWS SDK is half a second of start and tens of MB that
  // a single-server museum never needs (issue 25).
  const [{ createS3Bucket }, { createS3BlobStore, sweepS3Temps }, { createS3ChunkStore }] = await Promise.all(
    [import('./s3'), import('./s3-blob-store'), import('./s3-chunks')],
  );
  const bucket = createS3Bucket(s3);
  await bucket.check();
  const blobs = createS3BlobStore(bucket, 'blobs');
  const attachments = createS3BlobStore(bucket, 'attachments');
  const chunkError = (id: string, err: unknown) => onError?.(`folding chunks of ${id}`, err);
  return {
    kind: 's3',
    blobs,
    attachments,
    uploadChunks: createS3ChunkStore({
      bucket,
      area: 'uploads',
      blobKey: blobs.keyOf,
      locks,
      onError: chunkError,
    }),
    attachChunks: createS3ChunkStore({
      bucket,
      area: 'attach-chunks',
      blobKey: attachments.keyOf,
      locks,
      onError: chunkError,
    }),
    thumbs: createS3Shelf(bucket, 'thumbs'),
    avatars: createS3Shelf(bucket, 'avatars'),
    sweep: () => sweepS3Temps(bucket),
    bucket,
    secret: (name) => bucketSecret(bucket, locks, name),
  };
}
