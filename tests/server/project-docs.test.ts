import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_MSG } from '../../src/shared/api/project';
import { IN_BIN, TARGET_MISSING } from '../../src/server/modules/drive/drive.service';
import { driveUser, fullName, type DriveUser } from './drive-util';
import { startServer, type TestServer } from './harness';
import { download, paramsOf, uploadAll } from './upload-util';
import { M } from './util';

/*
 * The project document space (issue 9, pj-docs), against a real server: the drive's own calls
 * with projectId, their rights (collaborators, administrators, archived projects), the move
 * from a personal drive (quota freed, name clashes, the bin, other people's ids), the picker
 * in both modes with search, and associating a document to a task.
 */

let s: TestServer;
const tok: Record<string, string> = {};
const uid: Record<string, number> = {};
const drv: Record<string, DriveUser> = {};

beforeAll(async () => {
  s = await startServer();
  for (const a of ['admin', 'staff02', 'staff05', 'staff06']) {
    tok[a] = await s.login(a);
    drv[a] = await driveUser(s, a);
    uid[a] = drv[a].userId;
  }
});
afterAll(() => s.close());

const post = async (who: string, p: string, body: unknown = {}) =>
  (await s.call('POST', `${M}${p}`, { token: tok[who], body })).body;
const get = async (who: string, p: string) => (await s.call('GET', `${M}${p}`, { token: tok[who] })).body;
const okOf = (res: any) => {
  expect(res.success, JSON.stringify(res)).toBe(true);
  return res.result;
};
const failOf = (res: any) => {
  expect(res.success, JSON.stringify(res)).toBe(false);
  return res.message as string;
};
/** /wangpan answers: data on success, the message otherwise. */
const wp = (res: { body: any }) => (res.body.success ? res.body.data : res.body.message);

async function newProject(who: string, name: string, userIds: number[] = []) {
  const p = okOf(await post(who, '/project/add', { name, type: 'exhibition', userIds }));
  const board = okOf(await get(who, `/project/board?projectId=${p.projectId}`));
  return { projectId: p.projectId as number, blockId: board.blocks[0].blockId as number };
}
const used = async (who: string) => wp(await drv[who]!.get('/filetransfer/getstorage')).storageSize as number;

