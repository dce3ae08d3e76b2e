import { defineConfig } from 'vitest/config';

/** Unit tests beside pure code, and API tests against a real server on a temporary data dir. */
export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'scripts/**/*.test.ts',
      'tests/server/**/*.test.ts',
      'tests/app/**/*.test.{ts,tsx}',
      'tests/roundtrip/**/*.test.ts',
    ],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
