import { describe, expect, it } from 'vitest';
import type { ApproverNode, BranchNode, ChainNode, RouterNode, StarterNode, Target } from './definition';
import { StarterSchema } from './definition';
import { nodeAt, walk, type NodePath } from './paths';
import {
  addBranch,
  addNode,
  deleteBranch,
  deleteNode,
  moveBranch,
  setDeptRoles,
  setMembers,
  setName,
  setSettype,
  updateNode,
  WorkflowTreeError,
} from './tree';

const start = (): StarterNode => ({ type: 0, nodeName: '发起人', childNode: null });

/** The tree as one line: names along chains, routers as 名[branch: chain | ...], joins after. */
function shape(root: StarterNode): string {
  const chain = (n: ChainNode | null): string => {
    if (!n) return '';
    const self =
      n.type === 4
        ? `${n.nodeName}[${n.conditionNodes.map((b) => `${b.priorityLevel}${b.nodeName}:${chain(b.childNode).slice(3) || '-'}`).join(' | ')}]`
        : n.nodeName;
    return ` > ${self}${chain(n.childNode)}`;
  };
  return root.nodeName + chain(root.childNode);
}

/** Renames the node at `path`, to tell nodes apart in shapes. */
const named = (t: StarterNode, path: NodePath, name: string) => setName(t, path, name);

const C: NodePath = ['child'];
const user = (id: number, name = `用户${id}`): Target => ({ targetId: id, type: 1, name });

/** 发起人 > A > B */
function ab(): StarterNode {
  let t = addNode(start(), [], 'approver');
  t = named(t, C, 'A');
  t = addNode(t, C, 'copyTo');
  return named(t, ['child', 'child'], 'B');
}

/** 发起人 > 路由[1条件1: X | 2条件2: Y > Z] > J */
function routed(): StarterNode {
  let t = addNode(start(), [], 'router');
  t = addNode(t, ['child', 0], 'approver');
  t = named(t, ['child', 0, 'child'], 'X');
  t = addNode(t, ['child', 1], 'approver');
  t = named(t, ['child', 1, 'child'], 'Y');
  t = addNode(t, ['child', 1, 'child'], 'copyTo');
  t = named(t, ['child', 1, 'child', 'child'], 'Z');
  t = addNode(t, C, 'approver');
  return named(t, ['child', 'child'], 'J');
}

describe('adding nodes', () => {
  it('a new approver has the spec defaults and is marked until it has a target', () => {
    const t = addNode(start(), [], 'approver');
    expect(t.childNode).toEqual({
      type: 1,
      nodeName: '审批人',
      settype: 1,
      examineMode: 1,
      directorLevel: 1,
      nodeUserList: [],
      deptRoleList: [],
      error: true,
      childNode: null,
    });
  });
  it('a new copy-to notifies after approval and is marked until it has recipients', () => {
    const t = addNode(start(), [], 'copyTo');
    expect(t.childNode).toEqual({
      type: 2,
      nodeName: '抄送人',
      nodeUserList: [],
      notice: 1,
      error: true,
      childNode: null,
    });
  });
  it('a new router has 条件1 (marked) and 条件2, the fallback (not marked)', () => {
    const r = addNode(start(), [], 'router').childNode as RouterNode;
    expect(r.conditionNodes.map((b) => [b.nodeName, b.priorityLevel, b.error, b.conditionList])).toEqual([
      ['条件1', 1, true, []],
      ['条件2', 2, false, []],
    ]);
    expect(r.childNode).toBeNull();
  });
  it.each<[string, NodePath, 'approver' | 'copyTo' | 'router', string]>([
    ['after the starter', [], 'approver', '发起人 > 审批人 > A > B'],
    ['between two nodes', C, 'copyTo', '发起人 > A > 抄送人 > B'],
    ['at the end', ['child', 'child'], 'approver', '发起人 > A > B > 审批人'],
    [
      'a router moves the downstream chain into branch 1',
      C,
      'router',
      '发起人 > A > 路由[1条件1:B | 2条件2:-]',
    ],
    [
      'a router after the starter takes the whole chain',
      [],
      'router',
      '发起人 > 路由[1条件1:A > B | 2条件2:-]',
    ],
  ])('%s', (_, path, kind, expected) => {
    expect(shape(addNode(ab(), path, kind))).toBe(expected);
  });
  it.each<[string, NodePath, string]>([
    ['at the top of a branch', ['child', 1], '发起人 > 路由[1条件1:X | 2条件2:审批人 > Y > Z] > J'],
    ['after a router: after its join', C, '发起人 > 路由[1条件1:X | 2条件2:Y > Z] > 审批人 > J'],
    ['inside a branch chain', ['child', 0, 'child'], '发起人 > 路由[1条件1:X > 审批人 | 2条件2:Y > Z] > J'],
  ])('%s', (_, path, expected) => {
    expect(shape(addNode(routed(), path, 'approver'))).toBe(expected);
  });
  it('never changes the tree it was given', () => {
    const t = routed();
    const before = structuredClone(t);
    addNode(t, ['child', 1, 'child'], 'router');
    deleteNode(t, ['child', 'child']);
    deleteBranch(t, ['child', 0]);
    moveBranch(t, ['child', 0], 1);
    addBranch(t, C);
    setName(t, C, '新名');
    expect(t).toEqual(before);
  });
  it('refuses a path that leads nowhere, in Chinese', () => {
    expect(() => addNode(start(), ['child'], 'approver')).toThrow(WorkflowTreeError);
    expect(() => addNode(start(), ['child'], 'approver')).toThrow('找不到要修改的节点，请刷新后重试');
    expect(() => addNode(routed(), ['child', 5], 'approver')).toThrow('找不到要修改的节点，请刷新后重试');
    expect(() => addNode(ab(), [0], 'approver')).toThrow('找不到要修改的节点，请刷新后重试');
  });
});

