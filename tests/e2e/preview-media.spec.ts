import { expect, test, type Locator, type Page } from '@playwright/test';
import { driveApi, openDrive, row } from './drive-helpers';
import { signIn } from './helpers';
import { png } from './media-fixtures';
import { createDriveUser } from './users';

/*
 * The image previewer, the audio player and the video preview (issue 5), each driven in
 * Chromium against the real server with real files uploaded through the upload route by a
 * fresh person: PNGs from sharp, MP3s from lamejs with an ID3 tag, MP4s recorded by Chromium.
 */

async function freshUser(page: Page, request: Parameters<typeof createDriveUser>[0], prefix: string) {
  const user = await createDriveUser(request, { prefix });
  await signIn(page, user.account, user.password);
  return { user, api: driveApi(request, user.token) };
}

const transformOf = (img: Locator) => img.evaluate((el: HTMLElement) => el.style.transform);

/** Pointer events as a finger makes them (Chromium's touch input goes through the same path). */
async function touch(
  stage: Locator,
  strokes: { id: number; from: [number, number]; to: [number, number] }[],
) {
  await stage.evaluate((el, strokes) => {
    const box = el.getBoundingClientRect();
    const fire = (type: string, id: number, [x, y]: [number, number]) =>
      el.dispatchEvent(
        new PointerEvent(type, {
          pointerId: id,
          pointerType: 'touch',
          isPrimary: id === strokes[0]!.id,
          clientX: box.left + x,
          clientY: box.top + y,
          bubbles: true,
          cancelable: true,
        }),
      );
    for (const s of strokes) fire('pointerdown', s.id, s.from);
    for (let k = 1; k <= 5; k++)
      for (const s of strokes)
        fire('pointermove', s.id, [
          s.from[0] + ((s.to[0] - s.from[0]) * k) / 5,
          s.from[1] + ((s.to[1] - s.from[1]) * k) / 5,
        ]);
    for (const s of strokes) fire('pointerup', s.id, s.to);
  }, strokes);
}

