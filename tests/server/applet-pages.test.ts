import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { M, attachUpload, personWithMenu } from './util';
import { jsonCalls } from './volunteer-util';

/**
 * The mini-program's pages (README "Mini-program pages"): 视频分类 is the `video_type`
 * dictionary, edited by the holder of applet.videoType and by nobody else without 数据字典's
 * grant (the engine's keyed access); 数字文物, 志愿者简介 and 志愿者风采 (content/applet.ts,
 * migration 0044); a rich-text image uploaded for a content record is kept in its text and read
 * by the record's readers. The generic record suite covers each record's own calls.
 */

let s: TestServer;
let admin: string;
let editor: string;
let typer: string;
let staff: string;
const { post, ok, refused } = jsonCalls(() => s);
const BS = `${M}/bs`;
const act = (path: string, params: Record<string, unknown>, token: string) =>
  s.call('GET', `${path}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`, {
    token,
  });

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  admin = await s.login('admin');
  editor = await s.login('staff09');
  staff = await s.login('staff02');
  typer = await personWithMenu(s, 'videotyper', ['applet.videoType']);
});
afterAll(async () => s?.close());

describe('视频分类: the video_type dictionary for applet.videoType', () => {
  it('lets the holder of the leaf list, add, rename, sort and delete video types, and nothing else', async () => {
    const list = ok(
      await act(`${M}/collectDictItem/pageList`, { dictKey: 'video_type', pageCount: 200 }, typer),
    );
    expect(list.list.length).toBeGreaterThan(0);
    expect(list.list.every((r: { dictKey: string }) => r.dictKey === 'video_type')).toBe(true);
    // Without the dictKey filter the holder still sees video types only.
    const all = ok(await act(`${M}/collectDictItem/pageList`, { pageCount: 200 }, typer));
    expect(new Set(all.list.map((r: { dictKey: string }) => r.dictKey))).toEqual(new Set(['video_type']));

    const id = ok(
      await post(`${M}/collectDictItem/save`, typer, {
        dictKey: 'video_type',
        label: '非遗影像',
        value: 'feiyi',
        sort: 9000,
      }),
    ).id as number;
    ok(
      await post(`${M}/collectDictItem/update`, typer, {
        id,
        dictKey: 'video_type',
        label: '非遗纪录片',
        value: 'feiyi',
        sort: 9000,
        status: 1,
      }),
    );
    ok(await act(`${M}/collectDictItem/up`, { id }, typer));
    const options = ok(await act(`${M}/collectDict/getSelectDataByKey`, { key: 'video_type' }, typer));
    expect(options.map((o: { label: string }) => o.label)).toContain('非遗纪录片');

    // Another dictionary: not added to, not moved into, not read, not changed, not deleted.
    expect(
      refused(
        await post(`${M}/collectDictItem/save`, typer, {
          dictKey: 'course_type',
          label: '外来',
          value: 'x1',
        }),
      ),
    ).toContain('您只能编辑“视频分类”字典的项');
    expect(
      refused(
        await post(`${M}/collectDictItem/update`, typer, {
          id,
          dictKey: 'course_type',
          label: '非遗纪录片',
          value: 'feiyi',
          status: 1,
        }),
      ),
    ).toContain('您只能编辑“视频分类”字典的项');
    const course = ok(await act(`${M}/collectDictItem/pageList`, { dictKey: 'course_type' }, admin)).list[0];
    expect((await act(`${M}/collectDictItem/detail`, { id: course.id }, typer)).body.success).toBe(false);
    expect(
      (
        await post(`${M}/collectDictItem/update`, typer, {
          ...course,
          label: '改名',
        })
      ).body.success,
    ).toBe(false);
    expect((await act(`${M}/collectDictItem/delete`, { id: course.id }, typer)).body.success).toBe(false);
    expect(ok(await act(`${M}/collectDictItem/detail`, { id: course.id }, admin)).record.label).toBe(
      course.label,
    );
    // The dictionaries themselves stay 数据字典's.
    expect((await act(`${M}/collectDict/pageList`, {}, typer)).body.code).toBe(1005);

    // A seeded type is kept (system items are disabled, not deleted); one's own goes.
    const seeded = list.list.find((r: { isSystem: boolean }) => r.isSystem);
    expect(refused(await act(`${M}/collectDictItem/delete`, { id: seeded.id }, typer))).toContain('不能删除');
    ok(await act(`${M}/collectDictItem/delete`, { id }, typer));

    // Someone without the leaf (nor 数据字典) edits no video type.
    expect(
      (await post(`${M}/collectDictItem/save`, staff, { dictKey: 'video_type', label: '外人', value: 'x2' }))
        .body.code,
    ).toBe(1005);
  });
});

