import {
  EXAMINE,
  MEMBERS_MAX,
  NODE,
  SETTYPE,
  type AnyNode,
  type ApproverNode,
  type BranchNode,
  type ChainNode,
  type CopyToNode,
  type DeptRole,
  type RouterNode,
  type StarterNode,
  type Target,
} from './definition';
import { nodeAt, type NodePath } from './paths';
import { DEFAULT_BRANCH_NAME_RE, DEFAULT_NAME, WF_TEXT } from './text';
import { nodeProblems } from './validate';

/**
 * The designer's edits of a definition's `nodeConfig` (spec/office.md §4 "Workflow designer",
 * research/oa-workflow.md §2.4), as pure functions: each returns a new tree and never changes the
 * one it was given, so the designer can keep an undo history and React sees new objects. Nodes
 * are addressed by NodePath (paths.ts). An edit that cannot apply (a stale path, the wrong kind of
 * node, too many branches) throws WorkflowTreeError with a Chinese message the designer can show.
 * Each edit refreshes the `error` marks of the nodes it touches with validate.ts' rules (without
 * the form fields and directorMaxLevel, which only the whole definition knows: run markErrors for
 * those).
 */

/** Schema limit of conditionNodes (definition.ts). */
export const BRANCHES_MAX = 20;
/** Schema limit of nodeName (definition.ts). */
export const NAME_MAX = 30;

export class WorkflowTreeError extends Error {}

export type AddKind = 'approver' | 'copyTo' | 'router';

/** A new approver (spec §4): named members, 或签, level 1, marked until it has a target. */
export function newApprover(childNode: ChainNode | null = null): ApproverNode {
  return {
    type: NODE.approver,
    nodeName: DEFAULT_NAME.approver,
    settype: SETTYPE.members,
    examineMode: EXAMINE.any,
    directorLevel: 1,
    nodeUserList: [],
    deptRoleList: [],
    error: true,
    childNode,
  };
}

/** A new copy-to: notify after approval (the spec's default), marked until it has recipients. */
export function newCopyTo(childNode: ChainNode | null = null): CopyToNode {
  return {
    type: NODE.copyTo,
    nodeName: DEFAULT_NAME.copyTo,
    nodeUserList: [],
    notice: 1,
    error: true,
    childNode,
  };
}

function newBranch(priority: number, childNode: ChainNode | null, isLast: boolean): BranchNode {
  // A fresh branch has no conditions: only the fallback (last) may stay so.
  return {
    type: NODE.branch,
    nodeName: DEFAULT_NAME.branch(priority),
    priorityLevel: priority,
    conditionList: [],
    error: !isLast,
    childNode,
  };
}

/**
 * A new router with 条件1 and 条件2 (the fallback). What followed the insertion point moves into
 * branch 1 and the join starts empty (research §2.4), so adding a router never changes which
 * nodes the first branch runs.
 */
export function newRouter(downstream: ChainNode | null = null): RouterNode {
  return {
    type: NODE.router,
    nodeName: DEFAULT_NAME.router,
    conditionNodes: [newBranch(1, downstream, false), newBranch(2, null, true)],
    childNode: null,
  };
}

/** Rebuilds the path down to `path`, replacing the node there with fn's result. */
function updateAt(root: StarterNode, path: NodePath, fn: (node: AnyNode) => AnyNode | null): StarterNode {
  const go = (node: AnyNode, i: number): AnyNode | null => {
    if (i === path.length) return fn(node);
    const step = path[i];
    if (step === 'child') {
      if (!node.childNode) throw new WorkflowTreeError(WF_TEXT.noSuchNode);
      return { ...node, childNode: go(node.childNode, i + 1) as ChainNode | null };
    }
    if (node.type !== NODE.router || step === undefined || !node.conditionNodes[step]) {
      throw new WorkflowTreeError(WF_TEXT.noSuchNode);
    }
    const conditionNodes = node.conditionNodes.slice();
    conditionNodes[step] = go(node.conditionNodes[step], i + 1) as BranchNode;
    return { ...node, conditionNodes };
  };
  return go(root, 0) as StarterNode;
}

