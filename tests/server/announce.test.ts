import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ANNOUNCEMENTS } from '../../src/server/modules/seed/seed';
import { startServer, type TestServer } from './harness';
import { M, PNG_1X1, deptIdByName, failure, userIdOf } from './util';

/* Notice publishing (信息发布) and attachments: the calls, who may make them, who reads what. */

let s: TestServer;
let admin: string;
/** 李明 (办公室, 部门主任): granted 信息发布 through the OA module. */
let office: string;
/** 赵磊 (典藏部, 部门主任: an administrator too), 陈静 (典藏部), 刘洋 (陈列部, 部门主任). */
let zhao: string;
let chen: string;
let liu: string;
/** Readers only: 王芳 (办公室, no role: 普通员工) and 孙悦 (陈列部, 策展人). */
let wang: string;
let sun: string;
let ids: Record<string, number>;
let collectionDept: number;

const ok = (result: unknown = {}) => ({ success: true, code: 0, message: '成功', result });
const FORBIDDEN = failure(1005, '无权限执行此操作，请联系管理员开通');
const NOT_READABLE = failure(404, '该通知不存在或已撤回');
const EXPIRED = { success: false, code: 999, message: '登录超时，请重新登录', result: null };

const get = (token: string, p: string, query: Record<string, unknown> = {}) => {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return s.call('GET', `${M}${p}${qs ? `?${qs}` : ''}`, { token });
};
const post = (token: string, p: string, body: unknown) => s.call('POST', `${M}${p}`, { token, body });

const draft = (over: Record<string, unknown> = {}) => ({
  title: '库房安全检查通知',
  content: '<h2>检查安排</h2><p>本周五下午检查库房温湿度。</p>',
  audienceType: 'all',
  ...over,
});

async function add(token: string, over: Record<string, unknown> = {}): Promise<number> {
  const res = await post(token, '/infoPublish/add', draft(over));
  expect(res.body).toMatchObject({ success: true });
  return res.body.result.id as number;
}
async function publish(token: string, id: number) {
  const res = await post(token, '/infoPublish/publishOrCancel', { id, status: 1 });
  expect(res.body).toEqual(ok({ status: 1 }));
}
/** Announcement notices per receiver account, for one announcement. */
async function noticedAccounts(id: number): Promise<string[]> {
  const rows = await s.db
    .selectFrom('notice')
    .innerJoin('user', 'user.id', 'notice.user_id')
    .select(['user.account', 'notice.notice_content', 'notice.source', 'notice.link'])
    .where('notice.link', '=', `/approve/notice-detail?id=${id}`)
    .orderBy('user.account')
    .execute();
  for (const r of rows) expect(r.source).toBe('announcement');
  return rows.map((r) => r.account);
}
async function readTitles(token: string, query: Record<string, unknown> = {}): Promise<string[]> {
  const res = await get(token, '/infoPublish/readList', { pageCount: 100, ...query });
  expect(res.body.success).toBe(true);
  return res.body.result.list.map((r: { title: string }) => r.title);
}

/** A multipart upload through fetch; `fields` go before the file unless `fieldsAfter`. */
async function upload(
  token: string,
  p: '/attach/upload' | '/attach/uploadimage',
  bytes: Uint8Array,
  opts: { name?: string; type?: string; tableName?: string | null; fieldsAfter?: boolean } = {},
) {
  const fd = new FormData();
  const table = opts.tableName === undefined ? 'announcement' : opts.tableName;
  if (table !== null && !opts.fieldsAfter) fd.append('tableName', table);
  fd.append(
    'file',
    new Blob([new Uint8Array(bytes)], { type: opts.type ?? 'application/pdf' }),
    opts.name ?? 'a.pdf',
  );
  if (table !== null && opts.fieldsAfter) fd.append('tableName', table);
  const res = await fetch(`${s.url}${M}${p}`, { method: 'POST', headers: { token }, body: fd });
  return { status: res.status, body: (await res.json()) as any };
}
async function uploaded(token: string, content = 'PDF 内容', name = '通知附件.pdf'): Promise<number> {
  const res = await upload(token, '/attach/upload', Buffer.from(content), { name });
  expect(res.body).toMatchObject({ success: true });
  return res.body.result.attId as number;
}
async function download(token: string, attachmentId: number, p = '/attach/downloadFile') {
  const res = await fetch(`${s.url}${M}${p}?attachmentId=${attachmentId}`, { headers: { token } });
  const buf = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, buf, json: () => JSON.parse(buf.toString()) };
}
const blobFile = (md5: string) => path.join(s.dataDir, 'attachments', md5.slice(0, 2), md5.slice(2, 4), md5);
const md5 = (b: Buffer | string) => createHash('md5').update(b).digest('hex');

