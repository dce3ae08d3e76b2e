import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Field, RecordDef, Row } from '../../shared/records/define';
import { containsPattern, likeIgnoringCase } from '../db/dialect';
import type { Db } from '../db/index';

/**
 * The records engine's SQL, for every record alike (ARCHITECTURE.md §9). Tables come from the
 * definitions, so queries here are built on `Kysely<any>`; column names are the field keys in
 * snake_case (dutyDate → duty_date). Every read takes the caller's scope as conditions and puts
 * them in the WHERE clause: rows a person may not see are never fetched, so they can never be
 * "filtered afterwards" by mistake (ARCHITECTURE.md §4).
 *
 * Portable across SQLite and PostgreSQL: no dialect functions; numbers are read through
 * Number() (PostgreSQL answers bigint as text); a list of people (or of uploads) is stored
 * as ',3,5,' so "contains 5" is LIKE '%,5,%' (refs, rows of another record, too); a list
 * field's rows are JSON text.
 */

type Any = Kysely<any>;
const q = (db: Db): Any => db as unknown as Any;

const BASE: Record<string, string> = {
  id: 'id',
  createTime: 'create_time',
  createBy: 'create_by',
  updateTime: 'update_time',
  updateBy: 'update_by',
};

/** The column of a field key (or a base key). */
export function col(key: string): string {
  return BASE[key] ?? key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** A condition on one field, as the service builds them from filters and scopes. */
export type Cond =
  | { field: string; op: 'eq' | 'gte' | 'lte' | 'ne'; value: unknown }
  | { field: string; op: 'in'; value: readonly unknown[] }
  | { field: string; op: 'contains'; value: number }
  | { op: 'keyword'; fields: readonly string[]; value: string };

const NUMERIC = new Set(['int', 'money', 'datetime', 'status', 'user', 'dept', 'ref']);
/** Kinds stored as a list of ids, ',3,5,'. */
const ID_LISTS = new Set(['users', 'refs', 'file', 'image']);

/** A list field's JSON, or no rows when it cannot be read. */
function rowsOfJson(v: unknown): Record<string, unknown>[] {
  try {
    const rows = JSON.parse(String(v)) as unknown;
    return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
  } catch {
    return [];
  }
}

/** A stored value as the API answers it. */
function decode(fd: Field, v: unknown): unknown {
  if (v === null || v === undefined) return ID_LISTS.has(fd.kind) || fd.kind === 'list' ? [] : null;
  switch (fd.kind) {
    case 'users':
    case 'refs':
    case 'file':
    case 'image':
      return String(v).split(',').filter(Boolean).map(Number);
    case 'list':
      return rowsOfJson(v);
    case 'bool':
      return Number(v) === 1;
    case 'money':
      return Number(v) / 100;
    default:
      return NUMERIC.has(fd.kind) ? Number(v) : v;
  }
}

/** A value as it is stored; undefined (an optional field left empty) stores the field's empty. */
export function encode(fd: Field, v: unknown): unknown {
  const value = v === undefined ? (fd.initial !== undefined ? fd.initial : fd.empty) : v;
  switch (fd.kind) {
    case 'users':
    case 'refs':
    case 'file':
    case 'image': {
      const ids = (value as number[]) ?? [];
      return ids.length ? `,${ids.join(',')},` : '';
    }
    case 'list':
      return JSON.stringify(value ?? []);
    case 'bool':
      return value ? 1 : 0;
    case 'money':
      return value === null ? null : Math.round(Number(value) * 100);
    default:
      return value;
  }
}

export function toRow(def: RecordDef, r: Record<string, unknown>): Row {
  const row: Record<string, unknown> = {
    id: Number(r.id),
    createTime: Number(r.create_time),
    createBy: r.create_by === null ? null : Number(r.create_by),
    updateTime: Number(r.update_time),
    updateBy: r.update_by === null ? null : Number(r.update_by),
  };
  for (const [key, fd] of Object.entries(def.fields)) row[key] = decode(fd, r[col(key)]);
  return row as Row;
}

function columnsOf(def: RecordDef, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(values)) {
    const fd = def.fields[key];
    if (fd) out[col(key)] = encode(fd, v);
  }
  return out;
}

