import { expect, test, type APIRequestContext } from '@playwright/test';
import { driveApi } from './drive-helpers';
import { signIn, tokenOf } from './helpers';

/**
 * Task files, the associate picker, the description, members and progress (issue 9): 刘洋
 * uploads a file to a task, links a file of his drive (seeded through the drive API) and a file
 * of the project, downloads one, deletes one after the confirmation; the picker's rule and the
 * duplicate-drive-file refusal show; the progress page lists the project.
 */

async function museum<T>(request: APIRequestContext, token: string, path: string, data: unknown) {
  const res = await request.post(`/singleMuseum${path}`, { headers: { token }, data });
  const body = (await res.json()) as { success: boolean; message: string; result: T };
  expect(body.success, `${path}: ${body.message}`).toBe(true);
  return body.result;
}

test('a task takes uploads and drive and project files, downloads and deletes them; progress lists the project', async ({
  page,
  request,
}) => {
  const stamp = Date.now().toString(36);
  const projectName = `文件测试项目${stamp}`;
  await signIn(page, 'staff05');
  const token = await tokenOf(page);

  // A project with a task, and a file in 刘洋's drive, through the APIs.
  const project = await museum<{ projectId: number }>(request, token, '/project/add', {
    name: projectName,
    type: 'other',
  });
  const board = await request.get('/singleMuseum/project/board', {
    headers: { token },
    params: { projectId: project.projectId },
  });
  const blockId = ((await board.json()).result as { blocks: { blockId: number }[] }).blocks[0]!.blockId;
  const task = await museum<{ taskId: number }>(request, token, '/projectTask/addProjectTask', {
    taskName: '布展资料',
    blockId,
  });
  const folder = `项目资料${stamp}`;
  const drive = driveApi(request, token);
  await drive.mkdir('/', folder);
  const listBytes = Buffer.from('展品清单：青铜鼎、玉璧\n');
  await drive.put(`/${folder}/`, '展品清单.txt', listBytes);

  await page.goto(`/project/sub?projectId=${project.projectId}&taskId=${task.taskId}`);
  const dialog = page.getByRole('dialog', { name: `${projectName} / 待办` });
  const files = dialog.getByTestId('task-files');
  await expect(files.getByText('暂无文件')).toBeVisible();

  // Upload: the attachment, then bound to the task.
  await files.locator('input[type=file]').setInputFiles({
    name: '布展方案.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4 布展方案'),
  });
  await expect(files.getByTestId('task-file').filter({ hasText: '布展方案.pdf' })).toContainText('上传');

  // From the drive: browse into the folder and pick the file; it keeps its source.
  await files.getByRole('button', { name: '从网盘关联' }).click();
  const drivePicker = page.getByTestId('drive-file-picker');
  await drivePicker.getByText(folder).click();
  await drivePicker.getByRole('button', { name: '选择 展品清单.txt' }).click();
  const fromDrive = files.getByTestId('task-file').filter({ hasText: '展品清单.txt' });
  await expect(fromDrive).toContainText('网盘');
  // The same drive file again is refused in the picker, which stays open with the reason.
  await files.getByRole('button', { name: '从网盘关联' }).click();
  await drivePicker.getByText(folder).click();
  await drivePicker.getByRole('button', { name: '选择 展品清单.txt' }).click();
  await expect(drivePicker.getByRole('alert')).toHaveText('该文件已在本项目中，请从项目文件关联');
  await page.getByRole('dialog', { name: '从网盘选择' }).getByRole('button', { name: '关闭' }).click();
  await expect(drivePicker).toBeHidden();

  // From the project: the picker (700 px, 关联) refuses confirming without a file, or with a project.
  await files.getByRole('button', { name: '从项目文件关联' }).click();
  const picker = page.getByRole('dialog', { name: '关联' });
  await picker.getByRole('button', { name: '确定' }).click();
  await expect(picker.getByRole('alert')).toHaveText('请选择要关联的文件');
  await picker.getByTestId('picker-item').filter({ hasText: projectName }).click();
  await picker.getByRole('button', { name: '确定' }).click();
  await expect(picker.getByRole('alert')).toHaveText('请选择要关联的文件');
  // The search box filters by name; a file of the project then links.
  await picker.getByPlaceholder('搜索项目文档').fill('布展');
  await expect(picker.getByTestId('picker-item').filter({ hasText: '展品清单.txt' })).toHaveCount(0);
  await picker.getByTestId('picker-item').filter({ hasText: projectName }).click();
  await picker.getByTestId('picker-item').filter({ hasText: '布展方案.pdf' }).click();
  await picker.getByRole('button', { name: '确定' }).click();
  await expect(picker).toBeHidden();
  await expect(files.getByTestId('task-file').filter({ hasText: '项目' })).toContainText('布展方案.pdf');
  await expect(files.getByTestId('task-file')).toHaveCount(3);

  // Download: the drive file's bytes come back as they were.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    fromDrive.getByRole('link', { name: '下载：展品清单.txt' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('展品清单.txt');
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  expect(Buffer.concat(chunks).equals(listBytes)).toBe(true);

  // Delete asks first; cancelling keeps the file, confirming removes it.
  await fromDrive.getByRole('button', { name: '删除文件：展品清单.txt' }).click();
  const confirm = page.getByRole('dialog', { name: '删除文件' });
  await expect(confirm).toContainText('确定删除文件「展品清单.txt」吗？');
  await confirm.getByRole('button', { name: '取消' }).click();
  await expect(fromDrive).toBeVisible();
  await fromDrive.getByRole('button', { name: '删除文件：展品清单.txt' }).click();
  await confirm.getByRole('button', { name: '删除' }).click();
  await expect(page.getByText('删除文件成功')).toBeVisible();
  await expect(files.getByTestId('task-file')).toHaveCount(2);
  await expect(dialog.getByTestId('task-history')).toContainText('删除了文件「展品清单.txt」');

  // The description: the rich-text editor, saved once, shown as text.
  const description = dialog.getByTestId('task-description');
  await description.getByRole('button', { name: '编辑' }).click();
  await description.locator('.ProseMirror').fill('按展厅顺序布置展品');
  await description.getByRole('button', { name: '保存描述' }).click();
  await expect(description.getByRole('button', { name: '保存描述' })).toBeHidden();
  await expect(description).toContainText('按展厅顺序布置展品');
  await expect(dialog.getByTestId('task-history')).toContainText('修改了任务描述');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Members from the board header: find 孙悦, add, then remove after the confirmation.
  await page.getByTestId('project-members').click();
  const members = page.getByTestId('members-dialog');
  await members.getByPlaceholder('按姓名搜索同事').fill('孙悦');
  await members.getByRole('button', { name: '添加 孙悦' }).click();
  await expect(members.getByTestId('member').filter({ hasText: '孙悦' })).toBeVisible();
  await expect(members.getByRole('button', { name: '添加 孙悦' })).toBeDisabled();
  await members.getByRole('button', { name: '移除：孙悦' }).click();
  await page.getByRole('dialog', { name: '移除成员' }).getByRole('button', { name: '移除' }).click();
  await expect(members.getByTestId('member').filter({ hasText: '孙悦' })).toHaveCount(0);
  await expect(members.getByTestId('member')).toHaveCount(1);
  await page.keyboard.press('Escape');

  // Progress: the project with its one open task, by assignee (nobody).
  await page.goto('/approve/project-progress');
  const card = page.getByTestId('progress-card').filter({ hasText: projectName });
  await expect(card).toContainText('任务 1');
  await expect(card).toContainText('未完成 1');
  await expect(card.getByTestId('progress-by-assignee')).toContainText('未分配');
});
