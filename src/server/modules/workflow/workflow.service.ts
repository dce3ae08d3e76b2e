import {
  PUBLISH_REFUSED,
  type ConditionField,
  type CopytoUserList,
  type PickerUser,
  type TemplateRow,
  type TemplateSaveBody,
} from '../../../shared/api/workflow';
import { ErrorCode } from '../../../shared/api/envelope';
import { formatMuseumTime } from '../../../shared/rules/museum-time';
import {
  COLUMN,
  STARTER_COLUMN,
  WorkflowDefinition,
  type FormField,
} from '../../../shared/workflow/definition';
import { canStart } from '../../../shared/workflow/plan';
import { definitionErrors } from '../../../shared/workflow/validate';
import type { Db } from '../../db/index';
import { AppError, conflict, notFound } from '../../errors';
import { loadOrgSnapshot, type OrgSnapshot } from './org-snapshot';
import * as repo from './workflow.repo';

const TEMPLATE_GONE = '审批模板不存在';
/**
 * The category of flows a module starts itself with its own form (the collection's 藏品数据审批
 * and 高清图提取审批): not offered in 发起审批; 审批设置 edits their route as any other.
 */
export const MODULE_CATEGORY = 'module';

/** Why a definition cannot be published, node by node (empty when it can): the designer's rules. */
export type ProblemsOf = (def: WorkflowDefinition) => { nodeName: string; message: string }[];
const designerProblems: ProblemsOf = (def) =>
  definitionErrors(def).map(({ nodeName, message }) => ({ nodeName, message }));

const parse = (json: string) => WorkflowDefinition.parse(JSON.parse(json));

function rowOf(t: repo.TemplateRecord): TemplateRow {
  return {
    id: t.id,
    name: t.name,
    icon: t.icon,
    groupName: t.group_name,
    category: t.category === 'gongwen' ? 'gongwen' : 'normal',
    enabled: t.enabled ? 1 : 0,
    version: t.current_version,
    draftChanged: t.published === null || t.published !== t.draft,
    updateTime: formatMuseumTime(t.updated_at),
  };
}

/** A form field as a condition column, or nothing when conditions cannot read it. */
function conditionField(f: FormField): ConditionField[] {
  const base = { columnId: f.id, showName: f.label };
  if (f.type === 'radio' || f.type === 'checkbox')
    return [{ ...base, columnType: COLUMN.choice, options: f.options ?? [] }];
  if (f.type === 'dateRange') return [{ ...base, columnType: COLUMN.duration, unit: f.unit ?? 1 }];
  if (f.type === 'amount') return [{ ...base, columnType: COLUMN.amount }];
  return [];
}

/** Picker rows of the given people (or everyone enabled), in the order given. */
export function pickerUsers(org: OrgSnapshot, ids: number[]): PickerUser[] {
  const names = new Map(org.departments.map((d) => [d.id, d.name]));
  return ids
    .filter((id) => org.isActive(id))
    .map((id) => {
      const p = org.person(id)!;
      // Only the person's own departments, not the ancestors deptsOf adds.
      const own = org.ownDeptsOf(id).map((d) => names.get(d) ?? '');
      return {
        userId: id,
        name: p.name,
        userImage: p.image,
        departmentNames: own.filter(Boolean).join('、'),
      };
    });
}

/**
 * Approvals and their workflows (issue 8). So far: the organisation snapshot the engine routes
 * against, and the pickers' data.
 */
