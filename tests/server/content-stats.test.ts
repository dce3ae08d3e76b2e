import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countView, type MuseumVisit } from '../../src/server/modules/content/views';
import { addDays, museumDate, parseMuseumTime } from '../../src/shared/rules/museum-time';
import { startServer, type TestServer } from './harness';
import { M, attachUpload, personWithMenu } from './util';
import { jsonCalls } from './volunteer-util';

/**
 * View counts and 访问统计 (README "View counts and 统计"): `countView` (content/views.ts) as the
 * public read API calls it — one counted visit per visitor, row, kind and museum day, also in a
 * concurrent burst; only published rows; the row's 浏览量 / 播放量 in step with the day table —
 * and the 统计 calls under /bs/tongji over seeded visits: per day, per month, the top rows,
 * per record, museum-day boundaries, refusals of bad ranges and of people without the leaf.
 *
 * Seeded visits sit on past days far from today, so each test's figures are its own.
 */

let s: TestServer;
let editor: string;
let staff: string;
let websiteOnly: string;
const { post, ok, refused } = jsonCalls(() => s);
const BS = `${M}/bs`;

const get = (path: string, params: Record<string, unknown>, token = editor) =>
  s.call('GET', `${path}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`, {
    token,
  });
const tongji = (call: string, params: Record<string, unknown>, token = editor) =>
  get(`${BS}/tongji/${call}`, params, token);

/** A visit from `ip` with a browser, at a museum time 'yyyy-MM-dd HH:mm:ss' (now when left out). */
const visit = (ip: string, at?: string, userAgent = 'Mozilla/5.0 (iPhone) MicroMessenger'): MuseumVisit => ({
  ip,
  userAgent,
  now: at ? parseMuseumTime(at)! : undefined,
});

async function published(record: string, fields: Record<string, unknown>): Promise<number> {
  const id = ok(await post(`${BS}/${record}/save`, editor, fields)).id as number;
  ok(await post(`${BS}/${record}/publish`, editor, { id }));
  return id;
}

const exhibition = async (title: string) =>
  published('bsExhibition', {
    exhType: 2,
    title,
    cover: [await attachUpload(s, editor, 'bsExhibition', 'image')],
    startDate: '2026-01-01',
  });

const rowOf = async (record: string, id: number) =>
  ok(await get(`${BS}/${record}/detail`, { id })).record as Record<string, unknown>;

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  editor = await s.login('staff09');
  staff = await s.login('staff02');
  websiteOnly = await personWithMenu(s, 'tongji01', ['website.tongji']);
});
afterAll(async () => s?.close());

