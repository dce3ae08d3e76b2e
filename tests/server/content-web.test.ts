import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { M, attachUpload, personWithMenu, userIdOf } from './util';
import { jsonCalls } from './volunteer-util';

/**
 * The website's and the English website's own records (README "Website and English website
 * pages"; src/shared/records/content/website.ts): articles by column with their sort within a
 * column and their links checked like every content row's, milestones within their year, the
 * 文物鉴定 pipeline (受理 with an expert, 不予受理 with a reason, 已鉴定 only with a result in 鉴定记录,
 * the last result of a finished request kept, no result for a refused request), who may read the
 * appraisal requests (their contact details), and the English relics and events. The generic
 * record suite covers each record's own calls.
 *
 * `editor` is 郑凯 (staff09, 信息管理员), who holds the website and English website modules;
 * `staff` (staff02) holds none of them.
 */

let s: TestServer;
let editor: string;
let staff: string;
let expert: number;
const { post, ok, refused } = jsonCalls(() => s);
const BS = `${M}/bs`;

/** A spec GET that reads or writes (list, detail, up, down, delete): query and the token header. */
const act = (path: string, params: Record<string, unknown>, token = editor) =>
  s.call('GET', `${path}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`, {
    token,
  });

const image = (table: string, token = editor) => attachUpload(s, token, table, 'image');
const ids = (r: { list: { id: number }[] }) => r.list.map((x) => x.id);
const detail = async (record: string, id: number, token = editor) =>
  ok(await act(`${BS}/${record}/detail`, { id }, token));

async function article(fields: Record<string, unknown>, token = editor): Promise<number> {
  return ok(await post(`${BS}/bsArticle/save`, token, { column: 2, title: '开放时间调整', ...fields }))
    .id as number;
}

async function request(fields: Record<string, unknown> = {}): Promise<number> {
  return ok(
    await post(`${BS}/bsIdentify/save`, editor, {
      channel: 1,
      applicant: '王先生',
      phone: '13912345678',
      relicName: '青花缠枝莲纹瓶',
      description: '高约 30 厘米，底有“大清乾隆年制”六字篆书款，家传',
      photos: [await image('bsIdentify'), await image('bsIdentify')],
      ...fields,
    }),
  ).id as number;
}

async function result(requestId: number | null, fields: Record<string, unknown> = {}) {
  return post(`${BS}/bsIdentifyRecord/save`, editor, {
    requestId,
    relicName: '青花缠枝莲纹瓶',
    expertId: expert,
    identifyDate: '2026-11-20',
    era: '清',
    conclusion: 2,
    opinion: '青花发色浮艳，款识字体软弱，为近代仿品',
    ...fields,
  });
}

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  editor = await s.login('staff09');
  staff = await s.login('staff02');
  expert = await userIdOf(s, 'staff04');
});
afterAll(async () => s?.close());

