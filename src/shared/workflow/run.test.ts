import { describe, expect, it } from 'vitest';
import { act, release, start, WF_MSG, type Action, type Effect, type RunState } from './run';
import type { ApproverStep, CopyStep, Step } from './plan';

const STARTER = 1;
const approve = (nodeKey: string, approvers: number[], examineMode: 1 | 2 = 1): ApproverStep => ({
  kind: 'approve',
  nodeKey,
  nodeName: `节点${nodeKey}`,
  settype: 1,
  examineMode,
  approvers,
});
const copy = (nodeKey: string, recipients: number[], notice: 0 | 1): CopyStep => ({
  kind: 'copy',
  nodeKey,
  nodeName: `抄送${nodeKey}`,
  recipients,
  notice,
});

/** Runs actions in order; every one must be accepted. Returns the last state and all effects. */
function run(steps: Step[], ...actions: Action[]): { state: RunState; effects: Effect[][] } {
  const s = start(steps, STARTER);
  let state = s.state;
  const effects = [s.effects];
  for (const a of actions) {
    const r = act(state, a);
    if (!r.ok) throw new Error(`refused: ${r.message} for ${JSON.stringify(a)}`);
    state = r.state;
    effects.push(r.effects);
  }
  return { state, effects };
}
const refusalOf = (state: RunState, a: Action) => {
  const r = act(state, a);
  return r.ok ? null : r.message;
};
const agree = (userId: number, comment?: string): Action => ({
  userId,
  action: 2,
  ...(comment && { comment }),
});
const refuse = (userId: number): Action => ({ userId, action: 3, comment: '材料不全' });
const cancel = (userId: number): Action => ({ userId, action: 4, comment: '不需要了' });
const transfer = (userId: number, to: number): Action => ({ userId, action: 'transfer', to });

describe('start', () => {
  it('awaits the first approver step and notifies copy-to with notice 0, wherever it sits', () => {
    const { state, effects } = start(
      [copy('0', [7], 1), approve('1', [2]), copy('2', [8, 9], 0), approve('3', [3])],
      STARTER,
    );
    expect(state.status).toBe(1);
    expect(effects).toEqual([
      { type: 'copy', nodeKey: '2', userIds: [8, 9] },
      { type: 'await', nodeKey: '1', userIds: [2] },
    ]);
    expect(state.nodes).toEqual([
      { step: 1, nodeKey: '1', examineMode: 1, entries: [{ userId: 2 }], settled: false },
    ]);
  });
  it('a plan without approvers passes at once and tells every copy-to', () => {
    const { state, effects } = start([copy('0', [7], 0), copy('1', [8], 1)], STARTER);
    expect(state.status).toBe(6);
    expect(effects).toEqual([
      { type: 'copy', nodeKey: '0', userIds: [7] },
      { type: 'copy', nodeKey: '1', userIds: [8] },
      { type: 'end', status: 6 },
    ]);
  });
  it('asserts that no approver step is empty', () => {
    expect(() => start([approve('0', [])], STARTER)).toThrow(/nobody/);
  });
  it('is plain JSON, so the server can store it as it is', () => {
    const { state } = run([approve('0', [2, 3], 2), approve('1', [4])], agree(2), transfer(3, 5));
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });
});

