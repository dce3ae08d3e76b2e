import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import ExcelJS from 'exceljs';
// A strict, namespace-aware XML parser (exceljs's own): any well-formedness error throws.
import { SaxesParser } from 'saxes';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { signJwt, verifyJwt } from '../../src/server/modules/office/jwt';
import { driveServiceOf, startServer, type TestServer } from './harness';
import { W, driveUser, failed, type DriveUser } from './drive-util';
import { download } from './upload-util';

/**
 * Office files (issue 5): office/createofficefile makes real blank documents under the
 * drive's rules; with a Document Server configured, the ONLYOFFICE protocol — signed configs,
 * short-lived signed document URLs, callbacks checked against the Document Server's JWT and
 * saved copy-on-write from its own origin only.
 */

const SECRET = 'ds-secret-for-tests-0123456789';

// ——————————————————————————————————————————————————————————————— zip and XML helpers

function unzip(buf: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('no zip'));
      const out = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error('no stream'));
          const parts: Buffer[] = [];
          stream.on('data', (c: Buffer) => parts.push(c));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(parts));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** Parses `xml` strictly (namespaces included); throws on any well-formedness error. */
function parseXml(xml: string): void {
  const parser = new SaxesParser({ xmlns: true });
  let error: Error | undefined;
  parser.on('error', (e) => {
    error ??= e;
  });
  parser.write(xml).close();
  if (error) throw error;
}

/** `[source part, Type, resolved target]` of every internal relationship in the package. */
function relationships(parts: Map<string, Buffer>) {
  const out: [string, string, string][] = [];
  for (const [name, bytes] of parts) {
    if (!name.endsWith('.rels')) continue;
    // word/_rels/document.xml.rels describes word/document.xml: targets resolve from word/.
    const baseDir = path.posix.dirname(path.posix.dirname(name));
    for (const m of bytes
      .toString('utf8')
      .matchAll(/<Relationship [^>]*?Type="([^"]+)"[^>]*?Target="([^"]+)"/g)) {
      out.push([name, m[1]!, path.posix.normalize(path.posix.join(baseDir, m[2]!))]);
    }
  }
  return out;
}

const relType = (suffix: string) => (r: [string, string, string]) => r[1].endsWith(`/${suffix}`);

async function checkPackage(bytes: Buffer) {
  const parts = await unzip(bytes);
  expect(parts.has('[Content_Types].xml')).toBe(true);
  for (const [name, content] of parts) {
    if (/\.(xml|rels)$/.test(name)) expect(() => parseXml(content.toString('utf8')), name).not.toThrow();
  }
  // Every part the content types name exists, and every relationship points at a part.
  const types = parts.get('[Content_Types].xml')!.toString('utf8');
  for (const m of types.matchAll(/PartName="\/([^"]+)"/g)) expect(parts.has(m[1]!), m[1]).toBe(true);
  const rels = relationships(parts);
  for (const [from, , target] of rels) expect(parts.has(target), `${from} → ${target}`).toBe(true);
  return { parts, rels };
}

// ——————————————————————————————————————————————————————————————— without a Document Server

