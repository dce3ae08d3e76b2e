import { buildServer } from '../../scripts/build-server';
import { isStale } from '../../scripts/stale.mjs';
import { startRedis, startS3rver } from './services';

/**
 * The scale-out pass's setup (vitest.scale.config.ts): starts redis-server and s3rver, then
 * tells every test server where they are (tests/server/scale-env.ts reads these variables).
 */
export default async function setup() {
  // Once here, before the files run side by side: the instances of behind-nginx.ts run the
  // built server (dist-server/), as `npm start` does.
  if (isStale('server')) await buildServer();
  const [redis, s3] = await Promise.all([startRedis(), startS3rver()]);
  process.env.SCALE_TEST_REDIS_URL = redis.url;
  process.env.SCALE_TEST_S3_ENDPOINT = s3.url;
  return async () => {
    // As in server/pg-setup.ts: a later bench in the same process must not find stopped services.
    delete process.env.SCALE_TEST_REDIS_URL;
    delete process.env.SCALE_TEST_S3_ENDPOINT;
    await Promise.all([redis.stop(), s3.stop()]);
  };
}
