import { expect, test } from '@playwright/test';
import { signIn } from './helpers';
import { createDriveUser } from './users';

/*
 * The staff directory and the workbench schedule (issue 7), in one lean run: an administrator
 * adds a contact on 通讯录管理; a member of staff finds it on 通讯录 by its number; then, on the
 * workbench, adds an item to today's schedule and edits it. The person is made for the test,
 * so no other spec's workbench gains an item.
 */

test('admin adds a contact; staff finds it in the directory, then adds and edits a schedule item', async ({
  page,
  browser,
  request,
}) => {
  const staff = await createDriveUser(request, { prefix: 'dir' });

  await signIn(page, 'admin');
  await page.goto('/oa/address-book-management');
  await page.getByRole('button', { name: '新增联系人' }).click();
  const dialog = page.getByRole('dialog', { name: '新增联系人' });
  await dialog.getByRole('button', { name: '保存' }).click();
  // The shared rules answer in the form, before anything is sent.
  await expect(dialog.getByText('请输入姓名')).toBeVisible();
  await dialog.getByLabel('姓名').fill('东门安保值班室');
  await dialog.getByLabel('职务').fill('24小时值班');
  await dialog.getByLabel('办公电话').fill('010-66668888');
  await dialog.getByRole('combobox', { name: '部门' }).click();
  await page.getByRole('option', { name: '办公室', exact: true }).click();
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog).toBeHidden();
  const added = page.getByTestId('address-book-row').filter({ hasText: '东门安保值班室' });
  await expect(added).toContainText('010-66668888');
  await expect(added).toContainText('外部联系人');

  const context = await browser.newContext({ locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  const mine = await context.newPage();
  await signIn(mine, staff.account, staff.password);
  await mine.goto('/home/address-book');
  await expect(mine.getByTestId('directory-entry').first()).toBeVisible();
  await mine.getByRole('searchbox', { name: '搜索' }).fill('6666 8888');
  const card = mine.getByTestId('directory-entry');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('东门安保值班室');
  await expect(card).toContainText('24小时值班 · 办公室');
  await expect(card.getByRole('link', { name: /010-66668888/ })).toHaveAttribute('href', 'tel:01066668888');

  await mine.goto('/home/workbench');
  const today = mine.getByTestId('today-schedule');
  await expect(today.getByTestId('schedule-heading')).toHaveText('今日日程');
  await expect(today.getByTestId('schedule-empty')).toBeVisible();
  await today.getByRole('button', { name: '新建日程' }).click();
  const editor = mine.getByRole('dialog', { name: '新建日程' });
  await editor.getByLabel('开始时间').fill('08:00');
  await editor.getByLabel('结束时间').fill('07:30');
  await editor.getByRole('button', { name: '保存' }).click();
  await expect(editor.getByText('请输入日程标题')).toBeVisible();
  await expect(editor.getByText('结束时间不能早于开始时间')).toBeVisible();
  await editor.getByLabel('标题').fill('库房巡检');
  await editor.getByLabel('结束时间').fill('09:00');
  await editor.getByLabel('地点').fill('二号库房');
  await editor.getByRole('button', { name: '保存' }).click();
  await expect(editor).toBeHidden();
  const item = today.getByTestId('schedule-item');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('08:00–09:00');
  await expect(item).toContainText('库房巡检');
  await expect(item).toContainText('二号库房');

  await item.click();
  const edit = mine.getByRole('dialog', { name: '编辑日程' });
  await expect(edit.getByLabel('标题')).toHaveValue('库房巡检');
  await edit.getByLabel('标题').fill('库房巡检（复核）');
  await edit.getByLabel('开始时间').fill('08:30');
  await edit.getByRole('button', { name: '保存' }).click();
  await expect(edit).toBeHidden();
  await expect(item).toContainText('08:30–09:00');
  await expect(item).toContainText('库房巡检（复核）');
  // The server agrees after a reload, not only the optimistic view.
  await mine.reload();
  await expect(today.getByTestId('schedule-item')).toContainText('库房巡检（复核）');
  await context.close();
});
