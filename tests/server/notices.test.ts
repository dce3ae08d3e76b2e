import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCE_APPROVAL_TYPES } from '../../src/shared/api/notice';
import { startServer, type TestServer } from './harness';
import { M, expireSession, userIdOf } from './util';

/*
 * The notice centre (issue 7): notices, collaboration items and approval messages are each
 * person's own; reading and clearing touch only the caller's rows; the counts follow every
 * change; the live stream tells exactly the affected person, within a second.
 */

let s: TestServer;
let a: { token: string; id: number };
let b: { token: string; id: number };

async function person(account: string) {
  return { token: await s.login(account), id: await userIdOf(s, account) };
}

beforeAll(async () => {
  s = await startServer({ LIVE_HEARTBEAT_SECONDS: '1' });
  a = await person('staff05');
  b = await person('staff06');
});
afterAll(() => s.close());

const post = (token: string, path: string, body: unknown = {}) =>
  s.call('POST', `${M}${path}`, { token, body }).then((r) => r.body);
const counts = (token: string) =>
  s.call('GET', `${M}/workflowActvity/count`, { token }).then((r) => r.body.result);

async function clearAll() {
  for (const t of [a.token, b.token]) {
    await post(t, '/notice/clear', { noticeId: '' });
    await post(t, '/sysCooperation/clear');
  }
  await s.db.deleteFrom('approval_message').execute();
}

describe('notices', () => {
  it('need a session', async () => {
    for (const [method, path] of [
      ['POST', '/notice/list'],
      ['POST', '/sysCooperation/list'],
      ['POST', '/workflowActvity/message/list'],
      ['GET', '/workflowActvity/count'],
      ['GET', '/bsDigitalassetsInfo/countApproval'],
      ['GET', '/notice/stream'],
    ] as const) {
      const res = await s.call(method, `${M}${path}`, method === 'POST' ? { body: {} } : {});
      expect(res.status, path).toBe(999);
    }
  });

  it('lists a person’s own notices, newest first, and counts the unread', async () => {
    await clearAll();
    await s.notices.notify({ receivers: [b.id], content: '第一条', source: 'system', from: a.id });
    await s.notices.notify({
      receivers: [b.id, a.id],
      content: '<script>alert(1)</script>第二条',
      source: 'announcement',
      from: a.id,
      link: '/approve/notice-detail?id=9',
    });
    const list = (await post(b.token, '/notice/list')).result;
    expect(list.map((n: any) => n.noticeContent)).toEqual(['<script>alert(1)</script>第二条', '第一条']);
    expect(list[0]).toMatchObject({
      status: '1',
      source: 'announcement',
      link: '/approve/notice-detail?id=9',
    });
    expect(list[0].createTimeStr).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect((await post(a.token, '/notice/list')).result).toHaveLength(1);
    expect(await counts(b.token)).toMatchObject({ noticeCount: 2, total: 2 });
    expect(await counts(a.token)).toMatchObject({ noticeCount: 1, total: 1 });
  });

  it('reads and clears only the caller’s own; another’s id changes nothing', async () => {
    const [bNew, bOld] = (await post(b.token, '/notice/list')).result;
    // A reads and clears: B's notices stay unread and listed.
    expect(await post(a.token, '/notice/read', { noticeId: bNew.noticeId })).toMatchObject({ success: true });
    await post(a.token, '/notice/clear', { noticeId: '' });
    expect((await post(b.token, '/notice/list')).result.map((n: any) => n.status)).toEqual(['1', '1']);
    expect(await counts(a.token)).toMatchObject({ noticeCount: 0, total: 0 });

    expect(await post(b.token, '/notice/read', { noticeId: bOld.noticeId })).toMatchObject({ success: true });
    // Reading twice is the same as once (an offline replay).
    await post(b.token, '/notice/read', { noticeId: bOld.noticeId });
    expect((await post(b.token, '/notice/list')).result.map((n: any) => n.status)).toEqual(['1', '2']);
    expect(await counts(b.token)).toMatchObject({ noticeCount: 1, total: 1 });

    await post(b.token, '/notice/clear', { noticeId: '' });
    expect((await post(b.token, '/notice/list')).result).toEqual([]);
    expect(await counts(b.token)).toMatchObject({ noticeCount: 0, total: 0 });
  });

  it('refuses malformed ids with a Chinese message', async () => {
    for (const noticeId of [0, -1, 'abc', null, 1.5]) {
      const res = await s.call('POST', `${M}/notice/read`, { token: b.token, body: { noticeId } });
      expect(res.status, String(noticeId)).toBe(400);
      expect(res.body.message).toMatch(/[\u4e00-\u9fa5]/);
    }
    const none = await s.call('POST', `${M}/sysCooperation/read`, { token: b.token, body: {} });
    expect(none.status).toBe(400);
  });

  it('refuses unknown or disabled receivers, all or none', async () => {
    await expect(
      s.notices.notify({ receivers: [b.id, 999_999], content: 'x', source: 'system', from: null }),
    ).rejects.toThrow('接收人不存在或已停用');
    expect((await post(b.token, '/notice/list')).result).toEqual([]);
  });
});

