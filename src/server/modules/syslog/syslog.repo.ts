import { sql, type Insertable, type SelectQueryBuilder } from 'kysely';
import { containsPattern, likeIgnoringCase } from '../../db/dialect';
import type { Db } from '../../db/index';
import type { DB, SystemLogTable } from '../../db/schema';
import type { LogFilter } from '../../../shared/api/syslog';

/**
 * SQL of the system log, and the only code that names its table (a test keeps it so). There is
 * an insert and a prune of rows older than the retention, and no update: entries are never
 * edited, and never deleted one by one.
 */

export type NewLogRow = Omit<Insertable<SystemLogTable>, 'id'>;

/** One multi-row insert per batch (the writer's batches stay under both engines' parameter limits). */
export async function insertMany(db: Db, rows: NewLogRow[]): Promise<void> {
  if (rows.length) await db.insertInto('system_log').values(rows).execute();
}

function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function filtered(db: Db, f: LogFilter): SelectQueryBuilder<DB, 'system_log', object> {
  let q = db.selectFrom('system_log');
  if (f.startTime !== undefined) q = q.where('time', '>=', f.startTime);
  if (f.endTime !== undefined) q = q.where('time', '<=', f.endTime);
  if (f.userId !== undefined) q = q.where('user_id', '=', f.userId);
  // Ignoring A–Z case on both engines (a failed sign-in's name is the account as typed).
  if (f.userName) q = q.where('user_name', likeIgnoringCase(db), containsPattern(f.userName));
  if (f.module) q = q.where('module', '=', f.module);
  if (f.action) q = q.where('action', '=', f.action);
  if (f.result !== undefined) q = q.where('result', '=', f.result);
  // IPv6 letters in either case.
  if (f.ip) q = q.where('ip', likeIgnoringCase(db), sql<string>`${`${likeEscape(f.ip)}%`} escape '\\'`);
  return q;
}

export async function count(db: Db, f: LogFilter): Promise<number> {
  const r = await filtered(db, f)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** A page, newest first (ties by id, newest first). */
export function page(db: Db, f: LogFilter, offset: number, limit: number) {
  return filtered(db, f)
    .selectAll()
    .orderBy('time', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/**
 * The rows after `after` in the list's order, `limit` at a time: the export walks the whole
 * filter this way without an offset that grows with every page.
 */
export function pageAfter(db: Db, f: LogFilter, after: { time: number; id: number } | null, limit: number) {
  let q = filtered(db, f).selectAll();
  if (after) {
    q = q.where((eb) =>
      eb.or([eb('time', '<', after.time), eb.and([eb('time', '=', after.time), eb('id', '<', after.id)])]),
    );
  }
  return q.orderBy('time', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

export function find(db: Db, id: number) {
  return db.selectFrom('system_log').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The modules the log has entries for. */
export async function modules(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('system_log').select('module').distinct().execute();
  return rows.map((r) => r.module);
}

/**
 * Deletes entries older than `before` (epoch ms), `batch` rows per statement so a long backlog
 * never holds the writer lock for long; answers how many went.
 */
export async function pruneOlderThan(db: Db, before: number, batch = 5000): Promise<number> {
  let total = 0;
  for (;;) {
    const r = await db
      .deleteFrom('system_log')
      .where('id', 'in', db.selectFrom('system_log').select('id').where('time', '<', before).limit(batch))
      .executeTakeFirst();
    const n = Number(r.numDeletedRows);
    total += n;
    if (n < batch) return total;
  }
}
