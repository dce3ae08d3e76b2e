import type { Kysely } from 'kysely';

/*
 * FROZEN. The visitor's side of reservations (issue 21; README "Visitor reservations" › "The
 * visitor's side"): one-time codes by phone, visitor sessions, and the visitors' own
 * Idempotency-Keys (the general table is keyed by a staff user id).
 *
 * - appoint_visitor_code: one live code per phone, stored as an HMAC (never the digits), with its
 *   expiry, the wrong tries so far, when it was sent (the 60 s resend wait) and the day's count.
 * - appoint_visitor_session: a visitor session by the SHA-256 of its token, scoped to one phone.
 * - appoint_visitor_request: a visitor's booking answer by (phone, key), replayed for the same key.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('appoint_visitor_code')
    .addColumn('phone', 'varchar(11)', (c) => c.primaryKey())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sent_at', 'bigint', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('day_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('appoint_visitor_session')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('phone', 'varchar(11)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('appoint_visitor_session_expires_idx')
    .on('appoint_visitor_session')
    .column('expires_at')
    .execute();
  await db.schema
    .createTable('appoint_visitor_request')
    .addColumn('phone', 'varchar(11)', (c) => c.notNull())
    .addColumn('idem_key', 'varchar(100)', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(300)', (c) => c.notNull())
    .addColumn('response', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('appoint_visitor_request_pk', ['phone', 'idem_key'])
    .execute();
  await db.schema
    .createIndex('appoint_visitor_request_created_idx')
    .on('appoint_visitor_request')
    .column('created_at')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['appoint_visitor_request', 'appoint_visitor_session', 'appoint_visitor_code'])
    await db.schema.dropTable(t).execute();
}
