import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  expect,
  type APIRequestContext,
  type Locator,
  type Page,
  type Request,
  type Response,
} from '@playwright/test';
import { driveApi, type DriveApi } from './drive-helpers';
import { signIn } from './helpers';
import { createDriveUser, type TestUser } from './users';

/** Upload e2e helpers: source files on disk with their MD5, the panel's items, and the check
 * that a file came back from the server with exactly the bytes that were chosen. */

export interface Source {
  path: string;
  name: string;
  size: number;
  md5: string;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gwy-upload-e2e-'));

/** A file of random bytes (random, so no two tests' files deduplicate by accident). */
export function sourceFile(name: string, size: number, sub = ''): Source {
  const folder = path.join(dir, sub);
  fs.mkdirSync(folder, { recursive: true });
  const p = path.join(folder, name);
  const bytes = randomBytes(size);
  fs.writeFileSync(p, bytes);
  return { path: p, name, size, md5: createHash('md5').update(bytes).digest('hex') };
}

export function md5(bytes: Buffer): string {
  return createHash('md5').update(bytes).digest('hex');
}

/** Signs a fresh person in through the login page and opens their drive. */
export async function freshDrive(
  page: Page,
  request: APIRequestContext,
): Promise<{ user: TestUser; api: DriveApi }> {
  const user = await createDriveUser(request, { prefix: 'up' });
  await signIn(page, user.account, user.password);
  await page.goto('/resources/net-disk?fileType=0');
  await expect(page.getByTestId('drive-page')).toBeVisible();
  return { user, api: driveApi(request, user.token) };
}

export function uploadItem(page: Page, name: string): Locator {
  return page.locator(`[data-testid="upload-item"][data-name="${name}"]`);
}

export async function openPanel(page: Page) {
  await page.locator('[data-action="upload"]').click();
  await expect(page.getByTestId('upload-panel')).toBeVisible();
}

/** Downloads the file through the real API and compares its MD5 with the source. */
export async function expectSameBytes(
  request: APIRequestContext,
  api: DriveApi,
  token: string,
  folder: string,
  src: Source,
) {
  const base = src.name.replace(/\.[^.]+$/, '');
  const entry = await api.find(folder, base);
  const res = await request.get('/wangpan/filetransfer/downloadfile', {
    headers: { token },
    params: { userFileId: entry.userFileId },
  });
  expect(res.status()).toBe(200);
  const body = await res.body();
  expect(body.length).toBe(src.size);
  expect(md5(body)).toBe(src.md5);
}

/**
 * Counts chunk POSTs by file name: every request the page sends ('request'), or only those
 * the server answered ('response': attempts against a stopped server never reached it).
 */
export function countChunks(page: Page, on: 'request' | 'response' = 'request') {
  const counts = new Map<string, number>();
  const count = (req: Request) => {
    if (req.method() !== 'POST' || !req.url().includes('/wangpan/filetransfer/uploadfile')) return;
    // Our client sends chunks in the octet method: the parameters are in the query string.
    const name = new URL(req.url()).searchParams.get('filename') ?? '?';
    counts.set(name, (counts.get(name) ?? 0) + 1);
  };
  if (on === 'request') page.on('request', count);
  else page.on('response', (res) => count(res.request()));
  return counts;
}

/**
 * Holds each chunk POST for `ms` before it leaves the browser, so a test can act mid-upload
 * (the server is untouched: the requests reach it as sent).
 */
export async function slowChunks(page: Page, ms: number) {
  // A URL predicate, not a glob: octet chunks carry their parameters in the query string.
  await page.route(
    (url) => url.pathname === '/wangpan/filetransfer/uploadfile',
    async (route) => {
      if (route.request().method() === 'POST') await new Promise((r) => setTimeout(r, ms));
      await route.continue().catch(() => undefined);
    },
  );
}

/** Resolves once the server has acknowledged `n` chunk POSTs of the page. */
export function chunksAcked(page: Page, n: number): Promise<void> {
  let seen = 0;
  return new Promise((resolve) => {
    const on = (res: Response) => {
      const req = res.request();
      if (req.method() !== 'POST' || !req.url().includes('/wangpan/filetransfer/uploadfile')) return;
      if (res.status() === 200 && ++seen >= n) {
        page.off('response', on);
        resolve();
      }
    };
    page.on('response', on);
  });
}

/**
 * Starts uploading `file` through the panel's 选择文件 with every chunk held `ms` (slowChunks),
 * and resolves once the server has acknowledged `acked` of them: the upload is then caught
 * running, for a test to go offline, pause or stop the server. Answers the page's chunk
 * responses counted from the start (countChunks), for what reached the server.
 */
export async function startHeldUpload(page: Page, file: string, ms: number, acked: number) {
  await slowChunks(page, ms);
  const chunks = countChunks(page, 'response');
  await openPanel(page);
  const seen = chunksAcked(page, acked);
  await page.getByTestId('upload-input-files').setInputFiles(file);
  await seen;
  return chunks;
}

/** Sets the 本机暂存上限 in the panel (0 keeps nothing on the device). */
export async function setKeepBudget(page: Page, label: string) {
  await page.getByTestId('upload-keep-budget').click();
  await page.getByRole('option', { name: label, exact: true }).click();
}

/** Files kept in the origin-private file system for uploads (all people on this device). */
export function keptFiles(page: Page): Promise<number> {
  return page.evaluate(async () => {
    type Dir = { kind: string; values(): AsyncIterable<Dir & { name: string }> };
    const root = (await navigator.storage.getDirectory()) as unknown as Dir;
    let n = 0;
    for await (const dir of root.values()) {
      if (dir.kind !== 'directory' || !dir.name.startsWith('uploads-')) continue;
      for await (const f of dir.values()) if (!f.name.startsWith('.')) n++;
    }
    return n;
  });
}
