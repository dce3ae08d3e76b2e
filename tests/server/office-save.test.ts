import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFICE_EDIT_SAVE_MAX, OFFICE_SAVE_MSG } from '../../src/shared/api/office';
import { W, driveUser, readZip, type DriveUser } from './drive-util';
import { driveServiceOf, startServer, type TestServer } from './harness';
import { blobExists } from './store-probe';
import { download } from './upload-util';

/**
 * POST /wangpan/office/savefile (issue 17 §1): a document edited in the browser, saved as its
 * OOXML bytes through the drive's copy-on-write replace. The rules: only a real package of the
 * file's own type, a size limit, the quota, file/update's rights in the drive and the libraries,
 * a conflict copy instead of overwriting someone's newer save, Idempotency-Key replays that
 * change nothing, and the old content freed.
 */

const FIXTURES = path.resolve('tests/fixtures/office');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

/** A package with some parts replaced (or removed with null), everything else kept. */
async function rezip(buf: Buffer, changes: Record<string, string | Buffer | null>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const seen = new Set<string>();
  for (const item of await readZip(buf)) {
    if (item.name.endsWith('/')) continue;
    seen.add(item.name);
    const next = item.name in changes ? changes[item.name] : item.data;
    if (next === null || next === undefined) continue;
    zip.addBuffer(Buffer.isBuffer(next) ? next : Buffer.from(next), item.name);
  }
  for (const [name, data] of Object.entries(changes)) {
    if (!seen.has(name) && data !== null)
      zip.addBuffer(Buffer.isBuffer(data) ? data : Buffer.from(data), name);
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function part(buf: Buffer, name: string): Promise<string> {
  const item = (await readZip(buf)).find((i) => i.name === name);
  if (!item) throw new Error(`no ${name}`);
  return item.data.toString('utf8');
}

/** The blank docx with one more paragraph of `text` (what an editor's save looks like). */
async function docxWith(blank: Buffer, text: string): Promise<Buffer> {
  const doc = await part(blank, 'word/document.xml');
  return rezip(blank, {
    'word/document.xml': doc.replace('<w:body>', `<w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p>`),
  });
}

/** The text of a docx's paragraphs. */
async function docxText(buf: Buffer): Promise<string> {
  const doc = await part(buf, 'word/document.xml');
  return [...doc.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join('');
}

async function workbook(value: string | number): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('Sheet1').getCell('A1').value = value;
  return Buffer.from(await wb.xlsx.writeBuffer());
}

let s: TestServer;
let me: DriveUser;
let other: DriveUser;
let keeper: DriveUser; // 典藏管理员: manages 其他资源 and 高清图片
let staff: DriveUser; // no grants: the personal drive only
let adminToken: string;
let blankDocx: Buffer;

beforeAll(async () => {
  s = await startServer();
  const svc = driveServiceOf(s);
  me = await driveUser(s, 'staff06', svc);
  other = await driveUser(s, 'staff07', svc);
  keeper = await driveUser(s, 'staff04', svc);
  staff = await driveUser(s, 'staff02', svc);
  adminToken = await s.login('admin');
  const r = await me.post('/office/createofficefile', {
    extendName: 'docx',
    filePath: '/',
    fileName: '模板',
  });
  blankDocx = await download(s, me.token, r.body.data.userFileId);
});
afterAll(() => s.close());

interface SaveOpts {
  token?: string;
  area?: Record<string, string | number>;
  base?: string;
  key?: string;
  asCopy?: boolean;
  type?: string;
}

async function save(u: DriveUser, id: number, body: Buffer | string | undefined, o: SaveOpts = {}) {
  const q = new URLSearchParams({
    userFileId: String(id),
    ...(o.base !== '' ? { baseMd5: o.base ?? '' } : {}),
  });
  for (const [k, v] of Object.entries(o.area ?? {})) q.set(k, String(v));
  if (o.asCopy) q.set('asCopy', '1');
  if (o.base === undefined) q.delete('baseMd5');
  const headers: Record<string, string> = {
    token: o.token ?? u.token,
    'content-type': o.type ?? 'application/octet-stream',
  };
  if (o.key) headers['idempotency-key'] = o.key;
  const res = await fetch(`${s.url}${W}/office/savefile?${q}`, { method: 'POST', headers, body });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

/** A new docx of `u` (the product's blank), with the MD5 its editor would name as the base. */
async function newDocx(u: DriveUser, name: string, area: Record<string, number> = {}) {
  const r = await u.post('/office/createofficefile', {
    extendName: 'docx',
    filePath: '/',
    fileName: name,
    ...area,
  });
  expect(r.body.success, JSON.stringify(r.body)).toBe(true);
  return { id: r.body.data.userFileId as number, base: md5(blankDocx) };
}

const failure = (code: number, message: string) => ({ success: false, code, message, data: null });

describe('saving', () => {
  it('replaces the content copy-on-write: the file holds the new bytes, a copy keeps the old', async () => {
    const { id, base } = await newDocx(me, '年度报告');
    const copy = await me.post('/file/copyfile', { userFileId: id, filePath: '/' });
    expect(copy.body.success).toBe(true);
    const edited = await docxWith(blankDocx, '二〇二五年度工作总结');
    const r = await save(me, id, edited, { base });
    expect(r.body).toEqual({
      success: true,
      code: 0,
      message: '成功',
      data: {
        userFileId: id,
        fileName: '年度报告',
        extendName: 'docx',
        filePath: '/',
        fileSize: edited.length,
        md5: md5(edited),
        changed: true,
        conflict: false,
        copy: false,
      },
    });
    expect(await download(s, me.token, id)).toEqual(edited);
    expect(await docxText(await download(s, me.token, id))).toBe('二〇二五年度工作总结');
    // The copy still points at the blank: blobs are immutable and shared.
    const copyId = await me.idOf('/', '年度报告(1).docx');
    expect(await download(s, me.token, copyId)).toEqual(blankDocx);
    const row = (await me.rows('/')).find((x) => x.userFileId === id);
    expect(row.fileSize).toBe(edited.length);
  });

  it('charges the quota the size difference only, and refuses what does not fit', async () => {
    const { id, base } = await newDocx(me, '额度');
    const before = (await me.get('/filetransfer/getstorage')).body.data.storageSize as number;
    const edited = await rezip(blankDocx, { 'word/media/big.bin': randomBytes(64 * 1024) });
    expect((await save(me, id, edited, { base })).body.success).toBe(true);
    const after = (await me.get('/filetransfer/getstorage')).body.data.storageSize as number;
    expect(after - before).toBe(edited.length - blankDocx.length);

    // Leave 10 KB free: a save growing the file by 64 KB more is refused, the file unchanged.
    const set = await s.call('POST', `${W}/admin/setstorage`, {
      token: adminToken,
      body: { userId: me.userId, totalStorageSize: after + 10 * 1024 },
    });
    expect(set.body.success).toBe(true);
    const bigger = await rezip(edited, { 'word/media/bigger.bin': randomBytes(64 * 1024) });
    const r = await save(me, id, bigger, { base: md5(edited) });
    expect(r.body.success).toBe(false);
    expect(r.body.message).toMatch(/^存储空间不足：还剩 .+，需要 .+/);
    expect(await download(s, me.token, id)).toEqual(edited);
    // A save that shrinks the file always fits.
    const smaller = await docxWith(blankDocx, '精简版');
    expect((await save(me, id, smaller, { base: md5(edited) })).body.data.changed).toBe(true);
    await s.call('POST', `${W}/admin/setstorage`, {
      token: adminToken,
      body: { userId: me.userId, totalStorageSize: 10 * 1024 ** 3 },
    });
  });

  it('frees the old content once nothing uses it', async () => {
    const { id } = await newDocx(me, '释放');
    const first = await docxWith(blankDocx, '第一稿');
    await save(me, id, first, { base: md5(blankDocx) });
    const second = await docxWith(blankDocx, '第二稿');
    expect((await save(me, id, second, { base: md5(first) })).body.data.changed).toBe(true);
    const blob = await s.db.selectFrom('blob').select('md5').where('md5', '=', md5(first)).executeTakeFirst();
    expect(blob).toBeUndefined();
    const m = md5(first);
    expect(await blobExists(s, m)).toBe(false);
    // The blank is still used by other files, so it stays.
    const blank = await s.db
      .selectFrom('blob')
      .select('md5')
      .where('md5', '=', md5(blankDocx))
      .executeTakeFirst();
    expect(blank).toBeDefined();
  });

  it('answers an unchanged save without writing, and saves a workbook', async () => {
    const { id } = await newDocx(me, '未改');
    const r = await save(me, id, blankDocx, { base: md5(blankDocx) });
    expect(r.body.data).toMatchObject({
      userFileId: id,
      changed: false,
      conflict: false,
      md5: md5(blankDocx),
    });

    const x = await me.post('/office/createofficefile', {
      extendName: 'xlsx',
      filePath: '/',
      fileName: '预算',
    });
    const xid = x.body.data.userFileId as number;
    const blankXlsx = await download(s, me.token, xid);
    const book = await workbook(12800);
    expect((await save(me, xid, book, { base: md5(blankXlsx) })).body.data.changed).toBe(true);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await download(s, me.token, xid)) as unknown as ArrayBuffer);
    expect(wb.getWorksheet('Sheet1')!.getCell('A1').value).toBe(12800);
  });

  it('saves as a new file beside the original when asked (asCopy), the original untouched', async () => {
    const { id, base } = await newDocx(me, '借展协议');
    const edited = await docxWith(blankDocx, '修改稿内容');
    const r = await save(me, id, edited, { base, asCopy: true });
    expect(r.body.data).toMatchObject({
      fileName: '借展协议（修改稿）',
      extendName: 'docx',
      filePath: '/',
      changed: true,
      conflict: false,
      copy: true,
    });
    expect(r.body.data.userFileId).not.toBe(id);
    expect(await download(s, me.token, id)).toEqual(blankDocx);
    expect(await download(s, me.token, r.body.data.userFileId)).toEqual(edited);
    // Again: the collision rule names the second copy.
    const again = await save(me, id, edited, { base, asCopy: true });
    expect(again.body.data.fileName).toBe('借展协议（修改稿）(1)');
  });
});

describe('the conflict rule', () => {
  it('never overwrites a newer save: the later one from an older version becomes a conflict copy', async () => {
    const { id, base } = await newDocx(me, '展陈大纲');
    // Two devices opened the same version; the tablet saves first.
    const tablet = await docxWith(blankDocx, '平板上的修改');
    expect((await save(me, id, tablet, { base })).body.data).toMatchObject({
      changed: true,
      conflict: false,
    });
    const desk = await docxWith(blankDocx, '电脑上的修改');
    const r = await save(me, id, desk, { base });
    expect(r.body.success).toBe(true);
    expect(r.body.data.conflict).toBe(true);
    expect(r.body.data.copy).toBe(false);
    expect(r.body.data.fileName).toMatch(/^展陈大纲（.+的冲突副本 \d{4}-\d{2}-\d{2} \d{2}时\d{2}分）$/);
    expect(r.body.data.userFileId).not.toBe(id);
    // Both pieces of work are kept, each where it says.
    expect(await docxText(await download(s, me.token, id))).toBe('平板上的修改');
    expect(await docxText(await download(s, me.token, r.body.data.userFileId))).toBe('电脑上的修改');
    // The copy is an ordinary file of the folder.
    expect(await me.names('/')).toContain(`${r.body.data.fileName}.docx`);
  });

  it('lets exactly one of two simultaneous saves from the same version replace the file', async () => {
    const { id, base } = await newDocx(me, '同时保存');
    const a = await docxWith(blankDocx, '甲');
    const b = await docxWith(blankDocx, '乙');
    const [ra, rb] = await Promise.all([save(me, id, a, { base }), save(me, id, b, { base })]);
    const results = [ra.body.data, rb.body.data];
    expect(results.filter((d) => d.conflict)).toHaveLength(1);
    const winner = results.find((d) => !d.conflict)!;
    const loser = results.find((d) => d.conflict)!;
    expect(md5(await download(s, me.token, id))).toBe(winner.md5);
    expect(md5(await download(s, me.token, loser.userFileId))).toBe(loser.md5);
  });

  it('names a conflict copy by the saver, in a library too', async () => {
    const area = { fileType: 9, isAdmin: 1 };
    const { id, base } = await newDocx(keeper, '库中文档', area);
    // The file changes under the keeper (another manager saved it).
    const meanwhile = await docxWith(blankDocx, '另一位管理员的修改');
    expect((await save(keeper, id, meanwhile, { base, area })).body.success).toBe(true);
    const r = await save(keeper, id, await docxWith(blankDocx, '我的修改'), { base, area });
    expect(r.body.data.conflict).toBe(true);
    const keeperName = (
      await s.db
        .selectFrom('user')
        .select('user_name')
        .where('id', '=', keeper.userId)
        .executeTakeFirstOrThrow()
    ).user_name;
    expect(r.body.data.fileName).toContain(`${keeperName}的冲突副本`);
  });
});

describe('refusals', () => {
  let id: number;
  let base: string;
  beforeAll(async () => {
    ({ id, base } = await newDocx(me, '拒绝'));
  });
  const unchanged = async () => expect(await download(s, me.token, id)).toEqual(blankDocx);

  it('refuses bytes that are not a package, naming the type', async () => {
    expect((await save(me, id, randomBytes(4096), { base })).body).toEqual(
      failure(1010, OFFICE_SAVE_MSG.notPackage('Word 文档（.docx）')),
    );
    expect(OFFICE_SAVE_MSG.notPackage('Word 文档（.docx）')).toBe(
      '保存的内容不是有效的 Word 文档（.docx），未保存；请重新打开文档后再试',
    );
    // A zip, but no officeDocument in it; a package whose main part is missing.
    const notOffice = await rezip(blankDocx, { '_rels/.rels': null });
    expect((await save(me, id, notOffice, { base })).body.message).toBe(
      OFFICE_SAVE_MSG.notPackage('Word 文档（.docx）'),
    );
    const noMain = await rezip(blankDocx, { 'word/document.xml': null });
    expect((await save(me, id, noMain, { base })).body.message).toBe(
      OFFICE_SAVE_MSG.notPackage('Word 文档（.docx）'),
    );
    await unchanged();
  });

  it('refuses another type of package for the file, saying what it is', async () => {
    expect((await save(me, id, await workbook('x'), { base })).body).toEqual(
      failure(1010, '保存的内容是 Excel 表格（.xlsx），而该文件是 Word 文档（.docx），未保存'),
    );
    const types = await part(blankDocx, '[Content_Types].xml');
    const docm = await rezip(blankDocx, {
      '[Content_Types].xml': types.replace(
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
        'application/vnd.ms-word.document.macroEnabled.main+xml',
      ),
    });
    expect(docm.toString('latin1')).not.toContain('wordprocessingml.document.main+xml');
    expect((await save(me, id, docm, { base })).body.message).toBe(
      '保存的内容是 启用宏的 Word 文档（.docm），而该文件是 Word 文档（.docx），未保存',
    );
    // And a docx for a workbook.
    const x = await me.post('/office/createofficefile', {
      extendName: 'xlsx',
      filePath: '/',
      fileName: '拒绝表',
    });
    const xid = x.body.data.userFileId as number;
    const blankXlsx = await download(s, me.token, xid);
    expect((await save(me, xid, blankDocx, { base: md5(blankXlsx) })).body.message).toBe(
      '保存的内容是 Word 文档（.docx），而该文件是 Excel 表格（.xlsx），未保存',
    );
    await unchanged();
  });

  it('refuses an empty body, a body that is not octets, and one over the limit', async () => {
    expect((await save(me, id, Buffer.alloc(0), { base })).body).toEqual(
      failure(1010, OFFICE_SAVE_MSG.empty),
    );
    expect((await save(me, id, '{"a":1}', { base, type: 'application/json' })).body).toEqual(
      failure(1010, OFFICE_SAVE_MSG.badType),
    );
    expect((await save(me, id, 'text', { base, type: 'text/plain' })).body.message).toBe(
      OFFICE_SAVE_MSG.badType,
    );
    expect((await save(me, id, blankDocx, { base, type: 'image/png' })).body.message).toBe(
      OFFICE_SAVE_MSG.badType,
    );
    const big = await save(me, id, Buffer.alloc(OFFICE_EDIT_SAVE_MAX + 1), { base });
    expect(big.body).toEqual(failure(1010, OFFICE_SAVE_MSG.tooLarge));
    expect(OFFICE_SAVE_MSG.tooLarge).toBe('文档超过 50 MB，无法在线保存；请下载后用 Office 或 WPS 编辑');
    await unchanged();
  });

  it('needs the version it was opened from, as an MD5', async () => {
    const missing = await save(me, id, blankDocx, {});
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('缺少打开时的文件版本，请重新打开文档后再保存');
    const bad = await save(me, id, blankDocx, { base: 'abc' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('打开时的文件版本不正确，请重新打开文档后再保存');
  });

  it("treats another person's file, a folder and a missing id alike: gone, and says how to keep the work", async () => {
    const edited = await docxWith(blankDocx, '越权');
    const theirs = await newDocx(other, '他人的文档');
    expect((await save(me, theirs.id, edited, { base: theirs.base })).body).toEqual(
      failure(404, OFFICE_SAVE_MSG.gone),
    );
    expect(await download(s, other.token, theirs.id)).toEqual(blankDocx);
    const folder = await me.mkdir('/', '文件夹');
    expect((await save(me, folder, edited, { base })).body.message).toBe(OFFICE_SAVE_MSG.gone);
    expect((await save(me, 999999, edited, { base })).body.message).toBe(OFFICE_SAVE_MSG.gone);
    // A file moved to the bin meanwhile.
    const binned = await newDocx(me, '已删除');
    expect((await me.post('/file/deletefile', { userFileId: binned.id, deleteMode: 1 })).body.success).toBe(
      true,
    );
    expect((await save(me, binned.id, edited, { base: binned.base })).body.message).toBe(
      OFFICE_SAVE_MSG.gone,
    );
  });

  it('saves only docx and xlsx: a presentation and a text file are refused', async () => {
    const p = await me.post('/office/createofficefile', {
      extendName: 'pptx',
      filePath: '/',
      fileName: '演示',
    });
    const pid = p.body.data.userFileId as number;
    const pptx = await download(s, me.token, pid);
    expect((await save(me, pid, pptx, { base: md5(pptx) })).body).toEqual(
      failure(1010, OFFICE_SAVE_MSG.notEditable),
    );
    const txt = await me.put('/', '说明.txt', 'hello');
    expect((await save(me, txt, blankDocx, { base: md5(Buffer.from('hello')) })).body.message).toBe(
      OFFICE_SAVE_MSG.notEditable,
    );
  });

  it('refuses project documents (they open read-only), and others hear the project is not there', async () => {
    const made = await s.call('POST', '/singleMuseum/project/add', {
      token: me.token,
      body: { name: '展览筹备', type: 'exhibition', userIds: [] },
    });
    expect(made.body.success, JSON.stringify(made.body)).toBe(true);
    const area = { projectId: made.body.result.projectId as number };
    const doc = await me.put('/', '项目说明.docx', blankDocx);
    const r = await me.post('/file/createfile', { filePath: '/', fileName: '资料', isDir: 1, ...area });
    expect(r.body.success).toBe(true);
    const moved = await s.call('POST', '/singleMuseum/projectFile/moveFromDrive', {
      token: me.token,
      body: { projectId: area.projectId, fileIds: [doc], parentId: -1 },
    });
    expect(moved.body.success, JSON.stringify(moved.body)).toBe(true);
    expect((await save(me, doc, blankDocx, { base, area })).body).toEqual(
      failure(1010, OFFICE_SAVE_MSG.project),
    );
    const stranger = await save(staff, doc, blankDocx, { base, area });
    expect(stranger.body.success).toBe(false);
    expect(stranger.body.message).not.toBe(OFFICE_SAVE_MSG.project);
    await unchanged();
  });
});

describe('Idempotency-Key', () => {
  it('answers a replayed save with its first answer and changes nothing', async () => {
    const { id, base } = await newDocx(me, '离线保存');
    const edited = await docxWith(blankDocx, '离线时写的');
    const key = `office-save-${randomBytes(6).toString('hex')}`;
    const first = await save(me, id, edited, { base, key });
    expect(first.body.data).toMatchObject({ changed: true, conflict: false });
    // The answer was lost; the outbox sends it again: the same answer, no conflict copy.
    const again = await save(me, id, edited, { base, key });
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await me.names('/')).filter((n) => n.startsWith('离线保存'))).toEqual(['离线保存.docx']);
    // Even other bytes under the same key change nothing.
    const other2 = await docxWith(blankDocx, '不同的内容');
    expect((await save(me, id, other2, { base, key })).body).toEqual(first.body);
    expect(await download(s, me.token, id)).toEqual(edited);
  });

  it('keeps refusals as the answer to their key too', async () => {
    const { id, base } = await newDocx(me, '拒绝重放');
    const key = `office-save-${randomBytes(6).toString('hex')}`;
    const first = await save(me, id, randomBytes(100), { base, key });
    expect(first.body.success).toBe(false);
    const again = await save(me, id, await docxWith(blankDocx, 'x'), { base, key });
    expect(again.body).toEqual(first.body);
    expect(await download(s, me.token, id)).toEqual(blankDocx);
  });
});

describe('rights in the libraries (those of file/update)', () => {
  it('lets the managers of 其他资源 and 高清图片 save, with no quota', async () => {
    for (const area of [{ fileType: 9, isAdmin: 1 }, { isFmt: 2 }] as Record<string, number>[]) {
      const { id, base } = await newDocx(keeper, `馆藏手册${Object.keys(area).join('')}`, area);
      const edited = await docxWith(blankDocx, '库中修改');
      const r = await save(keeper, id, edited, { base, area });
      expect(r.body.data, JSON.stringify(area)).toMatchObject({ changed: true, conflict: false });
      const res = await fetch(
        `${s.url}${W}/filetransfer/downloadfile?userFileId=${id}&${new URLSearchParams(area as never)}`,
        { headers: { token: staff.token } },
      );
      expect(await docxText(Buffer.from(await res.arrayBuffer()))).toBe('库中修改');
    }
  });

  it('refuses staff without the grant, whatever flags they send', async () => {
    const area = { fileType: 9, isAdmin: 1 };
    const { id, base } = await newDocx(keeper, '只读资源', area);
    const edited = await docxWith(blankDocx, '无权修改');
    for (const flags of [area, { fileType: 9 }]) {
      const r = await save(staff, id, edited, { base, area: flags });
      expect(r.body).toEqual(failure(1005, '无权限管理其他资源，请联系管理员开通'));
    }
    const hd = await newDocx(keeper, '高清说明', { isFmt: 2 });
    expect((await save(staff, hd.id, edited, { base: hd.base, area: { isFmt: 2 } })).body).toEqual(
      failure(1005, '无权限管理高清图片，请联系管理员开通'),
    );
    // Without the flags, the id is looked up in the saver's own drive: not there.
    expect((await save(staff, id, edited, { base })).body.message).toBe(OFFICE_SAVE_MSG.gone);
    const res = await fetch(`${s.url}${W}/filetransfer/downloadfile?userFileId=${id}&fileType=9`, {
      headers: { token: staff.token },
    });
    expect(Buffer.from(await res.arrayBuffer())).toEqual(blankDocx);
  });
});

describe('what a save must not need', () => {
  it('needs a session like every drive call', async () => {
    const res = await fetch(`${s.url}${W}/office/savefile?userFileId=1&baseMd5=${md5(blankDocx)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: blankDocx,
    });
    expect(res.status).toBe(999);
  });

  it('checks a real LibreOffice document like the product blanks', async () => {
    const { id, base } = await newDocx(me, '真实文档');
    const report = fixture('report.docx');
    expect((await save(me, id, report, { base })).body.data.changed).toBe(true);
    const x = await me.post('/office/createofficefile', {
      extendName: 'xlsx',
      filePath: '/',
      fileName: '真实表格',
    });
    const xid = x.body.data.userFileId as number;
    const blankXlsx = await download(s, me.token, xid);
    expect((await save(me, xid, fixture('inventory.xlsx'), { base: md5(blankXlsx) })).body.data.changed).toBe(
      true,
    );
  });
});
