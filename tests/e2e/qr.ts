import { expect, type Locator } from '@playwright/test';
import jsQR from 'jsqr';

/**
 * What a QR code on the screen says, read back from its pixels as a phone's camera would: the
 * image drawn on a white canvas in the page, its pixels decoded with jsQR here. Fails the test
 * when the code cannot be read.
 */
export async function readQr(img: Locator, size = 400): Promise<string> {
  const pixels = await img.evaluate(async (el: HTMLImageElement, n: number) => {
    await el.decode();
    const c = document.createElement('canvas');
    c.width = n;
    c.height = n;
    const g = c.getContext('2d')!;
    g.fillStyle = '#fff';
    g.fillRect(0, 0, n, n);
    g.drawImage(el, 0, 0, n, n);
    const data = g.getImageData(0, 0, n, n).data;
    let s = '';
    for (let i = 0; i < data.length; i += 0x8000) s += String.fromCharCode(...data.subarray(i, i + 0x8000));
    return btoa(s);
  }, size);
  const decoded = jsQR(new Uint8ClampedArray(Buffer.from(pixels, 'base64')), size, size);
  expect(decoded, 'the QR on the screen is readable').not.toBeNull();
  return decoded!.data;
}
