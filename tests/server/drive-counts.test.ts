import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as repo from '../../src/server/modules/drive/drive.repo';
import { W, driveUser, fullName, type DriveUser } from './drive-util';
import { appPasswordFor, at, basic, davClient, PERSONAL, type Dav } from './dav-util';
import { startServer, type TestServer } from './harness';
import { md5, paramsOf, testRequest, uploadAll } from './upload-util';
import { rawZip, unzip } from './unzip-util';

/*
 * Issue 25: the listing reads each folder's counts from folder_count (kept by triggers on
 * user_file, migration 0051) and pages from whichever end of a folder is nearer. Here every
 * kind of change goes through the API, and after each one the stored counts must equal a real
 * COUNT of the rows, for every folder of every area; and every page, by every sort and order,
 * must be exactly what OFFSET paging answers, ties included.
 */

let s: TestServer;
let me: DriveUser;
let other: DriveUser;
let dav: Dav;

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  me = await driveUser(s, 'staff02');
  other = await driveUser(s, 'staff10');
  dav = davClient(s, basic('staff02', await appPasswordFor(s, 'staff02')));
});
afterAll(() => s.close());

type Counts = Record<string, { total: number; dirs: number }>;

/** folder_count as stored, without the rows left at zero. */
async function stored(): Promise<Counts> {
  const rows = await s.db.selectFrom('folder_count').selectAll().where('total', '<>', 0).execute();
  return Object.fromEntries(
    rows.map((r) => [`${r.space} ${r.file_path}`, { total: Number(r.total), dirs: Number(r.dirs) }]),
  );
}

/** The same numbers counted from user_file. */
async function counted(): Promise<Counts> {
  const rows = await s.db
    .selectFrom('user_file')
    .where('delete_flag', '=', 0)
    .groupBy(['space', 'file_path'])
    .select((eb) => [
      'space',
      'file_path',
      eb.fn.countAll<number>().as('total'),
      eb.fn.sum<number>('is_dir').as('dirs'),
    ])
    .execute();
  return Object.fromEntries(
    rows.map((r) => [`${r.space} ${r.file_path}`, { total: Number(r.total), dirs: Number(r.dirs) }]),
  );
}

async function expectConsistent(after: string) {
  const [a, b] = [await stored(), await counted()];
  expect(a, `stored counts after ${after}`).toEqual(b);
  // And no count ever below zero (a decrement without its increment).
  const negative = await s.db.selectFrom('folder_count').selectAll().where('total', '<', 0).execute();
  expect(negative, after).toEqual([]);
}

async function ok(res: Promise<{ body: any }>, what: string) {
  const r = await res;
  expect(r.body?.success, `${what}: ${JSON.stringify(r.body)}`).toBe(true);
  return r.body.data;
}

