import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { gbk, rawZip, type RawEntry } from '../fixtures/archives/make-archives';
import { ADMIN_PASSWORD, signIn } from './helpers';
import {
  contextAction,
  driveApi,
  menuEntries,
  openDrive,
  row,
  rowNames,
  type DriveApi,
} from './drive-helpers';
import { createDriveUser, signInApi, type TestUser } from './users';

/*
 * Unzip (issue 6 "Tests", end to end): each mode from the file's context menu as a person uses
 * it, the tree checked in the list and through the API, GBK names, merging on a second unzip,
 * broken, encrypted and over-quota archives leaving nothing, where the entry is absent, and a
 * long job followed in a notification that still reports its end after a reload. Archives are
 * made at test time (make-archives.ts); every person is made for the test.
 */

const WAITING = '正在解压缩，请稍等片刻...';
const COVER = '青铜器图录封面\n'.repeat(40);

/** 馆藏.zip: a file at the top, a folder with a file, and a nested folder with a file. */
const COLLECTION: RawEntry[] = [
  { name: '说明.txt', data: Buffer.from('馆藏说明\n'), flags: 0x800 },
  { name: '图录/', flags: 0x800 },
  { name: '图录/封面.txt', data: Buffer.from(COVER), flags: 0x800, deflate: true },
  { name: '图录/内页/第1页.txt', data: Buffer.from('第一页\n'), flags: 0x800 },
];

async function person(page: Page, request: APIRequestContext, prefix: string) {
  const user = await createDriveUser(request, { prefix });
  await signIn(page, user.account, user.password);
  return { user, api: driveApi(request, user.token) };
}

/**
 * Records whether the waiting text was ever on the page: it may show for only a moment, since a
 * small archive answers at once.
 */
