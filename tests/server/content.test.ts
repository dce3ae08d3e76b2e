import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { M, attachUpload, personWithMenu } from './util';
import { jsonCalls } from './volunteer-util';

/**
 * Website and mini-program content (README "Website and mini-program content"; research/
 * records-design.md §5): publish and take-down, the carousel's display window (展示中), sorting
 * within a position, the guide tree's deletes refused while rows hang under them, the link
 * allow-list (content_link_host) on every kind of link, rich text sanitized, covers only from
 * images, English rows linked to their Chinese row, and an exhibition's videos and goods
 * (spSave / spList / relationdelete). The generic record suite covers each record's own calls.
 *
 * `editor` is 郑凯 (staff09, 信息管理员), who holds the mini-program, website and English
 * website modules; `staff` (staff02) holds none of them.
 */

let s: TestServer;
let admin: string;
let editor: string;
let staff: string;
const { post, ok, refused } = jsonCalls(() => s);
const BS = `${M}/bs`;

/** A spec GET that writes (up, down, delete): query parameters and the token header. */
const act = (path: string, params: Record<string, unknown>, token = editor) =>
  s.call('GET', `${path}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`, {
    token,
  });
const read = act;

const image = (table: string, token = editor) => attachUpload(s, token, table, 'image');

async function carousel(fields: Record<string, unknown>, token = editor): Promise<number> {
  return ok(
    await post(`${BS}/bsCarousel/save`, token, {
      position: 4,
      images: [await image('bsCarousel', token)],
      linkType: 0,
      ...fields,
    }),
  ).id as number;
}

async function exhibition(fields: Record<string, unknown> = {}): Promise<number> {
  return ok(
    await post(`${BS}/bsExhibition/save`, editor, {
      exhType: 2,
      title: '江南织造特展',
      cover: [await image('bsExhibition')],
      startDate: '2026-12-01',
      ...fields,
    }),
  ).id as number;
}

const publish = (record: string, id: number, token = editor) =>
  post(`${BS}/${record}/publish`, token, { id });
const detail = async (record: string, id: number, token = editor) =>
  ok(await read(`${BS}/${record}/detail`, { id }, token));

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  admin = await s.login('admin');
  editor = await s.login('staff09');
  staff = await s.login('staff02');
});
afterAll(async () => s?.close());

describe('publishing', () => {
  it('publishes a draft, takes it down and publishes it again, stamping the publish time; others may not', async () => {
    const id = await carousel({ title: '新春特展' });
    expect((await detail('bsCarousel', id)).record).toMatchObject({ status: 0, publishTime: null });
    const before = Date.now();
    ok(await publish('bsCarousel', id));
    const published = (await detail('bsCarousel', id)).record;
    expect(published.status).toBe(1);
    expect(published.publishTime).toBeGreaterThanOrEqual(before);
    expect(refused(await publish('bsCarousel', id))).toBe('状态已变化，请刷新');
    ok(await post(`${BS}/bsCarousel/takeDown`, editor, { id }));
    expect((await detail('bsCarousel', id)).record.status).toBe(2);
    ok(await publish('bsCarousel', id));
    const log = (await detail('bsCarousel', id)).log.map((l: { actionLabel: string }) => l.actionLabel);
    expect(log).toEqual(['新建', '发布', '下架', '发布']);
    // A member of staff without the content pages neither writes nor reads.
    expect((await post(`${BS}/bsCarousel/takeDown`, staff, { id })).body.code).toBe(1005);
    expect((await read(`${BS}/bsCarousel/list`, {}, staff)).body.code).toBe(1005);
  });
});