describe('deleting nodes', () => {
  it.each<[string, () => StarterNode, NodePath, string]>([
    ['an approver: its child takes its place', ab, C, '发起人 > B'],
    ['the last node', ab, ['child', 'child'], '发起人 > A'],
    ['a node inside a branch', routed, ['child', 1, 'child'], '发起人 > 路由[1条件1:X | 2条件2:Z] > J'],
    ['the join after a router', routed, ['child', 'child'], '发起人 > 路由[1条件1:X | 2条件2:Y > Z]'],
    ['a whole router: its join takes its place', routed, C, '发起人 > J'],
  ])('%s', (_, make, path, expected) => {
    expect(shape(deleteNode(make(), path))).toBe(expected);
  });
  it('refuses the starter and branches', () => {
    expect(() => deleteNode(ab(), [])).toThrow('此节点不支持该操作');
    expect(() => deleteNode(routed(), ['child', 0])).toThrow('此节点不支持该操作');
  });
});

describe('branches', () => {
  it('adding appends the next priority; the new one is the fallback and the former last is marked', () => {
    const t = addBranch(routed(), C);
    expect(shape(t)).toBe('发起人 > 路由[1条件1:X | 2条件2:Y > Z | 3条件3:-] > J');
    const r = t.childNode as RouterNode;
    expect(r.conditionNodes.map((b) => b.error)).toEqual([true, true, false]);
  });
  it('adding stops at 20 branches', () => {
    let t = routed();
    for (let i = 2; i < 20; i++) t = addBranch(t, C);
    expect((t.childNode as RouterNode).conditionNodes).toHaveLength(20);
    expect(() => addBranch(t, C)).toThrow('最多只能添加 20 个条件分支');
    expect(() => addBranch(t, [])).toThrow('此节点不支持该操作');
  });
  it('deleting renumbers priorities and default names, and keeps chosen names', () => {
    let t = addBranch(addBranch(routed(), C), C); // 4 branches
    t = setName(t, ['child', 2], '大额');
    t = deleteBranch(t, ['child', 0]);
    expect(shape(t)).toBe('发起人 > 路由[1条件1:Y > Z | 2大额:- | 3条件3:-] > J');
    const r = t.childNode as RouterNode;
    expect(r.conditionNodes.map((b) => b.priorityLevel)).toEqual([1, 2, 3]);
    expect(r.conditionNodes.map((b) => b.error)).toEqual([true, true, false]);
  });
  it.each<[string, NodePath, string]>([
    ['deleting branch 1 splices branch 2 before the join', ['child', 0], '发起人 > Y > Z > J'],
    ['deleting branch 2 splices branch 1 before the join', ['child', 1], '发起人 > X > J'],
  ])('collapse: %s', (_, path, expected) => {
    expect(shape(deleteBranch(routed(), path))).toBe(expected);
  });
  it('collapse of an empty survivor leaves the join in the router’s place', () => {
    let t = addNode(ab(), [], 'router'); // 发起人 > 路由[A > B | -]
    t = addNode(t, C, 'approver'); // join
    t = deleteBranch(t, ['child', 0]);
    expect(shape(t)).toBe('发起人 > 审批人');
  });
  it('collapse keeps nested routers and their joins, then the outer join', () => {
    let t = routed();
    t = addNode(t, ['child', 1, 'child'], 'router'); // inside branch 2, after Y
    t = addNode(t, ['child', 1, 'child', 'child'], 'approver'); // the nested join
    t = named(t, ['child', 1, 'child', 'child', 'child'], 'NJ');
    expect(shape(t)).toBe('发起人 > 路由[1条件1:X | 2条件2:Y > 路由[1条件1:Z | 2条件2:-] > NJ] > J');
    t = deleteBranch(t, ['child', 0]);
    expect(shape(t)).toBe('发起人 > Y > 路由[1条件1:Z | 2条件2:-] > NJ > J');
    expect(StarterSchema.safeParse(t).success).toBe(true);
  });
  it.each<[string, NodePath, -1 | 1, string]>([
    ['moving the first right', ['child', 0], 1, '发起人 > 路由[1条件1:Y > Z | 2条件2:X] > J'],
    ['moving the last left', ['child', 1], -1, '发起人 > 路由[1条件1:Y > Z | 2条件2:X] > J'],
  ])('%s swaps and renumbers', (_, path, dir, expected) => {
    const t = moveBranch(routed(), path, dir);
    expect(shape(t)).toBe(expected);
    const [b1, b2] = (t.childNode as RouterNode).conditionNodes as [BranchNode, BranchNode];
    expect([b1.priorityLevel, b1.error, b2.priorityLevel, b2.error]).toEqual([1, true, 2, false]);
  });
  it('moving a conditioned branch to the end marks it, as the fallback may not have conditions', () => {
    let t = routed();
    t = updateNode<BranchNode>(t, ['child', 0], (b) => ({
      ...b,
      conditionList: [{ columnId: 'amount', showName: '金额', columnType: 4, optType: 1, zdy1: '5000' }],
    }));
    expect((t.childNode as RouterNode).conditionNodes.map((b) => b.error)).toEqual([false, false]);
    t = moveBranch(t, ['child', 0], 1);
    expect((t.childNode as RouterNode).conditionNodes.map((b) => b.error)).toEqual([true, true]);
  });
  it.each<[NodePath, -1 | 1]>([
    [['child', 0], -1],
    [['child', 1], 1],
  ])('moving %j by %i is a no-op returning the same tree', (path, dir) => {
    const t = routed();
    expect(moveBranch(t, path, dir)).toBe(t);
  });
  it('branch operations refuse paths that are not branches', () => {
    expect(() => deleteBranch(routed(), C)).toThrow('此节点不支持该操作');
    expect(() => moveBranch(routed(), ['child', 7], 1)).toThrow('找不到要修改的节点，请刷新后重试');
    expect(() => deleteBranch(ab(), ['child', 0])).toThrow();
  });
});

