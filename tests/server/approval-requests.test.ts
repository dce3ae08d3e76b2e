import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WF_MSG } from '../../src/shared/workflow/engine';
import { startServer, type TestServer } from './harness';
import { M, PNG_1X1 } from './util';

/*
 * Approval requests (issue 8) against the real server and the demo museum: staff02's superior
 * is staff01, whose superior is the director (馆长办公室/leader); admin administers 审批设置.
 * 报销 over 5,000 元 also goes to the director; 文物出入库 goes to the conservator (staff08) and
 * is copied to staff03 once passed.
 */

let s: TestServer;
const tok: Record<string, string> = {};
const uid: Record<string, number> = {};
const tpl: Record<string, number> = {};

beforeAll(async () => {
  s = await startServer();
  for (const a of ['admin', 'director', 'staff01', 'staff02', 'staff03', 'staff04', 'staff08']) {
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
const messages = async (who: string) =>
  ((await post(who, '/workflowActvity/message/list')).result as { actvityId: number; status: string }[]).map(
    (m) => [m.actvityId, m.status],
  );
const detail = (who: string, id: number) => post(who, '/workflowInst/data', { actvityId: id });
const approve = (who: string, id: number, action: 2 | 3 = 2, reason?: string) =>
  post(who, '/workflowInst/approval', { actvityId: id, action, ...(reason !== undefined && { reason }) });

async function expense(amount: number | string, who = 'staff02') {
  const res = await post(who, '/workflowInst/start', {
    templateId: tpl['报销'],
    form: { amount, reason: '购买展陈材料' },
  });
  expect(res.success, JSON.stringify(res)).toBe(true);
  return res.result.actvityId as number;
}
const statusOf = async (id: number) =>
  (await s.db.selectFrom('approval_request').select('status').where('id', '=', id).executeTakeFirstOrThrow())
    .status;

describe('starting a request', () => {
  it('checks the form against the pinned version', async () => {
    const start = (form: unknown, templateId = tpl['报销']) =>
      post('staff02', '/workflowInst/start', { templateId, form });
    expect((await start({ reason: 'x' })).message).toBe('请填写“报销金额（元）”');
    expect((await start({ amount: 12.345, reason: 'x' })).message).toBe(
      '“报销金额（元）”：最多保留 2 位小数',
    );
    expect((await start({ amount: 'abc', reason: 'x' })).message).toContain('“报销金额（元）”');
    expect((await start({ amount: -1, reason: 'x' })).message).toBe('“报销金额（元）”不能小于 0');
    expect((await start({ amount: 10, reason: 'x', invoices: ['a'] })).message).toBe(
      '“票据”的选择不正确，请重新选择',
    );
    const leave = (period: unknown, leaveType = 'annual') =>
      start({ leaveType, period, reason: '休假' }, tpl['请假']);
    expect((await leave({ start: '2026-05-03', end: '2026-05-01', duration: 1 })).message).toBe(
      '“请假时间”的结束时间不能早于开始时间',
    );
    expect((await leave({ start: '2026-02-30', end: '2026-03-01', duration: 1 })).message).toBe(
      '“请假时间”的日期格式应为 yyyy-MM-dd',
    );
    expect((await leave({ start: '2026-05-01', end: '2026-05-01', duration: 1 }, 'holiday')).message).toBe(
      '“请假类型”的选项不存在，请重新选择',
    );
    expect((await start({ amount: 1, reason: 'x' }, 99999)).message).toBe(
      '该审批模板未发布或已停用，请刷新后重试',
    );
    const bad = await post('staff02', '/workflowInst/start', {
      templateId: tpl['报销'],
      form: {},
      priority: 5,
    });
    expect(bad.success).toBe(false);
    const ok = await leave({ start: '2026-05-01', end: '2026-05-01', duration: 1 });
    expect(ok.success).toBe(true);
  });
});

describe('a request through its approvers', () => {
  it('报销 6,000: staff01, then the director; passed closes every message', async () => {
    const id = await expense(6000);
    expect(await messages('staff01')).toContainEqual([id, '1']);
    expect(await messages('director')).not.toContainEqual([id, '1']);
    const d = await detail('staff02', id);
    expect(d.result).toMatchObject({ title: '王芳的报销', status: 1, isCancel: 0, priority: 1 });
    expect(d.result.fields[0]).toMatchObject({ name: 'amount', label: '报销金额（元）', value: '6000.00元' });
    expect(d.result.approval.map((n: any) => n.statusText)).toEqual(['审批中', '待审批']);

    expect((await approve('staff01', id, 2, '同意')).success).toBe(true);
    expect(await messages('staff01')).not.toContainEqual([id, '1']);
    expect(await messages('director')).toContainEqual([id, '1']);
    expect((await approve('director', id)).success).toBe(true);
    expect(await statusOf(id)).toBe(6);
    expect(await messages('director')).not.toContainEqual([id, '1']);
    const done = (await detail('staff02', id)).result;
    expect(done.status).toBe(6);
    expect(done.isCancel).toBe(1);
    expect(done.approval[0].nodeUserList[0]).toMatchObject({
      name: '李明',
      status: 2,
      statusText: '已同意',
      comment: '同意',
    });
    // Deciding again is the engine's refusal.
    expect((await approve('director', id)).message).toBe(WF_MSG.passed);
  });

  it('报销 3,000 skips the director', async () => {
    const id = await expense(3000);
    expect((await approve('staff01', id)).success).toBe(true);
    expect(await statusOf(id)).toBe(6);
    expect(await messages('director')).not.toContainEqual([id, '1']);
  });

  it('a refusal ends it (3); the reason is required and at most 200 characters', async () => {
    const id = await expense(8000);
    expect((await approve('staff01', id, 3)).message).toBe('请填写拒绝理由');
    expect((await approve('staff01', id, 3, '   ')).message).toBe('请填写拒绝理由');
    expect((await approve('staff01', id, 3, '长'.repeat(201))).message).toBe('最多 200 个字');
    expect(await statusOf(id)).toBe(1);
    expect((await approve('staff01', id, 3, '预算不足')).success).toBe(true);
    expect(await statusOf(id)).toBe(3);
    expect(await messages('director')).not.toContainEqual([id, '1']);
    expect((await approve('staff01', id, 2)).message).toBe(WF_MSG.refused);
  });

  it('copy-to after passing gets a status-10 message, and reading it moves them to readList', async () => {
    // The photo must be the starter's own image upload for approvals (approval-attach.test.ts).
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
      form: { objectNo: 'GB-001', from: '1', to: '2', reason: '布展', photos: [photo] },
      priority: 2,
    });
    const id = res.result.actvityId as number;
    expect(await messages('staff03')).not.toContainEqual([id, '10']);
    await approve('staff01', id);
    expect(await messages('staff08')).toContainEqual([id, '1']);
    await approve('staff08', id);
    expect(await statusOf(id)).toBe(6);
    expect(await messages('staff03')).toContainEqual([id, '10']);
    let d = (await detail('staff03', id)).result;
    expect(d.notice).toBe(1);
    expect(d.unreadList.map((p: any) => p.userId)).toEqual([uid.staff03]);
    expect(d.readList).toEqual([]);
    expect((await post('staff03', '/workflowInst/read', { actvityId: id })).success).toBe(true);
    expect(await messages('staff03')).not.toContainEqual([id, '10']);
    d = (await detail('staff02', id)).result;
    expect(d.readList.map((p: any) => p.userId)).toEqual([uid.staff03]);
    expect(d.unreadList).toEqual([]);
    expect(d.priority).toBe(2);
    // Someone not copied "reads" it: nothing is recorded.
    await post('staff04', '/workflowInst/read', { actvityId: id });
    expect((await detail('staff02', id)).result.readList).toHaveLength(1);
  });
});

describe('cancel', () => {
  it('only the starter, with a reason, while in progress', async () => {
    const id = await expense(100);
    expect(
      (await post('staff02', '/workflowInst/cancel', { actvityId: id, action: 4, reason: '' })).message,
    ).toBe('请填写撤销理由');
    // staff01 sees it (an approver) but may not cancel it.
    expect(
      (await post('staff01', '/workflowInst/cancel', { actvityId: id, action: 4, reason: '不要了' })).message,
    ).toBe(WF_MSG.onlyStarterCancels);
    expect(
      (await post('staff02', '/workflowInst/cancel', { actvityId: id, action: 4, reason: '不要了' })).success,
    ).toBe(true);
    expect(await statusOf(id)).toBe(4);
    expect(await messages('staff01')).not.toContainEqual([id, '1']);
    expect((await approve('staff01', id)).message).toBe(WF_MSG.cancelled);
    expect(
      (await post('staff02', '/workflowInst/cancel', { actvityId: id, action: 4, reason: 'x' })).message,
    ).toBe(WF_MSG.cancelled);
    const passed = await expense(50);
    await approve('staff01', passed);
    expect(
      (await post('staff02', '/workflowInst/cancel', { actvityId: passed, action: 4, reason: 'x' })).message,
    ).toBe(WF_MSG.cancelEnded);
  });
});

describe('rights', () => {
  it('a foreign user is refused for every action, without learning that it exists', async () => {
    const id = await expense(7000);
    const gone = '审批不存在或您无权查看';
    for (const [path, body] of [
      ['/workflowInst/approval', { actvityId: id, action: 2 }],
      ['/workflowInst/cancel', { actvityId: id, action: 4, reason: 'x' }],
      ['/workflowInst/deliver', { actvityId: id, target: uid.staff03 }],
      ['/workflowInst/comment', { actvityId: id, comment: '看看' }],
      ['/workflowInst/commentDel', { actvityId: id, delete: 1 }],
      ['/workflowInst/data', { actvityId: id }],
    ] as const) {
      const res = await post('staff04', path, body);
      expect(res.message, path).toBe(gone);
      expect((await post('staff04', path, { ...body, actvityId: 999999 })).message, path).toBe(gone);
    }
    expect(await statusOf(id)).toBe(1);
    // Another module's approval message under the same id grants nothing.
    await s.notices.approvalMessage({
      receivers: [uid.staff04!],
      actvityId: id,
      title: '藏品数据上传审核',
      type: 'resourceUpload',
      status: 10,
      startTime: Date.now(),
      from: null,
    });
    expect((await detail('staff04', id)).message).toBe(gone);
    // staff08 is not reached by this flow; the director's node is not reached yet (the
    // director reads it anyway: the 馆长 role administers 审批设置).
    expect((await detail('staff08', id)).message).toBe(gone);
    // The administrator of 审批设置 reads every request; the starter and the approver too.
    expect((await detail('admin', id)).success).toBe(true);
    expect((await detail('staff01', id)).success).toBe(true);
    await approve('staff01', id);
    // staff01 still reads it (was an approver), but no longer decides on the director's node.
    expect((await detail('staff01', id)).success).toBe(true);
    expect((await approve('staff01', id)).message).toBe(WF_MSG.notApprover);
  });
});

describe('concurrency and replays', () => {
  it('two any-one approvers acting at once settle the node exactly once', async () => {
    // Both administrators-of-record of an any-one node: a template naming staff01 and staff03.
    const save = await post('admin', '/workflowTemplate/save', {
      name: '或签测试',
      category: 'normal',
      definition: {
        fields: [],
        directorMaxLevel: 1,
        flowPermission: [],
        nodeConfig: {
          type: 0,
          nodeName: '发起人',
          childNode: {
            type: 1,
            nodeName: '或签',
            settype: 1,
            examineMode: 1,
            directorLevel: 1,
            nodeUserList: [
              { targetId: uid.staff01, type: 1, name: '李明' },
              { targetId: uid.staff03, type: 1, name: '赵磊' },
            ],
            deptRoleList: [],
            childNode: null,
          },
        },
      },
    });
    expect(save.success, JSON.stringify(save)).toBe(true);
    expect((await post('admin', '/workflowTemplate/publish', { id: save.result.id })).success).toBe(true);
    const id = (await post('staff02', '/workflowInst/start', { templateId: save.result.id, form: {} })).result
      .actvityId as number;
    const [a, b] = await Promise.all([approve('staff01', id, 2), approve('staff03', id, 3, '不行')]);
    expect([a.success, b.success].sort()).toEqual([false, true]);
    expect((a.success ? b : a).message).toBe(WF_MSG.settledByOther);
    expect([6, 3]).toContain(await statusOf(id));
    const node = (await detail('staff02', id)).result.approval[0];
    expect(node.nodeUserList.filter((u: any) => u.status !== null)).toHaveLength(1);
    expect(await messages('staff01')).not.toContainEqual([id, '1']);
    expect(await messages('staff03')).not.toContainEqual([id, '1']);
  });

  it('replaying /approval with the same Idempotency-Key answers the first answer and changes nothing', async () => {
    const id = await expense(9000);
    const key = { 'Idempotency-Key': `approve-${id}-once` };
    const first = await post('staff01', '/workflowInst/approval', { actvityId: id, action: 2 }, key);
    expect(first.success).toBe(true);
    const before = await s.db
      .selectFrom('approval_request')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const again = await s.call('POST', `${M}/workflowInst/approval`, {
      token: tok.staff01,
      body: { actvityId: id, action: 2 },
      headers: key,
    });
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.body).toEqual(first);
    const after = await s.db
      .selectFrom('approval_request')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    // Without the key, the second try is the engine's refusal (the node has moved on).
    expect((await approve('staff01', id)).message).toBe(WF_MSG.notApprover);
  });
});

