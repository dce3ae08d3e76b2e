import yauzl from 'yauzl';
import { areaOf, type FixedAreaKind } from '../../src/server/modules/drive/area';
import type { DriveService } from '../../src/server/modules/drive/drive.service';
import { driveServiceOf, type TestServer } from './harness';
import { userIdOf } from './util';

/** Helpers shared by the drive API tests (not a test file itself). */

export const W = '/wangpan';
export const NOT_FOUND = { success: false, code: 404, message: '文件不存在或已被删除', data: null };

/** The `failed` envelope under /wangpan. */
export function failed(code: number, message: string) {
  return { success: false, code, message, data: null };
}
export const ok = (data: unknown = {}) => ({ success: true, code: 0, message: '成功', data });

function qs(query: Record<string, unknown> = {}) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** A signed-in person's view of the drive: raw calls plus the few compound steps tests repeat. */
export interface DriveUser {
  token: string;
  userId: number;
  get: (path: string, query?: Record<string, unknown>) => ReturnType<TestServer['call']>;
  post: (path: string, body: unknown, headers?: Record<string, string>) => ReturnType<TestServer['call']>;
  /** Every entry of a folder (one big page), as `name.ext` strings (folders end with '/'). */
  names: (filePath?: string, area?: Record<string, unknown>) => Promise<string[]>;
  /** The rows of a folder. */
  rows: (filePath?: string, area?: Record<string, unknown>) => Promise<any[]>;
  /** Creates a folder and answers its id. */
  mkdir: (filePath: string, name: string, area?: Record<string, unknown>) => Promise<number>;
  /** Stores a file through the service (as an upload will) and answers its id. */
  put: (
    filePath: string,
    fullName: string,
    content: string | Buffer,
    kind?: FixedAreaKind,
  ) => Promise<number>;
  /** The id of the entry named `fullName` in a folder. */
  idOf: (filePath: string, fullName: string, area?: Record<string, unknown>) => Promise<number>;
}

export const fullName = (r: { fileName: string; extendName: string; isDir: number }) =>
  r.isDir ? `${r.fileName}/` : r.extendName ? `${r.fileName}.${r.extendName}` : r.fileName;

export async function driveUser(
  s: TestServer,
  account: string,
  service: DriveService = driveServiceOf(s),
): Promise<DriveUser> {
  const token = await s.login(account);
  const userId = await userIdOf(s, account);
  const get: DriveUser['get'] = (path, query) => s.call('GET', `${W}${path}${qs(query)}`, { token });
  const post: DriveUser['post'] = (path, body, headers) =>
    s.call('POST', `${W}${path}`, { token, body, headers });
  const rows = async (filePath = '/', area: Record<string, unknown> = {}) => {
    const res = await get('/file/getfilelist', { filePath, pageCount: 1000, ...area });
    if (!res.body?.success) throw new Error(`list ${filePath}: ${JSON.stringify(res.body)}`);
    return res.body.data.list as any[];
  };
  return {
    token,
    userId,
    get,
    post,
    rows,
    names: async (filePath = '/', area = {}) => (await rows(filePath, area)).map(fullName),
    mkdir: async (filePath, name, area = {}) => {
      const res = await post('/file/createfile', { filePath, fileName: name, isDir: 1, ...area });
      if (!res.body?.success) throw new Error(`mkdir ${filePath}${name}: ${JSON.stringify(res.body)}`);
      return res.body.data.userFileId as number;
    },
    put: async (filePath, name, content, kind = 'personal') => {
      const r = await service.addFile({
        area: areaOf(userId, kind),
        filePath,
        fullName: name,
        content: Buffer.isBuffer(content) ? content : Buffer.from(content),
      });
      return r.userFileId;
    },
    idOf: async (filePath, name, area = {}) => {
      const row = (await rows(filePath, area)).find(
        (r) => fullName(r) === name || fullName(r) === `${name}/`,
      );
      if (!row) throw new Error(`no ${name} in ${filePath}`);
      return row.userFileId as number;
    },
  };
}

export interface ZipItem {
  name: string;
  utf8: boolean;
  data: Buffer;
}
/** The entries of a zip (names decoded, folders with empty data), in order. */
export function readZip(buf: Buffer): Promise<ZipItem[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true, decodeStrings: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out: ZipItem[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        const utf8 = (e.generalPurposeBitFlag & 0x800) !== 0;
        if (e.fileName.endsWith('/')) {
          out.push({ name: e.fileName, utf8, data: Buffer.alloc(0) });
          return zip.readEntry();
        }
        zip.openReadStream(e, (err2, stream) => {
          if (err2 || !stream) return reject(err2);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.push({ name: e.fileName, utf8, data: Buffer.concat(chunks) });
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