beforeAll(async () => {
  s = await startServer();
  const login = (a: string) => s.login(a);
  [admin, office, zhao, chen, liu, wang, sun] = await Promise.all([
    login('admin'),
    login('staff01'),
    login('staff03'),
    login('staff04'),
    login('staff05'),
    login('staff02'),
    login('staff06'),
  ]);
  ids = {};
  for (const a of ['staff01', 'staff02', 'staff03', 'staff04', 'staff05']) ids[a] = await userIdOf(s, a);
  collectionDept = await deptIdByName(s, admin, '典藏部');
});
afterAll(() => s.close());

describe('administrators', () => {
  it('add a draft, see it in pageList, edit it, publish, cancel and delete it', async () => {
    const id = await add(office, { title: '  草稿通知  ' });
    let list = await get(office, '/infoPublish/pageList', { keyword: '草稿通知' });
    expect(list.body.result).toEqual({
      total: 1,
      list: [
        {
          id,
          title: '草稿通知',
          status: 0,
          audience: { type: 'all', depts: [], users: [] },
          authorName: '李明',
          publishTime: null,
          updateTime: expect.any(Number),
        },
      ],
    });
    // A draft is nobody's to read, except administrators (a preview).
    expect((await get(zhao, '/infoPublish/detail', { id })).body).toMatchObject({ success: true }); // 赵磊 is 部门主任 (OA)
    expect((await get(wang, '/infoPublish/detail', { id })).body).toEqual(NOT_READABLE);
    expect(await readTitles(wang)).not.toContain('草稿通知');

    const edited = await post(admin, '/infoPublish/edit', {
      id,
      ...draft({ title: '草稿通知（修订）', audienceType: 'dept', deptIds: [collectionDept] }),
    });
    // The answer says what happened: saved, still a draft, nobody told.
    expect(edited.body).toEqual(ok({ id, status: 0, notified: 0 }));
    const detail = await get(admin, '/infoPublish/detail', { id });
    expect(detail.body.result).toMatchObject({
      id,
      title: '草稿通知（修订）',
      status: 0,
      authorName: '李明',
      attachments: [],
      audience: { type: 'dept', depts: [{ id: collectionDept, name: '典藏部' }], users: [] },
    });

    await publish(office, id);
    list = await get(office, '/infoPublish/pageList', { keyword: '草稿通知', status: 1 });
    expect(list.body.result.list[0]).toMatchObject({ id, status: 1, publishTime: expect.any(Number) });
    expect(await readTitles(chen)).toContain('草稿通知（修订）');

    expect((await post(office, '/infoPublish/publishOrCancel', { id })).body).toEqual(ok({ status: 2 }));
    expect(await readTitles(chen)).not.toContain('草稿通知（修订）');
    expect((await get(chen, '/infoPublish/detail', { id })).body).toEqual(NOT_READABLE);

    expect((await post(office, '/infoPublish/delete', { id })).body).toEqual(ok());
    expect((await get(admin, '/infoPublish/detail', { id })).body).toEqual(
      failure(404, '该通知不存在或已被删除'),
    );
    expect((await post(office, '/infoPublish/delete', { id })).body).toEqual(
      failure(404, '该通知不存在或已被删除'),
    );
  });

  it('save and publish in one call (保存草稿 | 发布), and are told which happened', async () => {
    // 发布 in the editor of a new one: saved and published, the audience noticed.
    const res = await post(office, '/infoPublish/add', {
      ...draft({ title: '一次发布', audienceType: 'user', userIds: [ids.staff04, ids.staff05] }),
      publish: true,
    });
    const id = res.body.result.id as number;
    expect(res.body).toEqual(ok({ id, status: 1, notified: 2 }));
    expect(await noticedAccounts(id)).toEqual(['staff04', 'staff05']);
    expect(await readTitles(chen)).toContain('一次发布');
    // 保存草稿: `publish` false or absent only saves.
    const kept = await post(office, '/infoPublish/add', { ...draft({ title: '只存草稿' }), publish: false });
    const draftId = kept.body.result.id as number;
    expect(kept.body).toEqual(ok({ id: draftId, status: 0, notified: 0 }));
    expect(await readTitles(wang)).not.toContain('只存草稿');
    // A draft edited with 发布 is published; a published one edited with it stays published once.
    const later = await post(office, '/infoPublish/edit', {
      id: draftId,
      ...draft({ title: '只存草稿（发布）', audienceType: 'user', userIds: [ids.staff02] }),
      publish: 'true',
    });
    expect(later.body).toEqual(ok({ id: draftId, status: 1, notified: 1 }));
    expect(await noticedAccounts(draftId)).toEqual(['staff02']);
    const again = await post(office, '/infoPublish/edit', {
      id: draftId,
      ...draft({ title: '只存草稿（发布）', audienceType: 'user', userIds: [ids.staff02] }),
      publish: true,
    });
    expect(again.body).toEqual(ok({ id: draftId, status: 1, notified: 0 }));
    expect(await noticedAccounts(draftId)).toEqual(['staff02']);
    expect((await post(office, '/infoPublish/add', { ...draft(), publish: 'maybe' })).body).toMatchObject({
      success: false,
      code: 400,
      message: expect.stringContaining('是否发布'),
    });
  });

  it('tell the readers’ live streams when what they can read changes, and only them', async () => {
    const heard: Record<string, string[]> = { staff04: [], staff05: [], staff02: [] };
    const uid = { staff04: ids.staff04!, staff05: ids.staff05!, staff02: ids.staff02! };
    const off = (Object.keys(heard) as (keyof typeof uid)[]).map((a) =>
      s.bus.subscribe(uid[a], (topics) => heard[a]!.push(...topics)),
    );
    const take = () => Object.fromEntries(Object.entries(heard).map(([a, t]) => [a, t.splice(0)]));
    try {
      const id = await add(office, {
        title: '直播通知',
        audienceType: 'user',
        userIds: [ids.staff04, ids.staff05],
      });
      expect(take()).toEqual({ staff04: [], staff05: [], staff02: [] }); // a draft is nobody's news
      await publish(office, id);
      expect(take()).toEqual({
        staff04: ['notice', 'announce'],
        staff05: ['notice', 'announce'],
        staff02: [],
      });
      // An edit moves it from 赵… to 王芳: both lists change; only the newcomer gets a notice.
      await post(office, '/infoPublish/edit', {
        id,
        ...draft({ title: '直播通知（改）', audienceType: 'user', userIds: [ids.staff04, ids.staff02] }),
      });
      expect(take()).toEqual({
        staff04: ['announce'],
        staff05: ['announce'],
        staff02: ['notice', 'announce'],
      });
      expect((await post(office, '/infoPublish/publishOrCancel', { id, status: 2 })).body).toEqual(
        ok({ status: 2 }),
      );
      expect(take()).toEqual({ staff04: ['announce'], staff05: [], staff02: ['announce'] });
      await publish(office, id);
      take();
      expect((await post(office, '/infoPublish/delete', { id })).body).toEqual(ok());
      expect(take()).toEqual({ staff04: ['announce'], staff05: [], staff02: ['announce'] });
    } finally {
      off.forEach((f) => f());
    }
  });

  it('refuse a stale publish or cancel instead of flipping it back', async () => {
    const id = await add(admin);
    expect((await post(admin, '/infoPublish/publishOrCancel', { id, status: 2 })).body).toEqual(
      failure(1007, '该通知未发布，无需撤回'),
    );
    await publish(admin, id);
    expect((await post(admin, '/infoPublish/publishOrCancel', { id, status: 1 })).body).toEqual(
      failure(1007, '该通知已发布'),
    );
    expect((await post(admin, '/infoPublish/publishOrCancel', { id, status: 3 })).body).toMatchObject({
      success: false,
      code: 400,
      message: '发布状态不正确',
    });
  });

  it('are the only ones who list, add, edit, publish or delete (code 1005)', async () => {
    const id = await add(admin);
    for (const token of [wang, chen]) {
      expect((await get(token, '/infoPublish/pageList')).body).toEqual(FORBIDDEN);
      expect((await post(token, '/infoPublish/add', draft())).body).toEqual(FORBIDDEN);
      expect((await post(token, '/infoPublish/edit', { id, ...draft() })).body).toEqual(FORBIDDEN);
      expect((await post(token, '/infoPublish/publishOrCancel', { id })).body).toEqual(FORBIDDEN);
      expect((await post(token, '/infoPublish/delete', { id })).body).toEqual(FORBIDDEN);
    }
    expect((await get(admin, '/infoPublish/detail', { id })).body.result.status).toBe(0);
    expect((await post(wang, '/infoPublish/add', draft())).body).toEqual(FORBIDDEN);
    // Without a session: the spec's 999.
    expect((await s.call('GET', `${M}/infoPublish/readList`)).body).toEqual(EXPIRED);
  });
});

