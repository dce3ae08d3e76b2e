import { z } from 'zod';
import { BoolFlag, Flag } from '../api/fields';

/**
 * The workflow definition (spec/office.md §3 "Workflow node", §4 "Workflow designer"; the
 * DingTalk-style tree of research/oa-workflow.md §2). One shape travels between the designer,
 * the server (stored per version) and the engine. **Our spec's codes are the law**
 * (research §2.6 lists the traps):
 *
 * - node `type`: 0 starter, 1 approver, 2 copy-to, 3 condition branch, 4 router;
 * - approver `settype`: 1 named members (at most 5), 2 the starter's superior at `directorLevel`,
 *   3 the holders of each chosen role in each chosen department, 5 the starter;
 * - `examineMode`: 1 any one approves (或签: the first decision settles the node), 2 all must
 *   approve (会签: any refusal refuses);
 * - copy-to `notice`: 0 notify when the request is submitted, 1 (default) after final approval;
 * - condition `columnType`: 1 person/role/department of the starter, 2 multi-choice, 3 duration,
 *   4 amount; `optType` 1 >, 2 >=, 3 =, 4 <, 5 <=, 6 range with both ends included
 *   (zdy1 ≤ value ≤ zdy2); duration `unit` 0 hours, 1 days; amounts in 元 with 2 decimals.
 *
 * A chain is linked by `childNode`; a router's branches each run their own chain, then the
 * router's `childNode` follows (the join). Branches are tried by `priorityLevel`; the last one is
 * the fallback (其他条件). `error` is the designer's mark and means nothing to the engine.
 */

export const NODE = { starter: 0, approver: 1, copyTo: 2, branch: 3, router: 4 } as const;
export const SETTYPE = { members: 1, superior: 2, deptRole: 3, starter: 5 } as const;
export const EXAMINE = { any: 1, all: 2 } as const;
export const COPY_NOTICE = { onSubmit: 0, onApproved: 1 } as const;
export const COLUMN = { person: 1, choice: 2, duration: 3, amount: 4 } as const;
export const OPT = { gt: 1, gte: 2, eq: 3, lt: 4, lte: 5, range: 6 } as const;
export const UNIT = { hours: 0, days: 1 } as const;
/** The starter condition's column id (research §2.3: `columnId` 0 means "the starter"). */
export const STARTER_COLUMN = '0';
/** At most this many named approvers on one node (spec §5). */
export const MEMBERS_MAX = 5;

/** A person (1), role (2) or department (3) chosen in a picker. */
export const Target = z.object({
  targetId: z.number().int().positive(),
  type: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  name: z.string().max(100),
});
export type Target = z.infer<typeof Target>;

/** A department and the role whose holders there approve (settype 3). */
export const DeptRole = z.object({
  deptid: z.number().int().positive(),
  deptName: z.string().max(100),
  roleid: z.number().int().positive(),
  roleName: z.string().max(100),
});
export type DeptRole = z.infer<typeof DeptRole>;

/** One condition of a branch; a branch's conditions must all hold (并且). */
export const Condition = z.object({
  /** The form field's id, or STARTER_COLUMN for the starter. */
  columnId: z.string().min(1).max(40),
  showName: z.string().max(100),
  columnType: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  /** Numeric conditions (duration, amount). */
  optType: z
    .union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5), z.literal(6)])
    .optional(),
  zdy1: z.string().max(40).optional(),
  zdy2: z.string().max(40).optional(),
  unit: z.union([z.literal(0), z.literal(1)]).optional(),
  /** Person/role/department conditions: the starter is one of these, or in one of them. */
  nodeUserList: z.array(Target).max(200).optional(),
  /** Multi-choice conditions: the option keys that match (属于 A 或 B). */
  downValArr: z.array(z.string().max(100)).max(100).optional(),
});
export type Condition = z.infer<typeof Condition>;

export interface StarterNode {
  type: 0;
  nodeName: string;
  childNode: ChainNode | null;
}
export interface ApproverNode {
  type: 1;
  nodeName: string;
  settype: 1 | 2 | 3 | 5;
  examineMode: 1 | 2;
  /** settype 2: 1 is the direct superior. */
  directorLevel: number;
  /** settype 1: the named people (type 1 targets), at most MEMBERS_MAX. */
  nodeUserList: Target[];
  /** settype 3. */
  deptRoleList: DeptRole[];
  error?: boolean;
  childNode: ChainNode | null;
}
export interface CopyToNode {
  type: 2;
  nodeName: string;
  nodeUserList: Target[];
  notice: 0 | 1;
  error?: boolean;
  childNode: ChainNode | null;
}
export interface BranchNode {
  type: 3;
  nodeName: string;
  priorityLevel: number;
  conditionList: Condition[];
  error?: boolean;
  childNode: ChainNode | null;
}
export interface RouterNode {
  type: 4;
  nodeName: string;
  conditionNodes: BranchNode[];
  childNode: ChainNode | null;
}
/** What may follow in a chain. */
export type ChainNode = ApproverNode | CopyToNode | RouterNode;
export type AnyNode = StarterNode | ChainNode | BranchNode;

