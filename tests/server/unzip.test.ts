import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createExtractorFromData } from 'node-unrar-js';
import { startServer, type TestServer } from './harness';
import { driveUser, type DriveUser } from './drive-util';
import { gbk, rawZip, sevenZipOf, tarOf, tgzOf, unicodePathExtra, unzip } from './unzip-util';

/** Unzip (issue 6): every format, the three modes, the malicious archives, jobs. */

const FIX = path.resolve('tests/fixtures/archives');
const UNSAFE = /压缩包中有不安全的路径/;
const CORRUPT = '压缩包已损坏或不完整，无法解压';
const ENCRYPTED = '压缩包已加密，暂不支持解压加密的压缩包';

let s: TestServer;
let u: DriveUser;
let other: DriveUser;

beforeAll(async () => {
  s = await startServer({ UNZIP_MAX_ENTRIES: '50' });
  u = await driveUser(s, 'staff01');
  other = await driveUser(s, 'staff02');
});
afterAll(async () => s.close());

const simpleZip = () =>
  rawZip([
    { name: 'docs/', flags: 0x800 },
    { name: 'docs/说明.txt', data: Buffer.from('你好'), flags: 0x800, deflate: true },
    { name: 'top.txt', data: Buffer.from('top'), flags: 0x800 },
  ]);

/** What a folder holds, recursively, as sorted paths (folders end with '/'). */
async function tree(who: DriveUser, folder: string): Promise<string[]> {
  const out: string[] = [];
  for (const r of await who.rows(folder)) {
    const name = r.isDir ? `${r.fileName}/` : r.extendName ? `${r.fileName}.${r.extendName}` : r.fileName;
    out.push(folder + name);
    if (r.isDir) out.push(...(await tree(who, `${folder}${r.fileName}/`)));
  }
  return out.sort();
}

/** Nothing of a failed job may stay: no rows, no temporary files, no bytes nobody references. */
async function expectNothingLeft(folder: string, before: string[], blobsBefore: number) {
  expect(await tree(u, folder)).toEqual(before);
  const blobs = await s.db
    .selectFrom('blob')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  expect(Number(blobs?.n)).toBe(blobsBefore);
  // The job is marked failed before its temporary folder is removed (the `finally` after it):
  // under load a poll can see the one before the other.
  await vi.waitFor(() => expect(fs.readdirSync(s.config.unzip.tmpDir)).toEqual([]), { timeout: 5000 });
}

async function blobCount() {
  const r = await s.db
    .selectFrom('blob')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(r?.n);
}

/** Puts `bytes` as `name` into a fresh folder and unzips it (mode 0 unless told). */
async function unzipIn(folder: string, name: string, bytes: Buffer, body: Record<string, unknown> = {}) {
  await u.mkdir('/', folder);
  const id = await u.put(`/${folder}/`, name, bytes);
  return unzip(u, { userFileId: id, unzipMode: 0, ...body });
}

describe('modes', () => {
  it('mode 0 extracts beside the archive; a second run merges folders and renames files', async () => {
    const job = await unzipIn('m0', 'a.zip', simpleZip());
    expect(job).toMatchObject({ status: 'done', message: '解压成功', targetPath: '/m0/' });
    expect(job.names.sort()).toEqual(['docs', 'top.txt']);
    expect(await tree(u, '/m0/')).toEqual(['/m0/a.zip', '/m0/docs/', '/m0/docs/说明.txt', '/m0/top.txt']);
    const again = await unzip(u, { userFileId: await u.idOf('/m0/', 'a.zip'), unzipMode: 0 });
    expect(again.status).toBe('done');
    expect(await tree(u, '/m0/')).toEqual([
      '/m0/a.zip',
      '/m0/docs/',
      '/m0/docs/说明(1).txt',
      '/m0/docs/说明.txt',
      '/m0/top(1).txt',
      '/m0/top.txt',
    ]);
    const res = await u.get('/filetransfer/downloadfile', {
      userFileId: await u.idOf('/m0/docs/', '说明.txt'),
    });
    expect(res.body).toBe('你好');
  });

  it('mode 1 extracts into a folder named after the archive, merging into one of that name', async () => {
    const job = await unzipIn('m1', 'pack.tar.gz', tgzOf({ 'a.txt': 'A', 'sub/b.txt': 'B' }), {
      unzipMode: 1,
    });
    expect(job).toMatchObject({ status: 'done', targetPath: '/m1/pack/' });
    const again = await unzip(u, { userFileId: await u.idOf('/m1/', 'pack.tar.gz'), unzipMode: 1 });
    expect(again).toMatchObject({ status: 'done', targetPath: '/m1/pack/' });
    expect(await tree(u, '/m1/')).toEqual([
      '/m1/pack.tar.gz',
      '/m1/pack/',
      '/m1/pack/a(1).txt',
      '/m1/pack/a.txt',
      '/m1/pack/sub/',
      '/m1/pack/sub/b(1).txt',
      '/m1/pack/sub/b.txt',
    ]);
  });

  it('mode 2 extracts into the chosen folder, "/" by default; a missing target is refused', async () => {
    await u.mkdir('/', 'm2target');
    const job = await unzipIn('m2', 'x.zip', rawZip([{ name: 'm2file.txt', data: Buffer.from('x') }]), {
      unzipMode: 2,
      filePath: '/m2target/',
    });
    expect(job).toMatchObject({ status: 'done', targetPath: '/m2target/' });
    expect(await u.names('/m2target/')).toEqual(['m2file.txt']);
    const id = await u.idOf('/m2/', 'x.zip');
    const root = await unzip(u, { userFileId: id, unzipMode: 2 });
    expect(root).toMatchObject({ status: 'done', targetPath: '/' });
    expect(await u.names('/')).toContain('m2file.txt');
    // Refused at once (the tree dialog keeps the message), no job recorded.
    const jobsBefore = (await u.get('/file/unzipjobs')).body.data.list.length;
    const missing = await unzip(u, { userFileId: id, unzipMode: 2, filePath: '/nowhere/' });
    expect(missing).toMatchObject({ success: false, code: 404, message: '目标文件夹不存在或已被删除' });
    expect((await u.get('/file/unzipjobs')).body.data.list.length).toBe(jobsBefore);
  });
});