describe('validation', () => {
  const refused = async (body: Record<string, unknown>, message: string, code = 400) => {
    const res = await post(admin, '/infoPublish/add', body);
    expect(res.body).toEqual(failure(code, message));
  };

  it('asks for a title, content and an audience, with limits', async () => {
    await refused(draft({ title: '   ' }), '请输入标题');
    await refused(draft({ title: '题'.repeat(101) }), '标题最多 100 个字');
    await refused(draft({ content: '<p>  </p><p>&nbsp;</p>' }), '请输入正文内容', 1010);
    await refused(draft({ content: '<script>alert(1)</script>' }), '请输入正文内容', 1010);
    await refused(
      draft({ content: `<p>${'长'.repeat(200_001)}</p>` }),
      '正文内容过长（最多 20 万个字符），请删减后再保存',
    );
    await refused(draft({ audienceType: 'dept', deptIds: [] }), '请选择发布的部门');
    await refused(draft({ audienceType: 'user' }), '请选择发布的人员');
    await refused(draft({ audienceType: 'everyone' }), '请选择发布范围');
    const ok100 = await post(admin, '/infoPublish/add', draft({ title: '题'.repeat(100) }));
    expect(ok100.body.success).toBe(true);
  });

  it('refuses unknown departments and unknown or disabled people', async () => {
    await refused(
      draft({ audienceType: 'dept', deptIds: [collectionDept, 99999] }),
      '所选部门不存在或已删除，请重新选择',
      1010,
    );
    await refused(
      draft({ audienceType: 'user', userIds: [99999] }),
      '所选人员不存在或已停用，请重新选择',
      1010,
    );
    const gone = await s.call('POST', `${M}/sysUser/save`, {
      token: admin,
      body: { account: 'leaver01', userName: '离职员工', password: 'Leave@123', phone: '', deptIds: [] },
    });
    const leaver = gone.body.result.userId as number;
    await post(admin, '/sysUser/enable', { userId: leaver, enabled: false });
    await refused(
      draft({ audienceType: 'user', userIds: [leaver] }),
      '所选人员不存在或已停用，请重新选择',
      1010,
    );
  });

  it('refuses malformed and foreign ids with Chinese messages', async () => {
    for (const id of [0, -1, 'abc', 1.5]) {
      const d = await get(zhao, '/infoPublish/detail', { id });
      expect(d.status).toBe(400);
      expect(d.body.success).toBe(false);
      expect(d.body.message).toMatch(/[\u4e00-\u9fa5]/);
      const p = await post(admin, '/infoPublish/publishOrCancel', { id });
      expect(p.body.success).toBe(false);
      expect(p.body.message).toMatch(/[\u4e00-\u9fa5]/);
    }
    expect((await get(wang, '/infoPublish/detail', { id: 987654 })).body).toEqual(NOT_READABLE);
    expect((await post(admin, '/infoPublish/edit', { id: 987654, ...draft() })).body).toEqual(
      failure(404, '该通知不存在或已被删除'),
    );
  });
});

