import { COPY_NOTICE, EXAMINE } from './definition';
import type { ApproverStep, CopyStep, Step } from './plan';

/** Request status (spec §4): 1 in progress, 3 refused, 4 cancelled, 6 passed. */
export const REQUEST = { running: 1, refused: 3, cancelled: 4, passed: 6 } as const;
export type RequestStatus = (typeof REQUEST)[keyof typeof REQUEST];
/** A person's entry on a node: 2 approved, 3 refused, 5 transferred; no status while pending. */
export const ENTRY = { approved: 2, refused: 3, transferred: 5 } as const;
/** Action codes sent by the client (spec §4); transfer has none there (it is its own call). */
export const ACTION = { agree: 2, refuse: 3, cancel: 4 } as const;

/** The engine's refusals, shown to the person who acted (and to an offline replay). */
export const WF_MSG = {
  settledByOther: '已被他人处理',
  cancelled: '该申请已撤销',
  refused: '该申请已被拒绝，无需再处理',
  passed: '该申请已审批通过，无需再处理',
  alreadyDecided: '您已处理过该审批',
  alreadyTransferred: '您已将该审批转交他人',
  notApprover: '您不是当前节点的审批人，不能处理该申请',
  onlyStarterCancels: '只有申请人可以撤销该申请',
  cancelEnded: '该申请已结束，不能撤销',
  transferToSelf: '不能转交给自己',
  transferToApprover: '该同事已是当前节点的审批人，请选择其他人',
  transferTarget: '请选择转交的同事',
} as const;

export interface Entry {
  userId: number;
  status?: 2 | 3 | 5;
  /** On a transferred entry: who took over. */
  transferTo?: number;
  /** On the taker's entry: who handed the decision over. */
  transferFrom?: number;
  /** Passed through from the action, for the timeline. */
  comment?: string;
  at?: string;
}
export interface NodeRun {
  /** Index of the approver step in `RunState.steps`. */
  step: number;
  nodeKey: string;
  examineMode: 1 | 2;
  entries: Entry[];
  /** Decided: passed or refused. Pending entries left on a settled node were settled by others. */
  settled: boolean;
  /**
   * Approvers left out: disabled or deleted by the time the node was reached, or while it
   * awaited them (`release`). They are not on `entries`.
   */
  skipped?: number[];
  /** Set when nobody planned was left and the administrators approve instead (any one of them). */
  escalated?: 'admins';
}
/** Everything about a running request; plain JSON so the server can store it as it is. */
export interface RunState {
  starterId: number;
  status: RequestStatus;
  steps: Step[];
  /** The approver nodes reached so far, in order; the last is the current one while running. */
  nodes: NodeRun[];
}

/** What the server must carry out after a transition, in order. */
export type Effect =
  /** These people now await a decision: approval message with status '1'. */
  | { type: 'await'; nodeKey: string; userIds: number[] }
  /** Their awaiting messages for this node close (decided, settled by others, or cancelled). */
  | { type: 'close'; nodeKey: string; userIds: number[] }
  /** Copy-to recipients to notify: message with status '10'. */
  | { type: 'copy'; nodeKey: string; userIds: number[] }
  /** The request ended with this status. */
  | { type: 'end'; status: 3 | 4 | 6 };

export type Action =
  | { userId: number; action: 2 | 3 | 4; comment?: string; at?: string }
  | { userId: number; action: 'transfer'; to: number; comment?: string; at?: string };

export type ActResult = { ok: true; state: RunState; effects: Effect[] } | { ok: false; message: string };

/**
 * Who can still act when a node is reached. A request is planned when it starts; by the time it
 * reaches a later node a planned approver may have been disabled or deleted. Without this the
 * node would await someone who can never act (or the message to them fail). With it, such people
 * are skipped, and a node left with nobody goes to the administrators, as settype 2 with no
 * superior does. Omitted (pure tests of other rules): everyone planned is taken as able.
 */
export interface Reachable {
  isActive(userId: number): boolean;
  admins(): number[];
}

const isApprove = (s: Step): s is ApproverStep => s.kind === 'approve';
const isCopy = (s: Step): s is CopyStep => s.kind === 'copy';

/**
 * The state right after submission: copy-to steps with notice 0 notify now (wherever they sit),
 * and the first approver step awaits. A plan without approver steps passes at once.
 */
export function start(
  steps: Step[],
  starterId: number,
  people?: Reachable,
): { state: RunState; effects: Effect[] } {
  for (const s of steps) {
    if (isApprove(s) && s.approvers.length === 0) throw new Error(`approver step ${s.nodeKey} has nobody`);
  }
  const effects: Effect[] = copies(steps, COPY_NOTICE.onSubmit, people);
  const state: RunState = { starterId, status: REQUEST.running, steps, nodes: [] };
  return { state: advance(state, -1, effects, people), effects };
}