function where<T extends SelectQueryBuilder<any, any, any>>(
  db: Db,
  def: RecordDef,
  qb: T,
  conds: readonly Cond[],
): T {
  let b = qb.where('del_flag', '=', 0) as T;
  for (const c of conds) {
    if (c.op === 'keyword') {
      // Latin letters match in either case on both engines, as SQLite's LIKE does.
      const op = likeIgnoringCase(db);
      b = b.where((eb) => eb.or(c.fields.map((k) => eb(col(k), op, containsPattern(c.value))))) as T;
      continue;
    }
    const fd = def.fields[c.field];
    const column = col(c.field);
    if (c.op === 'contains') b = b.where(column, 'like', `%,${c.value},%`) as T;
    else if (c.op === 'in')
      b = (
        c.value.length
          ? b.where(
              column,
              'in',
              c.value.map((v) => (fd ? encode(fd, v) : v)),
            )
          : b.where(sql<boolean>`1 = 0`)
      ) as T;
    else {
      const value = fd ? encode(fd, c.value) : c.value;
      const op = { eq: '=', ne: '!=', gte: '>=', lte: '<=' }[c.op];
      b = (
        value === null && c.op === 'eq' ? b.where(column, 'is', null) : b.where(column, op as '=', value)
      ) as T;
    }
  }
  return b;
}

