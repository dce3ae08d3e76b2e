import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { formatMuseumTime } from '../../src/shared/drive/share-rules';
import type { S3Settings } from '../../src/server/scale-config';
import { createS3Bucket } from '../../src/server/storage/s3';
import { MoveRefused, moveData, type MoveOptions } from '../../src/server/db/move-data';
import { driveUser, W } from '../server/drive-util';
import { startServer, type TestServer } from '../server/harness';
import { picture } from '../server/media-util';
import { admin, dropTestDatabase, withDatabase } from '../server/postgres';
import { scaleTestEnv } from '../server/scale-env';
import { bytes, download, md5, paramsOf, uploadAll } from '../server/upload-util';
import { M, PNG_1X1, uploadAvatar } from '../server/util';

/*
 * `npm run move-data` (README "Scale-out: moving a museum's data"): an embedded installation, seeded
 * through the real server (people, a drive with folders and files, a thumbnail, an avatar, a
 * share, notices, an approval request, a news item with its image), is moved onto a fresh
 * PostgreSQL database and the bucket; then the real server runs on the moved data, and people
 * sign in, list, download and keep working. A run cut short halfway is finished by a second
 * run without doubling anything; and every refusal leaves the target as it was.
 */

const pgAdmin = process.env.GWY_TEST_PG;
const ROOT = fs.mkdtempSync(path.join(os.tmpdir(), 'gwy-move-'));
/** The embedded default, whatever the pass around it configured (scale-env, pg-setup). */
const EMBEDDED = {
  DATABASE_URL: '',
  BLOB_STORE: 'local',
  S3_ENDPOINT: '',
  S3_BUCKET: '',
  REDIS_URL: '',
  RATE_LIMIT_PER_MINUTE: '1000000',
};

let src: TestServer;
const seeded = {
  big: Buffer.alloc(0),
  bigId: 0,
  note: '库房温湿度记录：18℃，50%',
  shareBatch: '',
  approvalId: 0,
};
const targets: string[] = [];

/** A fresh, empty database on the test cluster (as an operator creates one for the move). */
async function emptyDatabase(name: string): Promise<string> {
  await admin(pgAdmin!, `drop database if exists "${name}" with (force)`);
  await admin(pgAdmin!, `create database "${name}"`);
  targets.push(name);
  return withDatabase(pgAdmin!, name);
}

/** The bucket settings the server will use, under a prefix of this test's own. */
function s3Of(tag: string): { s3: S3Settings; env: Record<string, string> } {
  const env = scaleTestEnv(path.join(ROOT, tag));
  return { s3: loadConfig({ DATA_DIR: ROOT, ...env }).scale.s3!, env };
}

function options(databaseUrl: string, s3: S3Settings | undefined, extra: Partial<MoveOptions> = {}) {
  return { dataDir: src.dataDir, databaseUrl, s3, ...extra };
}

async function query<T extends pg.QueryResultRow>(url: string, text: string, values?: unknown[]) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(text, values)).rows;
  } finally {
    await c.end();
  }
}

