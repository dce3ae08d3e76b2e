import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import SqliteDatabase from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from './index';
import { migrations } from './migrations/index';
import type { S3Settings } from '../scale-config';
import { isBlobKey } from '../storage/blob-store';
import { COPY_MAX_BYTES, createS3Bucket, isNotFound, type S3Bucket } from '../storage/s3';

/*
 * `npm run move-data -- --to postgres://…` (README "Scale-out: moving a museum's data"): copies an embedded installation, the SQLite database and the files under DATA_DIR,
 * (and the installation's keys) onto PostgreSQL and an S3-compatible object store, then checks the copy: rows per table
 * (count and a digest of every row) and every object's bytes (MD5).
 *
 * It can be run again after an interruption, as often as needed. Rows go in by primary key with
 * INSERT … ON CONFLICT DO UPDATE … WHERE the row differs, so a row already copied is left as it
 * is and none is ever doubled; objects already in the bucket with the right bytes are skipped.
 * The source is only read (opened read-only), so an interrupted move leaves the old server as
 * it was, ready to start again. It lives in server/db because it is, first of all, a copy of
 * the database (the one place besides the repos allowed to query with Kysely directly).
 *
 * What is refused, before anything is written: a source that is not a data directory of this
 * version, a target database that holds another installation (its first person is not ours) or
 * rows the source does not have (a server has already run on it since), a second move running
 * into the same database, and missing or unreachable object-store settings.
 */

/**
 * The bookkeeping of uploads (sessions, their chunk numbers, attachment uploads): not moved.
 * An unfinished upload's chunks are files of the old server, in a layout the object store does
 * not share (its chunks are folded into multipart parts as they arrive), and a finished one
 * needs nothing more. Its person uploads the file again (README).
 */
const UNFINISHED_UPLOAD_TABLES = ['upload_chunk', 'upload_session', 'attach_upload'];
/**
 * Tables the target's own triggers build from the rows copied (migration 0051: folder_count
 * from user_file). Copying them too would count every entry twice.
 */
const DERIVED_TABLES = ['folder_count'];

/** DATA_DIR folders of content blobs (`ab/cd/<md5>`) and of named objects (thumbs, avatars). */
const BLOB_AREAS = ['blobs', 'attachments'] as const;
const SHELF_AREAS = ['thumbs', 'avatars'] as const;
/** The shelf's own name rule (storage/shelf.ts): segments of letters, digits, `.`, `_` and `-`. */
const SHELF_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** Parameters per statement stay well under PostgreSQL's 65,535. */
const MAX_PARAMS = 30_000;
const MAX_BATCH = 500;

/** A refusal: nothing was written; the message says what to do. */
export class MoveRefused extends Error {}

export interface MoveOptions {
  /** The old server's DATA_DIR (museum.sqlite and the files). */
  dataDir: string;
  /** The PostgreSQL database to fill. */
  databaseUrl: string;
  /** The object store (BLOB_STORE=s3 settings). */
  s3: S3Settings | undefined;
  /** Progress lines for the operator. */
  log?: (line: string) => void;
  /** Files copied at once. */
  concurrency?: number;
  /**
   * Called after each batch of rows and each file; a test throws from it to cut the run short
   * at a chosen point, as a lost connection or a Ctrl-C would.
   */
  onStep?: (step: { kind: 'rows' | 'file'; table?: string; done: number }) => void;
}

export interface TableReport {
  table: string;
  source: number;
  target: number;
  digestMatches: boolean;
}

export interface MoveReport {
  tables: TableReport[];
  files: { area: string; copied: number; alreadyThere: number; bytes: number }[];
  /** Source files whose bytes no longer match their MD5 name: not copied. */
  damaged: string[];
  /**
   * Files the source's rows name but its data directory lacks (lost before the move): the move
   * cannot bring them back; they are listed for the operator to restore from a backup.
   */
  missing: string[];
  /** Unfinished uploads left behind (their people start them again). */
  unfinishedUploads: number;
  /** True when every count, digest and object matched and no source file was damaged. */
  ok: boolean;
}

