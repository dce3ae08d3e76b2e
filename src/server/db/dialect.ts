import { createRequire } from 'node:module';
import type SqliteDatabase from 'better-sqlite3';
import {
  type LimitNode,
  PostgresAdapter,
  PostgresDialect,
  sql,
  SqliteDialect,
  SqliteQueryCompiler,
  ValueNode,
  type Kysely,
  type SelectQueryBuilder,
} from 'kysely';
import type PgModule from 'pg';
import { cachingPrepare } from './statement-cache';

/** `pg`, loaded when a PostgreSQL database is opened: the embedded SQLite never needs it (issue 25). */
const loadPg = () => createRequire(import.meta.url)('pg') as typeof PgModule;

/*
 * Everything that differs between the embedded SQLite and PostgreSQL lives here (README
 * "Scale-out: PostgreSQL"). The migrations and every repo's queries are the same Kysely code on
 * both; what cannot be said the same way in both dialects is said once, in this file, and the
 * repos call it. What needs no code because both already agree is written down too, so nobody
 * adds a branch for it:
 *
 * - Times are epoch milliseconds in bigint columns, so no date functions and no time zones.
 * - Flags are integer 0/1 columns on both; never compare them with true/false.
 * - Ids come back through RETURNING on both (SQLite 3.35+), never through insertId.
 * - INSERT … ON CONFLICT (…) DO NOTHING / DO UPDATE is the same text on both.
 * - `||` concatenates and substr()/length() count characters on both. PostgreSQL resolves an
 *   untyped bound value in them (`length($1)`) as text, its preferred string type.
 * - LIKE patterns are made by `containsPattern`; case-insensitive matching by `likeIgnoringCase`.
 * - JSON is stored as text and parsed in JavaScript.
 * - Concurrency. SQLite has one writer, and Kysely runs one statement at a time on its one
 *   connection: a transaction never interleaves with another, so a read-check-write inside one
 *   is safe there for free. PostgreSQL runs transactions side by side (READ COMMITTED), so
 *   every read-check-write takes a lock first: `forUpdate` on rows that exist, `serializeOn`
 *   for a key whose row may not exist yet, or a conditional UPDATE / unique index does the
 *   check itself. The same calls are no-ops on SQLite.
 * - Comparison and ordering are bytewise on SQLite (BINARY). PostgreSQL agrees only when the
 *   database's collation is C, which checkPostgres insists on.
 */

/** True when the database is PostgreSQL (for the few places that must say things differently). */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * `pg` hands bigint (int8) and numeric values back as strings, because they may not fit a
 * JavaScript number. Ours are epoch milliseconds, byte counts, counts and sums of those: all far
 * below 2^53, and SQLite returns them as numbers. Parse them the same way, and refuse loudly
 * rather than round one that does not fit.
 */
function safeNumber(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) && Number.isInteger(n)) {
    throw new Error(`数据库返回的数值超出安全范围：${text}`);
  }
  return n;
}
const INT8 = 20;
const NUMERIC = 1700;

/**
 * SQLite's compiler, but a LIMIT of a whole number is written into the SQL (`limit 100`), not
 * bound (`limit ?`). SQLite plans with a bound LIMIT's value (sqlite3ExprIsInteger marks the
 * parameter in the statement's varmask), so binding that parameter again expires the
 * statement, and better-sqlite3 binds at every run: the statement was compiled anew at every
 * run. Measured on a page of a folder (issue 25): the same page SELECT ran in about 10 µs with
 * `limit 100` and about 30 µs with `limit ?`; a page of two parts paid it twice. OFFSET is not
 * marked so and stays bound (the page number would make a text per page). Limits are page
 * sizes, so the texts stay few and the statement cache (statement-cache.ts) keeps them.
 */
class LiteralLimitCompiler extends SqliteQueryCompiler {
  protected override visitLimit(node: LimitNode): void {
    const v = node.limit;
    if (ValueNode.is(v) && Number.isSafeInteger(v.value) && (v.value as number) >= 0) {
      this.append(`limit ${v.value as number}`);
      return;
    }
    super.visitLimit(node);
  }
}