describe('transfer', () => {
  it('hands the decision to staff03; staff01 shows isTransfer', async () => {
    const id = await expense(200);
    const deliver = (who: string, target: unknown) =>
      post(who, '/workflowInst/deliver', { actvityId: id, target });
    expect((await deliver('staff01', uid.staff01)).message).toBe(WF_MSG.transferToSelf);
    expect((await deliver('staff01', 999999)).message).toBe('转交的同事不存在或已停用，请重新选择');
    expect((await deliver('staff01', 'x')).success).toBe(false);
    expect((await deliver('staff01', uid.staff03)).success).toBe(true);
    expect(await messages('staff01')).not.toContainEqual([id, '1']);
    expect(await messages('staff03')).toContainEqual([id, '1']);
    expect((await approve('staff01', id)).message).toBe(WF_MSG.alreadyTransferred);
    const users = (await detail('staff02', id)).result.approval[0].nodeUserList;
    expect(users.map((u: any) => [u.name, u.statusText, u.isTransfer])).toEqual([
      ['李明', '已转交', true],
      ['赵磊', '审批中', false],
    ]);
    expect((await approve('staff03', id)).success).toBe(true);
    expect(await statusOf(id)).toBe(6);
  });
});

describe('comments', () => {
  it('anyone who sees it comments; only the author deletes', async () => {
    const id = await expense(300);
    expect((await post('staff01', '/workflowInst/comment', { actvityId: id, comment: '' })).message).toBe(
      '请填写评论内容',
    );
    expect(
      (await post('staff01', '/workflowInst/comment', { actvityId: id, comment: '评'.repeat(201) })).message,
    ).toBe('最多 200 个字');
    const c = await post('staff01', '/workflowInst/comment', { actvityId: id, comment: '请附发票' });
    expect(c.success).toBe(true);
    const commentId = c.result.commentId as number;
    let list = (await detail('staff02', id)).result.comment;
    expect(list).toEqual([
      expect.objectContaining({
        commentId,
        name: '李明',
        comment: '请附发票',
        canDelete: false,
        actvityId: id,
      }),
    ]);
    expect((await detail('staff01', id)).result.comment[0].canDelete).toBe(true);
    expect(
      (await post('staff02', '/workflowInst/commentDel', { actvityId: id, delete: commentId })).message,
    ).toBe('只能删除自己的评论');
    const other = await expense(301);
    expect(
      (await post('staff01', '/workflowInst/commentDel', { actvityId: other, delete: commentId })).message,
    ).toBe('评论不存在或已删除');
    expect(
      (await post('staff01', '/workflowInst/commentDel', { actvityId: id, delete: commentId })).success,
    ).toBe(true);
    list = (await detail('staff02', id)).result.comment;
    expect(list).toEqual([]);
    expect(
      (await post('staff01', '/workflowInst/commentDel', { actvityId: id, delete: commentId })).message,
    ).toBe('评论不存在或已删除');
  });
});

