import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../src/server/db/migrations/index';

/**
 * Migrations are frozen once shipped: a database that ran one must never meet a different
 * version of it. Changing a shipped file fails here; add a new migration instead. A new
 * migration's hash is added to this list when it ships.
 */
const SHIPPED: Record<string, string> = {
  '0001_org_and_sessions': '61536dad3ea2c6b8247ab31336bd9fcfa88a093112765557891b03b2b555add1',
  '0002_drive': 'b1e146ebc9da7dd7e576487e9819cdd549b16c29d2e2b4597d50a0f53d682757',
  '0003_upload': '33d1fcc85f6a3c16aaa4c84ba0fdf83595b6f04fbc6de96b38709246b58a87f1',
  '0004_media': 'f1f7618c6bfe923313fc3d9597221b4952df4828c2d8b69da1278dee7ccfd900',
  '0005_share': 'cec0660da029eb9d6821ab7cf8b5badb9e1612cf25f02d0e3a70deed8d937aa3',
  '0006_unzip': '7300d73195d453e3e111c3a80c84204c8bf98936243b900ea3dcd50b62f07181',
  '0007_notices': '819483e25e1fe8c70f56d6039574b50c773dbb085f23cf767c8f9f33b092a99b',
  '0008_announcements': '71d5cdf3523d031670a69a3d104876e2ccb2409628b87f5406a3f79b40cf7948',
  '0009_directory_schedule': '31b2f68dbce9408d5da50efe9ffea36a09a6e2f23338e54abed80cfd54419555',
  '0010_approval_templates': '80b2dc1328e4567e9cd97b4673092bb321cfd581856572f5192f9c1ca042c8eb',
  '0011_approval_requests': 'b07c011c7cd0f55ce6db8212df276962f042c5fcc1a1db2b88d095e0796b66f8',
  '0012_approval_message_type': '0274992e855194503e8f5f10358d500f276e48ae820328828e2a453c9eaaf04a',
};

const dir = path.resolve('src/server/db/migrations');

describe('migrations', () => {
  it('are listed in order, each with its file', () => {
    const names = Object.keys(migrations);
    expect(names).toEqual([...names].sort());
    for (const n of names) expect(fs.existsSync(path.join(dir, `${n}.ts`))).toBe(true);
  });

  it('are unchanged once shipped', () => {
    for (const [name, hash] of Object.entries(SHIPPED)) {
      const text = fs.readFileSync(path.join(dir, `${name}.ts`));
      expect(createHash('sha256').update(text).digest('hex'), name).toBe(hash);
    }
  });
});

describe('0012: approval messages keyed by type', () => {
  it('keeps every row, id and index while the key gains `type`', async () => {
    const { default: Database } = await import('better-sqlite3');
    const { Kysely, Migrator, SqliteDialect, sql } = await import('kysely');
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0011_approval_requests')).error).toBeUndefined();
    await db
      .insertInto('user')
      .values({ account: 'a', user_name: 'A', password_hash: 'x', enabled: 1, created_at: 0, updated_at: 0 })
      .execute();
    const row = { user_id: 1, actvity_id: 7, title: 't', status: 1, open: 1, start_time: 0, created_at: 0 };
    await db
      .insertInto('approval_message')
      .values({ ...row, id: 41, type: 'workflow' })
      .execute();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await db.selectFrom('approval_message').select(['id', 'type']).execute()).toEqual([
      { id: 41, type: 'workflow' },
    ]);
    // Another module's request with the same id is its own message now.
    await db
      .insertInto('approval_message')
      .values({ ...row, type: 'resourceUpload' })
      .execute();
    await expect(
      db
        .insertInto('approval_message')
        .values({ ...row, type: 'workflow' })
        .execute(),
    ).rejects.toThrow();
    const indexes = await sql<{
      name: string;
    }>`select name from sqlite_master where type = 'index' and tbl_name = 'approval_message'`.execute(db);
    expect(indexes.rows.map((r) => r.name)).toEqual(
      expect.arrayContaining([
        'approval_message_user_idx',
        'approval_message_actvity_idx',
        'approval_message_request_idx',
      ]),
    );
    await db.destroy();
  });
});