describe('the carousel', () => {
  it('shows (展示中) only published rows inside their display window', async () => {
    const hour = 3600_000;
    const now = Date.now();
    const open = await carousel({ title: '窗口内' });
    const past = await carousel({ title: '已过期', startTime: now - 5 * hour, endTime: now - hour });
    const future = await carousel({ title: '未开始', startTime: now + hour });
    const draft = await carousel({ title: '草稿', startTime: now - hour, endTime: now + hour });
    const down = await carousel({ title: '已下架' });
    for (const id of [open, past, future, down]) ok(await publish('bsCarousel', id));
    ok(await post(`${BS}/bsCarousel/takeDown`, editor, { id: down }));
    const showing = ok(await read(`${BS}/bsCarousel/list`, { showing: 1, pageCount: 200 })).list.map(
      (r: { id: number }) => r.id,
    );
    expect(showing).toContain(open);
    for (const id of [past, future, draft, down]) expect(showing).not.toContain(id);
    const hidden = ok(await read(`${BS}/bsCarousel/list`, { showing: 0, pageCount: 200 })).list.map(
      (r: { id: number }) => r.id,
    );
    for (const id of [past, future, draft, down]) expect(hidden).toContain(id);
    expect(hidden).not.toContain(open);

    const wrong = await post(`${BS}/bsCarousel/save`, editor, {
      position: 4,
      images: [await image('bsCarousel')],
      linkType: 0,
      startTime: '2026-12-01 10:00',
      endTime: '2026-12-01 09:00',
    });
    expect(refused(wrong)).toBe('结束展示时间须晚于开始展示时间');
    expect(wrong.body.result.fields.endTime).toBe('结束展示时间须晚于开始展示时间');
  });

  it('moves a row up and down within its position only', async () => {
    const a = await carousel({ position: 6, title: 'A' });
    const b = await carousel({ position: 6, title: 'B' });
    const c = await carousel({ position: 6, title: 'C' });
    const elsewhere = await carousel({ position: 1, title: '别处', sort: 1 });
    const order = async () =>
      ok(await read(`${BS}/bsCarousel/list`, { position: 6, pageCount: 200 })).list.map(
        (r: { id: number }) => r.id,
      );
    expect(await order()).toEqual([a, b, c]);
    ok(await act(`${BS}/bsCarousel/up`, { id: c }));
    expect(await order()).toEqual([a, c, b]);
    ok(await act(`${BS}/bsCarousel/up`, { id: c }));
    expect(await order()).toEqual([c, a, b]);
    // First in its position, though a row of another position sorts before it.
    expect(refused(await act(`${BS}/bsCarousel/up`, { id: c }))).toBe('已经排在最前面了');
    ok(await act(`${BS}/bsCarousel/down`, { id: a }));
    expect(await order()).toEqual([c, b, a]);
    expect(refused(await act(`${BS}/bsCarousel/down`, { id: a }))).toBe('已经排在最后面了');
    expect((await detail('bsCarousel', elsewhere)).record.sort).toBe(1);
    // A row left without a sort number goes last.
    expect((await detail('bsCarousel', b)).record.sort).toBeGreaterThan(0);
  });

  it('checks a link by its type: a page path, an allow-listed https address, or a published content row', async () => {
    const save = async (linkType: number, linkValue: string) =>
      post(`${BS}/bsCarousel/save`, editor, {
        position: 1,
        images: [await image('bsCarousel')],
        linkType,
        linkValue,
      });
    expect(refused(await save(1, ''))).toBe('链接类型为“小程序页面”时请填写链接地址');
    expect(refused(await save(1, 'javascript:alert(1)'))).toContain('须为小程序页面路径');
    ok(await save(1, '/pages/exhibition/detail?id=3'));
    expect(refused(await save(2, 'https://evil.example.com/x'))).toBe(
      '链接地址的网站“evil.example.com”不在外链白名单中，请联系管理员在“系统管理 › 数据字典 › 内容外链白名单”中添加该域名',
    );
    expect(refused(await save(2, 'http://www.720yun.com/t/1'))).toContain('只能使用 https 地址');
    ok(await save(2, 'https://www.720yun.com/t/1'));
    expect(refused(await save(3, 'bsExhibition'))).toContain('须为“内容类型:编号”');
    expect(refused(await save(3, 'bsExhibition:99999'))).toBe(
      '链接地址指向的展览（编号 99999）不存在或已删除',
    );
    const exh = await exhibition({ title: '尚未发布的展' });
    expect(refused(await save(3, `bsExhibition:${exh}`))).toBe(
      '链接地址指向的展览“尚未发布的展”尚未发布，请先发布它再链接',
    );
    ok(await publish('bsExhibition', exh));
    const id = ok(await save(3, `bsExhibition:${exh}`)).id;
    expect((await detail('bsCarousel', id)).record.linkValue).toBe(`bsExhibition:${exh}`);
    // No link: no stale address kept.
    const none = ok(await save(0, 'https://evil.example.com/x')).id;
    expect((await detail('bsCarousel', none)).record.linkValue).toBe('');
  });
});

