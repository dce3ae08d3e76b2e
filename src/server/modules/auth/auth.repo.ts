import { serializeOn } from '../../db/dialect';
import type { Db } from '../../db/index';
import { queryTemplate } from '../../db/query-template';

/** SQL for sessions, sign-in throttling and the user lookups sign-in needs. */

export function findUserForLogin(db: Db, username: string) {
  return (
    db
      .selectFrom('user')
      .selectAll()
      // Accounts are case-insensitive: `Staff01` signs in as `staff01`.
      .where((eb) =>
        eb.or([eb(eb.fn('lower', ['account']), '=', username.toLowerCase()), eb('phone', '=', username)]),
      )
      .executeTakeFirst()
  );
}

export function findUserById(db: Db, id: number) {
  return db.selectFrom('user').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function rolesOf(db: Db, userId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('user_role')
    .innerJoin('role', 'role.id', 'user_role.role_id')
    .select('role.code')
    .where('user_role.user_id', '=', userId)
    .orderBy('role.id')
    .execute();
  return rows.map((r) => r.code);
}

export async function roleNamesOf(db: Db, roleCodes: string[]): Promise<string[]> {
  if (roleCodes.length === 0) return [];
  const rows = await db.selectFrom('role').select(['code', 'name']).where('code', 'in', roleCodes).execute();
  return roleCodes.map((c) => rows.find((r) => r.code === c)?.name ?? c);
}

export async function menuKeysOfRoles(db: Db, roleCodes: string[]): Promise<string[]> {
  if (roleCodes.length === 0) return [];
  const rows = await db
    .selectFrom('role_menu')
    .innerJoin('role', 'role.id', 'role_menu.role_id')
    .select('role_menu.menu_key')
    .distinct()
    .where('role.code', 'in', roleCodes)
    .execute();
  return rows.map((r) => r.menu_key);
}

export async function departmentsOf(db: Db, userId: number) {
  return db
    .selectFrom('user_department')
    .innerJoin('department', 'department.id', 'user_department.dept_id')
    .select(['department.id', 'department.name'])
    .where('user_department.user_id', '=', userId)
    .orderBy('department.sort')
    .orderBy('department.id')
    .execute();
}

export async function insertSession(
  db: Db,
  row: { token_hash: string; user_id: number; created_at: number; expires_at: number; ip: string },
) {
  await db.insertInto('session').values(row).execute();
}

/**
 * The session, its person and their role codes (one row per role): read at every signed-in
 * call, so compiled once (query-template.ts) rather than built by Kysely each time, which cost
 * about 25–45 µs of a call where SQLite answers in about 10.
 */
const sessionRows = queryTemplate((db, _shape: Record<string, never>, v: { tokenHash: string }) =>
  db
    .selectFrom('session')
    .innerJoin('user', 'user.id', 'session.user_id')
    .leftJoin('user_role', 'user_role.user_id', 'user.id')
    .leftJoin('role', 'role.id', 'user_role.role_id')
    .select([
      'session.user_id',
      'session.expires_at',
      'user.enabled',
      'user.account',
      'user.user_name',
      'role.code',
    ])
    .where('session.token_hash', '=', v.tokenHash)
    .orderBy('role.id'),
);

/**
 * A session, its person and their role codes (ordered as rolesOf), in one indexed read: every
 * signed-in call starts with it, and on PostgreSQL each statement is a round trip (issue 25).
 * One row per role, or one with a null code for a person without any.
 */
export async function findSession(db: Db, tokenHash: string) {
  const rows = await sessionRows(db, {}, { tokenHash });
  const first = rows[0];
  if (!first) return undefined;
  return {
    user_id: first.user_id,
    expires_at: first.expires_at,
    enabled: first.enabled,
    account: first.account,
    user_name: first.user_name,
    roles: rows.flatMap((r) => (r.code === null ? [] : [r.code])),
  };
}

export async function deleteSession(db: Db, tokenHash: string) {
  await db.deleteFrom('session').where('token_hash', '=', tokenHash).execute();
}

/**
 * Ends every session of a user and revokes their app passwords (WebDAV clients): password
 * change, reset, or the account being disabled. An app password is a standing way in, so it
 * must not outlive the password that made it (someone who got in once could otherwise keep a
 * door open after the owner changed their password).
 */
export async function deleteSessionsOfUser(db: Db, userId: number) {
  await db.deleteFrom('session').where('user_id', '=', userId).execute();
  await db
    .updateTable('app_password')
    .set({ revoked_at: Date.now() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function deleteExpiredSessions(db: Db, now: number) {
  await db.deleteFrom('session').where('expires_at', '<=', now).execute();
}

/**
 * Holds the sign-in counters of these keys for the rest of the transaction, so two parallel
 * attempts cannot both read the same count and write the same count + 1 (PostgreSQL; SQLite's
 * one writer serialises them already). A key's row may not exist yet, so a row lock will not do.
 */
export function lockAttempts(db: Db, keys: string[]) {
  return serializeOn(
    db,
    keys.map((k) => `login_attempt:${k}`),
  );
}

export function getAttempt(db: Db, key: string) {
  return db.selectFrom('login_attempt').selectAll().where('key', '=', key).executeTakeFirst();
}

export async function putAttempt(db: Db, key: string, failures: number, lockedUntil: number, now: number) {
  await db
    .insertInto('login_attempt')
    .values({ key, failures, locked_until: lockedUntil, updated_at: now })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({ failures, locked_until: lockedUntil, updated_at: now }),
    )
    .execute();
}

export async function clearAttempt(db: Db, key: string) {
  await db.deleteFrom('login_attempt').where('key', '=', key).execute();
}
