import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FileStat, type WebDAVClient, createClient } from 'webdav';
import { startServer, driveServiceOf, type TestServer } from './harness';
import { driveUser, type DriveUser } from './drive-util';
import { PERSONAL, RES, appPasswordFor } from './dav-util';
import { M, clearLoginAttempts } from './util';

/**
 * Issue 26 with a real WebDAV client library (the `webdav` npm package, as desktop sync tools and
 * scripts use): what a person does from a mounted drive, and what they must be refused.
 */

let s: TestServer;
let me: DriveUser;
let password: string;
let client: WebDAVClient;

const clientOf = (account: string, pass: string, root = PERSONAL) =>
  createClient(`${s.url}${root}`, { username: account, password: pass });

/** The status a client call was refused with (the library throws an error carrying it). */
async function refusal(p: Promise<unknown>): Promise<number | undefined> {
  try {
    await p;
  } catch (err) {
    return (err as { status?: number }).status;
  }
  throw new Error('the call was not refused');
}

const names = (list: FileStat[]) =>
  list.map((f) => `${f.basename}${f.type === 'directory' ? '/' : ''}`).sort();

beforeAll(async () => {
  s = await startServer();
  me = await driveUser(s, 'staff02');
  password = await appPasswordFor(s, 'staff02', '客户端测试');
  client = clientOf('staff02', password);
});
afterAll(async () => s?.close());

describe('a WebDAV client library against /dav/', () => {
  it('uploads into a new folder under Chinese names, lists and reads back what the web app shows', async () => {
    await client.createDirectory('/2026 年度展览');
    const text = '展品清单：青铜鼎、玉璧、瓷瓶\n';
    expect(await client.putFileContents('/2026 年度展览/展品清单.txt', text)).toBe(true);
    await client.putFileContents('/2026 年度展览/封面.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const list = (await client.getDirectoryContents('/2026 年度展览')) as FileStat[];
    expect(names(list)).toEqual(['封面.png', '展品清单.txt']);
    const txt = list.find((f) => f.basename === '展品清单.txt')!;
    expect(txt.size).toBe(Buffer.byteLength(text));
    expect(txt.mime).toBe('text/plain');
    expect(await client.getFileContents('/2026 年度展览/展品清单.txt', { format: 'text' })).toBe(text);
    expect((await me.names('/2026 年度展览/')).sort()).toEqual(['封面.png', '展品清单.txt']);
  });

  it('renames and moves, and the web app sees the new names', async () => {
    await client.moveFile('/2026 年度展览/展品清单.txt', '/2026 年度展览/展品清单（定稿）.txt');
    await client.createDirectory('/归档');
    await client.moveFile('/2026 年度展览/封面.png', '/归档/封面.png');
    await client.copyFile('/2026 年度展览/展品清单（定稿）.txt', '/归档/清单副本.txt');
    expect(await me.names('/2026 年度展览/')).toEqual(['展品清单（定稿）.txt']);
    expect((await me.names('/归档/')).sort()).toEqual(['封面.png', '清单副本.txt']);
    expect(await client.exists('/2026 年度展览/展品清单.txt')).toBe(false);
  });

  it('deletes into the recycle bin, and a file restored in the web app is there again', async () => {
    await client.deleteFile('/归档/清单副本.txt');
    expect(await client.exists('/归档/清单副本.txt')).toBe(false);
    const bin = await me.get('/recoveryfile/list');
    const row = bin.body.data.list.find((r: { fileName: string }) => r.fileName === '清单副本');
    expect(row).toBeTruthy();
    const restored = await me.post('/recoveryfile/restorefile', {
      deleteBatchNum: row.deleteBatchNum,
      filePath: '/归档/',
    });
    expect(restored.body.success).toBe(true);
    expect(await client.getFileContents('/归档/清单副本.txt', { format: 'text' })).toContain('青铜鼎');
  });

  it('reports the quota and refuses an upload it cannot take, storing nothing', async () => {
    const quota = (await client.getQuota()) as { used: number; available: number };
    expect(quota.used).toBeGreaterThan(0);
    expect(quota.used + quota.available).toBe(s.config.defaultQuotaBytes);
    await driveServiceOf(s).setQuota(me.userId, quota.used + 1000);
    expect(await refusal(client.putFileContents('/太大.bin', Buffer.alloc(5000, 1)))).toBe(507);
    expect(await client.exists('/太大.bin')).toBe(false);
    await driveServiceOf(s).setQuota(me.userId, s.config.defaultQuotaBytes);
  });

  it('refuses a name the drive refuses, and creates nothing', async () => {
    expect(await refusal(client.putFileContents('/CON.txt', 'x'))).toBe(400);
    expect(await refusal(client.createDirectory('/a*b'))).toBe(400);
    expect(await me.names('/')).not.toContain('CON.txt');
  });

  it('never reaches another person’s files', async () => {
    const other = clientOf('staff03', await appPasswordFor(s, 'staff03'));
    expect(await other.exists('/归档/封面.png')).toBe(false);
    expect(await refusal(other.getFileContents('/归档/清单副本.txt'))).toBe(404);
    expect(names((await other.getDirectoryContents('/')) as FileStat[])).not.toContain('归档/');
    expect(await refusal(other.moveFile('/归档/封面.png', '/偷来的.png'))).toBe(404);
  });

  it('reads a library it may not change, and is refused a change', async () => {
    const keeper = clientOf('staff04', await appPasswordFor(s, 'staff04'), RES);
    await keeper.putFileContents('/开放时间.txt', '周二至周日 9:00–17:00');
    const lib = clientOf('staff02', password, RES);
    expect(names((await lib.getDirectoryContents('/')) as FileStat[])).toContain('开放时间.txt');
    expect(await lib.getFileContents('/开放时间.txt', { format: 'text' })).toBe('周二至周日 9:00–17:00');
    expect(await refusal(lib.putFileContents('/开放时间.txt', '改了'))).toBe(403);
    expect(await refusal(lib.deleteFile('/开放时间.txt'))).toBe(403);
    expect(await lib.getFileContents('/开放时间.txt', { format: 'text' })).toBe('周二至周日 9:00–17:00');
  });

  it('is shut out as soon as its app password is revoked', async () => {
    const token = await s.login('staff02');
    const list = await s.call('GET', `${M}/personal/appPassword/list`, { token });
    const id = list.body.result.list.find((r: { name: string }) => r.name === '客户端测试').id;
    await s.call('POST', `${M}/personal/appPassword/delete`, { token, body: { id } });
    await clearLoginAttempts(s);
    expect(await refusal(client.getDirectoryContents('/'))).toBe(401);
    expect(await refusal(client.putFileContents('/还能传吗.txt', 'x'))).toBe(401);
    expect(await me.names('/')).not.toContain('还能传吗.txt');
  });
});
