import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { M, attachUpload } from './util';
import { jsonCalls } from './volunteer-util';

/**
 * Content media (README "Media: Range and durations"): `/attach/downloadFile` answers HTTP Range
 * (206, 416, If-Range, Accept-Ranges) so a staff player can seek in an attached video; and a
 * content row's seconds are read from its audio or video file when it is saved — filled when
 * left empty, replaced when typed more than 2 s off, untouched (and the row saved) when the file
 * cannot be read.
 *
 * The files are made here: a WAV's length is exact (bytes / byte rate), an MP3 of silent frames
 * is 191 × 1152 / 44100 ≈ 4.99 s, and tests/fixtures/media/clip-a.mp4 is a 3 s silent video (its
 * length is in its movie header).
 */

let s: TestServer;
let editor: string;
let admin: string;
const { post, ok, refused } = jsonCalls(() => s);
const BS = `${M}/bs`;

const get = (p: string, params: Record<string, unknown>, token = editor) =>
  s.call('GET', `${p}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`, {
    token,
  });

/** A mono 8-bit WAV of `seconds` at 8 kHz: its length is exact. */
function wav(seconds: number, rate = 8000): Buffer {
  const n = Math.round(seconds * rate);
  const b = Buffer.alloc(44 + n, 128);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + n, 4);
  b.write('WAVEfmt ', 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20); // PCM
  b.writeUInt16LE(1, 22); // mono
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(rate, 28); // bytes per second
  b.writeUInt16LE(1, 32);
  b.writeUInt16LE(8, 34);
  b.write('data', 36);
  b.writeUInt32LE(n, 40);
  return b;
}

/** An MP3 of `frames` silent MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz, 417 bytes each). */
function mp3(frames: number): Buffer {
  const b = Buffer.alloc(417 * frames);
  for (let i = 0; i < frames; i++) b.writeUInt32BE(0xfffb9064, i * 417);
  return b;
}

const CLIP = fs.readFileSync(path.join(import.meta.dirname, '../fixtures/media/clip-a.mp4'));
const BROKEN = Buffer.from('这不是音频文件'.repeat(40));

const upload = (table: string, name: string, bytes: Buffer) =>
  attachUpload(s, editor, table, 'file', name, bytes);
const image = (table: string) => attachUpload(s, editor, table, 'image');
const detail = async (record: string, id: number) => ok(await get(`${BS}/${record}/detail`, { id })).record;

async function audioVideo(fields: Record<string, unknown>): Promise<number> {
  return ok(
    await post(`${BS}/AudioVideo/save`, editor, {
      mediaType: 2,
      videoTypeId: '1',
      title: '馆藏讲解',
      cover: [await image('AudioVideo')],
      ...fields,
    }),
  ).id as number;
}

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  editor = await s.login('staff09');
  admin = await s.login('admin');
});
afterAll(async () => s?.close());

