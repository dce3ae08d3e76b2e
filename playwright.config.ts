import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests: Debian's Chromium (never a downloaded browser) against the real server,
 * built front end and a fresh SQLite data dir seeded with the demo museum.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 18765);
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// Per port, so two runs on one machine (E2E_PORT set) never share or delete each other's data.
const dataDir = path.resolve(`.tmp/e2e-data-${E2E_PORT}`);

export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  // One server, shared accounts and sign-in throttling: run serially for deterministic state.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  outputDir: 'test-results/e2e',
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL: BASE_URL,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    viewport: { width: 1024, height: 768 },
    // Most specs do not need the service worker; installing it (precaching every chunk) on each
    // new context costs CPU that CI does not have. Specs that go offline or use Background
    // Sync say `test.use({ serviceWorkers: 'allow' })`.
    serviceWorkers: 'block',
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: fs.existsSync(chromium) ? chromium : undefined,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `rm -rf ${dataDir} && node --import tsx src/server/main.ts`,
    url: `${BASE_URL}/login`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: 'Admin@12345',
      SEED_DEMO: '1',
      DEMO_PASSWORD: 'Demo@2026',
      NODE_ENV: 'production',
    },
    stdout: 'pipe',
  },
});
