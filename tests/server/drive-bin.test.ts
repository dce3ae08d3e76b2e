import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecoveryEntry } from '../../src/shared/api/drive';
import { areaOf } from '../../src/server/modules/drive/area';
import type { DriveService } from '../../src/server/modules/drive/drive.service';
import { driveServiceOf, startServer, type TestServer } from './harness';
import { blobExists, stagedLeft } from './store-probe';
import { NOT_FOUND, driveUser, failed, fullName, ok, type DriveUser } from './drive-util';

/*
 * Deleting (to the bin in batches, or for good), the recycle bin, restoring with the collision
 * rule and recreated parents, blobs freed when nothing references them, quota and storage.
 */

let s: TestServer;
let svc: DriveService;
let me: DriveUser;
let other: DriveUser;

beforeAll(async () => {
  s = await startServer();
  svc = driveServiceOf(s);
  me = await driveUser(s, 'staff02', svc);
  other = await driveUser(s, 'staff10', svc);
});
afterAll(() => s.close());

const md5 = (x: string) => createHash('md5').update(x).digest('hex');
const bin = async (user = me) => {
  const res = await user.post('/recoveryfile/list', {});
  expect(res.body.success).toBe(true);
  return res.body.data as { list: any[]; total: number };
};
const rowsOfBatch = (batch: string) =>
  s.db.selectFrom('user_file').selectAll().where('delete_batch_num', '=', batch).execute();
const restore = (entry: { deleteBatchNum: string; filePath: string }, user = me) =>
  user.post('/recoveryfile/restorefile', { deleteBatchNum: entry.deleteBatchNum, filePath: entry.filePath });