describe('website articles', () => {
  it('keeps each column its own list and sort, publishes, and checks links like every content row', async () => {
    const a = await article({ column: 3, title: '闭馆公告' });
    const b = await article({ column: 3, title: '恢复开放公告' });
    const news = await article({ column: 2, title: '新展预告', sort: 1 });
    const notices = async () =>
      ids(ok(await act(`${BS}/bsArticle/list`, { column: 3, pageCount: 200 }))).filter((i) =>
        [a, b].includes(i),
      );
    expect(await notices()).toEqual([a, b]);
    ok(await act(`${BS}/bsArticle/up`, { id: b }));
    expect(await notices()).toEqual([b, a]);
    // The first of its column, though a 资讯 row sorts before it.
    expect(refused(await act(`${BS}/bsArticle/up`, { id: b }))).toBe('已经排在最前面了');
    expect((await detail('bsArticle', news)).record.sort).toBe(1);

    ok(await post(`${BS}/bsArticle/publish`, editor, { id: a }));
    expect((await detail('bsArticle', a)).record).toMatchObject({ status: 1 });
    ok(await post(`${BS}/bsArticle/takeDown`, editor, { id: a }));
    expect((await detail('bsArticle', a)).record.status).toBe(2);

    // Rich text links: the allow-list, as every content record's; scripts are gone.
    const off = await post(`${BS}/bsArticle/save`, editor, {
      column: 1,
      title: '清宫节令',
      content: '<p>详见<a href="https://evil.example.com/x">这里</a></p>',
    });
    expect(refused(off)).toContain('“evil.example.com”不在外链白名单中');
    const clean = await article({
      column: 1,
      title: '清宫节令',
      content:
        '<p onclick="x()">正文</p><script>alert(1)</script><a href="https://www.720yun.com/t/1">全景</a>',
    });
    const html = (await detail('bsArticle', clean)).record.content as string;
    expect(html).not.toMatch(/script|onclick/);
    expect(html).toContain('rel="noopener noreferrer"');

    // A column outside the four is refused, naming the field.
    expect(refused(await post(`${BS}/bsArticle/save`, editor, { column: 9, title: 'x' }))).toContain('栏目');
  });

  it('lets a holder of one website article page write articles, and nobody else', async () => {
    const qinggong = await personWithMenu(s, 'qgEditor', ['website.qinggong']);
    const id = await article(
      { column: 1, title: '养心殿', cover: [await image('bsArticle', qinggong)] },
      qinggong,
    );
    expect((await detail('bsArticle', id, qinggong)).record.title).toBe('养心殿');
    // An English website page reads articles (a carousel may link one) but does not write them.
    const en = await personWithMenu(s, 'enPremium', ['enWebsite.premium']);
    expect((await act(`${BS}/bsArticle/list`, {}, en)).body.success).toBe(true);
    expect((await post(`${BS}/bsArticle/save`, en, { column: 1, title: 'x' })).body.code).toBe(1005);
    expect((await act(`${BS}/bsArticle/list`, {}, staff)).body.code).toBe(1005);
  });
});

describe('发展历程', () => {
  it('keeps a milestone’s day inside its year and sorts within the year', async () => {
    const wrong = await post(`${BS}/bsCourse/save`, editor, {
      year: 1958,
      eventDate: '1959-10-01',
      title: '建馆',
    });
    expect(refused(wrong)).toBe('具体日期须在 1958 年内，或清空具体日期只填年份');
    expect(wrong.body.result.fields.eventDate).toBe('具体日期须在 1958 年内，或清空具体日期只填年份');
    expect(refused(await post(`${BS}/bsCourse/save`, editor, { year: 99, title: '建馆' }))).toContain('年份');

    const save = async (year: number, title: string) =>
      ok(await post(`${BS}/bsCourse/save`, editor, { year, title })).id as number;
    const late = await save(2011, '新馆开放');
    const a = await save(1958, '筹建');
    const b = await save(1958, '建馆');
    const list = ids(ok(await act(`${BS}/bsCourse/list`, { pageCount: 200 })));
    // By year first: 1958's two before 2011's.
    expect(list.indexOf(b)).toBeLessThan(list.indexOf(late));
    ok(await act(`${BS}/bsCourse/up`, { id: b }));
    const year = ids(ok(await act(`${BS}/bsCourse/list`, { yearFrom: 1958, yearTo: 1958 })));
    expect(year).toEqual([b, a]);
    expect(refused(await act(`${BS}/bsCourse/up`, { id: b }))).toBe('已经排在最前面了');
  });
});

