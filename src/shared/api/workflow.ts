import { z } from 'zod';
import { FormField, WorkflowDefinition } from '../workflow/definition';
import { Flag, Id, oneOrMany, visibleText } from './fields';

/**
 * The person-picker data of the approval screens and the designer (spec/office.md §3
 * "Person-picker data", §7 "/workflowConfig/*"), under /singleMuseum.
 *
 * Decisions the spec leaves open: `departmentNames` is the person's departments joined with
 * '、'; `deptrolelist` is every role, to pair with a department in the approver drawer
 * (settype 3: the role's holders in that department approve).
 */

export const PickerUser = z.object({
  userId: z.number(),
  name: z.string(),
  userImage: z.string(),
  departmentNames: z.string(),
});
export type PickerUser = z.infer<typeof PickerUser>;
export const PickerDept = z.object({
  deptId: z.number(),
  deptName: z.string(),
  parentId: z.number().nullable(),
});
export const PickerRole = z.object({ roleid: z.number(), roleName: z.string() });

/** POST /workflowConfig/copytoUserList: `userIds` (list or "1,2,3") narrows userlist to them; empty means everyone. */
export const CopytoUserListBody = z.object({
  userIds: oneOrMany(z.array(Id).max(1000, '一次最多选择 1000 人')).default([]),
});
export const CopytoUserList = z.object({
  userlist: z.array(PickerUser),
  deptlist: z.array(PickerDept),
  deptrolelist: z.array(PickerRole),
});
export type CopytoUserList = z.infer<typeof CopytoUserList>;

/** GET /workflowConfig/approverUserList: every enabled person (the transfer picker, 选择联系人). */
export const ApproverUserList = z.object({ userlist: z.array(PickerUser) });

// ——— Approval templates (ours: the spec does not show how definitions are saved and loaded) ———

export const TEMPLATE_CATEGORIES = ['normal', 'gongwen'] as const;
export const TemplateMeta = z.object({
  name: z
    .string('请输入模板名称')
    .trim()
    .min(1, '请输入模板名称')
    .max(30, '模板名称最多 30 个字')
    .superRefine(visibleText('模板名称')),
  icon: z.string().trim().max(40, '图标名称过长').default(''),
  groupName: z.string().trim().max(30, '分组名称最多 30 个字').default(''),
  /** 'normal' 普通审批, 'gongwen' 公文 (listed under /gongwen/*). */
  category: z.enum(TEMPLATE_CATEGORIES, { message: '请选择模板类别' }),
});

/** POST workflowTemplate/save: creates (no id) or updates a template's details and its draft. */
export const TemplateSaveBody = TemplateMeta.extend({
  id: Id.optional(),
  definition: WorkflowDefinition,
});
export type TemplateSaveBody = z.output<typeof TemplateSaveBody>;

export const TemplateIdQuery = z.object({ id: Id });
export const TemplateEnableBody = z.object({ id: Id, enabled: Flag() });

/** One row of 审批设置. `draftChanged`: the draft differs from the published version. */
export const TemplateRow = z.object({
  id: z.number(),
  name: z.string(),
  icon: z.string(),
  groupName: z.string(),
  category: z.enum(TEMPLATE_CATEGORIES),
  enabled: z.union([z.literal(0), z.literal(1)]),
  version: z.number().nullable(),
  draftChanged: z.boolean(),
  updateTime: z.string(),
});
export type TemplateRow = z.infer<typeof TemplateRow>;
export const TemplateDetail = TemplateRow.extend({ definition: WorkflowDefinition });

/** What 发起审批 offers a person: enabled, published templates whose starter scope includes them. */
export const StartableTemplate = z.object({
  id: z.number(),
  name: z.string(),
  icon: z.string(),
  groupName: z.string(),
  category: z.enum(TEMPLATE_CATEGORIES),
  version: z.number(),
  fields: z.array(FormField),
});

