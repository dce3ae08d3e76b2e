import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definitionErrors } from '../../src/shared/workflow/validate';
import { seedDemo, seedMissingGongwen } from '../../src/server/modules/seed/seed';
import { DEMO_PASSWORD, startServer, type TestServer } from './harness';
import { M } from './util';

/*
 * 公文 can be started (issue 17 §4): the seeded 发文, 收文 and 签报 are 公文 templates anyone
 * may start; 发文's 文号 is checked and answered in Chinese; a started 公文 is in the /gongwen
 * lists (exactly the 公文) and in the everyday /approve lists (every category); 审批设置 moves
 * a template into 公文 by saving its category; an install seeded before them gets them once.
 * The demo museum: staff02 (办公室, 普通员工) reports to staff01 (办公室 head), who reports to the
 * director (馆领导); staff04 (典藏部) has nothing to do with staff02's requests.
 */

let s: TestServer;
const tok: Record<string, string> = {};
const GONGWEN = ['发文', '收文', '签报'];

beforeAll(async () => {
  s = await startServer();
  for (const a of ['admin', 'director', 'staff01', 'staff02', 'staff04']) tok[a] = await s.login(a);
});
afterAll(() => s.close());

const post = async (who: string, p: string, body: unknown) =>
  (await s.call('POST', `${M}${p}`, { token: tok[who], body })).body;
const get = async (who: string, p: string) => (await s.call('GET', `${M}${p}`, { token: tok[who] })).body;
const ids = async (who: string, q: string) => {
  const res = await get(who, `/workflowInst/list?${q}`);
  expect(res.success, JSON.stringify(res)).toBe(true);
  return (res.result.list as { actvityId: number }[]).map((r) => r.actvityId);
};
type Startable = { id: number; name: string; category: string; groupName: string; fields: { id: string }[] };
const startable = async (who: string) =>
  (await get(who, '/workflowTemplate/startable')).result as Startable[];
const templateId = async (name: string) => (await startable('staff02')).find((t) => t.name === name)!.id;

async function upload(who: string, name = '正文.pdf'): Promise<number> {
  const fd = new FormData();
  fd.append('tableName', 'approval');
  fd.append('file', new Blob(['关于2026年春节期间开放安排的通知']), name);
  const res = await fetch(`${s.url}${M}/attach/upload`, {
    method: 'POST',
    headers: { token: tok[who]! },
    body: fd,
  });
  const body = (await res.json()) as any;
  expect(body.success, JSON.stringify(body)).toBe(true);
  return body.result.attId as number;
}

/** A 发文 form of staff02's with the given 文号 (a fresh 正文 upload each time). */
async function outgoing(docNo: unknown) {
  return post('staff02', '/workflowInst/start', {
    templateId: await templateId('发文'),
    form: {
      docNo,
      title: '关于2026年春节期间开放安排的通知',
      secrecy: '1',
      mainTo: '各部门',
      body: [await upload('staff02')],
    },
  });
}

