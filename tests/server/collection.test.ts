import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { attachUpload, M, personWithMenu } from './util';

/*
 * The collection's data approvals (issue 24; README "Collection (issue 24)"), against the real
 * server and the demo museum: 陈静 (staff04, 典藏部 keeper) asks; the flow 藏品数据审批 goes to
 * 典藏部's head 赵磊 (staff03); 王芳 (staff02, 办公室) holds no resources menu; `reader` holds
 * 藏品资料 only (no superior: an extract's first node goes to the administrators).
 */

let s: TestServer;
const tok: Record<string, string> = {};

beforeAll(async () => {
  s = await startServer();
  for (const a of ['admin', 'staff02', 'staff03', 'staff04']) tok[a] = await s.login(a);
  tok.reader = await personWithMenu(s, 'reader', ['resources.collection']);
});
afterAll(() => s.close());

const post = async (who: string, path: string, body?: unknown) =>
  (await s.call('POST', `${M}${path}`, { token: tok[who], body: body ?? {} })).body;
const get = async (who: string, path: string) =>
  (await s.call('GET', `${M}${path}`, { token: tok[who] })).body;
const approve = (who: string, actvityId: number, action: 2 | 3 = 2, reason?: string) =>
  post(who, '/workflowInst/approval', { actvityId, action, ...(reason ? { reason } : {}) });

/** A full, valid 藏品 body. */
const relic = (n: number, extra: Record<string, unknown> = {}) => ({
  registerNo: `总${String(n).padStart(5, '0')}`,
  name: `青铜鼎${n}`,
  category: '4',
  level: '2',
  era: '西周',
  texture: '11',
  material: '青铜',
  dimensions: '通高 38.5 厘米',
  completeness: '1',
  preservation: '1',
  source: '1',
  accessionDate: '2020-05-01',
  storageLocation: '一号库房 A 柜 3 层',
  description: '器形规整',
  applyReason: '新入藏登记',
  ...extra,
});

const applyImage = (who = 'staff04', bytes?: Buffer) =>
  attachUpload(s, tok[who]!, 'bsDigitalassetsApply', 'image', 'p.png', bytes);

const rowByNo = (registerNo: string) =>
  s.db
    .selectFrom('bs_digitalassets_info' as never)
    .selectAll()
    .where('register_no' as never, '=', registerNo as never)
    .execute() as Promise<Record<string, unknown>[]>;
const applyRow = (id: number) =>
  s.db
    .selectFrom('bs_digitalassets_apply' as never)
    .selectAll()
    .where('id' as never, '=', id as never)
    .executeTakeFirstOrThrow() as Promise<Record<string, unknown>>;
const counts = async (who: string) =>
  (await get(who, '/bsDigitalassetsInfo/countApproval')).result as {
    all: number;
    uploadCount: number;
    applyCount: number;
  };

async function added(n: number, extra: Record<string, unknown> = {}) {
  const res = await post('staff04', '/bsDigitalassetsApply/add', relic(n, extra));
  expect(res.success, JSON.stringify(res)).toBe(true);
  expect((await approve('staff03', res.result.actvityId)).success).toBe(true);
  return (await rowByNo(relic(n).registerNo))[0]!;
}

describe('adding a 藏品 goes through the approval', () => {
  it('is applied once when approved, with its image, and counted while it waits', async () => {
    const before = await counts('staff03');
    const img = await applyImage();
    const res = await post('staff04', '/bsDigitalassetsApply/add', relic(1, { images: [img] }));
    expect(res.success, JSON.stringify(res)).toBe(true);
    const { id, actvityId } = res.result as { id: number; actvityId: number };
    // Nothing in the collection yet; the reviewer's badge counts it.
    expect(await rowByNo('总00001')).toHaveLength(0);
    expect((await counts('staff03')).uploadCount).toBe(before.uploadCount + 1);
    expect((await counts('staff03')).all).toBe(before.all + 1);
    expect((await counts('staff04')).uploadCount).toBe(0);
    // The reviewer's list has it, awaiting them; the applicant's list too.
    const review = await get('staff03', '/bsDigitalassetsApply/pageList?applyRole=2');
    expect(review.result.list.find((r: { id: number }) => r.id === id)?.awaitingMe).toBe(true);
    const mine = await get('staff04', '/bsDigitalassetsApply/pageList?applyRole=1&applyKind=1');
    expect(mine.result.list.map((r: { id: number }) => r.id)).toContain(id);

    expect((await approve('staff03', actvityId)).success).toBe(true);
    const rows = await rowByNo('总00001');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.name).toBe('青铜鼎1');
    expect(rows[0]!.level).toBe('2');
    const a = await applyRow(id);
    expect(a.status).toBe(2);
    expect(a.applied_at).not.toBeNull();
    expect(Number(a.record_id)).toBe(Number(rows[0]!.id));
    // The image is the record's own attachment now (a copy bound to the row).
    const ids = String(rows[0]!.images).split(',').filter(Boolean).map(Number);
    expect(ids).toHaveLength(1);
    const att = await s.db
      .selectFrom('attachment')
      .selectAll()
      .where('id', '=', ids[0]!)
      .executeTakeFirstOrThrow();
    expect(att.table_name).toBe('bsDigitalassetsInfo');
    expect(Number(att.record_id)).toBe(Number(rows[0]!.id));
    expect((await counts('staff03')).uploadCount).toBe(before.uploadCount);

    // A second decision changes nothing: still one row, applied once.
    const again = await approve('staff03', actvityId);
    expect(again.success).toBe(false);
    expect(await rowByNo('总00001')).toHaveLength(1);
    expect((await applyRow(id)).applied_at).toBe(a.applied_at);
  });

  it('a refused one adds nothing; a cancelled one neither', async () => {
    const res = await post('staff04', '/bsDigitalassetsApply/add', relic(2));
    expect(res.success).toBe(true);
    const refused = await approve('staff03', res.result.actvityId, 3, '登记号有误');
    expect(refused.success).toBe(true);
    expect(await rowByNo('总00002')).toHaveLength(0);
    expect((await applyRow(res.result.id)).status).toBe(3);

    const res2 = await post('staff04', '/bsDigitalassetsApply/add', relic(3));
    const cancel = await post('staff04', '/workflowInst/cancel', {
      actvityId: res2.result.actvityId,
      action: 4,
      reason: '填错了',
    });
    expect(cancel.success, JSON.stringify(cancel)).toBe(true);
    expect(await rowByNo('总00003')).toHaveLength(0);
    expect((await applyRow(res2.result.id)).status).toBe(4);
  });
});

