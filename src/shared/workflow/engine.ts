/**
 * The workflow engine (issue 8): pure functions over plain data; the server persists the state
 * and carries out the effects. Deterministic given (definition, form, starter, org snapshot):
 *
 * - `canStart(def, starterId, org)`: the starter scope;
 * - `plan(def, form, starterId, org)`: the ordered approver and copy-to steps, routers resolved;
 * - `start(steps, starterId)` and `act(state, action)`: the run-time state machine and its effects
 *   (messages to send and close, the end of the request); `release(state, org)` re-settles the
 *   current node when people it awaits were disabled.
 *
 * The pieces live in org.ts, conditions.ts, plan.ts and run.ts; import them from here.
 */
export { userMatchesTargets, type OrgView } from './org';
export {
  chooseBranch,
  evaluateCondition,
  HOURS_PER_DAY,
  toHundredths,
  type ConditionContext,
  type FormValues,
} from './conditions';
export {
  canStart,
  nodeAt,
  plan,
  resolveApprovers,
  type ApproverStep,
  type CopyStep,
  type Step,
} from './plan';
export {
  act,
  ACTION,
  ENTRY,
  release,
  REQUEST,
  start,
  WF_MSG,
  type Action,
  type ActResult,
  type Effect,
  type Entry,
  type NodeRun,
  type Reachable,
  type RequestStatus,
  type RunState,
} from './run';
