import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { driveUser, failed, readZip, type DriveUser } from './drive-util';
import { bytes, paramsOf, postChunk, testRequest, uploadAll } from './upload-util';
import { rawZip, unzip } from './unzip-util';
import { formatMuseumTime } from '../../src/shared/drive/share-rules';
import { M } from './util';

/**
 * Issue 16 §3, "names that spoof what they are": every place a name is taken refuses
 * text-direction controls and invisible characters (evil\u202Etxt.exe shows as evilexe.txt),
 * new names refuse what Windows cannot store, archives rename instead of refusing, and a zip
 * download makes older rows Windows-safe. The rule itself is unit-tested in
 * src/shared/drive/names.test.ts; these walk the real entry points.
 */

const RLO = '\u202e';
const SPOOF = (what: string) => `${what}不能包含不可见字符或文字方向控制字符，请删除后重试`;
const FILE_SPOOF = SPOOF('文件名称');
const FOLDER_SPOOF = SPOOF('文件夹名称');
const DEVICE = (dev: string, what = '文件名称') =>
  `“${dev}”是 Windows 的保留名称（CON、PRN、AUX、NUL、COM0–COM9、LPT0–LPT9），Windows 电脑无法保存，请换一个${what}`;
/** One of each kind the issue names: bidi overrides and isolates, zero-width, BOM, soft hyphen. */
const HIDDEN = [
  '\u202e',
  '\u202d',
  '\u2066',
  '\u200e',
  '\u061c',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\ufeff',
  '\u00ad',
];

let s: TestServer;
let u: DriveUser;
let tok: string;

beforeAll(async () => {
  s = await startServer();
  u = await driveUser(s, 'staff01');
  tok = u.token;
});
afterAll(() => s.close());

/** Renames a row behind the API's back: data made before the rule (or by an older version). */
async function legacyRename(id: number, fileName: string, extendName?: string) {
  await s.db
    .updateTable('user_file')
    .set(
      extendName === undefined ? { file_name: fileName } : { file_name: fileName, extend_name: extendName },
    )
    .where('id', '=', id)
    .execute();
}