describe('formats', () => {
  const cases: [string, () => Buffer | Promise<Buffer>][] = [
    [
      'f.tar',
      () =>
        tarOf([
          { name: 'd/', type: 'directory' },
          { name: 'd/in.txt', data: 'in' },
        ]),
    ],
    ['f.tgz', () => tgzOf({ 'd/in.txt': 'in' })],
    ['f.7z', () => sevenZipOf({ 'd/in.txt': 'in' })],
    ['f4.rar', () => fs.readFileSync(path.join(FIX, 'rar4.rar'))],
  ];
  for (const [name, make] of cases) {
    it(`extracts ${name}`, async () => {
      const folder = `fmt-${name.replace('.', '-')}`;
      const job = await unzipIn(folder, name, await make());
      expect(job.status).toBe('done');
      expect(await tree(u, `/${folder}/d/`).catch(() => [])).toEqual(
        name === 'f4.rar' ? [] : [`/${folder}/d/in.txt`],
      );
      if (name === 'f4.rar') {
        expect(await tree(u, `/${folder}/`)).toEqual([
          `/${folder}/docs/`,
          `/${folder}/docs/readme.txt`,
          `/${folder}/f4.rar`,
          `/${folder}/top.txt`,
        ]);
      }
    });
  }

  it('extracts rar 5 with UTF-8 names (fixture checked against node-unrar-js)', async () => {
    const data = fs.readFileSync(path.join(FIX, 'rar5.rar'));
    const ref = (await createExtractorFromData({ data: new Uint8Array(data).buffer })).getFileList();
    expect([...ref.fileHeaders].map((h) => h.name)).toContain('中文/说明.txt');
    const job = await unzipIn('fmt-rar5', 'f5.rar', data);
    expect(job.status).toBe('done');
    expect(await tree(u, '/fmt-rar5/中文/')).toEqual(['/fmt-rar5/中文/说明.txt']);
    const id = await u.idOf('/fmt-rar5/中文/', '说明.txt');
    expect((await u.get('/filetransfer/downloadfile', { userFileId: id })).body).toBe('你好，RAR5\n');
  });

  it('a single .gz becomes one file named like the archive without .gz', async () => {
    const job = await unzipIn('fmt-gz', 'report.csv.gz', zlib.gzipSync('a,b\n1,2\n'));
    expect(job.status).toBe('done');
    expect(await u.names('/fmt-gz/')).toEqual(['report.csv', 'report.csv.gz']);
  });

  it('zip names: GBK from Chinese Windows, the UTF-8 flag, and the Info-ZIP Unicode Path field', async () => {
    const raw = gbk('旧名.txt');
    const job = await unzipIn(
      'fmt-names',
      'n.zip',
      rawZip([
        { name: gbk('资料/报告.txt'), data: Buffer.from('gbk') },
        { name: '新/文件.txt', data: Buffer.from('utf8'), flags: 0x800 },
        { name: raw, data: Buffer.from('u'), extra: unicodePathExtra(raw, '统一码.txt') },
      ]),
    );
    expect(job.status).toBe('done');
    expect(await tree(u, '/fmt-names/')).toEqual([
      '/fmt-names/n.zip',
      '/fmt-names/新/',
      '/fmt-names/新/文件.txt',
      '/fmt-names/统一码.txt',
      '/fmt-names/资料/',
      '/fmt-names/资料/报告.txt',
    ]);
  });

  it('names against the drive rules are replaced with _ and the message says so', async () => {
    const job = await unzipIn('fmt-bad', 'b.zip', rawZip([{ name: 'q<1>|2?.txt', data: Buffer.from('x') }]));
    expect(job).toMatchObject({
      status: 'done',
      message: '解压成功（1 个名称不符合网盘规则，已改为 q_1__2_.txt）',
    });
    expect(await u.names('/fmt-bad/')).toEqual(['b.zip', 'q_1__2_.txt']);
  });
});

