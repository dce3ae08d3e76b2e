import { type Kysely, PostgresAdapter, sql } from 'kysely';

/*
 * FROZEN once shipped. Folder listing speed (issue 25; README "Speed (issue 25)").
 *
 * - folder_count: each folder's live entries (`total`) and live sub-folders (`dirs`), keyed by
 *   area and folder path exactly as `file/getfilelist` counts them (space, file_path,
 *   delete_flag = 0; every file type, since the listing has no type filter). The listing reads
 *   one row instead of counting 100,000 index entries.
 *
 *   The counts are kept by TRIGGERS on user_file, not by the code that writes it: every write
 *   to the drive's table (upload, mkdir, rename, move, copy, bin, restore, purge, unzip, share
 *   save, WebDAV, office saves, and any added later) changes them in its own statement, so in
 *   its own transaction, and no path can forget to. SQLite: row triggers (one writer, an
 *   UPSERT of one small row per changed entry). PostgreSQL: statement triggers over the
 *   transition tables, so a move of 10,000 entries is one grouped UPSERT, not 10,000 updates
 *   of one hot row; the keys are upserted in order, so two statements touching the same
 *   folders lock them in the same order and cannot deadlock on them.
 *
 *   Rows left at 0 are kept (harmless; a folder that empties and fills again reuses its row).
 *   `npm run move-data` does not copy this table: the target's triggers build it as user_file
 *   arrives.
 *
 * - user_file_time_idx / user_file_size_idx: the listing by time and by size read in index
 *   order like the name sort (user_file_list_idx), so a page, first or last, reads about a
 *   page of index entries instead of sorting the folder.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('folder_count')
    .addColumn('space', 'varchar(40)', (c) => c.notNull())
    .addColumn('file_path', 'varchar(4096)', (c) => c.notNull())
    .addColumn('total', 'bigint', (c) => c.notNull())
    .addColumn('dirs', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('folder_count_pk', ['space', 'file_path'])
    .execute();

  await db.schema
    .createIndex('user_file_time_idx')
    .on('user_file')
    .columns(['space', 'delete_flag', 'file_path', 'is_dir', 'upload_time', 'id'])
    .execute();
  await db.schema
    .createIndex('user_file_size_idx')
    .on('user_file')
    .columns(['space', 'delete_flag', 'file_path', 'is_dir', 'file_size', 'id'])
    .execute();

  if (pg) {
    // A delta per (space, file_path) from the statement's old and new rows, applied in key order.
    const apply = (source: string) => `
      insert into folder_count (space, file_path, total, dirs)
      select space, file_path, sum(t), sum(d) from (${source}) x
      group by space, file_path
      having sum(t) <> 0 or sum(d) <> 0
      order by space, file_path
      on conflict (space, file_path) do update
        set total = folder_count.total + excluded.total, dirs = folder_count.dirs + excluded.dirs`;
    const plus = `select space, file_path, 1 as t, is_dir as d from new_rows where delete_flag = 0`;
    const minus = `select space, file_path, -1 as t, -is_dir as d from old_rows where delete_flag = 0`;
    const fn = async (name: string, body: string) =>
      sql
        .raw(
          `create function ${name}() returns trigger language plpgsql as $$
           begin ${body}; return null; end $$`,
        )
        .execute(db);
    await fn('folder_count_ins', apply(plus));
    await fn('folder_count_del', apply(minus));
    await fn('folder_count_upd', apply(`${plus} union all ${minus}`));
    await sql
      .raw(
        `create trigger folder_count_ins after insert on user_file referencing new table as new_rows
         for each statement execute function folder_count_ins()`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger folder_count_del after delete on user_file referencing old table as old_rows
         for each statement execute function folder_count_del()`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger folder_count_upd after update on user_file
         referencing old table as old_rows new table as new_rows
         for each statement execute function folder_count_upd()`,
      )
      .execute(db);
  } else {
    const add = (row: 'new' | 'old', sign: 1 | -1) => {
      const r = row.toUpperCase();
      return `insert into folder_count (space, file_path, total, dirs)
        select ${r}.space, ${r}.file_path, ${sign}, ${sign} * ${r}.is_dir where ${r}.delete_flag = 0
        on conflict (space, file_path) do update
          set total = total + excluded.total, dirs = dirs + excluded.dirs;`;
    };
    await sql
      .raw(`create trigger folder_count_ins after insert on user_file begin ${add('new', 1)} end`)
      .execute(db);
    await sql
      .raw(`create trigger folder_count_del after delete on user_file begin ${add('old', -1)} end`)
      .execute(db);
    // Only an update that moves an entry between folders, areas or the bin changes a count.
    await sql
      .raw(
        `create trigger folder_count_upd after update of space, file_path, is_dir, delete_flag on user_file
         when old.space is not new.space or old.file_path is not new.file_path
           or old.is_dir is not new.is_dir or (old.delete_flag = 0) is not (new.delete_flag = 0)
         begin ${add('old', -1)} ${add('new', 1)} end`,
      )
      .execute(db);
  }

  // Backfill from the rows already there.
  await sql`
    insert into folder_count (space, file_path, total, dirs)
    select space, file_path, count(*), sum(is_dir) from user_file where delete_flag = 0
    group by space, file_path`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const t of ['ins', 'del', 'upd']) {
    await sql.raw(`drop trigger folder_count_${t}${pg ? ' on user_file' : ''}`).execute(db);
    if (pg) await sql.raw(`drop function folder_count_${t}()`).execute(db);
  }
  await db.schema.dropIndex('user_file_size_idx').execute();
  await db.schema.dropIndex('user_file_time_idx').execute();
  await db.schema.dropTable('folder_count').execute();
}