describe('collaboration items', () => {
  it('lists unread items with their sender; read ones leave; clear marks all read', async () => {
    await clearAll();
    await s.notices.cooperate({
      receivers: [b.id],
      title: '你被指派了任务“布展灯光调试”',
      content: '截止 2026-12-01',
      type: 1,
      projectId: 3,
      taskId: 41,
      from: a.id,
    });
    await s.notices.cooperate({
      receivers: [b.id],
      title: '子任务清单',
      content: '',
      type: 2,
      projectId: 3,
      taskId: 42,
      from: null,
    });
    const list = (await post(b.token, '/sysCooperation/list')).result;
    expect(list).toHaveLength(2);
    expect(list[1]).toMatchObject({
      cooperationTitle: '你被指派了任务“布展灯光调试”',
      cooperationType: '1',
      projectId: 3,
      taskId: 41,
      isDelete: 0,
    });
    // Sent by a person: their name and picture; sent by the system: neither.
    expect(list[1].userName).not.toBe('');
    expect(list[0]).toMatchObject({ cooperationType: '2', userImg: '', userName: '' });
    expect(await counts(b.token)).toMatchObject({ cooperationCount: 2, total: 2 });

    // Another person's id does nothing.
    await post(a.token, '/sysCooperation/read', { cooperationId: list[0].cooperationId });
    await post(a.token, '/sysCooperation/clear');
    expect((await post(b.token, '/sysCooperation/list')).result).toHaveLength(2);

    await s.notices.tasksDeleted([41]);
    const flagged = (await post(b.token, '/sysCooperation/list')).result;
    expect(flagged.find((c: any) => c.taskId === 41).isDelete).toBe(1);

    await post(b.token, '/sysCooperation/read', { cooperationId: list[0].cooperationId });
    expect((await post(b.token, '/sysCooperation/list')).result.map((c: any) => c.taskId)).toEqual([41]);
    expect(await counts(b.token)).toMatchObject({ cooperationCount: 1, total: 1 });
    await post(b.token, '/sysCooperation/clear');
    expect((await post(b.token, '/sysCooperation/list')).result).toEqual([]);
    expect(await counts(b.token)).toMatchObject({ cooperationCount: 0, total: 0 });
  });
});

/** A request now needs B: awaiting B's decision (1) or copied to B (10), sent by A. */
const needsB = (actvityId: number, status: 1 | 10, title: string, type: string, startTime = Date.now()) =>
  s.notices.approvalMessage({ receivers: [b.id], actvityId, title, type, status, startTime, from: a.id });

