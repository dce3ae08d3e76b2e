import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { NOT_FOUND, W, driveUser, failed, ok, type DriveUser } from './drive-util';

/*
 * The shared libraries: 其他资源 (fileType=9, isAdmin=1) and 高清图片 (isFmt=2). Every signed-in
 * person browses, searches and downloads them; only holders of the management page's grant
 * change them, and deleting in 其他资源 also needs isAdmin=1. They have no quota, and their ids
 * are not reachable from a personal drive (nor the other way round).
 */

let s: TestServer;
let keeper: DriveUser; // 典藏管理员: the 数字资源 pages, management included
let staff: DriveUser; // no role: the personal drive only
const RES = { fileType: 9 };
const RES_ADMIN = { fileType: 9, isAdmin: 1 };
const HD = { isFmt: 2 };

beforeAll(async () => {
  s = await startServer();
  keeper = await driveUser(s, 'staff04');
  staff = await driveUser(s, 'staff02');
});
afterAll(() => s.close());

describe('其他资源 (fileType 9)', () => {
  let fileId: number;

  it('starts empty and is browsable by everyone', async () => {
    expect(await staff.names('/', RES)).toEqual([]);
    expect(await keeper.names('/', RES_ADMIN)).toEqual([]);
  });

  it('lets only its managers create folders (from the management page or the fileType 9 view)', async () => {
    const denied = await staff.post('/file/createfile', {
      filePath: '/',
      fileName: '规章',
      isDir: 1,
      ...RES,
    });
    expect(denied.body).toEqual(failed(1005, '无权限管理其他资源，请联系管理员开通'));
    await keeper.mkdir('/', '规章制度', RES_ADMIN);
    await keeper.mkdir('/', '模板', RES);
    expect(await staff.names('/', RES)).toEqual(['模板/', '规章制度/']);
    expect(await staff.names('/')).toEqual([]); // not in anyone's personal drive
  });

  it('serves files to everyone: list, search, detail, tree and download', async () => {
    fileId = await keeper.put('/规章制度/', '考勤制度.pdf', 'pdf bytes', 'res');
    expect(await staff.names('/规章制度/', RES)).toEqual(['考勤制度.pdf']);
    const hits = await staff.get('/file/search', { fileName: '考勤', ...RES });
    expect(hits.body.data.list.map((h: any) => h.userFileId)).toEqual([fileId]);
    expect((await staff.get('/file/search', { fileName: '考勤' })).body.data.total).toBe(0);
    expect((await staff.get('/file/detail', { userFileId: fileId, ...RES })).body.data.fileName).toBe(
      '考勤制度',
    );
    const tree = (await staff.get('/file/getfiletree', RES)).body.data;
    expect(tree.children.map((c: any) => c.label)).toEqual(['模板', '规章制度']);
    const res = await fetch(`${s.url}${W}/filetransfer/downloadfile?userFileId=${fileId}&isFmt=1`, {
      headers: { token: staff.token },
    });
    expect(await res.text()).toBe('pdf bytes');
  });

  it('keeps its ids apart from personal drives, both ways', async () => {
    expect((await staff.get('/file/detail', { userFileId: fileId })).body).toEqual(NOT_FOUND);
    expect((await keeper.post('/file/renamefile', { userFileId: fileId, fileName: 'x.pdf' })).body).toEqual(
      NOT_FOUND,
    );
    const mine = await staff.put('/', 'mine.txt', 'm');
    expect((await staff.get('/file/detail', { userFileId: mine, ...RES })).body).toEqual(NOT_FOUND);
    expect((await keeper.post('/file/deletefile', { userFileId: mine, ...RES_ADMIN })).body).toEqual(
      NOT_FOUND,
    );
  });

  it('refuses changes by non-managers', async () => {
    const denied = failed(1005, '无权限管理其他资源，请联系管理员开通');
    const folder = await keeper.idOf('/', '模板', RES);
    expect(
      (await staff.post('/file/renamefile', { userFileId: fileId, fileName: 'x.pdf', ...RES })).body,
    ).toEqual(denied);
    expect(
      (await staff.post('/file/movefile', { userFileId: fileId, filePath: '/模板/', ...RES })).body,
    ).toEqual(denied);
    expect(
      (await staff.post('/file/copyfile', { userFileId: fileId, filePath: '/模板/', ...RES })).body,
    ).toEqual(denied);
    expect((await staff.post('/file/deletefile', { userFileId: folder, ...RES_ADMIN })).body).toEqual(denied);
    expect((await staff.post('/recoveryfile/list', RES_ADMIN)).body).toEqual(denied);
    expect(await staff.names('/', RES)).toEqual(['模板/', '规章制度/']);
  });

  it('lets managers rename, copy and move within it, without any quota', async () => {
    await s.db.insertInto('storage_quota').values({ user_id: keeper.userId, total_bytes: 1 }).execute();
    expect(
      (await keeper.post('/file/copyfile', { userFileId: fileId, filePath: '/模板/', ...RES_ADMIN })).body,
    ).toEqual(ok());
    const copy = await keeper.idOf('/模板/', '考勤制度.pdf', RES);
    expect(
      (await keeper.post('/file/renamefile', { userFileId: copy, fileName: '考勤模板.pdf', ...RES_ADMIN }))
        .body,
    ).toEqual(ok());
    expect(
      (await keeper.post('/file/movefile', { userFileId: copy, filePath: '/', ...RES_ADMIN })).body,
    ).toEqual(ok());
    expect(await staff.names('/', RES)).toEqual(['模板/', '规章制度/', '考勤模板.pdf']);
    expect((await keeper.get('/filetransfer/getstorage')).body.data.storageSize).toBe(0);
  });

  it('deletes only from the management view (isAdmin=1); its bin belongs to its managers', async () => {
    const id = await keeper.idOf('/', '考勤模板.pdf', RES);
    const fromView = await keeper.post('/file/deletefile', { userFileId: id, ...RES });
    expect(fromView.body).toEqual(failed(1005, '删除其他资源需在其他资源管理页面操作'));
    const del = await keeper.post('/file/deletefile', { userFileId: id, ...RES_ADMIN });
    expect(del.body.success).toBe(true);
    const bin = (await keeper.post('/recoveryfile/list', RES_ADMIN)).body.data.list;
    expect(bin.map((e: any) => e.userFileId)).toEqual([id]);
    expect((await keeper.get('/file/detail', { userFileId: id, ...RES })).body.data.deleteFlag).not.toBe(0);
    expect((await staff.get('/file/detail', { userFileId: id, ...RES })).body).toEqual(NOT_FOUND);
    expect((await keeper.post('/recoveryfile/list', {})).body.data.list).toEqual([]); // not in the personal bin
    const restore = await keeper.post('/recoveryfile/restorefile', {
      deleteBatchNum: bin[0].deleteBatchNum,
      filePath: bin[0].filePath,
      ...RES_ADMIN,
    });
    expect(restore.body).toEqual(ok());
    expect(await staff.names('/', RES)).toContain('考勤模板.pdf');
  });
});