describe('the drive refuses spoofing names at every entry point', () => {
  it('create folder and rename: each hidden character, with the Chinese reason; nothing is made', async () => {
    await u.mkdir('/', 'sp');
    const file = await u.put('/sp/', '清单.txt', 'x');
    for (const c of HIDDEN) {
      const mk = await u.post('/file/createfile', {
        filePath: '/sp/',
        fileName: `evil${c}txt.exe`,
        isDir: 1,
      });
      expect(mk.body, JSON.stringify(c)).toEqual(failed(400, FOLDER_SPOOF));
      const rn = await u.post('/file/renamefile', { userFileId: file, fileName: `evil${c}txt.exe` });
      expect(rn.body).toEqual(failed(400, FILE_SPOOF));
    }
    // C1 controls and the line separator too.
    for (const c of ['\u0085', '\u2028']) {
      expect((await u.post('/file/renamefile', { userFileId: file, fileName: `a${c}b.txt` })).body).toEqual(
        failed(400, FILE_SPOOF),
      );
    }
    expect(await u.names('/sp/')).toEqual(['清单.txt']);
    // Ordinary names, emoji included, still pass.
    expect(
      (await u.post('/file/renamefile', { userFileId: file, fileName: '🎉 清单（终稿）.txt' })).body.success,
    ).toBe(true);
  });

  it('upload: filename, relativePath segment and a new target folder, on the test request and on a chunk', async () => {
    const body = bytes(1000);
    // The upload refuses with its business code (as for every other bad parameter).
    const byName = paramsOf(body, `evil${RLO}txt.exe`);
    expect(await testRequest(s, tok, byName)).toEqual(failed(1010, FILE_SPOOF));
    expect((await postChunk(s, tok, byName, 1, body)).body).toEqual(failed(1010, FILE_SPOOF));

    const byDir = paramsOf(body, 'a.txt', { relativePath: `照片\u200b/a.txt` });
    expect(await testRequest(s, tok, byDir)).toEqual(failed(1010, FOLDER_SPOOF));
    expect((await postChunk(s, tok, byDir, 1, body)).body).toEqual(failed(1010, FOLDER_SPOOF));

    // filePath names a folder that does not exist yet: the folder it would make is a new name.
    const byPath = paramsOf(body, 'a.txt', { filePath: `/新${RLO}建/` });
    expect((await uploadAll(s, tok, body, byPath)).message).toBe(FOLDER_SPOOF);

    const device = paramsOf(body, 'nul.txt');
    expect(await testRequest(s, tok, device)).toEqual(failed(1010, DEVICE('nul')));
    const deviceDir = paramsOf(body, 'a.txt', { relativePath: 'COM1/a.txt' });
    expect((await postChunk(s, tok, deviceDir, 1, body)).body).toEqual(
      failed(1010, DEVICE('COM1', '文件夹名称')),
    );

    expect(await u.names('/')).not.toContain('新\u202e建/');
    expect((await u.names('/')).some((n) => /evil|照片|nul|COM1/.test(n))).toBe(false);
  });

  it('Windows device names and trailing dots: refused on create and rename with a reason to act on', async () => {
    const file = await u.put('/', '报告.txt', 'x');
    for (const dev of ['CON', 'prn', 'Aux', 'NUL', 'COM9', 'lpt1']) {
      const mk = await u.post('/file/createfile', { filePath: '/', fileName: dev, isDir: 1 });
      expect(mk.body).toEqual(failed(400, DEVICE(dev, '文件夹名称')));
      const rn = await u.post('/file/renamefile', { userFileId: file, fileName: `${dev}.txt` });
      expect(rn.body).toEqual(failed(400, DEVICE(dev)));
    }
    expect((await u.post('/file/renamefile', { userFileId: file, fileName: '报告.' })).body).toEqual(
      failed(400, '文件名称不能以“.”或空格结尾（Windows 电脑无法保存），请修改'),
    );
    // Names that merely contain a device name are fine.
    expect(
      (await u.post('/file/createfile', { filePath: '/', fileName: 'CONSOLE', isDir: 1 })).body.success,
    ).toBe(true);
  });

  it('office create: the name (its folder must already exist)', async () => {
    const create = (body: Record<string, unknown>) => u.post('/office/createofficefile', body);
    expect((await create({ extendName: 'docx', filePath: '/', fileName: `合同${RLO}xcod` })).body).toEqual(
      failed(400, FILE_SPOOF),
    );
    expect((await create({ extendName: 'xlsx', filePath: '/', fileName: 'AUX' })).body).toEqual(
      failed(400, DEVICE('AUX')),
    );
    expect((await u.names('/')).some((n) => n.includes('合同') || n.includes('AUX'))).toBe(false);
  });

  it('project documents: the same calls with projectId refuse the same names', async () => {
    const add = await s.call('POST', `${M}/project/add`, {
      token: tok,
      body: { name: '名称测试', type: 'exhibition', userIds: [] },
    });
    const projectId = add.body.result.projectId as number;
    const mk = await u.post('/file/createfile', {
      filePath: '/',
      fileName: `设计${RLO}稿`,
      isDir: 1,
      projectId,
    });
    expect(mk.body).toEqual(failed(400, FOLDER_SPOOF));
    const body = bytes(500);
    expect(await testRequest(s, tok, paramsOf(body, `a\u200db.txt`, { projectId }))).toEqual(
      failed(1010, FILE_SPOOF),
    );
    expect(await u.names('/', { projectId })).toEqual([]);
  });
});

describe('folders and files made before the rule keep working', () => {
  it('a legacy folder with a device or spoofing name still lists and takes uploads; renaming it away works', async () => {
    const id = await u.mkdir('/', 'old-one');
    await legacyRename(id, `CON${RLO}`);
    const inside = `/CON${RLO}/`;
    const body = bytes(800);
    expect((await uploadAll(s, tok, body, paramsOf(body, '旧.txt', { filePath: inside }))).success).toBe(
      true,
    );
    expect(await u.names(inside)).toEqual(['旧.txt']);
    expect((await u.post('/file/renamefile', { userFileId: id, fileName: '旧资料' })).body.success).toBe(
      true,
    );
    expect(await u.names('/旧资料/')).toEqual(['旧.txt']);
  });
});