export function createWorkflowService(db: Db, opts: { problems?: ProblemsOf; now?: () => number } = {}) {
  const problems = opts.problems ?? designerProblems;
  const now = opts.now ?? Date.now;

  async function template(id: number) {
    const t = await repo.templateById(db, id);
    if (!t) throw notFound(TEMPLATE_GONE);
    return t;
  }

  return {
    org: () => loadOrgSnapshot(db),
    /** The copy-to picker: the named people (or everyone), every department and every role. */
    async copytoUserList(userIds: number[]): Promise<CopytoUserList> {
      const org = await loadOrgSnapshot(db);
      const roles = await repo.allRoles(db);
      return {
        userlist: pickerUsers(org, userIds.length ? [...new Set(userIds)] : org.everyone()),
        deptlist: org.departments.map((d) => ({ deptId: d.id, deptName: d.name, parentId: d.parentId })),
        deptrolelist: roles.map((x) => ({ roleid: x.id, roleName: x.name })),
      };
    },
    async approverUserList() {
      const org = await loadOrgSnapshot(db);
      return { userlist: pickerUsers(org, org.everyone()) };
    },

    // ——— templates (审批设置) ———
    async templates() {
      return (await repo.templates(db)).map(rowOf);
    },
    async templateDetail(id: number) {
      const t = await template(id);
      return { ...rowOf(t), definition: parse(t.draft) };
    },
    /** Creates or updates a template's details and draft; the published version is untouched. */
    async saveTemplate(userId: number, body: TemplateSaveBody) {
      const same = await repo.templateByName(db, body.name);
      if (same && same.id !== body.id) throw conflict('已存在同名的审批模板，请换一个名称');
      const fields = {
        name: body.name,
        icon: body.icon ?? '',
        group_name: body.groupName ?? '',
        category: body.category,
        draft: JSON.stringify(body.definition),
      };
      if (body.id === undefined)
        return { id: await repo.insertTemplate(db, { ...fields, created_by: userId }, now()) };
      const before = await template(body.id);
      // A module's flow stays the module's: its route may be edited, its category not.
      const category = before.category === MODULE_CATEGORY ? MODULE_CATEGORY : fields.category;
      await repo.updateTemplate(db, body.id, { ...fields, category }, now());
      return { id: body.id };
    },
    /**
     * Freezes the draft as the next version, which new requests then start on. A draft with
     * problems is refused with the list (the designer shows it).
     */
    async publish(userId: number, id: number) {
      return db.transaction().execute(async (trx) => {
        const t = await repo.templateById(trx, id);
        if (!t) throw notFound(TEMPLATE_GONE);
        const def = parse(t.draft);
        const found = problems(def);
        if (found.length) throw new AppError(ErrorCode.invalid, PUBLISH_REFUSED, 200, { problems: found });
        const version = (await repo.lastVersion(trx, id)) + 1;
        await repo.insertVersion(
          trx,
          { template_id: id, version, definition: t.draft, published_by: userId },
          now(),
        );
        await repo.updateTemplate(trx, id, { current_version: version }, now());
        return { version };
      });
    },
    async setEnabled(id: number, enabled: 0 | 1) {
      await template(id);
      await repo.updateTemplate(db, id, { enabled }, now());
    },
    /** The condition drawer's fields of a template's draft (shared/api/workflow.ts ConditionField). */
    async conditionFields(id: number): Promise<ConditionField[]> {
      const def = parse((await template(id)).draft);
      return [
        { columnId: STARTER_COLUMN, showName: '发起人', columnType: COLUMN.person },
        ...def.fields.flatMap(conditionField),
      ];
    },
    /** What 发起审批 offers this person: enabled, published, and they are in its starter scope. */
    async startable(userId: number) {
      const org = await loadOrgSnapshot(db);
      return (await repo.templates(db)).flatMap((t) => {
        if (!t.enabled || t.current_version === null || t.published === null) return [];
        // A module's own flow (the collection's data approvals) starts from that module's page.
        if (t.category === MODULE_CATEGORY) return [];
        const def = parse(t.published);
        if (!canStart(def, userId, org)) return [];
        const r = rowOf(t);
        return [
          {
            id: r.id,
            name: r.name,
            icon: r.icon,
            groupName: r.groupName,
            category: r.category,
            version: t.current_version,
            fields: def.fields,
          },
        ];
      });
    },
  };
}
export type WorkflowService = ReturnType<typeof createWorkflowService>;