describe('seeded 公文 templates', () => {
  it('发文, 收文 and 签报 are published 公文 templates, valid, offered to everyone under 公文', async () => {
    const rows = (await get('admin', '/workflowTemplate/list')).result as {
      id: number;
      name: string;
      category: string;
      groupName: string;
      version: number | null;
    }[];
    const gongwen = rows.filter((r) => r.category === 'gongwen');
    expect(gongwen.map((r) => r.name)).toEqual(GONGWEN);
    for (const r of gongwen) {
      expect(r, r.name).toMatchObject({ version: 1, groupName: '公文' });
      const { definition } = (await get('admin', `/workflowTemplate/detail?id=${r.id}`)).result;
      expect(definitionErrors(definition), r.name).toEqual([]);
    }
    // The fields the issue names, by label.
    const labels = async (name: string) => {
      const r = gongwen.find((x) => x.name === name)!;
      const d = (await get('admin', `/workflowTemplate/detail?id=${r.id}`)).result.definition;
      return (d.fields as { label: string }[]).map((f) => f.label);
    };
    expect(await labels('发文')).toEqual(expect.arrayContaining(['文号', '标题', '密级', '主送', '正文']));
    expect(await labels('收文')).toEqual(
      expect.arrayContaining(['来文单位', '来文文号', '收文日期', '标题', '附件']),
    );
    expect(await labels('签报')).toEqual(expect.arrayContaining(['标题', '事由', '拟办意见']));
    // 普通员工 (staff02) and a keeper (staff04) may start them; the six 普通审批 stay normal.
    for (const who of ['staff02', 'staff04']) {
      const list = await startable(who);
      expect(list.filter((t) => t.category === 'gongwen').map((t) => t.name)).toEqual(GONGWEN);
      expect(list.find((t) => t.name === '请假')?.category).toBe('normal');
    }
  });

  it('an install seeded before them gets each missing one once, and never twice', async () => {
    const before = (await startable('staff02')).filter((t) => t.category === 'gongwen');
    // As an older demo museum: 收文 and 签报 were never seeded (nothing uses them yet).
    const gone = before.filter((t) => t.name !== '发文').map((t) => t.id);
    await s.db.deleteFrom('workflow_version').where('template_id', 'in', gone).execute();
    await s.db.deleteFrom('approval_template').where('id', 'in', gone).execute();
    expect((await startable('staff02')).filter((t) => t.category === 'gongwen').map((t) => t.name)).toEqual([
      '发文',
    ]);
    // The next start runs seedDemo on the existing museum: the missing two come back, published.
    expect(await seedDemo(s.db, DEMO_PASSWORD)).toBe(false);
    const after = (await startable('staff02')).filter((t) => t.category === 'gongwen');
    expect(after.map((t) => t.name).sort()).toEqual([...GONGWEN].sort());
    expect(after.find((t) => t.name === '发文')!.id).toBe(before.find((t) => t.name === '发文')!.id);
    expect(await seedMissingGongwen(s.db)).toBe(0);
    const count = await s.db
      .selectFrom('approval_template')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('name', 'in', GONGWEN)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(3);
  });
});

describe('starting a 公文', () => {
  it('发文 starts, is in the 公文 lists and in the everyday lists, never in 普通审批 only', async () => {
    const res = await outgoing('馆办发〔2026〕12号');
    expect(res.success, JSON.stringify(res)).toBe(true);
    const id = res.result.actvityId as number;

    // The starter: 公文 我发起的 and 审批 我发起的 (every category); not the normal-only filter.
    expect(await ids('staff02', 'state=mystart&category=gongwen')).toContain(id);
    expect(await ids('staff02', 'state=mystart')).toContain(id);
    expect(await ids('staff02', 'state=mystart&category=normal')).not.toContain(id);
    // The department head awaits it: 待办公文 and 待我审批; 公文列表 for everyone involved.
    expect(await ids('staff01', 'state=pending&category=gongwen')).toContain(id);
    expect(await ids('staff01', 'state=pending')).toContain(id);
    expect(await ids('staff01', 'state=list&category=gongwen')).toContain(id);
    expect(await ids('staff02', 'state=list&category=gongwen')).toContain(id);
    // Someone not involved sees nothing of it.
    expect(await ids('staff04', 'state=list&category=gongwen')).not.toContain(id);

    // The flow: 部门负责人审核 (staff01), 办公室核稿 (办公室's head, staff01 again), 馆领导签发.
    const detail = await post('staff02', '/workflowInst/data', { actvityId: id });
    expect(detail.success, JSON.stringify(detail)).toBe(true);
    const docNo = (detail.result.fields as { label: string; value: string }[]).find(
      (f) => f.label === '文号',
    );
    expect(docNo?.value).toBe('馆办发〔2026〕12号');
    for (let i = 0; i < 2; i++) {
      const ok = await post('staff01', '/workflowInst/approval', { actvityId: id, action: 2, reason: '' });
      expect(ok.success, JSON.stringify(ok)).toBe(true);
    }
    expect(await ids('director', 'state=pending&category=gongwen')).toContain(id);
    const signed = await post('director', '/workflowInst/approval', {
      actvityId: id,
      action: 2,
      reason: '同意印发',
    });
    expect(signed.success, JSON.stringify(signed)).toBe(true);
    expect(await ids('staff02', 'state=mystart&category=gongwen&status=6')).toContain(id);

    // The 模板 filter of the /approve lists offers every category; /gongwen only 公文.
    const all = (await get('staff02', '/workflowInst/templates?category=all')).result as { name: string }[];
    expect(all.map((t) => t.name)).toEqual(expect.arrayContaining(['请假', ...GONGWEN]));
    const gw = (await get('staff02', '/workflowInst/templates?category=gongwen')).result as {
      name: string;
    }[];
    expect(gw.map((t) => t.name)).toEqual(GONGWEN);
  });

  it('文号: the usual spellings are read as 〔〕; anything else is refused in Chinese', async () => {
    // What input methods give for the year's brackets, and stray spaces, all store one form.
    for (const typed of [
      '馆办发[2026]13号',
      '馆办发（2026）14号',
      '馆办发【2026】15号',
      ' 馆办发 〔2026〕 16号 ',
    ]) {
      const res = await outgoing(typed);
      expect(res.success, `${typed}: ${JSON.stringify(res)}`).toBe(true);
      const d = await post('staff02', '/workflowInst/data', { actvityId: res.result.actvityId });
      const v = (d.result.fields as { label: string; value: string }[]).find(
        (f) => f.label === '文号',
      )!.value;
      expect(v).toMatch(/^馆办发〔2026〕1[3-6]号$/);
    }
    const message = '“文号”应写成 机关代字〔年份〕序号号，例如 馆办发〔2026〕12号（序号不加 0）';
    for (const bad of [
      '12号', // no issuing body nor year
      '馆办发2026年12号', // no brackets
      '馆办发〔26〕12号', // a two-digit year
      '馆办发〔0026〕12号', // not a real year
      '馆办发〔2026〕012号', // a leading 0 (GB/T 9704: 不编虚位)
      '馆办发〔2026〕12', // no 号
      '馆办发〔2026〕十二号', // the number in words
      '馆办<发>〔2026〕12号', // markup in the code
    ]) {
      const res = await outgoing(bad);
      expect(res, bad).toMatchObject({ success: false, message });
    }
    const empty = await outgoing('');
    expect(empty).toMatchObject({ success: false, message: '请填写“文号”' });
    const wrongType = await outgoing(12);
    expect(wrongType).toMatchObject({ success: false, message: '“文号”应为文字' });
  });
});

