import { expect, test, type APIRequestContext } from '@playwright/test';
import { contextAction, driveApi, openDrive, row } from './drive-helpers';
import { signIn, tokenOf } from './helpers';

/**
 * Task files, the associate picker, the description, members and progress (issue 9): 刘洋
 * uploads a file to a task, links a file of his drive (seeded through the drive API), downloads
 * it, deletes it after the confirmation; the picker's rules show; the progress page lists the
 * project. The second test: the project's documents (a folder, an upload, associating a
 * document to a task) and 移动到项目 from the drive page.
 */

async function museum<T>(request: APIRequestContext, token: string, path: string, data: unknown) {
  const res = await request.post(`/singleMuseum${path}`, { headers: { token }, data });
  const body = (await res.json()) as { success: boolean; message: string; result: T };
  expect(body.success, `${path}: ${body.message}`).toBe(true);
  return body.result;
}

test('a task takes uploads and drive files, downloads and deletes them; the picker rules; progress lists the project', async ({
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
  // The picker (700 px, 关联) over the project documents refuses confirming without a file, or
  // with a project; the search box filters by name (the documents themselves: the next test).
  await files.getByRole('button', { name: '从项目文档关联' }).click();
  const picker = page.getByRole('dialog', { name: '关联' });
  await picker.getByRole('button', { name: '确定' }).click();
  await expect(picker.getByRole('alert')).toHaveText('请选择要关联的文件');
  await picker.getByTestId('picker-item').filter({ hasText: projectName }).click();
  await picker.getByRole('button', { name: '确定' }).click();
  await expect(picker.getByRole('alert')).toHaveText('请选择要关联的文件');
  await picker.getByRole('button', { name: '取消' }).click();
  await expect(picker).toBeHidden();
  await expect(files.getByTestId('task-file')).toHaveCount(2);

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
  await expect(files.getByTestId('task-file')).toHaveCount(1);
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

test('project documents: a folder and an upload, a document joins a task, a drive file moves in', async ({
  page,
  request,
}) => {
  const stamp = Date.now().toString(36);
  const projectName = `文档项目${stamp}`;
  await signIn(page, 'staff05');
  const token = await tokenOf(page);
  const project = await museum<{ projectId: number }>(request, token, '/project/add', {
    name: projectName,
    type: 'exhibition',
  });
  const board = await request.get('/singleMuseum/project/board', {
    headers: { token },
    params: { projectId: project.projectId },
  });
  const blockId = ((await board.json()).result as { blocks: { blockId: number }[] }).blocks[0]!.blockId;
  const task = await museum<{ taskId: number }>(request, token, '/projectTask/addProjectTask', {
    taskName: '出图',
    blockId,
  });
  const drive = driveApi(request, token);
  const planName = `平面图${stamp}.txt`;
  await drive.put('/', planName, Buffer.from('一层平面图'));

  // The 项目文档 tab: empty, then a folder (the drive's name rule first), then an upload inside it.
  await page.goto(`/project/sub?projectId=${project.projectId}`);
  await page.getByRole('tab', { name: '项目文档' }).click();
  const docs = page.getByTestId('project-docs');
  await expect(docs.getByText('暂无项目文档')).toBeVisible();
  await docs.getByTestId('docs-new-folder').click();
  const naming = page.getByRole('dialog', { name: '新建文件夹' });
  await naming.getByLabel('文件夹名称').fill('设计/稿');
  await naming.getByRole('button', { name: '确定' }).click();
  await expect(naming).toContainText('文件夹名称不能包含');
  await naming.getByLabel('文件夹名称').fill('设计稿');
  await naming.getByRole('button', { name: '确定' }).click();
  await expect(naming).toBeHidden();
  await docs.getByRole('button', { name: '设计稿', exact: true }).click();
  await expect(page).toHaveURL(/view=docs/);
  await expect(docs.getByTestId('docs-breadcrumb')).toContainText('设计稿');
  await docs.locator('input[type=file]').setInputFiles({
    name: '展线.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('展线方案'),
  });
  await expect(docs.getByTestId('docs-row').filter({ hasText: '展线.txt' })).toBeVisible({ timeout: 15_000 });

  // The task dialog links it from the picker, searched by name: a copy, source 项目.
  await page.goto(`/project/sub?projectId=${project.projectId}&taskId=${task.taskId}`);
  const files = page.getByRole('dialog', { name: `${projectName} / 待办` }).getByTestId('task-files');
  await files.getByRole('button', { name: '从项目文档关联' }).click();
  const picker = page.getByRole('dialog', { name: '关联' });
  // The search applies after its debounce and starts the columns over: wait for its answer.
  const searched = page.waitForResponse(
    (r) =>
      r.url().includes('/projectTask/taskGetFileList') && (r.request().postData() ?? '').includes('展线'),
  );
  await picker.getByPlaceholder('搜索项目文档').fill('展线');
  await searched;
  await picker.getByTestId('picker-item').filter({ hasText: projectName }).click();
  await picker.getByTestId('picker-item').filter({ hasText: '设计稿' }).click();
  await picker.getByTestId('picker-item').filter({ hasText: '展线.txt' }).click();
  await picker.getByRole('button', { name: '确定' }).click();
  await expect(picker).toBeHidden();
  await expect(files.getByTestId('task-file').filter({ hasText: '展线.txt' })).toContainText('项目');
  await page.keyboard.press('Escape');

  // The drive: 移动到项目 asks for a folder or project, then moves the file out of my drive.
  await openDrive(page);
  await contextAction(page, planName, '移动到项目');
  const mover = page.getByRole('dialog', { name: '移动到' });
  await mover.getByRole('button', { name: '确定' }).click();
  await expect(mover.getByRole('alert')).toHaveText('请选择文件夹或项目');
  await mover.getByTestId('picker-item').filter({ hasText: projectName }).click();
  await mover.getByTestId('picker-item').filter({ hasText: '设计稿' }).click();
  await mover.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('已移动 1 项到项目文档')).toBeVisible();
  await expect(row(page, planName)).toHaveCount(0);
  expect(await drive.names('/设计稿/', { projectId: project.projectId })).toEqual(
    [planName, '展线.txt'].sort(),
  );
});
