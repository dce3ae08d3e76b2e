import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileDetail } from '../../src/shared/api/drive';
import { driveServiceOf, startServer, type TestServer } from './harness';
import { NOT_FOUND, driveUser, type DriveUser } from './drive-util';
import { id3, id3v23, picture, probe, toneMp3 } from './media-util';
import { paramsOf, uploadAll } from './upload-util';

/*
 * file/detail (issue 5): the entry with its image size and, for audio, the music details read
 * from real MP3s made here (lamejs audio under a hand-built ID3v2.3 tag): title, artist, album,
 * cover, length and lyrics (USLT, SYLT, or a GBK .lrc beside the file).
 */

let s: TestServer;
let me: DriveUser;
let other: DriveUser;

beforeAll(async () => {
  s = await startServer();
  const svc = driveServiceOf(s);
  me = await driveUser(s, 'staff07', svc);
  other = await driveUser(s, 'staff08', svc);
});
afterAll(() => s.close());

async function detail(u: DriveUser, userFileId: number, area: Record<string, unknown> = {}) {
  const res = await u.get('/file/detail', { userFileId, ...area });
  expect(res.status).toBe(200);
  return res.body;
}

/** The detail's data, checked against the contract. */
async function music(u: DriveUser, id: number) {
  const body = await detail(u, id);
  expect(body.success).toBe(true);
  return FileDetail.parse(body.data).music;
}

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
async function mediaRow(content: Buffer) {
  return s.db
    .selectFrom('media_info')
    .innerJoin('blob', 'blob.id', 'media_info.blob_id')
    .selectAll('media_info')
    .where('blob.md5', '=', md5(content))
    .executeTakeFirst();
}

const LRC = '[00:01.00]素胚勾勒出青花笔锋浓转淡\n[00:02.50]瓶身描绘的牡丹一如你初妆';

describe('music details', () => {
  let tagged: Buffer;

  beforeAll(async () => {
    tagged = Buffer.concat([
      id3v23([
        id3.text('TIT2', '青花瓷'),
        id3.text('TPE1', '馆藏乐团'),
        id3.text('TALB', '瓷器之声'),
        id3.uslt(LRC),
        id3.apic('image/jpeg', await picture(600, 600)),
      ]),
      toneMp3(3),
    ]);
  });

  it('are read when an upload completes, before anyone asks', async () => {
    const r = await uploadAll(s, me.token, tagged, paramsOf(tagged, '青花瓷.mp3', {}, 64 * 1024));
    expect(r.data.done).toBe(true);
    let row = await mediaRow(tagged);
    for (let i = 0; i < 50 && !row; i++) {
      await new Promise((done) => setTimeout(done, 100));
      row = await mediaRow(tagged);
    }
    expect(row).toMatchObject({ ok: 1, title: '青花瓷', artist: '馆藏乐团', album: '瓷器之声' });
  });

  it('carry title, artist, album, a small cover, the length and LRC lyrics', async () => {
    const id = await me.idOf('/', '青花瓷.mp3');
    const m = await music(me, id);
    expect(m).toMatchObject({ title: '青花瓷', artist: '馆藏乐团', album: '瓷器之声', lyrics: LRC });
    expect(m!.trackLength).toBeCloseTo(3.03, 1);
    expect(m!.albumImage).toMatch(/^data:image\/webp;base64,/);
    const cover = Buffer.from(m!.albumImage!.split(',')[1]!, 'base64');
    expect(await probe(cover)).toEqual({ width: 300, height: 300, format: 'webp' });
    expect(cover.length).toBeLessThan(40 * 1024);
  });

  it('turn synchronised lyrics (SYLT) into [mm:ss.xx] lines', async () => {
    const mp3 = Buffer.concat([
      id3v23([
        id3.text('TIT2', '编钟'),
        id3.sylt([
          [1000, '第一声钟响'],
          [2500, '第二声钟响'],
          [65_430, '一分多钟'],
        ]),
      ]),
      toneMp3(2, 660),
    ]);
    const m = await music(me, await me.put('/', '编钟.mp3', mp3));
    expect(m).toMatchObject({ title: '编钟', artist: null, album: null, albumImage: null });
    expect(m!.lyrics).toBe('[00:01.00]第一声钟响\n[00:02.50]第二声钟响\n[01:05.43]一分多钟');
  });

  it('keep unsynchronised lyrics without timestamps as plain lines', async () => {
    const mp3 = Buffer.concat([id3v23([id3.uslt('第一行\r\n第二行\r\n')]), toneMp3(1)]);
    expect((await music(me, await me.put('/', '古琴.mp3', mp3)))!.lyrics).toBe('第一行\n第二行');
  });

  it('take lyrics from a same-named GBK .lrc in the same folder when the tags have none', async () => {
    const plain = toneMp3(2, 523);
    await me.mkdir('/', '音频导览');
    const id = await me.put('/音频导览/', '第一展厅.mp3', plain);
    expect((await music(me, id))!.lyrics).toBeNull();
    // "[00:00.50]欢迎参观\n[00:01.20]青铜器展厅" in GBK.
    const gbk = Buffer.concat([
      Buffer.from('[00:00.50]', 'latin1'),
      Buffer.from('bbb6d3adb2ceb9db', 'hex'),
      Buffer.from('\r\n[00:01.20]', 'latin1'),
      Buffer.from('c7e0cdadc6f7d5b9ccfc', 'hex'),
    ]);
    await me.put('/音频导览/', '第一展厅.LRC', gbk);
    const m = await music(me, id);
    expect(m).toMatchObject({
      title: null,
      artist: null,
      lyrics: '[00:00.50]欢迎参观\n[00:01.20]青铜器展厅',
    });
    expect(m!.trackLength).toBeCloseTo(2.04, 1);
  });

  it('never take an .lrc from another folder, another name or another person', async () => {
    const plain = toneMp3(1, 587);
    await me.put('/', '别处.lrc', '[00:01.00]不相干');
    await me.put('/', '第二展厅.lrc', '[00:01.00]放错了文件夹');
    await me.mkdir('/', '第二');
    const id = await me.put('/第二/', '第二展厅.mp3', plain);
    expect((await music(me, id))!.lyrics).toBeNull();
    await other.put('/第二/', '第二展厅.lrc', '[00:01.00]别人的歌词');
    expect((await music(me, id))!.lyrics).toBeNull();
    // The other person's copy of the same content sees their own .lrc.
    const theirs = await other.put('/第二/', '第二展厅.mp3', plain);
    expect((await music(other, theirs))!.lyrics).toBe('[00:01.00]别人的歌词');
  });

  it('are all null for a broken file, which is not read again', async () => {
    const junk = Buffer.from('ID3 but not really: just text that no decoder will take as audio'.repeat(5));
    const id = await me.put('/', '损坏的.mp3', junk);
    const body = await detail(me, id);
    expect(body.success).toBe(true);
    expect(body.data.music).toEqual({
      title: null,
      artist: null,
      album: null,
      albumImage: null,
      trackLength: null,
      lyrics: null,
    });
    const row = await mediaRow(junk);
    expect(row).toMatchObject({ ok: 0 });
    await detail(me, id);
    expect((await mediaRow(junk))!.created_at).toBe(row!.created_at);
  });

  it('are read once per content, for everyone who has it', async () => {
    const id = await other.put('/', '同一首.mp3', tagged);
    const before = await mediaRow(tagged);
    expect((await music(other, id))!.title).toBe('青花瓷');
    expect((await mediaRow(tagged))!.created_at).toBe(before!.created_at);
  });
});

