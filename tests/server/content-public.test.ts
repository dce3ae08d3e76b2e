import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_PUBLIC_READS_PER_MINUTE } from '../../src/shared/api/content-public';
import { startServer, type TestServer } from './harness';
import { M, attachUpload } from './util';
import { jsonCalls } from './volunteer-util';

/**
 * The content's public read API (README "Website and mini-program content" › "Public read API
 * and preview"): no sign-in; published rows only, inside their window, by position, language
 * and parent, paged, in sort order; public fields only; ETag and 304; media of published rows
 * only, ranged; limited per address. Drafts and rows taken down are never visible: not in a
 * list, not by id, not their files.
 *
 * Each test sends from its own address (TRUST_PROXY), so the per-address limits stay its own.
 */

let s: TestServer;
let admin: string;
let editor: string;
const { post, ok } = jsonCalls(() => s);
const BS = `${M}/bs`;
const P = `${M}/contentPublic`;

let addr = 1;
let here = '10.9.0.1';
const nextAddress = () => (here = `10.9.${Math.floor(addr / 200)}.${(addr++ % 200) + 1}`);

/** A public GET (no token) from the test's address. */
const pub = (path: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  s.call(
    'GET',
    `${P}${path}${Object.keys(params).length ? '?' : ''}${new URLSearchParams(
      Object.entries(params).map(([k, v]) => [k, String(v)]),
    )}`,
    { headers: { 'x-forwarded-for': here, ...headers } },
  );
const list = async (kind: string, params: Record<string, unknown> = {}) => {
  const r = await pub(`/${kind}/list`, params);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.success, JSON.stringify(r.body)).toBe(true);
  return r.body.result as { list: Record<string, any>[]; total: number; page: number; pageSize: number };
};
const ids = async (kind: string, params: Record<string, unknown> = {}) =>
  (await list(kind, { pageSize: 50, ...params })).list.map((r) => r.id as number);
/** A raw fetch of a public URL (media: bytes, not JSON). */
const raw = (url: string, headers: Record<string, string> = {}) =>
  fetch(`${s.url}${url}`, { headers: { 'x-forwarded-for': here, ...headers } });

const read = (path: string, params: Record<string, unknown>, token = editor) =>
  s.call('GET', `${path}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`, {
    token,
  });
const image = (table: string) => attachUpload(s, editor, table, 'image');
const publish = async (record: string, id: number) =>
  ok(await post(`${BS}/${record}/publish`, editor, { id }));
const takeDown = async (record: string, id: number) =>
  ok(await post(`${BS}/${record}/takeDown`, editor, { id }));
const save = async (record: string, fields: Record<string, unknown>) =>
  ok(await post(`${BS}/${record}/save`, editor, fields)).id as number;

async function carousel(fields: Record<string, unknown>): Promise<number> {
  return save('bsCarousel', { position: 3, images: [await image('bsCarousel')], linkType: 0, ...fields });
}
async function exhibition(fields: Record<string, unknown> = {}, record = 'bsExhibition'): Promise<number> {
  return save(record, {
    exhType: 2,
    title: '江南织造特展',
    cover: [await image(record)],
    startDate: '2020-01-01',
    ...fields,
  });
}

/** An mp3-named file of `n` known bytes (the attachment keeps any bytes; the name gives its type). */
const AUDIO = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000', TRUST_PROXY: '127.0.0.1' });
  admin = await s.login('admin');
  editor = await s.login('staff09');
});
afterAll(async () => s?.close());