describe('file/deletefile to the recycle bin', () => {
  it('bins a folder with its subtree as one batch; the bin lists only the top item', async () => {
    await me.put('/tree/', 'a.txt', 'a');
    await me.put('/tree/sub/', 'b.txt', 'b');
    const id = await me.idOf('/', 'tree');
    const res = await me.post('/file/deletefile', { userFileId: id, deleteMode: 1 });
    expect(res.body.success).toBe(true);
    const recoveryFileId = res.body.data;
    expect(typeof recoveryFileId).toBe('number');
    expect(await me.names('/')).not.toContain('tree/');

    const { list, total } = await bin();
    expect(total).toBe(1);
    const [entry] = list;
    expect(RecoveryEntry.parse(entry)).toEqual(entry);
    expect(entry).toMatchObject({
      recoveryFileId,
      userFileId: id,
      fileName: 'tree',
      isDir: 1,
      filePath: '/',
    });
    expect(entry.deleteTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(entry.deleteFlag).not.toBe(0);
    const batch = await rowsOfBatch(entry.deleteBatchNum);
    expect(batch.map((r) => r.file_name).sort()).toEqual(['a', 'b', 'sub', 'tree']);
    expect(batch.every((r) => r.delete_flag !== 0 && r.delete_time !== null)).toBe(true);
  });

  it('gives each top item of a batch delete its own batch and bin entry', async () => {
    const a = await me.put('/', 'one.txt', '1');
    const b = await me.put('/', 'two.txt', '2');
    const res = await me.post('/file/batchdeletefile', {
      files: JSON.stringify([{ userFileId: a }, { userFileId: b }]),
    });
    expect(res.body.success).toBe(true);
    expect(res.body.data).toHaveLength(2);
    const entries = (await bin()).list.filter((e) => res.body.data.includes(e.recoveryFileId));
    expect(entries.map(fullName).sort()).toEqual(['one.txt', 'two.txt']);
    expect(new Set(entries.map((e) => e.deleteBatchNum)).size).toBe(2);
  });

  it('refuses another person’s id and an item already binned, like a missing one', async () => {
    const theirs = await other.put('/', 'their.txt', 't');
    expect((await me.post('/file/deletefile', { userFileId: theirs })).body).toEqual(NOT_FOUND);
    expect(await other.names('/')).toEqual(['their.txt']);
    const id = await me.put('/', 'twice.txt', 'x');
    expect((await me.post('/file/deletefile', { userFileId: id })).body.success).toBe(true);
    expect((await me.post('/file/deletefile', { userFileId: id })).body).toEqual(NOT_FOUND);
    expect((await me.get('/file/detail', { userFileId: id })).body.data.deleteFlag).not.toBe(0);
  });

  it('never lists another person’s bin', async () => {
    expect((await bin(other)).total).toBe(0);
  });

  it('lists the bin for a bodiless POST and for a GET too', async () => {
    const bare = await s.call('POST', '/wangpan/recoveryfile/list', { token: me.token });
    const viaGet = await me.get('/recoveryfile/list');
    const expected = await bin();
    expect(expected.total).toBeGreaterThan(0);
    expect(bare.body.data).toEqual(expected);
    expect(viaGet.body.data).toEqual(expected);
  });
});

describe('recoveryfile/restorefile', () => {
  it('brings a folder back with its subtree', async () => {
    const entry = (await bin()).list.find((e) => e.fileName === 'tree');
    expect((await restore(entry)).body).toEqual(ok());
    expect(await me.names('/tree/sub/')).toEqual(['b.txt']);
    expect((await bin()).list.find((e) => e.fileName === 'tree')).toBeUndefined();
    expect(await rowsOfBatch(entry.deleteBatchNum)).toEqual([]);
  });

  it('answers a double restore and an unknown batch clearly', async () => {
    const id = await me.put('/', 'r.txt', 'r');
    await me.post('/file/deletefile', { userFileId: id });
    const entry = (await bin()).list.find((e) => e.userFileId === id);
    expect((await restore(entry)).body).toEqual(ok());
    expect((await restore(entry)).body).toEqual(failed(404, '该文件已还原或已被彻底删除'));
    const unknown = await restore({ deleteBatchNum: '3f1c2a9e-1111-4222-8333-444455556666', filePath: '/' });
    expect(unknown.body).toEqual(failed(404, '该文件已还原或已被彻底删除'));
    const bad = await restore({ deleteBatchNum: 'x', filePath: '/' });
    expect(bad.status).toBe(400);
  });

  it('recreates missing parent folders', async () => {
    const id = await me.put('/p/q/', 'f.txt', 'f');
    await me.post('/file/deletefile', { userFileId: id });
    const p = await me.idOf('/', 'p');
    await me.post('/file/deletefile', { userFileId: p, deleteMode: 2 });
    expect(await me.names('/')).not.toContain('p/');
    const entry = (await bin()).list.find((e) => e.userFileId === id);
    expect(entry.filePath).toBe('/p/q/');
    expect((await restore(entry)).body).toEqual(ok());
    expect(await me.names('/p/q/')).toEqual(['f.txt']);
  });

  it('gives a restored file name(n) when its name is taken meanwhile', async () => {
    const id = await me.put('/', 'clash.txt', 'old');
    await me.post('/file/deletefile', { userFileId: id });
    await me.put('/', 'clash.txt', 'new');
    const entry = (await bin()).list.find((e) => e.userFileId === id);
    expect((await restore(entry)).body).toEqual(ok());
    expect((await me.names('/')).filter((n) => n.startsWith('clash'))).toEqual(['clash.txt', 'clash(1).txt']);
    expect((await me.get('/file/detail', { userFileId: id })).body.data.fileName).toBe('clash(1)');
  });

  it('merges a restored folder into a folder of the same name made meanwhile', async () => {
    await me.put('/merge/', 'x.txt', 'old x');
    await me.put('/merge/', 'y.txt', 'y');
    const id = await me.idOf('/', 'merge');
    await me.post('/file/deletefile', { userFileId: id });
    await me.put('/merge/', 'x.txt', 'new x');
    await me.put('/merge/', 'z.txt', 'z');
    const entry = (await bin()).list.find((e) => e.userFileId === id);
    expect((await restore(entry)).body).toEqual(ok());
    expect(await me.names('/merge/')).toEqual(['x.txt', 'x(1).txt', 'y.txt', 'z.txt']);
    expect((await me.names('/')).filter((n) => n.startsWith('merge'))).toEqual(['merge/']);
  });

  it('refuses another person’s batch like an unknown one', async () => {
    const id = await other.put('/', 'mine.txt', 'm');
    await other.post('/file/deletefile', { userFileId: id });
    const entry = (await bin(other)).list[0];
    expect((await restore(entry, me)).body).toEqual(failed(404, '该文件已还原或已被彻底删除'));
    expect((await bin(other)).total).toBe(1);
  });
});

describe('permanent deletion and blobs', () => {
  it('deleteMode 2 removes the rows and the bytes nothing references any more', async () => {
    const a = await me.put('/', 'shared1.txt', 'same bytes');
    const b = await me.put('/', 'shared2.txt', 'same bytes');
    const key = md5('same bytes');
    expect(await s.db.selectFrom('blob').selectAll().where('md5', '=', key).execute()).toHaveLength(1);
    expect(await blobExists(s, key)).toBe(true);
    expect((await me.post('/file/deletefile', { userFileId: a, deleteMode: 2 })).body).toEqual(ok());
    expect((await bin()).list.find((e) => e.userFileId === a)).toBeUndefined();
    expect(await blobExists(s, key)).toBe(true); // still used by shared2
    expect((await me.post('/file/deletefile', { userFileId: b, deleteMode: 2 })).body).toEqual(ok());
    expect(await blobExists(s, key)).toBe(false);
    expect(await s.db.selectFrom('blob').selectAll().where('md5', '=', key).execute()).toEqual([]);
  });

  it('keeps bytes another person still references', async () => {
    const mine = await me.put('/', 'common.txt', 'common bytes');
    await other.put('/', 'common.txt', 'common bytes');
    await me.post('/file/deletefile', { userFileId: mine, deleteMode: 2 });
    expect(await blobExists(s, md5('common bytes'))).toBe(true);
  });

  it('empties a bin entry with its whole batch, and answers a second try cleanly', async () => {
    await me.put('/gone/', 'g1.txt', 'g1 bytes');
    await me.put('/gone/deeper/', 'g2.txt', 'g2 bytes');
    const id = await me.idOf('/', 'gone');
    const rid = (await me.post('/file/deletefile', { userFileId: id })).body.data;
    const batch = (await bin()).list.find((e) => e.recoveryFileId === rid).deleteBatchNum;
    const purge = () => me.post('/recoveryfile/deleterecoveryfile', { recoveryFileId: rid });
    expect((await purge()).body).toEqual(ok());
    expect(await rowsOfBatch(batch)).toEqual([]);
    expect(await blobExists(s, md5('g1 bytes'))).toBe(false);
    expect(await blobExists(s, md5('g2 bytes'))).toBe(false);
    expect((await purge()).body).toEqual(failed(404, '该文件已被彻底删除或不存在'));
    expect((await restore({ deleteBatchNum: batch, filePath: '/' })).body).toEqual(
      failed(404, '该文件已还原或已被彻底删除'),
    );
  });

  it('refuses another person’s bin entry like a purged one', async () => {
    const theirs = (await bin(other)).list[0];
    const res = await me.post('/recoveryfile/deleterecoveryfile', { recoveryFileId: theirs.recoveryFileId });
    expect(res.body).toEqual(failed(404, '该文件已被彻底删除或不存在'));
    expect((await bin(other)).total).toBe(1);
  });

  it('empties several entries at once, all or nothing', async () => {
    const ids = [await me.put('/', 'e1.txt', 'e1'), await me.put('/', 'e2.txt', 'e2')];
    const rids = (
      await me.post('/file/batchdeletefile', { files: ids.map((userFileId) => ({ userFileId })) })
    ).body.data;
    const theirs = (await bin(other)).list[0].recoveryFileId;
    const mixed = await me.post('/recoveryfile/batchdelete', {
      recoveryFileIds: JSON.stringify([{ recoveryFileId: rids[0] }, { recoveryFileId: theirs }]),
    });
    expect(mixed.body).toEqual(failed(404, '该文件已被彻底删除或不存在'));
    expect((await bin()).list.filter((e) => rids.includes(e.recoveryFileId))).toHaveLength(2);
    const res = await me.post('/recoveryfile/batchdelete', {
      recoveryFileIds: JSON.stringify(rids.map((recoveryFileId: number) => ({ recoveryFileId }))),
    });
    expect(res.body).toEqual(ok());
    expect((await bin()).list.filter((e) => rids.includes(e.recoveryFileId))).toEqual([]);
    const bad = await me.post('/recoveryfile/batchdelete', { recoveryFileIds: 'nope' });
    expect(bad.status).toBe(400);
  });
});

describe('quota and storage', () => {
  it('counts live and binned files, and gives bytes back on permanent deletion', async () => {
    const u = await driveUser(s, 'staff03', svc);
    expect((await u.get('/filetransfer/getstorage')).body).toEqual(
      ok({ storageSize: 0, totalStorageSize: s.config.defaultQuotaBytes }),
    );
    const a = await u.put('/', 'a.bin', Buffer.alloc(1000));
    await u.put('/', 'b.bin', Buffer.alloc(500, 2));
    await u.post('/file/deletefile', { userFileId: a });
    expect((await u.get('/filetransfer/getstorage')).body.data.storageSize).toBe(1500);
    const rid = (await bin(u)).list[0].recoveryFileId;
    await u.post('/recoveryfile/deleterecoveryfile', { recoveryFileId: rid });
    expect((await u.get('/filetransfer/getstorage')).body.data.storageSize).toBe(500);
  });

  it('refuses a file that does not fit, leaving no bytes behind', async () => {
    const u = await driveUser(s, 'staff06', svc);
    await s.db.insertInto('storage_quota').values({ user_id: u.userId, total_bytes: 2048 }).execute();
    await u.put('/', 'fits.bin', Buffer.alloc(2000, 7));
    const content = Buffer.alloc(100, 9);
    await expect(
      svc.addFile({ area: areaOf(u.userId), filePath: '/', fullName: 'over.bin', content }),
    ).rejects.toThrow('存储空间不足：还剩 48 B，需要 100 B');
    expect(await blobExists(s, createHash('md5').update(content).digest('hex'))).toBe(false);
    expect(await u.names('/')).toEqual(['fits.bin']);
    expect(await stagedLeft(s)).toBe(0);
  });

  it('restores without a quota check (the bytes were never given back)', async () => {
    const u = await driveUser(s, 'staff07', svc);
    await s.db.insertInto('storage_quota').values({ user_id: u.userId, total_bytes: 1000 }).execute();
    const id = await u.put('/', 'full.bin', Buffer.alloc(1000, 3));
    await u.post('/file/deletefile', { userFileId: id });
    expect((await restore((await bin(u)).list[0], u)).body).toEqual(ok());
    expect(await u.names('/')).toEqual(['full.bin']);
  });

  it('lets only the staff administrators set a quota', async () => {
    const admin = await driveUser(s, 'staff09', svc); // 信息管理员: system.* pages
    const body = { userId: me.userId, totalStorageSize: 123456 };
    expect((await me.post('/admin/setstorage', body)).body).toEqual(
      failed(1005, '无权限执行此操作，请联系管理员开通'),
    );
    expect((await admin.post('/admin/setstorage', body)).body).toEqual(ok());
    expect((await me.get('/filetransfer/getstorage')).body.data.totalStorageSize).toBe(123456);
    // The administrator reads the same figures for that person; others may not.
    const seen = (await admin.get('/admin/getstorage', { userId: me.userId })).body;
    expect(seen.data).toEqual({ storageSize: expect.any(Number), totalStorageSize: 123456 });
    expect((await me.get('/admin/getstorage', { userId: admin.userId })).body).toEqual(
      failed(1005, '无权限执行此操作，请联系管理员开通'),
    );
    expect((await admin.get('/admin/getstorage', { userId: 999999 })).body).toEqual(
      failed(404, '该员工不存在，请刷新后重试'),
    );
    expect((await admin.post('/admin/setstorage', { userId: 999999, totalStorageSize: 1 })).body).toEqual(
      failed(404, '该员工不存在，请刷新后重试'),
    );
    expect((await admin.post('/admin/setstorage', { userId: me.userId, totalStorageSize: -1 })).status).toBe(
      400,
    );
  });
});

describe('addFile', () => {
  it('stores by server-computed MD5, dedups equal bytes, creates parents and names clashes name(n)', async () => {
    const area = areaOf(me.userId);
    const first = await svc.addFile({
      area,
      filePath: '/up/new/',
      fullName: '图.png',
      content: Buffer.from('png!'),
    });
    const second = await svc.addFile({
      area,
      filePath: '/up/new/',
      fullName: '图.png',
      content: Buffer.from('png!'),
    });
    expect(first.md5).toBe(md5('png!'));
    expect(second).toMatchObject({ fileName: '图(1)', extendName: 'png', md5: first.md5, size: 4 });
    expect(await me.names('/up/new/')).toEqual(['图.png', '图(1).png']);
    expect(await s.db.selectFrom('blob').selectAll().where('md5', '=', first.md5).execute()).toHaveLength(1);
  });

  it('validates the name and the path', async () => {
    const area = areaOf(me.userId);
    const content = Buffer.from('x');
    await expect(svc.addFile({ area, filePath: '/', fullName: '../x', content })).rejects.toThrow(/不能包含/);
    await expect(svc.addFile({ area, filePath: '/../', fullName: 'x', content })).rejects.toThrow(
      '路径包含不合法的文件夹名称',
    );
  });
});