function requireNode<T extends AnyNode['type']>(root: StarterNode, path: NodePath, types: readonly T[]) {
  const node = nodeAt(root, path);
  if (!node) throw new WorkflowTreeError(WF_TEXT.noSuchNode);
  if (!types.includes(node.type as T)) throw new WorkflowTreeError(WF_TEXT.wrongNode);
  return node as Extract<AnyNode, { type: T }>;
}

/** The node with its `error` mark recomputed (approver, copy-to); other kinds pass through. */
function remark<T extends AnyNode>(node: T): T {
  if (node.type !== NODE.approver && node.type !== NODE.copyTo) return node;
  return { ...node, error: nodeProblems(node, false).length > 0 };
}

/**
 * Adds an approver, copy-to or router right after the node at `path`: after the starter, after a
 * chain node, at the top of a branch's chain, or (for a router) after its join. The new node's
 * path is `[...path, 'child']`.
 */
export function addNode(root: StarterNode, path: NodePath, kind: AddKind): StarterNode {
  requireNode(root, path, [0, 1, 2, 3, 4]);
  return updateAt(root, path, (node) => {
    const next = node.childNode;
    const added =
      kind === 'approver' ? newApprover(next) : kind === 'copyTo' ? newCopyTo(next) : newRouter(next);
    return { ...node, childNode: added };
  });
}

/** The parent of a chain node's path (its last step is 'child'). */
function parentOf(path: NodePath): NodePath {
  if (path[path.length - 1] !== 'child') throw new WorkflowTreeError(WF_TEXT.wrongNode);
  return path.slice(0, -1);
}

/**
 * Deletes the approver, copy-to or router at `path`: its child takes its place. A router goes with
 * all its branches (the designer asks first); to drop one branch use deleteBranch.
 */
export function deleteNode(root: StarterNode, path: NodePath): StarterNode {
  const node = requireNode(root, path, [1, 2, 4]);
  return updateAt(root, parentOf(path), (parent) => ({ ...parent, childNode: node.childNode }));
}

/** `chain` followed by `tail`: tail hangs where the chain's main line ends (after any join). */
function appendChain(chain: ChainNode | null, tail: ChainNode | null): ChainNode | null {
  if (!chain) return tail;
  return { ...chain, childNode: appendChain(chain.childNode, tail) };
}

/**
 * Priorities back to index + 1 after any change of order or number, with the designer's own
 * names (条件n) following them; a name the person chose stays. The error marks follow the
 * position too: the fallback is the last branch.
 */
function renumber(branches: readonly BranchNode[]): BranchNode[] {
  return branches.map((b, i) => {
    const priorityLevel = i + 1;
    const nodeName = DEFAULT_BRANCH_NAME_RE.test(b.nodeName)
      ? DEFAULT_NAME.branch(priorityLevel)
      : b.nodeName;
    const next = { ...b, priorityLevel, nodeName };
    return { ...next, error: nodeProblems(next, i === branches.length - 1).length > 0 };
  });
}

/**
 * Appends a branch with the next priority, literally as the spec says. The LAST branch is the
 * fallback, so the new empty branch becomes the fallback and the former last one now needs
 * conditions (it is marked until it has some).
 */
export function addBranch(root: StarterNode, routerPath: NodePath): StarterNode {
  const router = requireNode(root, routerPath, [4]);
  if (router.conditionNodes.length >= BRANCHES_MAX) {
    throw new WorkflowTreeError(WF_TEXT.tooManyBranches(BRANCHES_MAX));
  }
  const n = router.conditionNodes.length + 1;
  return updateAt(root, routerPath, () => ({
    ...router,
    conditionNodes: renumber([...router.conditionNodes, newBranch(n, null, true)]),
  }));
}