describe('what visitors see', () => {
  it('lists and shows only published rows: never a draft or a row taken down, by id or in a list', async () => {
    nextAddress();
    const shown = await exhibition({ title: '已发布展', summary: '公开摘要', content: '<p>正文</p>' });
    const draft = await exhibition({ title: '草稿展' });
    const down = await exhibition({ title: '下架展' });
    await publish('bsExhibition', shown);
    await publish('bsExhibition', down);
    await takeDown('bsExhibition', down);
    const seen = await ids('exhibition');
    expect(seen).toContain(shown);
    expect(seen).not.toContain(draft);
    expect(seen).not.toContain(down);
    for (const id of [draft, down, 999_999]) {
      const r = await pub('/exhibition/detail', { id });
      expect(r.body).toMatchObject({ success: false, message: '该展览不存在或未发布' });
    }
    const d = (await pub('/exhibition/detail', { id: shown })).body.result;
    expect(d).toMatchObject({ id: shown, title: '已发布展', summary: '公开摘要', content: '<p>正文</p>' });
    expect(d.exhTypeLabel).toBe('临时展览');
    expect(d.phase).toBe('now');
    expect(d.phaseLabel).toBe('展出中');
    // Only public fields: never who made it, its state or counters.
    for (const k of ['createBy', 'updateBy', 'status', 'viewCount', 'createTime'])
      expect(d).not.toHaveProperty(k);
    // Lists leave the rich text for the detail.
    const inList = (await list('exhibition', { pageSize: 50 })).list.find((r) => r.id === shown)!;
    expect(inList).not.toHaveProperty('content');
    expect(inList.cover[0]).toMatchObject({
      url: expect.stringMatching(/^\/singleMuseum\/contentPublic\/media\?id=\d+$/),
    });

    // Taken down: gone from the next answer at once (nothing is cached on the server).
    await takeDown('bsExhibition', shown);
    expect(await ids('exhibition')).not.toContain(shown);
    expect((await pub('/exhibition/detail', { id: shown })).body.success).toBe(false);
  });

  it('shows carousel rows only inside their display window, per position, in sort order', async () => {
    nextAddress();
    const hour = 3600_000;
    const now = Date.now();
    const b = await carousel({ title: 'B', sort: 20 });
    const a = await carousel({ title: 'A', sort: 10 });
    const c = await carousel({ title: 'C', sort: 20, startTime: now - hour, endTime: now + hour });
    const past = await carousel({ title: '已过期', startTime: now - 5 * hour, endTime: now - hour });
    const future = await carousel({ title: '未开始', startTime: now + hour });
    const draft = await carousel({ title: '草稿' });
    const elsewhere = await carousel({ title: '别处', position: 6 });
    for (const id of [a, b, c, past, future, elsewhere]) await publish('bsCarousel', id);
    // Sort, then oldest first: A (10), B (20, older), C (20).
    expect(await ids('carousel', { position: 3 })).toEqual([a, b, c]);
    expect(await ids('carousel', { position: 6 })).toEqual([elsewhere]);
    for (const id of [past, future, draft]) {
      expect((await pub('/carousel/detail', { id })).body.success).toBe(false);
    }
    // 上移: C before B, and the public order follows at once.
    ok(await read(`${BS}/bsCarousel/up`, { id: c }));
    expect(await ids('carousel', { position: 3 })).toEqual([a, c, b]);
    // Without a position: the language's home (zh 1, en 5).
    const home = await carousel({ title: '首页', position: 1 });
    const enHome = await carousel({ title: 'Home', position: 5 });
    await publish('bsCarousel', home);
    await publish('bsCarousel', enHome);
    expect(await ids('carousel')).toContain(home);
    expect(await ids('carousel')).not.toContain(enHome);
    expect(await ids('carousel', { lang: 'en' })).toEqual([enHome]);
    const item = (await list('carousel', { position: 3 })).list[0]!;
    expect(item).toMatchObject({ title: 'A', linkType: 0, linkTypeLabel: '无', positionLabel: '志愿服务页' });
  });

  it('drops a 内容详情 link whose target is no longer published', async () => {
    nextAddress();
    const target = await exhibition({ title: '链接目标' });
    await publish('bsExhibition', target);
    const linked = await carousel({ position: 2, linkType: 3, linkValue: `bsExhibition:${target}` });
    await publish('bsCarousel', linked);
    expect((await list('carousel', { position: 2 })).list.find((r) => r.id === linked)).toMatchObject({
      linkType: 3,
      linkValue: `bsExhibition:${target}`,
    });
    await takeDown('bsExhibition', target);
    expect((await list('carousel', { position: 2 })).list.find((r) => r.id === linked)).toMatchObject({
      linkType: 0,
      linkValue: '',
    });
  });

  it('answers exhibitions by phase and language: English rows for lang=en', async () => {
    nextAddress();
    const on = await exhibition({ title: '展出中', startDate: '2020-01-01' });
    const soon = await exhibition({ title: '未开幕', startDate: '2099-01-01' });
    const over = await exhibition({ title: '已闭幕', startDate: '2019-01-01', endDate: '2019-12-31' });
    const en = await exhibition(
      { zhId: on, title: 'Weaving of Jiangnan', summary: 'English text', startDate: '2020-01-01' },
      'enExhibition',
    );
    for (const id of [on, soon, over]) await publish('bsExhibition', id);
    await publish('enExhibition', en);
    const now = await ids('exhibition', { phase: 'now' });
    expect(now).toContain(on);
    expect(now).not.toContain(soon);
    expect(now).not.toContain(over);
    expect(await ids('exhibition', { phase: 'upcoming' })).toContain(soon);
    expect(await ids('exhibition', { phase: 'closed' })).toContain(over);
    expect(await ids('exhibition', { phase: 'closed' })).not.toContain(on);
    const english = (await list('exhibition', { lang: 'en', pageSize: 50 })).list;
    expect(english.map((r) => r.id)).toEqual([en]);
    expect(english[0]).toMatchObject({ title: 'Weaving of Jiangnan', summary: 'English text', zhId: on });
    // The Chinese row's id only while it is visible.
    await takeDown('bsExhibition', on);
    expect((await pub('/exhibition/detail', { id: en, lang: 'en' })).body.result.zhId).toBeNull();
    // The home: exhibitions on now, per language.
    const home = (await pub('/home', { lang: 'en' })).body.result;
    expect(home.lang).toBe('en');
    expect(home.exhibitions.map((r: { id: number }) => r.id)).toEqual([en]);
  });

  it('lists a showroom’s chapters and a chapter’s units, only under published parents', async () => {
    nextAddress();
    const hall = ok(await read(`${BS}/bsMuseumHall/list`, { pageCount: 1 }, admin)).list[0];
    const audio = await attachUpload(s, editor, 'bsGuideShowroom', 'file', 'guide.mp3', AUDIO);
    const room = await save('bsGuideShowroom', {
      hallId: hall.id,
      title: '青铜器展厅',
      cover: [await image('bsGuideShowroom')],
      audioId: [audio],
      audioSeconds: 95,
    });
    const ch1 = await save('bsGuideChapter', { showroomId: room, title: '第一章' });
    const ch2 = await save('bsGuideChapter', { showroomId: room, title: '第二章' });
    const unit = await save('bsGuideUnit', { chapterId: ch1, title: '大盂鼎', labelCode: 'PUB-1' });
    for (const [rec, id] of [
      ['bsGuideChapter', ch1],
      ['bsGuideChapter', ch2],
      ['bsGuideUnit', unit],
    ] as const)
      await publish(rec, id);
    // The showroom is a draft: nothing under it is visible.
    expect(await ids('chapter', { showroomId: room })).toEqual([]);
    expect(await ids('unit', { chapterId: ch1 })).toEqual([]);
    await publish('bsGuideShowroom', room);
    expect(await ids('chapter', { showroomId: room })).toEqual([ch1, ch2]);
    expect(await ids('unit', { chapterId: ch1 })).toEqual([unit]);
    expect(await ids('unit', { labelCode: 'PUB-1' })).toEqual([unit]);
    expect(await ids('unit', { chapterId: ch2 })).toEqual([]);
    const r = (await pub('/showroom/detail', { id: room })).body.result;
    expect(r.hall).toMatchObject({ id: hall.id, name: hall.name });
    expect(r).not.toHaveProperty('hallId');
    expect(r.audioId[0]).toMatchObject({ name: 'guide.mp3', size: AUDIO.length, type: 'audio/mpeg' });
    expect(r.audioSeconds).toBe(95);
    // The chapter taken down takes its units with it.
    await takeDown('bsGuideChapter', ch1);
    expect(await ids('chapter', { showroomId: room })).toEqual([ch2]);
    expect(await ids('unit', { chapterId: ch1 })).toEqual([]);
    expect((await pub('/unit/detail', { id: unit })).body.success).toBe(false);
  });
});

