import { expect, test, type Locator, type Page } from '@playwright/test';
import { contextAction, row } from './drive-helpers';
import { signIn } from './helpers';
import { freshDrive, sourceFile, uploadItem } from './upload-helpers';

/*
 * Layout and wording found at tablet and phone size (issue 17 §5), as a person meets them on a
 * 1024 × 768 tablet and a 390 × 844 phone: the rail, the phone's menu drawer, the side menu's
 * entries and grouping, the drive's upload panel, its view toggles and the rename field.
 * Screenshots of each size are kept under test-results/e2e/ (the CI artefacts).
 */

const TABLET = { width: 1024, height: 768 };
const PHONE = { width: 390, height: 844 };

type Box = { x: number; y: number; width: number; height: number };
async function box(l: Locator): Promise<Box> {
  const b = await l.boundingBox();
  if (!b) throw new Error('not laid out');
  return b;
}
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * True when a tap at the element's centre lands on the element itself. Polled: a passing toast
 * (上传完成, 重命名成功) may cover the toolbar for a moment, and that is not the panel.
 */
async function expectOnTop(l: Locator) {
  await expect
    .poll(() =>
      l.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return hit !== null && (el === hit || el.contains(hit));
      }),
    )
    .toBe(true);
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
}

test('the shell at 1024×768 and 390×844: the rail fits or says it scrolls, the drawer has no blank panel, entries are links', async ({
  page,
}) => {
  await page.setViewportSize(TABLET);
  await signIn(page, 'admin');
  const rail = page.getByTestId('module-rail');
  // All 13 modules fit a 768 px tablet: 系统管理 is whole, and nothing says "more".
  const system = rail.locator('[data-module="system"]');
  await expect(system).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('rail-more-down')).toBeHidden();
  await shot(page, 'tablet-workbench');

  // A shorter window: the rail scrolls, and its cut edge says so; the arrow scrolls it on.
  await page.setViewportSize({ width: 1024, height: 600 });
  await expect(page.getByTestId('rail-more-down')).toBeVisible();
  await expect(system).not.toBeInViewport({ ratio: 1 });
  await shot(page, 'short-rail-cut');
  await page.getByTestId('rail-more-down').click();
  await expect(system).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('rail-more-up')).toBeVisible();
  await expect(page.getByTestId('rail-more-down')).toBeHidden();
  await page.setViewportSize(TABLET);

  // 办公行政: the summaries are under 考勤, and side-menu entries are links.
  await rail.locator('[data-module="oa"]').click();
  const menu = page.getByTestId('side-menu');
  await menu.getByRole('button', { name: '考勤' }).click();
  const summary = menu.getByRole('link', { name: '个人汇总' });
  await expect(summary).toHaveAttribute('href', '/approve/personal-summary');
  await expect(menu.getByRole('link', { name: '部门汇总' })).toHaveAttribute(
    'href',
    '/approve/department-summary',
  );
  await menu.getByRole('button', { name: '项目管理' }).click();
  await expect(menu.getByRole('link', { name: '项目进度' })).toBeVisible();
  // Under 项目管理 only the project pages (the summaries are not there twice).
  await expect(menu.getByRole('link', { name: '个人汇总' })).toHaveCount(1);
  await summary.click();
  await expect(page).toHaveURL(/\/approve\/personal-summary$/);
  await expect(summary).toHaveAttribute('aria-current', 'page');
  await shot(page, 'tablet-oa-menu');

  // 数据管理 and 数据审核 share /data/manage: the query decides which is lit and titled.
  await rail.locator('[data-module="resources"]').click();
  const review = menu.getByRole('link', { name: '数据审核' });
  await expect(review).toHaveAttribute('href', '/data/manage?role=2');
  await review.click();
  await expect(page.getByRole('heading', { name: '数据审核', level: 3 })).toBeVisible();
  await expect(review).toHaveAttribute('aria-current', 'page');
  await expect(menu.getByRole('link', { name: '数据管理' })).not.toHaveAttribute('aria-current', 'page');
  await menu.getByRole('link', { name: '数据管理' }).click();
  await expect(page.getByRole('heading', { name: '数据管理', level: 3 })).toBeVisible();
  await expect(review).not.toHaveAttribute('aria-current', 'page');

  // The phone: the menu drawer is as wide as what it holds, never a blank half screen.
  await page.setViewportSize(PHONE);
  await page.goto('/home/workbench');
  await expect(rail).toBeHidden();
  await page.getByRole('button', { name: '菜单' }).click();
  const drawer = page.getByRole('dialog', { name: '菜单' });
  await expect(drawer.getByTestId('module-rail')).toBeVisible();
  await expect(drawer.getByTestId('module-panel')).toHaveCount(0);
  const railBox = await box(drawer.getByTestId('module-rail'));
  await expect.poll(async () => Math.round((await box(drawer)).width)).toBe(Math.round(railBox.width));
  await shot(page, 'phone-drawer');
  await drawer.locator('[data-module="oa"]').click();
  await expect(drawer.getByTestId('side-menu')).toBeVisible();
  // Rail and panel fill the drawer side by side: no empty strip.
  await expect
    .poll(async () => {
      const [d, p] = [await box(drawer), await box(drawer.getByTestId('module-panel'))];
      return Math.round(d.x + d.width - (p.x + p.width));
    })
    .toBeLessThanOrEqual(1);
  await shot(page, 'phone-drawer-oa');
  await drawer.getByRole('button', { name: '考勤' }).click();
  await drawer.getByRole('link', { name: '个人考勤' }).click();
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(/\/approve\/view-person$/);
});