/** A publish refused: why, node by node (the designer lists them). */
export const PublishProblem = z.object({ nodeName: z.string(), message: z.string() });
export const PUBLISH_REFUSED = '流程设置不完整，无法发布';

// ——— Approval requests (issue 8): POST /workflowInst/* per spec §7, plus start and list (ours) ———

export const REASON_MAX = 200;
const reason = (required: string) =>
  z.string(required).trim().min(1, required).max(REASON_MAX, `最多 ${REASON_MAX} 个字`);

/** POST /workflowInst/start (ours): `form` is checked against the pinned version's fields. */
export const InstStartBody = z.object({
  templateId: Id,
  form: z.record(z.string(), z.unknown(), '请填写表单'),
  priority: z.union([z.literal(1), z.literal(2), z.literal(3)], '紧急程度不正确').default(1),
});
export type InstStartBody = z.output<typeof InstStartBody>;

/** POST /workflowInst/approval: 2 agree (reason optional), 3 refuse (reason required). */
export const InstApprovalBody = z
  .object({
    actvityId: Id,
    action: z.union([z.literal(2), z.literal(3)], '审批操作不正确'),
    reason: z.string().trim().max(REASON_MAX, `最多 ${REASON_MAX} 个字`).optional(),
  })
  .refine((b) => b.action === 2 || (b.reason ?? '') !== '', { message: '请填写拒绝理由', path: ['reason'] });
/** POST /workflowInst/cancel: only the starter, while in progress; the reason is required. */
export const InstCancelBody = z.object({
  actvityId: Id,
  action: z.literal(4, '审批操作不正确'),
  reason: reason('请填写撤销理由'),
});
/** POST /workflowInst/deliver: transfer my decision to a colleague (`target` a user id). */
export const InstDeliverBody = z.object({
  actvityId: Id,
  target: z.coerce.number('请选择转交的同事').int('请选择转交的同事').positive('请选择转交的同事'),
});
export const InstCommentBody = z.object({ actvityId: Id, comment: reason('请填写评论内容') });
/** POST /workflowInst/commentDel: `delete` is the comment's id; only its author deletes it. */
export const InstCommentDelBody = z.object({ actvityId: Id, delete: Id });
export const InstIdBody = z.object({ actvityId: Id });

export const INST_LIST_STATES = ['pending', 'done', 'mystart', 'copy', 'list'] as const;
export type InstListState = (typeof INST_LIST_STATES)[number];
/** The request statuses (spec §4): 1 审批中, 3 已拒绝, 4 已撤销, 6 审批通过. */
export const INST_STATUSES = [1, 3, 4, 6] as const;
/**
 * GET /workflowInst/list (ours): pending awaits me; done no longer awaits me; mystart; copy;
 * list every request I may see (公文列表). `category` narrows to 普通审批 or 公文 templates
 * (/approve/* and /gongwen/*), `status` and `templateId` are the lists' filters.
 */
export const InstListQuery = z.object({
  state: z.enum(INST_LIST_STATES, '列表类型不正确'),
  currentPage: z.coerce.number().int().min(1).default(1),
  pageCount: z.coerce.number().int().min(1).max(100).default(20),
  keyword: z.string().trim().max(50, '关键词最多 50 个字').default(''),
  category: z.enum(TEMPLATE_CATEGORIES, { message: '模板类别不正确' }).optional(),
  status: z.coerce
    .number()
    .refine((n) => (INST_STATUSES as readonly number[]).includes(n), '审批状态不正确')
    .optional(),
  templateId: z.coerce.number().int('审批模板不正确').positive('审批模板不正确').optional(),
});
export type InstListQuery = z.output<typeof InstListQuery>;
/**
 * GET /workflowInst/templates (ours): the templates a list's 模板 filter offers, by category;
 * `all` for the /approve lists, which show every category (issue 17 §4).
 */