describe('changing a 藏品', () => {
  it('changes the row only when approved; refused changes nothing; one open change at a time', async () => {
    const row = await added(10);
    const id = Number(row.id);
    const body = { ...relic(10), id, name: '青铜鼎（改）', level: '1', applyReason: '定级结果' };
    const first = await post('staff04', '/bsDigitalassetsApply/update', body);
    expect(first.success, JSON.stringify(first)).toBe(true);
    // The reviewer sees what changes, in words.
    const detail = await get('staff03', `/bsDigitalassetsApply/detail?id=${first.result.id}`);
    expect(detail.success).toBe(true);
    const changes = detail.result.changes as { label: string; before: string; after: string }[];
    expect(changes).toContainEqual(
      expect.objectContaining({ label: '文物级别', before: '二级', after: '一级' }),
    );
    expect(changes).toContainEqual(expect.objectContaining({ label: '名称', after: '青铜鼎（改）' }));
    // A second change while the first waits is refused.
    const second = await post('staff04', '/bsDigitalassetsApply/update', { ...body, name: '又改' });
    expect(second).toMatchObject({
      success: false,
      message: '该藏品已有审批中的修改申请，请等待审批结束后再提交',
    });

    expect((await approve('staff03', first.result.actvityId, 3, '级别需专家复核')).success).toBe(true);
    expect((await rowByNo('总00010'))[0]).toMatchObject({ name: '青铜鼎10', level: '2' });

    const third = await post('staff04', '/bsDigitalassetsApply/update', body);
    expect(third.success).toBe(true);
    expect((await approve('staff03', third.result.actvityId)).success).toBe(true);
    expect((await rowByNo('总00010'))[0]).toMatchObject({ name: '青铜鼎（改）', level: '1' });
  });

  it('refuses bad input in Chinese, and a change that changes nothing', async () => {
    const row = await added(20);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...relic(21), registerNo: '' }, /总登记号/],
      [{ ...relic(21), category: '99' }, /文物类别/],
      [{ ...relic(21), accessionDate: '2020-13-01' }, /入藏日期须为有效日期/],
      [{ ...relic(21), applyReason: '' }, /请填写申请理由/],
      [{ ...relic(21), name: 'x'.repeat(101) }, /名称/],
      [relic(20), /总登记号已存在/],
    ];
    for (const [body, msg] of cases) {
      const res = await post('staff04', '/bsDigitalassetsApply/add', body);
      expect(res.success, JSON.stringify(body)).toBe(false);
      expect(res.message).toMatch(msg);
    }
    const same = await post('staff04', '/bsDigitalassetsApply/update', { ...relic(20), id: Number(row.id) });
    expect(same).toMatchObject({ success: false, message: '没有修改任何内容，无需提交审批' });
    // Someone else's upload is not an image this applicant may use.
    const theirs = await applyImage('staff03');
    const stolen = await post('staff04', '/bsDigitalassetsApply/add', relic(22, { images: [theirs] }));
    expect(stolen.success).toBe(false);
    expect(stolen.message).toMatch(/藏品图片中有图片不存在或已失效/);
    // Nothing was started for any of them.
    expect(await rowByNo('总00021')).toHaveLength(0);
  });
});