describe('0019: the attendance summaries move under 考勤', () => {
  it('renames existing grants so every role keeps its pages, and nothing else changes', async () => {
    const { default: Database } = await import('better-sqlite3');
    const { Kysely, Migrator, SqliteDialect } = await import('kysely');
    const { allLeafKeys } = await import('../../src/shared/menu/catalogue');
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0018_wk_dynamic')).error).toBeUndefined();
    await db
      .insertInto('role')
      .values([
        { id: 1, code: 'myselfRole', name: '普通员工' },
        { id: 2, code: 'clerk', name: '人事专员' },
        { id: 3, code: 'curator', name: '策展人' },
      ])
      .execute();
    const grant = (role_id: number, keys: string[]) => keys.map((menu_key) => ({ role_id, menu_key }));
    await db
      .insertInto('role_menu')
      .values([
        ...grant(1, [
          'home.workbench',
          'oa.attendance.person',
          'oa.project.personalSummary',
          'oa.project.list',
        ]),
        ...grant(2, ['oa.attendance.overview', 'oa.project.departmentSummary', 'oa.project.personalSummary']),
        ...grant(3, ['oa.project.list', 'oa.project.progress']),
      ])
      .execute();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const keysOf = async (roleId: number) =>
      (await db.selectFrom('role_menu').select('menu_key').where('role_id', '=', roleId).execute())
        .map((r) => r.menu_key as string)
        .sort();
    // 0020 grants myselfRole 业务数据 (every member of staff reports their own month), 0040 the
    // reading room's reader entries.
    expect(await keysOf(1)).toEqual([
      'book.book',
      'book.borrowRecord',
      'book.panel',
      'book.periodical',
      'book.publication',
      'book.receiveRecord',
      'home.workbench',
      'oa.attendance.person',
      'oa.attendance.personalSummary',
      'oa.dataManagement',
      'oa.project.list',
    ]);
    expect(await keysOf(2)).toEqual([
      'oa.attendance.departmentSummary',
      'oa.attendance.overview',
      'oa.attendance.personalSummary',
    ]);
    expect(await keysOf(3)).toEqual(['oa.project.list', 'oa.project.progress']);
    // Every key left is one the catalogue grants today.
    const leaves = new Set(allLeafKeys());
    for (const id of [1, 2, 3]) for (const key of await keysOf(id)) expect(leaves.has(key), key).toBe(true);

    // And back, for a rollback (to the migration before it, whatever came after).
    expect((await migrator.migrateTo('0018_wk_dynamic')).error).toBeUndefined();
    expect(await keysOf(2)).toEqual([
      'oa.attendance.overview',
      'oa.project.departmentSummary',
      'oa.project.personalSummary',
    ]);
    await db.destroy();
  });
});

describe('0030: 意向服务组 becomes several groups', () => {
  it("carries each application's one group over as ',3,' and leaves one without a group empty", async () => {
    const { default: Database } = await import('better-sqlite3');
    const { Kysely, Migrator, SqliteDialect } = await import('kysely');
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0029_volunteer_accounts')).error).toBeUndefined();
    const row = { type: 1, name: '林晓', create_time: 0, update_time: 0 };
    await db
      .insertInto('volunteer_application')
      .values([
        { ...row, id: 1, group_id: 3 },
        { ...row, id: 2, group_id: 12 },
        { ...row, id: 3, group_id: null },
      ])
      .execute();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(
      await db.selectFrom('volunteer_application').select(['id', 'group_ids']).orderBy('id').execute(),
    ).toEqual([
      { id: 1, group_ids: ',3,' },
      { id: 2, group_ids: ',12,' },
      { id: 3, group_ids: '' },
    ]);
    await db.destroy();
  });
});
