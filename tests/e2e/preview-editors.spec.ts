import { createHash } from 'node:crypto';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { openDrive, row } from './drive-helpers';
import { signIn } from './helpers';
import { createDriveUser, type TestUser } from './users';

// The service worker stays blocked (the default) but for the offline test, which keeps it: its
// first install precaches the whole app on the same cores as the editor under test.

/*
 * Issue 5, the code dialog and the markdown overlay, in Chromium against the real server. Files
 * go in through the real upload API (one octet chunk) into a fresh person's drive, or into the
 * 其他资源 library for the read-only cases; what a save did is checked by downloading the file.
 */

const LIBRARY = { fileType: 9, isAdmin: 1 };
const OTHER_RESOURCE = '/resources/other-resource?fileType=9&filePath=/';

/** Uploads `content` as `name` into the root of the person's drive (or a library); its id. */
async function put(
  request: APIRequestContext,
  user: TestUser,
  name: string,
  content: string | Buffer,
  area: Record<string, number> = {},
): Promise<number> {
  const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
  // simple-uploader's parameters: 2 MiB chunks, the remainder folded into the last one.
  const chunkSize = 2 * 1024 * 1024;
  const totalChunks = Math.max(1, Math.floor(bytes.length / chunkSize));
  let last: { success: boolean; message: string; data?: { userFileId?: number } } | undefined;
  for (let n = 1; n <= totalChunks; n++) {
    const chunk = bytes.subarray((n - 1) * chunkSize, n === totalChunks ? bytes.length : n * chunkSize);
    const res = await request.post('/wangpan/filetransfer/uploadfile', {
      headers: { token: user.token, 'content-type': 'application/octet-stream' },
      params: {
        chunkNumber: n,
        chunkSize,
        currentChunkSize: chunk.length,
        totalSize: bytes.length,
        identifier: createHash('md5').update(bytes).digest('hex'),
        filename: name,
        relativePath: name,
        totalChunks,
        filePath: '/',
        ...area,
      },
      data: chunk,
    });
    last = (await res.json()) as typeof last;
    expect(last!.success, last!.message).toBe(true);
  }
  expect(last!.data?.userFileId).toBeTruthy();
  return last!.data!.userFileId!;
}

async function download(
  request: APIRequestContext,
  user: TestUser,
  userFileId: number,
  area: Record<string, number> = {},
): Promise<string> {
  const res = await request.get('/wangpan/filetransfer/downloadfile', {
    headers: { token: user.token },
    params: { userFileId, ...area },
  });
  expect(res.status()).toBe(200);
  return (await res.body()).toString('utf8');
}

async function freshUser(page: Page, request: APIRequestContext): Promise<TestUser> {
  const user = await createDriveUser(request, { prefix: 'ed' });
  await signIn(page, user.account, user.password);
  return user;
}

/** The file/update calls the page sends. */
function updateCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/wangpan/file/update')) calls.push(r.postData() ?? '');
  });
  return calls;
}

/** The editor's text, line by line as CodeMirror shows it. */
async function editorText(editor: Locator): Promise<string> {
  return editor
    .locator('.cm-line')
    .evaluateAll((lines) => lines.map((l) => (l.textContent ?? '').replace(/\u200b/g, '')).join('\n'));
}

/** Puts the cursor at the end of the editor's text. */
async function toEnd(page: Page, editor: Locator) {
  await editor.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
}

const toast = (page: Page, text: string) => page.locator('.mantine-Notification-root', { hasText: text });