describe('数字文物', () => {
  it('needs a name and photos (≤ 9), keeps its 3D address to https on the allow-list, and publishes', async () => {
    const img = () => attachUpload(s, editor, 'bsDigitalRelic', 'image');
    expect(refused(await post(`${BS}/bsDigitalRelic/save`, editor, { title: '铜鼎' }))).toBe(
      '请选择文物图片',
    );
    const ten = await Promise.all(Array.from({ length: 10 }, img));
    expect(refused(await post(`${BS}/bsDigitalRelic/save`, editor, { title: '铜鼎', images: ten }))).toBe(
      '文物图片最多 9 张图片',
    );
    const base = { title: '兽面纹铜鼎', era: '商', material: '青铜', images: [await img()] };
    expect(
      refused(
        await post(`${BS}/bsDigitalRelic/save`, editor, { ...base, modelUrl: 'http://pano.720yun.com/t/1' }),
      ),
    ).toContain('三维/全景地址只能使用 https 地址');
    expect(
      refused(
        await post(`${BS}/bsDigitalRelic/save`, editor, { ...base, modelUrl: 'https://vr.example.org/1' }),
      ),
    ).toContain('不在外链白名单中');
    const id = ok(
      await post(`${BS}/bsDigitalRelic/save`, editor, { ...base, modelUrl: 'https://pano.720yun.com/t/1' }),
    ).id as number;
    const row = ok(await act(`${BS}/bsDigitalRelic/detail`, { id }, editor)).record;
    expect(row).toMatchObject({ status: 0, sort: 9999, relicId: null, era: '商' });
    ok(await post(`${BS}/bsDigitalRelic/publish`, editor, { id }));
    expect(ok(await act(`${BS}/bsDigitalRelic/detail`, { id }, editor)).record.status).toBe(1);
    // 信息发布's staff without the page: refused.
    expect((await post(`${BS}/bsDigitalRelic/takeDown`, staff, { id })).body.code).toBe(1005);
  });
});

describe('志愿者简介 and 志愿者风采', () => {
  it('keeps one introduction per museum, saved over itself', async () => {
    const first = ok(await act(`${BS}/bsVolunteerIntro/info`, {}, editor));
    expect(first.record.id || null).toBeNull();
    expect(refused(await post(`${BS}/bsVolunteerIntro/save`, editor, { title: '志愿者简介' }))).toBe(
      '请填写正文',
    );
    ok(
      await post(`${BS}/bsVolunteerIntro/save`, editor, { title: '志愿者简介', content: '<p>欢迎加入</p>' }),
    );
    ok(await post(`${BS}/bsVolunteerIntro/save`, editor, { title: '志愿者之家', content: '<p>第二版</p>' }));
    const rows = ok(await act(`${BS}/bsVolunteerIntro/list`, {}, editor));
    expect(rows.total).toBe(1);
    expect(ok(await act(`${BS}/bsVolunteerIntro/info`, {}, editor)).record).toMatchObject({
      title: '志愿者之家',
      content: '<p>第二版</p>',
    });
    expect(
      (await post(`${BS}/bsVolunteerIntro/save`, staff, { title: 'x', content: '<p>x</p>' })).body.code,
    ).toBe(1005);
  });

  it('lists stories with photos, published and sorted like any content', async () => {
    const photo = () => attachUpload(s, editor, 'bsVolunteerStory', 'image');
    expect(refused(await post(`${BS}/bsVolunteerStory/save`, editor, { title: '讲解员的一天' }))).toBe(
      '请选择照片',
    );
    const a = ok(
      await post(`${BS}/bsVolunteerStory/save`, editor, {
        title: '讲解员的一天',
        photos: [await photo()],
        storyDate: '2026-11-20',
        content: '<p>早上八点<script>alert(1)</script></p>',
      }),
    ).id as number;
    const b = ok(
      await post(`${BS}/bsVolunteerStory/save`, editor, { title: '周末课堂', photos: [await photo()] }),
    ).id as number;
    expect(ok(await act(`${BS}/bsVolunteerStory/detail`, { id: a }, editor)).record.content).toBe(
      '<p>早上八点</p>',
    );
    ok(await act(`${BS}/bsVolunteerStory/down`, { id: a }, editor));
    const ids = ok(await act(`${BS}/bsVolunteerStory/list`, {}, editor)).list.map(
      (r: { id: number }) => r.id,
    );
    expect(ids.indexOf(b)).toBeLessThan(ids.indexOf(a));
    ok(await post(`${BS}/bsVolunteerStory/publish`, editor, { id: a }));
  });
});

