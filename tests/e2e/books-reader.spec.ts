import { expect, test, type APIRequestContext } from '@playwright/test';
import { axeSerious } from './axe';
import { ADMIN_PASSWORD, signIn } from './helpers';
import { signInApi } from './users';

/*
 * The readers' pages of book lending (issue 22; README "Book lending"), at tablet size: a reader
 * finds a book by its title, sees 可借 n / 馆藏 m, asks to borrow it (the dialog opens on the
 * server's pre-check with 借期 at the rule's longest), and asking again is refused in the
 * server's own words; 我的借阅 shows the request with 取消 and nothing else, and reads well on a
 * phone (a screenshot for the lead), both without serious axe findings. Offline, the pages say 离线 with the sync time and the
 * button says the request needs the network. The rules themselves are API tests
 * (tests/server/books.test.ts); the full journey with the librarian is the lead's.
 */

const M = '/singleMuseum';

// axe-core is injected into the page (tests/e2e/axe.ts); our CSP rightly refuses inline scripts.
test.use({ bypassCSP: true });

/** An ISBN-13 of twelve digits and their check digit. */
function isbn13(twelve: string): string {
  const sum = [...twelve].reduce((a, c, i) => a + Number(c) * (i % 2 ? 3 : 1), 0);
  return `${twelve}${(10 - (sum % 10)) % 10}`;
}

async function addBook(api: APIRequestContext, token: string, data: Record<string, unknown>) {
  const res = await api.post(`${M}/book/bsBookInfo/add`, { headers: { token }, data });
  const body = await res.json();
  expect(body.success, body.message).toBe(true);
  return body.result.id as number;
}

test('a reader finds a book, asks to borrow it, sees it in 我的借阅, and offline is told', async ({
  page,
  request,
  context,
}) => {
  const admin = (await signInApi(request, 'admin', ADMIN_PASSWORD)).token;
  const tag = Date.now().toString(36).slice(-5);
  const title = `青铜器修复手记${tag}`;
  await addBook(request, admin, {
    type: 1,
    title,
    author: '王振',
    publisher: '文物出版社',
    isbn: isbn13(`978750100${String(Date.now()).slice(-3)}`),
    clcNo: 'K876.41',
    location: '资料室 3 架 2 层',
    totalCount: 2,
    lendMode: 1,
  });

  await signIn(page, 'admin');
  await page.goto('/books/book');
  const searched = page.waitForResponse((r) => r.url().includes(`keyword=${tag}`));
  await page.getByRole('textbox', { name: '搜索题名、责任者、ISBN' }).fill(tag);
  await searched;
  const tile = page.getByTestId('book-tile').filter({ hasText: title });
  await expect(tile).toHaveCount(1);
  await expect(tile.getByTestId('book-copies')).toHaveText('可借 2 / 馆藏 2');
  // Once settled: a spinner's label on a plain span is the shared loader's, not these pages'.
  await expect(page.locator('.mantine-Loader-root')).toHaveCount(0);
  expect(await axeSerious(page)).toEqual([]);

  // Ask: the dialog opens on the pre-check with the longest loan and the due date it gives.
  await tile.getByRole('button', { name: `借阅《${title}》` }).click();
  const dialog = page.getByRole('dialog', { name: `借阅申请：《${title}》` });
  await expect(dialog.getByLabel('借期(天)')).toHaveValue('30');
  await expect(dialog).toContainText('若今天取书，应还日期为');
  await dialog.getByLabel('用途').fill('青铜展布展资料');
  await dialog.getByRole('button', { name: '提交借阅申请' }).click();
  await expect(page.getByText('已提交借阅申请，请等待审批')).toBeVisible();
  await expect(dialog).toHaveCount(0);

  // Asking again: the pre-check's refusal in the server's words, no form.
  await tile.getByRole('button', { name: `借阅《${title}》` }).click();
  await expect(page.getByTestId('apply-refused')).toContainText(`您已申请过《${title}》，正在等待审批`);
  await expect(page.getByTestId('apply-form')).toHaveCount(0);
  await page.getByRole('button', { name: '知道了' }).click();

  // 我的借阅: the request, waiting, with 取消 and nothing else.
  await page.goto('/books/borrow-record');
  const card = page.getByTestId('own-card').filter({ hasText: title });
  await expect(card).toHaveAttribute('data-status', '1');
  await expect(card.getByRole('button')).toHaveText([`《${title}》`, '取消申请']);
  await expect(card.getByRole('button', { name: `取消申请《${title}》` })).toBeVisible();
  await expect(page.getByTestId('own-tab-1')).toContainText(/待审批 [1-9]/);

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(card).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('my-loans-phone.png'), fullPage: true });
  expect(await axeSerious(page)).toEqual([]);

  // Offline: the list stays with 离线 and its sync time; requests say they need the network.
  await page.setViewportSize({ width: 1024, height: 768 });
  await context.setOffline(true);
  await expect(page.getByTestId('offline-mark')).toBeVisible();
  await expect(page.getByTestId('last-sync')).toContainText('最后同步');
  await expect(card.getByRole('button', { name: `取消申请《${title}》（需要联网）` })).toBeDisabled();
  await page.getByRole('link', { name: '图书查阅' }).click();
  await expect(page.getByTestId('books-offline')).toBeVisible();
  await context.setOffline(false);
});
