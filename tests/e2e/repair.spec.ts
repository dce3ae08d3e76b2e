import { expect, test, type APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD, signIn } from './helpers';
import { signInApi } from './users';

/*
 * Conservation and repair (issue 24), at tablet size: 吴昊 (文保专员) has a project under way and an
 * object's archive with its before photo; on 修复填报 he moves it 待修复 → 修复中 → 待评估 → 已归档
 * with the stage buttons (the after photo and steps on the archive), then prints its archive and
 * the print view holds the object, its photos before and after and its history. The rules of the
 * stages are tests/server/repair.test.ts's.
 */

const M = '/singleMuseum';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

async function post(request: APIRequestContext, token: string, path: string, data: unknown) {
  const r = await request.post(`${M}${path}`, { headers: { token }, data });
  const body = (await r.json()) as { success: boolean; result: any; message: string };
  expect(body.success, body.message).toBe(true);
  return body.result;
}
async function photo(request: APIRequestContext, token: string) {
  const r = await request.post(`${M}/attach/uploadimage`, {
    headers: { token },
    multipart: {
      tableName: 'bsRepairManagement',
      file: { name: 'p.png', mimeType: 'image/png', buffer: PNG },
    },
  });
  return ((await r.json()) as { result: { attId: number } }).result.attId;
}

test('a conservator takes an object from 待修复 to 已归档 and prints its archive', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1024, height: 768 });
  const me = await signInApi(request, 'staff08', DEMO_PASSWORD);
  const keeper = await signInApi(request, 'staff04', DEMO_PASSWORD);
  const stamp = Date.now() % 100_000;
  const project = {
    projectNo: `E2E-${stamp}`,
    name: `端到端修复项目${stamp}`,
    projectType: 1,
    undertaker: '省文物保护中心',
    licenceNo: '文保修复(甲)001',
    principalId: me.userId,
    startDate: '2026-03-01',
    plannedEndDate: '2026-12-31',
    planName: '青铜器修复方案',
    planOrg: '省文物保护中心',
  };
  const { id: projectId } = await post(request, me.token, '/repair/bsRepairProject/save', project);
  await post(request, me.token, '/repair/bsRepairProject/update', { ...project, id: projectId, status: 1 });
  await post(request, me.token, '/repair/bsRepairProject/update', { ...project, id: projectId, status: 3 });
  const relicName = `兽面纹鼎${stamp}`;
  await post(request, me.token, '/repair/bsRepairManagement/add', {
    projectId,
    archiveNo: `E2E-DA-${stamp}`,
    relicName,
    registerNo: `Z${stamp}`,
    category: '4',
    level: '2',
    era: '商',
    material: '11',
    completeness: '3',
    preservation: '3',
    diseases: [{ type: '粉状锈', part: '腹部', severity: 3 }],
    beforePhotoIds: [await photo(request, me.token)],
    afterPhotoIds: [await photo(request, me.token)],
    steps: [{ date: '2026-04-02', step: '除锈', materials: '手术刀' }],
    restorerIds: [me.userId],
    takeOutDate: '2026-04-01',
    keeperId: keeper.userId,
    evaluation: '粉状锈已清除，器形稳定',
    returnDate: '2026-05-01',
  });

  await signIn(page, 'staff08');
  await page.goto('/repair/repair-fill');
  const row = page.getByRole('row').filter({ hasText: relicName });
  for (const stage of ['开始修复', '完成修复', '归档']) {
    await row.getByRole('button', { name: stage }).click();
    await page.getByRole('dialog').getByRole('button', { name: stage }).click();
  }
  await expect(row).toContainText('已归档');

  await row.getByRole('button', { name: '打印档案' }).click();
  const sheet = page.getByTestId('archive-sheet');
  await expect(sheet).toContainText(relicName);
  await page.emulateMedia({ media: 'print' });
  await expect(sheet).toBeVisible();
  await expect(sheet).toContainText('文物保护修复档案');
  await expect(sheet).toContainText('粉状锈');
  await expect(sheet).toContainText('除锈');
  await expect(sheet).toContainText('已修复');
  await expect(sheet).toContainText('粉状锈已清除，器形稳定');
  await expect(page.getByTestId('archive-before').locator('img')).toHaveCount(1);
  await expect(page.getByTestId('archive-after').locator('img')).toHaveCount(1);
  // The history names each stage.
  for (const stage of ['开始修复', '完成修复', '归档']) await expect(sheet).toContainText(stage);
});
