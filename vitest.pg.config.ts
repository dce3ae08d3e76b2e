import { configDefaults, defineConfig } from 'vitest/config';
import { SCALE_SERVER_FILES } from './tests/scale/server-files';
import { TEST_WORKERS } from './tests/server/workers';

/**
 * `npm run test:pg`: the server suite (tests/server) again, on PostgreSQL, with the same limits
 * as vitest.config.ts. The global setup starts one throw-away cluster from Debian's
 * `postgresql` package and seeds a template database; the harness gives every test server its
 * own copy (tests/README.md "PostgreSQL").
 *
 * Left out: the files the scale-out pass runs on PostgreSQL anyway (tests/scale/server-files.ts),
 * the walk of every route's malformed input, which is refused by the schemas before any
 * SQL runs, and the three files that use no database.
 */
export default defineConfig({
  test: {
    include: ['tests/server/**/*.test.ts'],
    exclude: [
      ...configDefaults.exclude,
      ...SCALE_SERVER_FILES,
      'tests/server/validation-walk.test.ts',
      // They touch no database: the built server on a SQLite data dir of its own, the sign-in
      // page's JavaScript budget, and the reservation tests' wait for the museum's midnight.
      'tests/server/build-server.test.ts',
      'tests/server/js-budget.test.ts',
      'tests/server/reservation-util.test.ts',
    ],
    globalSetup: ['tests/server/pg-setup.ts'],
    environment: 'node',
    // One module graph per worker, as in vitest.config.ts's server project: each file starts its
    // own servers with their configuration passed in.
    isolate: false,
    maxWorkers: TEST_WORKERS,
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