interface Column {
  name: string;
  notNull: boolean;
}

interface TablePlan {
  name: string;
  columns: Column[];
  pk: string[];
  /** Nullable columns that point at this same table (a department's parent, a person's superior). */
  selfRefs: string[];
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

export async function moveData(opts: MoveOptions): Promise<MoveReport> {
  const log = opts.log ?? (() => undefined);
  const dataDir = path.resolve(opts.dataDir);
  const dbFile = path.join(dataDir, 'museum.sqlite');

  // --- The source: a data directory of this version, only ever read. ---
  if (!fs.existsSync(dataDir) || !fs.statSync(dataDir).isDirectory()) {
    throw new MoveRefused(
      `找不到源数据目录 ${dataDir}：请用 --from（或 DATA_DIR）指明原服务器的数据目录（其中有 museum.sqlite）`,
    );
  }
  if (!fs.existsSync(dbFile)) {
    throw new MoveRefused(
      `源数据目录 ${dataDir} 中没有 museum.sqlite：这不是馆务云的数据目录，请用 --from（或 DATA_DIR）指明原服务器的数据目录`,
    );
  }
  if (!opts.s3) {
    throw new MoveRefused(
      '缺少对象存储的设置：迁移会把文件复制到对象存储，请设置 BLOB_STORE=s3、S3_ENDPOINT、S3_BUCKET、S3_REGION、S3_ACCESS_KEY_ID、S3_SECRET_ACCESS_KEY（MinIO、Ceph 还需 S3_FORCE_PATH_STYLE=1），与新服务器将使用的设置相同',
    );
  }
  const source = openSource(dbFile);
  let target: Kysely<any> | undefined;
  let lock: pg.Client | undefined;
  try {
    checkSourceVersion(source);

    // --- The object store answers, before the database is touched. ---
    const bucket = createS3Bucket(opts.s3);
    try {
      await bucket.check();
    } catch (err) {
      throw new MoveRefused((err as Error).message);
    }

    // --- The target: one move at a time, then its tables made by the same migrations. ---
    lock = await takeMoveLock(opts.databaseUrl);
    await checkSameInstallation(source, lock);
    try {
      target = await openDatabase({ dbFile: '', databaseUrl: opts.databaseUrl, databasePoolMax: 4 });
    } catch (err) {
      throw new MoveRefused((err as Error).message);
    }
    const plans = orderTables(source, await targetColumns(target));
    await checkNotUsed(source, target, plans);

    // --- Rows, parents before children, in batches. ---
    log(`复制数据库：${plans.length} 张表`);
    for (const plan of plans) await copyTable(source, target, plan, log, opts.onStep);
    await fixSequences(target);

    // --- Files, streamed and checked against their MD5. ---
    const damaged: string[] = [];
    const files: MoveReport['files'] = [];
    for (const area of [...BLOB_AREAS, ...SHELF_AREAS]) {
      files.push(await copyArea(bucket, dataDir, area, damaged, log, opts));
    }
    files.push(await copySecrets(bucket, dataDir, log));

    const missing = missingFiles(source, dataDir);

    // --- The check of the whole. ---
    log('核对数据库：逐表比对行数和每一行的内容');
    const tables: TableReport[] = [];
    for (const plan of plans) tables.push(await verifyTable(source, target, plan));
    const unfinishedUploads =
      (
        source.prepare('select count(*) as n from upload_session where done_user_file_id is null').get() as {
          n: number;
        }
      ).n + countOf(source, 'attach_upload');
    const ok = tables.every((t) => t.source === t.target && t.digestMatches) && damaged.length === 0;
    return { tables, files, damaged, missing, unfinishedUploads, ok };
  } finally {
    source.close();
    await target?.destroy();
    await lock?.end().catch(() => undefined);
  }
}

function openSource(dbFile: string): SqliteDatabase.Database {
  try {
    const db = new SqliteDatabase(dbFile, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    return db;
  } catch (err) {
    throw new MoveRefused(`无法打开源数据库 ${dbFile}：${(err as Error).message}`);
  }
}

/** The source must be at exactly this program's migrations: the target gets the same tables. */
function checkSourceVersion(source: SqliteDatabase.Database) {
  if (!tableExists(source, 'kysely_migration')) {
    throw new MoveRefused('源数据库不是馆务云的数据库（没有迁移记录）：请检查 --from 指向的数据目录');
  }
  const done = new Set(
    (source.prepare('select name from kysely_migration').all() as { name: string }[]).map((r) => r.name),
  );
  const known = Object.keys(migrations);
  const missing = known.filter((n) => !done.has(n));
  const unknown = [...done].filter((n) => !known.includes(n));
  if (unknown.length) {
    throw new MoveRefused(
      `源数据库来自更新版本的馆务云（有本程序不认识的迁移 ${unknown.join('、')}）：请用与原服务器相同或更新的版本运行迁移`,
    );
  }
  if (missing.length) {
    throw new MoveRefused(
      `源数据库还是旧版本（缺少迁移 ${missing.join('、')}）：请先用本版本启动一次原服务器（启动时会升级数据库），停止它后再运行迁移`,
    );
  }
}

function tableExists(db: SqliteDatabase.Database, name: string): boolean {
  return Boolean(db.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(name));
}

function countOf(db: SqliteDatabase.Database, table: string): number {
  return (db.prepare(`select count(*) as n from ${q(table)}`).get() as { n: number }).n;
}

/**
 * A session-level advisory lock on the target, held by its own connection for the whole run:
 * two moves into one database at once would only fight over the same rows.
 */
async function takeMoveLock(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => undefined);
    throw new MoveRefused(`无法连接目标 PostgreSQL（--to）：${(err as Error).message}`);
  }
  const r = await client.query<{ ok: boolean }>(
    "select pg_try_advisory_lock(hashtextextended('guanwuyun:move-data', 0)) as ok",
  );
  if (!r.rows[0]?.ok) {
    await client.end();
    throw new MoveRefused('另一个迁移（move-data）正在向这个数据库复制：请等它结束，或结束它后再运行');
  }
  return client;
}

