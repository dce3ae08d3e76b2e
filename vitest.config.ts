import { defineConfig } from 'vitest/config';
import { TEST_WORKERS } from './tests/server/workers';

/**
 * Unit tests beside pure code, and API tests against a real server on a temporary data dir.
 *
 * Two projects, because they want opposite isolation. The server suite's files each start their
 * own server (own data dir, own database, configuration passed in, never through process.env),
 * so they can share one module graph per worker: `isolate: false` saves evaluating the whole
 * server (Fastify, Kysely, sharp, every module) again for each of ~90 files, which was a third of
 * the suite's time (issue 25, CI budget). The app's unit tests mock modules (`vi.mock`) and stub
 * globals, so they keep a fresh module graph per file.
 */
const limits = { environment: 'node', testTimeout: 20_000, hookTimeout: 30_000 } as const;

export default defineConfig({
  test: {
    ...limits,
    maxWorkers: TEST_WORKERS,
    projects: [
      {
        test: {
          ...limits,
          name: 'server',
          include: ['tests/server/**/*.test.ts', 'tests/roundtrip/**/*.test.ts'],
          isolate: false,
        },
      },
      {
        test: {
          ...limits,
          name: 'unit',
          include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/app/**/*.test.{ts,tsx}'],
        },
      },
    ],
  },
});