/**
 * The copy effects of the copy-to steps with this `notice`, to the recipients who can still be
 * told (see Reachable: one disabled since the plan must not block the request).
 */
function copies(steps: Step[], notice: 0 | 1, people: Reachable | undefined): Effect[] {
  return steps.filter(isCopy).flatMap((s) => {
    if (s.notice !== notice) return [];
    const userIds = people ? s.recipients.filter((u) => people.isActive(u)) : s.recipients;
    return userIds.length ? [{ type: 'copy' as const, nodeKey: s.nodeKey, userIds }] : [];
  });
}

/** The node an approver step becomes when reached: only people who can act (see Reachable). */
function reach(step: ApproverStep, index: number, people: Reachable | undefined): NodeRun {
  const node: NodeRun = {
    step: index,
    nodeKey: step.nodeKey,
    examineMode: step.examineMode,
    entries: [],
    settled: false,
  };
  const able = people ? step.approvers.filter((u) => people.isActive(u)) : step.approvers;
  const skipped = step.approvers.filter((u) => !able.includes(u));
  if (skipped.length) node.skipped = skipped;
  let approvers = able;
  if (able.length === 0) approvers = toAdmins(node, people!);
  else if (step.escalated) node.escalated = step.escalated;
  node.entries = approvers.map((userId) => ({ userId }));
  return node;
}

/**
 * A node nobody planned can act on goes to the enabled administrators, any one of whom decides.
 * Answers them; marks the node so the timeline says so.
 */
function toAdmins(node: NodeRun, people: Reachable): number[] {
  const admins = [...new Set(people.admins().filter((u) => people.isActive(u)))];
  // As in plan: a node nobody can ever act on would hang the request; fail loudly instead.
  if (admins.length === 0) throw new Error(`no approver and no administrator for ${node.nodeKey}`);
  node.escalated = 'admins';
  node.examineMode = EXAMINE.any;
  return admins;
}

/** Moves past step `from` to the next approver step, or passes the request when there is none. */
function advance(state: RunState, from: number, effects: Effect[], people?: Reachable): RunState {
  const next = state.steps.findIndex((s, i) => i > from && isApprove(s));
  if (next >= 0) {
    const node = reach(state.steps[next] as ApproverStep, next, people);
    effects.push({ type: 'await', nodeKey: node.nodeKey, userIds: node.entries.map((e) => e.userId) });
    return { ...state, nodes: [...state.nodes, node] };
  }
  // Copy-to with notice 1 notifies when the request passes, wherever the node sits.
  effects.push(...copies(state.steps, COPY_NOTICE.onApproved, people));
  effects.push({ type: 'end', status: REQUEST.passed });
  return { ...state, status: REQUEST.passed };
}

const pending = (n: NodeRun) => n.entries.filter((e) => e.status === undefined).map((e) => e.userId);

/** Why this person cannot decide on the request now, or null when they can. */
function refusal(state: RunState, userId: number): string | null {
  if (state.status === REQUEST.cancelled) return WF_MSG.cancelled;
  // An approver whose node someone else settled hears exactly that, even when that decision also
  // ended the request (the any-one race).
  if (
    state.nodes.some((n) => n.settled && n.entries.some((e) => e.userId === userId && e.status === undefined))
  ) {
    return WF_MSG.settledByOther;
  }
  if (state.status === REQUEST.refused) return WF_MSG.refused;
  if (state.status === REQUEST.passed) return WF_MSG.passed;
  const current = state.nodes[state.nodes.length - 1];
  const mine = current?.entries.filter((e) => e.userId === userId) ?? [];
  if (mine.some((e) => e.status === undefined)) return null;
  if (mine.some((e) => e.status === ENTRY.transferred)) return WF_MSG.alreadyTransferred;
  if (mine.length > 0) return WF_MSG.alreadyDecided;
  return WF_MSG.notApprover;
}

/**
 * One action on a request; the state is not changed in place. Agree (2) and refuse (3) and
 * transfer are for an open approver of the current node; cancel (4) only for the starter while
 * the request runs. A refused action returns the Chinese reason and no state.
 */