/** Columns of every table of the target (after its migrations). */
async function targetColumns(target: Kysely<any>): Promise<Map<string, Set<string>>> {
  const rows = (
    await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema()`.execute(target)
  ).rows;
  const out = new Map<string, Set<string>>();
  for (const r of rows) {
    if (!out.has(r.table_name)) out.set(r.table_name, new Set());
    out.get(r.table_name)!.add(r.column_name);
  }
  return out;
}

/**
 * The tables to copy, every table after those its foreign keys point at. A table pointing at
 * itself is copied with those columns empty first and filled in a second pass, since a row's
 * parent may come after it.
 */
function orderTables(source: SqliteDatabase.Database, targetCols: Map<string, Set<string>>): TablePlan[] {
  const names = (
    source.prepare("select name from sqlite_master where type = 'table' order by name").all() as {
      name: string;
    }[]
  )
    .map((r) => r.name)
    .filter(
      (n) =>
        !n.startsWith('sqlite_') &&
        !n.startsWith('kysely_') &&
        !UNFINISHED_UPLOAD_TABLES.includes(n) &&
        !DERIVED_TABLES.includes(n),
    );
  const plans = new Map<string, TablePlan & { parents: Set<string> }>();
  for (const name of names) {
    const info = source.prepare(`pragma table_info(${q(name)})`).all() as {
      name: string;
      notnull: number;
      pk: number;
    }[];
    const fks = source.prepare(`pragma foreign_key_list(${q(name)})`).all() as {
      table: string;
      from: string;
    }[];
    const cols = targetCols.get(name);
    const missing = info.map((c) => c.name).filter((c) => !cols?.has(c));
    if (missing.length) {
      throw new MoveRefused(
        `目标数据库的表 ${name} 缺少列 ${missing.join('、')}：目标的表结构与源不一致，请换一个新建的空数据库`,
      );
    }
    const pk = info
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    if (!pk.length) throw new Error(`表 ${name} 没有主键，无法按主键续传`);
    const notNull = new Set(info.filter((c) => c.notnull).map((c) => c.name));
    const selfRefs = fks.filter((f) => f.table === name).map((f) => f.from);
    const rigid = selfRefs.filter((c) => notNull.has(c));
    if (rigid.length) throw new Error(`表 ${name} 的自引用列 ${rigid.join('、')} 不可为空，无法分两遍复制`);
    plans.set(name, {
      name,
      columns: info.map((c) => ({ name: c.name, notNull: c.notnull === 1 })),
      pk,
      selfRefs,
      parents: new Set(fks.map((f) => f.table).filter((t) => t !== name && names.includes(t))),
    });
  }
  const ordered: TablePlan[] = [];
  const placed = new Set<string>();
  while (placed.size < plans.size) {
    const ready = [...plans.values()].filter(
      (p) => !placed.has(p.name) && [...p.parents].every((t) => placed.has(t)),
    );
    if (!ready.length) throw new Error('表之间的外键成环，无法确定复制顺序');
    for (const p of ready) {
      placed.add(p.name);
      ordered.push(p);
    }
  }
  return ordered;
}

/**
 * Refuses a target holding another installation. A target whose first person is the source's
 * first person (same id, account and creation time) is an earlier run of this move, which
 * continues; an empty one is new.
 */
async function checkSameInstallation(source: SqliteDatabase.Database, target: pg.Client) {
  type U = { id: number; account: string; created_at: string | number };
  // Before any migration runs: another installation's database is not even upgraded.
  const has = await target.query<{ t: string | null }>(`select to_regclass('"user"')::text as t`);
  if (!has.rows[0]?.t) return;
  const theirs = (await target.query<U>('select id, account, created_at from "user" order by id limit 1'))
    .rows[0];
  if (!theirs) return;
  const ours = source.prepare('select id, account, created_at from "user" order by id limit 1').get() as
    U | undefined;
  if (
    !ours ||
    Number(ours.id) !== Number(theirs.id) ||
    ours.account !== theirs.account ||
    Number(ours.created_at) !== Number(theirs.created_at)
  ) {
    throw new MoveRefused(
      `目标数据库已有另一套安装的数据（第一个账号 ${theirs.account}，创建于 ${new Date(Number(theirs.created_at)).toISOString()}），不是本数据目录迁移到一半的副本：` +
        '请为迁移新建一个空数据库（见 README「Scale-out: PostgreSQL」），或检查 --to 是否写错。已有的数据没有被改动。',
    );
  }
}

/**
 * Refuses a target with rows the source does not have: a server has run on it since the move,
 * and copying again would overwrite what people did there.
 */
async function checkNotUsed(source: SqliteDatabase.Database, target: Kysely<any>, plans: TablePlan[]) {
  const grown: string[] = [];
  for (const plan of plans) {
    const n = Number(
      (await sql<{ n: number }>`select count(*) as n from ${sql.table(plan.name)}`.execute(target)).rows[0]
        ?.n,
    );
    const m = countOf(source, plan.name);
    if (n > m) grown.push(`${plan.name}（源 ${m} 行，目标 ${n} 行）`);
  }
  if (grown.length) {
    throw new MoveRefused(
      `目标数据库中有源数据没有的行：${grown.join('、')}。看来迁移完成后已有服务器在目标上运行过；再次复制会覆盖之后的修改，因此拒绝。` +
        '如需重新迁移，请新建一个空数据库。已有的数据没有被改动。',
    );
  }
}

/** Source rows in primary-key order, page after page (memory: one page). */
function* pagesOf(
  source: SqliteDatabase.Database,
  plan: TablePlan,
  where = '',
): Generator<Record<string, unknown>[]> {
  const size = Math.max(1, Math.min(MAX_BATCH, Math.floor(MAX_PARAMS / plan.columns.length)));
  const pk = plan.pk.map(q).join(', ');
  const first = source.prepare(
    `select * from ${q(plan.name)} ${where ? `where ${where}` : ''} order by ${pk} limit ${size}`,
  );
  const next = source.prepare(
    `select * from ${q(plan.name)} where (${pk}) > (${plan.pk.map(() => '?').join(', ')}) ${where ? `and ${where}` : ''} order by ${pk} limit ${size}`,
  );
  let page = first.all() as Record<string, unknown>[];
  while (page.length) {
    yield page;
    if (page.length < size) return;
    const last = page[page.length - 1]!;
    page = next.all(...plan.pk.map((c) => last[c])) as Record<string, unknown>[];
  }
}

async function copyTable(
  source: SqliteDatabase.Database,
  target: Kysely<any>,
  plan: TablePlan,
  log: (line: string) => void,
  onStep: MoveOptions['onStep'],
) {
  let done = 0;
  const nulled = new Set(plan.selfRefs);
  for (const page of pagesOf(source, plan)) {
    const rows = nulled.size
      ? page.map((r) => ({ ...r, ...Object.fromEntries([...nulled].map((c) => [c, null])) }))
      : page;
    await upsert(target, plan, rows);
    done += page.length;
    onStep?.({ kind: 'rows', table: plan.name, done });
  }
  // Second pass: the columns pointing into the same table, now that every row is there.
  if (plan.selfRefs.length) {
    const where = plan.selfRefs.map((c) => `${q(c)} is not null`).join(' or ');
    for (const page of pagesOf(source, plan, `(${where})`)) await upsert(target, plan, page);
  }
  log(`  ${plan.name}：${done} 行`);
}

/** Inserts rows by primary key; a row already there is rewritten only where it differs. */
async function upsert(target: Kysely<any>, plan: TablePlan, rows: Record<string, unknown>[]) {
  if (!rows.length) return;
  const rest = plan.columns.map((c) => c.name).filter((c) => !plan.pk.includes(c));
  await target
    .insertInto(plan.name)
    .values(rows)
    .onConflict((oc) => {
      const on = oc.columns(plan.pk as never);
      if (!rest.length) return on.doNothing();
      const mine = sql.join(rest.map((c) => sql.ref(`${plan.name}.${c}`)));
      const theirs = sql.join(rest.map((c) => sql.ref(`excluded.${c}`)));
      return on
        .doUpdateSet(Object.fromEntries(rest.map((c) => [c, sql.ref(`excluded.${c}`)])) as never)
        .where(sql<boolean>`(${mine}) is distinct from (${theirs})`);
    })
    .execute();
}

/**
 * Rows were inserted with their own ids, which an identity column's sequence does not see: each
 * sequence is moved past the largest id, so the next row the server adds gets a new one.
 */
async function fixSequences(target: Kysely<any>) {
  const cols = (
    await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and (is_identity = 'YES' or column_default like 'nextval(%')`.execute(
      target,
    )
  ).rows;
  for (const c of cols) {
    if (c.table_name.startsWith('kysely_')) continue;
    const t = sql.table(c.table_name);
    const col = sql.ref(c.column_name);
    await sql`select setval(pg_get_serial_sequence(${q(c.table_name)}, ${c.column_name}),
      coalesce((select max(${col}) from ${t}), 0) + 1, false)`.execute(target);
  }
}