describe('names', () => {
  it.each<[string, () => StarterNode, NodePath, string, string]>([
    ['a chosen name is trimmed', ab, C, '  馆长审批 ', '馆长审批'],
    ['blank falls back: approver', ab, C, '   ', '审批人'],
    ['blank falls back: copy-to', ab, ['child', 'child'], '', '抄送人'],
    ['blank falls back: starter', ab, [], '', '发起人'],
    ['blank falls back: router', routed, C, '', '路由'],
    ['blank falls back: branch by priority', routed, ['child', 1], ' ', '条件2'],
    ['cut to 30 characters', ab, C, '审'.repeat(40), '审'.repeat(30)],
  ])('%s', (_, make, path, name, expected) => {
    expect(nodeAt(setName(make(), path, name), path)?.nodeName).toBe(expected);
  });
  it('never cuts a surrogate pair in half', () => {
    const name = 'a'.repeat(29) + '𠀀';
    expect(nodeAt(setName(ab(), C, name), C)?.nodeName).toBe('a'.repeat(29));
  });
});

describe('approver settings', () => {
  /** An approver with everything filled, to see what each settype clears. */
  function full(settype: ApproverNode['settype']): StarterNode {
    return updateNode<ApproverNode>(ab(), C, (n) => ({
      ...n,
      settype,
      directorLevel: 3,
      nodeUserList: [user(1)],
      deptRoleList: [{ deptid: 1, deptName: '典藏部', roleid: 2, roleName: '保管员' }],
    }));
  }
  it.each<[ApproverNode['settype'], ApproverNode['settype'], number, number, number, boolean]>([
    // from, to, users left, level, pairs left, error
    [1, 3, 0, 1, 1, false],
    [1, 2, 0, 3, 0, false],
    [2, 1, 1, 1, 0, false],
    [3, 5, 0, 1, 0, false],
    [2, 3, 0, 1, 1, false],
  ])('settype %i → %i clears as the spec says', (from, to, users, level, pairs, error) => {
    const n = nodeAt(setSettype(full(from), C, to), C) as ApproverNode;
    expect([n.settype, n.nodeUserList.length, n.directorLevel, n.deptRoleList.length, n.error]).toEqual([
      to,
      users,
      level,
      pairs,
      error,
    ]);
  });
  it('changing to a type without a target marks the node', () => {
    let t = setSettype(ab(), C, 2);
    expect((nodeAt(t, C) as ApproverNode).error).toBe(false);
    t = setSettype(t, C, 3);
    expect((nodeAt(t, C) as ApproverNode).error).toBe(true);
  });
  it('the same settype is a no-op; a copy-to has none', () => {
    const t = full(1);
    expect(setSettype(t, C, 1)).toBe(t);
    expect(() => setSettype(t, ['child', 'child'], 2)).toThrow('此节点不支持该操作');
  });

  it.each<[string, Target[], number[], number, string | null]>([
    ['five are kept', [1, 2, 3, 4, 5].map((i) => user(i)), [1, 2, 3, 4, 5], 0, null],
    [
      'the first five of seven stay',
      [1, 2, 3, 4, 5, 6, 7].map((i) => user(i)),
      [1, 2, 3, 4, 5],
      2,
      '最多只能选择5人，已为您保留前5人',
    ],
    [
      'duplicates count once',
      [user(1), user(2), user(1), user(3), user(4), user(5)],
      [1, 2, 3, 4, 5],
      0,
      null,
    ],
    [
      'roles and departments are not people',
      [user(1), { targetId: 9, type: 2, name: '主任' }, { targetId: 8, type: 3, name: '典藏部' }],
      [1],
      0,
      null,
    ],
    ['none', [], [], 0, null],
  ])('members: %s', (_, picks, ids, dropped, warning) => {
    const r = setMembers(ab(), C, picks);
    const n = nodeAt(r.tree, C) as ApproverNode;
    expect(n.nodeUserList.map((t) => t.targetId)).toEqual(ids);
    expect([r.dropped, r.warning, n.error]).toEqual([dropped, warning, ids.length === 0]);
  });

  it.each<[string, Parameters<typeof setDeptRoles>[2], string | null, number]>([
    ['a full pair', [{ deptid: 1, deptName: '典藏部', roleid: 2, roleName: '保管员' }], null, 1],
    [
      'a department without a role is refused',
      [{ deptid: 1, deptName: '典藏部', roleid: null }],
      '请选择角色',
      0,
    ],
    ['a role without a department is refused', [{ roleid: 2, roleName: '保管员' }], '请选择部门', 0],
    [
      'empty rows are dropped',
      [{}, { deptid: 1, deptName: '典藏部', roleid: 2, roleName: '保管员' }, { deptid: null, roleid: null }],
      null,
      1,
    ],
    [
      'a pair twice is kept once',
      [
        { deptid: 1, roleid: 2 },
        { deptid: 1, roleid: 2 },
        { deptid: 1, roleid: 3 },
      ],
      null,
      2,
    ],
  ])('department-role: %s', (_, rows, problem, pairs) => {
    const t = setSettype(ab(), C, 3);
    const r = setDeptRoles(t, C, rows);
    expect(r.problem).toBe(problem);
    if (problem) expect(r.tree).toBe(t);
    const n = nodeAt(r.tree, C) as ApproverNode;
    expect(n.deptRoleList).toHaveLength(pairs);
    expect(n.error).toBe(pairs === 0);
  });
});

describe('updateNode', () => {
  it('recomputes the copy-to mark and refuses a change of type', () => {
    const path: NodePath = ['child', 'child'];
    const t = updateNode(ab(), path, (n) =>
      n.type === 2 ? { ...n, nodeUserList: [user(3)], notice: 0 as const } : n,
    );
    expect(nodeAt(t, path)).toMatchObject({ nodeUserList: [user(3)], notice: 0, error: false });
    expect(() => updateNode(ab(), path, () => ({ type: 0, nodeName: 'x', childNode: null }))).toThrow(
      '此节点不支持该操作',
    );
    expect(() => updateNode(ab(), ['child', 'child', 'child'], (n) => n)).toThrow(
      '找不到要修改的节点，请刷新后重试',
    );
  });
  it('every tree built here passes the schema', () => {
    for (const t of [ab(), routed(), addBranch(routed(), C), deleteBranch(routed(), ['child', 1])]) {
      expect(StarterSchema.safeParse(t).success).toBe(true);
      expect(walk(t)[0]?.path).toEqual([]);
    }
  });
});