describe('approval messages and counts', () => {
  it('lists awaiting and copied requests, and counts them apart', async () => {
    await clearAll();
    const start = Date.now() - 60_000;
    await needsB(101, 1, '张三的请假申请', 'leave', start);
    await needsB(102, 10, '李四的报销申请', 'expense', start);
    await needsB(103, 1, '藏品数据上传审核', RESOURCE_APPROVAL_TYPES.upload, start);
    const list = (await post(b.token, '/workflowActvity/message/list')).result;
    expect(list.map((m: any) => [m.actvityId, m.status])).toEqual([
      [103, '1'],
      [102, '10'],
      [101, '1'],
    ]);
    expect(list[0].userImg).toBe('');
    expect(list[0].userName).toBeTruthy();
    expect(await counts(b.token)).toEqual({
      todoCount: 2,
      copytoCount: 1,
      approvalCount: 3,
      noticeCount: 0,
      cooperationCount: 0,
      total: 3,
    });
    const res = await s.call('GET', `${M}/bsDigitalassetsInfo/countApproval`, { token: b.token });
    expect(res.body.result).toEqual({ all: 1, uploadCount: 1, applyCount: 0 });
    expect((await post(a.token, '/workflowActvity/message/list')).result).toEqual([]);
  });

  it('reading a copy takes it off my list only; a decision takes the awaiting one off', async () => {
    // A reading B's copy does nothing.
    await post(a.token, '/workflowInst/read', { actvityId: 102 });
    expect(await counts(b.token)).toMatchObject({ copytoCount: 1 });
    await post(b.token, '/workflowInst/read', { actvityId: 102 });
    expect(await counts(b.token)).toMatchObject({ copytoCount: 0, todoCount: 2, total: 2 });
    await s.notices.closeApproval(101, 1, [b.id]);
    expect(await counts(b.token)).toMatchObject({ todoCount: 1, approvalCount: 1, total: 1 });
    // The request comes back to B (e.g. a second round): the row reopens, never doubles.
    await needsB(101, 1, '张三的请假申请', 'leave', Date.now());
    expect(await counts(b.token)).toMatchObject({ todoCount: 2 });
    await s.notices.closeApproval(101, 1, null);
    await s.notices.closeApproval(103, 1, null);
    expect(await counts(b.token)).toMatchObject({ todoCount: 0, total: 0 });
  });
});

describe('approval messages of different modules', () => {
  it('share an id without touching each other', async () => {
    await clearAll();
    await needsB(500, 1, '王芳的请假申请', 'workflow');
    await needsB(500, 1, '藏品数据上传审核', RESOURCE_APPROVAL_TYPES.upload);
    expect((await post(b.token, '/workflowActvity/message/list')).result).toHaveLength(2);
    await s.notices.closeApproval(500, 1, null, 'workflow');
    const left = (await post(b.token, '/workflowActvity/message/list')).result;
    expect(left.map((m: { type: string }) => m.type)).toEqual([RESOURCE_APPROVAL_TYPES.upload]);
    expect(await counts(b.token)).toMatchObject({ todoCount: 1 });
  });
});

