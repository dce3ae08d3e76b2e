import { chooseBranch, sortBranches, type ConditionContext, type FormValues } from './conditions';
import {
  EXAMINE,
  NODE,
  SETTYPE,
  type AnyNode,
  type ApproverNode,
  type BranchNode,
  type ChainNode,
  type WorkflowDefinition,
} from './definition';
import { unique, userMatchesTargets, type OrgView } from './org';

/**
 * Who may start a request: an empty `flowPermission` means everyone; otherwise a listed person,
 * a member of a listed department or any of its sub-departments, or (should the designer offer
 * it) a holder of a listed role.
 */
export function canStart(def: WorkflowDefinition, starterId: number, org: OrgView): boolean {
  return def.flowPermission.length === 0 || userMatchesTargets(starterId, def.flowPermission, org);
}

export interface ApproverStep {
  kind: 'approve';
  /** The node's position in the definition tree; `nodeAt(def, key)` reads it back. */
  nodeKey: string;
  nodeName: string;
  settype: ApproverNode['settype'];
  examineMode: 1 | 2;
  /** Never empty (escalation guarantees someone). */
  approvers: number[];
  /** Set when nobody the node names could be found and the administrators approve instead. */
  escalated?: 'admins';
}
export interface CopyStep {
  kind: 'copy';
  nodeKey: string;
  nodeName: string;
  recipients: number[];
  notice: 0 | 1;
}
export type Step = ApproverStep | CopyStep;

/**
 * The people of an approver node (spec §3, the decisions):
 * - settype 1: the named people (type 1 targets) in list order, without repeats;
 * - settype 2: the superior `directorLevel` steps up the starter's chain. When the chain is
 *   shorter than that, "the next higher one approves": the highest superior that exists (the top
 *   of the chain). Only when the starter has no superior at all do the administrators approve;
 * - settype 3: the holders of every (department, role) pair, pairs in list order, without repeats;
 * - settype 5: the starter.
 * Whenever that leaves nobody (no superior, no holder, named people gone from the list), the
 * step goes to the system administrators with `escalated: 'admins'` so the timeline can say so.
 * An escalated step is any-one (或签): one administrator settles it, whatever the node's mode.
 */
export function resolveApprovers(
  node: ApproverNode,
  starterId: number,
  org: OrgView,
): Pick<ApproverStep, 'approvers' | 'examineMode' | 'escalated'> {
  let people: number[];
  switch (node.settype) {
    case SETTYPE.members:
      people = unique(node.nodeUserList.filter((t) => t.type === 1).map((t) => t.targetId));
      break;
    case SETTYPE.superior: {
      const chain = org.superiorsOf(starterId);
      const level = Math.max(1, node.directorLevel);
      const at = chain[Math.min(level, chain.length) - 1];
      people = at === undefined ? [] : [at];
      break;
    }
    case SETTYPE.deptRole:
      people = unique(node.deptRoleList.flatMap((p) => org.holders(p.deptid, p.roleid)));
      break;
    case SETTYPE.starter:
      people = [starterId];
      break;
  }
  if (people.length > 0) return { approvers: people, examineMode: node.examineMode };
  const admins = unique(org.admins());
  // The server keeps at least one administrator; an approver step nobody can act on would hang
  // the request for ever, so fail loudly rather than plan it.
  if (admins.length === 0) throw new Error(`no approver and no administrator for node "${node.nodeName}"`);
  return { approvers: admins, examineMode: EXAMINE.any, escalated: 'admins' };
}

/**
 * The steps a request goes through, in order: approver and copy-to steps, with every router
 * resolved to its chosen branch followed by the router's join (`childNode`).
 *
 * nodeKey: the starter's chain is numbered 0, 1, 2, ...; inside the router at key K, the chain of
 * its i-th branch (1-based, in priority order) is `K.b<i>.0`, `K.b<i>.1`, ... So `1.b2.0` is the
 * first node of the second branch of the router that is second in the main chain. A running
 * request keeps its pinned definition version, so the keys stay valid for it.
 */
export function plan(def: WorkflowDefinition, form: FormValues, starterId: number, org: OrgView): Step[] {
  const ctx: ConditionContext = { form, starterId, org, fields: def.fields };
  const steps: Step[] = [];
  const walk = (first: ChainNode | null, prefix: string) => {
    let i = 0;
    for (let node = first; node; node = node.childNode, i++) {
      const nodeKey = prefix + i;
      if (node.type === NODE.approver) {
        steps.push({
          kind: 'approve',
          nodeKey,
          nodeName: node.nodeName,
          settype: node.settype,
          ...resolveApprovers(node, starterId, org),
        });
      } else if (node.type === NODE.copyTo) {
        // Copy-to recipients are people (type 1); the designer's copy-to picker offers people only.
        const recipients = unique(node.nodeUserList.filter((t) => t.type === 1).map((t) => t.targetId));
        steps.push({ kind: 'copy', nodeKey, nodeName: node.nodeName, recipients, notice: node.notice });
      } else {
        const { branch, index } = chooseBranch(node.conditionNodes, ctx);
        walk(branch.childNode, `${nodeKey}.b${index + 1}.`);
      }
    }
  };
  walk(def.nodeConfig.childNode, '');
  return steps;
}

/** The node a `nodeKey` names in a definition (the starter for ''), or null when there is none. */
export function nodeAt(def: WorkflowDefinition, nodeKey: string): AnyNode | null {
  if (nodeKey === '') return def.nodeConfig;
  let chain: ChainNode | null = def.nodeConfig.childNode;
  let node: AnyNode | null = null;
  for (const part of nodeKey.split('.')) {
    const branch = /^b(\d+)$/.exec(part);
    if (branch) {
      if (node?.type !== NODE.router) return null;
      const b: BranchNode | undefined = sortBranches(node.conditionNodes)[Number(branch[1]) - 1];
      if (!b) return null;
      node = b;
      chain = b.childNode;
      continue;
    }
    if (!/^\d+$/.test(part)) return null;
    let n = chain;
    for (let i = Number(part); n && i > 0; i--) n = n.childNode;
    if (!n) return null;
    node = n;
    chain = null;
  }
  return node;
}
