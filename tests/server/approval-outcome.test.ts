import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WF_MSG } from '../../src/shared/workflow/engine';
import { startServer, type TestServer } from './harness';
import { M, PNG_1X1 } from './util';

/*
 * Issue 17 §2: the requester is told the outcome. Against the real server and the demo museum:
 * 王芳 (staff02) files; her superior 李明 (staff01) approves, and 张国华 (director) too for 报销
 * over 5,000 元; 文物出入库 goes on to 陈静 (staff08, the conservator) and is copied to 赵磊
 * (staff03) once passed. The notice rows are read from the database and through notice/list, so
 * what the bell shows is what is asserted.
 */

let s: TestServer;
const tok: Record<string, string> = {};
const uid: Record<string, number> = {};
const tpl: Record<string, number> = {};

beforeAll(async () => {
  s = await startServer();
  for (const a of ['admin', 'director', 'staff01', 'staff02', 'staff03', 'staff08']) {
    tok[a] = await s.login(a);
    uid[a] = (
      await s.db.selectFrom('user').select('id').where('account', '=', a).executeTakeFirstOrThrow()
    ).id;
  }
  for (const t of await s.db.selectFrom('approval_template').select(['id', 'name']).execute())
    tpl[t.name] = t.id;
});
afterAll(() => s.close());