describe('志愿者招募 on the mini-program', () => {
  it('lets the applet leaf read the recruits, and only 招募管理 write them', async () => {
    const reader = await personWithMenu(s, 'recruitreader', ['applet.volunteer.recruit']);
    const list = ok(await act(`${M}/v2/bsVolunteerV2Recruit/pageList`, {}, reader));
    expect(Array.isArray(list.list)).toBe(true);
    expect((await act(`${M}/v2/bsVolunteerV2Recruit/delete`, { id: 1 }, reader)).body.code).toBe(1005);
    expect((await act(`${M}/v2/bsVolunteerV2Recruit/pageList`, {}, staff)).body.code).toBe(1005);
  });
});

describe('rich text of content records', () => {
  it('keeps an image uploaded for the record in its text, readable by the other readers of the record', async () => {
    const res = await (async () => {
      const fd = new FormData();
      fd.append('tableName', 'bsClassroom');
      fd.append('file', new Blob([new Uint8Array(PNG)]), 'p.png');
      return (
        await fetch(`${s.url}${M}/attach/uploadimage`, {
          method: 'POST',
          headers: { token: editor },
          body: fd,
        })
      ).json() as Promise<{
        success: boolean;
        result: { attPath?: string; url?: string } & Record<string, unknown>;
      }>;
    })();
    expect(res.success, JSON.stringify(res)).toBe(true);
    const src = String(res.result.attPath ?? res.result.url);
    const cover = await attachUpload(s, editor, 'bsClassroom', 'image');
    const id = ok(
      await post(`${BS}/bsClassroom/save`, editor, {
        courseType: ok(await act(`${M}/collectDict/getSelectDataByKey`, { key: 'course_type' }, editor))[0]
          .value,
        title: '青铜器的纹样',
        cover: [cover],
        content: `<p>看图：<img src="${src}"></p>`,
      }),
    ).id as number;
    const content = String(ok(await act(`${BS}/bsClassroom/detail`, { id }, editor)).record.content);
    expect(content).toContain('<img');
    const kept = /src="([^"]+)"/.exec(content)![1]!.replace(/&amp;/g, '&');
    // Another content editor (the classroom's leaf) reads the image.
    const other = await personWithMenu(s, 'classroomer', ['applet.classroom']);
    const path = kept.startsWith('/') ? kept : `/${kept}`;
    const seen = await fetch(`${s.url}${path.startsWith(M) ? path : `${M}${path}`}`, {
      headers: { token: other },
    });
    expect(seen.status).toBe(200);
    expect(seen.headers.get('content-type')).toBe('image/png');
    // A member of staff without a content page is refused (the envelope says so), as is nobody.
    const hidden = await fetch(`${s.url}${path}`, { headers: { token: staff } });
    expect(hidden.headers.get('content-type')).not.toContain('image');
    expect(((await hidden.json()) as { success: boolean }).success).toBe(false);
    expect((await fetch(`${s.url}${path}`)).status).not.toBe(200);
  });
});

/** A 1×1 PNG. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