describe('审批设置: the category', () => {
  it('saving a template as 公文 moves it, and its requests, to the 公文 lists and 发起审批’s 公文', async () => {
    const id = await templateId('出差');
    const started = await post('staff02', '/workflowInst/start', {
      templateId: id,
      form: {
        destination: '西安',
        period: { start: '2026-12-01', end: '2026-12-02', duration: 2 },
        reason: '考察',
      },
    });
    expect(started.success, JSON.stringify(started)).toBe(true);
    const req = started.result.actvityId as number;
    expect(await ids('staff02', 'state=mystart&category=gongwen')).not.toContain(req);

    const detail = (await get('admin', `/workflowTemplate/detail?id=${id}`)).result;
    const save = (category: string) =>
      post('admin', '/workflowTemplate/save', {
        id,
        name: detail.name,
        icon: detail.icon,
        groupName: detail.groupName,
        category,
        definition: detail.definition,
      });
    const saved = await save('gongwen');
    expect(saved.success, JSON.stringify(saved)).toBe(true);
    try {
      const row = (
        (await get('admin', '/workflowTemplate/list')).result as { id: number; category: string }[]
      ).find((r) => r.id === id);
      expect(row?.category).toBe('gongwen');
      // 发起审批 offers it as a 公文 (its published version is unchanged: no new publish needed).
      expect((await startable('staff04')).find((t) => t.id === id)).toMatchObject({
        category: 'gongwen',
        name: '出差',
      });
      expect(await ids('staff02', 'state=mystart&category=gongwen')).toContain(req);
      expect(await ids('staff02', 'state=mystart&category=normal')).not.toContain(req);
      expect(await ids('staff02', 'state=mystart')).toContain(req);
      // A category that is neither is refused in words 审批设置 can show.
      const bad = await save('公文');
      expect(bad).toMatchObject({ success: false, message: '请选择模板类别' });
    } finally {
      expect((await save('normal')).success).toBe(true);
    }
    expect((await startable('staff04')).find((t) => t.id === id)?.category).toBe('normal');
  });
});
