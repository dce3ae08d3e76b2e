import { createHash } from 'node:crypto';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { tokenOf } from './helpers';

/** Drive e2e helpers: the real server's API with the page's own token, and list locators. */

export interface Entry {
  userFileId: number;
  fileName: string;
  extendName: string;
  filePath: string;
  isDir: 0 | 1;
}

interface Envelope<T> {
  success: boolean;
  message: string;
  data?: T;
}

/**
 * Calls /wangpan as the signed-in person. Uses the `request` fixture (not the page's context),
 * so it still reaches the server while the page's context is offline — "another device".
 */
export function driveApi(request: APIRequestContext, token: string) {
  const headers = { token };
  return {
    async get<T>(path: string, params: Record<string, string | number> = {}): Promise<Envelope<T>> {
      const res = await request.get(`/wangpan${path}`, { headers, params });
      return (await res.json()) as Envelope<T>;
    },
    async post<T>(path: string, data: unknown): Promise<Envelope<T>> {
      const res = await request.post(`/wangpan${path}`, { headers, data });
      return (await res.json()) as Envelope<T>;
    },
    async mkdir(filePath: string, fileName: string, area: Record<string, number> = {}) {
      const r = await this.post('/file/createfile', { ...area, filePath, fileName, isDir: 1 });
      expect(r.success, r.message).toBe(true);
    },
    async list(filePath: string, area: Record<string, number> = {}): Promise<Entry[]> {
      const r = await this.get<{ list: Entry[] }>('/file/getfilelist', {
        ...area,
        filePath,
        pageCount: 1000,
      });
      expect(r.success, r.message).toBe(true);
      return r.data!.list;
    },
    async names(filePath: string, area: Record<string, number> = {}): Promise<string[]> {
      return (await this.list(filePath, area))
        .map((e) => (e.extendName ? `${e.fileName}.${e.extendName}` : e.fileName))
        .sort();
    },
    /**
     * Stores `bytes` as `filePath + name` through the real upload route, in 1 MiB chunks of the
     * octet form (parameters in the query, bytes as the body). Answers the new entry.
     */
    async put(filePath: string, name: string, bytes: Buffer, area: Record<string, number> = {}) {
      const chunkSize = 1024 * 1024;
      const totalChunks = Math.max(1, Math.floor(bytes.length / chunkSize));
      for (let n = 1; n <= totalChunks; n++) {
        // The remainder folds into the last chunk, as simple-uploader sends it.
        const body = bytes.subarray((n - 1) * chunkSize, n === totalChunks ? bytes.length : n * chunkSize);
        const params = {
          ...area,
          chunkNumber: n,
          chunkSize,
          currentChunkSize: body.length,
          totalSize: bytes.length,
          identifier: createHash('md5').update(bytes).digest('hex'),
          filename: name,
          relativePath: name,
          totalChunks,
          filePath,
        };
        const res = await request.post('/wangpan/filetransfer/uploadfile', {
          headers: { ...headers, 'content-type': 'application/octet-stream' },
          params,
          data: body,
        });
        const r = (await res.json()) as Envelope<unknown>;
        expect(r.success, r.message).toBe(true);
      }
      return this.find(filePath, name.replace(/\.[^.]*$/, ''), area);
    },
    async find(filePath: string, name: string, area: Record<string, number> = {}): Promise<Entry> {
      const e = (await this.list(filePath, area)).find((x) => x.fileName === name);
      expect(e, `${filePath}${name}`).toBeTruthy();
      return e!;
    },
  };
}
export type DriveApi = ReturnType<typeof driveApi>;

export async function apiFor(page: Page, request: APIRequestContext): Promise<DriveApi> {
  return driveApi(request, await tokenOf(page));
}

/** The row (list view) of an entry, by its full name. */
export function row(page: Page, name: string): Locator {
  return page.locator(`[data-testid="file-row"][data-name="${name}"]`);
}

/** The names of the rows shown, in order. */
export async function rowNames(page: Page): Promise<string[]> {
  return page
    .getByTestId('file-row')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name') ?? ''));
}

/** Opens the context menu of a row (or of blank space) and returns the entries shown, in order. */
export async function menuEntries(page: Page, target: Locator | 'blank'): Promise<string[]> {
  if (target === 'blank') {
    const browser = page.getByTestId('file-browser');
    const box = (await browser.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height - 20, { button: 'right' });
  } else {
    await target.click({ button: 'right' });
  }
  const menu = page.getByTestId('context-menu');
  await expect(menu).toBeVisible();
  const entries = await menu.getByRole('menuitem').allInnerTexts();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  return entries.map((e) => e.trim());
}

/** Right-clicks a row and picks a context-menu entry. */
export async function contextAction(page: Page, name: string, entry: string) {
  await row(page, name).click({ button: 'right' });
  await page.getByTestId('context-menu').getByRole('menuitem', { name: entry, exact: true }).click();
}

export async function openDrive(page: Page, url = '/resources/net-disk?fileType=0') {
  await page.goto(url);
  await expect(page.getByTestId('drive-page')).toBeVisible();
}

/** Waits until the service worker controls the page, so the shell opens offline after a reload. */
export async function waitForServiceWorker(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((r) =>
        navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }),
      );
    }
  });
}