export function act(state: RunState, a: Action, people?: Reachable): ActResult {
  if (a.action === ACTION.cancel) {
    if (a.userId !== state.starterId) return { ok: false, message: WF_MSG.onlyStarterCancels };
    if (state.status === REQUEST.cancelled) return { ok: false, message: WF_MSG.cancelled };
    if (state.status !== REQUEST.running) return { ok: false, message: WF_MSG.cancelEnded };
    const current = state.nodes[state.nodes.length - 1];
    const effects: Effect[] = [];
    if (current && pending(current).length > 0) {
      effects.push({ type: 'close', nodeKey: current.nodeKey, userIds: pending(current) });
    }
    effects.push({ type: 'end', status: REQUEST.cancelled });
    return { ok: true, state: { ...state, status: REQUEST.cancelled }, effects };
  }

  const why = refusal(state, a.userId);
  if (why) return { ok: false, message: why };
  const nodes = state.nodes.map((n) => ({ ...n, entries: n.entries.map((e) => ({ ...e })) }));
  const node = nodes[nodes.length - 1]!;
  const idx = node.entries.findIndex((e) => e.userId === a.userId && e.status === undefined);
  const entry = node.entries[idx]!;
  const note = {
    ...(a.comment !== undefined && { comment: a.comment }),
    ...(a.at !== undefined && { at: a.at }),
  };
  const effects: Effect[] = [];

  if (a.action === 'transfer') {
    if (!Number.isInteger(a.to) || a.to <= 0) return { ok: false, message: WF_MSG.transferTarget };
    if (a.to === a.userId) return { ok: false, message: WF_MSG.transferToSelf };
    if (node.entries.some((e) => e.userId === a.to && e.status !== ENTRY.transferred)) {
      return { ok: false, message: WF_MSG.transferToApprover };
    }
    Object.assign(entry, { status: ENTRY.transferred, transferTo: a.to }, note);
    node.entries.splice(idx + 1, 0, { userId: a.to, transferFrom: a.userId });
    effects.push({ type: 'close', nodeKey: node.nodeKey, userIds: [a.userId] });
    effects.push({ type: 'await', nodeKey: node.nodeKey, userIds: [a.to] });
    return { ok: true, state: { ...state, nodes }, effects };
  }

  const agree = a.action === ACTION.agree;
  Object.assign(entry, { status: agree ? ENTRY.approved : ENTRY.refused }, note);
  // The actor's own message closes; on a settled node every other open one closes with it.
  const settles = !agree || node.examineMode === EXAMINE.any || pending(node).length === 0;
  effects.push({
    type: 'close',
    nodeKey: node.nodeKey,
    userIds: settles ? [a.userId, ...pending(node)] : [a.userId],
  });
  if (!settles) return { ok: true, state: { ...state, nodes }, effects };
  node.settled = true;
  if (!agree) {
    effects.push({ type: 'end', status: REQUEST.refused });
    return { ok: true, state: { ...state, nodes, status: REQUEST.refused }, effects };
  }
  return { ok: true, state: advance({ ...state, nodes }, node.step, effects, people), effects };
}

/**
 * The current node after people it awaits were disabled or deleted (the server calls this when
 * it happens, not only when a node is reached). Their pending entries leave the node for
 * `skipped`, as if they had been skipped on reaching it, and the node settles as it then would:
 * others still pending decide (an any-one node's remaining approvers, an all-must node's
 * remaining votes); an all-must node whose remaining people have all agreed passes and the
 * request moves on; a node where nobody agreed and nobody awaits goes to the administrators
 * (`toAdmins`, reach's rule). Their entry is gone, so re-enabled later they do not get the
 * decision back (they are told WF_MSG.notApprover). Null when the request awaits none of them.
 */
export function release(state: RunState, people: Reachable): { state: RunState; effects: Effect[] } | null {
  const current = state.nodes[state.nodes.length - 1];
  if (state.status !== REQUEST.running || !current || current.settled) return null;
  const gone = [...new Set(pending(current).filter((u) => !people.isActive(u)))];
  if (!gone.length) return null;
  const node: NodeRun = {
    ...current,
    entries: current.entries.filter((e) => e.status !== undefined || !gone.includes(e.userId)),
    skipped: [...new Set([...(current.skipped ?? []), ...gone])],
  };
  const nodes = [...state.nodes.slice(0, -1), node];
  const effects: Effect[] = [{ type: 'close', nodeKey: node.nodeKey, userIds: gone }];
  if (pending(node).length > 0) return { state: { ...state, nodes }, effects };
  // Only an all-must node can hold agreements while unsettled: the last vote needed is gone.
  if (node.entries.some((e) => e.status === ENTRY.approved)) {
    node.settled = true;
    return { state: advance({ ...state, nodes }, node.step, effects, people), effects };
  }
  const admins = toAdmins(node, people);
  node.entries = [...node.entries, ...admins.map((userId) => ({ userId }))];
  effects.push({ type: 'await', nodeKey: node.nodeKey, userIds: admins });
  return { state: { ...state, nodes }, effects };
}