/** Runs the npm script's file as an operator would; answers its exit code and what it said. */
function runCli(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/move-data.ts', ...args], {
      cwd: process.cwd(),
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

beforeAll(async () => {
  if (!pgAdmin || !process.env.SCALE_TEST_S3_ENDPOINT) {
    throw new Error('move-data needs the setup of vitest.scale.config.ts (npm run test:scale)');
  }
  src = await startServer(EMBEDDED, { dataDir: path.join(ROOT, 'old-server') });
  expect(src.storage.kind).toBe('local');
  const staff = await driveUser(src, 'staff01');
  // A folder with a file uploaded in chunks, a photo (with its thumbnail), a note at the root.
  await staff.mkdir('/', '展览资料');
  seeded.big = bytes(300 * 1024 + 17);
  const up = await uploadAll(
    src,
    staff.token,
    seeded.big,
    paramsOf(seeded.big, '展品清单.bin', { filePath: '/展览资料/' }),
  );
  expect(up.success, JSON.stringify(up)).toBe(true);
  seeded.bigId = await staff.idOf('/展览资料/', '展品清单.bin');
  const photo = await staff.put('/展览资料/', '青铜器.jpg', await picture(640, 480));
  const thumb = await fetch(`${src.url}${W}/filetransfer/preview?userFileId=${photo}&isMin=1`, {
    headers: { token: staff.token },
  });
  expect(thumb.headers.get('content-type')).toMatch(/^image\//);
  await staff.put('/', '备忘.txt', seeded.note);
  expect((await uploadAvatar(src, staff.token, PNG_1X1)).body.success).toBe(true);
  // A share, and the notice that sends it to a colleague.
  const share = await staff.post('/share/sharefile', {
    files: JSON.stringify([{ userFileId: seeded.bigId }]),
    endTime: formatMuseumTime(Date.now() + 7 * 86_400_000),
    shareType: 0,
    remarks: '',
  });
  expect(share.body.success, JSON.stringify(share.body)).toBe(true);
  seeded.shareBatch = share.body.data.shareBatchNum;
  const staff02 = await driveUser(src, 'staff02');
  const sent = await src.call('POST', `${M}/notice/shareFileToUsers`, {
    token: staff.token,
    body: { noticeContent: `分享链接：/share/${seeded.shareBatch}`, receiver: String(staff02.userId) },
  });
  expect(sent.body.success).toBe(true);
  // An approval request (a leave), which notifies its approver.
  const tpl = await src.db
    .selectFrom('approval_template')
    .select('id')
    .where('name', '=', '请假')
    .executeTakeFirstOrThrow();
  const leave = await src.call('POST', `${M}/workflowInst/start`, {
    token: staff02.token,
    body: {
      templateId: tpl.id,
      form: {
        leaveType: 'annual',
        period: { start: '2026-05-06', end: '2026-05-06', duration: 1 },
        reason: '休假',
      },
    },
  });
  expect(leave.body.success, JSON.stringify(leave.body)).toBe(true);
  seeded.approvalId = leave.body.result.actvityId;
  // A news item (records engine) with its image, an attachment.
  const fd = new FormData();
  fd.append('tableName', 'wkDynamic');
  fd.append('file', new Blob([new Uint8Array(PNG_1X1)], { type: 'image/png' }), 'p.png');
  const img = (await (
    await fetch(`${src.url}${M}/attach/uploadimage`, {
      method: 'POST',
      headers: { token: staff.token },
      body: fd,
    })
  ).json()) as any;
  expect(img.success, JSON.stringify(img)).toBe(true);
  const news = await src.call('POST', `${M}/wkDynamic/save`, {
    token: staff.token,
    body: { title: '库房搬迁完成', content: `<p><img src="${img.result.attPath}" alt="现场"></p>` },
  });
  expect(news.body.success, JSON.stringify(news.body)).toBe(true);
  await src.call('POST', `${M}/wkDynamic/publish`, { token: staff.token, body: { id: news.body.result.id } });
  // The old server stops before its data moves.
  await src.stop();
  if (pgAdmin) await dropTestDatabase(pgAdmin, src.dataDir);
}, 120_000);

afterAll(async () => {
  for (const t of targets) await admin(pgAdmin!, `drop database if exists "${t}" with (force)`);
  for (const tag of ['moved', 'resumed', 'killed', 'damaged', 'refusals'])
    await createS3Bucket(s3Of(tag).s3).removePrefix('');
  fs.rmSync(ROOT, { recursive: true, force: true });
});

/** Every object of an area, with the MD5 of its bytes read back from the bucket. */
async function objectsOf(s3: S3Settings, area: string) {
  const bucket = createS3Bucket(s3);
  const out = new Map<string, string>();
  for await (const o of bucket.list(`${area}/`)) {
    const h = createHash('md5');
    for await (const c of bucket.get(o.key)) h.update(c as Buffer);
    out.set(o.key, h.digest('hex'));
  }
  return out;
}

describe('move-data onto PostgreSQL and the bucket', () => {
  it('moves every row and file, checks them, and the server runs on the moved data', async () => {
    const url = await emptyDatabase('move_target');
    const { s3, env } = s3Of('moved');
    // The npm script, as an operator runs it.
    const run = await runCli(['--to', url, '--from', src.dataDir], { ...env, DATABASE_URL: '' });
    expect(run.out).toContain('迁移完成并已核对');
    expect(run.code, run.out).toBe(0);

    // Rows: every table of the source, in the same number.
    const old = new SqliteDatabase(path.join(src.dataDir, 'museum.sqlite'), { readonly: true });
    for (const t of [
      'user',
      'user_file',
      'blob',
      'share',
      'notice',
      'approval_request',
      'wk_dynamic',
      'attachment',
    ]) {
      const n = (old.prepare(`select count(*) as n from "${t}"`).get() as { n: number }).n;
      expect(n, t).toBeGreaterThan(0);
      expect(Number((await query<{ n: string }>(url, `select count(*) as n from "${t}"`))[0]!.n), t).toBe(n);
    }
    // Files: every blob and attachment row has its object, whose bytes hash to its key.
    const blobs = await objectsOf(s3, 'blobs');
    for (const { md5: m } of old.prepare('select md5 from blob').all() as { md5: string }[]) {
      expect(blobs.get(`blobs/${m.slice(0, 2)}/${m.slice(2, 4)}/${m}`)).toBe(m);
    }
    const attachments = await objectsOf(s3, 'attachments');
    for (const { md5: m } of old.prepare('select md5 from attachment').all() as { md5: string }[]) {
      expect(attachments.get(`attachments/${m.slice(0, 2)}/${m.slice(2, 4)}/${m}`)).toBe(m);
    }
    old.close();
    expect((await objectsOf(s3, 'thumbs')).size).toBeGreaterThan(0);
    expect((await objectsOf(s3, 'avatars')).size).toBe(1);

    // The server on the moved data: PostgreSQL, the bucket, a data dir of its own.
    const moved = await startServer(
      { ...env, DATABASE_URL: url, RATE_LIMIT_PER_MINUTE: '1000000' },
      { dataDir: path.join(ROOT, 'new-server') },
    );
    try {
      expect(moved.storage.kind).toBe('s3');
      // The installation's key moved with it: links the old server signed still open.
      expect(await moved.storage.secret('office-url')).toEqual(
        fs.readFileSync(path.join(src.dataDir, 'office-url.key')),
      );
      const staff = await driveUser(moved, 'staff01');
      expect(await staff.names('/')).toEqual(expect.arrayContaining(['展览资料/', '备忘.txt']));
      expect(await staff.names('/展览资料/')).toEqual(expect.arrayContaining(['展品清单.bin', '青铜器.jpg']));
      expect(md5(await download(moved, staff.token, seeded.bigId))).toBe(md5(seeded.big));
      const note = await download(moved, staff.token, await staff.idOf('/', '备忘.txt'));
      expect(note.toString()).toBe(seeded.note);
      // A range, the thumbnail made before the move, the avatar.
      const ranged = await fetch(`${moved.url}${W}/filetransfer/downloadfile?userFileId=${seeded.bigId}`, {
        headers: { token: staff.token, range: 'bytes=100-199' },
      });
      expect(ranged.status).toBe(206);
      expect(Buffer.from(await ranged.arrayBuffer())).toEqual(seeded.big.subarray(100, 200));
      const photo = await staff.idOf('/展览资料/', '青铜器.jpg');
      const thumb = await fetch(`${moved.url}${W}/filetransfer/preview?userFileId=${photo}&isMin=1`, {
        headers: { token: staff.token },
      });
      expect(thumb.headers.get('content-type')).toMatch(/^image\//);
      const av = await fetch(`${moved.url}${M}/sysUser/avatar/${staff.userId}`, {
        headers: { token: staff.token },
      });
      expect(av.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await av.arrayBuffer())).toEqual(PNG_1X1);
      // The share opens; the colleague has the notice and the approver the request.
      const share = await moved.call('GET', `${W}/share/sharetype?shareBatchNum=${seeded.shareBatch}`);
      expect(share.body.success, JSON.stringify(share.body)).toBe(true);
      const staff02 = await moved.login('staff02');
      const notices = await moved.call('POST', `${M}/notice/list`, { token: staff02, body: {} });
      expect(JSON.stringify(notices.body)).toContain(seeded.shareBatch);
      // The leave waits for its approver (staff02's superior) as it did.
      const waiting = await moved.call('POST', `${M}/workflowActvity/message/list`, {
        token: staff.token,
        body: {},
      });
      expect(
        (waiting.body.result as { actvityId: number }[]).map((m) => m.actvityId),
        JSON.stringify(waiting.body),
      ).toContain(seeded.approvalId);
      const news = await moved.call('GET', `${M}/wkDynamic/list`, { token: staff02 });
      expect(news.body.result.list.map((r: { title: string }) => r.title)).toEqual(['库房搬迁完成']);
      // New rows get new ids (the sequences were moved past the copied ones).
      const folder = await staff.mkdir('/', '迁移后新建');
      expect(folder).toBeGreaterThan(seeded.bigId);
      const fresh = bytes(1000);
      const up = await uploadAll(moved, staff.token, fresh, paramsOf(fresh, '新文件.bin'));
      expect(up.success, JSON.stringify(up)).toBe(true);
    } finally {
      await moved.stop();
      await dropTestDatabase(pgAdmin!, moved.dataDir);
    }

    // Run again once the new server has been used: refused, nothing overwritten.
    await expect(moveData(options(url, s3))).rejects.toThrow(/目标数据库中有源数据没有的行.*session/);
  }, 120_000);

  it('finishes a run cut short, twice, without doubling a row or a file', async () => {
    const url = await emptyDatabase('move_resume');
    const { s3 } = s3Of('resumed');
    const cut = (at: (s: { kind: string; table?: string; done: number }) => boolean) => ({
      onStep: (s: { kind: string; table?: string; done: number }) => {
        if (at(s)) throw new Error('连接中断（测试）');
      },
    });
    // Halfway through the tables (people copied, files not yet).
    await expect(
      moveData(
        options(
          url,
          s3,
          cut((s) => s.table === 'user_file'),
        ),
      ),
    ).rejects.toThrow('连接中断');
    expect(
      Number((await query<{ n: string }>(url, 'select count(*) as n from "user"'))[0]!.n),
    ).toBeGreaterThan(0);
    // Halfway through the files.
    await expect(
      moveData(options(url, s3, { ...cut((s) => s.kind === 'file' && s.done === 2), concurrency: 1 })),
    ).rejects.toThrow('连接中断');
    const report = await moveData(options(url, s3));
    expect(report.ok).toBe(true);
    expect(report.missing).toEqual([]);
    expect(report.damaged).toEqual([]);
    for (const t of report.tables)
      expect([t.table, t.target, t.digestMatches]).toEqual([t.table, t.source, true]);
    const blobs = report.files.find((f) => f.area === 'blobs')!;
    expect(blobs.alreadyThere).toBeGreaterThanOrEqual(1);
    // A further run finds everything in place: no file sent again, no row rewritten.
    const before = await query<{ x: string }>(url, 'select xmin::text as x from user_file order by id');
    const again = await moveData(options(url, s3));
    expect(again.ok).toBe(true);
    expect(again.files.reduce((n, f) => n + f.copied, 0)).toBe(0);
    expect(await query<{ x: string }>(url, 'select xmin::text as x from user_file order by id')).toEqual(
      before,
    );
    // The identity sequences are past the copied ids.
    const [seq] = await query<{ next: string; max: string }>(
      url,
      "select nextval(pg_get_serial_sequence('user_file', 'id')) as next, (select max(id) from user_file) as max",
    );
    expect(Number(seq!.next)).toBeGreaterThan(Number(seq!.max));
  }, 120_000);
});

describe('move-data killed midway', () => {
  it('a process killed (SIGKILL) while copying is finished by the next run', async () => {
    const url = await emptyDatabase('move_killed');
    const { s3, env } = s3Of('killed');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'scripts/move-data.ts', '--to', url, '--from', src.dataDir],
      {
        cwd: process.cwd(),
        env: { ...process.env, ...env, DATABASE_URL: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    const exited = new Promise<NodeJS.Signals | null>((r) => child.on('exit', (_c, sig) => r(sig)));
    // Killed as soon as it reports its first tables: partway through the rows, before any file.
    await new Promise<void>((resolve) => {
      const onData = (d: Buffer) => {
        out += d.toString();
        if (out.includes('department：')) {
          child.kill('SIGKILL');
          resolve();
        }
      };
      child.stdout.on('data', onData);
      child.on('exit', () => resolve());
    });
    expect(await exited, out).toBe('SIGKILL');
    expect(out).not.toContain('迁移完成');
    const [dept] = await query<{ n: string }>(url, 'select count(*) as n from department');
    expect(Number(dept!.n)).toBeGreaterThan(0);
    const report = await moveData(options(url, s3));
    expect(report.ok).toBe(true);
    for (const t of report.tables)
      expect([t.table, t.target, t.digestMatches]).toEqual([t.table, t.source, true]);
  }, 60_000);
});

describe('move-data refuses, saying what to do, and writes nothing', () => {
  it('a missing source, a folder that is not one, no bucket settings, a missing bucket', async () => {
    const url = await emptyDatabase('move_refused');
    const { s3 } = s3Of('refusals');
    const refused = async (o: MoveOptions, message: RegExp) => {
      const err = await moveData(o).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MoveRefused);
      expect((err as Error).message).toMatch(message);
    };
    await refused({ ...options(url, s3), dataDir: path.join(ROOT, 'nowhere') }, /找不到源数据目录.*--from/);
    fs.mkdirSync(path.join(ROOT, 'empty-dir'), { recursive: true });
    await refused({ ...options(url, s3), dataDir: path.join(ROOT, 'empty-dir') }, /没有 museum\.sqlite/);
    await refused(options(url, undefined), /BLOB_STORE=s3.*S3_BUCKET/);
    await refused(options(url, { ...s3, bucket: 'no-such-bucket' }), /桶不存在/);
    // A source of an older version (a migration not yet run).
    const older = path.join(ROOT, 'older');
    fs.mkdirSync(older);
    fs.copyFileSync(path.join(src.dataDir, 'museum.sqlite'), path.join(older, 'museum.sqlite'));
    const db = new SqliteDatabase(path.join(older, 'museum.sqlite'));
    db.prepare('delete from kysely_migration where name = (select max(name) from kysely_migration)').run();
    db.close();
    await refused({ ...options(url, s3), dataDir: older }, /旧版本.*先用本版本启动一次原服务器/);
    // Nothing reached the target: not even the tables.
    expect(await query(url, "select 1 from information_schema.tables where table_name = 'user'")).toEqual([]);
  }, 60_000);

  it('a damaged file is not copied and fails the run; a lost one is listed', async () => {
    const url = await emptyDatabase('move_damaged');
    const { s3 } = s3Of('damaged');
    const copy = path.join(ROOT, 'damaged-copy');
    fs.cpSync(src.dataDir, copy, { recursive: true });
    const old = new SqliteDatabase(path.join(copy, 'museum.sqlite'), { readonly: true });
    const blobMd5 = (old.prepare('select md5 from blob order by id limit 1').get() as { md5: string }).md5;
    const attMd5 = (old.prepare('select md5 from attachment limit 1').get() as { md5: string }).md5;
    old.close();
    const rel = (area: string, m: string) => `${area}/${m.slice(0, 2)}/${m.slice(2, 4)}/${m}`;
    // One drive file's bytes changed on disk (a failing disk); one attachment gone.
    const broken = path.join(copy, rel('blobs', blobMd5));
    const buf = fs.readFileSync(broken);
    buf[0] = buf[0]! ^ 0xff;
    fs.writeFileSync(broken, buf);
    fs.rmSync(path.join(copy, rel('attachments', attMd5)));
    const report = await moveData({ dataDir: copy, databaseUrl: url, s3 });
    expect(report.ok).toBe(false);
    expect(report.damaged).toEqual([rel('blobs', blobMd5)]);
    expect(report.missing).toEqual([rel('attachments', attMd5)]);
    expect(await createS3Bucket(s3).head(rel('blobs', blobMd5))).toBeNull();
    // Every other file went, checked.
    expect(report.files.find((f) => f.area === 'blobs')!.copied).toBeGreaterThan(0);
  }, 60_000);

  it('a target holding another installation, and a second move into the same database', async () => {
    // Another museum's database: a server started on it made its own administrator.
    const name = 'move_other';
    await admin(pgAdmin!, `drop database if exists "${name}" with (force)`);
    await admin(pgAdmin!, `create database "${name}" template "${process.env.GWY_TEST_PG_TEMPLATE}"`);
    targets.push(name);
    const url = withDatabase(pgAdmin!, name);
    await query(url, 'update "user" set created_at = created_at - 1 where id = (select min(id) from "user")');
    // One version behind, too: the refusal comes before any migration would upgrade it.
    const [latest] = await query<{ name: string }>(url, 'select max(name) as name from kysely_migration');
    await query(url, 'delete from kysely_migration where name = $1', [latest!.name]);
    const { s3 } = s3Of('refusals');
    const before = await query(url, 'select count(*) as n from user_file');
    const err = await moveData(options(url, s3)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MoveRefused);
    expect((err as Error).message).toMatch(/另一套安装的数据.*新建一个空数据库/);
    expect(await query(url, 'select count(*) as n from user_file')).toEqual(before);
    expect(await query(url, 'select 1 from kysely_migration where name = $1', [latest!.name])).toEqual([]);

    // A move already running into a database: the second one waits for nothing and says so.
    const fresh = await emptyDatabase('move_locked');
    const holder = new pg.Client({ connectionString: fresh });
    await holder.connect();
    try {
      await holder.query("select pg_advisory_lock(hashtextextended('guanwuyun:move-data', 0))");
      const second = await moveData(options(fresh, s3)).catch((e: unknown) => e);
      expect((second as Error).message).toMatch(/另一个迁移（move-data）正在向这个数据库复制/);
    } finally {
      await holder.end();
    }
  }, 60_000);

  it('the command line: no target, no object store (exit code 2, the reason and the usage)', async () => {
    const none = await runCli(['--from', src.dataDir], {});
    expect(none.code).toBe(2);
    expect(none.out).toContain('拒绝迁移：缺少目标数据库：请用 --to 指明 PostgreSQL 的连接地址');
    const noS3 = await runCli(['--to', withDatabase(pgAdmin!, 'move_refused'), '--from', src.dataDir], {
      ...EMBEDDED,
    });
    expect(noS3.code).toBe(2);
    expect(noS3.out).toContain('缺少对象存储的设置');
  }, 60_000);
});