describe('any-one (或签) and all (会签)', () => {
  it('或签: the first agreement settles the node and closes the others; the next step awaits', () => {
    const { state, effects } = run([approve('0', [2, 3]), approve('1', [4])], agree(3, '同意'));
    expect(effects[1]).toEqual([
      { type: 'close', nodeKey: '0', userIds: [3, 2] },
      { type: 'await', nodeKey: '1', userIds: [4] },
    ]);
    expect(state.nodes[0]).toMatchObject({
      settled: true,
      entries: [{ userId: 2 }, { userId: 3, status: 2, comment: '同意' }],
    });
    expect(state.status).toBe(1);
  });
  it('或签 race: the second approver of the node is told 已被他人处理, also after the request ended', () => {
    const mid = run([approve('0', [2, 3]), approve('1', [4])], agree(2)).state;
    expect(refusalOf(mid, agree(3))).toBe(WF_MSG.settledByOther);
    expect(refusalOf(mid, refuse(3))).toBe(WF_MSG.settledByOther);
    expect(refusalOf(mid, transfer(3, 9))).toBe(WF_MSG.settledByOther);
    const ended = run([approve('0', [2, 3])], agree(2)).state;
    expect(ended.status).toBe(6);
    expect(refusalOf(ended, agree(3))).toBe(WF_MSG.settledByOther);
    const refusedByOther = run([approve('0', [2, 3])], refuse(2)).state;
    expect(refusalOf(refusedByOther, agree(3))).toBe(WF_MSG.settledByOther);
  });
  it('或签: one refusal refuses the request', () => {
    const { state, effects } = run([approve('0', [2, 3]), approve('1', [4])], refuse(2));
    expect(state.status).toBe(3);
    expect(effects[1]).toEqual([
      { type: 'close', nodeKey: '0', userIds: [2, 3] },
      { type: 'end', status: 3 },
    ]);
  });
  it('会签: the node waits for everyone, then passes', () => {
    const steps = [approve('0', [2, 3, 4], 2), approve('1', [5])];
    const { state, effects } = run(steps, agree(3), agree(2));
    expect(effects[1]).toEqual([{ type: 'close', nodeKey: '0', userIds: [3] }]);
    expect(effects[2]).toEqual([{ type: 'close', nodeKey: '0', userIds: [2] }]);
    expect(state.nodes).toHaveLength(1);
    expect(refusalOf(state, agree(3))).toBe(WF_MSG.alreadyDecided);
    const last = act(state, agree(4));
    expect(last.ok && last.effects).toEqual([
      { type: 'close', nodeKey: '0', userIds: [4] },
      { type: 'await', nodeKey: '1', userIds: [5] },
    ]);
  });
  it('会签: any refusal refuses the request and closes the open tasks', () => {
    const { state, effects } = run([approve('0', [2, 3, 4], 2)], agree(2), refuse(4));
    expect(state.status).toBe(3);
    expect(effects[2]).toEqual([
      { type: 'close', nodeKey: '0', userIds: [4, 3] },
      { type: 'end', status: 3 },
    ]);
    expect(state.nodes[0]!.entries.map((e) => e.status)).toEqual([2, undefined, 3]);
    expect(refusalOf(state, agree(3))).toBe(WF_MSG.settledByOther);
  });
  it('all steps agreed: passed (6)', () => {
    const { state, effects } = run(
      [approve('0', [2]), approve('1', [3, 4], 2), approve('2', [1])],
      agree(2),
      agree(4),
      agree(3),
      agree(1),
    );
    expect(state.status).toBe(6);
    expect(effects.at(-1)).toEqual([
      { type: 'close', nodeKey: '2', userIds: [1] },
      { type: 'end', status: 6 },
    ]);
  });
});

describe('who may act', () => {
  const steps = [approve('0', [2]), approve('1', [3])];
  it.each<[string, Action[], Action, string]>([
    ['a stranger', [], agree(9), WF_MSG.notApprover],
    ['the starter who is not an approver', [], agree(STARTER), WF_MSG.notApprover],
    ['an approver of a later node, too early', [], agree(3), WF_MSG.notApprover],
    ['an approver of an earlier node, again', [agree(2)], agree(2), WF_MSG.notApprover],
    ['after a refusal', [refuse(2)], agree(3), WF_MSG.refused],
    ['after the pass', [agree(2), agree(3)], refuse(3), WF_MSG.passed],
    ['after a cancel', [cancel(STARTER)], agree(2), WF_MSG.cancelled],
    ['after transferring away', [transfer(2, 5)], agree(2), WF_MSG.alreadyTransferred],
  ])('%s is refused', (_name, before, a, message) => {
    expect(refusalOf(run(steps, ...before).state, a)).toBe(message);
  });
});

describe('cancel', () => {
  const steps = [copy('0', [7], 0), approve('1', [2, 3], 2), copy('2', [8], 1)];
  it('the starter cancels while in progress: open tasks close, no copy-to after approval', () => {
    const { state, effects } = run(steps, agree(2), cancel(STARTER));
    expect(state.status).toBe(4);
    expect(effects[2]).toEqual([
      { type: 'close', nodeKey: '1', userIds: [3] },
      { type: 'end', status: 4 },
    ]);
  });
  it.each<[string, Action[], number, string]>([
    ['by an approver', [], 2, WF_MSG.onlyStarterCancels],
    ['by a stranger', [], 9, WF_MSG.onlyStarterCancels],
    ['twice', [cancel(STARTER)], STARTER, WF_MSG.cancelled],
    ['after a refusal', [refuse(3)], STARTER, WF_MSG.cancelEnded],
    ['after the pass', [agree(2), agree(3)], STARTER, WF_MSG.cancelEnded],
  ])('refused %s', (_name, before, userId, message) => {
    expect(refusalOf(run(steps, ...before).state, cancel(userId))).toBe(message);
  });
});