/** A stable text of a row (numbers as numbers: both engines answer them so). */
function rowText(plan: TablePlan, row: Record<string, unknown>): string {
  return JSON.stringify(
    plan.columns.map((c) => {
      const v = row[c.name];
      return typeof v === 'bigint' ? Number(v) : v === undefined ? null : v;
    }),
  );
}

/** Counts and a digest of every row on both sides, in primary-key order (bytewise on both). */
async function verifyTable(
  source: SqliteDatabase.Database,
  target: Kysely<any>,
  plan: TablePlan,
): Promise<TableReport> {
  const a = createHash('sha256');
  let sourceRows = 0;
  for (const page of pagesOf(source, plan)) {
    for (const r of page) a.update(rowText(plan, r)).update('\n');
    sourceRows += page.length;
  }
  const b = createHash('sha256');
  let targetRows = 0;
  const size = Math.max(1, Math.min(MAX_BATCH, Math.floor(MAX_PARAMS / plan.columns.length)));
  const pkList = sql.join(plan.pk.map((c) => sql.ref(c)));
  let last: Record<string, unknown> | undefined;
  for (;;) {
    const after = last ? sql`where (${pkList}) > (${sql.join(plan.pk.map((c) => sql`${last![c]}`))})` : sql``;
    const page = (
      await sql<Record<string, unknown>>`select * from ${sql.table(plan.name)} ${after}
        order by ${pkList} limit ${size}`.execute(target)
    ).rows;
    for (const r of page) b.update(rowText(plan, r)).update('\n');
    targetRows += page.length;
    if (page.length < size) break;
    last = page[page.length - 1];
  }
  return {
    table: plan.name,
    source: sourceRows,
    target: targetRows,
    digestMatches: a.digest('hex') === b.digest('hex'),
  };
}

