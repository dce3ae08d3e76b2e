import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { NOT_FOUND, driveUser, failed, ok, type DriveUser } from './drive-util';

/*
 * Changing the tree: create folders, rename, copy, move (single and batch), with the
 * collision rule (files get name(n), folders merge), self-containment, validation of names and
 * paths, another person's ids, quota on copy, and idempotent replays.
 */

let s: TestServer;
let me: DriveUser;
let other: DriveUser;

beforeAll(async () => {
  s = await startServer();
  me = await driveUser(s, 'staff02');
  other = await driveUser(s, 'staff10');
});
afterAll(() => s.close());

const SAME = failed(1007, '同名文件已存在');

async function rowCount() {
  const r = await s.db
    .selectFrom('user_file')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

describe('file/createfile', () => {
  it('creates folders, nested, and refuses a taken name', async () => {
    const id = await me.mkdir('/', '项目');
    expect(id).toBeGreaterThan(0);
    await me.mkdir('/项目/', '2024');
    expect(await me.names('/项目/')).toEqual(['2024/']);
    const again = await me.post('/file/createfile', { filePath: '/', fileName: '项目', isDir: 1 });
    expect(again.body).toEqual(SAME);
    await me.put('/', 'notes', 'x');
    const overFile = await me.post('/file/createfile', { filePath: '/', fileName: 'notes', isDir: 1 });
    expect(overFile.body).toEqual(SAME);
  });

  it('needs the parent folder to exist', async () => {
    const res = await me.post('/file/createfile', { filePath: '/没有/', fileName: 'x', isDir: 1 });
    expect(res.body).toEqual(failed(404, '目标文件夹不存在或已被删除'));
  });

  it('validates names and paths on the server with the spec’s messages', async () => {
    const bad = async (fileName: string, filePath = '/') =>
      (await me.post('/file/createfile', { filePath, fileName, isDir: 1 })).body;
    const forbidden = '文件夹名称不能包含以下字符：\\ / : * ? " < > |';
    for (const c of ['\\', '/', ':', '*', '?', '"', '<', '>', '|']) {
      expect(await bad(`a${c}b`)).toEqual({ success: false, code: 400, message: forbidden, data: null });
    }
    expect((await bad('')).message).toBe('请输入文件夹名称');
    expect((await bad('x'.repeat(256))).message).toBe('文件夹名称不能超过 255 个字符');
    expect(
      (await me.post('/file/createfile', { filePath: '/', fileName: 'y'.repeat(255), isDir: 1 })).body
        .success,
    ).toBe(true);
    expect((await bad('..')).message).toBe('文件夹名称不能是 . 或 ..');
    expect((await bad('a\u0007b')).message).toBe('文件夹名称不能包含控制字符');
    expect((await bad('ok', '/../')).message).toBe('路径包含不合法的文件夹名称');
    expect((await bad('ok', '/项目')).message).toBe('路径格式不正确');
    expect((await bad('ok', '项目/')).message).toBe('路径格式不正确');
  });
});

describe('file/renamefile', () => {
  it('renames a file with its extension, and refuses a taken full name', async () => {
    const id = await me.put('/', 'draft.txt', 'x');
    await me.put('/', 'final.txt', 'y');
    expect((await me.post('/file/renamefile', { userFileId: id, fileName: 'plan.md' })).body).toEqual(ok());
    const row = (await me.get('/file/detail', { userFileId: id })).body.data;
    expect(row).toMatchObject({ fileName: 'plan', extendName: 'md' });
    expect((await me.post('/file/renamefile', { userFileId: id, fileName: 'final.txt' })).body).toEqual(SAME);
    // final.md is a different full name: allowed
    expect((await me.post('/file/renamefile', { userFileId: id, fileName: 'final.md' })).body.success).toBe(
      true,
    );
    // renaming to its own name is a no-op success
    expect((await me.post('/file/renamefile', { userFileId: id, fileName: 'final.md' })).body.success).toBe(
      true,
    );
  });

  it('renames a folder and carries its whole subtree, names with pattern characters included', async () => {
    await me.mkdir('/', 'a(1)%_[x]');
    await me.put('/a(1)%_[x]/sub/', 'deep.txt', 'd');
    await me.mkdir('/', 'a(1)%_[x]y'); // a sibling sharing the prefix must not move
    await me.put('/a(1)%_[x]y/', 'keep.txt', 'k');
    const id = await me.idOf('/', 'a(1)%_[x]');
    expect((await me.post('/file/renamefile', { userFileId: id, fileName: '新.名' })).body.success).toBe(
      true,
    );
    const row = (await me.get('/file/detail', { userFileId: id })).body.data;
    expect(row).toMatchObject({ fileName: '新.名', extendName: '', isDir: 1 });
    expect(await me.names('/新.名/sub/')).toEqual(['deep.txt']);
    expect(await me.names('/a(1)%_[x]y/')).toEqual(['keep.txt']);
    const stale = await me.get('/file/getfilelist', { filePath: '/a(1)%_[x]/sub/' });
    expect(stale.body.success).toBe(false);
  });

  it('refuses bad names, another person’s id, and binned items', async () => {
    const id = await me.put('/', 'r.txt', 'x');
    const bad = async (fileName: string) =>
      (await me.post('/file/renamefile', { userFileId: id, fileName })).body;
    expect((await bad('a/b.txt')).message).toBe('文件名称不能包含以下字符：\\ / : * ? " < > |');
    expect((await bad('')).message).toBe('请输入文件名称');
    expect((await bad('z'.repeat(256))).message).toBe('文件名称不能超过 255 个字符');
    expect((await bad('..')).message).toBe('文件名称不能是 . 或 ..');
    const theirs = await other.put('/', 'their.txt', 'x');
    expect((await me.post('/file/renamefile', { userFileId: theirs, fileName: 'mine.txt' })).body).toEqual(
      NOT_FOUND,
    );
    expect((await other.get('/file/detail', { userFileId: theirs })).body.data.fileName).toBe('their');
    await me.post('/file/deletefile', { userFileId: id });
    expect((await me.post('/file/renamefile', { userFileId: id, fileName: 'x.txt' })).body).toEqual(
      NOT_FOUND,
    );
  });
});

describe('file/copyfile and batchcopyfile', () => {
  it('copies a file sharing its blob, and names clashes name(1), name(2)… keeping the extension', async () => {
    await me.mkdir('/', 'c');
    const id = await me.put('/', '报告.docx', 'report-bytes');
    const blobsBefore = await s.db.selectFrom('blob').selectAll().execute();
    expect((await me.post('/file/copyfile', { userFileId: id, filePath: '/c/' })).body).toEqual(ok());
    expect((await me.post('/file/copyfile', { userFileId: id, filePath: '/c/' })).body).toEqual(ok());
    expect((await me.post('/file/copyfile', { userFileId: id, filePath: '/' })).body).toEqual(ok());
    expect(await me.names('/c/')).toEqual(['报告.docx', '报告(1).docx']);
    expect((await me.names('/')).filter((n) => n.startsWith('报告'))).toEqual(['报告.docx', '报告(1).docx']);
    expect(await s.db.selectFrom('blob').selectAll().execute()).toEqual(blobsBefore);
  });

  it('copies a folder with its tree, merging into a same-named folder by the same rule', async () => {
    await me.put('/src/', 'a.txt', 'A');
    await me.put('/src/inner/', 'b.txt', 'B');
    await me.put('/dst/src/', 'a.txt', 'old A');
    await me.put('/dst/src/', 'only-there.txt', 'x');
    const id = await me.idOf('/', 'src');
    expect((await me.post('/file/copyfile', { userFileId: id, filePath: '/dst/' })).body).toEqual(ok());
    expect(await me.names('/dst/')).toEqual(['src/']);
    expect(await me.names('/dst/src/')).toEqual(['inner/', 'a.txt', 'a(1).txt', 'only-there.txt']);
    expect(await me.names('/dst/src/inner/')).toEqual(['b.txt']);
    expect(await me.names('/src/inner/')).toEqual(['b.txt']); // the source is untouched
  });

  it('copies a folder into its own parent as name(1)', async () => {
    const id = await me.idOf('/', 'src');
    expect((await me.post('/file/copyfile', { userFileId: id, filePath: '/' })).body).toEqual(ok());
    expect((await me.names('/')).filter((n) => n.startsWith('src'))).toEqual(['src/', 'src(1)/']);
    expect(await me.names('/src(1)/inner/')).toEqual(['b.txt']);
    expect(await me.names('/src/')).toEqual(['inner/', 'a.txt']);
  });

  it('refuses copying a folder into itself or a descendant', async () => {
    const id = await me.idOf('/', 'src');
    for (const filePath of ['/src/', '/src/inner/']) {
      const res = await me.post('/file/copyfile', { userFileId: id, filePath });
      expect(res.body).toEqual(failed(1010, '原路径与目标路径冲突，不能复制'));
    }
  });

  it('refuses a missing target, another person’s id and a binned item', async () => {
    const id = await me.idOf('/', '报告.docx');
    expect((await me.post('/file/copyfile', { userFileId: id, filePath: '/nope/' })).body).toEqual(
      failed(404, '目标文件夹不存在或已被删除'),
    );
    const theirs = await other.put('/', 'x.txt', 'x');
    expect((await me.post('/file/copyfile', { userFileId: theirs, filePath: '/' })).body).toEqual(NOT_FOUND);
    const binned = await me.put('/', 'gone.txt', 'g');
    await me.post('/file/deletefile', { userFileId: binned });
    expect((await me.post('/file/copyfile', { userFileId: binned, filePath: '/c/' })).body).toEqual(
      NOT_FOUND,
    );
  });

  it('copies several items at once, all or nothing', async () => {
    await me.mkdir('/', 'bc');
    const a = await me.put('/', 'bc1.txt', '1');
    const b = await me.put('/', 'bc2.txt', '2');
    const res = await me.post('/file/batchcopyfile', {
      files: JSON.stringify([{ userFileId: a }, { userFileId: b }]),
      filePath: '/bc/',
    });
    expect(res.body).toEqual(ok());
    expect(await me.names('/bc/')).toEqual(['bc1.txt', 'bc2.txt']);
    const theirs = await other.put('/', 'y.txt', 'y');
    const before = await rowCount();
    const mixed = await me.post('/file/batchcopyfile', {
      files: [{ userFileId: a }, { userFileId: theirs }],
      filePath: '/bc/',
    });
    expect(mixed.body).toEqual(NOT_FOUND);
    expect(await rowCount()).toBe(before);
  });

  it('charges the quota by logical size and refuses a copy that does not fit', async () => {
    const big = await driveUser(s, 'staff05');
    const admin = await driveUser(s, 'admin');
    const id = await big.put('/', 'big.bin', Buffer.alloc(3000, 1));
    expect(
      (await admin.post('/admin/setstorage', { userId: big.userId, totalStorageSize: 7000 })).body,
    ).toEqual(ok());
    expect((await big.post('/file/copyfile', { userFileId: id, filePath: '/' })).body).toEqual(ok());
    expect((await big.get('/filetransfer/getstorage')).body.data).toEqual({
      storageSize: 6000,
      totalStorageSize: 7000,
    });
    const res = await big.post('/file/copyfile', { userFileId: id, filePath: '/' });
    expect(res.body).toEqual(failed(1010, '存储空间不足：还剩 1000 B，需要 3 KB'));
    expect(await big.names('/')).toEqual(['big.bin', 'big(1).bin']);
  });
});

describe('file/movefile and batchmovefile', () => {
  it('moves a file, renaming on a clash', async () => {
    await me.mkdir('/', 'm');
    await me.put('/m/', 'x.txt', 'there');
    const id = await me.put('/', 'x.txt', 'here');
    expect((await me.post('/file/movefile', { userFileId: id, filePath: '/m/' })).body).toEqual(ok());
    expect(await me.names('/m/')).toEqual(['x.txt', 'x(1).txt']);
    expect(await me.names('/')).not.toContain('x.txt');
  });

  it('moving into the folder it is already in changes nothing', async () => {
    const id = await me.idOf('/m/', 'x.txt');
    expect((await me.post('/file/movefile', { userFileId: id, filePath: '/m/' })).body).toEqual(ok());
    expect(await me.names('/m/')).toEqual(['x.txt', 'x(1).txt']);
  });

  it('moves a folder with its subtree, binned descendants included', async () => {
    await me.put('/mv/a/', 'live.txt', 'l');
    const binned = await me.put('/mv/a/', 'binned.txt', 'b');
    const del = await me.post('/file/deletefile', { userFileId: binned });
    const id = await me.idOf('/mv/', 'a');
    expect((await me.post('/file/movefile', { userFileId: id, filePath: '/m/' })).body).toEqual(ok());
    expect(await me.names('/m/a/')).toEqual(['live.txt']);
    const bin = (await me.post('/recoveryfile/list', {})).body.data.list;
    expect(bin.find((r: any) => r.recoveryFileId === del.body.data).filePath).toBe('/m/a/');
  });

  it('merges into a same-named folder', async () => {
    await me.put('/merge-src/docs/', 'one.txt', '1');
    await me.put('/merge-src/docs/', 'two.txt', '2');
    await me.put('/merge-dst/docs/', 'one.txt', 'old');
    const id = await me.idOf('/merge-src/', 'docs');
    expect((await me.post('/file/movefile', { userFileId: id, filePath: '/merge-dst/' })).body).toEqual(ok());
    expect(await me.names('/merge-dst/docs/')).toEqual(['one.txt', 'one(1).txt', 'two.txt']);
    expect(await me.names('/merge-src/')).toEqual([]);
  });

  it('does not pour a folder into its own ancestor of the same name', async () => {
    // /same/x/same → / where /same exists: merging would put it inside itself.
    await me.put('/same/x/same/', 'f.txt', 'f');
    const id = await me.idOf('/same/x/', 'same');
    expect((await me.post('/file/movefile', { userFileId: id, filePath: '/' })).body).toEqual(ok());
    expect((await me.names('/')).filter((n) => n.startsWith('same'))).toEqual(['same/', 'same(1)/']);
    expect(await me.names('/same(1)/')).toEqual(['f.txt']);
    expect(await me.names('/same/x/')).toEqual([]);
  });

  it('refuses moving a folder into itself or a descendant with the spec’s message', async () => {
    const id = await me.idOf('/', 'm');
    for (const filePath of ['/m/', '/m/a/']) {
      const res = await me.post('/file/movefile', { userFileId: id, filePath });
      expect(res.body).toEqual(failed(1010, '原路径与目标路径冲突，不能移动'));
    }
  });

  it('moves a batch all or nothing', async () => {
    await me.mkdir('/', 'bm');
    const a = await me.put('/', 'bm1.txt', '1');
    const b = await me.put('/', 'bm2.txt', '2');
    const theirs = await other.put('/', 'z.txt', 'z');
    const bad = await me.post('/file/batchmovefile', {
      files: JSON.stringify([{ userFileId: a }, { userFileId: theirs }, { userFileId: b }]),
      filePath: '/bm/',
    });
    expect(bad.body).toEqual(NOT_FOUND);
    expect(await me.names('/bm/')).toEqual([]);
    const folder = await me.idOf('/', 'bm');
    const self = await me.post('/file/batchmovefile', {
      files: [{ userFileId: a }, { userFileId: folder }],
      filePath: '/bm/',
    });
    expect(self.body).toEqual(failed(1010, '原路径与目标路径冲突，不能移动'));
    expect(await me.names('/bm/')).toEqual([]);
    const good = await me.post('/file/batchmovefile', {
      files: [{ userFileId: a }, { userFileId: b }],
      filePath: '/bm/',
    });
    expect(good.body).toEqual(ok());
    expect(await me.names('/bm/')).toEqual(['bm1.txt', 'bm2.txt']);
  });

  it('refuses malformed batches', async () => {
    const cases = [
      [{ files: 'not json', filePath: '/' }, '文件列表格式不正确：应为 [{"userFileId": 1}] 这样的列表'],
      [{ files: '[]', filePath: '/' }, '请选择文件'],
      [{ files: [{ userFileId: -1 }], filePath: '/' }, '文件列表第 1 项的文件编号必须大于 0'],
      [{ files: [{ userFileId: 1 }], filePath: '/../' }, '路径包含不合法的文件夹名称'],
    ] as const;
    for (const [body, message] of cases) {
      const res = await me.post('/file/batchmovefile', body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
  });
});

describe('Idempotency-Key on drive changes', () => {
  it('answers a replayed rename with the first answer and changes nothing', async () => {
    const id = await me.put('/', 'idem.txt', 'i');
    const key = randomUUID();
    const first = await me.post(
      '/file/renamefile',
      { userFileId: id, fileName: 'idem2.txt' },
      { 'idempotency-key': key },
    );
    expect(first.body).toEqual(ok());
    // Someone renames it back; the replay must not rename it again.
    await me.post('/file/renamefile', { userFileId: id, fileName: 'idem.txt' });
    const replay = await me.post(
      '/file/renamefile',
      { userFileId: id, fileName: 'idem2.txt' },
      { 'idempotency-key': key },
    );
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replay')).toBe('true');
    expect((await me.get('/file/detail', { userFileId: id })).body.data.fileName).toBe('idem');
  });

  it('replays a move and a delete without repeating them', async () => {
    await me.mkdir('/', 'idem-dir');
    const id = await me.put('/', 'mv.txt', 'm');
    const key = randomUUID();
    const move = () =>
      me.post('/file/movefile', { userFileId: id, filePath: '/idem-dir/' }, { 'idempotency-key': key });
    expect((await move()).body).toEqual(ok());
    await me.post('/file/movefile', { userFileId: id, filePath: '/' });
    expect((await move()).body).toEqual(ok());
    expect(await me.names('/idem-dir/')).toEqual([]);

    const delKey = randomUUID();
    const del = () => me.post('/file/deletefile', { userFileId: id }, { 'idempotency-key': delKey });
    const first = await del();
    expect(first.body.success).toBe(true);
    const again = await del();
    expect(again.body).toEqual(first.body);
    const bin = (await me.post('/recoveryfile/list', {})).body.data.list;
    expect(bin.filter((r: any) => r.userFileId === id)).toHaveLength(1);
  });
});