describe('the mini-program’s own records', () => {
  it('answers published digital relics and volunteer stories, without the relic’s register link', async () => {
    nextAddress();
    const relic = await save('bsDigitalRelic', {
      title: '大盂鼎',
      era: '西周',
      images: [await image('bsDigitalRelic')],
    });
    expect(await ids('relic')).not.toContain(relic);
    await publish('bsDigitalRelic', relic);
    const [r] = (await list('relic')).list.filter((x) => x.id === relic);
    expect(r).toMatchObject({ title: '大盂鼎', era: '西周' });
    expect(r).not.toHaveProperty('relicId');
    const story = await save('bsVolunteerStory', {
      title: '讲解员的一天',
      photos: [await image('bsVolunteerStory')],
    });
    await publish('bsVolunteerStory', story);
    expect(await ids('volunteerStory')).toContain(story);
  });
});

describe('the website’s own records', () => {
  it('answers published articles by column, the milestones, English relics and events; never the appraisals', async () => {
    nextAddress();
    const article = async (column: number, title: string) =>
      save('bsArticle', { column, title, cover: [await image('bsArticle')], content: '<p>正文</p>' });
    const palace = await article(1, '清宫里的节令');
    const notice = await article(3, '春节开闭馆公告');
    const draft = await article(3, '未发布的公告');
    await publish('bsArticle', palace);
    await publish('bsArticle', notice);
    expect(await ids('article', { column: 3 })).toEqual([notice]);
    expect(await ids('article', { column: 1 })).toEqual([palace]);
    expect((await pub('/article/detail', { id: draft })).body.success).toBe(false);
    const bad = await pub('/article/list', { column: 9 });
    expect(bad.body.message).toBe('栏目（column）须为 1–4 之间的整数');
    expect((await pub('/exhibition/list', { column: 1 })).body.message).toMatch(/^展览不能按 column 筛选/);

    const milestone = await save('bsCourse', { year: 1959, title: '新馆落成开放' });
    await publish('bsCourse', milestone);
    expect(await ids('course')).toContain(milestone);

    const relic = await save('enRelic', {
      title: 'Blue-and-white Vase',
      cover: [await image('enRelic')],
      era: 'Qing Dynasty',
    });
    const event = await save('enActivity', {
      title: 'Rubbing Workshop',
      cover: [await image('enActivity')],
      startDate: '2026-12-05',
      place: 'Lecture Hall, 2F',
    });
    await publish('enRelic', relic);
    await publish('enActivity', event);
    expect(await ids('relic', { lang: 'en' })).toEqual([relic]);
    expect(await ids('activity', { lang: 'en' })).toEqual([event]);
    expect((await pub('/activity/list')).body.message).toBe('活动只有英文版，请使用 lang=en');
    // The appraisal requests hold people's contact details: no public kind reads them.
    expect((await pub('/identify/list')).body.success).toBe(false);
  });
});