describe('copy-to timing', () => {
  const steps = [
    copy('0', [7], 0),
    approve('1', [2]),
    copy('2', [8], 1),
    approve('3', [3]),
    copy('4', [9], 0),
  ];
  const copies = (effects: Effect[]) => effects.filter((e) => e.type === 'copy').map((e) => e.userIds);
  it('notice 0 at submission, notice 1 only when the request passes', () => {
    const { effects } = run(steps, agree(2), agree(3));
    expect(copies(effects[0]!)).toEqual([[7], [9]]);
    expect(copies(effects[1]!)).toEqual([]);
    expect(copies(effects[2]!)).toEqual([[8]]);
    expect(effects[2]!.at(-1)).toEqual({ type: 'end', status: 6 });
  });
  it('notice 1 is not sent on refusal or cancel', () => {
    expect(
      run(steps, agree(2), refuse(3))
        .effects.flat()
        .filter((e) => e.type === 'copy'),
    ).toHaveLength(2);
    expect(
      run(steps, cancel(STARTER))
        .effects.flat()
        .filter((e) => e.type === 'copy'),
    ).toHaveLength(2);
  });
  it('a copy-to with nobody sends nothing', () => {
    expect(start([copy('0', [], 0), approve('1', [2])], STARTER).effects).toEqual([
      { type: 'await', nodeKey: '1', userIds: [2] },
    ]);
  });
});

describe('transfer', () => {
  const steps = [approve('0', [2, 3], 2), approve('1', [4])];
  it('the target takes over the decision; the original entry is 5 and marked', () => {
    const t = run(steps, transfer(2, 5));
    expect(t.effects[1]).toEqual([
      { type: 'close', nodeKey: '0', userIds: [2] },
      { type: 'await', nodeKey: '0', userIds: [5] },
    ]);
    expect(t.state.nodes[0]!.entries).toEqual([
      { userId: 2, status: 5, transferTo: 5 },
      { userId: 5, transferFrom: 2 },
      { userId: 3 },
    ]);
    // 会签 now needs 5 and 3; the transferred entry does not block the node.
    const { state, effects } = run(steps, transfer(2, 5), agree(3), agree(5));
    expect(effects[3]).toEqual([
      { type: 'close', nodeKey: '0', userIds: [5] },
      { type: 'await', nodeKey: '1', userIds: [4] },
    ]);
    expect(state.status).toBe(1);
  });
  it('a transferred decision can be passed on again, and back', () => {
    const { state } = run(steps, transfer(2, 5), transfer(5, 6), transfer(6, 2), agree(2), agree(3));
    expect(state.nodes[0]!.entries.map((e) => [e.userId, e.status])).toEqual([
      [2, 5],
      [5, 5],
      [6, 5],
      [2, 2],
      [3, 2],
    ]);
    expect(state.nodes).toHaveLength(2);
  });
  it.each<[string, Action[], Action, string]>([
    ['to oneself', [], transfer(2, 2), WF_MSG.transferToSelf],
    ['to someone deciding on the node', [], transfer(2, 3), WF_MSG.transferToApprover],
    ['to someone who already agreed on the node', [agree(3)], transfer(2, 3), WF_MSG.transferToApprover],
    ['to nobody', [], transfer(2, 0), WF_MSG.transferTarget],
    ['to a bad id', [], transfer(2, 1.5), WF_MSG.transferTarget],
    ['by someone not deciding', [], transfer(4, 6), WF_MSG.notApprover],
    ['after the request ended', [refuse(3)], transfer(2, 6), WF_MSG.settledByOther],
  ])('refused %s', (_name, before, a, message) => {
    expect(refusalOf(run(steps, ...before).state, a)).toBe(message);
  });
});

describe('purity', () => {
  it('act never changes the state it is given', () => {
    const { state } = run([approve('0', [2, 3], 2), approve('1', [4])]);
    const before = JSON.stringify(state);
    act(state, agree(2));
    act(state, transfer(3, 5));
    act(state, cancel(STARTER));
    expect(JSON.stringify(state)).toBe(before);
  });
});

