import { defineConfig } from 'vitest/config';
import { SCALE_SERVER_FILES } from './tests/scale/server-files';

/**
 * The scale-out pass (tests/README.md): the server tests that touch blobs, uploads, unzip,
 * thumbnails, notices, rate limits and throttles, run again as a scale-out installation runs:
 * on PostgreSQL, with BLOB_STORE=s3 (s3rver) and REDIS_URL (redis-server), all started by the
 * setup; then the tests of two instances sharing them (tests/scale/).
 */
export default defineConfig({
  test: {
    include: ['tests/scale/**/*.test.ts', ...SCALE_SERVER_FILES],
    // PostgreSQL too (tests/server/pg-setup.ts): a scale-out installation runs on all three.
    globalSetup: ['tests/server/pg-setup.ts', 'tests/scale/global-setup.ts'],
    environment: 'node',
    // One module graph per worker, as in vitest.config.ts's server project: each file starts its
    // own servers with their configuration passed in.
    isolate: false,
    // vitest's default of one file per core, not tests/server/workers.ts's two: flood-guard.test.ts's
    // 4,000 thumbnails must land within one rate-limit minute, and through PostgreSQL, S3 and
    // Redis beside three other files they took 68 s on two cores.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
