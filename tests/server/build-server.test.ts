import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer, ENTRIES } from '../../scripts/build-server';
import { freePort } from '../scale/services';
import { ADMIN_PASSWORD } from './harness';

/*
 * The built server (issue 25: `npm start`, the e2e lanes and the scale-out instances run
 * dist-server/main.js): `npm run build` makes an entry for the server and for every worker
 * thread it starts, and the bundle starts on a fresh data dir (migrations found, admin made)
 * and answers a sign-in. Built into a folder of its own under .tmp/ (inside the checkout, so
 * node_modules is found as it is from dist-server/), never over a dist-server/ in use.
 */
const root = path.resolve(import.meta.dirname, '../..');
const out = path.join(root, '.tmp', `build-server-test-${process.pid}`);
const dataDir = `${out}-data`;

afterAll(() => {
  fs.rmSync(out, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Every `*.worker.ts` the server's sources name (a Worker's entry). */
function workerSources(dir: string): string[] {
  const found: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) found.push(...workerSources(p));
    else if (e.name.endsWith('.worker.ts')) found.push(path.relative(root, p));
  }
  return found;
}

describe('the built server', () => {
  it('has an entry for the server and for every worker thread, and starts and answers', async () => {
    const { files } = await buildServer(out);
    expect(files).toEqual(expect.arrayContaining(['main.js', 'extract.worker.js']));
    // A new worker under src/server must be built too, or it would only run under tsx.
    expect(Object.values(ENTRIES)).toEqual(
      expect.arrayContaining(workerSources(path.join(root, 'src/server'))),
    );
    for (const name of Object.keys(ENTRIES)) {
      expect(files).toContain(`${name}.js`);
      // Linked source maps: stack traces in the log name the sources.
      expect(fs.readFileSync(path.join(out, `${name}.js`), 'utf8')).toContain(
        `//# sourceMappingURL=${name}.js.map`,
      );
    }

    // Bundled packages may not look for files beside themselves: an ES module has no
    // `__dirname`, so such a package must be in EXTERNAL (scripts/build-server.ts), or it fails
    // only on the path that reads the file, long after the server has started.
    const outputs = [
      ...files.filter((f) => f.endsWith('.js')),
      ...fs.readdirSync(path.join(out, 'chunks')).map((f) => `chunks/${f}`),
    ].filter((f) => f.endsWith('.js'));
    for (const f of outputs)
      expect(fs.readFileSync(path.join(out, f), 'utf8'), f).not.toMatch(/\b__(dirname|filename)\b/);

    // Every entry imports the stack mapping before anything else (src/server/stack-map.ts).
    for (const src of Object.values(ENTRIES)) {
      const file = path.join(root, src);
      const first = fs.readFileSync(file, 'utf8').match(/^import .*?'([^']+)';$/m)?.[1];
      expect(first && path.resolve(path.dirname(file), first), src).toBe(
        path.join(root, 'src/server/stack-map'),
      );
    }

    const port = await freePort();
    const child = spawn(process.execPath, [path.join(out, 'main.js')], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DIST_DIR: path.join(out, 'no-dist'),
        ADMIN_PASSWORD,
        NODE_ENV: 'production',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let said = '';
      await new Promise<void>((resolve, reject) => {
        const onData = (d: Buffer) => {
          said += String(d);
          if (said.includes('馆务云已启动')) resolve();
        };
        child.stdout!.on('data', onData);
        child.stderr!.on('data', onData);
        child.once('exit', (code) => reject(new Error(`the built server exited (${code}):\n${said}`)));
      });
      const res = await fetch(`http://127.0.0.1:${port}/singleMuseum/login/webLogin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
      });
      const body = (await res.json()) as { success: boolean; result: { token: string } };
      expect(body.success).toBe(true);
      expect(body.result.token).toBeTruthy();
      // A wrong password is still refused by the built server, in Chinese.
      const bad = await fetch(`http://127.0.0.1:${port}/singleMuseum/login/webLogin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'wrong-password' }),
      });
      const refused = (await bad.json()) as { success: boolean; message: string };
      expect(refused.success).toBe(false);
      expect(refused.message).toMatch(/[\u4e00-\u9fff]/);
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  }, 120_000);
});
