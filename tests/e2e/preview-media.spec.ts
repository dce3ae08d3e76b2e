import { randomBytes } from 'node:crypto';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { formatSize } from '../../src/shared/drive/file-types';
import { driveApi, openDrive, row } from './drive-helpers';
import { signIn } from './helpers';
import { clip, png, tone, withId3 } from './media-fixtures';
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

const LRC = [
  '[ti:晨钟]',
  '[offset:500]',
  '[00:00.00]第一句 晨钟',
  '[00:01.00]第二句 暮鼓',
  '[00:02.00]第三句 青铜',
  '[00:03.00][00:07.00]第四句 副歌',
  '[00:04.00]第五句 瓷器',
  '[00:05.00]第六句 书画',
  '[00:06.00]第七句 碑帖',
].join('\n');

test('audio player: modes, wrapping, keys, volume, tags and lyrics that follow the time', async ({
  page,
  request,
}) => {
  const { api } = await freshUser(page, request, 'aud');
  const cover = await png(64, 64, '#7a2e1d');
  await api.put(
    '/',
    '1-晨钟.mp3',
    withId3(tone(8, 440), { title: '晨钟', artist: '馆藏乐团', album: '古韵', lyrics: LRC, cover }),
  );
  await api.put('/', '2-暮鼓.mp3', tone(3, 330));
  await api.put('/', '3-清音.mp3', tone(3, 550));
  await openDrive(page);

  await row(page, '1-晨钟.mp3').dblclick();
  const player = page.getByTestId('audio-player');
  const audio = page.getByTestId('audio-element');
  const title = page.getByTestId('audio-title');
  const paused = () => audio.evaluate((el: HTMLAudioElement) => el.paused);
  const volume = () => audio.evaluate((el: HTMLAudioElement) => Math.round(el.volume * 100) / 100);
  await expect(player).toBeVisible();
  await expect(player.getByText('1 / 3')).toBeVisible();
  // Tags from file/detail: title, artist, album and the cover.
  await expect(title).toHaveText('晨钟');
  await expect(page.getByTestId('audio-artist')).toHaveText('歌手：馆藏乐团');
  await expect(page.getByTestId('audio-album')).toHaveText('专辑：古韵');
  await expect
    .poll(() => page.getByTestId('audio-cover').evaluate((i: HTMLImageElement) => i.naturalWidth))
    .toBe(64);
  // Opening a song plays it.
  await expect.poll(paused).toBe(false);

  // Space pauses and plays, even with a button focused (that button is not pressed).
  const next = page.getByRole('button', { name: '下一首' });
  const prev = page.getByRole('button', { name: '上一首' });
  await next.click();
  await expect(player.getByText('2 / 3')).toBeVisible();
  await expect(title).toHaveText('2-暮鼓');
  await expect(page.getByTestId('audio-artist')).toHaveText('歌手：未知');
  await expect(page.getByTestId('audio-cover')).toHaveCount(0);
  await expect.poll(paused).toBe(false);
  await page.keyboard.press(' ');
  await expect.poll(paused).toBe(true);
  await expect(player.getByText('2 / 3')).toBeVisible();
  await page.keyboard.press(' ');
  await expect.poll(paused).toBe(false);

  // Previous and next wrap round, by buttons and by ← →.
  await next.click();
  await expect(player.getByText('3 / 3')).toBeVisible();
  await next.click();
  await expect(player.getByText('1 / 3')).toBeVisible();
  await prev.click();
  await expect(player.getByText('3 / 3')).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(player.getByText('1 / 3')).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(player.getByText('3 / 3')).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(title).toHaveText('晨钟');

  // Volume: 0.5 at first, ↑ ↓ by 0.1, the speaker toggles 0 and 0.5.
  expect(await volume()).toBe(0.5);
  await page.keyboard.press('ArrowDown');
  await expect.poll(volume).toBe(0.4);
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect.poll(volume).toBe(0.6);
  await page.getByRole('button', { name: '静音' }).click();
  await expect.poll(volume).toBe(0);
  await page.getByRole('button', { name: '取消静音' }).click();
  await expect.poll(volume).toBe(0.5);

  // The cycle modes, in the spec's order.
  const mode = page.getByTestId('audio-mode');
  await expect(mode).toHaveText('列表循环');
  await mode.click();
  await expect(mode).toHaveText('单曲循环');
  expect(await audio.evaluate((el: HTMLAudioElement) => el.loop)).toBe(true);
  await mode.click();
  await expect(mode).toHaveText('随机播放');
  expect(await audio.evaluate((el: HTMLAudioElement) => el.loop)).toBe(false);
  await mode.click();
  await expect(mode).toHaveText('列表循环');

  // Lyrics: the line being sung is highlighted; past the third line the box scrolls.
  await page.keyboard.press(' ');
  await expect.poll(paused).toBe(true);
  const lyrics = page.getByTestId('audio-lyrics');
  const sung = lyrics.locator('[data-active]');
  const scrolled = () => lyrics.evaluate((el) => el.scrollTop);
  const seek = (s: number) =>
    audio.evaluate((el: HTMLAudioElement, s) => {
      el.currentTime = s;
    }, s);
  await expect(lyrics.locator('[data-line]')).toHaveCount(8);
  await seek(2.5);
  await expect(sung).toHaveText('第三句 青铜');
  await expect.poll(scrolled).toBe(0);
  await seek(5.5);
  await expect(sung).toHaveText('第六句 书画');
  await expect.poll(scrolled).toBeGreaterThan(60);
  // The sung line stays in view.
  const inView = () =>
    lyrics.evaluate((box) => {
      const line = box.querySelector('[data-active]')!.getBoundingClientRect();
      const r = box.getBoundingClientRect();
      return line.top >= r.top && line.bottom <= r.bottom;
    });
  await expect.poll(inView).toBe(true);
  // …as the third line of the box.
  const rowOfSung = () =>
    lyrics.evaluate((box) => {
      const line = box.querySelector<HTMLElement>('[data-active]')!;
      return Math.round(
        (line.getBoundingClientRect().top - box.getBoundingClientRect().top) / line.offsetHeight,
      );
    });
  await expect.poll(rowOfSung).toBe(2);
  await seek(7.2);
  await expect(sung).toHaveText('第四句 副歌');
  await expect.poll(rowOfSung).toBe(2);
  await seek(0.2);
  await expect(sung).toHaveText('第一句 晨钟');
  await expect.poll(scrolled).toBe(0);

  // A finished song: list loop goes on to the next, random to another one.
  await seek(7.6);
  await page.keyboard.press(' ');
  await expect(player.getByText('2 / 3')).toBeVisible({ timeout: 5000 });
  await expect.poll(paused).toBe(false);
  await mode.click();
  await mode.click();
  await expect(mode).toHaveText('随机播放');
  await seek(2.6);
  await expect(player.getByText(/^(1|3) \/ 3$/)).toBeVisible({ timeout: 5000 });

  // Escape closes.
  await page.keyboard.press('Escape');
  await expect(player).toHaveCount(0);
});