describe('audience and notices', () => {
  it('a department announcement is read and noticed by its members only', async () => {
    const id = await add(office, {
      title: '典藏部库房盘点',
      audienceType: 'dept',
      deptIds: [collectionDept],
    });
    expect(await noticedAccounts(id)).toEqual([]);
    await publish(office, id);
    expect(await noticedAccounts(id)).toEqual(['staff03', 'staff04']);
    const notice = await s.db
      .selectFrom('notice')
      .selectAll()
      .where('link', '=', `/approve/notice-detail?id=${id}`)
      .where('user_id', '=', ids.staff03!)
      .executeTakeFirstOrThrow();
    expect(notice).toMatchObject({
      notice_content: '【通知公告】典藏部库房盘点',
      status: 1,
      created_by: ids.staff01,
    });

    expect(await readTitles(zhao)).toContain('典藏部库房盘点');
    expect(await readTitles(chen, { keyword: '盘点' })).toEqual(['典藏部库房盘点']);
    expect(await readTitles(liu)).not.toContain('典藏部库房盘点');
    expect(await readTitles(wang)).not.toContain('典藏部库房盘点');
    expect((await get(sun, '/infoPublish/detail', { id })).body).toEqual(NOT_READABLE);
    // 刘洋 administers announcements (部门主任 has OA): he may open it, though it is not in his list.
    expect((await get(liu, '/infoPublish/detail', { id })).body.success).toBe(true);
    const read = await get(chen, '/infoPublish/detail', { id });
    expect(read.body.result).toMatchObject({ id, title: '典藏部库房盘点', status: 1, audience: null });

    // Cancel, then publish again: the audience is told again.
    await post(office, '/infoPublish/publishOrCancel', { id, status: 2 });
    expect(await noticedAccounts(id)).toEqual(['staff03', 'staff04']);
    await publish(office, id);
    expect(await noticedAccounts(id)).toEqual(['staff03', 'staff03', 'staff04', 'staff04']);
  });

  it('a department includes its sub-departments; the author is noticed when in the audience', async () => {
    const sub = await post(admin, '/sysDept/save', { name: '库房组', parentId: collectionDept });
    const subId = sub.body.result.id as number;
    const made = await post(admin, '/sysUser/save', {
      account: 'keeper99',
      userName: '库管员',
      password: 'Keep@1234',
      phone: '',
      deptIds: [subId],
    });
    expect(made.body.success).toBe(true);
    const keeper = await s.login('keeper99', 'Keep@1234');
    const id = await add(zhao, { title: '含下级部门', audienceType: 'dept', deptIds: [collectionDept] });
    await publish(zhao, id);
    expect(await noticedAccounts(id)).toEqual(['keeper99', 'staff03', 'staff04']);
    expect(await readTitles(keeper)).toContain('含下级部门');
    // Chosen the other way round: the sub-department only, not its parent's members.
    const only = await add(admin, { title: '仅库房组', audienceType: 'dept', deptIds: [subId] });
    await publish(admin, only);
    expect(await noticedAccounts(only)).toEqual(['keeper99']);
    expect(await readTitles(zhao)).not.toContain('仅库房组');
  });

  it('a people announcement reaches exactly those people; an edit notices only people it adds', async () => {
    const id = await add(office, {
      title: '指定人员通知',
      audienceType: 'user',
      userIds: [ids.staff05, ids.staff01],
    });
    await publish(office, id);
    expect(await noticedAccounts(id)).toEqual(['staff01', 'staff05']);
    expect(await readTitles(liu)).toContain('指定人员通知');
    expect(await readTitles(chen)).not.toContain('指定人员通知');

    const edit = await post(office, '/infoPublish/edit', {
      id,
      ...draft({ title: '指定人员通知（补充）', audienceType: 'user', userIds: [ids.staff05, ids.staff02] }),
    });
    expect(edit.body).toEqual(ok({ id, status: 1, notified: 1 }));
    expect(await noticedAccounts(id)).toEqual(['staff01', 'staff02', 'staff05']);
    expect((await get(admin, '/infoPublish/detail', { id })).body.result.status).toBe(1);
    expect(await readTitles(wang)).toContain('指定人员通知（补充）');
    // 李明 left the audience with the edit.
    expect(await readTitles(office)).not.toContain('指定人员通知（补充）');
  });

  it('everyone sees the seeded announcements and nobody was noticed of them', async () => {
    const titles = await readTitles(wang);
    for (const a of DEMO_ANNOUNCEMENTS) expect(titles).toContain(a.title);
    const seeded = await s.db
      .selectFrom('notice')
      .select('id')
      .where('notice_content', 'like', '【通知公告】%')
      .where(
        'notice_content',
        'in',
        DEMO_ANNOUNCEMENTS.map((a) => `【通知公告】${a.title}`),
      )
      .execute();
    expect(seeded).toEqual([]);
    const page = await get(wang, '/infoPublish/readList', { pageCount: 1, currentPage: 1 });
    expect(page.body.result.list).toHaveLength(1);
    expect(page.body.result.total).toBeGreaterThanOrEqual(DEMO_ANNOUNCEMENTS.length);
  });
});