describe('countView', () => {
  it('counts one view per visitor (address and browser) per row per museum day, only of published rows', async () => {
    const id = await exhibition('青铜时代');
    const day = '2025-03-10';
    expect(await countView(s.db, visit('203.0.113.5', `${day} 10:00:00`), 'bsExhibition', id)).toBe(true);
    // The same visitor again that day: not counted.
    expect(await countView(s.db, visit('203.0.113.5', `${day} 18:30:00`), 'bsExhibition', id)).toBe(false);
    // Another browser on the same address, another address: each a visitor.
    expect(
      await countView(
        s.db,
        visit('203.0.113.5', `${day} 11:00:00`, 'Mozilla/5.0 (Android)'),
        'bsExhibition',
        id,
      ),
    ).toBe(true);
    expect(await countView(s.db, visit('203.0.113.6', `${day} 11:00:00`), 'bsExhibition', id)).toBe(true);
    // An IPv6 visitor counts by its /64, as every throttle does.
    expect(await countView(s.db, visit('2001:db8:1:2::10', `${day} 12:00:00`), 'bsExhibition', id)).toBe(
      true,
    );
    expect(await countView(s.db, visit('2001:db8:1:2::99', `${day} 12:05:00`), 'bsExhibition', id)).toBe(
      false,
    );
    // The next museum day the first visitor counts again.
    expect(await countView(s.db, visit('203.0.113.5', '2025-03-11 09:00:00'), 'bsExhibition', id)).toBe(true);
    expect((await rowOf('bsExhibition', id)).viewCount).toBe(5);

    // Crawlers, unknown records, plays of what does not play, bad ids: not counted.
    expect(
      await countView(
        s.db,
        visit('198.51.100.1', undefined, 'Googlebot/2.1 (+http://www.google.com/bot.html)'),
        'bsExhibition',
        id,
      ),
    ).toBe(false);
    expect(await countView(s.db, visit('198.51.100.1'), 'bsNoSuchRecord', id)).toBe(false);
    expect(await countView(s.db, visit('198.51.100.1'), 'bsRelation', id)).toBe(false);
    expect(await countView(s.db, visit('198.51.100.1'), 'bsExhibition', id, 'play')).toBe(false);
    expect(await countView(s.db, visit('198.51.100.1'), 'bsExhibition', -1)).toBe(false);
    expect(await countView(s.db, visit('198.51.100.1'), 'bsExhibition', 99_999_999)).toBe(false);

    // A draft and a taken-down row are never counted, and leave no trace.
    const draft = ok(
      await post(`${BS}/bsExhibition/save`, editor, {
        exhType: 2,
        title: '草稿展览',
        cover: [await attachUpload(s, editor, 'bsExhibition', 'image')],
        startDate: '2026-01-01',
      }),
    ).id as number;
    expect(await countView(s.db, visit('198.51.100.2'), 'bsExhibition', draft)).toBe(false);
    ok(await post(`${BS}/bsExhibition/takeDown`, editor, { id }));
    expect(await countView(s.db, visit('198.51.100.3'), 'bsExhibition', id)).toBe(false);
    expect((await rowOf('bsExhibition', draft)).viewCount).toBe(0);
    expect((await rowOf('bsExhibition', id)).viewCount).toBe(5);
    const seen = await s.db
      .selectFrom('content_view_seen')
      .selectAll()
      .where('row_id', 'in', [id, draft])
      .execute();
    expect(seen.filter((r) => r.record === 'bsExhibition' && r.row_id === draft)).toEqual([]);
    // Privacy: visitors are stored as hashes, never as an address or a browser.
    for (const r of seen) {
      expect(r.visitor).toMatch(/^[0-9a-f]{64}$/);
      expect(r.visitor).not.toContain('203.0.113');
    }

    // The day table agrees with the row's total.
    const days = await s.db
      .selectFrom('content_view_day')
      .select(['day', 'n'])
      .where('record', '=', 'bsExhibition')
      .where('row_id', '=', id)
      .orderBy('day')
      .execute();
    expect(days).toEqual([
      { day: '2025-03-10', n: 4 },
      { day: '2025-03-11', n: 1 },
    ]);
  });

  it('counts plays of audio and video apart from their views', async () => {
    const id = await published('AudioVideo', {
      mediaType: 1,
      videoTypeId: '1',
      title: '铸造工艺',
      cover: [await attachUpload(s, editor, 'AudioVideo', 'image')],
      url: 'https://720yun.com/v/casting',
    });
    const at = '2025-04-02 10:00:00';
    expect(await countView(s.db, visit('192.0.2.1', at), 'AudioVideo', id)).toBe(true);
    expect(await countView(s.db, visit('192.0.2.1', at), 'AudioVideo', id, 'play')).toBe(true);
    expect(await countView(s.db, visit('192.0.2.1', at), 'AudioVideo', id, 'play')).toBe(false);
    expect(await countView(s.db, visit('192.0.2.2', at), 'AudioVideo', id, 'play')).toBe(true);
    const row = await rowOf('AudioVideo', id);
    expect(row.viewCount).toBe(1);
    expect(row.playCount).toBe(2);
  });

  it('counts a burst of the same visitor once and a burst of different visitors each, at once', async () => {
    const id = await exhibition('并发展览');
    const same = await Promise.all(
      Array.from({ length: 25 }, () => countView(s.db, visit('203.0.113.77'), 'bsExhibition', id)),
    );
    expect(same.filter(Boolean)).toHaveLength(1);
    const many = await Promise.all(
      Array.from({ length: 40 }, (_, i) => countView(s.db, visit(`198.18.0.${i + 1}`), 'bsExhibition', id)),
    );
    expect(many.every(Boolean)).toBe(true);
    expect((await rowOf('bsExhibition', id)).viewCount).toBe(41);
    const today = museumDate(Date.now());
    const day = await s.db
      .selectFrom('content_view_day')
      .select('n')
      .where('record', '=', 'bsExhibition')
      .where('row_id', '=', id)
      .where('day', '=', today)
      .executeTakeFirstOrThrow();
    expect(day.n).toBe(41);
    // Today's figures show them (the default range ends today).
    const days = ok(await tongji('days', { site: 'website' }));
    expect(days.days).toHaveLength(30);
    expect(days.to).toBe(today);
    expect(days.from).toBe(addDays(today, -29));
    expect(days.views.at(-1)).toBeGreaterThanOrEqual(41);
  });
});

