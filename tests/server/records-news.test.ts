import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { M, PNG_1X1 } from './util';

/**
 * 馆内动态 (wkDynamic): drafts and rows taken down are the publishers' own; everyone reads what is
 * published, newest first; the images in its text are the row's attachments, readable exactly
 * by those who may read the row.
 */

let s: TestServer;
let office: string;
let staff: string;

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  office = await s.login('staff01');
  staff = await s.login('staff02');
});
afterAll(async () => s?.close());

async function uploadImage(token: string) {
  const fd = new FormData();
  fd.append('tableName', 'wkDynamic');
  fd.append('file', new Blob([new Uint8Array(PNG_1X1)], { type: 'image/png' }), 'p.png');
  const res = await fetch(`${s.url}${M}/attach/uploadimage`, {
    method: 'POST',
    headers: { token },
    body: fd,
  });
  return (await res.json()) as any;
}
/** Whether `token` gets the image's bytes (a refusal is the envelope, HTTP 200, JSON). */
const seesImage = async (token: string, src: string) =>
  ((await fetch(`${s.url}${src}`, { headers: { token } })).headers.get('content-type') ?? '').startsWith(
    'image/',
  );

describe('museum news', () => {
  it('shows readers only what is published, newest first, with its images', async () => {
    const img = await uploadImage(office);
    expect(img.success).toBe(true);
    const src = img.result.attPath as string;
    const save = (title: string, extra = '') =>
      s.call('POST', `${M}/wkDynamic/save`, {
        token: office,
        body: { title, content: `<p>${title}</p>${extra}<script>alert(1)</script>` },
      });
    const a = (await save('库房搬迁完成', `<p><img src="${src}" alt="现场"></p>`)).body.result.id;
    const b = (await save('志愿者培训')).body.result.id;
    const detail = await s.call('GET', `${M}/wkDynamic/detail?id=${a}`, { token: office });
    expect(detail.body.result.record.content).toBe(
      `<p>库房搬迁完成</p><p><img src="${src}" alt="现场" /></p>`,
    );

    // A draft: not for readers, nor its image.
    expect((await s.call('GET', `${M}/wkDynamic/list`, { token: staff })).body.result.total).toBe(0);
    expect(await seesImage(staff, src)).toBe(false);
    expect(await seesImage(office, src)).toBe(true);

    for (const id of [a, b]) await s.call('POST', `${M}/wkDynamic/publish`, { token: office, body: { id } });
    const list = await s.call('GET', `${M}/wkDynamic/list`, { token: staff });
    expect(list.body.result.list.map((r: { title: string }) => r.title)).toEqual([
      '志愿者培训',
      '库房搬迁完成',
    ]);
    // Lists leave the text out; the detail has it.
    expect(list.body.result.list[0].content).toBeUndefined();
    expect(await seesImage(staff, src)).toBe(true);

    await s.call('POST', `${M}/wkDynamic/takeDown`, { token: office, body: { id: a } });
    expect((await s.call('GET', `${M}/wkDynamic/detail?id=${a}`, { token: staff })).body.code).toBe(404);
    expect(await seesImage(staff, src)).toBe(false);
    const counts = (await s.call('GET', `${M}/wkDynamic/list`, { token: office })).body.result.counts;
    expect(counts).toEqual(
      expect.arrayContaining([
        { value: 1, count: 1 },
        { value: 2, count: 1 },
      ]),
    );
  });

  it('lets only 信息发布’s holders upload its images', async () => {
    expect((await uploadImage(staff)).code).toBe(1005);
  });
});