describe('rich text', () => {
  it('is stored harmless: no scripts, handlers, javascript: links, frames or foreign images', async () => {
    const evil =
      '<h1 onclick="alert(1)">标题</h1><script>alert(document.cookie)</script>' +
      '<p style="color:red">正文<img src="x" onerror="alert(1)"><img src="https://evil.example/t.png"></p>' +
      '<p><a href="javascript:alert(1)">坏链接</a> <a href="https://museum.example/x" target="_self">好链接</a>' +
      ' <a href="//evil.example/">协议相对</a> <a href="/home/notice-list">站内</a></p>' +
      '<iframe src="https://evil.example"></iframe><style>body{display:none}</style>' +
      '<pre><code>&lt;script&gt;alert(1)&lt;/script&gt;</code></pre><svg onload="alert(1)"></svg>';
    const id = await add(admin, { title: '脚本测试', content: evil });
    const row = await s.db
      .selectFrom('announcement')
      .select('content')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const html = row.content;
    expect(html).not.toMatch(
      /<script|onerror|onclick|onload|javascript:|<iframe|<style|style=|<svg|evil\.example/i,
    );
    expect(html).toContain('<h1>标题</h1>');
    expect(html).toContain(
      '<a href="https://museum.example/x" target="_blank" rel="noopener noreferrer">好链接</a>',
    );
    expect(html).toContain('<a href="/home/notice-list" target="_blank" rel="noopener noreferrer">站内</a>');
    expect(html).toContain('<a target="_blank" rel="noopener noreferrer">坏链接</a>');
    // Typed as text, it stays text.
    expect(html).toContain('<pre><code>&lt;script&gt;alert(1)&lt;/script&gt;</code></pre>');
    const detail = await get(admin, '/infoPublish/detail', { id });
    expect(detail.body.result.content).toBe(html);
  });
});