describe('paging and bad parameters', () => {
  it('pages within 1–50 a page and refuses bad parameters with words a developer can act on', async () => {
    nextAddress();
    const made: number[] = [];
    for (let i = 0; i < 3; i++) made.push(await save('bsScience', { category: 3, title: `专著 ${i}` }));
    for (const id of made) await publish('bsScience', id);
    const p1 = await list('science', { category: 3, page: 1, pageSize: 2 });
    const p2 = await list('science', { category: 3, page: 2, pageSize: 2 });
    expect(p1).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect([...p1.list, ...p2.list].map((r) => r.id)).toEqual(made);
    expect((await list('science', { category: 3, page: 9 })).list).toEqual([]);

    const bad: [string, Record<string, unknown>, string][] = [
      ['/science/list', { pageSize: 51 }, '每页条数（pageSize）须为 1–50 之间的整数'],
      ['/science/list', { pageSize: 0 }, '每页条数（pageSize）须为 1–50 之间的整数'],
      ['/science/list', { page: 'abc' }, '页码（page）须为 1–100000 之间的整数'],
      ['/science/list', { lang: 'fr' }, '语言（lang）只能是 zh（中文）或 en（英文）'],
      ['/science/list', { lang: 'en' }, '学术研究暂无英文版，请去掉 lang=en 或改为 lang=zh'],
      ['/news/list', {}, '英文资讯只有英文版，请使用 lang=en'],
      [
        '/exhibition/list',
        { phase: 'soon' },
        '展出状态（phase）只能是 now（展出中）、upcoming（未开幕）或 closed（已闭幕）',
      ],
      ['/exhibition/list', { position: 1 }, '展览不能按 position 筛选（可用：phase）'],
      ['/carousel/list', { position: 9 }, '展示位置（position）须为 1–6 之间的整数'],
      ['/unit/list', { labelCode: '<x>' }, '展签编号（labelCode）只能由 1–20 位字母、数字或 - 组成'],
      ['/exhibition/detail', {}, '编号（id）须为 1–2147483647 之间的整数'],
    ];
    for (const [path, params, message] of bad) {
      const r = await pub(path, params);
      expect(r.body, `${path} ${JSON.stringify(params)}`).toMatchObject({ success: false, message });
    }
  });
});