describe('the document space: the drive calls with projectId', () => {
  it('lets collaborators list, create, upload, download and rename; others hear "not found"', async () => {
    const { projectId } = await newProject('staff05', '文档空间', [uid.staff06!]);
    const area = { projectId };
    const me = drv.staff06!;
    const folderId = await me.mkdir('/', '设计稿', area);
    // The drive's own name rules and messages.
    expect(
      wp(await me.post('/file/createfile', { filePath: '/', fileName: '设计稿', isDir: 1, ...area })),
    ).toBe('同名文件已存在');
    expect(
      wp(await me.post('/file/createfile', { filePath: '/', fileName: 'a/b', isDir: 1, ...area })),
    ).toMatch(/文件夹名称/);

    // The chunked upload lands in the project; nobody's quota pays for it.
    const before = await used('staff06');
    const bytes = Buffer.from('展线方案第一稿');
    const up = await uploadAll(
      s,
      tok.staff06!,
      bytes,
      paramsOf(bytes, '展线.txt', { filePath: '/设计稿/', projectId }),
    );
    expect(up.success, JSON.stringify(up)).toBe(true);
    expect(await used('staff06')).toBe(before);
    expect(await me.names('/设计稿/', area)).toEqual(['展线.txt']);
    expect(await me.names('/')).not.toContain('设计稿/');
    const fileId = await me.idOf('/设计稿/', '展线.txt', area);
    // Another collaborator reads it; the download checks the area too.
    const owner = drv.staff05!;
    expect(await owner.names('/', area)).toEqual(['设计稿/']);
    const res = await fetch(
      `${s.url}/wangpan/filetransfer/downloadfile?userFileId=${fileId}&projectId=${projectId}`,
      {
        headers: { token: tok.staff05! },
      },
    );
    expect(await res.text()).toBe('展线方案第一稿');
    // Without the flag the id is looked up in my own drive: not there.
    expect((await download(s, tok.staff05!, fileId)).toString()).toContain('文件不存在');

    expect(
      wp(await owner.post('/file/renamefile', { userFileId: folderId, fileName: '终稿', ...area })),
    ).toEqual({});
    expect(await me.names('/终稿/', area)).toEqual(['展线.txt']);

    // Not a collaborator: the same answer as an unknown project, for reads and writes.
    const stranger = drv.staff02!;
    expect(wp(await stranger.get('/file/getfilelist', { filePath: '/', ...area }))).toBe(
      PROJECT_MSG.projectGone,
    );
    expect(wp(await stranger.get('/file/getfilelist', { filePath: '/', projectId: 999999 }))).toBe(
      PROJECT_MSG.projectGone,
    );
    expect(
      wp(await stranger.post('/file/createfile', { filePath: '/', fileName: 'x', isDir: 1, ...area })),
    ).toBe(PROJECT_MSG.projectGone);
    const up2 = await uploadAll(s, tok.staff02!, bytes, paramsOf(bytes, '偷放.txt', { projectId }));
    expect(up2.message).toBe(PROJECT_MSG.projectGone);
    // The project administrator (the admin holds every grant) reads it.
    expect(await drv.admin!.names('/', area)).toEqual(['终稿/']);
  });

  it('deletes permanently only, and an archived project is read-only', async () => {
    const { projectId } = await newProject('staff05', '归档文档', [uid.staff06!]);
    const area = { projectId };
    const me = drv.staff06!;
    const a = await me.mkdir('/', '甲', area);
    const b = await me.mkdir('/', '乙', area);
    expect(wp(await me.post('/file/deletefile', { userFileId: a, ...area }))).toBe(
      '项目文档删除后不可恢复，请确认后彻底删除',
    );
    expect(wp(await me.post('/file/deletefile', { userFileId: a, deleteMode: 2, ...area }))).toEqual({});
    expect(await me.names('/', area)).toEqual(['乙/']);

    okOf(await post('staff05', '/project/archive', { projectId, archived: 1 }));
    expect(await me.names('/', area)).toEqual(['乙/']);
    expect(wp(await me.post('/file/createfile', { filePath: '/', fileName: '丙', isDir: 1, ...area }))).toBe(
      PROJECT_MSG.archived,
    );
    expect(wp(await me.post('/file/deletefile', { userFileId: b, deleteMode: 2, ...area }))).toBe(
      PROJECT_MSG.archived,
    );
  });
});