describe('attachments', () => {
  it('are bound on save, downloaded by the audience as attachments, refused to others', async () => {
    const attId = await uploaded(office, '盘点清单', '盘点清单 2026.pdf');
    const id = await add(office, {
      title: '带附件的通知',
      audienceType: 'dept',
      deptIds: [collectionDept],
      attachmentIds: [attId],
    });
    await publish(office, id);
    const detail = await get(chen, '/infoPublish/detail', { id });
    expect(detail.body.result.attachments).toEqual([
      {
        attId,
        attName: '盘点清单 2026.pdf',
        attPath: `/singleMuseum/attach/downloadFile?attachmentId=${attId}`,
        attFileTypeStr: 'pdf',
        attSize: Buffer.byteLength('盘点清单'),
      },
    ]);
    const got = await download(chen, attId);
    expect(got.status).toBe(200);
    expect(got.buf.toString()).toBe('盘点清单');
    expect(got.headers.get('content-disposition')).toMatch(/^attachment;.*filename\*=UTF-8''/);
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(got.headers.get('content-type')).toBe('application/octet-stream');

    const refused = await download(sun, attId);
    expect(refused.json()).toEqual(failure(404, '附件不存在或无权查看'));
    // Published: the uploader cannot pull it out from under the readers.
    const del = await get(office, '/attach/deleteAttachment', { id: attId });
    expect(del.body).toEqual(failure(1010, '附件所属内容已发布，不能删除；请先撤回再修改'));
    // Cancelled: readers lose it too.
    await post(office, '/infoPublish/publishOrCancel', { id, status: 2 });
    expect((await download(chen, attId)).json()).toEqual(failure(404, '附件不存在或无权查看'));
  });

  it('an unbound upload is its uploader’s only; others cannot bind, read or delete it', async () => {
    const attId = await uploaded(office);
    expect((await download(admin, attId)).json()).toEqual(failure(404, '附件不存在或无权查看'));
    expect((await download(office, attId)).status).toBe(200);
    expect((await post(admin, '/infoPublish/add', draft({ attachmentIds: [attId] }))).body).toEqual(
      failure(1010, '附件不存在或已失效，请重新上传'),
    );
    expect((await get(admin, '/attach/deleteAttachment', { id: attId })).body).toEqual(
      failure(404, '附件不存在或无权删除'),
    );
    expect((await get(zhao, '/attach/deleteAttachment', { id: attId })).body).toEqual(
      failure(404, '附件不存在或无权删除'),
    );
    for (const id of [0, -1, 'abc']) {
      const res = await get(office, '/attach/deleteAttachment', { id });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/[\u4e00-\u9fa5]/);
      const dl = await fetch(`${s.url}${M}/attach/downloadFile?attachmentId=${id}`, {
        headers: { token: office },
      });
      expect(dl.status).toBe(400);
    }
    // A GET that changes something needs the token header: the cookie alone is not enough.
    const byCookie = await s.call('GET', `${M}/attach/deleteAttachment?id=${attId}`, {
      headers: { cookie: `token=${office}` },
    });
    expect(byCookie.body).toEqual(EXPIRED);
    const row = await s.db
      .selectFrom('attachment')
      .select('md5')
      .where('id', '=', attId)
      .executeTakeFirstOrThrow();
    expect(fs.existsSync(blobFile(row.md5))).toBe(true);
    expect((await get(office, '/attach/deleteAttachment', { id: attId })).body).toEqual(ok());
    expect(fs.existsSync(blobFile(row.md5))).toBe(false);
    expect((await download(office, attId)).json()).toEqual(failure(404, '附件不存在或无权查看'));
  });

  it('an edit that drops an attachment deletes it; bytes another row shares stay', async () => {
    const a = await uploaded(admin, '共享内容', 'a.txt');
    const b = await uploaded(admin, '共享内容', 'b.txt');
    const id = await add(admin, { attachmentIds: [a, b] });
    const edit = await post(admin, '/infoPublish/edit', { id, ...draft({ attachmentIds: [b] }) });
    expect(edit.body).toEqual(ok({ id, status: 0, notified: 0 }));
    const left = await s.db.selectFrom('attachment').select('id').where('record_id', '=', id).execute();
    expect(left.map((r) => r.id)).toEqual([b]);
    expect(fs.existsSync(blobFile(md5('共享内容')))).toBe(true);
    await post(admin, '/infoPublish/delete', { id });
    expect(await s.db.selectFrom('attachment').select('id').where('id', 'in', [a, b]).execute()).toEqual([]);
    expect(fs.existsSync(blobFile(md5('共享内容')))).toBe(false);
  });

  it('uploads need the grant, a known table and a file', async () => {
    // Any member of staff may upload for approvals, so the refusal names the table's grant.
    expect((await upload(wang, '/attach/upload', Buffer.from('x'))).body).toEqual(
      failure(1005, '无权限上传此类附件'),
    );
    expect((await upload(admin, '/attach/upload', Buffer.from('x'), { tableName: 'salary' })).body).toEqual(
      failure(1010, '不支持的附件类别（tableName）'),
    );
    expect((await upload(admin, '/attach/upload', Buffer.from('x'), { tableName: null })).body).toEqual(
      failure(1010, '缺少附件类别（tableName）'),
    );
    expect((await upload(admin, '/attach/upload', Buffer.alloc(0))).body).toEqual(
      failure(1010, '文件为空，请重新选择'),
    );
    // The table may follow the file, as some clients send it.
    const after = await upload(admin, '/attach/upload', Buffer.from('后置字段'), {
      fieldsAfter: true,
      name: '../../etc/passwd',
    });
    expect(after.body.result).toMatchObject({ attName: 'passwd', attFileTypeStr: '' });
    const notForm = await post(admin, '/attach/upload', { file: 'x' });
    expect(notForm.body).toEqual(failure(1010, '请选择要上传的文件'));
  });

  it('refuses a file declared larger than 500 MB before reading it', async () => {
    const port = Number(new URL(s.url).port);
    const answer = await new Promise<string>((resolve, reject) => {
      const sock = net.connect(port, '127.0.0.1', () => {
        const boundary = 'b0undary';
        sock.write(
          [
            `POST ${M}/attach/upload HTTP/1.1`,
            'Host: 127.0.0.1',
            `token: ${admin}`,
            `Content-Type: multipart/form-data; boundary=${boundary}`,
            `Content-Length: ${600 * 1024 * 1024}`,
            '',
            `--${boundary}\r\nContent-Disposition: form-data; name="tableName"\r\n\r\nannouncement\r\n`,
          ].join('\r\n'),
        );
      });
      let text = '';
      sock.on('data', (d) => (text += d.toString()));
      sock.on('end', () => resolve(text));
      sock.on('error', reject);
      setTimeout(() => {
        sock.destroy();
        resolve(text);
      }, 5000);
    });
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(body).toEqual(failure(1010, '上传文件大小不能超过500MB'));
    expect(
      await s.db
        .selectFrom('attachment')
        .select('id')
        .where('size', '>', 100 * 1024 * 1024)
        .execute(),
    ).toEqual([]);
  });
});