test('code: a .js file opens highlighted; Ctrl+S saves, reloads, and the list shows the new size', async ({
  page,
  request,
}) => {
  const user = await freshUser(page, request);
  const before = "const title = '青铜器';\nfunction show() {\n  return title;\n}\n";
  const id = await put(request, user, '展品.js', before);
  const calls = updateCalls(page);
  await openDrive(page);
  await expect(row(page, '展品.js')).toContainText(`${Buffer.byteLength(before)} B`);
  await row(page, '展品.js').dblclick();

  const dialog = page.getByTestId('code-dialog');
  await expect(dialog).toBeVisible();
  expect(Math.round((await dialog.boundingBox())!.width)).toBe(900);
  const editor = dialog.getByTestId('code-editor');
  await expect(editor.locator('.cm-content')).toContainText("const title = '青铜器';");
  // The language follows the extension: `const` is a keyword token, coloured unlike plain text.
  await expect
    .poll(() =>
      editor
        .locator('.cm-line span')
        .evaluateAll((spans) =>
          spans.some(
            (s) =>
              s.textContent === 'const' &&
              s.className !== '' &&
              getComputedStyle(s).color !== getComputedStyle(s.closest('.cm-line')!).color,
          ),
        ),
    )
    .toBe(true);

  // Unchanged: 保存 is disabled and Ctrl+S only says so.
  const save = dialog.getByTestId('editor-save');
  await expect(save).toBeDisabled();
  await expect(dialog.getByTestId('editor-unsaved')).toHaveCount(0);
  await editor.locator('.cm-content').click();
  await page.keyboard.press('Control+s');
  await expect(toast(page, '文件内容未修改，无需保存')).toBeVisible();

  // Edit: 未保存 shows; Ctrl+S saves, then the editor shows the text read back from the server.
  await toEnd(page, editor);
  await page.keyboard.insertText('// 修改于展厅\n');
  await expect(dialog.getByTestId('editor-unsaved')).toBeVisible();
  await expect(save).toBeEnabled();
  const after = `${before}// 修改于展厅\n`;
  const reloaded = page.waitForResponse(
    (r) => r.url().includes('/wangpan/filetransfer/preview') && r.request().method() === 'GET',
  );
  await page.keyboard.press('Control+s');
  await expect(toast(page, '保存成功')).toBeVisible();
  await reloaded;
  await expect(dialog.getByTestId('editor-unsaved')).toHaveCount(0);
  await expect(save).toBeDisabled();
  expect(await editorText(editor)).toBe(after);
  expect(calls).toHaveLength(1);
  expect(JSON.parse(calls[0]!)).toMatchObject({ userFileId: id, fileContent: after });
  expect(await download(request, user, id)).toBe(after);

  // Escape with nothing unsaved closes at once; the list refreshes with the new size.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(row(page, '展品.js')).toContainText(`${Buffer.byteLength(after)} B`);
});

test('code: read-only in 其他资源 — no 保存, typing changes nothing, Ctrl+S sends nothing', async ({
  page,
  request,
}) => {
  const user = await freshUser(page, request);
  const name = `只读说明${Date.now().toString(36)}`;
  const text = '馆藏目录（只读）\n第二行\n';
  const id = await put(request, user, `${name}.txt`, text, LIBRARY);
  const calls = updateCalls(page);
  await openDrive(page, OTHER_RESOURCE);
  await row(page, `${name}.txt`).dblclick();

  const dialog = page.getByTestId('code-dialog');
  await expect(dialog.getByTestId('code-editor')).toContainText('馆藏目录（只读）');
  await expect(dialog.getByTestId('editor-readonly')).toHaveText('只读');
  await expect(dialog.getByTestId('editor-save')).toHaveCount(0);
  await toEnd(page, dialog.getByTestId('code-editor'));
  await page.keyboard.insertText('不应出现');
  await page.keyboard.press('Control+s');
  await expect(toast(page, '当前为只读模式，不能保存')).toBeVisible();
  expect(await editorText(dialog.getByTestId('code-editor'))).toBe(text);
  await expect(dialog.getByTestId('editor-unsaved')).toHaveCount(0);
  expect(calls).toHaveLength(0);
  expect(await download(request, user, id, LIBRARY)).toBe(text);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect(calls).toHaveLength(0);
});