describe('attachments', () => {
  async function attachUpload(name: string, path = '/attach/upload') {
    const fd = new FormData();
    fd.append('tableName', 'approval');
    fd.append('file', new Blob([new Uint8Array(Buffer.from('内容'))]), name);
    const res = await fetch(`${s.url}${M}${path}`, { method: 'POST', headers: { token: tok }, body: fd });
    return (await res.json()) as any;
  }
  const count = async () =>
    Number(
      (await s.db
        .selectFrom('attachment')
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirst())!.n,
    );

  it('upload, uploadMulti and chunk refuse a spoofing name before keeping anything', async () => {
    const before = await count();
    expect(await attachUpload(`evil${RLO}fdp.exe`)).toMatchObject({ success: false, message: FILE_SPOOF });

    const fd = new FormData();
    fd.append('tableName', 'approval');
    fd.append('file', new Blob([new Uint8Array(Buffer.from('a'))]), '正常.pdf');
    fd.append('file', new Blob([new Uint8Array(Buffer.from('b'))]), `b\u200bc.pdf`);
    const multi = await fetch(`${s.url}${M}/attach/uploadMulti`, {
      method: 'POST',
      headers: { token: tok },
      body: fd,
    });
    // Names which file (the hidden character shown as _), and keeps none: all or nothing.
    expect(await multi.json()).toMatchObject({ success: false, message: `“b_c.pdf”：${FILE_SPOOF}` });

    const cf = new FormData();
    for (const [k, v] of Object.entries({
      uploadId: 'spoof-0001',
      chunkNumber: '1',
      totalChunks: '1',
      totalSize: '3',
      fileName: `x${RLO}gpj.exe`,
      tableName: 'approval',
    }))
      cf.append(k, v);
    cf.append('file', new Blob([new Uint8Array(Buffer.from('abc'))]), 'blob');
    const chunk = await fetch(`${s.url}${M}/attach/chunk`, {
      method: 'POST',
      headers: { token: tok },
      body: cf,
    });
    expect(await chunk.json()).toMatchObject({ success: false, message: FILE_SPOOF });
    expect(await count()).toBe(before);

    expect(await attachUpload('藏品照片.jpg')).toMatchObject({
      success: true,
      result: { attName: '藏品照片.jpg' },
    });
  });

  it('fromDrive refuses a drive file whose (older) name spoofs', async () => {
    const id = await u.put('/', 'tmp.pdf', 'pdf');
    await legacyRename(id, `evil${RLO}fdp`, 'exe');
    const res = await s.call('POST', `${M}/attach/fromDrive`, {
      token: tok,
      body: { tableName: 'approval', userFileId: id },
    });
    expect(res.body).toMatchObject({ success: false, message: FILE_SPOOF });
  });
});

describe('share remarks, which every visitor reads', () => {
  it('refuses hidden characters, keeps ordinary remarks', async () => {
    const id = await u.put('/', '分享.txt', 's');
    const send = (remarks: string) =>
      u.post('/share/sharefile', {
        files: JSON.stringify([{ userFileId: id }]),
        endTime: formatMuseumTime(Date.now() + 7 * 86_400_000),
        shareType: 0,
        remarks,
      });
    expect((await send(`请查收${RLO}exe.txt`)).body).toEqual(failed(400, SPOOF('备注')));
    expect((await send('请查收 🎉')).body.success).toBe(true);
  });
});

describe('titles and names colleagues read', () => {
  it('projects, boards, tasks, notices and approval templates refuse hidden characters', async () => {
    const admin = await s.login('admin');
    const refused = (message: string) => ({ success: false, code: 400, message, result: null });
    const post = (path: string, body: unknown) => s.call('POST', `${M}${path}`, { token: admin, body });
    const project = await post('/project/add', { name: `布展${RLO}gpj`, type: 'exhibition' });
    expect(project.body).toEqual(refused(SPOOF('项目名称')));
    const ok = await post('/project/add', { name: '春季特展布展', type: 'exhibition' });
    const projectId = ok.body.result.projectId as number;
    expect((await post('/projectBlock/add', { projectId, name: '待\u200b验收' })).body).toEqual(
      refused(SPOOF('看板名称')),
    );
    const block = await post('/projectBlock/add', { projectId, name: '待验收' });
    const blockId = block.body.result.blockId as number;
    expect((await post('/projectTask/addProjectTask', { taskName: `撤展\u2066`, blockId })).body).toEqual(
      refused(SPOOF('任务名称')),
    );
    const notice = await post('/infoPublish/add', {
      title: `停电通知${RLO}`,
      content: '<p>x</p>',
      audienceType: 1,
    });
    expect(notice.body).toEqual(refused(SPOOF('标题')));
    // A seeded template's own definition, so only the name is wrong.
    const seeded = await s.call('GET', `${M}/workflowTemplate/detail?id=1`, { token: admin });
    const { definition, draft } = seeded.body.result as { definition?: unknown; draft?: unknown };
    const template = await post('/workflowTemplate/save', {
      name: `报\ufeff销`,
      category: 'normal',
      definition: draft ?? definition,
    });
    expect(template.body).toEqual(refused(SPOOF('模板名称')));
  });
});