describe('folder_count', () => {
  it('equals a real COUNT after every kind of change', async () => {
    await expectConsistent('start (demo data, backfilled by the migration)');

    // mkdir, nested
    const a = await me.mkdir('/', '计数甲');
    await me.mkdir('/计数甲/', '子目录');
    await expectConsistent('createfile');

    // upload through the chunk protocol, and an instant upload of the same bytes
    const bytes = Buffer.from('藏品登记表'.repeat(50));
    const p = paramsOf(bytes, '登记表.txt', { filePath: '/计数甲/' }, 64 * 1024);
    await testRequest(s, me.token, p);
    expect((await uploadAll(s, me.token, bytes, p)).success).toBe(true);
    await expectConsistent('chunked upload');
    const again = paramsOf(bytes, '登记表副本.txt', { filePath: '/计数甲/子目录/' }, 64 * 1024);
    expect((await testRequest(s, me.token, again)).data?.skipUpload).toBe(true);
    await expectConsistent('instant upload');

    // rename a file and a folder (its subtree moves with it)
    const fileId = await me.idOf('/计数甲/', '登记表.txt');
    await ok(me.post('/file/renamefile', { userFileId: fileId, fileName: '登记表-改' }), 'rename file');
    await ok(me.post('/file/renamefile', { userFileId: a, fileName: '计数乙' }), 'rename folder');
    await expectConsistent('renamefile');

    // copy and move, single and batch
    const b = await me.mkdir('/', '计数丙');
    await ok(me.post('/file/copyfile', { userFileId: a, filePath: '/计数丙/' }), 'copy folder');
    await expectConsistent('copyfile');
    const sub = await me.idOf('/计数乙/', '子目录');
    await ok(me.post('/file/movefile', { userFileId: sub, filePath: '/计数丙/' }), 'move folder');
    await expectConsistent('movefile');
    const f1 = await me.put('/', '散件一.txt', '一');
    const f2 = await me.put('/', '散件二.txt', '二');
    await ok(
      me.post('/file/batchmovefile', {
        files: JSON.stringify([{ userFileId: f1 }, { userFileId: f2 }]),
        filePath: '/计数乙/',
      }),
      'batch move',
    );
    await ok(
      me.post('/file/batchcopyfile', { files: JSON.stringify([{ userFileId: f1 }]), filePath: '/计数丙/' }),
      'batch copy',
    );
    await expectConsistent('batch move and copy');

    // to the recycle bin (a folder with its subtree, a file, a batch), restore, purge
    await ok(me.post('/file/deletefile', { userFileId: b }), 'bin folder');
    await ok(me.post('/file/deletefile', { userFileId: f2 }), 'bin file');
    await expectConsistent('deletefile to the bin');
    const bin = (await me.get('/recoveryfile/list')).body.data.list as {
      deleteBatchNum: string;
      filePath: string;
      fileName: string;
      recoveryFileId: number;
    }[];
    const folderEntry = bin.find((e) => e.fileName === '计数丙')!;
    await ok(
      me.post('/recoveryfile/restorefile', {
        deleteBatchNum: folderEntry.deleteBatchNum,
        filePath: folderEntry.filePath,
      }),
      'restore',
    );
    await expectConsistent('restorefile');
    const fileEntry = bin.find((e) => e.fileName === '散件二')!;
    await ok(
      me.post('/recoveryfile/deleterecoveryfile', { recoveryFileId: fileEntry.recoveryFileId }),
      'purge',
    );
    await expectConsistent('deleterecoveryfile');
    await ok(me.post('/file/deletefile', { userFileId: f1, deleteMode: 2 }), 'delete for good');
    await expectConsistent('deletefile for good');

    // unzip
    const zipId = await me.put(
      '/计数乙/',
      '档案.zip',
      rawZip([
        { name: 'docs/', flags: 0x800 },
        { name: 'docs/说明.txt', data: Buffer.from('你好'), flags: 0x800 },
        { name: 'top.txt', data: Buffer.from('top'), flags: 0x800 },
      ]),
    );
    const job = await unzip(me, { userFileId: zipId, unzipMode: 1 });
    expect(job.status, JSON.stringify(job)).toBe('done');
    await expectConsistent('unzipfile');

    // save from another person's share
    const shared = await other.mkdir('/', '共享资料');
    await other.put('/共享资料/', '清单.txt', '清单');
    const share = await ok(
      other.post('/share/sharefile', {
        files: JSON.stringify([{ userFileId: shared }]),
        endTime: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 19).replace('T', ' '),
        shareType: 0,
        remarks: '',
      }),
      'share',
    );
    await ok(
      me.post('/share/savesharefile', {
        shareBatchNum: share.shareBatchNum,
        files: [{ userFileId: shared }],
        filePath: '/计数乙/',
      }),
      'save share',
    );
    await expectConsistent('savesharefile');

    // office: a new document, a save over it and a save as a copy
    const doc = await ok(
      me.post('/office/createofficefile', { extendName: 'docx', filePath: '/计数乙/', fileName: '报告' }),
      'office',
    );
    await expectConsistent('createofficefile');
    const docx = await fetch(`${s.url}${W}/filetransfer/downloadfile?userFileId=${doc.userFileId}`, {
      headers: { token: me.token },
    }).then((r) => r.arrayBuffer());
    const saveAsCopy = await fetch(
      `${s.url}${W}/office/savefile?userFileId=${doc.userFileId}&asCopy=1&baseMd5=${md5(Buffer.from(docx))}`,
      {
        method: 'POST',
        headers: { token: me.token, 'content-type': 'application/octet-stream' },
        body: Buffer.from(docx),
      },
    );
    expect(saveAsCopy.status, await saveAsCopy.text()).toBe(200);
    await expectConsistent('office savefile as a copy');

    // WebDAV: MKCOL, PUT, MOVE, COPY, DELETE
    expect((await dav('MKCOL', at(PERSONAL, '挂载目录'))).status).toBe(201);
    expect((await dav('PUT', at(PERSONAL, '挂载目录', '甲.txt'), { body: '甲' })).status).toBe(201);
    const dest = (...names: string[]) => ({ destination: `${s.url}${at(PERSONAL, ...names)}` });
    expect((await dav('COPY', at(PERSONAL, '挂载目录') + '/', { headers: dest('挂载副本') })).status).toBe(
      201,
    );
    expect(
      (await dav('MOVE', at(PERSONAL, '挂载目录', '甲.txt'), { headers: dest('计数乙', '甲.txt') })).status,
    ).toBe(201);
    expect((await dav('DELETE', at(PERSONAL, '挂载副本') + '/')).status).toBe(204);
    await expectConsistent('WebDAV');
  });

  it('is what the listing answers as total, and a missing folder is still refused', async () => {
    const list = await me.get('/file/getfilelist', { filePath: '/计数乙/', pageCount: 2 });
    const real = await repo.countFolder(s.db, `u:${me.userId}`, '/计数乙/');
    expect(list.body.data.total).toBe(real.total);
    expect(real.total).toBeGreaterThan(2);
    expect(list.body.data.list).toHaveLength(2);
    const gone = await me.get('/file/getfilelist', { filePath: '/没有这个目录/' });
    expect(gone.body).toEqual({ success: false, code: 404, message: '文件夹不存在或已被删除', data: null });
  });
});

