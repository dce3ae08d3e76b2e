import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, type MigrationProvider } from 'kysely';
import { checkPostgres, postgresDialect, sqliteDialect } from './dialect';
import { migrations } from './migrations/index';
import type { DB } from './schema';

export type Db = Kysely<DB>;

/**
 * Where the database is: the embedded SQLite file, or a PostgreSQL server when
 * `databaseUrl` is set (README "Scale-out: PostgreSQL"). The server's Config has this shape.
 */
export interface DatabaseTarget {
  dbFile: string;
  databaseUrl?: string | undefined;
  /** Most connections this process holds to PostgreSQL at once. */
  databasePoolMax?: number;
  /** Whether statements go to PostgreSQL prepared (dialect.ts preparedStatements); default yes. */
  databasePrepared?: boolean;
}

/**
 * Opens the database and runs pending migrations before anything else touches it. A string
 * is the SQLite file (tools and tests that only ever want the embedded engine).
 */
export async function openDatabase(target: string | DatabaseTarget): Promise<Db> {
  const t = typeof target === 'string' ? { dbFile: target } : target;
  if (t.databaseUrl) {
    const db = new Kysely<DB>({
      dialect: postgresDialect(t.databaseUrl, t.databasePoolMax ?? 10, t.databasePrepared ?? true),
    });
    try {
      await checkPostgres(db);
      await migrate(db);
    } catch (err) {
      await db.destroy();
      throw err;
    }
    return db;
  }
  return openSqlite(t.dbFile);
}

/**
 * The embedded SQLite database in WAL mode: readers never wait for the writer, and a crash
 * leaves the last committed state.
 */
async function openSqlite(file: string): Promise<Db> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({ dialect: sqliteDialect(sqlite) });
  await migrate(db);
  return db;
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Runs pending migrations. On PostgreSQL, Kysely's migrator holds an advisory lock while it
 * runs, so several instances starting at once migrate once, one after another.
 */
async function migrate(db: Db): Promise<void> {
  // Issue 25 added migrations numbered below 0060, which installations already ran: they run
  // now, after it (each is independent of 0060).
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  for (const r of results ?? []) {
    if (r.status === 'Error') {
      const why = error instanceof Error ? `：${error.message}` : '';
      throw new Error(`数据库迁移失败：${r.migrationName}${why}`);
    }
  }
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
