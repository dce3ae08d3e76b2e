import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryTemplate } from '../../src/server/db/query-template';
import * as repo from '../../src/server/modules/drive/drive.repo';
import { driveUser, type DriveUser } from './drive-util';
import { startServer, type TestServer } from './harness';

/*
 * Issue 25: a hot query compiled once per shape (src/server/db/query-template.ts), and SQLite's
 * LIMIT written into the SQL (src/server/db/statement-cache.ts). Runs on SQLite and, in the
 * PostgreSQL pass, on PostgreSQL.
 */

let s: TestServer;
let me: DriveUser;
let other: DriveUser;

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  me = await driveUser(s, 'staff02');
  other = await driveUser(s, 'staff10');
  await me.mkdir('/', '模板');
  for (const name of ['乙', '甲', '丙']) await me.mkdir('/模板/', name);
  for (const name of ['b.txt', 'a.txt', 'c.txt', 'd.txt']) await me.put('/模板/', name, name);
  await other.mkdir('/', '模板');
  await other.put('/模板/', 'only.txt', 'x');
});
afterAll(() => s.close());

describe('queryTemplate', () => {
  const byName = queryTemplate((db, shape: { order: 'asc' | 'desc' }, v: { space: string; path: string }) =>
    db
      .selectFrom('user_file')
      .select(['id', 'file_name'])
      .where('space', '=', v.space)
      .where('file_path', '=', v.path)
      .where('delete_flag', '=', 0)
      .orderBy('file_name', shape.order)
      .orderBy('id', shape.order),
  );
  const built = (space: string, order: 'asc' | 'desc') =>
    s.db
      .selectFrom('user_file')
      .select(['id', 'file_name'])
      .where('space', '=', space)
      .where('file_path', '=', '/模板/')
      .where('delete_flag', '=', 0)
      .orderBy('file_name', order)
      .orderBy('id', order)
      .execute();

  it('answers each run with its own values, not the first run’s', async () => {
    const mine = await byName(s.db, { order: 'asc' }, { space: `u:${me.userId}`, path: '/模板/' });
    const theirs = await byName(s.db, { order: 'asc' }, { space: `u:${other.userId}`, path: '/模板/' });
    expect(mine).toEqual(await built(`u:${me.userId}`, 'asc'));
    expect(mine).toHaveLength(7);
    expect(theirs).toEqual(await built(`u:${other.userId}`, 'asc'));
    expect(theirs.map((r) => r.file_name)).toEqual(['only']);
    // A value no row has: nothing, not the last answer.
    expect(await byName(s.db, { order: 'asc' }, { space: `u:${me.userId}`, path: '/没有/' })).toEqual([]);
  });

  it('compiles a shape of its own for each shape', async () => {
    const asc = await byName(s.db, { order: 'asc' }, { space: `u:${me.userId}`, path: '/模板/' });
    const desc = await byName(s.db, { order: 'desc' }, { space: `u:${me.userId}`, path: '/模板/' });
    expect(desc).toEqual(await built(`u:${me.userId}`, 'desc'));
    expect(desc).toEqual([...asc].reverse());
  });
});

describe('the first page of a folder (listFirstPage)', () => {
  it('is the page listFolderPage reads after the counts, for every page size around the folders', async () => {
    const { total, dirs } = await repo.folderCounts(s.db, `u:${me.userId}`, '/模板/');
    expect({ total, dirs }).toEqual({ total: 7, dirs: 3 });
    for (const pageCount of [1, 2, 3, 4, 7, 50]) {
      for (const order of ['asc', 'desc'] as const) {
        const first = await repo.listFirstPage(s.db, `u:${me.userId}`, '/模板/', {
          sort: 'name',
          order,
          pageCount,
        });
        const dirLimit = Math.min(pageCount, dirs);
        const plain = await repo.listFolderPage(s.db, `u:${me.userId}`, '/模板/', {
          sort: 'name',
          order,
          dirOffset: 0,
          dirLimit,
          fileOffset: 0,
          fileLimit: pageCount - dirLimit,
        });
        expect(
          first.rows.map((r) => r.id),
          `${pageCount} ${order}`,
        ).toEqual(plain.map((r) => r.id));
        // The same row, whole (it may carry the two count columns besides).
        expect(first.rows[0]).toMatchObject(plain[0]!);
        expect({ total: first.total, dirs: first.dirs }).toEqual({ total, dirs });
      }
    }
    // Another person's folder of the same path, through the same compiled statement.
    const theirs = await repo.listFirstPage(s.db, `u:${other.userId}`, '/模板/', {
      sort: 'name',
      order: 'asc',
      pageCount: 50,
    });
    expect(theirs.rows.map((r) => r.file_name)).toEqual(['only']);
    expect({ total: theirs.total, dirs: theirs.dirs }).toEqual({ total: 1, dirs: 0 });
    expect(
      await repo.listFirstPage(s.db, `u:${me.userId}`, '/没有/', {
        sort: 'name',
        order: 'asc',
        pageCount: 50,
      }),
    ).toEqual({
      rows: [],
      total: 0,
      dirs: 0,
    });
  });
});

describe('LIMIT on SQLite', () => {
  it('is written into the SQL as a number, and bound on PostgreSQL', () => {
    const q = s.db.selectFrom('user_file').select('id').limit(100).offset(200).compile();
    if (s.config.databaseUrl) {
      expect(q.sql).toMatch(/limit \$\d+ offset \$\d+$/);
      expect(q.parameters).toEqual([100, 200]);
    } else {
      // OFFSET stays bound: a text per page number would crowd the statement cache.
      expect(q.sql).toMatch(/limit 100 offset \?$/);
      expect(q.parameters).toEqual([200]);
    }
  });

  it('is bound when it is not a whole number a page size could be', () => {
    if (s.config.databaseUrl) return;
    for (const odd of [1.5, -1, Number.MAX_SAFE_INTEGER + 2]) {
      const q = s.db.selectFrom('user_file').select('id').limit(odd).compile();
      expect(q.sql, String(odd)).toMatch(/limit \?$/);
      expect(q.parameters).toEqual([odd]);
    }
  });
});