describe('editor images', () => {
  it('are served inline only as real images, readable like the announcement', async () => {
    const img = await upload(office, '/attach/uploadimage', PNG_1X1, {
      name: 'photo.png',
      type: 'image/png',
      tableName: null,
    });
    expect(img.body.success).toBe(true);
    const attId = img.body.result.attId as number;
    const src = `/singleMuseum/attach/image?attachmentId=${attId}`;
    expect(img.body.result.attPath).toBe(src);
    const id = await add(office, {
      title: '带图片的通知',
      content: `<p>现场照片</p><p><img src="${src}" alt="照片"></p>`,
      audienceType: 'user',
      userIds: [ids.staff04],
    });
    const stored = await get(office, '/infoPublish/detail', { id });
    expect(stored.body.result.content).toContain(`<img src="${src}" alt="照片" />`);
    expect(stored.body.result.attachments).toEqual([]);
    await publish(office, id);

    const shown = await download(chen, attId, '/attach/image');
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-type')).toBe('image/png');
    expect(shown.headers.get('x-content-type-options')).toBe('nosniff');
    expect(shown.headers.get('content-security-policy')).toContain('sandbox');
    expect(shown.buf.equals(PNG_1X1)).toBe(true);
    expect((await download(sun, attId, '/attach/image')).json()).toEqual(
      failure(404, '附件不存在或无权查看'),
    );

    // A file attachment is never shown inline, even a picture.
    const file = await upload(office, '/attach/upload', PNG_1X1, { name: 'p.png', type: 'image/png' });
    expect((await download(office, file.body.result.attId, '/attach/image')).json()).toEqual(
      failure(404, '该附件不是图片'),
    );
  });

  it('must be PNG, JPEG, GIF or WebP by their bytes and at most 10 MB', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
    expect(
      (await upload(admin, '/attach/uploadimage', svg, { name: 'a.svg', type: 'image/svg+xml' })).body,
    ).toEqual(failure(1010, '只能插入 PNG、JPG、GIF、WebP 格式的图片'));
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    expect(
      (await upload(admin, '/attach/uploadimage', html, { name: 'a.png', type: 'image/png' })).body,
    ).toEqual(failure(1010, '只能插入 PNG、JPG、GIF、WebP 格式的图片'));
    const big = Buffer.concat([PNG_1X1, Buffer.alloc(10 * 1024 * 1024 + 1 - PNG_1X1.length)]);
    expect(
      (await upload(admin, '/attach/uploadimage', big, { name: 'big.png', type: 'image/png' })).body,
    ).toEqual(failure(1010, '图片大小不能超过10MB'));
    const exact = Buffer.concat([PNG_1X1, Buffer.alloc(10 * 1024 * 1024 - PNG_1X1.length)]);
    expect(
      (await upload(admin, '/attach/uploadimage', exact, { name: 'ok.png', type: 'image/png' })).body.success,
    ).toBe(true);
    expect((await upload(wang, '/attach/uploadimage', PNG_1X1, { type: 'image/png' })).body).toEqual(
      failure(1005, '无权限上传此类附件'),
    );
  });
});
