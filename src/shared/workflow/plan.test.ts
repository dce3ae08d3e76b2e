import { describe, expect, it } from 'vitest';
import {
  amountIs,
  approver,
  branch,
  copyTo,
  definition,
  dept,
  deptRoles,
  members,
  person,
  role,
  router,
  starterIn,
  superior,
} from './build';
import type { ApproverNode } from './definition';
import { canStart, nodeAt, plan, resolveApprovers } from './plan';
import { expenseFlow, leaveFlow } from './seed-flows';
import { ADMINS, DIRECTOR, fakeOrg, USERS } from './testing';

const org = fakeOrg();

describe('canStart', () => {
  it.each<[string, Parameters<typeof definition>[1], number, boolean]>([
    ['empty scope: everyone', {}, 4, true],
    ['a listed person', { flowPermission: [person(4)] }, 4, true],
    ['not listed', { flowPermission: [person(4)] }, 6, false],
    ['a member of a listed department', { flowPermission: [dept(20)] }, 6, true],
    ['a member of a sub-department', { flowPermission: [dept(10)] }, 1, true],
    ['a member of another department', { flowPermission: [dept(10)] }, 4, false],
    ['a listed role', { flowPermission: [role(7)] }, 5, true],
    ['an unknown user and a scope', { flowPermission: [dept(1)] }, 404, false],
  ])('%s → %s', (_name, p, starter, want) => expect(canStart(definition([], p), starter, org)).toBe(want));
});

describe('resolveApprovers', () => {
  const resolve = (node: ApproverNode, starter = 1, o = org) => resolveApprovers(node, starter, o);
  it.each<[string, ApproverNode, number, number[], boolean]>([
    ['settype 1: named people in list order', members([5, 2, 3]), 1, [5, 2, 3], false],
    ['settype 1: repeats dropped', members([5, 2, 5]), 1, [5, 2], false],
    [
      'settype 1: only people count, roles and departments are not approvers',
      approver({ settype: 1, nodeUserList: [role(7), person(3), dept(1)] }),
      1,
      [3],
      false,
    ],
    ['settype 1: nobody named → admins', members([]), 1, ADMINS, true],
    ['settype 2: the direct superior', superior(1), 1, [2], false],
    ['settype 2: level 2', superior(2), 1, [3], false],
    ['settype 2: level 3 missing → the highest there is', superior(3), 1, [3], false],
    ['settype 2: a one-level chain, level 2 → that superior', superior(2), 4, [5], false],
    ['settype 2: no superior at all → admins', superior(1), 3, ADMINS, true],
    ['settype 2: unknown starter → admins', superior(1), 404, ADMINS, true],
    ['settype 3: holders of the pair', deptRoles([DIRECTOR]), 1, [3], false],
    [
      'settype 3: union of pairs, no repeats',
      deptRoles([
        { deptid: 20, deptName: '财务部', roleid: 100, roleName: '员工' },
        { deptid: 20, deptName: '财务部', roleid: 7, roleName: '部门主任' },
        { deptid: 20, deptName: '财务部', roleid: 100, roleName: '员工' },
      ]),
      1,
      [4, 6, 5],
      false,
    ],
    ['settype 3: nobody holds it → admins', deptRoles([{ ...DIRECTOR, deptid: 20 }]), 1, ADMINS, true],
    ['settype 5: the starter', approver({ settype: 5 }), 6, [6], false],
  ])('%s', (_name, node, starter, want, escalated) => {
    const r = resolve(node, starter);
    expect(r.approvers).toEqual(want);
    expect(r.escalated).toBe(escalated ? 'admins' : undefined);
  });

  it('keeps the node mode, but an escalated step is any-one', () => {
    expect(resolve(members([2, 3], 2)).examineMode).toBe(2);
    expect(resolve(deptRoles([{ ...DIRECTOR, deptid: 20 }], 2)).examineMode).toBe(1);
  });
  it('refuses to plan a step nobody can act on when there is no administrator', () => {
    expect(() => resolve(superior(1), 3, fakeOrg(USERS, []))).toThrow(/no approver/);
  });
});