/** The embedded database's Kysely dialect: prepared statements cached, LIMITs written in. */
export function sqliteDialect(sqlite: SqliteDatabase.Database): SqliteDialect {
  return new (class extends SqliteDialect {
    override createQueryCompiler() {
      return new LiteralLimitCompiler();
    }
  })({ database: cachingPrepare(sqlite) });
}

/**
 * Kysely's PostgreSQL dialect over a `pg` pool of at most `max` connections, sending its
 * statements as prepared ones unless `prepared` is false (see preparedStatements).
 */
export function postgresDialect(connectionString: string, max: number, prepared = true): PostgresDialect {
  const pg = loadPg();
  const pool = new pg.Pool({
    connectionString,
    max,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8 || oid === NUMERIC
          ? safeNumber
          : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle connection that the server drops (a restart, a failover) emits 'error' on the
  // pool; unhandled it would end the process. The pool replaces it on the next query.
  pool.on('error', (err) => console.error(`PostgreSQL 连接中断：${err.message}`));
  if (prepared) preparedStatements(pool);
  return new PostgresDialect({ pool });
}

/** The statements PostgreSQL can prepare; anything else (BEGIN, SET, DDL) goes as it is. */
const PREPARABLE = /^\s*(?:select|insert|update|delete|with)\b/i;

/**
 * Sends each connection's recurring statements as named (prepared) ones. An unnamed statement
 * is parsed and planned at every call; a named one is parsed once per connection, and after a
 * few runs PostgreSQL reuses a generic plan when its estimates show the plan does not depend on
 * the values (plan_cache_mode auto, what PgJDBC's prepareThreshold relies on as well). Every
 * signed-in call runs three or four small statements, so planning was most of their cost: a
 * one-entry folder's listing went from about 2.4 to 1.4 ms p50 (issue 25).
 *
 * - A text is named the second time it is seen, and at most `maxNames` texts are: each is held
 *   by every connection of every instance, and texts such as `in (…)` lists of each length
 *   would otherwise keep adding to the server's memory. Texts past the limit go unnamed.
 * - A schema change (another instance's migration) can leave a connection's prepared statement
 *   with a plan that no longer fits, which PostgreSQL refuses (0A000, cached plan must not change
 *   result type). The text is then named anew, so it is parsed again, and the call sent once more.
 * - A transaction-pooling PgBouncer older than 1.21 cannot carry named statements across its
 *   connections: DATABASE_PREPARED=0 turns this off (README "Scale-out: PostgreSQL").
 */
export function preparedStatements(pool: PgModule.Pool, maxNames = 500): void {
  const names = new Map<string, string>();
  // Texts seen once, not yet named; forgotten in bulk, since a text seen once may never recur.
  const seenOnce = new Set<string>();
  let counter = 0;
  const nameFor = (text: string): string | undefined => {
    const known = names.get(text);
    if (known || !PREPARABLE.test(text)) return known;
    if (!seenOnce.has(text)) {
      if (seenOnce.size >= 10 * maxNames) seenOnce.clear();
      seenOnce.add(text);
      return undefined;
    }
    if (names.size >= maxNames) return undefined;
    seenOnce.delete(text);
    const name = `gwy_${++counter}`;
    names.set(text, name);
    return name;
  };
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...a: unknown[]) => Promise<unknown>;
    // Only the shape Kysely sends, (text, values): cursors, callbacks and configs pass through.
    client.query = ((...a: unknown[]) => {
      const [text, values] = a;
      const name = a.length === 2 && typeof text === 'string' && Array.isArray(values) && nameFor(text);
      if (!name) return query(...a);
      return query({ name, text, values }).catch((err: unknown) => {
        if ((err as { code?: unknown }).code !== '0A000') throw err;
        // Every connection holds the old name with its stale plan: a new name is parsed afresh.
        if (names.get(text as string) === name) names.set(text as string, `gwy_${++counter}`);
        return query({ name: names.get(text as string), text, values });
      });
    }) as typeof client.query;
  });
}

