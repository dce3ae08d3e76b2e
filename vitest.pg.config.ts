import { defineConfig } from 'vitest/config';

/**
 * `npm run test:pg`: the server suite (tests/server) again, on PostgreSQL, with the same limits
 * as vitest.config.ts. The global setup starts one throw-away cluster from Debian's
 * `postgresql` package and seeds a template database; the harness gives every test server its
 * own copy (tests/README.md "PostgreSQL").
 */
export default defineConfig({
  test: {
    include: ['tests/server/**/*.test.ts'],
    globalSetup: ['tests/server/pg-setup.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