test('code: Escape with unsaved changes asks — 继续编辑 keeps the text, 放弃修改 closes', async ({
  page,
  request,
}) => {
  const user = await freshUser(page, request);
  const id = await put(request, user, '草稿.txt', '原文\n');
  const calls = updateCalls(page);
  await openDrive(page);
  await row(page, '草稿.txt').dblclick();
  const dialog = page.getByTestId('code-dialog');
  const editor = dialog.getByTestId('code-editor');
  await expect(editor).toContainText('原文');
  await toEnd(page, editor);
  await page.keyboard.insertText('新增一行');

  const ask = page.getByRole('dialog', { name: '放弃未保存的修改？' });
  await page.keyboard.press('Escape');
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: '继续编辑' }).click();
  await expect(ask).toBeHidden();
  await expect(dialog).toBeVisible();
  expect(await editorText(editor)).toBe('原文\n新增一行');
  await expect(dialog.getByTestId('editor-unsaved')).toBeVisible();

  // Escape in the question is 继续编辑 too; the close button asks like Escape.
  await page.keyboard.press('Escape');
  await expect(ask).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(ask).toBeHidden();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: '关闭' }).click();
  await ask.getByRole('button', { name: '放弃修改' }).click();
  await expect(dialog).toBeHidden();
  await expect(ask).toBeHidden();
  expect(calls).toHaveLength(0);
  expect(await download(request, user, id)).toBe('原文\n');
});

test('code: font size clamps at 12 and 30; the theme survives reopening; GBK text reads right', async ({
  page,
  request,
}) => {
  const user = await freshUser(page, request);
  await put(request, user, '配置.json', '{\n  "museum": "故宫"\n}\n');
  // "藏品说明：青花瓷" written by a Chinese Windows tool (GBK).
  await put(request, user, '说明.txt', Buffer.from('b2d8c6b7cbb5c3f7a3bac7e0bba8b4c9', 'hex'));
  await openDrive(page);
  await row(page, '配置.json').dblclick();
  const dialog = page.getByTestId('code-dialog');
  const editor = dialog.getByTestId('code-editor');
  await expect(editor).toContainText('"museum"');
  const size = dialog.getByTestId('editor-font-size');
  const smaller = dialog.getByRole('button', { name: '减小字号' });
  const larger = dialog.getByRole('button', { name: '增大字号' });
  const fontPx = () => editor.locator('.cm-editor').evaluate((e) => getComputedStyle(e).fontSize);

  await expect(size).toHaveText('14px');
  expect(await fontPx()).toBe('14px');
  await smaller.click();
  await expect(size).toHaveText('12px');
  await expect(smaller).toBeDisabled();
  await smaller.click({ force: true });
  await expect(size).toHaveText('12px');
  expect(await fontPx()).toBe('12px');
  for (let i = 0; i < 9; i++) await larger.click();
  await expect(size).toHaveText('30px');
  await expect(larger).toBeDisabled();
  expect(await fontPx()).toBe('30px');

  // Dracula's background is #282a36.
  const background = () => editor.locator('.cm-editor').evaluate((e) => getComputedStyle(e).backgroundColor);
  const lightBackground = await background();
  const picker = dialog.getByLabel('配色主题');
  await expect(picker).toHaveValue('默认（浅色）');
  await picker.click();
  await page.getByRole('option', { name: 'Dracula', exact: true }).click();
  await expect.poll(background).toBe('rgb(40, 42, 54)');
  expect(lightBackground).not.toBe('rgb(40, 42, 54)');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Reopened, and after a reload of the page, in another file: still Dracula.
  await row(page, '配置.json').dblclick();
  await expect(picker).toHaveValue('Dracula');
  await expect.poll(background).toBe('rgb(40, 42, 54)');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.reload();
  await row(page, '说明.txt').dblclick();
  await expect(picker).toHaveValue('Dracula');
  await expect.poll(background).toBe('rgb(40, 42, 54)');
  await expect(editor.locator('.cm-content')).toHaveText('藏品说明：青花瓷');
});