async function watchWaiting(page: Page) {
  await page.evaluate((text) => {
    const w = window as unknown as { sawWaiting: boolean };
    w.sawWaiting = false;
    new MutationObserver(() => {
      if (document.body.innerText.includes(text)) w.sawWaiting = true;
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  }, WAITING);
}
const sawWaiting = (page: Page) =>
  page.evaluate(() => (window as unknown as { sawWaiting: boolean }).sawWaiting);

/** Closes the toasts still up, so the next one checked is the next action's own. */
async function clearToasts(page: Page) {
  for (const close of await page.locator('.mantine-Notification-closeButton').all()) {
    // One already closing is gone before it can be clicked: do not wait for it.
    await close.click({ timeout: 1000 }).catch(() => undefined);
  }
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);
}

/** Opens the unzip dialog of a row from its context menu (with no toast left from before). */
async function unzipDialog(page: Page, name: string) {
  await clearToasts(page);
  await contextAction(page, name, '解压缩');
  const dialog = page.getByRole('dialog', { name: '解压缩' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Unzips with mode 0 or 1 and waits for the success toast (in the spec's words). */
async function unzipAtOnce(page: Page, name: string, mode: 0 | 1) {
  const dialog = await unzipDialog(page, name);
  await watchWaiting(page);
  await dialog.locator(`[data-unzip-mode="${mode}"]`).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('解压成功')).toBeVisible();
  expect(await sawWaiting(page)).toBe(true);
}

/** The names the list shows, sorted by code point (the list itself sorts by pinyin). */
async function shownNames(page: Page) {
  return (await rowNames(page)).sort();
}

async function download(request: APIRequestContext, user: TestUser, userFileId: number) {
  const res = await request.get('/wangpan/filetransfer/downloadfile', {
    headers: { token: user.token },
    params: { userFileId },
  });
  expect(res.status()).toBe(200);
  return res.body();
}

/** The whole tree under `filePath` as sorted paths (folders end with '/'). */
async function treeOf(api: DriveApi, filePath: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await api.list(filePath)) {
    const name = e.extendName ? `${e.fileName}.${e.extendName}` : e.fileName;
    if (e.isDir) {
      out.push(`${filePath}${name}/`);
      out.push(...(await treeOf(api, `${filePath}${name}/`)));
    } else out.push(`${filePath}${name}`);
  }
  return out.sort();
}

const unpacked = (at: string) =>
  [`${at}图录/`, `${at}图录/内页/`, `${at}图录/内页/第1页.txt`, `${at}图录/封面.txt`, `${at}说明.txt`].sort();

test('modes 0, 1 and 2 from the context menu; a second unzip merges folders and numbers files', async ({
  page,
  request,
}) => {
  const { user, api } = await person(page, request, 'uzm');
  await api.mkdir('/', '资料');
  await api.mkdir('/', '目标');
  await api.mkdir('/', '将删除');
  await api.put('/资料/', '馆藏.zip', rawZip(COLLECTION));
  await openDrive(page);
  await row(page, '资料').dblclick();
  await expect(row(page, '馆藏.zip')).toBeVisible();

  // Mode 0: into the archive's own folder; the list shows the new entries at once.
  await unzipAtOnce(page, '馆藏.zip', 0);
  await expect.poll(() => shownNames(page)).toEqual(['图录', '说明.txt', '馆藏.zip']);
  expect(await treeOf(api, '/资料/')).toEqual([...unpacked('/资料/'), '/资料/馆藏.zip'].sort());
  await row(page, '图录').dblclick();
  await expect.poll(() => shownNames(page)).toEqual(['内页', '封面.txt']);
  const cover = await api.find('/资料/图录/', '封面');
  expect((await download(request, user, cover.userFileId)).toString()).toBe(COVER);
  await page.getByTestId('breadcrumb').getByRole('button', { name: '资料' }).click();

  // A second mode 0: the folder merges, clashing files become name(1).
  await unzipAtOnce(page, '馆藏.zip', 0);
  await expect.poll(() => shownNames(page)).toEqual(['图录', '说明(1).txt', '说明.txt', '馆藏.zip']);
  expect(await api.names('/资料/图录/')).toEqual(['内页', '封面(1).txt', '封面.txt']);
  expect(await api.names('/资料/图录/内页/')).toEqual(['第1页(1).txt', '第1页.txt']);
  expect(await api.names('/资料/')).toEqual(['图录', '说明(1).txt', '说明.txt', '馆藏.zip']);

  // Mode 1: a new folder named after the archive, holding the same tree.
  const dialog = await unzipDialog(page, '馆藏.zip');
  await expect(dialog.locator('[data-unzip-mode="1"]')).toHaveText('解压到“馆藏”文件夹');
  await page.keyboard.press('Escape');
  await unzipAtOnce(page, '馆藏.zip', 1);
  await expect(row(page, '馆藏')).toBeVisible();
  expect(await treeOf(api, '/资料/馆藏/')).toEqual(unpacked('/资料/馆藏/'));

  // Mode 2: a folder picked in the tree, with the unzip's own title and button.
  let tree = await unzipTree(page, '馆藏.zip');
  await expect(tree.getByTestId('move-target')).toHaveText('全部文件');
  await tree.locator('[data-path="/目标/"]').click();
  await expect(tree.getByTestId('move-target')).toHaveText('/目标/');
  await tree.getByRole('button', { name: '解压', exact: true }).click();
  await expect(tree).toBeHidden();
  await expect(page.getByText('解压成功')).toBeVisible();
  expect(await treeOf(api, '/目标/')).toEqual(unpacked('/目标/'));

  // Mode 2 into a folder deleted after it was picked: the tree dialog stays open and says why.
  tree = await unzipTree(page, '馆藏.zip');
  await tree.locator('[data-path="/将删除/"]').click();
  const gone = await api.find('/', '将删除');
  expect((await api.post('/file/deletefile', { userFileId: gone.userFileId })).success).toBe(true);
  await tree.getByRole('button', { name: '解压', exact: true }).click();
  await expect(tree.getByRole('alert')).toHaveText('目标文件夹不存在或已被删除');
  await expect(tree).toBeVisible();
  await tree.getByRole('button', { name: '取消' }).click();
  await expect(tree).toBeHidden();

  // Mode 2 with the default target: '/'.
  tree = await unzipTree(page, '馆藏.zip');
  await tree.getByRole('button', { name: '解压', exact: true }).click();
  await expect(tree).toBeHidden();
  await expect(page.getByText('解压成功')).toBeVisible();
  expect(await api.names('/')).toEqual(['图录', '目标', '说明.txt', '资料']);
  const outside = (p: string) => !p.startsWith('/资料/') && !p.startsWith('/目标/');
  expect((await treeOf(api, '/')).filter(outside)).toEqual(unpacked('/'));
  await openDrive(page);
  await expect.poll(() => shownNames(page)).toEqual(['图录', '目标', '说明.txt', '资料']);
});

async function unzipTree(page: Page, name: string) {
  const dialog = await unzipDialog(page, name);
  await dialog.locator('[data-unzip-mode="2"]').click();
  const tree = page.getByRole('dialog', { name: '解压到' });
  await expect(tree).toBeVisible();
  await expect(tree.getByText(`选择“${name}”解压到的文件夹`)).toBeVisible();
  return tree;
}

test('a zip from Chinese Windows (GBK names, no UTF-8 flag) shows its names correctly', async ({
  page,
  request,
}) => {
  const { api } = await person(page, request, 'uzg');
  await api.put(
    '/',
    '文物档案.zip',
    rawZip([
      { name: gbk('青铜器/') },
      { name: gbk('青铜器/鼎的说明.txt'), data: Buffer.from('西周') },
      { name: gbk('藏品清单.txt'), data: Buffer.from('清单') },
    ]),
  );
  await openDrive(page);
  await unzipAtOnce(page, '文物档案.zip', 1);
  await row(page, '文物档案').dblclick();
  await expect.poll(() => shownNames(page)).toEqual(['藏品清单.txt', '青铜器']);
  await row(page, '青铜器').dblclick();
  await expect.poll(() => shownNames(page)).toEqual(['鼎的说明.txt']);
  expect(await treeOf(api, '/文物档案/')).toEqual([
    '/文物档案/藏品清单.txt',
    '/文物档案/青铜器/',
    '/文物档案/青铜器/鼎的说明.txt',
  ]);
});

test('a truncated and an encrypted archive show the server’s message and leave nothing', async ({
  page,
  request,
}) => {
  const { api } = await person(page, request, 'uzb');
  const whole = rawZip(COLLECTION);
  await api.put('/', '残缺.zip', whole.subarray(0, whole.length - 30));
  await api.put('/', '加密.zip', rawZip([{ name: '机密.txt', data: Buffer.from('秘密'), flags: 0x801 }]));
  const before = await treeOf(api, '/');
  await openDrive(page);

  const cases: [string, string][] = [
    ['残缺.zip', '压缩包已损坏或不完整，无法解压'],
    ['加密.zip', '压缩包已加密，暂不支持解压加密的压缩包'],
  ];
  for (const [name, message] of cases) {
    // Mode 1 would create a folder first: it too must be gone after the failure.
    const dialog = await unzipDialog(page, name);
    await dialog.locator('[data-unzip-mode="1"]').click();
    await expect(page.getByText(message)).toBeVisible();
    await expect(page.getByText('解压成功')).toHaveCount(0);
    expect(await treeOf(api, '/')).toEqual(before);
  }
  await expect.poll(() => shownNames(page)).toEqual(['加密.zip', '残缺.zip']);
});

test('an archive that unpacks beyond the quota is refused with the room left, writing nothing', async ({
  page,
  request,
}) => {
  const { user, api } = await person(page, request, 'uzq');
  // 64 KB of text packs into a few hundred bytes: the archive fits, its contents do not.
  const zip = rawZip([
    { name: '大表.txt', data: Buffer.alloc(64 * 1024, '藏'), deflate: true, flags: 0x800 },
  ]);
  await api.put('/', '大表.zip', zip);
  const admin = await signInApi(request, 'admin', ADMIN_PASSWORD);
  const set = await request.post('/wangpan/admin/setstorage', {
    headers: { token: admin.token },
    data: { userId: user.userId, totalStorageSize: zip.length + 1024 },
  });
  expect((await set.json()).success).toBe(true);
  await openDrive(page);

  await unzipDialog(page, '大表.zip').then((d) => d.locator('[data-unzip-mode="0"]').click());
  await expect(page.getByText('“大表.zip”解压失败：存储空间不足：还剩 1 KB，解压需要 64 KB')).toBeVisible();
  expect(await treeOf(api, '/')).toEqual(['/大表.zip']);
  const storage = await api.get<{ storageSize: number }>('/filetransfer/getstorage');
  expect(storage.data!.storageSize).toBe(zip.length);
});

test('the unzip entry is offered only for archives: not for other files, folders or the bin', async ({
  page,
  request,
}) => {
  const { api } = await person(page, request, 'uzn');
  await api.mkdir('/', '文件夹.zip');
  await api.put('/', '说明.txt', Buffer.from('说明'));
  for (const ext of ['zip', 'rar', '7z', 'tar', 'gz']) await api.put('/', `包.${ext}`, Buffer.from('x'));
  await api.put('/', '待删.zip', rawZip(COLLECTION));
  await openDrive(page);

  for (const ext of ['zip', 'rar', '7z', 'tar', 'gz']) {
    expect(await menuEntries(page, row(page, `包.${ext}`))).toContain('解压缩');
  }
  expect(await menuEntries(page, row(page, '说明.txt'))).not.toContain('解压缩');
  expect(await menuEntries(page, row(page, '文件夹.zip'))).not.toContain('解压缩');

  const zip = await api.find('/', '待删');
  const del = await api.post('/file/deletefile', { userFileId: zip.userFileId });
  expect(del.success, del.message).toBe(true);
  await openDrive(page, '/resources/collection-depot?fileType=6');
  await expect(row(page, '待删.zip')).toBeVisible();
  const inBin = await menuEntries(page, row(page, '待删.zip'));
  expect(inBin.length).toBeGreaterThan(0);
  expect(inBin).not.toContain('解压缩');
});

test('a long job shows its progress, and after a reload its end is still reported', async ({
  page,
  request,
}) => {
  const { api } = await person(page, request, 'uzl');
  // Thousands of small, different files: reading, hashing and importing them takes seconds,
  // longer than the 2 s the first answer waits.
  const COUNT = 3000;
  const entries: RawEntry[] = [];
  for (let i = 0; i < COUNT; i++) {
    entries.push({
      name: `档案/第${Math.floor(i / 100)}卷/件${i}.txt`,
      data: Buffer.from(`档案 ${i}\n`),
      flags: 0x800,
    });
  }
  await api.put('/', '全宗.zip', rawZip(entries));
  await openDrive(page);

  const dialog = await unzipDialog(page, '全宗.zip');
  await dialog.locator('[data-unzip-mode="1"]').click();
  await expect(dialog).toBeHidden();
  // The job outlived the first answer: a notification follows it with its progress.
  await expect(page.getByText('正在解压“全宗.zip”')).toBeVisible();
  await expect(page.getByText(/\d+ \/ 3000 个文件|正在读取压缩包…|排队中/)).toBeVisible();

  // The page goes away while the job runs; the job ends on the server meanwhile.
  await page.goto('about:blank');
  await expect
    .poll(
      async () => (await api.get<{ list: { status: string }[] }>('/file/unzipjobs')).data!.list[0]!.status,
      {
        timeout: 60_000,
      },
    )
    .toBe('done');

  // Back on the drive, the result is reported and the folder is there.
  await openDrive(page);
  await expect(page.getByText('“全宗.zip”解压成功')).toBeVisible();
  await expect(row(page, '全宗')).toBeVisible();
  expect(await api.names('/全宗/档案/')).toHaveLength(30);
  expect(await api.names('/全宗/档案/第29卷/')).toHaveLength(100);

  // Reported once: another visit does not repeat it.
  const jobs = page.waitForResponse((r) => r.url().includes('/wangpan/file/unzipjobs'));
  await page.reload();
  await jobs;
  await expect(row(page, '全宗')).toBeVisible();
  // The answer has been read (the list shows); a notification would be up by now.
  await page.waitForTimeout(500);
  await expect(page.getByText('“全宗.zip”解压成功')).toHaveCount(0);
});