/** Splits a branch path into its router's path and the branch index. */
function branchAt(root: StarterNode, branchPath: NodePath) {
  const index = branchPath[branchPath.length - 1];
  if (typeof index !== 'number') throw new WorkflowTreeError(WF_TEXT.wrongNode);
  const routerPath = branchPath.slice(0, -1);
  const router = requireNode(root, routerPath, [4]);
  if (!router.conditionNodes[index]) throw new WorkflowTreeError(WF_TEXT.noSuchNode);
  return { router, routerPath, index };
}

/**
 * Deletes a branch and renumbers the rest. When one branch remains the router collapses: that
 * branch's chain is spliced in front of the router's join (research §2.4), and the router is gone.
 */
export function deleteBranch(root: StarterNode, branchPath: NodePath): StarterNode {
  const { router, routerPath, index } = branchAt(root, branchPath);
  const rest = router.conditionNodes.filter((_, i) => i !== index);
  if (rest.length >= 2)
    return updateAt(root, routerPath, () => ({ ...router, conditionNodes: renumber(rest) }));
  const survivor = rest[0]?.childNode ?? null;
  return updateAt(root, parentOf(routerPath), (parent) => ({
    ...parent,
    childNode: appendChain(survivor, router.childNode),
  }));
}

/**
 * Moves a branch one place left (-1) or right (+1) and renumbers. Moving the first left or the
 * last right changes nothing and returns the same tree object.
 */
export function moveBranch(root: StarterNode, branchPath: NodePath, dir: -1 | 1): StarterNode {
  const { router, routerPath, index } = branchAt(root, branchPath);
  const other = index + dir;
  if (other < 0 || other >= router.conditionNodes.length) return root;
  const swapped = router.conditionNodes.slice();
  [swapped[index], swapped[other]] = [swapped[other]!, swapped[index]!];
  return updateAt(root, routerPath, () => ({ ...router, conditionNodes: renumber(swapped) }));
}

/** A node's default name: 发起人, 审批人, 抄送人, 路由, or 条件n by the branch's priority. */
export function defaultName(node: AnyNode): string {
  switch (node.type) {
    case 0:
      return DEFAULT_NAME.starter;
    case 1:
      return DEFAULT_NAME.approver;
    case 2:
      return DEFAULT_NAME.copyTo;
    case 3:
      return DEFAULT_NAME.branch(node.priorityLevel);
    case 4:
      return DEFAULT_NAME.router;
  }
}

/**
 * Renames the node (on blur): the name is trimmed and cut to NAME_MAX characters; blank falls back
 * to the default name (spec §5).
 */
export function setName(root: StarterNode, path: NodePath, name: string): StarterNode {
  const node = requireNode(root, path, [0, 1, 2, 3, 4]);
  let nodeName = name.trim().slice(0, NAME_MAX);
  // Never leave half of a surrogate pair at the cut.
  if (/[\uD800-\uDBFF]$/.test(nodeName)) nodeName = nodeName.slice(0, -1);
  return updateAt(root, path, () => ({ ...node, nodeName: nodeName.trim() || defaultName(node) }));
}

/**
 * Changes how an approver is chosen, clearing what the new way does not use (spec §4): 3 clears
 * the named people and the level; 2 clears roles and people; 1 clears roles and the level; 5
 * clears all three. A cleared level goes back to 1 (the schema needs one).
 */
export function setSettype(root: StarterNode, path: NodePath, settype: ApproverNode['settype']): StarterNode {
  const node = requireNode(root, path, [1]);
  if (node.settype === settype) return root;
  const keepUsers = settype === SETTYPE.members;
  const keepLevel = settype === SETTYPE.superior;
  const keepRoles = settype === SETTYPE.deptRole;
  const next: ApproverNode = {
    ...node,
    settype,
    nodeUserList: keepUsers ? node.nodeUserList : [],
    directorLevel: keepLevel ? node.directorLevel : 1,
    deptRoleList: keepRoles ? node.deptRoleList : [],
  };
  return updateAt(root, path, () => remark(next));
}

