import path from 'node:path';

/**
 * The scale-out pass (tests/README.md "Scale-out pass"): when the test setup has started
 * s3rver and redis-server (scale-setup.ts), every test server keeps its bytes in the bucket and
 * shares its bus, locks, counters and jobs through Redis. Each server gets its own key prefix
 * in both, named after its data dir, so test files running side by side never meet, and a
 * server restarted on the same data dir finds its own objects again.
 */
export const S3_TEST = { bucket: 'gwy-tests', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export function scaleTestEnv(dataDir: string): Record<string, string> {
  const tag = path.basename(dataDir).replace(/[^A-Za-z0-9_-]/g, '-');
  const env: Record<string, string> = {};
  const s3 = process.env.SCALE_TEST_S3_ENDPOINT;
  if (s3) {
    Object.assign(env, {
      BLOB_STORE: 's3',
      S3_ENDPOINT: s3,
      S3_BUCKET: S3_TEST.bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: S3_TEST.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3_TEST.secretAccessKey,
      S3_FORCE_PATH_STYLE: '1',
      S3_PREFIX: tag,
    });
  }
  const redis = process.env.SCALE_TEST_REDIS_URL;
  if (redis) Object.assign(env, { REDIS_URL: redis, REDIS_PREFIX: `${tag}:` });
  return env;
}
