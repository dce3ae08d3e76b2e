/**
 * First load (issue 25): the bytes a tablet moves to show the sign-in form, in Chromium against
 * the built front end (`dist/`) on a real server, counted from the wire (CDP `encodedDataLength`
 * of every response until the network is idle), with a fresh cache each round.
 *
 * - reference: the same load with `Accept-Encoding: identity`, which is what every static file
 *   cost before the build precompressed them (scripts/precompress.ts).
 * - product: the browser's own Accept-Encoding (br), served from the `.br` siblings.
 * - JavaScript alone, as it travelled: the target is ≤ 120 KB gzip before sign-in is
 *   usable, reported here so the route split (issue 25) shows its progress.
 *
 * Median of three rounds each.
 */
import path from 'node:path';
import { chromium } from 'playwright-core';
import { buildIfStale } from '../../scripts/build-if-stale';
import { startServer } from '../server/harness';

const root = path.resolve(import.meta.dirname, '../..');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROUNDS = 3;

interface Load {
  bytes: number;
  jsBytes: number;
  requests: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

await buildIfStale();
const s = await startServer({ DIST_DIR: path.join(root, 'dist'), RATE_LIMIT_PER_MINUTE: '1000000' });
const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  async function load(identity: boolean): Promise<Load> {
    // A new context is a new profile: no HTTP cache, no service worker from a round before.
    const context = await browser.newContext({
      viewport: { width: 1024, height: 768 },
      serviceWorkers: 'block',
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    if (identity)
      await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'identity' } });
    const types = new Map<string, string>();
    const out: Load = { bytes: 0, jsBytes: 0, requests: 0 };
    cdp.on('Network.responseReceived', (e) => types.set(e.requestId, e.type));
    cdp.on('Network.loadingFinished', (e) => {
      out.bytes += e.encodedDataLength;
      out.requests += 1;
      if (types.get(e.requestId) === 'Script') out.jsBytes += e.encodedDataLength;
    });
    await page.goto(`${s.url}/login`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: '登 录' }).waitFor();
    await context.close();
    return out;
  }

  const runs = { ref: [] as Load[], br: [] as Load[] };
  for (let i = 0; i < ROUNDS; i++) {
    runs.ref.push(await load(true));
    runs.br.push(await load(false));
  }
  const kib = (xs: Load[], key: keyof Load) => median(xs.map((x) => x[key])) / 1024;
  const ref = kib(runs.ref, 'bytes');
  const br = kib(runs.br, 'bytes');
  console.log(`\n首屏（登录页，1024×768，无缓存；${ROUNDS} 轮中位数）`);
  console.log(
    `reference: uncompressed (identity)     ${ref.toFixed(0).padStart(7)} KiB in ${median(runs.ref.map((r) => r.requests))} requests`,
  );
  console.log(
    `precompressed (br by Accept-Encoding)  ${br.toFixed(0).padStart(7)} KiB   ×${(br / ref).toFixed(2)} of reference`,
  );
  console.log(
    `JavaScript before the form is usable   ${kib(runs.br, 'jsBytes').toFixed(0).padStart(7)} KiB br (uncompressed ${kib(runs.ref, 'jsBytes').toFixed(0)} KiB; target ≤ 120 KB gzip)`,
  );
} finally {
  await browser.close();
  await s.close();
}