test('image previewer: zoom, rotation, switching, jump, Escape, the remembered thumbnail strip, touch', async ({
  page,
  request,
}) => {
  const { api } = await freshUser(page, request, 'img');
  await api.put('/', '展品1.png', await png(640, 400, '#9a402a'));
  await api.put('/', '展品2.png', await png(300, 500, '#1d4e7a'));
  await api.put('/', '展品3.png', await png(400, 400, '#2f7a1d'));
  await api.put('/', '说明.txt', Buffer.from('不是图片'));
  await openDrive(page);

  await row(page, '展品1.png').dblclick();
  const stage = page.getByTestId('image-stage');
  const img = page.getByTestId('image-current');
  const zoom = page.getByTestId('image-zoom');
  const counter = page.getByTestId('image-counter');
  await expect(stage).toBeVisible();
  await expect(page.getByTestId('image-name')).toHaveText('展品1.png');
  await expect(counter).toHaveText('1 / 3');
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(640);
  await expect(zoom).toHaveText('100%');

  // The wheel zooms by 10 % a notch.
  await stage.hover();
  await page.mouse.wheel(0, -100);
  await expect(zoom).toHaveText('110%');
  expect(await transformOf(img)).toContain('scale(1.1)');
  await page.mouse.wheel(0, 100);
  await page.mouse.wheel(0, 100);
  await expect(zoom).toHaveText('90%');
  expect(await transformOf(img)).toContain('scale(0.9)');

  // Buttons, clamped at 200 and at 1.
  const zoomIn = page.getByRole('button', { name: '放大' });
  const zoomOut = page.getByRole('button', { name: '缩小' });
  for (let i = 0; i < 11; i++) await zoomIn.click();
  await expect(zoom).toHaveText('200%');
  await expect(zoomIn).toBeDisabled();
  await stage.hover();
  await page.mouse.wheel(0, -100);
  await expect(zoom).toHaveText('200%');
  expect(await transformOf(img)).toContain('scale(2)');
  for (let i = 0; i < 20; i++) await zoomOut.click();
  await expect(zoom).toHaveText('1%');
  await expect(zoomOut).toBeDisabled();
  expect(await transformOf(img)).toContain('scale(0.01)');
  await page.mouse.wheel(0, 100);
  await expect(zoom).toHaveText('1%');
  for (let i = 0; i < 9; i++) await zoomIn.click();
  await expect(zoom).toHaveText('91%');

  // Rotation in 90° steps, upright again after a switch.
  await page.getByRole('button', { name: '向右旋转 90°' }).click();
  await page.getByRole('button', { name: '向右旋转 90°' }).click();
  expect(await transformOf(img)).toContain('rotate(180deg)');
  await page.getByRole('button', { name: '向左旋转 90°' }).click();
  expect(await transformOf(img)).toContain('rotate(90deg)');
  await page.keyboard.press('ArrowRight');
  await expect(counter).toHaveText('2 / 3');
  await expect(page.getByTestId('image-name')).toHaveText('展品2.png');
  expect(await transformOf(img)).toContain('rotate(0deg)');
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(300);

  // Arrows wrap round; the side buttons switch too.
  await page.keyboard.press('ArrowRight');
  await expect(counter).toHaveText('3 / 3');
  await page.keyboard.press('ArrowRight');
  await expect(counter).toHaveText('1 / 3');
  await page.keyboard.press('ArrowLeft');
  await expect(counter).toHaveText('3 / 3');
  await page.getByRole('button', { name: '下一张' }).click();
  await expect(counter).toHaveText('1 / 3');

  // The index field jumps; a number outside 1..n is refused with the reason.
  const jump = page.getByLabel('跳转到第几张');
  await jump.fill('3');
  await jump.press('Enter');
  await expect(counter).toHaveText('3 / 3');
  await expect(jump).toHaveValue('3');
  await jump.fill('9');
  await jump.press('Enter');
  await expect(page.getByTestId('image-jump-error')).toHaveText('请输入 1 到 3 之间的整数');
  await expect(counter).toHaveText('3 / 3');
  // Arrows typed in the field move its caret, not the image.
  await jump.press('ArrowLeft');
  await expect(counter).toHaveText('3 / 3');
  await jump.fill('2');
  await jump.press('Enter');
  await expect(counter).toHaveText('2 / 3');
  await expect(page.getByTestId('image-jump-error')).toHaveCount(0);

  // Touch: a swipe to the left shows the next image, a pinch zooms.
  await touch(stage, [{ id: 11, from: [300, 200], to: [120, 210] }]);
  await expect(counter).toHaveText('3 / 3');
  await touch(stage, [
    { id: 21, from: [200, 200], to: [150, 200] },
    { id: 22, from: [300, 200], to: [350, 200] },
  ]);
  await expect(zoom).toHaveText('182%');
  await touch(stage, [
    { id: 31, from: [100, 200], to: [200, 200] },
    { id: 32, from: [400, 200], to: [300, 200] },
  ]);
  await expect(zoom).toHaveText('61%');

  // Thumbnails: small images, loaded lazily; hidden state is remembered on the device.
  const strip = page.getByTestId('image-thumbs');
  await expect(strip.locator('img')).toHaveCount(3);
  for (const thumb of await strip.locator('img').all()) {
    await expect(thumb).toHaveAttribute('loading', 'lazy');
    await expect(thumb).toHaveAttribute('src', /isMin=1/);
  }
  await strip.getByRole('button', { name: /展品1\.png/ }).click();
  await expect(counter).toHaveText('1 / 3');
  await page.getByRole('button', { name: '隐藏缩略图' }).click();
  await expect(strip).toHaveCount(0);

  await page.keyboard.press('Escape');
  await expect(stage).toHaveCount(0);
  await row(page, '展品3.png').dblclick();
  await expect(counter).toHaveText('3 / 3');
  await expect(page.getByTestId('image-thumbs')).toHaveCount(0);
  await expect(page.getByRole('button', { name: '显示缩略图' })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.reload();
  await row(page, '展品1.png').dblclick();
  await expect(counter).toHaveText('1 / 3');
  await expect(page.getByTestId('image-thumbs')).toHaveCount(0);
  await page.getByRole('button', { name: '显示缩略图' }).click();
  await expect(page.getByTestId('image-thumbs')).toBeVisible();
  await page.getByRole('button', { name: '关闭' }).click();
  await expect(stage).toHaveCount(0);
});