const name = z.string().max(30, '节点名称最多 30 个字');
const chain: z.ZodType<ChainNode | null> = z.lazy(() =>
  z.union([ApproverSchema, CopyToSchema, RouterSchema]).nullable(),
);
const ApproverSchema: z.ZodType<ApproverNode> = z.lazy(() =>
  z.object({
    type: z.literal(1),
    nodeName: name,
    settype: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(5)]),
    examineMode: z.union([z.literal(1), z.literal(2)]),
    directorLevel: z.number().int().min(1).max(20),
    nodeUserList: z.array(Target).max(200),
    deptRoleList: z.array(DeptRole).max(200),
    error: z.boolean().optional(),
    childNode: chain,
  }),
);
const CopyToSchema: z.ZodType<CopyToNode> = z.lazy(() =>
  z.object({
    type: z.literal(2),
    nodeName: name,
    nodeUserList: z.array(Target).max(500),
    notice: Flag(),
    error: z.boolean().optional(),
    childNode: chain,
  }),
);
const BranchSchema: z.ZodType<BranchNode> = z.lazy(() =>
  z.object({
    type: z.literal(3),
    nodeName: name,
    priorityLevel: z.number().int().min(1),
    conditionList: z.array(Condition).max(20),
    error: z.boolean().optional(),
    childNode: chain,
  }),
);
const RouterSchema: z.ZodType<RouterNode> = z.lazy(() =>
  z.object({
    type: z.literal(4),
    nodeName: name,
    conditionNodes: z.array(BranchSchema).min(2).max(20),
    childNode: chain,
  }),
);
export const StarterSchema: z.ZodType<StarterNode> = z.object({
  type: z.literal(0),
  nodeName: name,
  childNode: chain,
});

/**
 * A template's form: the fields a request fills. Values travel as `Record<field id, value>`:
 * text/textarea string; number and amount number; date 'yyyy-MM-dd'; dateRange
 * `{start, end, startHalf?, endHalf?, duration}` (halves 'am'/'pm' for a range in days; the
 * duration in the field's unit, computed by the server: duration.ts); radio one option key; checkbox option
 * keys; person and dept ids; attachment and image attachment ids.
 */
export const FIELD_TYPES = [
  'text',
  'textarea',
  'number',
  'amount',
  'date',
  'dateRange',
  'radio',
  'checkbox',
  'person',
  'dept',
  'attachment',
  'image',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export const FormField = z.object({
  id: z.string().regex(/^[a-zA-Z][a-zA-Z0-9_]{0,39}$/),
  type: z.enum(FIELD_TYPES),
  label: z.string().min(1).max(30),
  required: BoolFlag().default(false),
  placeholder: z.string().max(60).optional(),
  /** radio and checkbox. */
  options: z
    .array(z.object({ key: z.string().min(1).max(40), value: z.string().min(1).max(60) }))
    .max(50)
    .optional(),
  /** dateRange: the duration's unit, 0 hours or 1 days. */
  unit: z.union([z.literal(0), z.literal(1)]).optional(),
  /**
   * text: a format the value must have (form.ts `FORMATS`). `docNo` is a 公文's 发文字号,
   * 机关代字〔年份〕序号号 (GB/T 9704), e.g. 馆办发〔2026〕12号.
   */
  format: z.enum(['docNo']).optional(),
});
export type FormField = z.infer<typeof FormField>;

/** A definition as the designer saves it and the engine runs it (one version). */
export const WorkflowDefinition = z.object({
  /** The template's form, whose fields the conditions read. */
  fields: z.array(FormField).max(60),
  /** How many superior levels the pickers offer (directorLevel ≤ this). */
  directorMaxLevel: z.number().int().min(1).max(20),
  /** Who may start it: people or departments; empty means everyone. */
  flowPermission: z.array(Target).max(500),
  nodeConfig: StarterSchema,
  /**
   * Which attendance column an approved request counts in (shared/workflow/attendance.ts):
   * leave 请假, travel 出差, overtime 加班, none never. Optional: absent, the template's name
   * decides (请假/出差/加班), so definitions saved before it existed keep their meaning.
   */
  attendanceKind: z.enum(['leave', 'travel', 'overtime', 'none']).optional(),
});
export type WorkflowDefinition = z.infer<typeof WorkflowDefinition>;