describe('archives: spoofing and device names are renamed, named in the result, nothing lost', () => {
  it('replaces hidden characters with _, adds _ to device names, and says which', async () => {
    await u.mkdir('/', 'arc');
    const zip = rawZip([
      { name: `evil${RLO}txt.exe`, data: Buffer.from('1'), flags: 0x800 },
      { name: 'CON/', flags: 0x800 },
      { name: 'CON/a\u200bb.txt', data: Buffer.from('2'), flags: 0x800 },
      { name: 'CON/c.txt', data: Buffer.from('3'), flags: 0x800 },
      { name: 'aux.txt', data: Buffer.from('4'), flags: 0x800 },
      { name: '正常.txt', data: Buffer.from('5'), flags: 0x800 },
    ]);
    await u.put('/arc/', 'x.zip', zip);
    const job = await unzip(u, { userFileId: await u.idOf('/arc/', 'x.zip'), unzipMode: 0 });
    expect(job).toMatchObject({
      status: 'done',
      // CON/ counts once although two entries sit in it.
      message: '解压成功（4 个名称不符合网盘规则，已改为 evil_txt.exe、CON_、a_b.txt 等）',
    });
    expect((await u.names('/arc/')).sort()).toEqual([
      'CON_/',
      'aux_.txt',
      'evil_txt.exe',
      'x.zip',
      '正常.txt',
    ]);
    expect((await u.names('/arc/CON_/')).sort()).toEqual(['a_b.txt', 'c.txt']);
  });
});

describe('zip downloads: older rows with names Windows cannot store are renamed in the zip', () => {
  async function downloadZip(query: string) {
    const res = await fetch(`${s.url}/wangpan/filetransfer/downloadfile?${query}`, {
      headers: { token: tok },
    });
    expect(res.status).toBe(200);
    return readZip(Buffer.from(await res.arrayBuffer()));
  }

  it('device names get _ (folders for every entry under them), trailing dots become _, clashes avoided', async () => {
    const top = await u.mkdir('/', 'win');
    const con = await u.mkdir('/win/', 'con-tmp');
    await legacyRename(con, 'con');
    await u.put('/win/con/', '说明.txt', 'inside');
    await legacyRename(await u.put('/win/', 'aux-tmp.txt', 'aux'), 'aux', 'txt');
    await legacyRename(await u.put('/win/', 'dot-tmp.txt', 'dot'), '报告.', '');
    // A row already called what the renamed one would be: the rename must not take it.
    await u.put('/win/', 'aux_.txt', 'taken');
    await u.put('/win/', '普通.txt', 'plain');
    expect((await u.names('/win/')).sort()).toEqual(
      ['aux.txt', 'aux_.txt', 'con/', '普通.txt', '报告.'].sort(),
    );

    const entries = await downloadZip(`userFileId=${top}`);
    const byName = Object.fromEntries(entries.map((e) => [e.name, e.data.toString()]));
    expect(Object.keys(byName).sort()).toEqual(
      [
        'win/',
        'win/con_/',
        'win/con_/说明.txt',
        'win/aux_(1).txt',
        'win/aux_.txt',
        'win/报告_',
        'win/普通.txt',
      ].sort(),
    );
    expect(byName['win/aux_(1).txt']).toBe('aux');
    expect(byName['win/aux_.txt']).toBe('taken');
    expect(byName['win/con_/说明.txt']).toBe('inside');

    // Picked as several top-level items, the same rule applies.
    const aux = await u.idOf('/win/', 'aux.txt');
    const several = await downloadZip(`userFileIds=${aux},${await u.idOf('/win/', '普通.txt')}`);
    expect(several.map((e) => e.name).sort()).toEqual(['aux_.txt', '普通.txt']);
  });

  it('a share visitor downloading the folder gets the same Windows-safe names', async () => {
    const top = await u.idOf('/', 'win');
    const shared = await u.post('/share/sharefile', {
      files: JSON.stringify([{ userFileId: top }]),
      endTime: formatMuseumTime(Date.now() + 7 * 86_400_000),
      shareType: 0,
    });
    const batch = shared.body.data.shareBatchNum as string;
    const res = await fetch(
      `${s.url}/wangpan/filetransfer/downloadfile?userFileId=${top}&shareBatchNum=${batch}`,
    );
    expect(res.status).toBe(200);
    const names = (await readZip(Buffer.from(await res.arrayBuffer()))).map((e) => e.name);
    expect(names).toContain('win/con_/说明.txt');
    expect(names).not.toContain('win/con/');
  });
});