describe('高清图片 (isFmt 2)', () => {
  it('is browsable by everyone and managed by the 高清图管理 grant', async () => {
    const denied = await staff.post('/file/createfile', { filePath: '/', fileName: '青铜', isDir: 1, ...HD });
    expect(denied.body).toEqual(failed(1005, '无权限管理高清图片，请联系管理员开通'));
    await keeper.mkdir('/', '青铜', HD);
    await keeper.put('/青铜/', '鼎.tif', 'tif', 'hd');
    expect(await staff.names('/青铜/', HD)).toEqual(['鼎.tif']);
    expect(await staff.names('/', RES)).not.toContain('青铜/');
  });

  it('deletes permanently in one step: no bin entry is left', async () => {
    const id = await keeper.idOf('/青铜/', '鼎.tif', HD);
    expect(
      (await staff.post('/file/deletefile', { userFileId: id, deleteMode: 2, ...HD })).body.success,
    ).toBe(false);
    expect((await keeper.post('/file/deletefile', { userFileId: id, deleteMode: 2, ...HD })).body).toEqual(
      ok(),
    );
    expect(await staff.names('/青铜/', HD)).toEqual([]);
    expect((await keeper.post('/recoveryfile/list', HD)).body.data.list).toEqual([]);
  });

  it('supports the spec’s two-step form too: delete, then clear the bin entries it answered', async () => {
    const id = await keeper.put('/青铜/', '簋.tif', 'gui', 'hd');
    const del = await keeper.post('/file/batchdeletefile', {
      files: [{ userFileId: id }],
      deleteMode: 1,
      ...HD,
    });
    const ids = del.body.data as number[];
    expect(ids).toHaveLength(1);
    const purge = await keeper.post('/recoveryfile/batchdelete', {
      recoveryFileIds: ids.map((recoveryFileId) => ({ recoveryFileId })),
      ...HD,
    });
    expect(purge.body).toEqual(ok());
    expect((await keeper.post('/recoveryfile/list', HD)).body.data.list).toEqual([]);
  });
});
