import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileEntry, SearchHit, TreeNode } from '../../src/shared/api/drive';
import { startServer, type TestServer } from './harness';
import { NOT_FOUND, driveUser, failed, fullName, type DriveUser } from './drive-util';

/*
 * Reading the drive: folder pages (folders first, sorts, paging), categories, the folder tree,
 * details and search; and that nobody reads another person's rows or the recycle bin's.
 */

let s: TestServer;
let me: DriveUser;
let other: DriveUser;

beforeAll(async () => {
  s = await startServer();
  me = await driveUser(s, 'staff02');
  other = await driveUser(s, 'staff10');
  // /: 2 folders, 4 files of different sizes and times
  await me.mkdir('/', '资料');
  await me.mkdir('/', 'Archive');
  await me.put('/', 'b.txt', 'bb');
  await me.put('/', 'a.jpg', 'aaaa');
  await me.put('/', '展览方案.docx', 'x');
  await me.put('/', 'c.mp4', 'cccccc');
  await me.put('/资料/', '藏品清单.xlsx', 'list');
  await me.put('/资料/二级/', 'song.MP3', 'la');
  await other.put('/', '别人的方案.docx', 'secret');
});
afterAll(() => s.close());

describe('file/getfilelist', () => {
  it('lists folders first, then files, by name ascending by default, in the contract shape', async () => {
    const res = await me.get('/file/getfilelist', { filePath: '/' });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.total).toBe(6);
    expect(res.body.data.list.map(fullName)).toEqual([
      'Archive/',
      '资料/',
      'a.jpg',
      'b.txt',
      'c.mp4',
      '展览方案.docx',
    ]);
    for (const row of res.body.data.list) expect(FileEntry.parse(row)).toEqual(row);
    const jpg = res.body.data.list.find((r: any) => r.fileName === 'a');
    expect(jpg).toMatchObject({
      extendName: 'jpg',
      filePath: '/',
      isDir: 0,
      fileSize: 4,
      deleteFlag: 0,
      deleteTime: null,
      deleteBatchNum: null,
    });
    expect(jpg.uploadTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('shows times in museum time (Asia/Shanghai)', async () => {
    const id = await me.idOf('/', 'b.txt');
    await s.db
      .updateTable('user_file')
      .set({ upload_time: Date.UTC(2024, 0, 31, 17, 30, 5) })
      .where('id', '=', id)
      .execute();
    const row = (await me.rows('/')).find((r) => r.userFileId === id);
    expect(row.uploadTime).toBe('2024-02-01 01:30:05');
  });

  it('sorts by size and time, ascending and descending, folders still first', async () => {
    const bySize = await me.get('/file/getfilelist', { filePath: '/', sort: 'size', order: 'desc' });
    expect(bySize.body.data.list.map(fullName)).toEqual([
      '资料/',
      'Archive/',
      'c.mp4',
      'a.jpg',
      'b.txt',
      '展览方案.docx',
    ]);
    const byTime = await me.get('/file/getfilelist', { filePath: '/', sort: 'time', order: 'asc' });
    const files = byTime.body.data.list.filter((r: any) => !r.isDir);
    expect(files[0].fileName).toBe('b'); // moved to 2024 above
    const times = files.map((r: any) => r.uploadTime);
    expect([...times].sort()).toEqual(times);
  });

  it('pages with currentPage and pageCount, across the folder/file boundary', async () => {
    const pages = [];
    for (let p = 1; p <= 3; p++) {
      const res = await me.get('/file/getfilelist', { filePath: '/', currentPage: p, pageCount: 3 });
      expect(res.body.data.total).toBe(6);
      pages.push(res.body.data.list.map(fullName));
    }
    expect(pages).toEqual([['Archive/', '资料/', 'a.jpg'], ['b.txt', 'c.mp4', '展览方案.docx'], []]);
    const one = await me.get('/file/getfilelist', { filePath: '/', currentPage: 2, pageCount: 1 });
    expect(one.body.data.list.map(fullName)).toEqual(['资料/']);
  });

  it('lists a subfolder, and answers a missing folder clearly', async () => {
    expect(await me.names('/资料/')).toEqual(['二级/', '藏品清单.xlsx']);
    expect(await me.names('/资料/二级/')).toEqual(['song.MP3']);
    await me.mkdir('/', '空');
    expect(await me.names('/空/')).toEqual([]);
    const missing = await me.get('/file/getfilelist', { filePath: '/没有/' });
    expect(missing.body).toEqual(failed(404, '文件夹不存在或已被删除'));
  });

  it('never shows another person’s rows, even at the same path', async () => {
    expect(await other.names('/')).toEqual(['别人的方案.docx']);
    const theirs = await other.get('/file/getfilelist', { filePath: '/资料/' });
    expect(theirs.body).toEqual(failed(404, '文件夹不存在或已被删除'));
  });

  it('refuses bad paths and paging with 400 and a Chinese message', async () => {
    for (const filePath of ['资料', '/../', '/a/../', '/a:b/', '/a\u0001/']) {
      const res = await me.get('/file/getfilelist', { filePath });
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toMatch(/路径/);
    }
    const page = await me.get('/file/getfilelist', { filePath: '/', currentPage: 0 });
    expect(page.status).toBe(400);
    const sort = await me.get('/file/getfilelist', { filePath: '/', sort: 'evil' });
    expect(sort.status).toBe(400);
  });
});

describe('file/selectfilebyfiletype', () => {
  const byType = async (fileType: number) => {
    const res = await me.get('/file/selectfilebyfiletype', { fileType, pageCount: 100 });
    expect(res.body.success).toBe(true);
    return (res.body.data.list as any[]).map(fullName).sort();
  };
  it('finds files of each category across every folder, extension case ignored', async () => {
    expect(await byType(1)).toEqual(['a.jpg']);
    expect(await byType(2)).toEqual(['b.txt', '展览方案.docx', '藏品清单.xlsx']);
    expect(await byType(3)).toEqual(['c.mp4']);
    expect(await byType(4)).toEqual(['song.MP3']);
  });
  it('puts everything else in 5 (other), and never folders', async () => {
    await me.put('/资料/', 'model.obj', 'o');
    await me.put('/', 'README', 'r');
    expect(await byType(5)).toEqual(['README', 'model.obj']);
  });
  it('pages, counts and refuses unknown types', async () => {
    const res = await me.get('/file/selectfilebyfiletype', { fileType: 2, pageCount: 2 });
    expect(res.body.data.total).toBe(3);
    expect(res.body.data.list).toHaveLength(2);
    for (const t of [0, 6, 'x']) {
      const bad = await me.get('/file/selectfilebyfiletype', { fileType: t });
      expect(bad.status).toBe(400);
    }
    const bad = await me.get('/file/selectfilebyfiletype', { fileType: 6 });
    expect(bad.body.message).toBe('文件类型不正确');
  });
  it('shows only the caller’s own files', async () => {
    const res = await other.get('/file/selectfilebyfiletype', { fileType: 2 });
    expect(res.body.data.list.map(fullName)).toEqual(['别人的方案.docx']);
  });
});

describe('file/getfiletree', () => {
  it('answers the folders as a tree rooted at / with folder ids and paths', async () => {
    const res = await me.get('/file/getfiletree');
    expect(res.body.success).toBe(true);
    const tree = TreeNode.parse(res.body.data);
    expect(tree).toEqual({
      id: 0,
      label: '/',
      filePath: '/',
      children: [
        { id: await me.idOf('/', 'Archive'), label: 'Archive', filePath: '/Archive/', children: [] },
        { id: await me.idOf('/', '空'), label: '空', filePath: '/空/', children: [] },
        {
          id: await me.idOf('/', '资料'),
          label: '资料',
          filePath: '/资料/',
          children: [
            { id: await me.idOf('/资料/', '二级'), label: '二级', filePath: '/资料/二级/', children: [] },
          ],
        },
      ],
    });
  });
  it('is per person', async () => {
    const res = await other.get('/file/getfiletree');
    expect(res.body.data).toEqual({ id: 0, label: '/', filePath: '/', children: [] });
  });
});

describe('file/detail', () => {
  it('answers one entry', async () => {
    const id = await me.idOf('/资料/', '藏品清单.xlsx');
    const res = await me.get('/file/detail', { userFileId: id });
    expect(res.body.data).toMatchObject({
      userFileId: id,
      fileName: '藏品清单',
      extendName: 'xlsx',
      fileSize: 4,
    });
  });
  it('answers another person’s id exactly like a missing one', async () => {
    const theirs = await other.idOf('/', '别人的方案.docx');
    const res = await me.get('/file/detail', { userFileId: theirs });
    expect(res.body).toEqual(NOT_FOUND);
    expect((await me.get('/file/detail', { userFileId: 999999 })).body).toEqual(NOT_FOUND);
    expect((await me.get('/file/detail', { userFileId: 'abc' })).status).toBe(400);
  });
});

describe('file/search', () => {
  const hits = async (fileName: string, user = me) => {
    const res = await user.get('/file/search', { fileName });
    expect(res.body.success).toBe(true);
    return res.body.data as { list: any[]; total: number };
  };

  it('finds Chinese substrings anywhere in the tree, with hit offsets into the full name', async () => {
    const r = await hits('方案');
    expect(r.total).toBe(1);
    const [hit] = r.list;
    expect(SearchHit.parse(hit)).toEqual(hit);
    expect(fullName(hit)).toBe('展览方案.docx');
    expect(hit.highlightFields).toEqual([[2, 4]]);
    expect((await hits('清单')).list.map((h) => h.filePath)).toEqual(['/资料/']);
  });

  it('is case-insensitive for ASCII, covers the extension, and marks every hit', async () => {
    await me.put('/', 'AbcABCabc.txt', 'x');
    const r = await hits('abc');
    expect(r.list.map(fullName)).toEqual(['AbcABCabc.txt']);
    expect(r.list[0].highlightFields).toEqual([
      [0, 3],
      [3, 6],
      [6, 9],
    ]);
    const ext = await hits('.mp3');
    expect(ext.list.map(fullName)).toEqual(['song.MP3']);
    expect(ext.list[0].highlightFields).toEqual([[4, 8]]);
  });

  it('lists folders first and matches folder names', async () => {
    await me.put('/', '资料汇编.pdf', 'x');
    const r = await hits('资料');
    expect(r.list.map(fullName)).toEqual(['资料/', '资料汇编.pdf']);
  });

  it('treats % _ and \\ as plain text', async () => {
    await me.put('/', '100%_完成.txt', 'x');
    await me.put('/', '1000完成.txt', 'x');
    expect((await hits('%')).list.map(fullName)).toEqual(['100%_完成.txt']);
    expect((await hits('0_')).list.map(fullName)).toEqual([]);
    expect((await hits('%_')).list.map(fullName)).toEqual(['100%_完成.txt']);
    expect((await hits('\\')).list).toEqual([]);
  });

  it('never shows another person’s rows or binned rows', async () => {
    expect((await hits('别人')).total).toBe(0);
    expect((await hits('方案', other)).list.map(fullName)).toEqual(['别人的方案.docx']);
    const id = await me.idOf('/', 'c.mp4');
    expect((await me.post('/file/deletefile', { userFileId: id })).body.success).toBe(true);
    expect((await hits('c.mp4')).total).toBe(0);
    expect(await me.names('/')).not.toContain('c.mp4');
  });

  it('pages and refuses an empty query', async () => {
    const res = await me.get('/file/search', { fileName: 't', pageCount: 2 });
    expect(res.body.data.list).toHaveLength(2);
    expect(res.body.data.total).toBeGreaterThan(2);
    const empty = await me.get('/file/search', { fileName: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('请输入搜索内容');
  });
});

describe('file/recent', () => {
  it('lists my newest files from any folder, never folders, deleted files or another person’s', async () => {
    await me.put('/资料/', '最新.txt', 'n');
    const res = await me.get('/file/recent', { limit: 3 });
    expect(res.body.success).toBe(true);
    const names = res.body.data.map(fullName);
    expect(names).toHaveLength(3);
    expect(names[0]).toBe('最新.txt');
    expect(res.body.data[0].filePath).toBe('/资料/');
    expect(names).not.toContain('别人的方案.docx');
    expect(names.every((n: string) => !n.endsWith('/'))).toBe(true);
    for (const f of res.body.data) expect(FileEntry.safeParse(f).success).toBe(true);

    const newest = res.body.data[0];
    await me.post('/file/deletefile', { userFileId: newest.userFileId });
    const after = await me.get('/file/recent', { limit: 3 });
    expect(after.body.data.map(fullName)).not.toContain('最新.txt');
    expect((await me.get('/file/recent')).body.data.length).toBeLessThanOrEqual(8);
  });

  it('refuses a bad limit in Chinese', async () => {
    for (const limit of [0, 51, 'x']) {
      const res = await me.get('/file/recent', { limit });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('数量不正确');
    }
  });
});