/** Drive blobs and attachments named by rows of the source whose files are not in its DATA_DIR. */
function missingFiles(source: SqliteDatabase.Database, dataDir: string): string[] {
  const out: string[] = [];
  for (const [table, area] of [
    ['blob', 'blobs'],
    ['attachment', 'attachments'],
  ] as const) {
    for (const { md5 } of source.prepare(`select distinct md5 from ${table}`).iterate() as Iterable<{
      md5: string;
    }>) {
      if (!isBlobKey(md5)) continue;
      const rel = `${area}/${md5.slice(0, 2)}/${md5.slice(2, 4)}/${md5}`;
      if (!fs.existsSync(path.join(dataDir, rel))) out.push(rel);
    }
  }
  return out;
}

/**
 * The installation's own keys (`DATA_DIR/<name>.key`, storage `secret()`: the office links'
 * signing key) go where the object store keeps them, `secrets/<name>.key`, so links the old
 * server signed still open on the new instances, and no key file is copied by hand.
 */
async function copySecrets(bucket: S3Bucket, dataDir: string, log: (line: string) => void) {
  const report = { area: 'secrets', copied: 0, alreadyThere: 0, bytes: 0 };
  const names = fs.readdirSync(dataDir).filter((n) => /^[a-z0-9-]+\.key$/.test(n));
  for (const name of names.sort()) {
    const file = path.join(dataDir, name);
    const size = fs.statSync(file).size;
    const md5 = await md5OfFile(file);
    const rel = `secrets/${name}`;
    if (await holds(bucket, rel, size, md5)) report.alreadyThere++;
    else {
      await putFile(bucket, rel, file, size, md5);
      report.copied++;
      report.bytes += size;
    }
  }
  log(`  secrets：复制 ${report.copied} 个密钥，已在对象存储中并校验一致 ${report.alreadyThere} 个`);
  return report;
}