export interface MembersResult {
  tree: StarterNode;
  /** How many picks were dropped beyond MEMBERS_MAX (duplicates and non-people are not counted). */
  dropped: number;
  /** The warning to show when some were dropped, else null. */
  warning: string | null;
}

/**
 * Sets a settype-1 approver's named people. Only people count (the member picker offers no roles
 * or departments), a person picked twice counts once, and beyond MEMBERS_MAX the extra picks are
 * dropped with a warning (spec §5): the first five in pick order stay.
 */
export function setMembers(root: StarterNode, path: NodePath, picks: readonly Target[]): MembersResult {
  const node = requireNode(root, path, [1]);
  const people = picks.filter(
    (t, i) => t.type === 1 && picks.findIndex((o) => o.type === 1 && o.targetId === t.targetId) === i,
  );
  const kept = people.slice(0, MEMBERS_MAX);
  const dropped = people.length - kept.length;
  const tree = updateAt(root, path, () => remark({ ...node, nodeUserList: kept }));
  return { tree, dropped, warning: dropped > 0 ? WF_TEXT.membersDropped(MEMBERS_MAX) : null };
}

/** A row of the department-role editor, possibly half filled. */
export interface DeptRoleRow {
  deptid?: number | null;
  deptName?: string;
  roleid?: number | null;
  roleName?: string;
}

export interface DeptRoleResult {
  tree: StarterNode;
  /** 请选择角色 / 请选择部门 when a row is half filled; the tree is then unchanged. */
  problem: string | null;
}

/**
 * Sets a settype-3 approver's department-role pairs. A department without a role is refused with
 * 请选择角色 (spec §5: saving is blocked), a role without a department with 请选择部门, and the tree
 * stays as it was. Wholly empty rows are dropped; a pair given twice is kept once.
 */
export function setDeptRoles(
  root: StarterNode,
  path: NodePath,
  rows: readonly DeptRoleRow[],
): DeptRoleResult {
  const node = requireNode(root, path, [1]);
  const pairs: DeptRole[] = [];
  for (const r of rows) {
    if (!r.deptid && !r.roleid) continue;
    if (!r.roleid) return { tree: root, problem: WF_TEXT.chooseRole };
    if (!r.deptid) return { tree: root, problem: WF_TEXT.chooseDept };
    if (pairs.some((p) => p.deptid === r.deptid && p.roleid === r.roleid)) continue;
    pairs.push({
      deptid: r.deptid,
      deptName: r.deptName ?? '',
      roleid: r.roleid,
      roleName: r.roleName ?? '',
    });
  }
  return { tree: updateAt(root, path, () => remark({ ...node, deptRoleList: pairs })), problem: null };
}

/**
 * Any other edit of one node (examineMode, directorLevel, copy-to recipients and notice, a
 * branch's conditions): `fn` gets the node and returns its new version, which must keep its type.
 * The edited node's `error` mark is recomputed; a branch is judged at its place (last or not).
 */
export function updateNode<T extends AnyNode>(
  root: StarterNode,
  path: NodePath,
  fn: (node: T) => T,
): StarterNode {
  const node = nodeAt(root, path) as T | undefined;
  if (!node) throw new WorkflowTreeError(WF_TEXT.noSuchNode);
  const next = fn(node);
  if (next.type !== node.type) throw new WorkflowTreeError(WF_TEXT.wrongNode);
  if (next.type !== NODE.branch) return updateAt(root, path, () => remark(next));
  const { router, index } = branchAt(root, path);
  const isLast = index === router.conditionNodes.length - 1;
  return updateAt(root, path, () => ({ ...next, error: nodeProblems(next, isLast).length > 0 }));
}