describe('people who can no longer act when a node is reached (Reachable)', () => {
  const gone = new Set([3, 5]);
  const people = { isActive: (u: number) => !gone.has(u), admins: () => [99, 5, 98] };
  const steps = [approve('0', [2]), approve('1', [3, 4], 2), approve('2', [5])];

  it('skips a disabled approver of a later node and keeps the others', () => {
    const s = start(steps, STARTER, people);
    const r = act(s.state, agree(2), people);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const node = r.state.nodes[1]!;
    expect(node.entries.map((e) => e.userId)).toEqual([4]);
    expect(node.skipped).toEqual([3]);
    expect(node.escalated).toBeUndefined();
    expect(r.effects).toContainEqual({ type: 'await', nodeKey: '1', userIds: [4] });
  });

  it('a node left with nobody goes to the active administrators, any one of them', () => {
    const s = start(steps, STARTER, people);
    const r1 = act(s.state, agree(2), people);
    if (!r1.ok) throw new Error(r1.message);
    const r2 = act(r1.state, agree(4), people);
    if (!r2.ok) throw new Error(r2.message);
    const node = r2.state.nodes[2]!;
    expect(node).toMatchObject({ escalated: 'admins', skipped: [5], examineMode: 1 });
    expect(node.entries.map((e) => e.userId)).toEqual([99, 98]);
    expect(r2.effects).toContainEqual({ type: 'await', nodeKey: '2', userIds: [99, 98] });
    const r3 = act(r2.state, agree(98), people);
    expect(r3.ok && r3.state.status).toBe(6);
  });

  it('copies only those who can still be told, at submission and at the end', () => {
    const s = start([copy('0', [3, 4], 0), approve('1', [2]), copy('2', [5, 6], 1)], STARTER, people);
    expect(s.effects).toContainEqual({ type: 'copy', nodeKey: '0', userIds: [4] });
    const r = act(s.state, agree(2), people);
    expect(r.ok && r.effects).toContainEqual({ type: 'copy', nodeKey: '2', userIds: [6] });
    const none = start([copy('0', [3], 0), approve('1', [2])], STARTER, people);
    expect(none.effects.some((e) => e.type === 'copy')).toBe(false);
  });

  it('also at submission, and never without anyone to act', () => {
    const s = start([approve('0', [3])], STARTER, people);
    expect(s.state.nodes[0]).toMatchObject({ escalated: 'admins', skipped: [3] });
    const none = { isActive: () => false, admins: () => [99] };
    expect(() => start([approve('0', [3])], STARTER, none)).toThrow();
  });
});

describe('people disabled while the current node awaits them (release)', () => {
  const disabled = (...ids: number[]) => ({ isActive: (u: number) => !ids.includes(u), admins: () => [99] });
  const all = disabled();

  it('或签 with another approver: theirs closes, the other decides, nothing else moves', () => {
    const s = start([approve('0', [2, 3])], STARTER, all).state;
    const r = release(s, disabled(2))!;
    expect(r.effects).toEqual([{ type: 'close', nodeKey: '0', userIds: [2] }]);
    expect(r.state.nodes[0]).toMatchObject({ entries: [{ userId: 3 }], skipped: [2], settled: false });
    expect(r.state.nodes[0]!.escalated).toBeUndefined();
    // Re-enabled, they are no longer an approver of the node.
    expect(refusalOf(r.state, agree(2))).toBe(WF_MSG.notApprover);
    const next = act(r.state, agree(3), all);
    expect(next.ok && next.state.status).toBe(6);
  });

  it('会签: the last vote pending after the others agreed passes the node; the next awaits', () => {
    const steps = [approve('0', [2, 3], 2), approve('1', [4])];
    const { state } = run(steps, agree(3));
    const r = release(state, disabled(2))!;
    expect(r.state.nodes[0]).toMatchObject({ settled: true, entries: [{ userId: 3, status: 2 }] });
    expect(r.effects).toEqual([
      { type: 'close', nodeKey: '0', userIds: [2] },
      { type: 'await', nodeKey: '1', userIds: [4] },
    ]);
    // On the last node the request passes, and copy-to with notice 1 is told.
    const last = release(run([approve('0', [2, 3], 2), copy('1', [8], 1)], agree(3)).state, disabled(2))!;
    expect(last.state.status).toBe(6);
    expect(last.effects).toEqual([
      { type: 'close', nodeKey: '0', userIds: [2] },
      { type: 'copy', nodeKey: '1', userIds: [8] },
      { type: 'end', status: 6 },
    ]);
  });

  it('会签 with votes still needed waits for them', () => {
    const s = start([approve('0', [2, 3, 4], 2)], STARTER, all).state;
    const r = release(s, disabled(3))!;
    expect(r.state.nodes[0]!.entries.map((e) => e.userId)).toEqual([2, 4]);
    expect(r.state.nodes[0]!.settled).toBe(false);
  });

  it('nobody left: the administrators decide, any one of them', () => {
    const s = start([approve('0', [2, 3], 2)], STARTER, all).state;
    const r = release(s, disabled(2, 3))!;
    expect(r.state.nodes[0]).toMatchObject({ escalated: 'admins', examineMode: 1, skipped: [2, 3] });
    expect(r.effects).toEqual([
      { type: 'close', nodeKey: '0', userIds: [2, 3] },
      { type: 'await', nodeKey: '0', userIds: [99] },
    ]);
    expect(() => release(s, { isActive: (u) => u > 3 && u !== 99, admins: () => [99] })).toThrow();
  });

  it('null when the request awaits none of them, or has ended; the state given is not changed', () => {
    const s = start([approve('0', [2, 3], 2)], STARTER, all).state;
    const before = JSON.stringify(s);
    expect(release(s, disabled(7))).toBeNull();
    release(s, disabled(2));
    expect(JSON.stringify(s)).toBe(before);
    const ended = run([approve('0', [2])], cancel(STARTER)).state;
    expect(release(ended, disabled(2))).toBeNull();
  });
});