describe('文物鉴定', () => {
  it('accepts a request with an expert, needs a result before 已鉴定, and keeps its last result', async () => {
    const id = await request();
    expect((await detail('bsIdentify', id)).record).toMatchObject({ status: 0, expertId: null });
    // 受理 names the expert.
    const bare = await post(`${BS}/bsIdentify/accept`, editor, { id });
    expect(bare.status).toBe(400);
    expect(bare.body.message).toContain('鉴定专家');
    // Not accepted yet: it cannot be marked 已鉴定.
    expect(refused(await post(`${BS}/bsIdentify/finish`, editor, { id }))).toBe('状态已变化，请刷新');
    const before = Date.now();
    ok(await post(`${BS}/bsIdentify/accept`, editor, { id, expertId: expert }));
    const accepted = (await detail('bsIdentify', id)).record;
    expect(accepted).toMatchObject({ status: 1, expertId: expert });
    expect(accepted.acceptTime).toBeGreaterThanOrEqual(before);

    // No result yet: refused, and the request stays 已受理.
    expect(refused(await post(`${BS}/bsIdentify/finish`, editor, { id }))).toBe(
      '“王先生：青花缠枝莲纹瓶”还没有鉴定记录，请先在“鉴定记录”中登记专家的鉴定结论，再标记为已鉴定',
    );
    expect((await detail('bsIdentify', id)).record.status).toBe(1);

    const first = ok(await result(id)).id as number;
    ok(await post(`${BS}/bsIdentify/finish`, editor, { id }));
    const done = await detail('bsIdentify', id);
    expect(done.record.status).toBe(2);
    expect(done.log.map((l: { actionLabel: string }) => l.actionLabel)).toEqual([
      '新建',
      '受理',
      '标记已鉴定',
    ]);
    // The list finds a request's results.
    expect(ids(ok(await act(`${BS}/bsIdentifyRecord/list`, { requestId: id })))).toEqual([first]);

    // Its only result stays; with a second one, either may go.
    expect(refused(await act(`${BS}/bsIdentifyRecord/delete`, { id: first }))).toBe(
      '鉴定申请“王先生：青花缠枝莲纹瓶”已标记为已鉴定，这是它唯一的鉴定记录，不能删除；如结论有误请修改这条记录',
    );
    const second = ok(await result(id, { conclusion: 3, opinion: '复核：存疑，建议送检' })).id as number;
    ok(await act(`${BS}/bsIdentifyRecord/delete`, { id: first }));
    expect(refused(await act(`${BS}/bsIdentifyRecord/delete`, { id: second }))).toContain('唯一的鉴定记录');
    // A request with results cannot be deleted (they point to it).
    expect((await act(`${BS}/bsIdentify/delete`, { id })).body.success).toBe(false);
  });

  it('refuses a request with a reason, and then takes no result for it', async () => {
    const id = await request({ relicName: '铜佛像' });
    const bare = await post(`${BS}/bsIdentify/refuse`, editor, { id });
    expect(bare.status).toBe(400);
    expect(bare.body.message).toContain('不予受理原因');
    ok(
      await post(`${BS}/bsIdentify/refuse`, editor, {
        id,
        rejectReason: '照片不清晰，请补充底部照片后重新提交',
      }),
    );
    expect((await detail('bsIdentify', id)).record).toMatchObject({
      status: 3,
      rejectReason: '照片不清晰，请补充底部照片后重新提交',
    });
    expect(refused(await post(`${BS}/bsIdentify/accept`, editor, { id, expertId: expert }))).toBe(
      '状态已变化，请刷新',
    );
    const r = await result(id, { relicName: '铜佛像' });
    expect(refused(r)).toBe('鉴定申请“王先生：铜佛像”已不予受理，不能登记鉴定记录');
    expect(r.body.result.fields.requestId).toContain('已不予受理');
    // The conclusion is chosen, never assumed.
    expect(refused(await result(null, { conclusion: '' }))).toBe('请选择鉴定结论');
    expect(refused(await result(null, { conclusion: 9 }))).toContain('鉴定结论');
    // A relic brought in person needs no request.
    ok(await result(null, { relicName: '现场送鉴铜镜' }));
  });

  it('checks the applicant’s contact and photos, masks the phone in lists, and keeps requests to their pages', async () => {
    const photos = [await image('bsIdentify')];
    const base = { channel: 1, applicant: '李女士', relicName: '玉璧', description: '直径 12 厘米', photos };
    expect(refused(await post(`${BS}/bsIdentify/save`, editor, { ...base, phone: '12345' }))).toContain(
      '联系电话',
    );
    expect(
      refused(await post(`${BS}/bsIdentify/save`, editor, { ...base, phone: '13912345678', photos: [] })),
    ).toBe('请上传藏品照片');
    expect(
      refused(await post(`${BS}/bsIdentify/save`, editor, { ...base, phone: '13912345678', email: 'no-at' })),
    ).toContain('电子邮箱');
    // A file that is not an image is not a photo.
    const pdf = await attachUpload(s, editor, 'bsIdentify', 'file', '说明.pdf');
    expect(
      (await post(`${BS}/bsIdentify/save`, editor, { ...base, phone: '13912345678', photos: [pdf] })).body
        .success,
    ).toBe(false);

    const id = await request({ applicant: '李女士', phone: '13800001111' });
    const row = ok(await act(`${BS}/bsIdentify/list`, { pageCount: 200 })).list.find(
      (r: { id: number }) => r.id === id,
    );
    expect(row.phone).not.toBe('13800001111');
    expect((await detail('bsIdentify', id)).record.phone).toBe('13800001111');

    // Contact details: only the two appraisal pages read them, not the other content pages.
    const course = await personWithMenu(s, 'courseOnly', ['website.course']);
    expect((await act(`${BS}/bsIdentify/list`, {}, course)).body.code).toBe(1005);
    expect((await act(`${BS}/bsIdentify/detail`, { id }, staff)).body.code).toBe(1005);
    const records = await personWithMenu(s, 'recordsOnly', ['website.identifyRecord']);
    expect((await act(`${BS}/bsIdentify/detail`, { id }, records)).body.success).toBe(true);
  });
});