describe('malicious and broken archives: refused, nothing left', () => {
  const refusals: [string, string, () => Buffer | Promise<Buffer>, string | RegExp][] = [
    [
      'zip slip',
      'slip.zip',
      () => rawZip([{ name: 'ok.txt' }, { name: '../evil.txt', data: Buffer.from('x') }]),
      UNSAFE,
    ],
    ['absolute path', 'abs.zip', () => rawZip([{ name: '/etc/evil', data: Buffer.from('x') }]), UNSAFE],
    ['drive letter', 'drive.zip', () => rawZip([{ name: 'C:/evil.txt', data: Buffer.from('x') }]), UNSAFE],
    ['backslash', 'bs.zip', () => rawZip([{ name: '..\\evil.txt', data: Buffer.from('x') }]), UNSAFE],
    [
      'tar slip',
      'slip.tar',
      () =>
        tarOf([
          { name: 'a.txt', data: 'a' },
          { name: '../../evil', data: 'x' },
        ]),
      UNSAFE,
    ],
    [
      'bomb (ratio)',
      'bomb.zip',
      () => rawZip([{ name: 'zeros.bin', data: Buffer.alloc(24 * 1024 * 1024), deflate: true }]),
      '压缩包的压缩比异常（超过 200:1），可能是压缩炸弹，已拒绝解压',
    ],
    [
      'too many entries',
      'many.zip',
      () => rawZip(Array.from({ length: 51 }, (_, i) => ({ name: `f${i}.txt`, data: Buffer.from('x') }))),
      '压缩包中的文件过多（超过 50 个），无法解压',
    ],
    [
      'encrypted zip',
      'enc.zip',
      () => rawZip([{ name: 'secret.txt', data: Buffer.from('xx'), flags: 1 }]),
      ENCRYPTED,
    ],
    ['encrypted 7z', 'enc.7z', () => sevenZipOf({ 's.txt': 'secret' }, ['-pSecret1']), ENCRYPTED],
    [
      '7z with encrypted names',
      'hdr.7z',
      () => sevenZipOf({ 's.txt': 'secret' }, ['-pSecret1', '-mhe=on']),
      ENCRYPTED,
    ],
    ['truncated zip', 'cut.zip', () => simpleZip().subarray(0, 60), CORRUPT],
    ['truncated tgz', 'cut.tgz', () => tgzOf({ 'a.txt': 'a'.repeat(50_000) }).subarray(0, 100), CORRUPT],
    ['corrupt 7z', 'bad.7z', async () => (await sevenZipOf({ 'a.txt': 'hello' })).subarray(0, 40), CORRUPT],
    ['not an archive at all', 'fake.rar', () => Buffer.from('just text'), /无法识别的压缩包格式/],
  ];
  for (const [what, name, make, message] of refusals) {
    it(what, async () => {
      const folder = `bad-${name.replace('.', '-')}`;
      await u.mkdir('/', folder);
      await u.put(`/${folder}/`, name, await make());
      const before = await tree(u, `/${folder}/`);
      const blobs = await blobCount();
      const job = await unzip(u, { userFileId: await u.idOf(`/${folder}/`, name), unzipMode: 0 });
      expect(job.status).toBe('failed');
      expect(job.message).toMatch(message);
      await expectNothingLeft(`/${folder}/`, before, blobs);
    });
  }

  it('symbolic and hard links are skipped, never followed, and the message says so', async () => {
    const zipJob = await unzipIn(
      'links-zip',
      'l.zip',
      rawZip([
        { name: 'link', data: Buffer.from('/etc/passwd'), mode: 0o120777 },
        { name: 'real.txt', data: Buffer.from('r') },
      ]),
    );
    expect(zipJob).toMatchObject({ status: 'done', message: '解压成功（已跳过 1 个链接）' });
    expect(await u.names('/links-zip/')).toEqual(['l.zip', 'real.txt']);
    const tarJob = await unzipIn(
      'links-tar',
      'l.tar',
      await tarOf([
        { name: 'real.txt', data: 'r' },
        { name: 'sym', type: 'symlink', linkname: '/etc/passwd' },
        { name: 'hard', type: 'link', linkname: 'real.txt' },
      ]),
    );
    expect(tarJob).toMatchObject({ status: 'done', message: '解压成功（已跳过 2 个链接）' });
    expect(await u.names('/links-tar/')).toEqual(['l.tar', 'real.txt']);
  });

  it('the quota is checked with the real uncompressed size before anything is written', async () => {
    await u.mkdir('/', 'quota');
    const id = await u.put(
      '/quota/',
      'q.zip',
      rawZip([{ name: 'big.bin', data: Buffer.alloc(3 * 1024 * 1024, 7), deflate: true }]),
    );
    const used = (await u.get('/filetransfer/getstorage')).body.data.storageSize as number;
    await s.db
      .insertInto('storage_quota')
      .values({ user_id: u.userId, total_bytes: used + 1024 * 1024 })
      .execute();
    try {
      const blobs = await blobCount();
      const job = await unzip(u, { userFileId: id, unzipMode: 0 });
      expect(job).toMatchObject({ status: 'failed' });
      expect(job.message).toMatch(/^存储空间不足：还剩 .*，解压需要 3\.0 MB$/);
      await expectNothingLeft('/quota/', ['/quota/q.zip'], blobs);
    } finally {
      await s.db.deleteFrom('storage_quota').where('user_id', '=', u.userId).execute();
    }
  });
});

