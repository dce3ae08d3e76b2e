import { expect, test, type Locator, type Page } from '@playwright/test';
import { confirmAndClose, signIn } from './helpers';

/** A valid 1×1 PNG (an image by its bytes, as covers must be). */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/*
 * The content journey (issue 23), in one lean run: an editor (郑凯, staff09, 信息管理员) at tablet
 * size makes two carousel items (each with an uploaded image) and an exhibition with its English
 * row (英文网站 › 展览管理, linked by 对应中文展览), publishes them all, moves the second carousel
 * item up (上移), and opens 预览: at phone size the visitor-eye home shows the carousel in the new
 * order and the exhibition, in Chinese and in English. Taking one carousel item down removes it
 * from the public API at once. The rules themselves are API tests
 * (tests/server/content-public.test.ts).
 *
 * Selectors are the generic list's (新增, 发布, 上移, 下架 and field labels), so they hold for the
 * content pages that replace the interim ones (routes/content-interim.tsx).
 */

const run = Date.now().toString(36).slice(-4);
const FIRST = `春季特展 ${run}`;
const SECOND = `青铜器馆 ${run}`;
const EXHIBITION = `江南织造 ${run}`;
const ENGLISH = `Weaving of Jiangnan ${run}`;

async function uploadImage(page: Page, form: Locator, field: string) {
  const chooser = page.waitForEvent('filechooser');
  await form.getByTestId(`field-${field}`).getByRole('button', { name: '上传图片' }).click();
  await (await chooser).setFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG_1X1 });
  await expect(form.getByTestId(`field-${field}`).getByTestId('record-image')).toHaveCount(1);
}

async function save(page: Page, form: Locator) {
  await form.getByRole('button', { name: '保存' }).click();
  await expect(form).toBeHidden();
}

/** A row's action: inline, or in its 更多 menu (上移, 下移 and some transitions are there). */
async function rowAction(page: Page, title: string, action: string) {
  const row = page.getByTestId('record-row').filter({ hasText: title });
  const inline = row.getByRole('button', { name: action, exact: true });
  if (await inline.count()) await inline.click();
  else {
    await row.getByTestId('row-more').click();
    await page.getByRole('menuitem', { name: action, exact: true }).click();
  }
}

async function transition(page: Page, title: string, action: '发布' | '下架') {
  await rowAction(page, title, action);
  await confirmAndClose(page.getByRole('dialog', { name: `${action}确认` }), action);
  await expect(page.getByTestId('record-row').filter({ hasText: title })).toContainText(
    action === '发布' ? '已发布' : '已下架',
  );
}

async function pickToday(page: Page, form: Locator, label: string) {
  await form.getByRole('button', { name: label, exact: true }).click();
  const day = String(Number(new Date().toLocaleDateString('en-CA', { timeZone: 'Asia/Shanghai' }).slice(8)));
  await page
    .locator('.mantine-DatePickerInput-day:not([data-outside])')
    .filter({ hasText: new RegExp(`^${day}$`) })
    .click();
}

test('an editor publishes a carousel and an exhibition in two languages; the phone preview shows them; a take-down is gone at once', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1024, height: 768 });
  await signIn(page, 'staff09');

  // Two carousel items, each with its image, published; the second moved up.
  await page.goto('/applet-management/carousel');
  for (const title of [FIRST, SECOND]) {
    await page.getByTestId('records-add').click();
    const form = page.getByTestId('record-form');
    await form.getByRole('textbox', { name: '标题', exact: true }).fill(title);
    await uploadImage(page, form, 'images');
    await save(page, form);
    await transition(page, title, '发布');
  }
  await rowAction(page, SECOND, '上移');
  await expect(page.getByTestId('record-row').first()).toContainText(SECOND);

  // The exhibition, and its English row linked to it.
  await page.goto('/applet-management/exhibition');
  await page.getByTestId('records-add').click();
  let form = page.getByTestId('record-form');
  await form.getByRole('textbox', { name: '展览名称', exact: true }).fill(EXHIBITION);
  await uploadImage(page, form, 'cover');
  await pickToday(page, form, '开幕日期');
  await save(page, form);
  await transition(page, EXHIBITION, '发布');

  // Its exhibits from the collection (wenwuSave): found by 总登记号 in the demo museum's 藏品.
  await rowAction(page, EXHIBITION, '展品');
  const exhibits = page.getByTestId('exhibits-dialog');
  await exhibits.getByRole('combobox', { name: '搜索并添加藏品（名称或总登记号）' }).fill('演示总0001');
  await page.getByRole('option', { name: /演示总0001/ }).click();
  await expect(exhibits.getByTestId('exhibit-item')).toHaveCount(1);
  await exhibits.getByRole('textbox', { name: '展柜/展区（可不填）' }).fill('一号展柜');
  await exhibits.getByTestId('exhibits-save').click();
  await expect(exhibits).toBeHidden();
  await rowAction(page, EXHIBITION, '展品');
  await expect(exhibits.getByTestId('exhibit-item')).toContainText('演示总0001');
  await expect(exhibits.getByRole('textbox', { name: '展柜/展区（可不填）' })).toHaveValue('一号展柜');
  await page.getByRole('button', { name: '关闭展品' }).click();

  await page.goto('/en-website/exhibition');
  await page.getByTestId('records-add').click();
  form = page.getByTestId('record-form');
  await form.getByRole('combobox', { name: '对应中文展览' }).fill(run);
  await page.getByRole('option', { name: EXHIBITION }).click();
  await form.getByRole('textbox', { name: '展览名称（英文）', exact: true }).fill(ENGLISH);
  await uploadImage(page, form, 'cover');
  await pickToday(page, form, '开幕日期');
  await save(page, form);
  await transition(page, ENGLISH, '发布');

  // 预览 at phone size: the carousel in its order, the exhibition; then in English.
  await page.goto('/applet-management/carousel');
  const [preview] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('link', { name: '预览' }).click(),
  ]);
  await preview.setViewportSize({ width: 390, height: 844 });
  const titles = preview.getByTestId('carousel-title');
  await expect(titles.filter({ hasText: run })).toHaveText([SECOND, FIRST]);
  await expect(preview.getByTestId('exhibition-card').filter({ hasText: EXHIBITION })).toBeVisible();
  await preview.screenshot({ path: 'test-results/e2e/content-preview-phone-zh.png', fullPage: true });
  await preview.getByText('English', { exact: true }).click();
  await expect(preview.getByTestId('exhibition-card').filter({ hasText: ENGLISH })).toBeVisible();
  await expect(preview.getByTestId('exhibition-card').filter({ hasText: EXHIBITION })).toHaveCount(0);
  await preview.screenshot({ path: 'test-results/e2e/content-preview-phone-en.png', fullPage: true });

  // Taken down: gone from the public API's very next answer (asked without any session), and
  // from the preview.
  await transition(page, FIRST, '下架');
  const answer = await request.get('/singleMuseum/contentPublic/carousel/list?pageSize=50', {
    headers: { 'cache-control': 'no-cache' },
  });
  const shown = ((await answer.json()) as { result: { list: { title: string }[] } }).result.list.map(
    (c) => c.title,
  );
  expect(shown).toContain(SECOND);
  expect(shown).not.toContain(FIRST);
  await preview.getByText('中文', { exact: true }).click();
  await expect(titles.filter({ hasText: run })).toHaveText([SECOND]);
});