describe('caching', () => {
  it('answers a weak ETag and 304 while nothing changed; a change changes the tag; public short max-age', async () => {
    nextAddress();
    const id = await save('bsClassroom', {
      courseType: '1',
      title: '拓印课',
      cover: [await image('bsClassroom')],
    });
    await publish('bsClassroom', id);
    const first = await pub('/classroom/list');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=30');
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    const again = await pub('/classroom/list', {}, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    ok(
      await post(`${BS}/bsClassroom/update`, editor, {
        id,
        courseType: '1',
        title: '拓印课（新）',
        cover: (await read(`${BS}/bsClassroom/detail`, { id })).body.result.record.cover,
      }),
    );
    const changed = await pub('/classroom/list', {}, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(changed.body.result.list.find((r: { id: number }) => r.id === id).title).toBe('拓印课（新）');
  });
});

describe('media', () => {
  it('serves files of published rows with Range (206, 416), and refuses those of drafts and rows taken down', async () => {
    nextAddress();
    const file = await attachUpload(s, editor, 'bsElecticWave', 'file', 'ep1.mp3', AUDIO);
    const ep = await save('bsElecticWave', { column: '馆藏故事', title: '第一期', audioId: [file] });
    const url = `${M}/contentPublic/media?id=${file}`;
    const gone = async () => {
      const r = await raw(url);
      expect(r.status).toBe(404);
      expect(((await r.json()) as { message: string }).message).toBe('文件不存在或未公开');
    };
    await gone(); // a draft's file
    await publish('bsElecticWave', ep);
    const whole = await raw(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('audio/mpeg');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('cache-control')).toBe('public, max-age=60');
    expect(Buffer.from(await whole.arrayBuffer()).equals(AUDIO)).toBe(true);
    const part = await raw(url, { range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${AUDIO.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(AUDIO.subarray(100, 200))).toBe(true);
    const beyond = await raw(url, { range: `bytes=${AUDIO.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${AUDIO.length}`);
    const etag = whole.headers.get('etag')!;
    expect((await raw(url, { 'if-none-match': etag })).status).toBe(304);
    // Taken down: its file goes with it.
    await takeDown('bsElecticWave', ep);
    await gone();
    // An upload never bound to a row, and a staff-only table's file, are not public either.
    const loose = await attachUpload(s, editor, 'bsElecticWave', 'file', 'loose.mp3', AUDIO);
    expect((await raw(`${M}/contentPublic/media?id=${loose}`)).status).toBe(404);
    expect((await raw(`${M}/contentPublic/media?id=abc`)).status).toBe(400);
  });

  it('serves a published row’s images and rewrites its rich text images to the public call', async () => {
    nextAddress();
    const cover = await image('bsExhibition');
    const inText = await image('bsExhibition');
    const id = await exhibition({
      cover: [cover],
      content: `<p>图</p><img src="/singleMuseum/attach/image?attachmentId=${inText}">`,
    });
    expect((await raw(`${M}/contentPublic/media?id=${inText}`)).status).toBe(404);
    await publish('bsExhibition', id);
    const d = (await pub('/exhibition/detail', { id })).body.result;
    expect(d.content).toContain(`src="/singleMuseum/contentPublic/media?id=${inText}"`);
    const img = await raw(d.cover[0].url);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect((await raw(`${M}/contentPublic/media?id=${inText}`)).status).toBe(200);
  });
});

describe('view and play counts', () => {
  it('counts a detail read once per visitor a day, and a play from the first bytes of an audio or video row', async () => {
    nextAddress();
    const id = await exhibition({ title: '计数特展' });
    await publish('bsExhibition', id);
    const counts = async (record: string, rowId: number) =>
      ok(await read(`${BS}/${record}/detail`, { id: rowId })).record as Record<string, number>;
    const detail = (ua: string) => pub('/exhibition/detail', { id }, { 'user-agent': ua });
    // The same visitor three times, another browser at the same address, and a crawler.
    for (let i = 0; i < 3; i++) expect((await detail('Mozilla/5.0 (iPad)')).status).toBe(200);
    expect((await detail('Mozilla/5.0 (Android)')).status).toBe(200);
    expect((await detail('Googlebot/2.1')).status).toBe(200);
    expect((await counts('bsExhibition', id)).viewCount).toBe(2);
    // A draft's detail is refused and counts nothing.
    const draft = await exhibition({ title: '未发布特展' });
    expect((await pub('/exhibition/detail', { id: draft })).body.success).toBe(false);
    expect((await counts('bsExhibition', draft)).viewCount).toBe(0);

    const file = await attachUpload(s, editor, 'AudioVideo', 'file', 'talk.mp3', AUDIO);
    const av = await save('AudioVideo', {
      mediaType: 2,
      videoTypeId: '1',
      title: '讲座录音',
      cover: [await image('AudioVideo')],
      mediaFile: [file],
    });
    await publish('AudioVideo', av);
    const media = (headers: Record<string, string>) =>
      raw(`${M}/contentPublic/media?id=${file}`, { 'user-agent': 'Mozilla/5.0 (iPad)', ...headers });
    // A seek (a later range) is the same play; the first bytes start one, once a day.
    expect((await media({ range: 'bytes=500-' })).status).toBe(206);
    expect((await counts('AudioVideo', av)).playCount).toBe(0);
    // Asking for the headers alone (HEAD) plays nothing.
    const head = await fetch(`${s.url}${M}/contentPublic/media?id=${file}`, {
      method: 'HEAD',
      headers: { 'x-forwarded-for': here, 'user-agent': 'Mozilla/5.0 (iPad)' },
    });
    expect(head.status).toBe(200);
    expect((await counts('AudioVideo', av)).playCount).toBe(0);
    expect((await media({ range: 'bytes=0-' })).status).toBe(206);
    expect((await media({})).status).toBe(200);
    expect((await counts('AudioVideo', av)).playCount).toBe(1);
  });
});

describe('throttling', () => {
  it(`limits each call to ${CONTENT_PUBLIC_READS_PER_MINUTE} a minute per address`, async () => {
    const one = nextAddress();
    for (let i = 0; i < CONTENT_PUBLIC_READS_PER_MINUTE; i++) {
      const r = await pub('/radio/list', { pageSize: 1 });
      if (r.status !== 200) throw new Error(`request ${i + 1} answered ${r.status}`);
    }
    const r = await pub('/radio/list', { pageSize: 1 });
    expect(r.status).toBe(429);
    expect(r.body.message).toMatch(/^请求过于频繁，请 \d+ 秒后再试$/);
    // Each call counts on its own: another call from the same address still answers.
    expect((await pub('/science/list')).status).toBe(200);
    // Another address is not held back.
    nextAddress();
    expect(here).not.toBe(one);
    expect((await pub('/radio/list')).status).toBe(200);
  });
});