export const InstTemplatesQuery = z.object({
  category: z.enum([...TEMPLATE_CATEGORIES, 'all'], { message: '模板类别不正确' }).default('normal'),
});
export const InstTemplateOption = z.object({ id: z.number(), name: z.string() });
export type InstTemplateOption = z.infer<typeof InstTemplateOption>;
export const InstRow = z.object({
  actvityId: z.number(),
  title: z.string(),
  templateName: z.string(),
  starterName: z.string(),
  userImage: z.string(),
  status: z.number(),
  priority: z.number(),
  createTime: z.string(),
});
export type InstRow = z.infer<typeof InstRow>;
export const InstPage = z.object({ list: z.array(InstRow), total: z.number() });
export type InstPage = z.infer<typeof InstPage>;

/** The spec's approval detail (§3 "Approval detail"). */
export const InstNodeUser = z.object({
  name: z.string(),
  userImage: z.string(),
  status: z.number().nullable(),
  statusText: z.string(),
  date: z.string(),
  comment: z.string(),
  isTransfer: z.boolean(),
});
export const InstDetail = z.object({
  title: z.string(),
  userImage: z.string(),
  status: z.number(),
  /** 1 when the caller cannot cancel (not the starter, or the request has ended): the button hides. */
  isCancel: z.union([z.literal(0), z.literal(1)]),
  priority: z.number(),
  fields: z.array(
    z.object({
      name: z.string(),
      label: z.string(),
      value: z.string(),
      title: z.string(),
      img: z.array(z.object({ attId: z.number(), attPath: z.string() })).optional(),
      /** Files to download: attPath is attach/downloadFile (ours, beside the spec's fields). */
      other: z
        .array(
          z.object({
            attId: z.number(),
            attName: z.string(),
            attFileTypeStr: z.string(),
            attPath: z.string().optional(),
            attSize: z.number().optional(),
          }),
        )
        .optional(),
    }),
  ),
  detail: z.array(
    z.object({ label: z.string(), arr: z.array(z.object({ label: z.string(), value: z.string() })) }),
  ),
  approval: z.array(
    z.object({
      type: z.number(),
      nodeName: z.string(),
      statusText: z.string(),
      examineMode: z.number(),
      nodeUserList: z.array(InstNodeUser),
      /** Ours: why the node's people differ from the design (escalated, disabled people skipped). */
      note: z.string().optional(),
    }),
  ),
  comment: z.array(
    z.object({
      commentId: z.number(),
      name: z.string(),
      userImage: z.string(),
      date: z.string(),
      comment: z.string(),
      canDelete: z.boolean(),
      actvityId: z.number(),
    }),
  ),
  /** 0 copy-to was told on submit, 1 after approval (of the first copy-to node; 1 without one). */
  notice: z.union([z.literal(0), z.literal(1)]),
  readList: z.array(PickerUser),
  unreadList: z.array(PickerUser),
  copytoList: z.array(PickerUser),
});
export type InstDetail = z.infer<typeof InstDetail>;

/**
 * GET or POST /workflowConfig/condition (spec: GET with the template's `id`; POST body
 * `{templateId}`): the fields of the template's form (its draft, what the designer edits) that a
 * condition can read: the starter (columnId '0', columnType 1), single and multiple choice (2,
 * with their options), date ranges (3, duration, with the field's unit) and amounts (4).
 */
export const ConditionFieldsQuery = z.object({ id: Id });
export const ConditionFieldsBody = z.object({ templateId: Id });
export const ConditionField = z.object({
  columnId: z.string(),
  showName: z.string(),
  columnType: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  options: z.array(z.object({ key: z.string(), value: z.string() })).optional(),
  unit: z.union([z.literal(0), z.literal(1)]).optional(),
});
export type ConditionField = z.infer<typeof ConditionField>;

/** GET /workflowInst/print?id=: a page, not JSON (the id travels as the spec names it). */
export const InstPrintQuery = z.object({ id: z.string().max(20).optional() });