describe('paging from the nearer end', () => {
  it('answers exactly the pages OFFSET paging answers, ties included, by every sort and order', async () => {
    // 7 folders and 23 files with many equal sizes and times (ties broken by id) and names
    // differing only by extension (equal file_name).
    await me.mkdir('/', '分页');
    for (let i = 0; i < 7; i++) await me.mkdir('/分页/', `目录${i % 3}${i}`);
    for (let i = 0; i < 23; i++) {
      const ext = ['txt', 'md', 'csv'][i % 3]!;
      await me.put('/分页/', `文件${Math.floor(i / 3)}.${ext}`, 'x'.repeat(1 + (i % 4)));
    }
    // Equal upload times for every other entry (folders included).
    const rows = await s.db
      .selectFrom('user_file')
      .select('id')
      .where('space', '=', `u:${me.userId}`)
      .where('file_path', '=', '/分页/')
      .execute();
    await s.db
      .updateTable('user_file')
      .set({ upload_time: 1_700_000_000_000 })
      .where(
        'id',
        'in',
        rows.filter((_, i) => i % 2 === 0).map((r) => r.id),
      )
      .execute();
    const space = `u:${me.userId}`;
    const { total, dirs } = await repo.folderCounts(s.db, space, '/分页/');
    expect(total).toBe(30);
    expect(dirs).toBe(7);

    for (const sort of ['name', 'time', 'size'] as const) {
      for (const order of ['asc', 'desc'] as const) {
        // The whole folder in one OFFSET page is the reference order.
        const all = (
          await me.get('/file/getfilelist', { filePath: '/分页/', pageCount: 100, sort, order })
        ).body.data.list.map((r: any) => r.userFileId);
        expect(all).toHaveLength(30);
        for (const pageCount of [1, 4, 7, 8, 13, 30]) {
          for (let page = 1; page <= Math.ceil(30 / pageCount) + 1; page++) {
            const offset = (page - 1) * pageCount;
            const res = await me.get('/file/getfilelist', {
              filePath: '/分页/',
              currentPage: page,
              pageCount,
              sort,
              order,
            });
            const ids = res.body.data.list.map((r: any) => r.userFileId);
            expect(ids, `${sort} ${order} page ${page} of ${pageCount}`).toEqual(
              all.slice(offset, offset + pageCount),
            );
            expect(res.body.data.total).toBe(30);
          }
        }
        // And the repo without the counts (plain OFFSET) answers the same rows.
        const plain = await repo.listFolderPage(s.db, space, '/分页/', {
          sort,
          order,
          dirOffset: 0,
          dirLimit: 7,
          fileOffset: 0,
          fileLimit: 23,
        });
        expect(plain.map((r) => r.id)).toEqual(all);
      }
    }
    expect(
      (await me.rows('/分页/'))
        .map(fullName)
        .slice(0, 7)
        .every((n) => n.endsWith('/')),
    ).toBe(true);
  });
});