test.describe('offline', () => {
  // Offline with the app as staff have it installed: the service worker and its device copies.
  test.use({ serviceWorkers: 'allow' });

  test('code: offline, Ctrl+S keeps the text and says so; the kept draft is offered on reopening', async ({
    page,
    request,
  }) => {
    const user = await freshUser(page, request);
    const id = await put(request, user, '离线.txt', '第一行\n');
    const calls = updateCalls(page);
    await openDrive(page);
    await row(page, '离线.txt').dblclick();
    const dialog = page.getByTestId('code-dialog');
    const editor = dialog.getByTestId('code-editor');
    await expect(editor).toContainText('第一行');
    await toEnd(page, editor);
    await page.keyboard.insertText('库房里写的');

    await page.context().setOffline(true);
    await page.keyboard.press('Control+s');
    await expect(toast(page, '当前离线，请联网后再保存')).toBeVisible();
    expect(await editorText(editor)).toBe('第一行\n库房里写的');
    await expect(dialog.getByTestId('editor-unsaved')).toBeVisible();
    expect(calls).toHaveLength(0);

    // The tab reloads (or the dialog is lost some other way): the draft is offered again.
    await page.context().setOffline(false);
    await page.reload();
    await row(page, '离线.txt').dblclick();
    await expect(editor).toContainText('第一行');
    const offer = dialog.getByTestId('editor-draft');
    await expect(offer).toBeVisible();
    await offer.getByRole('button', { name: '恢复修改' }).click();
    await expect(offer).toBeHidden();
    expect(await editorText(editor)).toBe('第一行\n库房里写的');
    await expect(dialog.getByTestId('editor-unsaved')).toBeVisible();
    await dialog.getByTestId('editor-save').click();
    await expect(toast(page, '保存成功')).toBeVisible();
    expect(await download(request, user, id)).toBe('第一行\n库房里写的');
    // The toast comes before the editor re-reads the file; until then the dialog stays open on
    // purpose (a save in flight cannot be abandoned), so Escape would be ignored.
    await expect(dialog.getByTestId('editor-unsaved')).toHaveCount(0);

    // Saved: the draft is gone, nothing is offered next time.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await row(page, '离线.txt').dblclick();
    await expect(editor).toContainText('库房里写的');
    await expect(dialog.getByTestId('editor-draft')).toHaveCount(0);
  });
});