test('video preview: name, size and download; speeds; the playlist fold; switching; an unplayable file; the poster', async ({
  page,
  request,
}) => {
  const { user, api } = await freshUser(page, request, 'vid');
  const a = await api.put('/', 'a-开馆.mp4', clip('clip-a.mp4'));
  const b = await api.put('/', 'b-闭馆.mp4', clip('clip-b.mp4'));
  await api.put('/', 'c-损坏.mp4', randomBytes(40_000));
  const thumbOf = (id: number) =>
    request.get('/wangpan/filetransfer/preview', {
      headers: { token: user.token },
      params: { userFileId: id, isMin: 1 },
    });
  expect((await thumbOf(a.userFileId)).status()).toBe(404);
  await openDrive(page);

  const posted = page.waitForRequest(
    (r) =>
      r.method() === 'POST' &&
      r.url().includes('/wangpan/filetransfer/poster') &&
      new URL(r.url()).searchParams.get('userFileId') === String(a.userFileId),
  );
  await row(page, 'a-开馆.mp4').dblclick();
  const preview = page.getByTestId('video-preview');
  const video = page.getByTestId('video-element');
  const playlist = page.getByTestId('video-playlist');
  const toggle = page.getByTestId('video-playlist-toggle');
  const state = () =>
    video.evaluate((v: HTMLVideoElement) => ({
      paused: v.paused,
      muted: v.muted,
      loop: v.loop,
      autoplay: v.autoplay,
      rate: v.playbackRate,
      time: v.currentTime,
    }));
  await expect(preview).toBeVisible();
  await expect(page.getByTestId('video-name')).toHaveText('a-开馆.mp4');
  await expect(page.getByTestId('video-size')).toHaveText(formatSize(clip('clip-a.mp4').length));
  const download = page.getByTestId('video-download');
  await expect(download).toHaveAttribute('target', '_blank');
  await expect(download).toHaveAttribute('href', new RegExp(`downloadfile\\?userFileId=${a.userFileId}$`));

  // Nothing plays, mutes or loops by itself.
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(2);
  expect(await state()).toMatchObject({ paused: true, muted: false, loop: false, autoplay: false, time: 0 });

  // The playlist is unfolded on a 1024 px window; its button folds and unfolds it.
  await expect(toggle).toHaveText('播放列表');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(playlist.getByRole('button')).toHaveCount(3);
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(playlist).toHaveCount(0);
  await toggle.click();
  await expect(playlist).toBeVisible();

  // Play, with the time shown; the first frame becomes the list's thumbnail.
  await page.getByRole('button', { name: '播放', exact: true }).click();
  await expect.poll(async () => (await state()).paused).toBe(false);
  const poster = await posted;
  expect(poster.headers()['content-type']).toBe('image/jpeg');
  expect(((await (await poster.response())!.json()) as { success: boolean }).success).toBe(true);
  const thumb = await thumbOf(a.userFileId);
  expect(thumb.status()).toBe(200);
  expect(thumb.headers()['content-type']).toMatch(/^image\//);
  await expect(page.getByTestId('video-time')).toHaveText(/^0:0[1-3] \/ 0:0[23]$/);

  // Speeds from the menu.
  for (const [label, rate] of [
    ['1.5×', 1.5],
    ['2×', 2],
    ['0.5×', 0.5],
  ] as const) {
    await page.getByTestId('video-speed').click();
    await page.getByRole('menuitem', { name: label, exact: true }).click();
    await expect.poll(async () => (await state()).rate).toBe(rate);
  }
  await expect(page.getByTestId('video-speed')).toHaveText('0.5×');

  // Another video: paused, rewound, loaded and played from its start, at the chosen speed.
  await video.evaluate((v: HTMLVideoElement) => {
    v.currentTime = 0.2;
    return v.play();
  });
  await expect.poll(async () => (await state()).time).toBeGreaterThan(0.5);
  await video.evaluate((v: HTMLVideoElement) => {
    const w = window as unknown as { switchLog: string[] };
    w.switchLog = [];
    // The load of the next source drops the queued 'pause' event, so the call itself is logged.
    v.pause = function (this: HTMLVideoElement) {
      w.switchLog.push(`pause()@${this.currentTime.toFixed(1)}`);
      HTMLMediaElement.prototype.pause.call(this);
    };
    // Events are logged only from the pause() on: on a loaded machine the first video can stall
    // and fire 'playing' again while still playing, which says nothing about the switch.
    for (const type of ['emptied', 'loadeddata', 'playing'])
      v.addEventListener(type, () => {
        if (w.switchLog.length > 0) w.switchLog.push(`${type}@${v.currentTime.toFixed(1)}`);
      });
  });
  await playlist.getByRole('button', { name: /b-闭馆\.mp4/ }).click();
  await expect(page.getByTestId('video-name')).toHaveText('b-闭馆.mp4');
  await expect(video).toHaveAttribute('src', new RegExp(`userFileId=${b.userFileId}$`));
  await expect.poll(async () => (await state()).paused).toBe(false);
  const log = await page.evaluate(() => (window as unknown as { switchLog: string[] }).switchLog);
  expect(log[0]).toMatch(/^pause\(\)@(0\.[5-9]|[12]\.\d)$/);
  expect(log.slice(1)).toEqual(['emptied@0.0', 'loadeddata@0.0', 'playing@0.0']);
  expect((await state()).rate).toBe(0.5);

  // A file the browser cannot play says so.
  await playlist.getByRole('button', { name: /c-损坏\.mp4/ }).click();
  await expect(page.getByTestId('video-error')).toHaveText('此视频暂无法播放，请稍后再试');

  // Escape closes.
  await page.keyboard.press('Escape');
  await expect(preview).toHaveCount(0);

  // At 768 px or narrower the playlist starts folded; wider it starts unfolded.
  await page.setViewportSize({ width: 768, height: 1000 });
  await row(page, 'b-闭馆.mp4').dblclick();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(playlist).toHaveCount(0);
  await toggle.click();
  await expect(playlist).toBeVisible();
  await page.getByRole('button', { name: '关闭' }).click();
  await expect(preview).toHaveCount(0);
  await page.setViewportSize({ width: 769, height: 1000 });
  await row(page, 'b-闭馆.mp4').dblclick();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(playlist).toBeVisible();
  await page.keyboard.press('Escape');

  // A phone: the dialog fills the screen and the controls fit in it.
  await page.setViewportSize({ width: 375, height: 740 });
  await row(page, 'a-开馆.mp4').dblclick();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  for (const control of [
    page.getByTestId('video-play'),
    page.getByRole('button', { name: '全屏' }),
    toggle,
  ]) {
    const box = (await control.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    expect(box.height).toBeGreaterThanOrEqual(40);
  }
});

test('video poster: none from the libraries, where previews are read-only', async ({ page, request }) => {
  const { user, api } = await freshUser(page, request, 'pst');
  const lib = { fileType: 9, isAdmin: 1 };
  const folder = `海报${Date.now().toString(36)}`;
  await api.mkdir('/', folder, lib);
  const v = await api.put(`/${folder}/`, '库中影像.mp4', clip('clip-b.mp4'), lib);
  const thumb = () =>
    request.get('/wangpan/filetransfer/preview', {
      headers: { token: user.token },
      params: { userFileId: v.userFileId, isMin: 1, ...lib },
    });
  expect((await thumb()).status()).toBe(404);
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/filetransfer/poster')) posts.push(r.url());
  });
  const video = page.getByTestId('video-element');
  const path = encodeURIComponent(`/${folder}/`);

  // 其他资源 and its management view: the file menu offers no 重命名 there, so the previewer
  // is read-only (PreviewProps.editable) and stores nothing, though the video plays.
  for (const url of [
    `/resources/other-resource?fileType=9&filePath=${path}`,
    `/resources/other-resource-management?isAdmin=1&filePath=${path}`,
  ]) {
    await openDrive(page, url);
    await row(page, '库中影像.mp4').dblclick();
    await page.getByTestId('video-play').click();
    await expect.poll(() => video.evaluate((el: HTMLVideoElement) => el.currentTime)).toBeGreaterThan(0.5);
    await page.keyboard.press('Escape');
    await expect(video).toHaveCount(0);
  }
  expect(posts).toEqual([]);
  expect((await thumb()).status()).toBe(404);
});