describe('the total size limit', () => {
  it('refuses an archive that unpacks past UNZIP_MAX_MB', async () => {
    const small = await startServer({ UNZIP_MAX_MB: '1' });
    try {
      const v = await driveUser(small, 'staff03');
      const id = await v.put(
        '/',
        't.tar',
        await tarOf([{ name: 'a.bin', data: 'x'.repeat(1024 * 1024 + 1) }]),
      );
      const job = await unzip(v, { userFileId: id, unzipMode: 0 });
      expect(job).toMatchObject({ status: 'failed', message: '解压后的总大小超过上限 1.0 MB，无法解压' });
      expect(await v.names('/')).toEqual(['t.tar']);
    } finally {
      await small.close();
    }
  });
});

describe('jobs and rights', () => {
  it('refuses other people’s files and jobs, folders and non-archives', async () => {
    const id = await u.put('/', 'mine.zip', simpleZip());
    expect((await other.post('/file/unzipfile', { userFileId: id, unzipMode: 0 })).body).toMatchObject({
      success: false,
      message: '文件不存在或已被删除',
    });
    const job = await unzip(u, { userFileId: id, unzipMode: 2, filePath: '/' });
    expect((await other.get('/file/unzipjob', { jobId: job.jobId })).body).toMatchObject({
      success: false,
      message: '解压任务不存在或已过期',
    });
    expect((await other.get('/file/unzipjobs')).body.data.list.map((j: any) => j.jobId)).not.toContain(
      job.jobId,
    );
    const txt = await u.put('/', 'note.txt', 'x');
    expect((await u.post('/file/unzipfile', { userFileId: txt, unzipMode: 0 })).body).toMatchObject({
      success: false,
      message: '只能解压 zip、rar、7z、tar、gz 格式的压缩包',
    });
    expect((await u.post('/file/unzipfile', { userFileId: id, unzipMode: 3 })).body).toMatchObject({
      success: false,
      message: '解压方式不正确',
    });
  });

  it('lists my recent jobs, and a restart fails the running ones', async () => {
    const list = (await u.get('/file/unzipjobs')).body.data.list;
    expect(list.length).toBeGreaterThan(5);
    expect(list[0]).toMatchObject({ status: expect.stringMatching(/done|failed/) });
    const srv = await startServer();
    const dataDir = srv.dataDir;
    const v = await driveUser(srv, 'staff04');
    await srv.db
      .insertInto('unzip_job')
      .values({
        id: '00000000-0000-4000-8000-000000000001',
        user_id: v.userId,
        space: `u:${v.userId}`,
        user_file_id: 1,
        archive_name: 'cut.zip',
        target_path: '/',
        unzip_mode: 0,
        status: 'running',
        message: '',
        entries_done: 0,
        entries_total: 0,
        bytes_done: 0,
        bytes_total: 0,
        names: '[]',
        created_at: Date.now(),
      })
      .execute();
    await srv.stop();
    const again = await startServer({}, { dataDir });
    try {
      const w = await driveUser(again, 'staff04');
      const res = await w.get('/file/unzipjob', { jobId: '00000000-0000-4000-8000-000000000001' });
      expect(res.body.data).toMatchObject({
        status: 'failed',
        message: '服务器在解压过程中重启，解压已中断，没有写入任何文件，请重新解压',
      });
    } finally {
      await again.close();
    }
  });
});