describe('file/detail', () => {
  it('is null music for other files and folders', async () => {
    const txt = await detail(me, await me.put('/', '说明.txt', '文字'));
    expect(txt.data.music).toBeNull();
    const dir = await detail(me, await me.mkdir('/', '详情文件夹'));
    expect(FileDetail.parse(dir.data)).toMatchObject({ isDir: 1, music: null });
  });

  it('gives an image its width and height, read now when they were not recorded', async () => {
    const id = await me.put('/', '展品照片.png', await picture(320, 200, 'png'));
    expect((await detail(me, id)).data).toMatchObject({ imageWidth: 320, imageHeight: 200 });
    // An older file stored before sizes were recorded.
    await s.db
      .updateTable('user_file')
      .set({ image_width: null, image_height: null })
      .where('id', '=', id)
      .execute();
    expect((await detail(me, id)).data).toMatchObject({ imageWidth: 320, imageHeight: 200 });
    const row = await s.db.selectFrom('user_file').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect([row.image_width, row.image_height]).toEqual([320, 200]);
  });

  it("answers another person's id exactly like a missing one", async () => {
    const id = await me.put('/', '私人录音.mp3', toneMp3(1));
    const theirs = await detail(other, id);
    expect(theirs).toEqual(NOT_FOUND);
    expect(theirs).toEqual(await detail(other, 99999999));
  });

  it('shows a binned audio file to its owner, with its music', async () => {
    const mp3 = Buffer.concat([id3v23([id3.text('TIT2', '回收站里的歌')]), toneMp3(1)]);
    const id = await me.put('/', '回收.mp3', mp3);
    expect((await me.post('/file/deletefile', { userFileId: id })).body.success).toBe(true);
    const d = await detail(me, id);
    expect(d.data).toMatchObject({ deleteFlag: expect.any(Number), music: { title: '回收站里的歌' } });
    expect(d.data.deleteFlag).not.toBe(0);
  });
});
