import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type MigrationProvider } from 'kysely';
import { migrations } from './migrations/index';
import type { DB } from './schema';

export type Db = Kysely<DB>;

/**
 * Opens the embedded SQLite database in WAL mode (readers never wait for the writer, and a
 * crash leaves the last committed state) and runs pending migrations before anything else
 * touches it.
 */
export async function openDatabase(file: string): Promise<Db> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  await migrate(db);
  return db;
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  for (const r of results ?? []) {
    if (r.status === 'Error') throw new Error(`数据库迁移失败：${r.migrationName}`);
  }
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
