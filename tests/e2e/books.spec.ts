import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO_PASSWORD, signIn } from './helpers';
import { signInApi } from './users';

/*
 * Book lending's journey (issue 22), at tablet size, two people on two devices against the real
 * server: 王芳 (办公室, no role: every member of staff reads by 普通员工) finds a book on 图书查阅
 * and asks to borrow it; 陈静 (典藏管理员) approves it on 借阅审批 and marks it picked up; 王芳
 * asks for a renewal on 我的借阅, and the outcome reaches her bell; 陈静 agrees on 续借审批 and
 * takes the book back, which puts the copy back on the shelf. Each rule of the way is an API
 * test (tests/server/books*.test.ts); the readers' pages offline and the import's 1004 dialog
 * are books-reader.spec.ts and books-admin.spec.ts.
 */

const M = '/singleMuseum';

async function api(request: APIRequestContext, token: string, path: string) {
  const body = await (await request.get(`${M}${path}`, { headers: { token } })).json();
  expect(body.success, body.message).toBe(true);
  return body.result;
}

/** A row of a librarian's queue, by the book's title. */
const queueRow = (page: Page, title: string) => page.getByTestId('record-row').filter({ hasText: title });

test('a reader borrows a book; the librarian approves, hands it out, agrees to a renewal and takes it back', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const librarian = (await signInApi(request, 'staff04', DEMO_PASSWORD)).token;
  const tag = Date.now().toString(36).slice(-5);
  const title = `石窟寺考古报告${tag}`;
  const added = await (
    await request.post(`${M}/book/bsBookInfo/add`, {
      headers: { token: librarian },
      data: {
        type: 1,
        title,
        author: '宿白',
        publisher: '文物出版社',
        clcNo: 'K879.2',
        location: '资料室 2 架 1 层',
        totalCount: 1,
        lendMode: 1,
      },
    })
  ).json();
  expect(added.success, added.message).toBe(true);
  const bookId = added.result.id as number;

  // 王芳 finds the book through the menu and asks for it for 14 days.
  await page.setViewportSize({ width: 1024, height: 768 });
  await signIn(page, 'staff02');
  await page.locator('[data-module="book"]').click();
  await page.getByTestId('side-menu').getByText('图书查阅').click();
  await expect(page).toHaveURL(/\/books\/book$/);
  await page.getByRole('textbox', { name: '搜索题名、责任者、ISBN' }).fill(tag);
  const tile = page.getByTestId('book-tile').filter({ hasText: title });
  await expect(tile.getByTestId('book-copies')).toHaveText('可借 1 / 馆藏 1');
  await tile.getByRole('button', { name: `借阅《${title}》` }).click();
  const ask = page.getByRole('dialog', { name: `借阅申请：《${title}》` });
  await ask.getByLabel('借期(天)').fill('14');
  await ask.getByLabel('用途').fill('石窟展图录编写');
  await ask.getByRole('button', { name: '提交借阅申请' }).click();
  await expect(page.getByText('已提交借阅申请，请等待审批')).toBeVisible();

  // 陈静, on her own tablet: the request waits on 借阅审批; she approves and hands it out.
  const desk = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  const lib = await desk.newPage();
  await signIn(lib, 'staff04');
  await lib.goto('/books/borrow-management');
  const row = queueRow(lib, title);
  await expect(row).toContainText('待审批');
  await row.getByRole('button', { name: '通过', exact: true }).click();
  await lib.getByRole('dialog').getByRole('button', { name: '通过', exact: true }).click();
  await expect(row).toContainText('已通过');
  await row.getByRole('button', { name: '确认取书' }).click();
  await lib.getByRole('dialog').getByRole('button', { name: '确认取书' }).click();
  await expect(row).toContainText('借阅中');
  expect(await api(request, librarian, `/book/bsBookInfo/detail?id=${bookId}`)).toMatchObject({
    record: { totalCount: 1, reservedCount: 0, lentCount: 1 },
  });

  // 王芳's 我的借阅: on loan with its due date; she asks for 7 more days.
  await page.goto('/books/borrow-record');
  const card = page.getByTestId('own-card').filter({ hasText: title });
  await expect(card).toHaveAttribute('data-status', '5');
  await expect(card).toContainText('应还日期');
  await card.getByRole('button', { name: `申请续借《${title}》` }).click();
  const renew = page.getByRole('dialog', { name: '申请续借' });
  await renew.getByLabel('续借天数').fill('7');
  await renew.getByLabel('续借原因').fill('图录校对未完');
  await renew.getByRole('button', { name: '提交续借申请' }).click();
  await expect(page.getByText('已提交续借申请，请等待审批')).toBeVisible();
  await expect(card).toHaveAttribute('data-status', '6');

  // 陈静 agrees on 续借审批; 王芳's bell says so, with the new due date.
  await lib.goto('/books/delay-management');
  const renewal = queueRow(lib, title);
  await renewal.getByRole('button', { name: '同意续借' }).click();
  await lib.getByRole('dialog').getByRole('button', { name: '同意续借' }).click();
  await expect(renewal).toHaveCount(0);
  const loan = (
    await api(request, librarian, `/book/bsBookApproval/pageListAdmin?bookId=${bookId}&pageCount=10`)
  ).list[0] as { dueDate: string; deferCount: number; status: number };
  expect(loan).toMatchObject({ status: 5, deferCount: 1 });
  await page.getByTestId('notice-centre').click();
  await expect(page.getByTestId('notice-row').filter({ hasText: title }).first()).toContainText(
    `延期 7 天已同意，应还日期改为 ${loan.dueDate}`,
  );
  await page.getByTestId('notice-centre').click();

  // The return: back on 借阅审批, 归还 (完好) puts the copy back on the shelf.
  await lib.goto('/books/borrow-management');
  await queueRow(lib, title).getByRole('button', { name: '归还', exact: true }).click();
  await lib.getByRole('dialog').getByRole('button', { name: '归还', exact: true }).click();
  await expect(queueRow(lib, title)).toContainText('已归还');
  await page.goto('/books/book');
  await page.getByRole('textbox', { name: '搜索题名、责任者、ISBN' }).fill(tag);
  await expect(
    page.getByTestId('book-tile').filter({ hasText: title }).getByTestId('book-copies'),
  ).toHaveText('可借 1 / 馆藏 1');
  await desk.close();
});