describe('访问统计', () => {
  let exhA: number;
  let exhB: number;
  let video: number;
  let english: number;

  beforeAll(async () => {
    exhA = await exhibition('江南织造');
    exhB = await exhibition('丝路遗珍');
    video = await published('AudioVideo', {
      mediaType: 2,
      videoTypeId: '1',
      title: '讲解：丝路',
      cover: [await attachUpload(s, editor, 'AudioVideo', 'image')],
      url: 'https://720yun.com/v/silk',
    });
    english = await published('enExhibition', {
      exhType: 2,
      title: 'Silk Road Treasures',
      cover: [await attachUpload(s, editor, 'enExhibition', 'image')],
      startDate: '2026-01-01',
    });
    // 2025-06-10: A ×3, English ×2; 2025-06-11: A ×1, B ×2, the video 2 views and 3 plays.
    const seed: [string, number, string, number, 'view' | 'play'][] = [
      ['bsExhibition', exhA, '2025-06-10 09:00:00', 3, 'view'],
      ['enExhibition', english, '2025-06-10 09:00:00', 2, 'view'],
      ['bsExhibition', exhA, '2025-06-11 09:00:00', 1, 'view'],
      ['bsExhibition', exhB, '2025-06-11 09:00:00', 2, 'view'],
      ['AudioVideo', video, '2025-06-11 09:00:00', 2, 'view'],
      ['AudioVideo', video, '2025-06-11 09:00:00', 3, 'play'],
    ];
    for (const [record, id, at, n, kind] of seed)
      for (let i = 0; i < n; i++)
        expect(await countView(s.db, visit(`100.64.${id % 250}.${i + 1}`, at), record, id, kind)).toBe(true);
  });

  const range = { from: '2025-06-10', to: '2025-06-11' };

  it('answers views and plays per museum day of the range, each site its own records', async () => {
    expect(ok(await tongji('days', { site: 'website', ...range }))).toEqual({
      from: '2025-06-10',
      to: '2025-06-11',
      days: ['2025-06-10', '2025-06-11'],
      views: [3, 5],
      plays: [0, 3],
    });
    expect(ok(await tongji('days', { site: 'enWebsite', ...range }))).toMatchObject({
      views: [2, 0],
      plays: [0, 0],
    });
    // Days without visits are there, as 0.
    const wide = ok(await tongji('days', { site: 'website', from: '2025-06-08', to: '2025-06-12' }));
    expect(wide.views).toEqual([0, 0, 3, 5, 0]);
  });

  it('answers the 12 months ending with the range', async () => {
    const m = ok(await tongji('months', { site: 'website', to: '2025-06-30' }));
    expect(m.months).toHaveLength(12);
    expect(m.months[0]).toBe('2024-07');
    expect(m.months.at(-1)).toBe('2025-06');
    expect(m.views.at(-1)).toBe(8);
    expect(m.plays.at(-1)).toBe(3);
    // The month before had none (the first tests' visits are in March and April).
    expect(m.views[m.months.indexOf('2025-05')]).toBe(0);
    expect(m.views[m.months.indexOf('2025-03')]).toBe(5);
  });

  it('answers the rows viewed most, with their record, and the totals per record', async () => {
    const top = ok(await tongji('top', { site: 'website', ...range })).items;
    expect(top.map((t: { record: string; id: number }) => [t.record, t.id])).toEqual([
      ['bsExhibition', exhA],
      ['AudioVideo', video],
      ['bsExhibition', exhB],
    ]);
    expect(top[0]).toEqual({
      record: 'bsExhibition',
      recordTitle: '展览',
      id: exhA,
      title: '江南织造',
      views: 4,
      plays: 0,
      deleted: false,
    });
    expect(top[1]).toMatchObject({ recordTitle: '音视频', title: '讲解：丝路', views: 2, plays: 3 });
    expect(ok(await tongji('top', { site: 'website', ...range, limit: 1 })).items).toHaveLength(1);
    expect(ok(await tongji('top', { site: 'enWebsite', ...range })).items).toMatchObject([
      { record: 'enExhibition', id: english, title: 'Silk Road Treasures', views: 2 },
    ]);

    const per = ok(await tongji('records', { site: 'website', ...range }));
    expect(per.total).toEqual({ views: 8, plays: 3 });
    const of = (r: string) => per.records.find((x: { record: string }) => x.record === r);
    expect(of('bsExhibition')).toEqual({
      record: 'bsExhibition',
      title: '展览',
      views: 6,
      plays: 0,
      rows: 2,
    });
    expect(of('AudioVideo')).toMatchObject({ views: 2, plays: 3, rows: 1 });
    expect(of('bsCarousel')).toMatchObject({ views: 0, plays: 0, rows: 0 });
    expect(per.records.some((x: { record: string }) => x.record.startsWith('en'))).toBe(false);
    const en = ok(await tongji('records', { site: 'enWebsite', ...range }));
    expect(en.total).toEqual({ views: 2, plays: 0 });
    expect(en.records.every((x: { record: string }) => x.record.startsWith('en'))).toBe(true);
  });

  it('counts a visit on the museum day it happened: 23:59:59 on one day, 00:00:00 on the next', async () => {
    const id = await exhibition('午夜展览');
    // Museum time is UTC+8: 2025-08-01 23:59:59 museum time is 15:59:59 UTC.
    expect(await countView(s.db, visit('192.0.2.50', '2025-08-01 23:59:59'), 'bsExhibition', id)).toBe(true);
    expect(await countView(s.db, visit('192.0.2.50', '2025-08-02 00:00:00'), 'bsExhibition', id)).toBe(true);
    expect(await countView(s.db, visit('192.0.2.51', '2025-08-01 00:00:00'), 'bsExhibition', id)).toBe(true);
    const d = ok(await tongji('days', { site: 'website', from: '2025-07-31', to: '2025-08-02' }));
    expect(d.views).toEqual([0, 2, 1]);
    const m = ok(await tongji('months', { site: 'website', to: '2025-08-02' }));
    expect(m.views.slice(-2)).toEqual([0, 3]);
  });

  it('refuses bad ranges and sites with words a person can act on', async () => {
    expect(refused(await tongji('days', { site: 'website', from: '2025-06-11', to: '2025-06-10' }))).toBe(
      '开始日期不能晚于结束日期',
    );
    expect(refused(await tongji('days', { site: 'website', from: '2024-01-01', to: '2025-06-10' }))).toBe(
      '统计范围最长 366 天，请缩短日期范围',
    );
    expect(refused(await tongji('days', { site: 'website', from: '2025-02-30' }))).toContain(
      '开始日期格式应为 yyyy-MM-dd',
    );
    expect(refused(await tongji('days', { site: 'intranet' }))).toContain('网站只能是');
    expect(refused(await tongji('top', { site: 'website', limit: 500 }))).toContain('数量最多为 50');
  });

  it('answers only people holding the site 访问统计 leaf', async () => {
    for (const call of ['days', 'months', 'top', 'records']) {
      expect((await tongji(call, { site: 'website' }, staff)).body.code).toBe(1005);
      expect((await tongji(call, { site: 'enWebsite' }, websiteOnly)).body.code).toBe(1005);
      ok(await tongji(call, { site: 'website' }, websiteOnly));
    }
  });
});