describe('attachments answer Range', () => {
  it('sends a range (206), refuses one past the end (416), honours If-Range and says Accept-Ranges', async () => {
    const att = await upload('AudioVideo', 'clip.mp4', CLIP);
    const size = CLIP.length;
    const url = `${s.url}${M}/attach/downloadFile?attachmentId=${att}`;
    const fetchWith = (headers: Record<string, string>) =>
      fetch(url, { headers: { token: editor, ...headers } });

    const whole = await fetchWith({});
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-length')).toBe(String(size));
    expect(whole.headers.get('x-content-type-options')).toBe('nosniff');
    expect(whole.headers.get('content-disposition')).toContain('attachment');
    expect(Buffer.from(await whole.arrayBuffer()).equals(CLIP)).toBe(true);
    const etag = whole.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);

    const part = await fetchWith({ range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${size}`);
    expect(part.headers.get('content-length')).toBe('100');
    expect(Buffer.from(await part.arrayBuffer()).equals(CLIP.subarray(100, 200))).toBe(true);

    const tail = await fetchWith({ range: 'bytes=-10' });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(CLIP.subarray(size - 10))).toBe(true);

    const past = await fetchWith({ range: `bytes=${size}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${size}`);
    await past.arrayBuffer();

    // If-Range: the range while the copy is this content; another tag gets the whole file.
    const same = await fetchWith({ range: 'bytes=0-9', 'if-range': etag });
    expect(same.status).toBe(206);
    await same.arrayBuffer();
    const other = await fetchWith({ range: 'bytes=0-9', 'if-range': '"0123456789abcdef0123456789abcdef"' });
    expect(other.status).toBe(200);
    expect(Buffer.from(await other.arrayBuffer()).length).toBe(size);

    // Whoever may not read the attachment gets nothing, ranged or not.
    const stranger = await fetch(url, { headers: { token: admin, range: 'bytes=0-9' } });
    expect(stranger.status).not.toBe(206);
    expect(((await stranger.json()) as { success: boolean }).success).toBe(false);
  });
});

describe('durations are read from the files', () => {
  it('fills empty seconds from an audio file, keeps a typed value within 2 s and replaces one further off', async () => {
    const empty = await audioVideo({ mediaFile: [await upload('AudioVideo', 'talk.wav', wav(5))] });
    expect((await detail('AudioVideo', empty)).durationSeconds).toBe(5);
    const close = await audioVideo({
      mediaFile: [await upload('AudioVideo', 'talk.wav', wav(5))],
      durationSeconds: 6,
    });
    expect((await detail('AudioVideo', close)).durationSeconds).toBe(6);
    const wrong = await audioVideo({
      mediaFile: [await upload('AudioVideo', 'talk.wav', wav(5))],
      durationSeconds: 300,
    });
    expect((await detail('AudioVideo', wrong)).durationSeconds).toBe(5);

    // An edit that swaps the file takes the new file's length.
    const row = await detail('AudioVideo', empty);
    ok(
      await post(`${BS}/AudioVideo/update`, editor, {
        ...row,
        id: empty,
        mediaFile: [await upload('AudioVideo', 'long.wav', wav(12.4))],
      }),
    );
    expect((await detail('AudioVideo', empty)).durationSeconds).toBe(12);
  });

  it('reads a video from its container, and an MP3 of a radio programme', async () => {
    const video = await audioVideo({
      mediaType: 1,
      mediaFile: [await upload('AudioVideo', 'clip.mp4', CLIP)],
    });
    expect((await detail('AudioVideo', video)).durationSeconds).toBe(3);

    const radio = ok(
      await post(`${BS}/bsElecticWave/save`, editor, {
        column: '文物说',
        title: '第一期',
        audioId: [await upload('bsElecticWave', 'ep1.mp3', mp3(191))],
      }),
    ).id as number;
    expect((await detail('bsElecticWave', radio)).durationSeconds).toBe(5);
  });

  it('fills a guide showroom, chapter and unit audio length', async () => {
    const hall = ok(await get(`${BS}/bsMuseumHall/list`, { pageCount: 1 }, admin)).list[0].id;
    const room = ok(
      await post(`${BS}/bsGuideShowroom/save`, editor, {
        hallId: hall,
        title: '青铜器展厅',
        cover: [await image('bsGuideShowroom')],
        audioId: [await upload('bsGuideShowroom', 'room.wav', wav(7))],
      }),
    ).id as number;
    expect((await detail('bsGuideShowroom', room)).audioSeconds).toBe(7);
    const chapter = ok(
      await post(`${BS}/bsGuideChapter/save`, editor, {
        showroomId: room,
        title: '第一部分',
        audioId: [await upload('bsGuideChapter', 'ch.wav', wav(3))],
      }),
    ).id as number;
    expect((await detail('bsGuideChapter', chapter)).audioSeconds).toBe(3);
    const unit = ok(
      await post(`${BS}/bsGuideUnit/save`, editor, {
        chapterId: chapter,
        title: '大克鼎',
        audioId: [await upload('bsGuideUnit', 'unit.wav', wav(9.6))],
        audioSeconds: 1,
      }),
    ).id as number;
    expect((await detail('bsGuideUnit', unit)).audioSeconds).toBe(10);
  });

  it('saves a row whose file cannot be read, with its seconds as typed (empty when none)', async () => {
    const none = await audioVideo({ mediaFile: [await upload('AudioVideo', 'broken.mp3', BROKEN)] });
    expect((await detail('AudioVideo', none)).durationSeconds).toBeNull();
    const typed = await audioVideo({
      mediaFile: [await upload('AudioVideo', 'broken.mp3', BROKEN)],
      durationSeconds: 42,
    });
    expect((await detail('AudioVideo', typed)).durationSeconds).toBe(42);
    // A truncated WAV (its header promises more than it holds) and an empty-bodied MP4 save too.
    const cut = await audioVideo({
      mediaFile: [await upload('AudioVideo', 'cut.wav', wav(5).subarray(0, 30))],
    });
    expect((await detail('AudioVideo', cut)).durationSeconds).toBeNull();
    const hollow = await audioVideo({
      mediaType: 1,
      mediaFile: [await upload('AudioVideo', 'hollow.mp4', CLIP.subarray(0, 64))],
    });
    expect((await detail('AudioVideo', hollow)).durationSeconds).toBeNull();
    // An outside address is never fetched: its seconds stay as typed.
    const outside = await audioVideo({ url: 'https://720yun.com/v/1', durationSeconds: 61 });
    expect((await detail('AudioVideo', outside)).durationSeconds).toBe(61);
    // Another record's upload is refused by the save, as before, not read.
    const foreign = await upload('bsElecticWave', 'x.wav', wav(2));
    expect(
      refused(
        await post(`${BS}/AudioVideo/save`, editor, {
          mediaType: 2,
          videoTypeId: '1',
          title: '别人的文件',
          cover: [await image('AudioVideo')],
          mediaFile: [foreign],
        }),
      ),
    ).toBeTruthy();
  });
});
