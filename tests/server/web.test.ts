import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { precompressDir } from '../../scripts/precompress';
import { startServer, type TestServer } from './harness';
import { M, failure } from './util';

/* The web layer: unknown paths, security headers, limits, and serving the built front end. */

const NOT_BUILT = '前端尚未构建：请运行 npm start（会自动构建）';

describe('without a built front end', () => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await startServer();
    token = await s.login('admin');
  });
  afterAll(() => s.close());

  it('answers an unknown museum path with the 404 envelope', async () => {
    for (const method of ['GET', 'POST']) {
      const res = await s.call(method, `${M}/nope`, { token, body: method === 'POST' ? {} : undefined });
      expect(res.status, method).toBe(404);
      expect(res.body, method).toEqual(failure(404, '接口不存在'));
    }
  });

  it('answers an unknown drive path with `data` instead of `result`', async () => {
    const res = await s.call('GET', '/wangpan/file/nope', { token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, code: 404, message: '接口不存在', data: null });
    expect(res.body).not.toHaveProperty('result');
  });

  it('asks for a session before saying whether an API path exists', async () => {
    const res = await s.call('GET', `${M}/nope`);
    expect(res.status).toBe(999);
    const drive = await s.call('GET', '/wangpan/file/nope');
    expect(drive.status).toBe(999);
    expect(drive.body).toEqual({ success: false, code: 999, message: '登录超时，请重新登录', data: null });
  });

  it('sends the API policy on JSON answers, successes and failures alike', async () => {
    const answers = [
      await s.call('GET', `${M}/login/userInfo`, { token }),
      await s.call('GET', `${M}/login/userInfo`),
      await s.call('GET', `${M}/nope`, { token }),
      await s.call('POST', `${M}/login/webLogin`, { raw: '{' }),
    ];
    for (const res of answers) {
      // Opened in a tab, a JSON answer is a document that may load nothing and be framed by nobody.
      expect(res.headers.get('content-security-policy'), String(res.status)).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      // The page's other document policies, and the rate limit's counters, are not sent.
      for (const name of [
        'x-frame-options',
        'referrer-policy',
        'cross-origin-opener-policy',
        'x-xss-protection',
        'x-ratelimit-remaining',
      ])
        expect(res.headers.get(name), name).toBeNull();
      // No TLS configured, so no HSTS.
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('sends the page policy on pages, whatever the API does', async () => {
    const res = await fetch(`${s.url}/home/workbench`, { headers: { accept: 'text/html' } });
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    // WebAssembly for the MD5 worker, but never JavaScript eval().
    expect(csp).toMatch(/script-src[^;]*'wasm-unsafe-eval'/);
    expect(csp).not.toContain("'unsafe-eval'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('answers a page request with 503 and a Chinese explanation', async () => {
    const res = await fetch(`${s.url}/home/workbench`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe(NOT_BUILT);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('answers a missing file, or a non-HTML request, with a plain 404', async () => {
    for (const [p, accept] of [
      ['/favicon.ico', 'text/html'],
      ['/assets/app-abc123.js', '*/*'],
      ['/home/workbench', 'application/json'],
    ] as const) {
      const res = await fetch(`${s.url}${p}`, { headers: { accept } });
      expect(res.status, p).toBe(404);
      expect(await res.text(), p).toBe('未找到该文件');
    }
  });

  it('refuses an unsupported content type with 415', async () => {
    const res = await s.call('POST', `${M}/sysDept/save`, {
      token,
      raw: '<dept/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(res.status).toBe(415);
    expect(res.body).toEqual(failure(400, '不支持的请求内容类型'));
  });

  it('refuses a JSON body over 1 MiB with 413', async () => {
    const res = await s.call('POST', `${M}/sysDept/save`, {
      token,
      raw: JSON.stringify({ name: 'x'.repeat(1024 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(failure(400, '上传内容过大'));
  });

  it('answers a field of the wrong type in Chinese, naming the field', async () => {
    const res = await s.call('POST', `${M}/sysDept/save`, { token, body: { name: 123 } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(failure(400, '名称必须是文字'));
    const arr = await s.call('POST', `${M}/sysDept/save`, { token, body: [1, 2] });
    expect(arr.status).toBe(400);
    expect(arr.body).toEqual(failure(400, '请求内容格式不正确：应为 JSON 对象 {…}'));
  });
});

describe('the flood guard (RATE_LIMIT_PER_MINUTE=10, RATE_LIMIT_PER_ADDRESS=10)', () => {
  // Per person and per address for calls without a session; flood-guard.test.ts covers both.
  let s: TestServer;
  beforeEach(async () => {
    s = await startServer({ RATE_LIMIT_PER_MINUTE: '10', RATE_LIMIT_PER_ADDRESS: '10' });
  });
  afterEach(() => s.close());

  it('answers 429 past the limit, for API calls only', async () => {
    const token = await s.login('admin');
    for (let i = 0; i < 10; i++)
      expect((await s.call('GET', `${M}/login/userInfo`, { token })).status).toBe(200);
    const res = await s.call('GET', `${M}/login/userInfo`, { token });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ success: false, code: 1008, result: null });
    expect(res.body.message).toMatch(/^请求过于频繁，请 \d+ 秒后再试$/);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    // Pages are not counted.
    const page = await fetch(`${s.url}/home/workbench`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(503);
    await page.text();
  });

  it('counts requests without a valid session too', async () => {
    // Otherwise anyone can hammer the session lookup with made-up tokens without limit.
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push((await s.call('GET', `${M}/login/userInfo`, { token: `made-up-${i}` })).status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array.from({ length: 10 }, () => 999));
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});

/** A script big and repetitive enough that both encodings pay. */
const BIG = Array.from({ length: 400 }, (_, i) => `export const label${i} = '馆务云 ${i}';`).join('\n');

describe('with a built front end', () => {
  let s: TestServer;
  let dist: string;
  // Long enough to be precompressed, as the real one is: its copies must stay no-cache too.
  const INDEX = `<!doctype html><html><head><title>馆务云</title></head><body><div id="root"></div>${'<!-- 馆务云 -->'.repeat(120)}</body></html>`;
  const LOGIN = `<!doctype html><html><head><title>账号登录 · 馆务云</title></head><body><form id="form"></form>${'<!-- 登录 -->'.repeat(120)}</body></html>`;

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'gwy-dist-'));
    fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
    fs.writeFileSync(path.join(dist, 'login.html'), LOGIN);
    fs.writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("install", () => {});');
    fs.writeFileSync(path.join(dist, 'manifest.webmanifest'), '{"name":"馆务云"}');
    fs.writeFileSync(path.join(dist, 'robots.txt'), 'User-agent: *\nDisallow: /\n');
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log("app");');
    fs.writeFileSync(path.join(dist, 'assets', 'big-def456.js'), BIG);
    fs.writeFileSync(path.join(dist, 'assets', 'hash.worker-aa11bb.js'), 'self.onmessage = () => {};');
    fs.writeFileSync(
      path.join(dist, 'assets', 'logo-cc22dd.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
    );
    await precompressDir(dist);
    s = await startServer({ DIST_DIR: dist });
  });
  afterAll(async () => {
    await s.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  async function page(p: string, accept = 'text/html,application/xhtml+xml') {
    const res = await fetch(`${s.url}${p}`, { headers: { accept } });
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  it('serves index.html for the root, no-cache', async () => {
    const res = await page('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.text).toBe(INDEX);
  });

  it('serves index.html for client routes and for /index.html, no-cache', async () => {
    for (const p of ['/approve/process-pending', '/home/workbench', '/staff/person/pending', '/index.html']) {
      const res = await page(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type'), p).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control'), p).toBe('no-cache');
      expect(res.text, p).toBe(INDEX);
      expect(res.headers.get('content-security-policy'), p).toContain("script-src 'self'");
    }
    // A client route with a query string is still a page.
    const q = await page('/approve/process-pending?state=pending');
    expect(q.text).toBe(INDEX);
  });

  it('serves the sign-in page at /login, whatever its query, no-cache and compressed', async () => {
    for (const p of ['/login', '/login?redirect=%2Fhome%2Fworkbench', '/login.html']) {
      const res = await page(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type'), p).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control'), p).toBe('no-cache');
      expect(res.headers.get('content-security-policy'), p).toContain("script-src 'self'");
      expect(res.text, p).toBe(LOGIN);
    }
    const br = await fetch(`${s.url}/login?redirect=%2F`, {
      headers: { 'accept-encoding': 'br', accept: 'text/html' },
    });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('cache-control')).toBe('no-cache');
    expect(await br.text()).toBe(LOGIN);
    // Only /login itself: a path below it is the app's, which says 页面不存在.
    expect((await page('/login/more')).text).toBe(INDEX);
  });

  it('answers HEAD for the sign-in page (its reachability check), pages and static files', async () => {
    for (const p of ['/login', '/', '/home/workbench', '/assets/app-abc123.js']) {
      const res = await fetch(`${s.url}${p}`, { method: 'HEAD', headers: { accept: 'text/html,*/*' } });
      expect(res.status, p).toBe(200);
      expect(await res.text(), p).toBe('');
    }
  });

  it('serves the service worker and manifest no-cache', async () => {
    const sw = await page('/sw.js', '*/*');
    expect(sw.status).toBe(200);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    expect(sw.headers.get('content-type')).toMatch(/javascript/);
    expect(sw.headers.get('service-worker-allowed')).toBe('/');
    const mf = await page('/manifest.webmanifest', '*/*');
    expect(mf.status).toBe(200);
    expect(mf.headers.get('cache-control')).toBe('no-cache');
    expect(mf.text).toBe('{"name":"馆务云"}');
  });

  it('serves hashed assets as immutable for a year, other files for an hour', async () => {
    const js = await page('/assets/app-abc123.js', '*/*');
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect(js.text).toBe('console.log("app");');
    const robots = await page('/robots.txt', '*/*');
    expect(robots.headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('a script or style sheet carries the subresource headers; a worker, an SVG and a page carry all', async () => {
    const js = await page('/assets/app-abc123.js', '*/*');
    expect(js.headers.get('x-content-type-options')).toBe('nosniff');
    expect(js.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    for (const name of ['content-security-policy', 'x-frame-options', 'referrer-policy'])
      expect(js.headers.get(name), name).toBeNull();
    // The same for the precompressed copy a browser is sent.
    const br = await fetch(`${s.url}/assets/big-def456.js`, { headers: { 'accept-encoding': 'br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('content-security-policy')).toBeNull();
    expect(br.headers.get('x-content-type-options')).toBe('nosniff');
    // A worker obeys its own answer's policy; an SVG opened by itself is a document.
    for (const p of ['/assets/hash.worker-aa11bb.js', '/assets/logo-cc22dd.svg', '/', '/sw.js']) {
      const res = await page(p, '*/*');
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-security-policy'), p).toContain("script-src 'self'");
      expect(res.headers.get('x-frame-options'), p).toBe('SAMEORIGIN');
    }
  });

  it('sends the build’s brotli or gzip copy by Accept-Encoding, the same bytes once decoded', async () => {
    const raw = async (encoding: string) => {
      const res = await fetch(`${s.url}/assets/big-def456.js`, { headers: { 'accept-encoding': encoding } });
      return { res, body: Buffer.from(await res.arrayBuffer()) };
    };
    // fetch() decodes by itself, so compare what went over the wire through the file on disk.
    const br = await raw('gzip, deflate, br');
    expect(br.res.status).toBe(200);
    expect(br.res.headers.get('content-encoding')).toBe('br');
    expect(br.res.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(br.res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(br.res.headers.get('content-type')).toMatch(/javascript/);
    expect(br.body.toString()).toBe(BIG);
    expect(Number(br.res.headers.get('content-length'))).toBe(
      fs.statSync(path.join(dist, 'assets', 'big-def456.js.br')).size,
    );
    const gz = await raw('gzip');
    expect(gz.res.headers.get('content-encoding')).toBe('gzip');
    expect(gz.body.toString()).toBe(BIG);
    const plain = await raw('identity');
    expect(plain.res.headers.get('content-encoding')).toBeNull();
    expect(plain.body.toString()).toBe(BIG);
    // The index's copies keep the index's rule: revalidated on every load.
    for (const p of ['/', '/index.html']) {
      const index = await fetch(`${s.url}${p}`, {
        headers: { 'accept-encoding': 'br', accept: 'text/html' },
      });
      expect(index.headers.get('content-encoding'), p).toBe('br');
      expect(index.headers.get('cache-control'), p).toBe('no-cache');
      expect(await index.text(), p).toBe(INDEX);
    }
    // A file too small to gain is sent as it is, whatever the browser accepts.
    const small = await fetch(`${s.url}/assets/app-abc123.js`, { headers: { 'accept-encoding': 'br' } });
    expect(small.headers.get('content-encoding')).toBeNull();
  });

  it('answers 404, never index.html, for a missing file', async () => {
    for (const p of ['/missing.js', '/assets/app-old999.js', '/assets/style.css']) {
      const res = await page(p, '*/*');
      expect(res.status, p).toBe(404);
      expect(res.text, p).toBe('未找到该文件');
    }
  });

  it('keeps the API answering envelopes beside the static files', async () => {
    const token = await s.login('staff01');
    const info = await s.call('GET', `${M}/login/userInfo`, { token });
    expect(info.body.result.account).toBe('staff01');
    const nope = await s.call('GET', `${M}/nope`, { token, headers: { accept: 'text/html' } });
    expect(nope.status).toBe(404);
    expect(nope.body).toEqual(failure(404, '接口不存在'));
  });
});
