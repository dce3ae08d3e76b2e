import type { Db } from '../../db/index';

/** SQL of the workflow module: the organisation as approvals see it. */

/** Every enabled person with what routing needs: superior, departments and roles. */
export async function orgRows(db: Db) {
  const [users, memberships, roles, depts] = await Promise.all([
    db
      .selectFrom('user')
      .select(['id', 'user_name', 'avatar', 'superior_id'])
      .where('enabled', '=', 1)
      .orderBy('id')
      .execute(),
    db.selectFrom('user_department').select(['user_id', 'dept_id']).execute(),
    db
      .selectFrom('user_role')
      .innerJoin('role', 'role.id', 'user_role.role_id')
      .select(['user_role.user_id', 'role.id as role_id', 'role.code', 'role.name'])
      .execute(),
    db
      .selectFrom('department')
      .select(['id', 'name', 'parent_id', 'sort'])
      .orderBy('sort')
      .orderBy('id')
      .execute(),
  ]);
  return { users, memberships, roles, depts };
}

/** Every role, for the department-role picker. */
export function allRoles(db: Db) {
  return db.selectFrom('role').select(['id', 'name', 'code']).orderBy('id').execute();
}

// ---------------------------------------------------------------- templates

export type TemplateRecord = Awaited<ReturnType<typeof templates>>[number];

/** Every template with its published definition, in 审批设置 order. */
export function templates(db: Db) {
  return db
    .selectFrom('approval_template as t')
    .leftJoin('workflow_version as v', (j) =>
      j.onRef('v.template_id', '=', 't.id').onRef('v.version', '=', 't.current_version'),
    )
    .selectAll('t')
    .select('v.definition as published')
    .orderBy('t.sort')
    .orderBy('t.id')
    .execute();
}

export function templateById(db: Db, id: number) {
  return db
    .selectFrom('approval_template as t')
    .leftJoin('workflow_version as v', (j) =>
      j.onRef('v.template_id', '=', 't.id').onRef('v.version', '=', 't.current_version'),
    )
    .selectAll('t')
    .select('v.definition as published')
    .where('t.id', '=', id)
    .executeTakeFirst();
}

export function templateByName(db: Db, name: string) {
  return db.selectFrom('approval_template').select('id').where('name', '=', name).executeTakeFirst();
}

export async function insertTemplate(
  db: Db,
  row: {
    name: string;
    icon: string;
    group_name: string;
    category: string;
    draft: string;
    created_by: number;
  },
  now: number,
) {
  const r = await db
    .insertInto('approval_template')
    .values({ ...row, enabled: 1, sort: 0, current_version: null, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export function updateTemplate(
  db: Db,
  id: number,
  set: Partial<{
    name: string;
    icon: string;
    group_name: string;
    category: string;
    draft: string;
    enabled: number;
    current_version: number;
  }>,
  now: number,
) {
  return db
    .updateTable('approval_template')
    .set({ ...set, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function lastVersion(db: Db, templateId: number): Promise<number> {
  const r = await db
    .selectFrom('workflow_version')
    .select((eb) => eb.fn.max('version').as('v'))
    .where('template_id', '=', templateId)
    .executeTakeFirst();
  return Number(r?.v ?? 0);
}

export function insertVersion(
  db: Db,
  row: { template_id: number; version: number; definition: string; published_by: number },
  now: number,
) {
  return db
    .insertInto('workflow_version')
    .values({ ...row, published_at: now })
    .execute();
}

/** One published version, as a running request reads it. */
export function versionOf(db: Db, templateId: number, version: number) {
  return db
    .selectFrom('workflow_version')
    .select(['definition', 'version'])
    .where('template_id', '=', templateId)
    .where('version', '=', version)
    .executeTakeFirst();
}
