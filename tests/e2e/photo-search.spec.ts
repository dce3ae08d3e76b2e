import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { signIn } from './helpers';

/*
 * 以图搜图 (issue 24, README "Image search"), at tablet size: a keeper drops a photo of an
 * object (a recompressed, 10 %-cropped copy of the record's image) onto the page and opens the
 * matching collection record. The record is added the way a museum adds one: 陈静 (staff04)
 * asks with the image, 赵磊 (staff03) approves.
 */

const W = 640;
const H = 480;
/** A photo-like scene: a gradient and overlapping shapes, the same for the same seed. */
async function scene(seed: number) {
  let a = seed;
  const r = () => (a = (a * 1103515245 + 12345) % 2147483648) / 2147483648;
  const c = () => `rgb(${Math.floor(r() * 256)},${Math.floor(r() * 256)},${Math.floor(r() * 256)})`;
  let shapes = '';
  for (let i = 0; i < 14; i++)
    shapes += `<ellipse cx="${r() * W}" cy="${r() * H}" rx="${40 + r() * 160}" ry="${30 + r() * 120}" fill="${c()}" opacity="0.8"/>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="${c()}"/>${shapes}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

test('a keeper drops a photo into 以图搜图 and opens the matching record', async ({ page, request }) => {
  const image = await scene(2024);
  const login = async (account: string) => {
    const res = await request.post('/singleMuseum/login/webLogin', {
      data: { username: account, password: 'Demo@2026' },
    });
    return ((await res.json()) as { result: { token: string } }).result.token;
  };
  const keeper = await login('staff04');
  const head = await login('staff03');
  const up = await request.post('/singleMuseum/attach/uploadimage', {
    headers: { token: keeper },
    multipart: {
      tableName: 'bsDigitalassetsApply',
      file: { name: '鼎.jpg', mimeType: 'image/jpeg', buffer: image },
    },
  });
  const attId = ((await up.json()) as { result: { attId: number } }).result.attId;
  const add = await request.post('/singleMuseum/bsDigitalassetsApply/add', {
    headers: { token: keeper },
    data: {
      registerNo: '总09001',
      name: '以图搜图验证鼎',
      category: '4',
      level: '2',
      era: '西周',
      completeness: '1',
      preservation: '1',
      source: '1',
      images: [attId],
      applyReason: '新入藏登记',
    },
  });
  const added = (await add.json()) as { success: boolean; result: { actvityId: number } };
  expect(added.success, JSON.stringify(added)).toBe(true);
  const ok = await request.post('/singleMuseum/workflowInst/approval', {
    headers: { token: head },
    data: { actvityId: added.result.actvityId, action: 2 },
  });
  expect(((await ok.json()) as { success: boolean }).success).toBe(true);

  // The photo a keeper took of the printout: 10 % cut off the left and top, recompressed.
  const photo = await sharp(image)
    .extract({ left: 64, top: 48, width: 576, height: 432 })
    .jpeg({ quality: 40 })
    .toBuffer();

  await signIn(page, 'staff04');
  await page.goto('/photo/search');
  await expect(page.getByRole('heading', { name: '以图搜图' })).toBeVisible();
  const drop = await page.evaluateHandle((b64) => {
    const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([bytes], '现场照片.jpg', { type: 'image/jpeg' }));
    return dt;
  }, photo.toString('base64'));
  await page.getByTestId('photo-drop').dispatchEvent('drop', { dataTransfer: drop });

  const first = page.getByTestId('photo-hit').first();
  await expect(first).toContainText('总09001 以图搜图验证鼎');
  await expect(first).toContainText(/相似度 (9\d|100)%/);
  await expect(first).toContainText('藏品资料');
  await first.click();
  const drawer = page.getByRole('dialog');
  await expect(drawer).toContainText('以图搜图验证鼎');
  await expect(drawer).toContainText('总09001');
});