/** Every file under a DATA_DIR area, but its `tmp/` (bytes never committed). */
async function* filesOf(root: string, rel = ''): AsyncGenerator<{ rel: string; file: string; size: number }> {
  let entries: fs.Dirent[];
  try {
    entries = await fsp.readdir(path.join(root, rel), { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  entries.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  for (const e of entries) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (!rel && e.name === 'tmp') continue;
    if (e.isDirectory()) yield* filesOf(root, r);
    else if (e.isFile()) {
      const file = path.join(root, r);
      yield { rel: r, file, size: (await fsp.stat(file)).size };
    }
  }
}

/** The MD5 of a file, streamed. */
async function md5OfFile(file: string): Promise<string> {
  const h = createHash('md5');
  for await (const c of fs.createReadStream(file)) h.update(c as Buffer);
  return h.digest('hex');
}

/** The MD5 of an object's bytes, streamed back. */
async function md5OfObject(bucket: S3Bucket, rel: string): Promise<string> {
  const h = createHash('md5');
  for await (const c of bucket.get(rel)) h.update(c as Buffer);
  return h.digest('hex');
}

/** Size and ETag of an object (the ETag of a single PUT is its MD5 on every S3-compatible store). */
async function headObject(bucket: S3Bucket, rel: string): Promise<{ size: number; etag: string } | null> {
  try {
    const h = await bucket.client.send(
      new HeadObjectCommand({ Bucket: bucket.bucket, Key: bucket.key(rel) }),
    );
    return { size: Number(h.ContentLength ?? 0), etag: (h.ETag ?? '').replace(/"/g, '').toLowerCase() };
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

/**
 * True when the object holds exactly these bytes: by its ETag when that is the MD5 (a single
 * PUT), else by reading it back (a multipart object, or a store that encrypts).
 */
async function holds(bucket: S3Bucket, rel: string, size: number, md5: string): Promise<boolean> {
  const h = await headObject(bucket, rel);
  if (!h || h.size !== size) return false;
  if (h.etag === md5) return true;
  return (await md5OfObject(bucket, rel)) === md5;
}

/**
 * Streams one file into the bucket. A single PUT carries Content-MD5, so the store itself
 * refuses bytes damaged on the way; a file past one PUT's limit goes in parts and is read back.
 */
async function putFile(bucket: S3Bucket, rel: string, file: string, size: number, md5: string) {
  if (size <= COPY_MAX_BYTES) {
    await bucket.client.send(
      new PutObjectCommand({
        Bucket: bucket.bucket,
        Key: bucket.key(rel),
        Body: fs.createReadStream(file),
        ContentLength: size,
        ContentMD5: Buffer.from(md5, 'hex').toString('base64'),
      }),
    );
  } else {
    await bucket.upload(rel, fs.createReadStream(file));
  }
  if (!(await holds(bucket, rel, size, md5))) {
    throw new Error(`对象存储中的 ${rel} 与源文件不一致（写入后校验失败），请重新运行迁移`);
  }
}

async function copyArea(
  bucket: S3Bucket,
  dataDir: string,
  area: (typeof BLOB_AREAS)[number] | (typeof SHELF_AREAS)[number],
  damaged: string[],
  log: (line: string) => void,
  opts: MoveOptions,
) {
  const isBlobs = (BLOB_AREAS as readonly string[]).includes(area);
  const report = { area, copied: 0, alreadyThere: 0, bytes: 0 };
  const root = path.join(dataDir, area);
  const running = new Set<Promise<void>>();
  let failure: unknown;
  let done = 0;
  const one = async (f: { rel: string; file: string; size: number }) => {
    const md5 = await md5OfFile(f.file);
    if (isBlobs) {
      // A blob's name is its MD5 (ab/cd/<md5>): anything else there is not the server's.
      const name = path.posix.basename(f.rel);
      const wellPlaced = isBlobKey(name) && f.rel === `${name.slice(0, 2)}/${name.slice(2, 4)}/${name}`;
      if (!wellPlaced) return;
      if (md5 !== name) {
        damaged.push(`${area}/${f.rel}`);
        return;
      }
    } else if (!f.rel.split('/').every((s) => SHELF_SEGMENT.test(s))) {
      return;
    }
    const rel = `${area}/${f.rel}`;
    if (await holds(bucket, rel, f.size, md5)) {
      report.alreadyThere++;
    } else {
      await putFile(bucket, rel, f.file, f.size, md5);
      report.copied++;
      report.bytes += f.size;
    }
    done++;
    opts.onStep?.({ kind: 'file', done });
  };
  const width = opts.concurrency ?? 4;
  for await (const f of filesOf(root)) {
    if (failure) break;
    const p = one(f)
      .catch((err) => {
        failure ??= err;
      })
      .finally(() => running.delete(p));
    running.add(p);
    if (running.size >= width) await Promise.race(running);
  }
  await Promise.all(running);
  if (failure) throw failure;
  log(
    `  ${area}：复制 ${report.copied} 个文件（${report.bytes} 字节），已在对象存储中并校验一致 ${report.alreadyThere} 个`,
  );
  return report;
}
