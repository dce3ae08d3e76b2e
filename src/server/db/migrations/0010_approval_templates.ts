import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/*
 * FROZEN. Approval templates and their published workflow versions (issue 8). Portable across
 * SQLite and PostgreSQL. Times are epoch ms.
 *
 * - approval_template: what 发起审批 offers: name, icon, group, category ('normal' 普通审批 or
 *   'gongwen' 公文), `enabled`, `sort`; `draft` is the definition being designed (JSON of
 *   shared/workflow/definition.ts: form fields, starter scope, node tree); `current_version`
 *   is the published version new requests start on, null until the first publish.
 * - workflow_version: each publish freezes the draft as a new numbered version. A running
 *   request keeps the version it started with; versions are never changed or deleted while a
 *   template exists.
 */
function id(db: Kysely<any>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('approval_template')
    .addColumn('id', 'integer', id(db))
    .addColumn('name', 'varchar(30)', (c) => c.notNull().unique())
    .addColumn('icon', 'varchar(40)', (c) => c.notNull().defaultTo(''))
    .addColumn('group_name', 'varchar(30)', (c) => c.notNull().defaultTo(''))
    .addColumn('category', 'varchar(10)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('draft', 'text', (c) => c.notNull())
    .addColumn('current_version', 'integer')
    .addColumn('created_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('workflow_version')
    .addColumn('id', 'integer', id(db))
    .addColumn('template_id', 'integer', (c) =>
      c.notNull().references('approval_template.id').onDelete('cascade'),
    )
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('published_by', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('published_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('workflow_version_once', ['template_id', 'version'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('workflow_version').execute();
  await db.schema.dropTable('approval_template').execute();
}