test('the drive at 1024×768 and 390×844: the upload panel covers nothing; view toggles and the rename field', async ({
  page,
  request,
}) => {
  await page.setViewportSize(TABLET);
  await freshDrive(page, request);
  const files = [1, 2, 3, 4, 5, 6].map((n) => sourceFile(`展品说明${n}.txt`, 200 + n));
  const uploadButton = page.locator('[data-action="upload"]');
  await uploadButton.click();
  const panel = page.getByTestId('upload-panel');
  await expect(panel).toBeVisible();
  await page.getByTestId('upload-input-files').setInputFiles(files.map((f) => f.path));
  for (const f of files)
    await expect(uploadItem(page, f.name)).toHaveAttribute('data-state', 'success', { timeout: 30_000 });
  await expect(row(page, '展品说明6.txt')).toBeVisible();

  // The panel takes its own room under the list: the list, the toolbar and 上传文件 stay uncovered.
  const list = page.getByTestId('drive-drop');
  expect(overlaps(await box(panel), await box(list))).toBe(false);
  expect(overlaps(await box(panel), await box(uploadButton))).toBe(false);
  await expectOnTop(uploadButton);
  expect((await box(list)).height).toBeGreaterThan(200);
  await expect(panel).toBeInViewport({ ratio: 1 });
  await shot(page, 'tablet-drive-uploads');

  // The look toggles are radios with names, not bare icons.
  const look = page.getByRole('radiogroup', { name: '显示方式' });
  for (const name of ['列表视图', '小图标', '大图标'])
    await expect(look.getByRole('radio', { name })).toHaveCount(1);
  await page.getByTestId('view-grid-80').click();
  await expect(look.getByRole('radio', { name: '大图标' })).toBeChecked();
  await expect(page.getByTestId('file-browser')).toHaveAttribute('data-mode', 'grid');
  await page.getByTestId('view-list').click();
  await expect(page.getByTestId('file-browser')).toHaveAttribute('data-mode', 'list');

  // Renaming a file selects its name without the extension: typing keeps .txt.
  await contextAction(page, '展品说明1.txt', '重命名');
  const field = page.getByRole('dialog', { name: '重命名文件' }).getByLabel('文件名称');
  await expect
    .poll(() => field.evaluate((el: HTMLInputElement) => [el.selectionStart, el.selectionEnd]))
    .toEqual([0, '展品说明1'.length]);
  await page.keyboard.type('青铜器说明');
  await page.keyboard.press('Enter');
  await expect(row(page, '青铜器说明.txt')).toBeVisible();

  // The phone: the panel is a strip under a list that still shows rows, and 上传文件 is uncovered.
  await page.setViewportSize(PHONE);
  await expect(panel).toBeVisible();
  await expect(row(page, '展品说明2.txt')).toBeVisible();
  expect(overlaps(await box(panel), await box(list))).toBe(false);
  await expectOnTop(uploadButton);
  expect((await box(list)).height).toBeGreaterThan(120);
  await shot(page, 'phone-drive-uploads');
  // Folded, it is a one-line bar.
  await panel.getByRole('button', { name: '收起上传列表' }).click();
  expect((await box(panel)).height).toBeLessThan(60);
  await shot(page, 'phone-drive-folded');
});