describe('moving from my drive into a project', () => {
  it('checks names, moves files and folders in one step, frees my quota, refuses others', async () => {
    const { projectId } = await newProject('staff05', '移入项目', [uid.staff06!]);
    const other = await newProject('staff05', '别的项目', [uid.staff06!]);
    const area = { projectId };
    const me = drv.staff06!;
    const target = await me.mkdir('/', '资料', area);
    const elsewhere = await me.mkdir('/', '资料', { projectId: other.projectId });
    const ownFolder = await me.mkdir('/', '本地夹');

    const file = await me.put('/', '平面图.dwg', '平面图内容');
    await me.mkdir('/', '照片');
    await me.put('/照片/', '一.jpg', '照片一');
    const photos = await me.idOf('/', '照片/');
    const before = await used('staff06');

    const check = (fileId: number, parentId: number, who = 'staff06', pid = projectId) =>
      post(who, '/projectFile/checkFileInProject', { projectId: pid, fileId, parentId });
    expect(okOf(await check(file, target))).toEqual({ exists: false });
    // A folder id of another project, of my drive, or unknown: not a folder of this project.
    expect(failOf(await check(file, elsewhere))).toBe(TARGET_MISSING);
    expect(failOf(await check(file, ownFolder))).toBe(TARGET_MISSING);
    expect(failOf(await check(file, 999999))).toBe(TARGET_MISSING);

    const moved = okOf(
      await post('staff06', '/projectFile/moveFromDrive', {
        projectId,
        fileIds: [file, photos],
        parentId: target,
      }),
    );
    expect(moved).toEqual({ names: ['平面图.dwg', '照片'] });
    expect(await me.names('/资料/', area)).toEqual(['照片/', '平面图.dwg']);
    expect(await me.names('/资料/照片/', area)).toEqual(['一.jpg']);
    expect(await me.names('/')).not.toContain('平面图.dwg');
    expect(await used('staff06')).toBe(
      before - Buffer.byteLength('平面图内容') - Buffer.byteLength('照片一'),
    );
    // The other collaborator sees them; the history says who moved what.
    expect((await drv.staff05!.rows('/资料/', area)).map(fullName)).toEqual(['照片/', '平面图.dwg']);

    // A second file of the same name: the check says so, and the move takes a free name.
    const again = await me.put('/', '平面图.dwg', '第二版');
    expect(okOf(await check(again, target))).toEqual({ exists: true });
    expect(
      okOf(
        await post('staff06', '/projectFile/moveFromDrive', {
          projectId,
          fileIds: [again],
          parentId: target,
        }),
      ),
    ).toEqual({ names: ['平面图(1).dwg'] });

    // Refused: a file in my bin, another person's file, a file already gone, a stranger, an archived project.
    const binned = await me.put('/', '旧稿.txt', '旧');
    expect(wp(await me.post('/file/deletefile', { userFileId: binned }))).toBeTypeOf('number');
    expect(failOf(await check(binned, -1))).toBe(IN_BIN);
    expect(
      failOf(
        await post('staff06', '/projectFile/moveFromDrive', { projectId, fileIds: [binned], parentId: -1 }),
      ),
    ).toBe(IN_BIN);
    const foreign = await drv.staff05!.put('/', '别人的.txt', '别人');
    expect(failOf(await check(foreign, -1))).toBe('文件不存在或已被删除');
    expect(
      failOf(
        await post('staff06', '/projectFile/moveFromDrive', { projectId, fileIds: [foreign], parentId: -1 }),
      ),
    ).toBe('文件不存在或已被删除');
    expect(await drv.staff05!.names('/')).toContain('别人的.txt');
    const mine = await drv.staff02!.put('/', '外人.txt', '外人');
    expect(failOf(await check(mine, -1, 'staff02'))).toBe(PROJECT_MSG.projectGone);
    expect(
      failOf(
        await post('staff02', '/projectFile/moveFromDrive', { projectId, fileIds: [mine], parentId: -1 }),
      ),
    ).toBe(PROJECT_MSG.projectGone);
    okOf(await post('staff05', '/project/archive', { projectId: other.projectId, archived: 1 }));
    const late = await me.put('/', '晚到.txt', '晚');
    expect(
      failOf(
        await post('staff06', '/projectFile/moveFromDrive', {
          projectId: other.projectId,
          fileIds: [late],
          parentId: -1,
        }),
      ),
    ).toBe(PROJECT_MSG.archived);
    expect(await me.names('/')).toContain('晚到.txt');
    // Nothing moved by a refused call that named a good file and a bad one (all or nothing).
    expect(
      failOf(
        await post('staff06', '/projectFile/moveFromDrive', {
          projectId,
          fileIds: [late, foreign],
          parentId: -1,
        }),
      ),
    ).toBe('文件不存在或已被删除');
    expect(await me.names('/')).toContain('晚到.txt');
  });
});

