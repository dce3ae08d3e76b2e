import { z } from 'zod';
import { FormField, WorkflowDefinition } from '../workflow/definition';
import { Id } from './fields';

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
  userIds: z
    .union([z.array(Id).max(1000, '一次最多选择 1000 人'), z.string().max(12_000)])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return [];
      if (Array.isArray(v)) return v;
      const ids = v.split(',').map((s) => Number(s.trim()));
      if (ids.some((n) => !Number.isInteger(n) || n <= 0)) {
        ctx.addIssue({ code: 'custom', message: '人员参数不正确' });
        return z.NEVER;
      }
      return ids;
    }),
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
  name: z.string('请输入模板名称').trim().min(1, '请输入模板名称').max(30, '模板名称最多 30 个字'),
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
export const TemplateEnableBody = z.object({ id: Id, enabled: z.union([z.literal(0), z.literal(1)]) });

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
