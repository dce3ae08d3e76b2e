import { deptRoles, definition, superior } from '../../../shared/workflow/build';
import type { ChainNode, FormField } from '../../../shared/workflow/definition';
import type { Db } from '../../db/index';
import * as orgRepo from '../org/org.repo';
import * as workflowRepo from '../workflow/workflow.repo';
import { MODULE_CATEGORY } from '../workflow/workflow.service';

/**
 * The two flows the collection starts itself (README "Collection (issue 24)"), ensured at every
 * start so every museum has them, found by name: 藏品数据审批 (新增/修改 a 藏品) and 高清图提取审批.
 * Category `module`: not offered in 发起审批 (their form is the collection's), while 审批设置
 * edits their route as any other template's. A museum that renames one gets a fresh one at the
 * next start, so keep the names.
 *
 * Default routes: 数据审批 goes to the collection department's head (典藏部 · 部门主任) when the
 * museum has both, else to the applicant's direct superior; 提取 goes to the applicant's direct
 * superior, then the same head. A node nobody holds goes to the system administrators.
 */
export const DATA_TEMPLATE = '藏品数据审批';
export const EXTRACT_TEMPLATE = '高清图提取审批';

const text = (id: string, label: string): FormField => ({ id, type: 'text', label, required: true });
const area = (id: string, label: string, required = true): FormField => ({
  id,
  type: 'textarea',
  label,
  required,
});

/** The form a data approval fills (display text: the reviewer reads it in the approval panel). */
export const DATA_FIELDS: FormField[] = [
  text('applyKind', '申请类型'),
  text('registerNo', '总登记号'),
  text('name', '藏品名称'),
  area('changes', '申请内容'),
  area('applyReason', '申请理由'),
];
export const EXTRACT_FIELDS: FormField[] = [
  text('registerNo', '总登记号'),
  text('name', '藏品名称'),
  text('images', '提取图片'),
  area('applyReason', '用途说明'),
];

async function keeperHead(db: Db): Promise<ChainNode | null> {
  const dept = (await orgRepo.allDepts(db)).find((d) => d.name === '典藏部');
  const head = await orgRepo.findRoleByCode(db, 'deptHead');
  if (!dept || !head) return null;
  return deptRoles(
    [{ deptid: dept.id, deptName: dept.name, roleid: head.id, roleName: head.name }],
    1,
    '典藏部审核',
  );
}

/** Adds whichever of the two templates is missing, published as version 1; answers their ids. */
export async function ensureCollectionTemplates(db: Db): Promise<{ data: number; extract: number }> {
  return db.transaction().execute(async (trx) => {
    const head = await keeperHead(trx);
    const author =
      (await orgRepo.findUserByAccount(trx, 'admin')) ??
      (await trx.selectFrom('user').select('id').orderBy('id').executeTakeFirst());
    const wanted = [
      {
        name: DATA_TEMPLATE,
        def: definition([head ?? superior(1)], { fields: DATA_FIELDS }),
      },
      {
        name: EXTRACT_TEMPLATE,
        def: definition(head ? [superior(1), head] : [superior(1)], { fields: EXTRACT_FIELDS }),
      },
    ];
    const ids: number[] = [];
    const now = Date.now();
    for (const t of wanted) {
      const found = await workflowRepo.templateByName(trx, t.name);
      if (found) {
        ids.push(found.id);
        continue;
      }
      const draft = JSON.stringify(t.def);
      const by = author?.id ?? null;
      const id = await workflowRepo.insertTemplate(
        trx,
        {
          name: t.name,
          icon: 'building-warehouse',
          group_name: '藏品',
          category: MODULE_CATEGORY,
          draft,
          created_by: by as number,
        },
        now,
      );
      await workflowRepo.insertVersion(
        trx,
        { template_id: id, version: 1, definition: draft, published_by: by as number },
        now,
      );
      await workflowRepo.updateTemplate(trx, id, { current_version: 1 }, now);
      ids.push(id);
    }
    return { data: ids[0]!, extract: ids[1]! };
  });
}