describe('plan', () => {
  const amountFlow = definition([
    copyTo([7], 0, '抄送库房'),
    superior(1),
    router(
      branch([amountIs('amount', 1, '5000')], deptRoles([DIRECTOR], 1, '馆长'), copyTo([6], 1, '抄送财务')),
      branch([amountIs('amount', 1, '1000')], members([5], 1, '财务主任')),
      branch([]),
    ),
    members([4, 6], 2, '出纳'),
  ]);

  it('walks the chosen branch, then the join, with stable node keys', () => {
    expect(plan(amountFlow, { amount: 6000 }, 1, org)).toEqual([
      { kind: 'copy', nodeKey: '0', nodeName: '抄送库房', recipients: [7], notice: 0 },
      { kind: 'approve', nodeKey: '1', nodeName: '直接主管', settype: 2, examineMode: 1, approvers: [2] },
      { kind: 'approve', nodeKey: '2.b1.0', nodeName: '馆长', settype: 3, examineMode: 1, approvers: [3] },
      { kind: 'copy', nodeKey: '2.b1.1', nodeName: '抄送财务', recipients: [6], notice: 1 },
      { kind: 'approve', nodeKey: '3', nodeName: '出纳', settype: 1, examineMode: 2, approvers: [4, 6] },
    ]);
    expect(plan(amountFlow, { amount: 2000 }, 1, org).map((s) => s.nodeKey)).toEqual([
      '0',
      '1',
      '2.b2.0',
      '3',
    ]);
  });
  it('an empty fallback branch goes straight to the join; missing data takes it', () => {
    expect(plan(amountFlow, { amount: 10 }, 1, org).map((s) => s.nodeKey)).toEqual(['0', '1', '3']);
    expect(plan(amountFlow, {}, 1, org).map((s) => s.nodeKey)).toEqual(['0', '1', '3']);
  });
  it('resolves nested routers into their chosen branches and joins', () => {
    const def = definition([
      router(
        branch(
          [starterIn([dept(10)])],
          superior(1),
          router(branch([amountIs('amount', 2, '100')], members([3], 1, '馆长')), branch([], copyTo([5]))),
          members([7], 1, '库管'),
        ),
        branch([], members([5], 1, '财务主任')),
      ),
      copyTo([6], 1, '归档'),
    ]);
    expect(plan(def, { amount: 100 }, 1, org).map((s) => [s.nodeKey, s.nodeName])).toEqual([
      ['0.b1.0', '直接主管'],
      ['0.b1.1.b1.0', '馆长'],
      ['0.b1.2', '库管'],
      ['1', '归档'],
    ]);
    expect(plan(def, { amount: 99.99 }, 1, org).map((s) => s.nodeKey)).toEqual([
      '0.b1.0',
      '0.b1.1.b2.0',
      '0.b1.2',
      '1',
    ]);
    expect(plan(def, { amount: 100 }, 4, org).map((s) => s.nodeKey)).toEqual(['0.b2.0', '1']);
    // Every key reads its node back from the definition (a pinned version is re-read later).
    for (const s of plan(def, { amount: 100 }, 1, org))
      expect(nodeAt(def, s.nodeKey)?.nodeName).toBe(s.nodeName);
  });
  it('marks escalation on the step and never plans an empty approver list', () => {
    const steps = plan(definition([superior(1), members([])]), {}, 3, org);
    expect(steps).toEqual([
      {
        kind: 'approve',
        nodeKey: '0',
        nodeName: '直接主管',
        settype: 2,
        examineMode: 1,
        approvers: ADMINS,
        escalated: 'admins',
      },
      {
        kind: 'approve',
        nodeKey: '1',
        nodeName: '审批人',
        settype: 1,
        examineMode: 1,
        approvers: ADMINS,
        escalated: 'admins',
      },
    ]);
  });
  it('consecutive steps with the same people stay separate', () => {
    expect(plan(definition([superior(1), members([2])]), {}, 1, org).map((s) => s.nodeKey)).toEqual([
      '0',
      '1',
    ]);
  });
  it('copy-to recipients are people, without repeats', () => {
    const def = definition([
      { ...copyTo([5, 5, 6]), nodeUserList: [person(5), person(5), dept(20), person(6)] },
    ]);
    expect(plan(def, {}, 1, org)).toEqual([
      { kind: 'copy', nodeKey: '0', nodeName: '抄送人', recipients: [5, 6], notice: 1 },
    ]);
  });
  it('a definition with no nodes plans nothing', () => {
    expect(plan(definition([]), {}, 1, org)).toEqual([]);
  });
  it('is deterministic: the same inputs give the same plan, and the definition is not changed', () => {
    const before = JSON.stringify(amountFlow);
    expect(plan(amountFlow, { amount: 6000 }, 1, org)).toEqual(plan(amountFlow, { amount: 6000 }, 1, org));
    expect(JSON.stringify(amountFlow)).toBe(before);
  });
});