/** Opens the live stream as a browser would (the token cookie) and collects its events. */
async function stream(token: string) {
  const ctrl = new AbortController();
  const res = await fetch(`${s.url}${M}/notice/stream`, {
    headers: { cookie: `token=${token}` },
    signal: ctrl.signal,
  });
  const events: { event: string; data: string; at: number }[] = [];
  let ended = false;
  const reader = res.body!.getReader();
  const done = (async () => {
    const dec = new TextDecoder();
    let buf = '';
    try {
      for (;;) {
        const { value, done: end } = await reader.read();
        if (end) break;
        buf += dec.decode(value, { stream: true });
        let cut;
        while ((cut = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, cut);
          buf = buf.slice(cut + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1] ?? '';
          if (event) events.push({ event, data, at: Date.now() });
        }
      }
    } catch {
      /* aborted */
    }
    ended = true;
  })();
  const until = async (pred: () => boolean, ms = 3000) => {
    const t0 = Date.now();
    while (!pred()) {
      if (Date.now() - t0 > ms) throw new Error(`timed out; events: ${JSON.stringify(events)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { res, events, until, ended: () => ended, close: () => (ctrl.abort(), done) };
}

describe('the live stream', () => {
  it('tells exactly the affected person which list changed, within a second', async () => {
    const sb = await stream(b.token);
    const sa = await stream(a.token);
    expect(sb.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await sb.until(() => sb.events.some((e) => e.event === 'ready'));
    await sa.until(() => sa.events.some((e) => e.event === 'ready'));

    const t0 = Date.now();
    await s.notices.notify({ receivers: [b.id], content: '新通知', source: 'system', from: null });
    await sb.until(() => sb.events.some((e) => e.event === 'change'), 1000);
    const change = sb.events.find((e) => e.event === 'change')!;
    // The side menu's counts travel with it: the page shows the bell without asking again.
    expect(JSON.parse(change.data)).toEqual({ topics: ['notice'], counts: await counts(b.token) });
    expect(JSON.parse(change.data).counts.noticeCount).toBeGreaterThan(0);
    expect(change.at - t0).toBeLessThan(1000);

    // B reading through the API tells B's other pages too; A hears nothing of B's lists.
    const [n] = (await post(b.token, '/notice/list')).result;
    await post(b.token, '/notice/read', { noticeId: n.noticeId });
    await sb.until(() => sb.events.filter((e) => e.event === 'change').length === 2);
    await s.notices.cooperate({
      receivers: [b.id],
      title: 't',
      content: '',
      type: 1,
      projectId: null,
      taskId: null,
      from: null,
    });
    await sb.until(() => sb.events.some((e) => e.data.includes('cooperation')));
    expect(sa.events.filter((e) => e.event === 'change')).toEqual([]);
    expect(s.bus.size()).toBe(2);
    await sa.close();
    await sb.close();
    await sb.until(() => s.bus.size() === 0);
  });

  it('sends the changes of one turn as one event, and a later change as its own', async () => {
    const sb = await stream(b.token);
    await sb.until(() => sb.events.some((e) => e.event === 'ready'));
    const changes = () => sb.events.filter((e) => e.event === 'change').map((e) => JSON.parse(e.data));
    // As publishing an announcement does: the notice, then the announcement lists, one write.
    s.bus.publish([b.id], ['notice']);
    s.bus.publish([b.id], ['announce']);
    s.bus.publish([b.id], ['notice']);
    await sb.until(() => changes().length === 1);
    s.bus.publish([b.id], ['cooperation']);
    await sb.until(() => changes().length === 2);
    const now = await counts(b.token);
    expect(changes()).toEqual([
      { topics: ['notice', 'announce'], counts: now },
      { topics: ['cooperation'], counts: now },
    ]);
    // A change that moves none of the side menu's counts carries none.
    s.bus.publish([b.id], ['announce']);
    await sb.until(() => changes().length === 3);
    expect(changes()[2]).toEqual({ topics: ['announce'] });
    await sb.close();
    await sb.until(() => s.bus.size() === 0);
  });

  it('sends no counts once the session has ended, and ends at that change', async () => {
    const token = await s.login('staff07');
    const id = await userIdOf(s, 'staff07');
    const st = await stream(token);
    await st.until(() => st.events.some((e) => e.event === 'ready'));
    await expireSession(s, token);
    s.bus.publish([id], ['notice']);
    await st.until(() => st.ended());
    expect(st.events.map((e) => e.event)).toEqual(['ready']);
    expect(s.bus.size()).toBe(0);
  });

  it('ends when the session ends', async () => {
    const token = await s.login('staff07');
    const st = await stream(token);
    await st.until(() => st.events.some((e) => e.event === 'ready'));
    await expireSession(s, token);
    // The heartbeat (1 s here) re-checks the session and closes the stream.
    await st.until(() => st.ended(), 4000);
    expect(s.bus.size()).toBe(0);
  });
});