describe('the guide tree', () => {
  it('refuses to delete a showroom or chapter while rows hang under it, saying how many', async () => {
    const hall = ok(await read(`${BS}/bsMuseumHall/list`, { pageCount: 1 }, admin)).list[0].id;
    const room = ok(
      await post(`${BS}/bsGuideShowroom/save`, editor, {
        hallId: hall,
        title: '青铜器展厅',
        cover: [await image('bsGuideShowroom')],
      }),
    ).id;
    const chapter = async (title: string) =>
      ok(await post(`${BS}/bsGuideChapter/save`, editor, { showroomId: room, title })).id as number;
    const first = await chapter('第一部分 礼器');
    await chapter('第二部分 兵器');
    const unit = ok(await post(`${BS}/bsGuideUnit/save`, editor, { chapterId: first, title: '大克鼎' })).id;

    expect(refused(await act(`${BS}/bsGuideShowroom/delete`, { id: room }))).toBe(
      '展厅“青铜器展厅”下还有 2 个导览章节，请先删除或移到其他展厅后再删除',
    );
    expect(refused(await act(`${BS}/bsGuideChapter/delete`, { id: first }))).toBe(
      '章节“第一部分 礼器”下还有 1 个导览单元，请先删除或移到其他章节后再删除',
    );
    // A chapter must name a showroom that exists.
    expect(refused(await post(`${BS}/bsGuideChapter/save`, editor, { showroomId: 99_999, title: 'x' }))).toBe(
      '所选所属展厅不存在或已删除，请重新选择',
    );
    ok(await act(`${BS}/bsGuideUnit/delete`, { id: unit }));
    ok(await act(`${BS}/bsGuideChapter/delete`, { id: first }));
    expect(refused(await act(`${BS}/bsGuideShowroom/delete`, { id: room }))).toContain('下还有 1 个导览章节');
    // Chapters sort within their showroom.
    const other = await chapter('第三部分 乐器');
    const order = async () =>
      ok(await read(`${BS}/bsGuideChapter/list`, { showroomId: room })).list.map((r: { id: number }) => r.id);
    const before = await order();
    ok(await act(`${BS}/bsGuideChapter/up`, { id: other }));
    expect(await order()).toEqual([before[1], before[0]]);
  });
});