test("code: a refused save shows the server's words and keeps the text; a file over 5 MB is refused", async ({
  page,
  request,
}) => {
  const user = await freshUser(page, request);
  const id = await put(request, user, '展签.txt', '青花瓷\n');
  const big = `大文件${Date.now().toString(36)}`;
  await put(request, user, `${big}.log`, Buffer.alloc(5 * 1024 * 1024 + 1, 0x61));
  await openDrive(page);
  await row(page, '展签.txt').dblclick();
  const dialog = page.getByTestId('code-dialog');
  const editor = dialog.getByTestId('code-editor');
  await expect(editor).toContainText('青花瓷');
  await toEnd(page, editor);
  await page.keyboard.insertText('（明代）');

  // Deleted meanwhile on another device: the server refuses, the edit stays in the editor.
  const gone = await request.post('/wangpan/file/deletefile', {
    headers: { token: user.token },
    data: { userFileId: id, deleteMode: 1 },
  });
  expect(((await gone.json()) as { success: boolean }).success).toBe(true);
  await page.keyboard.press('Control+s');
  await expect(toast(page, '文件不存在或已被删除')).toBeVisible();
  expect(await editorText(editor)).toBe('青花瓷\n（明代）');
  await expect(dialog.getByTestId('editor-unsaved')).toBeVisible();
  await page.keyboard.press('Escape');
  await page
    .getByRole('dialog', { name: '放弃未保存的修改？' })
    .getByRole('button', { name: '放弃修改' })
    .click();
  await expect(dialog).toBeHidden();

  // Over 5 MB the server does not send the text; its words show in the dialog.
  await row(page, `${big}.log`).dblclick();
  await expect(dialog.getByRole('alert')).toContainText('文件过大，无法在线查看，请下载后查看');
  await expect(editor).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test.describe('markdown', () => {
  test.describe('with the page CSP off, so only the sanitiser stands between the file and the page', () => {
    test.use({ bypassCSP: true });

    test('XSS in a markdown file is inert; the safe parts render', async ({ page, request }) => {
      const user = await freshUser(page, request);
      const evil = [
        '# 展览说明',
        '',
        '**重点藏品**',
        '',
        '| 名称 | 年代 |',
        '| --- | --- |',
        '| 青花瓷 | 明 |',
        '',
        '<script>window.__xss=1;alert(1)</script>',
        '',
        '<img src=x onerror="window.__xss=2;alert(2)">',
        '',
        '[点我](javascript:window.__xss=3;alert(3))',
        '',
        '<iframe src="javascript:window.parent.__xss=4;alert(4)"></iframe>',
        '',
        '<a href="data:text/html,<script>alert(5)</script>">数据链接</a>',
        '',
        '<a href=" JaVaScRiPt:window.__xss=6">大小写链接</a>',
        '',
        '<div style="position:fixed;inset:0" onmouseover="window.__xss=7">覆盖层</div>',
        '',
        '[外部链接](https://museum.example/)',
        '',
        '![小图](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==)',
      ].join('\n');
      await put(request, user, '展览.md', evil);
      let dialogs = 0;
      page.on('dialog', (d) => {
        dialogs++;
        void d.dismiss();
      });
      const popups: string[] = [];
      page.context().on('page', (p) => popups.push(p.url()));
      await openDrive(page);
      await row(page, '展览.md').dblclick();

      const overlay = page.getByTestId('markdown-overlay');
      const preview = overlay.getByTestId('markdown-preview');
      await expect(preview.getByRole('heading', { name: '展览说明', level: 1 })).toBeVisible();
      await expect(preview.locator('strong')).toHaveText('重点藏品');
      await expect(preview.locator('table td').first()).toHaveText('青花瓷');
      await expect(preview.locator('img[src^="data:image/png"]')).toHaveCount(1);

      // What is left of the dangerous parts is inert markup.
      expect(await preview.locator('script, iframe, object, embed, style, form').count()).toBe(0);
      const attrs = await preview
        .locator('*')
        .evaluateAll((els) =>
          els.flatMap((e) => [...e.attributes].map((a) => `${e.tagName.toLowerCase()} ${a.name}=${a.value}`)),
        );
      expect(attrs.filter((a) => /^\S+ on/i.test(a))).toEqual([]);
      expect(attrs.filter((a) => / style=/.test(a))).toEqual([]);
      expect(attrs.filter((a) => /=\s*(javascript|vbscript):/i.test(a))).toEqual([]);
      expect(attrs.filter((a) => /=\s*data:/i.test(a) && !a.startsWith('img src=data:image/'))).toEqual([]);
      const links = await preview
        .locator('a[href]')
        .evaluateAll((as) => as.map((a) => [a.getAttribute('target'), a.getAttribute('rel')]));
      expect(links.length).toBeGreaterThan(0);
      for (const l of links) expect(l).toEqual(['_blank', 'noopener noreferrer']);

      // Clicking what used to be script links, and hovering the would-be cover, runs nothing.
      await preview.getByText('点我').click();
      await preview.getByText('数据链接').click();
      await preview.getByText('大小写链接').click();
      await preview.getByText('覆盖层').hover();
      await page.waitForTimeout(500);
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
      expect(dialogs).toBe(0);
      expect(popups).toEqual([]);
      await expect(overlay).toBeVisible();
    });
  });

  test('split view above 768 px, tabs at 768; the toolbar edits; Ctrl+S saves; read-only has no toolbar', async ({
    page,
    request,
  }) => {
    const user = await freshUser(page, request);
    const id = await put(request, user, '导览.md', '# 导览\n\n正文\n');
    const calls = updateCalls(page);
    await openDrive(page);
    await row(page, '导览.md').dblclick();

    const overlay = page.getByTestId('markdown-overlay');
    const editorPane = overlay.getByTestId('markdown-editor-pane');
    const preview = overlay.getByTestId('markdown-preview');
    // 1024 px: editor and preview side by side, no tabs; the overlay is the whole screen.
    await expect(editorPane).toBeVisible();
    await expect(preview.getByRole('heading', { name: '导览' })).toBeVisible();
    await expect(overlay.getByRole('tab')).toHaveCount(0);
    const box = (await overlay.boundingBox())!;
    expect([Math.round(box.width), Math.round(box.height)]).toEqual([1024, 768]);
    const [e, p] = [(await editorPane.boundingBox())!, (await preview.boundingBox())!];
    expect(p.x).toBeGreaterThan(e.x + e.width - 1);

    // The toolbar inserts markdown at the cursor; the preview follows.
    const editor = editorPane.getByTestId('code-editor');
    await toEnd(page, editor);
    const toolbar = overlay.getByRole('toolbar', { name: '格式工具栏' });
    await toolbar.getByRole('button', { name: '粗体' }).click();
    await expect(preview.locator('strong')).toHaveText('粗体文字');
    await expect(overlay.getByTestId('editor-unsaved')).toBeVisible();
    // The sample is selected: typing replaces it.
    await page.keyboard.insertText('国宝');
    await expect(preview.locator('strong')).toHaveText('国宝');
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await toolbar.getByRole('button', { name: '表格' }).click();
    await expect(preview.locator('table th').first()).toHaveText('列 1');
    const expected =
      '# 导览\n\n正文\n**国宝**\n\n| 列 1 | 列 2 | 列 3 |\n| --- | --- | --- |\n| 内容 | 内容 | 内容 |\n';
    expect(await editorText(editor)).toBe(expected);
    // 列 1 is selected, and Escape is still the dialog's (CodeMirror's own Escape, which only
    // collapsed the selection, is off): it asks about the unsaved text; Escape again stays.
    const ask = page.getByRole('dialog', { name: '放弃未保存的修改？' });
    await page.keyboard.press('Escape');
    await expect(ask).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(ask).toBeHidden();
    expect(await editorText(editor)).toBe(expected);

    await page.keyboard.press('Control+s');
    await expect(page.locator('.mantine-Notification-root', { hasText: '保存成功' })).toBeVisible();
    await expect(overlay.getByTestId('editor-unsaved')).toHaveCount(0);
    expect(calls).toHaveLength(1);
    expect(await download(request, user, id)).toBe(expected);
    await page.keyboard.press('Escape');
    await expect(overlay).toBeHidden();

    // 768 px: 编辑 / 预览 tabs, one pane at a time.
    await page.setViewportSize({ width: 768, height: 1024 });
    await row(page, '导览.md').dblclick();
    await expect(overlay.getByRole('tab', { name: '编辑' })).toBeVisible();
    await expect(editorPane).toBeVisible();
    await expect(preview).toBeHidden();
    await overlay.getByRole('tab', { name: '预览' }).click();
    await expect(preview).toBeVisible();
    await expect(editorPane).toBeHidden();
    await expect(preview.locator('strong')).toHaveText('国宝');
    await page.keyboard.press('Escape');
    await expect(overlay).toBeHidden();

    // Not editable (其他资源): the preview only — no toolbar, no editor, no tabs, no 保存.
    await page.setViewportSize({ width: 1024, height: 768 });
    const name = `只读导览${Date.now().toString(36)}`;
    await put(request, user, `${name}.md`, '# 馆内导览\n\n- 一层\n- 二层\n', LIBRARY);
    await openDrive(page, OTHER_RESOURCE);
    await row(page, `${name}.md`).dblclick();
    await expect(preview.getByRole('heading', { name: '馆内导览' })).toBeVisible();
    await expect(preview.locator('li')).toHaveText(['一层', '二层']);
    await expect(overlay.getByTestId('markdown-toolbar')).toHaveCount(0);
    await expect(editorPane).toHaveCount(0);
    await expect(overlay.getByRole('tab')).toHaveCount(0);
    await expect(overlay.getByTestId('editor-save')).toHaveCount(0);
    await expect(overlay.getByTestId('editor-readonly')).toBeVisible();
    await page.keyboard.press('Control+s');
    await expect(
      page.locator('.mantine-Notification-root', { hasText: '当前为只读模式，不能保存' }),
    ).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(overlay).toBeHidden();
    expect(calls).toHaveLength(1);
  });
});