describe('office/createofficefile', () => {
  let s: TestServer;
  let me: DriveUser;
  let other: DriveUser;
  let admin: DriveUser;
  beforeAll(async () => {
    s = await startServer();
    const svc = driveServiceOf(s);
    me = await driveUser(s, 'staff06', svc);
    other = await driveUser(s, 'staff07', svc);
    admin = await driveUser(s, 'admin', svc);
  });
  afterAll(() => s.close());

  const create = (u: DriveUser, body: Record<string, unknown>) => u.post('/office/createofficefile', body);

  it('creates a blank Word document: a valid package with document, styles and settings', async () => {
    const r = await create(me, { extendName: 'docx', filePath: '/', fileName: '展览方案' });
    expect(r.body).toMatchObject({
      success: true,
      code: 0,
      data: { fileName: '展览方案', extendName: 'docx', filePath: '/' },
    });
    const { parts, rels } = await checkPackage(await download(s, me.token, r.body.data.userFileId));
    expect(rels.filter(relType('officeDocument')).map((x) => x[2])).toEqual(['word/document.xml']);
    expect(rels.filter(relType('styles')).map((x) => x[2])).toEqual(['word/styles.xml']);
    const doc = parts.get('word/document.xml')!.toString('utf8');
    expect(doc).toContain('<w:body>');
    expect(doc).toContain('w:w="11906" w:h="16838"'); // A4
    const row = (await me.rows('/')).find((x) => x.userFileId === r.body.data.userFileId);
    expect(row).toMatchObject({ fileName: '展览方案', extendName: 'docx', isDir: 0 });
    expect(row.fileSize).toBeGreaterThan(1000);
  });

  it('creates a blank workbook with one sheet "Sheet1" that ExcelJS loads', async () => {
    const r = await create(me, { extendName: 'xlsx', filePath: '/', fileName: '藏品清单' });
    expect(r.body.success).toBe(true);
    const bytes = await download(s, me.token, r.body.data.userFileId);
    const { rels } = await checkPackage(bytes);
    expect(rels.filter(relType('officeDocument')).map((x) => x[2])).toEqual(['xl/workbook.xml']);
    expect(rels.filter(relType('worksheet')).map((x) => x[2])).toEqual(['xl/worksheets/sheet1.xml']);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(bytes as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Sheet1']);
    expect(wb.worksheets[0]!.rowCount).toBe(0);
  });

  it('creates a blank presentation with a slide master, a layout, a theme and one slide', async () => {
    const r = await create(me, { extendName: 'pptx', filePath: '/', fileName: '开幕致辞' });
    expect(r.body.success).toBe(true);
    const { parts, rels } = await checkPackage(await download(s, me.token, r.body.data.userFileId));
    const from = (part: string, type: string) =>
      rels.filter((x) => x[0] === part && relType(type)(x)).map((x) => x[2]);
    expect(from('_rels/.rels', 'officeDocument')).toEqual(['ppt/presentation.xml']);
    const pres = 'ppt/_rels/presentation.xml.rels';
    expect(from(pres, 'slideMaster')).toEqual(['ppt/slideMasters/slideMaster1.xml']);
    expect(from(pres, 'slide')).toEqual(['ppt/slides/slide1.xml']);
    expect(from(pres, 'theme')).toEqual(['ppt/theme/theme1.xml']);
    const master = 'ppt/slideMasters/_rels/slideMaster1.xml.rels';
    expect(from(master, 'slideLayout')).toEqual(['ppt/slideLayouts/slideLayout1.xml']);
    expect(from(master, 'theme')).toEqual(['ppt/theme/theme1.xml']);
    expect(from('ppt/slideLayouts/_rels/slideLayout1.xml.rels', 'slideMaster')).toEqual([
      'ppt/slideMasters/slideMaster1.xml',
    ]);
    expect(from('ppt/slides/_rels/slide1.xml.rels', 'slideLayout')).toEqual([
      'ppt/slideLayouts/slideLayout1.xml',
    ]);
    // The ids the presentation lists are the relationships it has.
    const p = parts.get('ppt/presentation.xml')!.toString('utf8');
    expect(p).toContain('<p:sldMasterId id="2147483648" r:id="rId1"/>');
    expect(p).toContain('<p:sldId id="256" r:id="rId2"/>');
    expect(p).toContain('<p:sldSz cx="12192000" cy="6858000"/>');
  });

  it('stores one blob per type however many blanks there are (same bytes every time)', async () => {
    const a = await create(me, { extendName: 'docx', filePath: '/', fileName: '甲' });
    const b = await create(other, { extendName: 'docx', filePath: '/', fileName: '乙' });
    const ba = await download(s, me.token, a.body.data.userFileId);
    const bb = await download(s, other.token, b.body.data.userFileId);
    expect(ba.equals(bb)).toBe(true);
  });

  it('follows the collision rule: a taken name gets (1), (2)…', async () => {
    const body = { extendName: 'xlsx', filePath: '/', fileName: '值班表' };
    expect((await create(me, body)).body.data.fileName).toBe('值班表');
    expect((await create(me, body)).body.data.fileName).toBe('值班表(1)');
    expect((await create(me, body)).body.data.fileName).toBe('值班表(2)');
    // Another type of the same name is no clash.
    expect((await create(me, { ...body, extendName: 'docx' })).body.data.fileName).toBe('值班表');
    const names = await me.names('/');
    expect(names).toEqual(
      expect.arrayContaining(['值班表.xlsx', '值班表(1).xlsx', '值班表(2).xlsx', '值班表.docx']),
    );
  });

  it('creates inside an existing folder, and refuses a missing one', async () => {
    await me.mkdir('/', '文档');
    const r = await create(me, { extendName: 'pptx', filePath: '/文档/', fileName: '汇报' });
    expect(r.body).toMatchObject({ success: true, data: { filePath: '/文档/' } });
    expect(await me.names('/文档/')).toEqual(['汇报.pptx']);
    expect((await create(me, { extendName: 'pptx', filePath: '/没有/', fileName: '汇报' })).body).toEqual(
      failed(404, '目标文件夹不存在或已被删除'),
    );
    expect(await me.names('/')).not.toContain('没有/');
  });

  it('refuses a file the quota cannot take, and creates nothing', async () => {
    const tight = await driveUser(s, 'staff08');
    await admin.post('/admin/setstorage', { userId: tight.userId, totalStorageSize: 1000 });
    const r = await create(tight, { extendName: 'docx', filePath: '/', fileName: '超额' });
    expect(r.body).toMatchObject({ success: false, code: 1010 });
    expect(r.body.message).toMatch(/^存储空间不足：还剩 1000 B，需要 .+KB$/);
    expect(await tight.names('/')).toEqual([]);
  });

  it('refuses a wrong type and bad names with the words a person can act on', async () => {
    const base = { extendName: 'docx', filePath: '/', fileName: '好名字' };
    const answer = async (body: Record<string, unknown>) => (await create(me, body)).body;
    expect(await answer({ ...base, extendName: 'doc' })).toEqual(
      failed(400, '请选择文件类型：docx、xlsx 或 pptx'),
    );
    expect(await answer({ ...base, extendName: undefined })).toEqual(
      failed(400, '请选择文件类型：docx、xlsx 或 pptx'),
    );
    expect(await answer({ ...base, fileName: '' })).toEqual(failed(400, '请输入文件名称'));
    expect(await answer({ ...base, fileName: '   ' })).toEqual(failed(400, '请输入文件名称'));
    expect(await answer({ ...base, fileName: 'a/b' })).toEqual(
      failed(400, '文件名称不能包含以下字符：\\ / : * ? " < > |'),
    );
    expect(await answer({ ...base, fileName: 'x'.repeat(256) })).toEqual(
      failed(400, '文件名称不能超过 255 个字符'),
    );
    // 255 characters typed, 260 with ".docx": the full name is what the drive limits.
    expect(await answer({ ...base, fileName: 'x'.repeat(255) })).toEqual(
      failed(1010, '文件名称不能超过 255 个字符'),
    );
    expect(await answer({ ...base, filePath: '../' })).toEqual(failed(400, '路径格式不正确'));
  });

  it('answers that no Document Server is configured, and never serves documents', async () => {
    expect((await me.get('/office/config')).body.data).toEqual({ onlyoffice: false, docServiceApiUrl: null });
    const id = await me.idOf('/', '展览方案.docx');
    for (const call of ['/office/editofficefile', '/office/previewofficefile']) {
      expect((await me.post(call, { userFileId: id })).body).toEqual(
        failed(1010, '未配置在线文档服务，请下载后查看或编辑'),
      );
    }
    const cb = await fetch(`${s.url}${W}/office/callback?t=x`, { method: 'POST', body: '{}' });
    expect(await cb.json()).toEqual({ error: 1 });
  });

  it('needs a session for everything but the Document Server’s two calls', async () => {
    const r = await s.call('POST', `${W}/office/createofficefile`, {
      body: { extendName: 'docx', filePath: '/', fileName: 'x' },
    });
    expect(r.status).toBe(999);
    expect((await s.call('GET', `${W}/office/config`)).status).toBe(999);
  });
});

// ——————————————————————————————————————————————————————————————— the ONLYOFFICE protocol

/** A stand-in Document Server: serves whatever `files` holds and counts the requests. */
async function fakeServer(files: Map<string, Buffer>) {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const body = files.get(req.url ?? '');
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, hits, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function xlsxWith(value: string): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('Sheet1').getCell('A1').value = value;
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function cellA1(bytes: Buffer): Promise<unknown> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  return wb.worksheets[0]!.getCell('A1').value;
}

describe('the ONLYOFFICE protocol', () => {
  let s: TestServer;
  let ds: Awaited<ReturnType<typeof fakeServer>>;
  let elsewhere: Awaited<ReturnType<typeof fakeServer>>;
  const dsFiles = new Map<string, Buffer>();
  let me: DriveUser;
  let other: DriveUser;
  let admin: DriveUser;

  beforeAll(async () => {
    ds = await fakeServer(dsFiles);
    elsewhere = await fakeServer(dsFiles);
    s = await startServer({ ONLYOFFICE_URL: `${ds.url}/`, ONLYOFFICE_JWT_SECRET: SECRET });
    const svc = driveServiceOf(s);
    me = await driveUser(s, 'staff09', svc);
    other = await driveUser(s, 'staff10', svc);
    admin = await driveUser(s, 'admin', svc);
  });
  afterAll(async () => {
    await s.close();
    await ds.close();
    await elsewhere.close();
  });

  /** The editor config for a file (edit unless `view`). */
  async function editor(id: number, opts: { view?: boolean; mobile?: boolean; u?: DriveUser } = {}) {
    const call = opts.view ? '/office/previewofficefile' : '/office/editofficefile';
    const r = await (opts.u ?? me).post(call, { userFileId: id, mobile: opts.mobile });
    expect(r.body.success, JSON.stringify(r.body)).toBe(true);
    return r.body.data as { config: any; docServiceApiUrl: string };
  }

  /** Our server's path and query of a URL the config gives the Document Server. */
  const local = (url: string) => {
    const u = new URL(url);
    return `${s.url}${u.pathname}${u.search}`;
  };

  /** Sends a callback as the Document Server does: token in the body, or in the header. */
  async function callback(
    callbackUrl: string,
    claims: Record<string, unknown>,
    opts: { secret?: string; via?: 'body' | 'header' | 'none' } = {},
  ) {
    const secret = opts.secret ?? SECRET;
    const via = opts.via ?? 'body';
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    let body: Record<string, unknown> = { ...claims };
    if (via === 'body') body = { ...claims, token: signJwt(claims, secret) };
    if (via === 'header') headers.authorization = `Bearer ${signJwt({ payload: claims }, secret)}`;
    const res = await fetch(local(callbackUrl), { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as unknown };
  }

  const newXlsx = async (name: string, value: string, u: DriveUser = me) =>
    u.put('/', name, await xlsxWith(value));

  it('says a Document Server is there, and lets the page load its api.js and frame', async () => {
    const r = await me.get('/office/config');
    expect(r.body.data).toEqual({
      onlyoffice: true,
      docServiceApiUrl: `${ds.url}/web-apps/apps/api/documents/api.js`,
    });
    // The page's policy (the editor's page is where api.js loads), not the JSON answer's.
    const page = await fetch(`${s.url}/onlyoffice`, { headers: { accept: 'text/html' } });
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toMatch(new RegExp(`script-src 'self' 'wasm-unsafe-eval' ${ds.url}(;|$)`));
    expect(csp).toMatch(new RegExp(`frame-src 'self' ${ds.url}(;|$)`));
  });

  it('signs the config with the Document Server’s secret, and only that secret verifies it', async () => {
    const id = await newXlsx('预算.xlsx', '旧值');
    const { config, docServiceApiUrl } = await editor(id);
    expect(docServiceApiUrl).toBe(`${ds.url}/web-apps/apps/api/documents/api.js`);
    const { token, ...unsigned } = config;
    const claims = verifyJwt(token, SECRET);
    expect(claims).not.toBeNull();
    const { exp, ...signed } = claims!;
    expect(signed).toEqual(unsigned);
    expect(exp).toBeGreaterThan(Date.now() / 1000);
    expect(verifyJwt(token, 'another-secret-0123456789')).toBeNull();
    expect(config).toMatchObject({
      type: 'desktop',
      documentType: 'cell',
      document: { title: '预算.xlsx', fileType: 'xlsx', permissions: { edit: true } },
      editorConfig: { mode: 'edit', lang: 'zh', user: { id: String(me.userId) } },
    });
    // Nothing of the person's session ever goes into a URL.
    expect(config.document.url).not.toContain(me.token);
    expect(config.editorConfig.callbackUrl).not.toContain(me.token);
    expect(config.document.url.startsWith(`${s.config.publicUrl}/wangpan/office/document?t=`)).toBe(true);
    expect(
      config.editorConfig.callbackUrl.startsWith(`${s.config.publicUrl}/wangpan/office/callback?t=`),
    ).toBe(true);
  });

  it('gives a view-only config for viewing, for legacy formats and on phones as signed', async () => {
    const id = await newXlsx('只读.xlsx', 'x');
    const view = (await editor(id, { view: true, mobile: true })).config;
    expect(view).toMatchObject({
      type: 'mobile',
      editorConfig: { mode: 'view' },
      document: { permissions: { edit: false } },
    });
    expect(view.editorConfig.callbackUrl).toBeUndefined();
    expect(verifyJwt(view.token, SECRET)).toMatchObject({ type: 'mobile' });
    const legacy = await me.put('/', '旧格式.doc', Buffer.from('legacy'));
    expect((await editor(legacy)).config).toMatchObject({
      documentType: 'word',
      editorConfig: { mode: 'view' },
    });
    const txt = await me.put('/', '说明.txt', 'text');
    expect((await me.post('/office/editofficefile', { userFileId: txt })).body).toEqual(
      failed(1010, '该文件不是 Office 文档，不能在线打开'),
    );
  });

  it('answers another person’s id exactly like a missing one', async () => {
    const id = await newXlsx('私人.xlsx', 'secret');
    for (const call of ['/office/editofficefile', '/office/previewofficefile']) {
      const theirs = await other.post(call, { userFileId: id });
      const missing = await other.post(call, { userFileId: 99999999 });
      expect(theirs.body).toEqual(missing.body);
      expect(theirs.body).toEqual(failed(404, '文件不存在或已被删除'));
    }
  });

  it('serves the document URL without a session until it expires; tampered or stale URLs fail closed', async () => {
    const id = await newXlsx('展品.xlsx', '青铜器');
    const { config } = await editor(id);
    const url = local(config.document.url);
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-disposition')).toMatch(/^attachment; /);
    expect(ok.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await cellA1(Buffer.from(await ok.arrayBuffer()))).toBe('青铜器');

    const t = new URL(url).searchParams.get('t')!;
    const [h, p, sig] = t.split('.') as [string, string, string];
    const flipped = `${h}.${p}.${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`;
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const otherId = Buffer.from(JSON.stringify({ ...claims, id: claims.id + 1 })).toString('base64url');
    // The installation's key, wherever its store keeps it (the same call the server made).
    const key = await s.storage.secret('office-url');
    const expired = signJwt({ ...claims, exp: Math.floor(Date.now() / 1000) - 1 }, key);
    const noExp = signJwt({ p: claims.p, u: claims.u, a: claims.a, id: claims.id, m: claims.m }, key);
    const withSecret = signJwt({ ...claims }, SECRET);
    const callbackToken = new URL(config.editorConfig.callbackUrl).searchParams.get('t')!;
    for (const bad of [flipped, `${h}.${otherId}.${sig}`, expired, noExp, withSecret, callbackToken, 'x']) {
      const r = await fetch(`${s.url}${W}/office/document?t=${encodeURIComponent(bad)}`);
      expect(r.status, bad).toBe(403);
      expect(await r.json()).toMatchObject({
        success: false,
        message: '文档链接无效或已过期，请重新打开文档',
      });
    }
    expect((await fetch(`${s.url}${W}/office/document`)).status).toBe(400);

    // Once the content changed, the old URL no longer names this document.
    dsFiles.set('/cache/stale.xlsx', await xlsxWith('新值'));
    const saved = await callback(config.editorConfig.callbackUrl, {
      key: config.document.key,
      status: 2,
      url: `${ds.url}/cache/stale.xlsx`,
    });
    expect(saved.body).toEqual({ error: 0 });
    expect((await fetch(url)).status).toBe(403);
  });

  it('keeps the key while the content stays, and changes it when the content changes', async () => {
    const id = await newXlsx('钥匙.xlsx', '一');
    const k1 = (await editor(id)).config.document.key;
    expect((await editor(id, { view: true })).config.document.key).toBe(k1);
    expect(k1).toMatch(/^[0-9A-Za-z_-]{20,128}$/);
    const { config } = await editor(id);
    dsFiles.set('/cache/key.xlsx', await xlsxWith('二'));
    await callback(config.editorConfig.callbackUrl, { key: k1, status: 2, url: `${ds.url}/cache/key.xlsx` });
    const k2 = (await editor(id)).config.document.key;
    expect(k2).not.toBe(k1);
    // A rename is not a new version: same key.
    await me.post('/file/renamefile', { userFileId: id, fileName: '钥匙-改名.xlsx' });
    expect((await editor(id)).config.document.key).toBe(k2);
  });

  it('saves on status 2 copy-on-write: the copy and another person’s equal file keep the old content', async () => {
    const original = await xlsxWith('初稿');
    const id = await me.put('/', '方案.xlsx', original);
    const twin = await me.put('/', '方案-副本.xlsx', original);
    const theirs = await other.put('/', '他的方案.xlsx', original);
    const { config } = await editor(id);
    dsFiles.set('/cache/files/1/output.xlsx', await xlsxWith('定稿'));
    const before = ds.hits.length;
    const r = await callback(config.editorConfig.callbackUrl, {
      key: config.document.key,
      status: 2,
      url: `${ds.url}/cache/files/1/output.xlsx`,
      filetype: 'xlsx',
      users: [String(me.userId)],
    });
    expect(r).toEqual({ status: 200, body: { error: 0 } });
    expect(ds.hits.length).toBe(before + 1);
    expect(await cellA1(await download(s, me.token, id))).toBe('定稿');
    expect(await cellA1(await download(s, me.token, twin))).toBe('初稿');
    expect(await cellA1(await download(s, other.token, theirs))).toBe('初稿');
    const row = (await me.rows('/')).find((x) => x.userFileId === id);
    expect(row.fileSize).toBe(dsFiles.get('/cache/files/1/output.xlsx')!.length);
  });

  it('saves on status 6 (force save) with the token in the Authorization header', async () => {
    const id = await newXlsx('强制保存.xlsx', '甲');
    const { config } = await editor(id);
    dsFiles.set('/cache/force.xlsx', await xlsxWith('乙'));
    const r = await callback(
      config.editorConfig.callbackUrl,
      { key: config.document.key, status: 6, url: `${ds.url}/cache/force.xlsx` },
      { via: 'header' },
    );
    expect(r).toEqual({ status: 200, body: { error: 0 } });
    expect(await cellA1(await download(s, me.token, id))).toBe('乙');
  });

  it('refuses forged callbacks: another secret, no token, alg none, another document’s key', async () => {
    const id = await newXlsx('防伪.xlsx', '真');
    const { config } = await editor(id);
    dsFiles.set('/cache/forged.xlsx', await xlsxWith('假'));
    const claims = { key: config.document.key, status: 2, url: `${ds.url}/cache/forged.xlsx` };
    const before = ds.hits.length;
    const refused = { status: 403, body: { error: 1 } };
    expect(
      await callback(config.editorConfig.callbackUrl, claims, { secret: 'forged-secret-0123456789' }),
    ).toEqual(refused);
    expect(
      await callback(config.editorConfig.callbackUrl, claims, {
        secret: 'forged-secret-0123456789',
        via: 'header',
      }),
    ).toEqual(refused);
    expect(await callback(config.editorConfig.callbackUrl, claims, { via: 'none' })).toEqual(refused);
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(
      JSON.stringify(claims),
    ).toString('base64url')}.`;
    const r = await fetch(local(config.editorConfig.callbackUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...claims, token: none }),
    });
    expect(r.status).toBe(403);
    // A genuine Document Server callback for another document's key, or with our URL token tampered.
    expect(await callback(config.editorConfig.callbackUrl, { ...claims, key: 'another-key' })).toEqual(
      refused,
    );
    const cbUrl = new URL(config.editorConfig.callbackUrl);
    cbUrl.searchParams.set('t', `${cbUrl.searchParams.get('t')!}x`);
    expect(await callback(cbUrl.href, claims)).toEqual(refused);
    expect(ds.hits.length).toBe(before);
    expect(await cellA1(await download(s, me.token, id))).toBe('真');
  });

  it('downloads saves only from the Document Server’s origin', async () => {
    const id = await newXlsx('来源.xlsx', '原样');
    const { config } = await editor(id);
    dsFiles.set('/cache/evil.xlsx', await xlsxWith('外来'));
    const before = elsewhere.hits.length;
    for (const url of [`${elsewhere.url}/cache/evil.xlsx`, 'file:///etc/passwd', 'not a url']) {
      const r = await callback(config.editorConfig.callbackUrl, { key: config.document.key, status: 2, url });
      expect(r, url).toEqual({ status: 200, body: { error: 1 } });
    }
    expect(elsewhere.hits.length).toBe(before);
    expect(await cellA1(await download(s, me.token, id))).toBe('原样');
  });

  it('acknowledges status 1 and 4 with {"error":0} and changes nothing', async () => {
    const id = await newXlsx('状态.xlsx', '不变');
    const { config } = await editor(id);
    dsFiles.set('/cache/status.xlsx', await xlsxWith('变了'));
    const before = ds.hits.length;
    for (const status of [1, 4]) {
      const r = await callback(config.editorConfig.callbackUrl, {
        key: config.document.key,
        status,
        url: `${ds.url}/cache/status.xlsx`,
      });
      expect(r).toEqual({ status: 200, body: { error: 0 } });
    }
    expect(ds.hits.length).toBe(before);
    expect(await cellA1(await download(s, me.token, id))).toBe('不变');
  });

  it('charges the save to the quota and refuses one that does not fit', async () => {
    const tight = await driveUser(s, 'staff02');
    const id = await newXlsx('配额.xlsx', '小', tight);
    const { config } = await editor(id, { u: tight });
    const used = (await tight.get('/filetransfer/getstorage')).body.data.storageSize;
    await admin.post('/admin/setstorage', { userId: tight.userId, totalStorageSize: used + 10 });
    // Random text does not compress: the save is kilobytes bigger than the 10 bytes left.
    dsFiles.set('/cache/big.xlsx', await xlsxWith(randomBytes(4000).toString('base64')));
    const r = await callback(config.editorConfig.callbackUrl, {
      key: config.document.key,
      status: 2,
      url: `${ds.url}/cache/big.xlsx`,
    });
    expect(r).toEqual({ status: 200, body: { error: 1 } });
    expect(await cellA1(await download(s, tight.token, id))).toBe('小');
  });
});

describe('configuration', () => {
  it('needs the JWT secret with a Document Server, and a well-formed address', () => {
    const base = { DATA_DIR: '/tmp/gwy-config-test' };
    expect(() => loadConfig({ ...base, ONLYOFFICE_URL: 'https://docs.example/' })).toThrow(
      /ONLYOFFICE_JWT_SECRET/,
    );
    expect(() =>
      loadConfig({ ...base, ONLYOFFICE_URL: 'https://docs.example/', ONLYOFFICE_JWT_SECRET: 'short' }),
    ).toThrow(/至少需要 16 个字符/);
    expect(() =>
      loadConfig({ ...base, ONLYOFFICE_URL: 'ftp://docs', ONLYOFFICE_JWT_SECRET: SECRET }),
    ).toThrow(/http:\/\/ 或 https:\/\//);
    const c = loadConfig({
      ...base,
      ONLYOFFICE_URL: 'https://docs.example/ds/',
      ONLYOFFICE_JWT_SECRET: SECRET,
    });
    expect(c.onlyoffice).toEqual({
      url: 'https://docs.example/ds',
      origin: 'https://docs.example',
      jwtSecret: SECRET,
      apiJs: 'https://docs.example/ds/web-apps/apps/api/documents/api.js',
    });
    expect(loadConfig({ ...base, HOST: '0.0.0.0', PORT: '9000' }).publicUrl).toBe('http://127.0.0.1:9000');
    expect(loadConfig({ ...base, PUBLIC_URL: 'https://oa.museum.example/' }).publicUrl).toBe(
      'https://oa.museum.example',
    );
    expect(loadConfig(base).onlyoffice).toBeUndefined();
  });
});

describe('HS256 tokens', () => {
  const key = 'unit-secret-0123456789';
  it('verifies its own tokens and refuses other algorithms, expiry and tampering', () => {
    const t = signJwt({ a: 1 }, key, 60);
    expect(verifyJwt(t, key)).toMatchObject({ a: 1 });
    const [, p, sig] = t.split('.');
    const hs512 = Buffer.from('{"alg":"HS512","typ":"JWT"}').toString('base64url');
    expect(verifyJwt(`${hs512}.${p}.${sig}`, key)).toBeNull();
    expect(verifyJwt(signJwt({ a: 1, exp: 1 }, key), key)).toBeNull();
    expect(verifyJwt(signJwt({ a: 1, nbf: Math.floor(Date.now() / 1000) + 3600 }, key), key)).toBeNull();
    expect(verifyJwt(signJwt({ a: 1 }, key), key, { requireExp: true })).toBeNull();
    expect(verifyJwt(`${t}x`, key)).toBeNull();
    expect(verifyJwt(t.split('.').slice(0, 2).join('.'), key)).toBeNull();
    // A token a minute stale passes with the leeway granted to another machine's clock, not without.
    const stale = signJwt({ a: 1, exp: Math.floor(Date.now() / 1000) - 60 }, key);
    expect(verifyJwt(stale, key)).toBeNull();
    expect(verifyJwt(stale, key, { leewaySeconds: 120 })).toMatchObject({ a: 1 });
  });
});
