import fs from 'node:fs';
import path from 'node:path';
import { Mp3Encoder } from '@breezystack/lamejs';
import sharp from 'sharp';

/**
 * Real media for the previewer tests: PNG images and MP3 songs made here (sharp, lamejs) and
 * the two recorded MP4 clips under tests/fixtures/media (see make-media.ts there).
 */

export const png = (w: number, h: number, color: string) =>
  sharp({ create: { width: w, height: h, channels: 3, background: color } })
    .png()
    .toBuffer();

export function clip(name: 'clip-a.mp4' | 'clip-b.mp4'): Buffer {
  return fs.readFileSync(path.resolve('tests/fixtures/media', name));
}

/** `seconds` of a mono tone at `hz` as MP3 (44.1 kHz, 64 kbit/s): a file Chromium plays. */
export function tone(seconds: number, hz: number): Buffer {
  const rate = 44100;
  const samples = new Int16Array(Math.round(seconds * rate));
  for (let i = 0; i < samples.length; i++)
    samples[i] = Math.round(Math.sin((2 * Math.PI * hz * i) / rate) * 8000);
  const enc = new Mp3Encoder(1, rate, 64);
  const parts: Uint8Array[] = [];
  for (let i = 0; i < samples.length; i += 1152) parts.push(enc.encodeBuffer(samples.subarray(i, i + 1152)));
  parts.push(enc.flush());
  return Buffer.concat(parts.map((p) => Buffer.from(p)));
}

/** ID3v2.3 text in UTF-16 with BOM (encoding byte 1), as Chinese tag writers store it. */
const utf16 = (s: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);

function frame(id: string, body: Buffer): Buffer {
  const head = Buffer.alloc(10);
  head.write(id, 0, 'latin1');
  head.writeUInt32BE(body.length, 4);
  return Buffer.concat([head, body]);
}

function syncsafe(n: number): Buffer {
  return Buffer.from([(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f]);
}

export interface Tags {
  title: string;
  artist: string;
  album: string;
  /** LRC text, stored as unsynchronised lyrics (USLT). */
  lyrics: string;
  /** A PNG, stored as the front cover (APIC). */
  cover: Buffer;
}

/** An ID3v2.3 tag with TIT2, TPE1, TALB, USLT and APIC, prepended to `mp3`. */
export function withId3(mp3: Buffer, tags: Tags): Buffer {
  const text = (s: string) => Buffer.concat([Buffer.from([1]), utf16(s)]);
  const frames = Buffer.concat([
    frame('TIT2', text(tags.title)),
    frame('TPE1', text(tags.artist)),
    frame('TALB', text(tags.album)),
    // encoding, language, empty descriptor (BOM + UTF-16 NUL), the lyrics.
    frame(
      'USLT',
      Buffer.concat([
        Buffer.from([1]),
        Buffer.from('chi', 'latin1'),
        utf16(''),
        Buffer.from([0, 0]),
        utf16(tags.lyrics),
      ]),
    ),
    // encoding 0, MIME, picture type 3 (front cover), empty description, the image.
    frame(
      'APIC',
      Buffer.concat([
        Buffer.from([0]),
        Buffer.from('image/png\0', 'latin1'),
        Buffer.from([3, 0]),
        tags.cover,
      ]),
    ),
  ]);
  const header = Buffer.concat([
    Buffer.from('ID3', 'latin1'),
    Buffer.from([3, 0, 0]),
    syncsafe(frames.length),
  ]);
  return Buffer.concat([header, frames, mp3]);
}
