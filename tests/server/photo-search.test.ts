import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHOTO_MSG, PHOTO_QUERY_MAX } from '../../src/shared/api/photo';
import { startServer, type TestServer } from './harness';
import { scene, VARIANTS } from './photo-util';
import { paramsOf, uploadAll, md5 } from './upload-util';
import { M, attachUpload, personWithMenu } from './util';

/*
 * Image search (README "Image search"): a seeded set of photo-like scenes in the 高清图片 and
 * 其他资源 libraries and on a collection record; near-duplicates of each (resized,
 * recompressed, cropped by 10 % three ways, all at once) find their original first. Only what
 * the caller may see is answered; bad pictures are refused in Chinese.
 */

let s: TestServer;
let admin: string;
let keeper: string;
const originals: Buffer[] = [];
const ORIGINALS = 8;

async function upload(token: string, file: Buffer, name: string, area: Record<string, number> = {}) {
  const res = await uploadAll(s, token, file, paramsOf(file, name, area));
  if (!res?.success) throw new Error(JSON.stringify(res));
}

/** Waits until the server has hashed every content in `md5s` (hashing runs after the upload answers). */
async function hashed(md5s: string[]) {
  for (let i = 0; i < 200; i++) {
    const rows = await s.db.selectFrom('image_hash').select('md5').where('md5', 'in', md5s).execute();
    if (rows.length === md5s.length) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('not hashed in time');
}

async function byImage(token: string, body: Buffer, source = 'all', type = 'image/jpeg') {
  const res = await fetch(`${s.url}${M}/photo/searchByImage?source=${source}`, {
    method: 'POST',
    headers: { token, 'content-type': type },
    body: new Uint8Array(body),
  });
  return (await res.json()) as any;
}

beforeAll(async () => {
  s = await startServer();
  admin = await s.login('admin');
  keeper = await s.login('staff04');
  for (let i = 0; i < ORIGINALS; i++) originals.push(await scene(500 + i));
  // Half in 高清图片, half in 其他资源, with distractor scenes beside them.
  for (let i = 0; i < ORIGINALS; i++)
    await upload(admin, originals[i]!, `原图${i}.jpg`, i % 2 ? { fileType: 9 } : { isFmt: 2 });
  const distractors = await Promise.all([0, 1, 2, 3].map((i) => scene(900 + i)));
  for (const [i, d] of distractors.entries()) await upload(admin, d, `其他${i}.jpg`, { isFmt: 2 });
  await hashed([...originals, ...distractors].map(md5));
}, 120_000);
afterAll(async () => {
  await s?.close();
});

describe('searchByImage', () => {
  for (const [name, make] of Object.entries(VARIANTS)) {
    it(`finds the original first for a ${name} copy`, async () => {
      for (let i = 0; i < ORIGINALS; i++) {
        const body = await byImage(keeper, await make(originals[i]!));
        expect(body.success, JSON.stringify(body)).toBe(true);
        const first = body.result.list[0];
        expect(first?.fileName, `${name} of 原图${i}`).toBe(`原图${i}`);
        expect(first.source).toBe(i % 2 ? 'res' : 'hd');
        expect(first.similarity).toBeGreaterThanOrEqual(90);
        // A copy is never mistaken for a distractor.
        for (const hit of body.result.list) expect(hit.fileName).toMatch(/^原图/);
      }
    });
  }

  it('answers an unrelated picture with nothing', async () => {
    const body = await byImage(keeper, await scene(31337));
    expect(body).toMatchObject({ success: true, result: { list: [], total: 0 } });
  });

  it('limits to one library with source', async () => {
    const body = await byImage(keeper, originals[1]!, 'hd');
    expect(body.result.list).toEqual([]);
    const res = await byImage(keeper, originals[1]!, 'res');
    expect(res.result.list[0].fileName).toBe('原图1');
    expect(res.result.list[0].distance).toBe(0);
    expect(res.result.list[0].similarity).toBe(100);
  });

  it('never answers anyone’s personal drive, even for the same bytes', async () => {
    const mine = await scene(4242);
    const other = await s.login('staff06');
    await upload(other, mine, '我的私人照片.jpg');
    // The same content as a library file: only the library's copy is answered.
    await upload(other, originals[0]!, '私人副本.jpg');
    await hashed([md5(mine)]);
    expect((await byImage(keeper, mine)).result.list).toEqual([]);
    expect((await byImage(other, mine)).result.list).toEqual([]);
    const hits = (await byImage(keeper, originals[0]!)).result.list;
    expect(hits.map((h: any) => h.fileName)).toEqual(['原图0']);
  });

  it('links a collection record’s image to its record, before a library copy', async () => {
    const attId = await attachUpload(s, keeper, 'bsDigitalassetsInfo', 'image', 'p.jpg', originals[2]!);
    const now = Date.now();
    const rec = await s.db
      .insertInto('bs_digitalassets_info' as any)
      .values({
        register_no: '总00001',
        name: '兽面纹青铜鼎',
        era: '商',
        images: `,${attId},`,
        create_time: now,
        update_time: now,
        del_flag: 0,
      })
      .returning('id' as any)
      .executeTakeFirstOrThrow();
    const recordId = Number((rec as { id: number }).id);
    await s.db.updateTable('attachment').set({ record_id: recordId }).where('id', '=', attId).execute();
    const hits = (await byImage(keeper, await VARIANTS.croppedCorner(originals[2]!))).result.list;
    expect(hits[0]).toMatchObject({
      source: 'collection',
      attachmentId: attId,
      userFileId: null,
      record: { id: recordId, name: '兽面纹青铜鼎', code: '总00001' },
    });
    expect(hits[1]).toMatchObject({ source: 'hd', fileName: '原图2' });
    // By the record's fields in the text search.
    const text = await s.call('GET', `${M}/photo/search?keyword=${encodeURIComponent('青铜鼎')}`, {
      token: keeper,
    });
    expect(text.body.result.list[0]).toMatchObject({ source: 'collection', record: { id: recordId } });
    // Someone who may not read the collection gets the library copy only.
    const curatorLike = await personWithMenu(s, 'photoonly', ['resources.photoSearch']);
    const theirs = (await byImage(curatorLike, originals[2]!)).result.list;
    expect(theirs.map((h: any) => h.source)).toEqual(['hd']);
    // A deleted record's images are gone from the answers.
    await s.db
      .updateTable('bs_digitalassets_info' as any)
      .set({ del_flag: 1 })
      .where('id' as any, '=', recordId)
      .execute();
    expect((await byImage(keeper, originals[2]!)).result.list.map((h: any) => h.source)).toEqual(['hd']);
  });
});

describe('search by name, keywords and date taken', () => {
  it('finds by file name, XMP keyword and EXIF date taken', async () => {
    const xmp = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:subject><rdf:Bag><rdf:li>唐三彩</rdf:li><rdf:li>展厅二</rdf:li></rdf:Bag></dc:subject></rdf:Description></rdf:RDF></x:xmpmeta>`;
    const tagged = await sharp(await scene(777))
      .withExif({ IFD2: { DateTimeOriginal: '2024:05:18 09:30:00' } })
      .withXmp(xmp)
      .jpeg()
      .toBuffer();
    await upload(admin, tagged, '库房巡查.jpg', { isFmt: 2 });
    await hashed([md5(tagged)]);
    const q = (query: string) => s.call('GET', `${M}/photo/search?${query}`, { token: keeper });
    const names = (r: any) => r.body.result.list.map((h: any) => h.fileName);
    expect(names(await q(`keyword=${encodeURIComponent('唐三彩')}`))).toEqual(['库房巡查']);
    expect(names(await q(`keyword=${encodeURIComponent('巡查')}`))).toEqual(['库房巡查']);
    const day = await q('takenFrom=2024-05-18&takenTo=2024-05-18');
    expect(names(day)).toEqual(['库房巡查']);
    expect(day.body.result.list[0].takenAt).toBe(Date.UTC(2024, 4, 18, 1, 30));
    expect(day.body.result.list[0].tags).toEqual(['唐三彩', '展厅二']);
    expect(names(await q('takenFrom=2024-05-19'))).toEqual([]);
    // Every library image, newest taken first, paged.
    const all = await q('source=hd&pageCount=3');
    expect(all.body.result.total).toBe(9);
    expect(all.body.result.list).toHaveLength(3);
    expect(all.body.result.list[0].fileName).toBe('库房巡查');
    // Not the personal drive's names.
    expect(names(await q(`keyword=${encodeURIComponent('私人')}`))).toEqual([]);
  });

  it('refuses a reversed date range and bad parameters in Chinese', async () => {
    const r = await s.call('GET', `${M}/photo/search?takenFrom=2024-05-20&takenTo=2024-05-01`, {
      token: keeper,
    });
    expect(r.body).toMatchObject({ success: false, message: PHOTO_MSG.badRange });
    const bad = await s.call('GET', `${M}/photo/search?takenFrom=2024/05/20`, { token: keeper });
    expect(bad.body.success).toBe(false);
    expect(bad.body.message).toContain('拍摄日期（起）格式应为 yyyy-MM-dd');
    const src = await s.call('GET', `${M}/photo/search?source=mine`, { token: keeper });
    expect(src.body.message).toContain('搜索范围只能是');
  });
});

describe('refusals', () => {
  it('needs the 以图搜图 grant', async () => {
    const plain = await s.login('staff02');
    expect(await byImage(plain, originals[0]!)).toMatchObject({
      success: false,
      message: PHOTO_MSG.forbidden,
    });
    const r = await s.call('GET', `${M}/photo/search`, { token: plain });
    expect(r.body).toMatchObject({ success: false, message: PHOTO_MSG.forbidden });
  });

  it('refuses an empty body, a file that is not a picture, a broken one and one too large', async () => {
    expect(await byImage(keeper, Buffer.alloc(0))).toMatchObject({
      success: false,
      message: PHOTO_MSG.empty,
    });
    expect(await byImage(keeper, Buffer.from('这不是图片，只是一段文字'))).toMatchObject({
      success: false,
      message: PHOTO_MSG.notImage,
    });
    expect(await byImage(keeper, Buffer.from('%PDF-1.4'), 'all', 'application/pdf')).toMatchObject({
      success: false,
      message: PHOTO_MSG.notImage,
    });
    // A JPEG's first bytes and nothing after.
    expect(await byImage(keeper, originals[0]!.subarray(0, 200))).toMatchObject({
      success: false,
      message: PHOTO_MSG.notImage,
    });
    const huge = Buffer.alloc(PHOTO_QUERY_MAX + 1);
    originals[0]!.copy(huge);
    expect(await byImage(keeper, huge)).toMatchObject({ success: false, message: PHOTO_MSG.tooBig });
    expect(PHOTO_MSG.tooBig).toContain('20 MB');
  });
});
