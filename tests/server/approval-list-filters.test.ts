import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { M } from './util';

/*
 * The approval lists' filters (issue 8, the lists of /approve/* and /gongwen/*): category,
 * status and template narrow every list; `list` is every request the caller may read. Runs on
 * the demo museum: staff02's superior is staff01; staff04 has nothing to do with staff02's 报销.
 */

let s: TestServer;
const tok: Record<string, string> = {};
const tpl: Record<string, number> = {};

beforeAll(async () => {
  s = await startServer();
  for (const a of ['staff01', 'staff02', 'staff04']) tok[a] = await s.login(a);
  for (const t of await s.db.selectFrom('approval_template').select(['id', 'name']).execute())
    tpl[t.name] = t.id;
});
afterAll(() => s.close());

const post = async (who: string, path: string, body: unknown) =>
  (await s.call('POST', `${M}${path}`, { token: tok[who], body })).body;
const get = async (who: string, path: string) =>
  (await s.call('GET', `${M}${path}`, { token: tok[who] })).body;
const ids = async (who: string, q: string) => {
  const res = await get(who, `/workflowInst/list?${q}`);
  expect(res.success, JSON.stringify(res)).toBe(true);
  return (res.result.list as { actvityId: number }[]).map((r) => r.actvityId);
};

async function expense(reason: string, priority = 1) {
  const res = await post('staff02', '/workflowInst/start', {
    templateId: tpl['报销'],
    form: { amount: 100, reason },
    priority,
  });
  expect(res.success, JSON.stringify(res)).toBe(true);
  return res.result.actvityId as number;
}

describe('list filters', () => {
  it('narrows by status, template and category; list is what the caller may read', async () => {
    const a = await expense('展签打印', 2);
    const b = await expense('布展耗材');
    const cancel = await post('staff02', '/workflowInst/cancel', {
      actvityId: b,
      action: 4,
      reason: '重复提交',
    });
    expect(cancel.success).toBe(true);

    expect(await ids('staff02', 'state=mystart&status=4')).toEqual([b]);
    expect(await ids('staff02', 'state=mystart&status=1')).toEqual([a]);
    expect(await ids('staff02', `state=mystart&templateId=${tpl['报销']}`)).toEqual([b, a]);
    expect(await ids('staff02', `state=mystart&templateId=${tpl['请假']}`)).toEqual([]);
    expect(await ids('staff02', 'state=mystart&category=normal')).toEqual([b, a]);
    expect(await ids('staff02', 'state=mystart&category=gongwen')).toEqual([]);
    // The superior saw both (one awaited, one cancelled while awaiting): both are in 公文列表's
    // kind of list; a colleague who was never involved sees neither.
    expect(await ids('staff01', 'state=list')).toEqual(expect.arrayContaining([a, b]));
    expect(await ids('staff04', 'state=list')).not.toEqual(expect.arrayContaining([a]));
    expect(await ids('staff02', 'state=list&keyword=请假')).toEqual([]);
    expect(await ids('staff02', 'state=list&keyword=报销')).toEqual([b, a]);

    await s.db
      .updateTable('approval_template')
      .set({ category: 'gongwen' })
      .where('id', '=', tpl['报销']!)
      .execute();
    try {
      expect(await ids('staff02', 'state=mystart&category=normal')).toEqual([]);
      expect(await ids('staff02', 'state=mystart&category=gongwen')).toEqual([b, a]);
      expect(await ids('staff01', 'state=pending&category=gongwen')).toEqual([a]);
      const templates = await get('staff04', '/workflowInst/templates?category=gongwen');
      // 报销 joins the seeded 公文 (发文, 收文, 签报).
      expect(templates.result).toEqual([
        { id: tpl['报销'], name: '报销' },
        ...['发文', '收文', '签报'].map((name) => ({ id: tpl[name], name })),
      ]);
      // The /approve lists (every category) still offer it, and their requests stay there.
      const all = await get('staff04', '/workflowInst/templates?category=all');
      expect((all.result as { name: string }[]).map((t) => t.name)).toEqual(
        expect.arrayContaining(['报销', '请假', '发文']),
      );
      expect(await ids('staff02', 'state=mystart')).toEqual([b, a]);
      const normal = await get('staff04', '/workflowInst/templates');
      expect((normal.result as { name: string }[]).map((t) => t.name)).not.toContain('报销');
    } finally {
      await s.db
        .updateTable('approval_template')
        .set({ category: 'normal' })
        .where('id', '=', tpl['报销']!)
        .execute();
    }
  });

  it('refuses bad filters with words a person can act on', async () => {
    const bad = async (q: string) => {
      const res = await s.call('GET', `${M}/workflowInst/list?${q}`, { token: tok.staff02 });
      expect(res.status).toBe(400);
      return res.body.message as string;
    };
    expect(await bad('state=mystart&status=5')).toContain('审批状态不正确');
    expect(await bad('state=mystart&category=x')).toContain('模板类别不正确');
    expect(await bad('state=mystart&templateId=-1')).toContain('审批模板不正确');
    expect(await bad('state=all')).toContain('列表类型不正确');
    const t = await s.call('GET', `${M}/workflowInst/templates?category=x`, { token: tok.staff02 });
    expect(t.body.message).toContain('模板类别不正确');
  });
});
