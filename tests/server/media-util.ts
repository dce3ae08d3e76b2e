import { Mp3Encoder } from '@breezystack/lamejs';
import sharp from 'sharp';

/**
 * Real media for the media tests (not a test file itself): MP3s encoded here with lamejs, an
 * ID3v2.3 tag built by hand (so the test knows every byte the parser meets), and images made
 * with sharp.
 */

/** `seconds` of a 440 Hz tone as a mono 44.1 kHz MP3 (64 kbit/s, no tag). */
export function toneMp3(seconds: number, freq = 440): Buffer {
  const rate = 44100;
  const pcm = new Int16Array(Math.round(rate * seconds));
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(Math.sin((2 * Math.PI * freq * i) / rate) * 8000);
  const enc = new Mp3Encoder(1, rate, 64);
  const parts: Buffer[] = [];
  const add = (u: Uint8Array) => parts.push(Buffer.from(u.buffer, u.byteOffset, u.byteLength));
  for (let i = 0; i < pcm.length; i += 1152) add(enc.encodeBuffer(pcm.subarray(i, i + 1152)));
  add(enc.flush());
  return Buffer.concat(parts);
}

/** UTF-16 with a byte-order mark, as ID3v2.3 writes non-Latin text (encoding byte 1). */
const utf16 = (s: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
const NUL16 = Buffer.from([0, 0]);

/** One ID3v2.3 frame: id, a plain 32-bit size (v2.3 is not sync-safe there), no flags. */
function frame(id: string, body: Buffer): Buffer {
  const head = Buffer.alloc(10);
  head.write(id, 0, 'latin1');
  head.writeUInt32BE(body.length, 4);
  return Buffer.concat([head, body]);
}

export const id3 = {
  /** A text frame (TIT2 title, TPE1 artist, TALB album). */
  text: (id: 'TIT2' | 'TPE1' | 'TALB', s: string) => frame(id, Buffer.concat([Buffer.from([1]), utf16(s)])),
  /** Unsynchronised lyrics. */
  uslt: (lyrics: string) =>
    frame(
      'USLT',
      Buffer.concat([Buffer.from([1]), Buffer.from('chi', 'latin1'), utf16(''), NUL16, utf16(lyrics)]),
    ),
  /** Synchronised lyrics with millisecond timestamps (format 2, content type 1 = lyrics). */
  sylt: (lines: [number, string][]) =>
    frame(
      'SYLT',
      Buffer.concat([
        Buffer.from([1]),
        Buffer.from('chi', 'latin1'),
        Buffer.from([2, 1]),
        utf16(''),
        NUL16,
        ...lines.flatMap(([ms, text]) => {
          const t = Buffer.alloc(4);
          t.writeUInt32BE(ms);
          return [utf16(text), NUL16, t];
        }),
      ]),
    ),
  /** An attached picture, front cover (type 3). */
  apic: (mime: string, data: Buffer) =>
    frame(
      'APIC',
      Buffer.concat([
        Buffer.from([0]),
        Buffer.from(`${mime}\0`, 'latin1'),
        Buffer.from([3]),
        Buffer.from([0]),
        data,
      ]),
    ),
};

/** An ID3v2.3 tag of `frames`, to prepend to MPEG audio. */
export function id3v23(frames: Buffer[]): Buffer {
  const body = Buffer.concat(frames);
  const head = Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0]);
  // The tag size is sync-safe: four 7-bit groups.
  const n = body.length;
  head[6] = (n >> 21) & 0x7f;
  head[7] = (n >> 14) & 0x7f;
  head[8] = (n >> 7) & 0x7f;
  head[9] = n & 0x7f;
  return Buffer.concat([head, body]);
}

/** A w × h image in `format`, a diagonal gradient (so it does not compress to nothing). */
export async function picture(w: number, h: number, format: 'jpeg' | 'png' | 'webp' | 'gif' = 'jpeg') {
  const raw = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 3;
      raw[i] = (x * 255) / w;
      raw[i + 1] = (y * 255) / h;
      raw[i + 2] = ((x + y) * 255) / (w + h);
    }
  }
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .toFormat(format)
    .toBuffer();
}

/** Width, height and format of an image as sharp reads it. */
export async function probe(buf: Buffer) {
  const m = await sharp(buf).metadata();
  return { width: m.width, height: m.height, format: m.format };
}

/** A 24-bit bottom-up BMP (BITMAPINFOHEADER) of w × h, one solid colour. */
export function bmp24(w: number, h: number, rgb: [number, number, number]): Buffer {
  const stride = Math.ceil((w * 3) / 4) * 4;
  const b = Buffer.alloc(54 + stride * h);
  b.write('BM', 0, 'latin1');
  b.writeUInt32LE(b.length, 2);
  b.writeUInt32LE(54, 10);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(w, 18);
  b.writeInt32LE(h, 22);
  b.writeUInt16LE(1, 26);
  b.writeUInt16LE(24, 28);
  b.writeUInt32LE(stride * h, 34);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = 54 + y * stride + x * 3;
      b[i] = rgb[2];
      b[i + 1] = rgb[1];
      b[i + 2] = rgb[0];
    }
  }
  return b;
}
