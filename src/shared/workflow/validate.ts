import {
  COLUMN,
  OPT,
  SETTYPE,
  STARTER_COLUMN,
  type AnyNode,
  type BranchNode,
  type ChainNode,
  type Condition,
  type FormField,
  type StarterNode,
  type WorkflowDefinition,
} from './definition';
import { numberProblem, parseNumber } from './numbers';
import { walk, type NodePath } from './paths';
import { WF_TEXT } from './text';

/**
 * Publish validation (spec/office.md §4 "Workflow designer", research/oa-workflow.md §2.5, in our
 * codes). One set of rules feeds both the publish refusal (`definitionErrors`, also run by the
 * server) and the designer's error marks (`markErrors`), so a node is marked exactly when
 * publishing would name it.
 */

/** What the rules may know beyond the tree: without `fields` the field checks are skipped. */
export interface RuleContext {
  fields?: readonly FormField[];
  directorMaxLevel?: number;
}

export interface DefinitionError {
  path: NodePath;
  nodeName: string;
  message: string;
}

/** Which form field types a condition kind reads (the starter condition reads no field). */
const FITS: Record<2 | 3 | 4, readonly FormField['type'][]> = {
  [COLUMN.choice]: ['radio', 'checkbox'],
  [COLUMN.duration]: ['dateRange'],
  [COLUMN.amount]: ['amount'],
};

const blank = (s: string | undefined): boolean => !s?.trim();

/** The problems of one condition, in Chinese; empty when the engine can evaluate it. */
export function conditionProblems(cond: Condition, fields?: readonly FormField[]): string[] {
  const field = fields?.find((f) => f.id === cond.columnId);
  const name = cond.showName.trim() || field?.label || '条件';
  if (cond.columnType === COLUMN.person) {
    if (cond.columnId !== STARTER_COLUMN) return [WF_TEXT.condFieldType(name)];
    return cond.nodeUserList?.length ? [] : [WF_TEXT.condNoPerson];
  }
  if (cond.columnId === STARTER_COLUMN) return [WF_TEXT.condFieldType(name)];
  if (fields) {
    if (!field) return [WF_TEXT.condFieldGone(name)];
    if (!FITS[cond.columnType].includes(field.type)) return [WF_TEXT.condFieldType(name)];
  }
  if (cond.columnType === COLUMN.choice) {
    if (!cond.downValArr?.length) return [WF_TEXT.condNoChoice(name)];
    const keys = field?.options?.map((o) => o.key);
    return keys && cond.downValArr.some((k) => !keys.includes(k)) ? [WF_TEXT.condChoiceGone(name)] : [];
  }
  // Duration and amount: an operator, a unit for durations, and well-formed values.
  const out: string[] = [];
  if (cond.optType === undefined) out.push(WF_TEXT.condNoOperator(name));
  if (cond.columnType === COLUMN.duration && cond.unit === undefined) out.push(WF_TEXT.condNoUnit(name));
  const values = cond.optType === OPT.range ? [cond.zdy1, cond.zdy2] : [cond.zdy1];
  if (values.some(blank)) {
    out.push(cond.optType === OPT.range ? WF_TEXT.condRangeBoth(name) : WF_TEXT.condNoValue(name));
    return out;
  }
  const bad = values.map((v) => numberProblem(v!)).find((p) => p !== null);
  if (bad) out.push(WF_TEXT.condBadNumber(name, bad));
  else if (cond.optType === OPT.range && parseNumber(cond.zdy1!) > parseNumber(cond.zdy2!)) {
    out.push(WF_TEXT.condRangeOrder(name));
  }
  return out;
}

/**
 * The problems of one node on its own (a router's count of branches included; the flow-wide
 * "no approver at all" is definitionErrors' alone). `isLastBranch` says whether a branch is its
 * router's fallback: the fallback must have no conditions, every other branch must have some.
 */
export function nodeProblems(node: AnyNode, isLastBranch: boolean, ctx: RuleContext = {}): string[] {
  switch (node.type) {
    case 1: {
      if (node.settype === SETTYPE.members) {
        return node.nodeUserList.some((t) => t.type === 1) ? [] : [WF_TEXT.approverNoMembers];
      }
      if (node.settype === SETTYPE.deptRole) {
        return node.deptRoleList.length ? [] : [WF_TEXT.approverNoDeptRole];
      }
      if (node.settype === SETTYPE.superior && ctx.directorMaxLevel !== undefined) {
        return node.directorLevel > ctx.directorMaxLevel
          ? [WF_TEXT.superiorTooHigh(ctx.directorMaxLevel)]
          : [];
      }
      return [];
    }
    case 2:
      return node.nodeUserList.length ? [] : [WF_TEXT.copyToNoRecipients];
    case 3: {
      if (node.conditionList.length === 0) return isLastBranch ? [] : [WF_TEXT.branchNoConditions];
      if (isLastBranch) return [WF_TEXT.lastBranchHasConditions];
      return node.conditionList.flatMap((c) => conditionProblems(c, ctx.fields));
    }
    case 4:
      return node.conditionNodes.length < 2 ? [WF_TEXT.routerFewBranches] : [];
    default:
      return [];
  }
}

/** Every reason publishing refuses `def`, tree order; empty means it may be published. */
export function definitionErrors(def: WorkflowDefinition): DefinitionError[] {
  const ctx: RuleContext = { fields: def.fields, directorMaxLevel: def.directorMaxLevel };
  const visits = walk(def.nodeConfig);
  const out: DefinitionError[] = visits.flatMap(({ node, path, isLastBranch }) =>
    nodeProblems(node, isLastBranch, ctx).map((message) => ({ path, nodeName: node.nodeName, message })),
  );
  if (!visits.some((v) => v.node.type === 1)) {
    out.unshift({ path: [], nodeName: def.nodeConfig.nodeName, message: WF_TEXT.flowEmpty });
  }
  return out;
}

/**
 * The tree with every approver, copy-to and branch `error` flag set exactly when nodeProblems
 * finds something (pass the definition's fields and directorMaxLevel to include those checks).
 */
export function markErrors(nodeConfig: StarterNode, ctx: RuleContext = {}): StarterNode {
  const chain = (node: ChainNode | null): ChainNode | null => {
    if (!node) return null;
    const childNode = chain(node.childNode);
    if (node.type === 4) {
      const last = node.conditionNodes.length - 1;
      return { ...node, childNode, conditionNodes: node.conditionNodes.map((b, i) => branch(b, i === last)) };
    }
    return { ...node, childNode, error: nodeProblems(node, false, ctx).length > 0 };
  };
  const branch = (b: BranchNode, isLast: boolean): BranchNode => ({
    ...b,
    childNode: chain(b.childNode),
    error: nodeProblems(b, isLast, ctx).length > 0,
  });
  return { ...nodeConfig, childNode: chain(nodeConfig.childNode) };
}