/**
 * Refuses a PostgreSQL database this server cannot serve the same way as SQLite, before any
 * migration touches it: names are compared and ordered bytewise (the folder listing's order,
 * the `name(1)` clash rule's range on the unique name index), and lower()/ILIKE fold only ASCII
 * letters, as in SQLite, only under the C collation; and text must be UTF-8.
 */
export async function checkPostgres(db: Kysely<any>): Promise<void> {
  let row: { encoding: string; collate: string; ctype: string } | undefined;
  try {
    row = (
      await sql<{ encoding: string; collate: string; ctype: string }>`
        select pg_encoding_to_char(encoding) as encoding, datcollate as collate, datctype as ctype
        from pg_database where datname = current_database()`.execute(db)
    ).rows[0];
  } catch (err) {
    throw new Error(`无法连接 PostgreSQL（DATABASE_URL）：${err instanceof Error ? err.message : err}`, {
      cause: err,
    });
  }
  if (!row) throw new Error('无法读取 PostgreSQL 数据库的编码设置');
  const isC = (v: string) => v === 'C' || v === 'POSIX';
  if (row.encoding !== 'UTF8' || !isC(row.collate) || !isC(row.ctype)) {
    throw new Error(
      `PostgreSQL 数据库的编码为 ${row.encoding}、排序规则为 ${row.collate}/${row.ctype}；馆务云需要 UTF8 编码和 C 排序规则。` +
        `请这样创建数据库：CREATE DATABASE 库名 OWNER 用户名 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;`,
    );
  }
}

/**
 * The LIKE pattern "contains `keyword`" with its wildcards and the escape character escaped,
 * and the escape clause both engines need (PostgreSQL's default escape is the backslash,
 * SQLite has none unless told).
 */
export function containsPattern(keyword: string) {
  return sql<string>`${`%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`;
}

/**
 * The operator for "contains, ignoring ASCII case" with a LIKE pattern: SQLite's LIKE already
 * ignores ASCII case; PostgreSQL's LIKE does not, its ILIKE does (and under the C collation,
 * which checkPostgres requires, folds ASCII only, exactly as SQLite).
 */
export function likeIgnoringCase(db: Kysely<any>): 'like' | 'ilike' {
  return isPostgres(db) ? 'ilike' : 'like';
}

/**
 * True for a unique or primary-key violation: a unique index caught a race that a service's
 * own check could not (two saves at once), on either engine.
 */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/**
 * The rows a SELECT reads, locked until the transaction ends, so a check made on them still
 * holds when the transaction writes. PostgreSQL: FOR NO KEY UPDATE, the lock an UPDATE of the
 * row takes: two of them wait for each other, but rows that merely reference the locked one
 * (a comment of a request, a notice of a person) can still be inserted meanwhile, which plain
 * FOR UPDATE would hold up. SQLite has no such clause and needs none (see Concurrency above).
 */
export function forUpdate<DB, TB extends keyof DB, O>(
  db: Kysely<any>,
  qb: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return isPostgres(db) ? qb.forNoKeyUpdate() : qb;
}

/**
 * Makes transactions that name the same key run one after another, until this one ends: for
 * read-check-writes of a row that may not exist yet (a first failed sign-in, an idempotency
 * key). PostgreSQL: transaction-scoped advisory locks on a 64-bit hash of each key, taken in
 * sorted order so two callers never wait on each other crosswise. A hash collision only makes
 * two unrelated callers wait in turn. SQLite: nothing to do (see Concurrency above).
 */
export async function serializeOn(trx: Kysely<any>, keys: readonly string[]): Promise<void> {
  if (!isPostgres(trx)) return;
  for (const key of [...new Set(keys)].sort()) {
    await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
  }
}

/**
 * True when the database gave up on a transaction because of another one running at the same
 * time: PostgreSQL's deadlock (40P01; it aborts one side of a lock cycle), serialization
 * failure (40001) or lock wait refused (55P03), or SQLite still busy after its busy timeout.
 * Nothing of the transaction was written, so the caller may simply try again.
 */
export function isLockConflict(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001' || code === '55P03' || code === 'SQLITE_BUSY';
}