describe('the English website’s relics and events', () => {
  it('keeps an event’s end after its start and links a carousel to a published event only', async () => {
    const cover = [await image('enActivity')];
    const wrong = await post(`${BS}/enActivity/save`, editor, {
      title: 'Rubbing Workshop',
      cover,
      startDate: '2026-12-06',
      endDate: '2026-12-05',
      place: 'Lecture Hall',
    });
    expect(refused(wrong)).toBe('结束日期不能早于开始日期');
    expect(
      refused(await post(`${BS}/enActivity/save`, editor, { title: 'x', cover, startDate: '2026-12-06' })),
    ).toContain('地点');
    const event = ok(
      await post(`${BS}/enActivity/save`, editor, {
        title: 'Rubbing Workshop',
        cover: [await image('enActivity')],
        startDate: '2026-12-05',
        place: 'Lecture Hall',
      }),
    ).id as number;
    const link = async () =>
      post(`${BS}/bsCarousel/save`, editor, {
        position: 5,
        images: [await image('bsCarousel')],
        linkType: 3,
        linkValue: `enActivity:${event}`,
      });
    expect(refused(await link())).toBe('链接地址指向的英文活动“Rubbing Workshop”尚未发布，请先发布它再链接');
    ok(await post(`${BS}/enActivity/publish`, editor, { id: event }));
    ok(await link());
  });

  it('keeps a relic’s collection number optional and positive, and its cover an image', async () => {
    const base = { title: 'Blue-and-white Vase', era: 'Qing Dynasty', material: 'Porcelain' };
    const id = ok(await post(`${BS}/enRelic/save`, editor, { ...base, cover: [await image('enRelic')] })).id;
    expect((await detail('enRelic', id)).record.relicId).toBeNull();
    expect(
      refused(
        await post(`${BS}/enRelic/save`, editor, { ...base, cover: [await image('enRelic')], relicId: 0 }),
      ),
    ).toContain('馆藏编号');
    expect(refused(await post(`${BS}/enRelic/save`, editor, base))).toContain('封面');
    // Only the 精品文物 page writes them.
    const activity = await personWithMenu(s, 'enActivityOnly', ['enWebsite.activity']);
    expect((await act(`${BS}/enRelic/delete`, { id }, activity)).body.code).toBe(1005);
    expect((await act(`${BS}/enRelic/detail`, { id }, activity)).body.success).toBe(true);
  });
});