describe('other people', () => {
  it('cannot ask, read or decide what is not theirs', async () => {
    const res = await post('staff04', '/bsDigitalassetsApply/add', relic(30));
    expect(res.success).toBe(true);
    const refused = await post('staff02', '/bsDigitalassetsApply/add', relic(31));
    expect(refused.success).toBe(false);
    expect(refused.message).toMatch(/无权限/);
    expect(await get('staff02', `/bsDigitalassetsApply/detail?id=${res.result.id}`)).toMatchObject({
      success: false,
      message: '申请不存在或您无权查看',
    });
    expect((await approve('staff02', res.result.actvityId)).success).toBe(false);
    // The applicant cannot approve their own request either.
    expect((await approve('staff04', res.result.actvityId)).success).toBe(false);
    expect(await rowByNo('总00030')).toHaveLength(0);
    // Not in other people's lists.
    const theirs = await get('staff02', '/bsDigitalassetsApply/pageList?applyRole=2');
    expect(theirs.result.list.map((r: { id: number }) => r.id)).not.toContain(res.result.id);
    expect((await get('staff02', '/bsDigitalassetsInfo/pageList')).success).toBe(false);
  });
});

describe('readers and extracts', () => {
  let recordId = 0;
  let imageId = 0;
  let original: Buffer;

  beforeAll(async () => {
    original = await sharp({ create: { width: 2400, height: 1600, channels: 3, background: '#a52' } })
      .png()
      .toBuffer();
    const img = await applyImage('staff04', original);
    const row = await added(40, { images: [img] });
    recordId = Number(row.id);
    imageId = Number(String(row.images).split(',').filter(Boolean)[0]);
  });

  it('readers see no storage location and a reduced preview, never the original', async () => {
    const list = await get('reader', '/bsDigitalassetsInfo/pageList?keyword=总00040');
    expect(list.success).toBe(true);
    expect(list.result.list[0].storageLocation).toBe('');
    expect(list.result.names.files[String(imageId)].attPath).toBe(
      `/singleMuseum/bsDigitalassetsInfo/preview?attachmentId=${imageId}`,
    );
    const detail = await get('reader', `/bsDigitalassetsInfo/detail?id=${recordId}`);
    expect(detail.result.record.storageLocation).toBe('');
    const keeper = await get('staff04', `/bsDigitalassetsInfo/detail?id=${recordId}`);
    expect(keeper.result.record.storageLocation).toBe('一号库房 A 柜 3 层');

    const orig = await s.call('GET', `${M}/attach/image?attachmentId=${imageId}`, { token: tok.reader });
    expect(orig.body.success).toBe(false);
    const res = await fetch(`${s.url}${M}/bsDigitalassetsInfo/preview?attachmentId=${imageId}`, {
      headers: { token: tok.reader! },
    });
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBe(1280);
    // Someone without the collection menu gets no preview.
    const none = await s.call('GET', `${M}/bsDigitalassetsInfo/preview?attachmentId=${imageId}`, {
      token: tok.staff02,
    });
    expect(none.body.success).toBe(false);
  });

  it('an approved extract lets its applicant download the original for a limited time, and nobody else', async () => {
    const before = await counts('admin');
    const bad = await post('reader', '/bsDigitalassetsApply/extract', {
      id: recordId,
      images: [999999],
      applyReason: '出版',
    });
    expect(bad).toMatchObject({ success: false, message: '所选图片不属于该藏品，请重新选择' });
    const noReason = await post('reader', '/bsDigitalassetsApply/extract', { id: recordId });
    expect(noReason.success).toBe(false);
    expect(noReason.message).toMatch(/申请理由/);

    const res = await post('reader', '/bsDigitalassetsApply/extract', {
      id: recordId,
      applyReason: '图录出版',
    });
    expect(res.success, JSON.stringify(res)).toBe(true);
    const { id, actvityId } = res.result as { id: number; actvityId: number };
    const dl = `/bsDigitalassetsApply/download?id=${id}&attachmentId=${imageId}`;
    // Not before it passes.
    expect((await get('reader', dl)).message).toBe('该提取申请尚未通过审批，不能下载原图');
    // The reader has no superior: the administrators decide the first node, then 典藏部's head.
    expect((await counts('admin')).applyCount).toBe(before.applyCount + 1);
    expect((await approve('admin', actvityId)).success).toBe(true);
    expect((await counts('staff03')).applyCount).toBeGreaterThanOrEqual(1);
    expect((await approve('staff03', actvityId)).success).toBe(true);

    const detail = await get('reader', `/bsDigitalassetsApply/detail?id=${id}`);
    expect(detail.result.status).toBe(2);
    expect(detail.result.expiresAt - detail.result.decidedAt).toBe(7 * 86_400_000);
    expect(detail.result.images[0].downloadPath).toBe(`/singleMuseum${dl}`);

    const file = await fetch(`${s.url}${M}${dl}`, { headers: { token: tok.reader! } });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(original)).toBe(true);
    expect(Number((await applyRow(id)).download_count)).toBe(1);
    // Another person, even a keeper, cannot use this extract.
    expect((await get('staff04', dl)).message).toBe('申请不存在或您无权查看');
    // Once the time is over, refused with what to do.
    await s.db
      .updateTable('bs_digitalassets_apply' as never)
      .set({ expires_at: Date.now() - 1 } as never)
      .where('id' as never, '=', id as never)
      .execute();
    expect((await get('reader', dl)).message).toBe(
      '下载期限已过（审批通过后 7 天内有效），如仍需要请重新申请',
    );
  });
});