/** One page of rows in the given order (nulls last on both engines), and how many there are. */
export async function list(
  db: Db,
  def: RecordDef,
  conds: readonly Cond[],
  order: readonly (readonly [string, 'asc' | 'desc'])[],
  page: { currentPage: number; pageCount: number },
): Promise<{ rows: Row[]; total: number }> {
  const base = where(db, def, q(db).selectFrom(def.table), conds);
  const total = Number(
    (await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
  );
  let b = base.selectAll();
  for (const [key, dir] of order) {
    const column = col(key);
    if (def.fields[key] && def.fields[key]!.kind !== 'date')
      b = b.orderBy(sql`case when ${sql.ref(column)} is null then 1 else 0 end`);
    b = b.orderBy(column, dir);
  }
  const rows = await b
    .orderBy('id', 'asc')
    .limit(page.pageCount)
    .offset((page.currentPage - 1) * page.pageCount)
    .execute();
  return { rows: rows.map((r) => toRow(def, r)), total };
}

/** Rows per value of `field` under the conditions (the quick-count tabs). */
export async function countBy(db: Db, def: RecordDef, conds: readonly Cond[], field: string) {
  const column = col(field);
  const rows = await where(db, def, q(db).selectFrom(def.table), conds)
    .select([column, (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy(column)
    .execute();
  return rows.map((r) => ({ value: r[column] as unknown, count: Number(r.n) }));
}

export async function count(db: Db, def: RecordDef, conds: readonly Cond[]): Promise<number> {
  const r = await where(db, def, q(db).selectFrom(def.table), conds)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Every row matching the conditions (peers of a rule, a unique check, an export), in order. */
export async function findAll(
  db: Db,
  def: RecordDef,
  conds: readonly Cond[],
  limit = 10_000,
): Promise<Row[]> {
  let b = where(db, def, q(db).selectFrom(def.table), conds).selectAll();
  for (const [key, dir] of def.order) b = b.orderBy(col(key), dir);
  const rows = await b.orderBy('id', 'asc').limit(limit).execute();
  return rows.map((r) => toRow(def, r));
}

/** The most values one `IN (…)` list carries (SQLite and PostgreSQL both take far more). */
const IN_CHUNK = 900;

/**
 * Every row whose `field` holds one of `values`, under `conds`: one query per 900 values (an
 * import's checks read what a whole file refers to at once).
 */
export async function findAllIn(
  db: Db,
  def: RecordDef,
  field: string,
  values: readonly unknown[],
  conds: readonly Cond[] = [],
): Promise<Row[]> {
  const distinct = [...new Set(values)];
  const out: Row[] = [];
  for (let i = 0; i < distinct.length; i += IN_CHUNK)
    out.push(
      ...(await findAll(
        db,
        def,
        [...conds, { field, op: 'in', value: distinct.slice(i, i + IN_CHUNK) }],
        1_000_000,
      )),
    );
  return out;
}

export async function find(db: Db, def: RecordDef, id: number, conds: readonly Cond[] = []) {
  const r = await where(db, def, q(db).selectFrom(def.table), conds)
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  return r ? toRow(def, r) : undefined;
}

export async function insert(
  db: Db,
  def: RecordDef,
  values: Record<string, unknown>,
  actorId: number | null,
  now: number,
): Promise<number> {
  const all: Record<string, unknown> = {};
  for (const key of Object.keys(def.fields)) all[key] = values[key];
  const r = await q(db)
    .insertInto(def.table)
    .values({
      ...columnsOf(def, all),
      create_time: now,
      create_by: actorId,
      update_time: now,
      update_by: actorId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

/**
 * Inserts many rows, 100 to a statement; answers their ids in the order given. (Ids are taken
 * in row order within a statement, so the ids a statement returns, sorted, are its rows'.)
 */
export async function insertMany(
  db: Db,
  def: RecordDef,
  rows: readonly Record<string, unknown>[],
  actorId: number | null,
  now: number,
): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 100) {
    const values = rows.slice(i, i + 100).map((values) => {
      const all: Record<string, unknown> = {};
      for (const key of Object.keys(def.fields)) all[key] = values[key];
      return {
        ...columnsOf(def, all),
        create_time: now,
        create_by: actorId,
        update_time: now,
        update_by: actorId,
      };
    });
    const r = await q(db).insertInto(def.table).values(values).returning('id').execute();
    ids.push(...r.map((x) => Number(x.id)).sort((a, b) => a - b));
  }
  return ids;
}

/** Changes the given fields of a live row; answers the rows changed (0: gone). */
export async function update(
  db: Db,
  def: RecordDef,
  id: number,
  values: Record<string, unknown>,
  actorId: number | null,
  now: number,
): Promise<number> {
  const r = await q(db)
    .updateTable(def.table)
    .set({ ...columnsOf(def, values), update_time: now, update_by: actorId })
    .where('id', '=', id)
    .where('del_flag', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * Moves a row's status only if it still holds one of `from` (one conditional UPDATE: two people
 * acting at once cannot both move it). Answers 0 when the status has changed meanwhile.
 */
export async function moveStatus(
  db: Db,
  def: RecordDef,
  id: number,
  from: readonly number[],
  values: Record<string, unknown>,
  actorId: number | null,
  now: number,
): Promise<number> {
  const r = await q(db)
    .updateTable(def.table)
    .set({ ...columnsOf(def, values), update_time: now, update_by: actorId })
    .where('id', '=', id)
    .where('del_flag', '=', 0)
    .where(col(def.status!.field), 'in', [...from])
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function remove(db: Db, def: RecordDef, id: number, actorId: number | null, now: number) {
  if (def.softDelete) {
    const r = await q(db)
      .updateTable(def.table)
      .set({ del_flag: 1, update_time: now, update_by: actorId })
      .where('id', '=', id)
      .where('del_flag', '=', 0)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }
  const r = await q(db)
    .deleteFrom(def.table)
    .where('id', '=', id)
    .where('del_flag', '=', 0)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Deletes a log's rows made before `before` (records-design §2 E retention); answers how many. */
export async function pruneOlderThan(db: Db, def: RecordDef, before: number): Promise<number> {
  const r = await q(db).deleteFrom(def.table).where('create_time', '<', before).executeTakeFirst();
  return Number(r.numDeletedRows);
}

export interface StatusLogLine {
  table: string;
  recordId: number;
  action: string;
  from: number | null;
  to: number;
  operatorId: number | null;
  comment: string;
  time: number;
}

/** Appends lines to records' status history (bsStatusLog), 200 to a statement. */
export async function logStatus(db: Db, ...lines: StatusLogLine[]) {
  for (let i = 0; i < lines.length; i += 200)
    await db
      .insertInto('bs_status_log')
      .values(
        lines.slice(i, i + 200).map((line) => ({
          table_name: line.table,
          record_id: line.recordId,
          action: line.action,
          from_status: line.from,
          to_status: line.to,
          operator_id: line.operatorId,
          comment: line.comment,
          time: line.time,
        })),
      )
      .execute();
}

export async function statusLog(db: Db, table: string, recordId: number) {
  return db
    .selectFrom('bs_status_log')
    .leftJoin('user', 'user.id', 'bs_status_log.operator_id')
    .select([
      'bs_status_log.id',
      'bs_status_log.action',
      'bs_status_log.from_status',
      'bs_status_log.to_status',
      'bs_status_log.operator_id',
      'user.user_name',
      'bs_status_log.comment',
      'bs_status_log.time',
    ])
    .where('table_name', '=', table)
    .where('record_id', '=', recordId)
    .orderBy('bs_status_log.id', 'asc')
    .execute();
}

/**
 * The row next to `row` in sort order within its scope, above (`up`) or below it: the one a
 * move swaps places with.
 */
export async function neighbour(
  db: Db,
  def: RecordDef,
  row: Row,
  dir: 'up' | 'down',
  scope: readonly Cond[],
): Promise<Row | undefined> {
  const sortCol = col(def.sortable!.field);
  const mine = encode(def.fields[def.sortable!.field]!, row[def.sortable!.field]) ?? 0;
  const before = dir === 'up';
  const cmp = before ? '<' : '>';
  const r = await where(db, def, q(db).selectFrom(def.table), scope)
    .selectAll()
    .where((eb) =>
      eb.or([
        eb(sql`coalesce(${sql.ref(sortCol)}, 0)`, cmp, mine),
        eb.and([eb(sql`coalesce(${sql.ref(sortCol)}, 0)`, '=', mine), eb('id', cmp, row.id)]),
      ]),
    )
    .orderBy(sql`coalesce(${sql.ref(sortCol)}, 0)`, before ? 'desc' : 'asc')
    .orderBy('id', before ? 'desc' : 'asc')
    .limit(1)
    .executeTakeFirst();
  return r ? toRow(def, r) : undefined;
}

/**
 * Takes `n` places from a capacity row (records-design §2 C) with one conditional UPDATE, in the
 * caller's transaction: it succeeds only while the row is open and has the places, so two
 * bookings at once can never oversell, on SQLite or PostgreSQL. Answers whether it did.
 */
export async function reserve(db: Db, capacityTable: string, id: number, n: number): Promise<boolean> {
  const r = await q(db)
    .updateTable(capacityTable)
    .set({ used: sql`used + ${n}` })
    .where('id', '=', id)
    .where('open', '=', 1)
    .where(sql<boolean>`total - used >= ${n}`)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Gives `n` places back (a cancel, a refusal, an expiry); never below zero. */
export async function release(db: Db, capacityTable: string, id: number, n: number): Promise<void> {
  await q(db)
    .updateTable(capacityTable)
    .set({ used: sql`case when used >= ${n} then used - ${n} else 0 end` })
    .where('id', '=', id)
    .execute();
}

/** Names of people and departments, for list answers and messages. */
export async function names(db: Db, userIds: readonly number[], deptIds: readonly number[]) {
  const [users, depts] = await Promise.all([
    userIds.length
      ? db
          .selectFrom('user')
          .select(['id', 'user_name', 'enabled'])
          .where('id', 'in', [...userIds])
          .execute()
      : [],
    deptIds.length
      ? db
          .selectFrom('department')
          .select(['id', 'name'])
          .where('id', 'in', [...deptIds])
          .execute()
      : [],
  ]);
  return {
    users: users.map((u) => ({ id: Number(u.id), name: u.user_name, enabled: Number(u.enabled) === 1 })),
    depts: depts.map((d) => ({ id: Number(d.id), name: d.name })),
  };
}

/** Enabled accounts by name or phone, for the import's "张三" or "13800000001" cells. */
export async function usersByNameOrPhone(db: Db, words: readonly string[]) {
  if (!words.length) return [];
  return db
    .selectFrom('user')
    .select(['id', 'user_name', 'phone'])
    .where('enabled', '=', 1)
    .where((eb) => eb.or([eb('user_name', 'in', [...words]), eb('phone', 'in', [...words])]))
    .execute();
}

/** The departments a person belongs to (the scope of records owned by departments). */
export async function deptIdsOfUser(db: Db, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('user_department')
    .select('dept_id')
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => Number(r.dept_id));
}

export async function departmentsByName(db: Db, words: readonly string[]) {
  if (!words.length) return [];
  return db
    .selectFrom('department')
    .select(['id', 'name'])
    .where('name', 'in', [...words])
    .execute();
}

// Dictionaries -----------------------------------------------------------------------------------

/** The items of dictionaries, in order (sort, then id); `enabledOnly` for the option lists. */
export async function dictItems(db: Db, keys: readonly string[], enabledOnly: boolean) {
  if (!keys.length) return [];
  let b = db
    .selectFrom('dict_item')
    .select(['dict_key', 'label', 'value', 'parent_value', 'status'])
    .where('dict_key', 'in', [...keys])
    .where('del_flag', '=', 0);
  if (enabledOnly) b = b.where('status', '=', 1);
  return b
    .orderBy(sql`case when sort is null then 1 else 0 end`)
    .orderBy('sort')
    .orderBy('id')
    .execute();
}

export async function dictTypeKeys(db: Db): Promise<Set<string>> {
  const rows = await db.selectFrom('dict_type').select('dict_key').execute();
  return new Set(rows.map((r) => r.dict_key));
}

export async function dictItemKeys(db: Db): Promise<Set<string>> {
  const rows = await db.selectFrom('dict_item').select(['dict_key', 'value']).execute();
  return new Set(rows.map((r) => `${r.dict_key}\u0000${r.value}`));
}

export async function insertDictType(
  db: Db,
  row: { dict_key: string; dict_name: string; remark: string },
  now: number,
) {
  await db
    .insertInto('dict_type')
    .values({ ...row, is_system: 1, create_time: now, update_time: now, create_by: null, update_by: null })
    .execute();
}

export async function insertDictItem(
  db: Db,
  row: { dict_key: string; label: string; value: string; parent_value: string; sort: number },
  now: number,
) {
  await db
    .insertInto('dict_item')
    .values({
      ...row,
      status: 1,
      is_system: 1,
      create_time: now,
      update_time: now,
      create_by: null,
      update_by: null,
    })
    .execute();
}