describe('lists', () => {
  it('pending, done, mystart and copy, paged and searchable', async () => {
    const list = async (who: string, q: string) =>
      (await s.call('GET', `${M}/workflowInst/list?${q}`, { token: tok[who] })).body;
    const id = await expense(400, 'staff04');
    const pending = (await list('staff03', 'state=pending')).result;
    expect(pending.list[0]).toMatchObject({
      actvityId: id,
      templateName: '报销',
      starterName: '陈静',
      status: 1,
    });
    await approve('staff03', id);
    expect((await list('staff03', 'state=pending')).result.list.map((r: any) => r.actvityId)).not.toContain(
      id,
    );
    expect((await list('staff03', 'state=done')).result.list.map((r: any) => r.actvityId)).toContain(id);
    const mine = (await list('staff02', 'state=mystart&pageCount=2')).result;
    expect(mine.list).toHaveLength(2);
    expect(mine.total).toBeGreaterThan(5);
    expect((await list('staff02', 'state=mystart&keyword=文物')).result.total).toBe(1);
    expect((await list('staff02', 'state=mystart&keyword=%25')).result.total).toBe(0);
    expect((await list('staff03', 'state=copy')).result.total).toBe(1);
    expect((await list('staff03', 'state=other')).success).toBe(false);
  });
});