const post = async (who: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  (await s.call('POST', `${M}${path}`, { token: tok[who], body: body ?? {}, headers })).body;
const approve = (
  who: string,
  id: number,
  action: 2 | 3 = 2,
  reason?: string,
  headers?: Record<string, string>,
) =>
  post(
    who,
    '/workflowInst/approval',
    { actvityId: id, action, ...(reason !== undefined && { reason }) },
    headers,
  );
const counts = async (who: string) =>
  (await s.call('GET', `${M}/workflowActvity/count`, { token: tok[who] })).body.result as {
    noticeCount: number;
    copytoCount: number;
  };
const mystart = (id: number) => `/approve/process-mystart?state=mystart&actvityId=${id}`;

/** Every notice about request `id` (its link names it), whoever holds it. */
const noticesAbout = (id: number) =>
  s.db
    .selectFrom('notice')
    .innerJoin('user', 'user.id', 'notice.user_id')
    .select(['user.account', 'notice.notice_content', 'notice.source', 'notice.link', 'notice.created_by'])
    .where('notice.link', 'like', `%actvityId=${id}`)
    .orderBy('notice.id')
    .execute();
const messages = async (who: string) =>
  ((await post(who, '/workflowActvity/message/list')).result as { actvityId: number; status: string }[]).map(
    (m) => [m.actvityId, m.status],
  );

async function expense(amount: number, who = 'staff02') {
  const res = await post(who, '/workflowInst/start', {
    templateId: tpl['报销'],
    form: { amount, reason: '展陈材料' },
  });
  expect(res.success, JSON.stringify(res)).toBe(true);
  return res.result.actvityId as number;
}

describe('the starter hears the outcome', () => {
  it('passed: only the final approval tells her, by the template name, linking to 我发起的', async () => {
    const id = await expense(6000);
    expect((await approve('staff01', id)).success).toBe(true);
    // Moving on to the director is not news to the starter.
    expect(await noticesAbout(id)).toEqual([]);
    const before = (await counts('staff02')).noticeCount;
    // The live bus behind the SSE stream (notices.test.ts tests the stream itself): she hears of
    // her notice list, after the commit; the director, who acted, hears only of his own 审批流.
    const heard: Record<string, string[]> = { staff02: [], director: [] };
    const off = (['staff02', 'director'] as const).map((a) =>
      s.bus.subscribe(uid[a]!, (topics) => heard[a]!.push(...topics)),
    );
    expect((await approve('director', id)).success).toBe(true);
    off.forEach((f) => f());
    expect(heard.staff02).toEqual(['notice']);
    expect(heard.director).toEqual(['approval']);
    expect(await noticesAbout(id)).toEqual([
      {
        account: 'staff02',
        notice_content: '您的「报销」申请已通过',
        source: 'approval',
        link: mystart(id),
        created_by: uid.director,
      },
    ]);
    // What the bell reads: the count rises and the list carries the link.
    expect((await counts('staff02')).noticeCount).toBe(before + 1);
    const list = (await post('staff02', '/notice/list')).result as { noticeContent: string; link: string }[];
    expect(list[0]).toMatchObject({
      noticeContent: '您的「报销」申请已通过',
      link: mystart(id),
      status: '1',
    });
  });

  it('refused: with the reason the approver gave', async () => {
    const id = await expense(800);
    expect((await approve('staff01', id, 3)).message).toBe('请填写拒绝理由');
    expect(await noticesAbout(id)).toEqual([]);
    expect((await approve('staff01', id, 3, '发票抬头不对')).success).toBe(true);
    expect((await noticesAbout(id)).map((n) => [n.account, n.notice_content, n.created_by])).toEqual([
      ['staff02', '您的「报销」申请已被拒绝：发票抬头不对', uid.staff01],
    ]);
  });

  it('transferred: she is told who handles it now; the new approver gets the pending item', async () => {
    const id = await expense(500);
    // A refused transfer tells nobody.
    expect(
      (await post('staff01', '/workflowInst/deliver', { actvityId: id, target: uid.staff01 })).message,
    ).toBe(WF_MSG.transferToSelf);
    expect(await noticesAbout(id)).toEqual([]);
    expect(
      (await post('staff01', '/workflowInst/deliver', { actvityId: id, target: uid.staff03 })).success,
    ).toBe(true);
    expect(await messages('staff03')).toContainEqual([id, '1']);
    expect((await noticesAbout(id)).map((n) => [n.account, n.notice_content, n.link])).toEqual([
      ['staff02', '您的「报销」申请已由李明转交给赵磊处理', mystart(id)],
    ]);
    expect((await approve('staff03', id)).success).toBe(true);
    expect((await noticesAbout(id)).map((n) => n.notice_content)).toEqual([
      '您的「报销」申请已由李明转交给赵磊处理',
      '您的「报销」申请已通过',
    ]);
  });

  it('a copy arrives once, as the 抄送 approval message, not also as a notice', async () => {
    const fd = new FormData();
    fd.append('tableName', 'approval');
    fd.append('file', new Blob([new Uint8Array(PNG_1X1)]), '文物.png');
    const up = await fetch(`${s.url}${M}/attach/uploadimage`, {
      method: 'POST',
      headers: { token: tok.staff02! },
      body: fd,
    });
    const photo = ((await up.json()) as { result: { attId: number } }).result.attId;
    const res = await post('staff02', '/workflowInst/start', {
      templateId: tpl['文物出入库'],
      form: { objectNo: 'GB-002', from: '1', to: '2', reason: '布展', photos: [photo] },
    });
    const id = res.result.actvityId as number;
    await approve('staff01', id);
    const copiesBefore = (await counts('staff03')).copytoCount;
    expect((await approve('staff08', id)).success).toBe(true);
    expect((await messages('staff03')).filter(([a]) => a === id)).toEqual([[id, '10']]);
    expect((await counts('staff03')).copytoCount).toBe(copiesBefore + 1);
    const rows = await s.db
      .selectFrom('approval_message')
      .select(['created_by'])
      .where('actvity_id', '=', id)
      .where('user_id', '=', uid.staff03!)
      .where('status', '=', 10)
      .execute();
    // From the starter: the bell's row reads 王芳's name and image with 抄送 and 王芳的文物出入库.
    expect(rows).toEqual([{ created_by: uid.staff02 }]);
    expect((await noticesAbout(id)).map((n) => [n.account, n.notice_content])).toEqual([
      ['staff02', '您的「文物出入库」申请已通过'],
    ]);
  });

  it('never the person who acted: the starter deciding or cancelling her own request hears nothing', async () => {
    const id = await expense(400);
    await post('staff01', '/workflowInst/deliver', { actvityId: id, target: uid.staff02 });
    expect((await approve('staff02', id)).success).toBe(true);
    // Only the transfer (李明's act) is news; her own approval is not.
    expect((await noticesAbout(id)).map((n) => n.notice_content)).toEqual([
      '您的「报销」申请已由李明转交给王芳处理',
    ]);
    expect((await noticesAbout(id)).some((n) => n.account === 'staff01')).toBe(false);

    const other = await expense(401);
    expect(
      (await post('staff02', '/workflowInst/cancel', { actvityId: other, action: 4, reason: '不需要了' }))
        .success,
    ).toBe(true);
    expect(await noticesAbout(other)).toEqual([]);
  });

  it('an offline replay with the same Idempotency-Key tells her once', async () => {
    const id = await expense(300);
    const key = { 'Idempotency-Key': `outcome-${id}-agree` };
    const first = await approve('staff01', id, 2, undefined, key);
    expect(first.success).toBe(true);
    expect(await approve('staff01', id, 2, undefined, key)).toEqual(first);
    // A retry without the key is the engine's refusal, and tells nobody either.
    expect((await approve('staff01', id)).message).toBe(WF_MSG.passed);
    expect((await noticesAbout(id)).map((n) => n.notice_content)).toEqual(['您的「报销」申请已通过']);
  });

  it('a starter disabled meanwhile does not stop the decision; nobody is told', async () => {
    const id = await expense(200);
    await s.db.updateTable('user').set({ enabled: 0 }).where('id', '=', uid.staff02!).execute();
    try {
      const res = await approve('staff01', id);
      expect(res.success, JSON.stringify(res)).toBe(true);
      expect(await noticesAbout(id)).toEqual([]);
    } finally {
      await s.db.updateTable('user').set({ enabled: 1 }).where('id', '=', uid.staff02!).execute();
    }
  });
});