describe('links and rich text', () => {
  it('keeps digital exhibitions to https hosts on the allow-list the administrator keeps', async () => {
    const save = async (url: string) =>
      post(`${BS}/bsDigitalExhibition/save`, editor, {
        digitalType: 1,
        title: '数字青铜馆',
        cover: [await image('bsDigitalExhibition')],
        url,
      });
    expect(refused(await save('https://vr.example.org/hall'))).toBe(
      '展览地址的网站“vr.example.org”不在外链白名单中，请联系管理员在“系统管理 › 数据字典 › 内容外链白名单”中添加该域名',
    );
    expect(refused(await save('http://www.720yun.com/t/1'))).toBe(
      '展览地址只能使用 https 地址，“http://www.720yun.com/t/1”不是，请改为 https:// 开头的地址',
    );
    expect(refused(await save('https://user:pw@www.720yun.com/t/1'))).toBe('展览地址不能包含用户名或密码');
    expect(refused(await save('https://www.720yun.com.evil.net/t/1'))).toContain('“www.720yun.com.evil.net”');
    expect(refused(await save('https://evil720yun.com/t/1'))).toContain('“evil720yun.com”');
    // The demo's item 720yun.com allows its subdomains too.
    ok(await save('https://pano.720yun.com/t/1'));
    ok(await save('https://720yun.com/t/1'));

    // The administrator adds the host on 数据字典; the editor cannot.
    const item = { dictKey: 'content_link_host', label: '示例全景', value: 'vr.example.org', sort: 30 };
    expect((await post(`${M}/collectDictItem/save`, staff, item)).body.code).toBe(1005);
    const itemId = ok(await post(`${M}/collectDictItem/save`, admin, item)).id;
    const id = ok(await save('https://vr.example.org/hall')).id;
    expect((await detail('bsDigitalExhibition', id)).record.url).toBe('https://vr.example.org/hall');
    // Disabled, it no longer admits new links.
    ok(await post(`${M}/collectDictItem/update`, admin, { ...item, id: itemId, status: 0 }));
    expect(refused(await save('https://vr.example.org/hall2'))).toContain('不在外链白名单中');
  });

  it('sanitizes rich text and refuses its links to hosts off the allow-list', async () => {
    const save = (content: string) =>
      post(`${BS}/enNews/save`, editor, { category: 1, title: 'Opening hours', content });
    const dirty =
      '<p onclick="steal()">Open daily</p><script>alert(1)</script>' +
      '<img src="https://tracker.example/p.gif" onerror="alert(2)">' +
      '<a href="javascript:alert(3)">click</a><iframe src="https://www.720yun.com/t/1"></iframe>' +
      '<a href="/en/visit">Visit</a> <a href="mailto:info@demo-museum.cn">Mail</a>';
    const id = ok(await save(dirty)).id;
    const content = (await detail('enNews', id)).record.content as string;
    expect(content).not.toMatch(/script|onerror|onclick|javascript:|iframe|tracker/i);
    expect(content).toContain('<p>Open daily</p>');
    expect(content).toContain('href="/en/visit"');
    expect(content).toContain('href="mailto:info@demo-museum.cn"');
    expect(refused(await save('<p><a href="https://evil.example.com/">x</a></p>'))).toBe(
      '正文中的链接的网站“evil.example.com”不在外链白名单中，请联系管理员在“系统管理 › 数据字典 › 内容外链白名单”中添加该域名',
    );
    expect(refused(await save('<p><a href="http://www.720yun.com/">x</a></p>'))).toContain(
      '正文中的链接只能使用 https 地址',
    );
    ok(await save('<p><a href="https://www.720yun.com/t/9">全景</a></p>'));
  });

  it('takes covers only from images, at most five', async () => {
    const pdf = await attachUpload(s, editor, 'bsExhibition', 'file', '海报.pdf');
    const r = await post(`${BS}/bsExhibition/save`, editor, {
      exhType: 1,
      title: '基本陈列',
      cover: [pdf],
      startDate: '2020-01-01',
    });
    expect(refused(r)).toBe('封面只能是 PNG、JPG、GIF、WebP 格式的图片');
    expect(r.body.result.fields.cover).toBe('封面只能是 PNG、JPG、GIF、WebP 格式的图片');
    const six = await Promise.all(Array.from({ length: 6 }, () => image('bsExhibition')));
    const many = await post(`${BS}/bsExhibition/save`, editor, {
      exhType: 1,
      title: '基本陈列',
      cover: six,
      startDate: '2020-01-01',
    });
    expect(many.body.message).toBe('封面最多 5 张图片');
    const id = ok(
      await post(`${BS}/bsExhibition/save`, editor, {
        exhType: 1,
        title: '基本陈列',
        cover: six.slice(0, 5),
        startDate: '2020-01-01',
      }),
    ).id;
    expect((await detail('bsExhibition', id)).record.cover).toEqual(six.slice(0, 5));
  });
});

