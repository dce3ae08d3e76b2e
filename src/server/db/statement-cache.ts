import type SqliteDatabase from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase } from 'kysely';

/**
 * Kysely's SQLite driver prepares every query it runs (`db.prepare(sql)`), and compiling a
 * statement costs more than running a small indexed one: in the profile of 10,000 listing calls
 * (tests/bench/README.md, "call-profile.ts") preparing was the largest single item of a call's
 * fixed cost. This hands Kysely the same connection with `prepare` answered from a cache by SQL
 * text, as any driver with a statement cache does. Kysely's queries bind their values, so the
 * texts are few (one per query shape); the cache is bounded anyway, dropping the oldest.
 *
 * Safe because Kysely runs one statement at a time on its one SQLite connection (a stream holds
 * the connection until it ends), so a cached statement is never re-entered while it iterates,
 * and SQLite re-prepares a statement itself when the schema changes.
 */
export function cachingPrepare(sqlite: SqliteDatabase.Database, max = 1000): KyselySqliteDatabase {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => void sqlite.close(),
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (stmt) return stmt;
      stmt = sqlite.prepare(sql);
      if (cache.size >= max) cache.delete(cache.keys().next().value!);
      cache.set(sql, stmt);
      return stmt;
    },
  } as KyselySqliteDatabase;
}