describe('the picker and associating documents', () => {
  it('lists projects and folders to move, files to associate, with search; a document joins a task', async () => {
    const { projectId, blockId } = await newProject('staff05', '选择器项目', [uid.staff06!]);
    const area = { projectId };
    const me = drv.staff06!;
    const a = await me.mkdir('/', '图纸', area);
    await me.mkdir('/图纸/', '立面', area);
    await me.mkdir('/', '空夹', area);
    const bytes = Buffer.from('立面图');
    const up = await uploadAll(
      s,
      tok.staff06!,
      bytes,
      paramsOf(bytes, '立面图.pdf', { filePath: '/图纸/立面/', projectId }),
    );
    expect(up.success, JSON.stringify(up)).toBe(true);
    const docId = await me.idOf('/图纸/立面/', '立面图.pdf', area);

    const move = okOf(
      await post('staff06', '/projectTask/taskGetFileList', { fileType: '1', fileName: '选择器' }),
    );
    expect(move).toEqual([
      expect.objectContaining({
        type: 2,
        projectId,
        level: 0,
        list: [
          expect.objectContaining({
            type: 1,
            fileId: a,
            attName: '图纸',
            level: 1,
            list: [expect.objectContaining({ type: 1, attName: '立面', level: 2, list: [] })],
          }),
          expect.objectContaining({ type: 1, attName: '空夹', list: [] }),
        ],
      }),
    ]);

    const found = okOf(
      await post('staff06', '/projectTask/taskGetFileList', { fileType: '0', fileName: '立面图' }),
    );
    expect(found).toEqual([
      expect.objectContaining({
        projectId,
        list: [
          expect.objectContaining({
            attName: '图纸',
            list: [
              expect.objectContaining({
                attName: '立面',
                list: [
                  expect.objectContaining({
                    type: 0,
                    fileId: docId,
                    projectId,
                    attName: '立面图.pdf',
                    level: 3,
                  }),
                ],
              }),
            ],
          }),
        ],
      }),
    ]);
    expect(
      okOf(await post('staff06', '/projectTask/taskGetFileList', { fileType: '0', fileName: '没有这个' })),
    ).toEqual([]);
    // A stranger's picker has none of it.
    const theirs = okOf(
      await post('staff02', '/projectTask/taskGetFileList', { fileType: '0', fileName: '' }),
    );
    expect(theirs.some((p: any) => p.projectId === projectId)).toBe(false);

    // Associating a document: a copy with source 'project'; the document stays.
    const t = okOf(await post('staff06', '/projectTask/addProjectTask', { taskName: '出图', blockId }));
    const linked = okOf(
      await post('staff06', '/projectTask/addRelevanceFile', { taskId: t.taskId, fileId: docId, projectId }),
    );
    expect(linked.fileList).toEqual([expect.objectContaining({ attName: '立面图.pdf', source: 'project' })]);
    expect(await me.names('/图纸/立面/', area)).toEqual(['立面图.pdf']);
    const hist = okOf(await post('staff06', '/projectTask/getProjectHistoryList', { taskId: t.taskId }));
    expect(hist.map((h: any) => h.actionDescription)).toContain('关联了项目文件「立面图.pdf」');
    // Without projectId the id is looked up in my own drive; a project I am not in is refused.
    expect(
      failOf(await post('staff06', '/projectTask/addRelevanceFile', { taskId: t.taskId, fileId: docId })),
    ).toBe('网盘中找不到该文件，请重新选择');
    const closed = await newProject('staff02', '外人项目');
    const theirDoc = await drv.staff02!.mkdir('/', '夹', { projectId: closed.projectId });
    expect(
      failOf(
        await post('staff06', '/projectTask/addRelevanceFile', {
          taskId: t.taskId,
          fileId: theirDoc,
          projectId: closed.projectId,
        }),
      ),
    ).toBe(PROJECT_MSG.projectGone);
    // A folder is not a file to associate.
    expect(
      failOf(
        await post('staff06', '/projectTask/addRelevanceFile', { taskId: t.taskId, fileId: a, projectId }),
      ),
    ).toBe('不能选择文件夹，请选择一个文件');
  });
});