describe('English rows and relations', () => {
  it('links an English exhibition to its Chinese row, which then stays', async () => {
    const zh = await exhibition({ title: '江南织造' });
    const body = {
      zhId: zh,
      exhType: 2,
      title: 'Weaving in Jiangnan',
      cover: [await image('enExhibition')],
      startDate: '2026-12-01',
    };
    expect(refused(await post(`${BS}/enExhibition/save`, editor, { ...body, endDate: '2026-11-30' }))).toBe(
      '闭幕日期不能早于开幕日期',
    );
    expect(refused(await post(`${BS}/enExhibition/save`, editor, { ...body, zhId: 99_999 }))).toBe(
      '所选对应中文展览不存在或已删除，请重新选择',
    );
    const en = ok(await post(`${BS}/enExhibition/save`, editor, body)).id;
    const d = await detail('enExhibition', en);
    expect(d.record.zhId).toBe(zh);
    expect(d.names.refs.bsExhibition[String(zh)]).toBe('江南织造');
    const byZh = ok(await read(`${BS}/enExhibition/list`, { zhId: zh })).list.map(
      (r: { id: number }) => r.id,
    );
    expect(byZh).toEqual([en]);
    expect(refused(await act(`${BS}/bsExhibition/delete`, { id: zh }))).toBe(
      '“江南织造”已被 1 条英文展览用作对应中文展览，请先修改或删除它们',
    );
    // English titles may be longer (200 characters) than Chinese ones (100).
    ok(
      await post(`${BS}/enExhibition/save`, editor, {
        ...body,
        title: 'A'.repeat(200),
        cover: [await image('enExhibition')],
      }),
    );
    expect((await post(`${BS}/bsExhibition/save`, editor, { ...body, title: '展'.repeat(101) })).status).toBe(
      400,
    );
  });

  it('lets an English website editor write English rows and read, not change, the Chinese ones', async () => {
    const en = await personWithMenu(s, 'enEditor', ['enWebsite.exhibition']);
    const zh = await exhibition({ title: '书画精品' });
    const id = ok(
      await post(`${BS}/enExhibition/save`, en, {
        zhId: zh,
        exhType: 1,
        title: 'Masterpieces of Painting',
        cover: [await image('enExhibition', en)],
        startDate: '2026-12-01',
      }),
    ).id;
    ok(await publish('enExhibition', id, en));
    expect((await detail('bsExhibition', zh, en)).record.title).toBe('书画精品');
    expect((await publish('bsExhibition', zh, en)).body.code).toBe(1005);
    expect((await act(`${BS}/bsExhibition/delete`, { id: zh }, en)).body.code).toBe(1005);
    // Uploads for a record are its writers' only.
    const upload = await fetch(`${s.url}${M}/attach/uploadimage`, {
      method: 'POST',
      headers: { token: en },
      body: (() => {
        const fd = new FormData();
        fd.append('tableName', 'bsExhibition');
        fd.append('file', new Blob([new Uint8Array([1])]), 'p.png');
        return fd;
      })(),
    });
    expect(((await upload.json()) as { success: boolean }).success).toBe(false);
  });

  it("saves an exhibition's videos and goods in order, lists them, and keeps what a relation holds", async () => {
    const exh = await exhibition({ title: '青铜时代' });
    const video = ok(
      await post(`${BS}/AudioVideo/save`, editor, {
        mediaType: 1,
        videoTypeId: '1',
        title: '铸造工艺',
        cover: [await image('AudioVideo')],
        url: 'https://demo-museum.cn/v/1.mp4',
      }),
    ).id;
    const good = ok(
      await post(`${BS}/bsCulturalcreative/save`, editor, {
        category: '1',
        title: '鼎纹书签',
        cover: [await image('bsCulturalcreative')],
        buyType: 0,
      }),
    ).id;
    ok(
      await post(`${BS}/bsExhibition/spSave`, editor, {
        id: exh,
        items: [
          { subTable: 'bsCulturalcreative', subId: good, note: '展厅出口有售' },
          { subTable: 'AudioVideo', subId: video },
        ],
      }),
    );
    const list = ok(await read(`${BS}/bsExhibition/spList`, { id: exh })).list;
    expect(list.map((r: { subTable: string; title: string }) => [r.subTable, r.title])).toEqual([
      ['bsCulturalcreative', '鼎纹书签'],
      ['AudioVideo', '铸造工艺'],
    ]);
    expect(list[0].note).toBe('展厅出口有售');
    expect(refused(await act(`${BS}/bsExhibition/delete`, { id: exh }))).toBe(
      '展览“青铜时代”还关联着 2 条视频、文创或展品，请先在“关联内容”和“展品”中移除它们',
    );
    expect(refused(await act(`${BS}/AudioVideo/delete`, { id: video }))).toBe(
      '音视频“铸造工艺”已被 1 个展览关联，请先在这些展览的“关联内容”中移除它',
    );
    expect(
      refused(
        await post(`${BS}/bsExhibition/spSave`, editor, {
          id: exh,
          items: [{ subTable: 'AudioVideo', subId: 99_999 }],
        }),
      ),
    ).toBe('第 1 条关联内容：所选音视频不存在或已删除，请重新选择');
    // Reordered: the video first; the good's note kept.
    ok(
      await post(`${BS}/bsExhibition/spSave`, editor, {
        id: exh,
        items: [
          { subTable: 'AudioVideo', subId: video },
          { subTable: 'bsCulturalcreative', subId: good },
        ],
      }),
    );
    const again = ok(await read(`${BS}/bsExhibition/spList`, { id: exh })).list;
    expect(again.map((r: { subId: number }) => r.subId)).toEqual([video, good]);
    expect(again[1].note).toBe('展厅出口有售');
    // relationdelete (spec §7) removes one row; then the video may go.
    ok(await act(`${BS}/bsRelation/relationdelete`, { id: again[0].id }));
    ok(await act(`${BS}/AudioVideo/delete`, { id: video }));
    expect(ok(await read(`${BS}/bsExhibition/spList`, { id: exh })).list).toHaveLength(1);
    // A reader without the exhibition pages cannot change the set.
    expect((await post(`${BS}/bsExhibition/spSave`, staff, { id: exh, items: [] })).body.code).toBe(1005);
  });

  it("keeps an exhibition's exhibits from the collection apart from its videos and goods (wenwuList/wenwuSave)", async () => {
    const exh = await exhibition({ title: '青铜器精品展' });
    // The demo museum's collection (README "Collection"): an editor finds 藏品 by name or number.
    const found = ok(await read(`${BS}/bsExhibition/wenwuOptions`, { keyword: '青铜' })).list as {
      id: number;
      name: string;
      registerNo: string;
    }[];
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((r) => r.name.includes('青铜') || r.registerNo.includes('青铜'))).toBe(true);
    const byNo = ok(await read(`${BS}/bsExhibition/wenwuOptions`, { keyword: '演示总0002' })).list;
    expect(byNo.map((r: { registerNo: string }) => r.registerNo)).toEqual(['演示总0002']);
    const [a, b] = [found[0]!, byNo[0] as { id: number; name: string; registerNo: string }];
    const good = ok(
      await post(`${BS}/bsCulturalcreative/save`, editor, {
        category: '1',
        title: '青铜纹样冰箱贴',
        cover: [await image('bsCulturalcreative')],
        buyType: 0,
      }),
    ).id;
    ok(
      await post(`${BS}/bsExhibition/spSave`, editor, {
        id: exh,
        items: [{ subTable: 'bsCulturalcreative', subId: good }],
      }),
    );
    ok(
      await post(`${BS}/bsExhibition/wenwuSave`, editor, {
        id: exh,
        items: [{ subId: b.id, note: '第一展柜' }, { subId: a.id }],
      }),
    );
    const exhibits = ok(await read(`${BS}/bsExhibition/wenwuList`, { id: exh })).list;
    expect(exhibits.map((r: { subId: number; title: string }) => [r.subId, r.title])).toEqual([
      [b.id, `${b.registerNo} ${b.name}`],
      [a.id, `${a.registerNo} ${a.name}`],
    ]);
    expect(exhibits[0].note).toBe('第一展柜');
    // Each set is replaced alone: the goods stay when the exhibits change, and the other way.
    ok(await post(`${BS}/bsExhibition/wenwuSave`, editor, { id: exh, items: [{ subId: a.id }] }));
    expect(ok(await read(`${BS}/bsExhibition/spList`, { id: exh })).list).toHaveLength(1);
    ok(await post(`${BS}/bsExhibition/spSave`, editor, { id: exh, items: [] }));
    expect(
      ok(await read(`${BS}/bsExhibition/wenwuList`, { id: exh })).list.map((r: { subId: number }) => r.subId),
    ).toEqual([a.id]);
    expect(refused(await act(`${BS}/bsExhibition/delete`, { id: exh }))).toBe(
      '展览“青铜器精品展”还关联着 1 条视频、文创或展品，请先在“关联内容”和“展品”中移除它们',
    );
    // Bad input, in words an editor can act on.
    expect(
      refused(await post(`${BS}/bsExhibition/wenwuSave`, editor, { id: exh, items: [{ subId: 99_999 }] })),
    ).toBe('第 1 条关联内容：所选藏品不存在或已删除，请重新选择');
    expect(
      refused(
        await post(`${BS}/bsExhibition/wenwuSave`, editor, {
          id: exh,
          items: [{ subId: a.id }, { subId: a.id }],
        }),
      ),
    ).toContain('关联内容重复');
    expect(refused(await post(`${BS}/bsExhibition/wenwuSave`, editor, { id: 99_999, items: [] }))).toBe(
      '该展览不存在或已被删除，请刷新后重试',
    );
    // Only exhibition editors pick or change exhibits.
    expect((await post(`${BS}/bsExhibition/wenwuSave`, staff, { id: exh, items: [] })).body.code).toBe(1005);
    expect((await read(`${BS}/bsExhibition/wenwuOptions`, { keyword: '鼎' }, staff)).body.code).toBe(1005);
  });
});