describe('nodeAt', () => {
  const def = definition([
    superior(1),
    router(branch([amountIs('a', 1, '1')], members([3], 1, '甲')), branch([], members([5], 1, '乙'))),
  ]);
  it.each([
    ['', '发起人'],
    ['0', '直接主管'],
    ['1', '路由'],
    ['1.b1', '条件1'],
    ['1.b2.0', '乙'],
  ])('%j is %s', (key, name) => expect(nodeAt(def, key)?.nodeName).toBe(name));
  it.each(['2', '0.b1', '1.b3.0', '1.b2.1', '1.0', 'x', '1..b1', '-1'])('%j names nothing', (key) =>
    expect(nodeAt(def, key)).toBeNull(),
  );
});

describe('seeded flows', () => {
  const seed = { director: DIRECTOR };
  const leave = (duration: number) => ({
    leaveType: 'annual',
    period: { start: '2026-03-02', end: '2026-03-05', duration },
    reason: '探亲',
  });
  it.each<[string, number, number[][]]>([
    ['请假 1 day: the superior only', 1, [[2]]],
    ['请假 3 days: the superior only', 3, [[2]]],
    ['请假 3.5 days: the superior, then the director', 3.5, [[2], [3]]],
    ['请假 4 days: the superior, then the director', 4, [[2], [3]]],
  ])('%s', (_name, days, want) => {
    const steps = plan(leaveFlow(seed), leave(days), 1, org);
    expect(steps.map((s) => (s.kind === 'approve' ? s.approvers : s.recipients))).toEqual(want);
  });
  it.each<[string, unknown, number[][]]>([
    ['报销 4,999.99 元: the superior only', 4999.99, [[5]]],
    ['报销 5,000 元: the superior only', 5000, [[5]]],
    ['报销 5,000.00 元 as text: the superior only', '5000.00', [[5]]],
    ['报销 5,000.01 元: the superior, then the director', 5000.01, [[5], [3]]],
    ['报销 6,000 元: the superior, then the director', 6000, [[5], [3]]],
  ])('%s', (_name, amount, want) => {
    const steps = plan(expenseFlow(seed), { amount, reason: '布展材料' }, 4, org);
    expect(steps.map((s) => (s.kind === 'approve' ? s.approvers : s.recipients))).toEqual(want);
  });
  it('报销 with a copy-to office notifies it after approval', () => {
    const steps = plan(expenseFlow({ ...seed, copyTo: [6] }), { amount: 100 }, 4, org);
    expect(steps.at(-1)).toMatchObject({ kind: 'copy', recipients: [6], notice: 1 });
  });
});
