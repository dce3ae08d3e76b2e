import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { W, driveUser, type DriveUser } from './drive-util';
import { startServer, type TestServer } from './harness';
import { M, PNG_1X1, userIdOf } from './util';

/**
 * Issue 16 §4 (the three examples of unclear refusals) and §5 (flags and lists as real clients
 * send them: `isMin=true`, `allDay: "1"`, a `receiver` of one number).
 */

let s: TestServer;
let admin: DriveUser;
let pngId: number;

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '100000' });
  admin = await driveUser(s, 'admin');
  pngId = await admin.put('/', 'dot.png', PNG_1X1);
});
afterAll(async () => s?.close());

const bad = (message: string, key: 'data' | 'result' = 'data') => ({
  success: false,
  code: 400,
  message,
  [key]: null,
});

describe('§4 refusals in Chinese, naming the field', () => {
  it('answers the length message for a name of any length past 255, not only up to 265', async () => {
    const id = await admin.put('/', 'long.txt', 'x');
    for (const n of [256, 265, 266, 300, 5000]) {
      const res = await admin.post('/file/renamefile', { userFileId: id, fileName: 'a'.repeat(n) });
      expect(res.body, `rename to ${n} characters`).toEqual(bad('文件名称不能超过 255 个字符'));
      const dir = await admin.post('/file/createfile', { filePath: '/', fileName: 'd'.repeat(n), isDir: 1 });
      expect(dir.body, `folder of ${n} characters`).toEqual(bad('文件夹名称不能超过 255 个字符'));
    }
    // The upload's test request says the same words, also past its own cap.
    for (const n of [256, 300, 301, 1000]) {
      const q = new URLSearchParams({
        chunkNumber: '1',
        chunkSize: '65536',
        currentChunkSize: '1',
        totalSize: '1',
        identifier: createHash('md5').update('x').digest('hex'),
        filename: 'u'.repeat(n),
        totalChunks: '1',
      });
      const res = await admin.get(`/filetransfer/uploadfile?${q}`);
      expect(res.body.message, `upload name of ${n}`).toBe('文件名称不能超过 255 个字符');
    }
  });

  it('answers chunkNumber=abc in Chinese, naming the field', async () => {
    const q = new URLSearchParams({
      chunkNumber: 'abc',
      chunkSize: '65536',
      currentChunkSize: '1',
      totalSize: '1',
      identifier: createHash('md5').update('x').digest('hex'),
      filename: 'a.txt',
      totalChunks: '1',
    });
    const get = await admin.get(`/filetransfer/uploadfile?${q}`);
    expect(get.body.success).toBe(false);
    expect(get.body.message).toBe('分片序号必须是数字');
    const post = await fetch(`${s.url}${W}/filetransfer/uploadfile?${q}`, {
      method: 'POST',
      headers: { token: admin.token, 'content-type': 'application/octet-stream' },
      body: 'x',
    });
    expect(((await post.json()) as { message: string }).message).toBe('分片序号必须是数字');
  });

  it('takes plain ids where the spec has a JSON list of objects, and words what it cannot read', async () => {
    const ids = await Promise.all(['p1.txt', 'p2.txt', 'p3.txt', 'p4.txt'].map((n) => admin.put('/', n, n)));
    // A single number, a numeric text, comma text and a plain array are unambiguous: the same list.
    for (const files of [ids[0], String(ids[1]), `${ids[2]},${ids[3]}`]) {
      const res = await admin.post('/file/batchdeletefile', { files });
      expect(res.body.success, JSON.stringify(files)).toBe(true);
    }
    expect(await admin.names('/')).not.toContain('p1.txt');
    expect(await admin.names('/')).not.toContain('p4.txt');

    const example = '文件列表格式不正确：应为 [{"userFileId": 1}] 这样的列表';
    for (const files of ['abc', '{"userFileId":1}', true, { userFileId: 1 }]) {
      const res = await admin.post('/file/batchdeletefile', { files });
      expect(res.body, JSON.stringify(files)).toEqual(bad(example));
    }
    expect((await admin.post('/file/batchdeletefile', { files: [{ id: 1 }] })).body).toEqual(
      bad('请填写文件列表第 1 项的文件编号'),
    );
    expect(
      (
        await admin.post('/file/batchmovefile', {
          files: [{ userFileId: 1 }, { userFileId: 'x' }],
          filePath: '/',
        })
      ).body,
    ).toEqual(bad('文件列表第 2 项的文件编号必须是数字'));
    expect((await admin.post('/recoveryfile/batchdelete', { recoveryFileIds: 'abc' })).body).toEqual(
      bad('回收站文件列表格式不正确：应为 [{"recoveryFileId": 1}] 这样的列表'),
    );
    expect((await admin.post('/file/batchdeletefile', {})).body).toEqual(bad('请填写文件列表'));
  });
});

describe('§5 flags and lists as real clients send them', () => {
  it('serves preview with isMin as true/false and as 1/0, and names isMin when it is neither', async () => {
    const answers: Record<string, { status: number; type: string | null; bytes: Buffer }> = {};
    for (const isMin of ['true', 'false', '1', '0', 'TRUE']) {
      const res = await fetch(`${s.url}${W}/filetransfer/preview?userFileId=${pngId}&isMin=${isMin}`, {
        headers: { token: admin.token },
      });
      answers[isMin] = {
        status: res.status,
        type: res.headers.get('content-type'),
        bytes: Buffer.from(await res.arrayBuffer()),
      };
      expect(res.status, `isMin=${isMin}`).toBe(200);
    }
    // false and 0: the file itself; true and 1: the same thumbnail.
    expect(answers.false!.bytes.equals(PNG_1X1)).toBe(true);
    expect(answers['0']!.bytes.equals(PNG_1X1)).toBe(true);
    expect(answers.true!.type).toBe(answers['1']!.type);
    expect(answers.true!.bytes.equals(answers['1']!.bytes)).toBe(true);
    expect(answers.true!.bytes.equals(PNG_1X1)).toBe(false);
    expect(answers.TRUE!.bytes.equals(answers['1']!.bytes)).toBe(true);

    // Empty parameters, as clients send unused ones, mean not given (the file itself).
    const empty = await fetch(
      `${s.url}${W}/filetransfer/preview?userFileId=${pngId}&isMin=&isAdmin=&fileType=`,
      {
        headers: { token: admin.token },
      },
    );
    expect(empty.status).toBe(200);
    expect(Buffer.from(await empty.arrayBuffer()).equals(PNG_1X1)).toBe(true);

    const maybe = await admin.get(`/filetransfer/preview?userFileId=${pngId}&isMin=maybe`);
    expect(maybe.status).toBe(400);
    expect(maybe.body).toEqual(bad('缩略图（isMin）只能是 true 或 false（也可以是 1 或 0）'));
  });

  it('takes flags in the query as true/false and 1/0 across modules', async () => {
    const token = admin.token;
    // The staff directory: includeHidden (0/1 before, now also true/false).
    const hiddenId = (
      await s.call('POST', `${M}/bs/bsAddressBook/save`, {
        token,
        body: { name: '隐藏的人', mobile: '13900001111', hidden: 'true' },
      })
    ).body.result?.id as number;
    expect(hiddenId).toBeGreaterThan(0);
    const names = async (v: string) => {
      const res = await s.call('GET', `${M}/bs/bsAddressBook/list?includeHidden=${v}`, { token });
      expect(res.body.success, `includeHidden=${v}`).toBe(true);
      return JSON.stringify(res.body.result);
    };
    expect(await names('true')).toContain('隐藏的人');
    expect(await names('1')).toContain('隐藏的人');
    expect(await names('false')).not.toContain('隐藏的人');
    expect(await names('0')).not.toContain('隐藏的人');
    expect(
      (await s.call('GET', `${M}/bs/bsAddressBook/list?includeHidden=yes`, { token })).body.message,
    ).toBe('包含隐藏只能是 true 或 false（也可以是 1 或 0）');
    // Projects: archived=false is the working list, archived=true the archive.
    for (const v of ['true', 'false', '1', '0']) {
      const res = await s.call('GET', `${M}/project/list?archived=${v}`, { token });
      expect(res.body.success, `archived=${v}`).toBe(true);
    }
  });

  it('takes flags in JSON bodies as booleans, numbers and strings', async () => {
    const token = admin.token;
    const day = '2026-03-02';
    for (const allDay of [true, 'true', 1, '1']) {
      const res = await s.call('POST', `${M}/applet/bsSchedule/save`, {
        token,
        body: { title: `全天 ${String(allDay)}`, startTime: `${day} 09:00`, endTime: `${day} 10:00`, allDay },
      });
      expect(res.body.success, `allDay ${JSON.stringify(allDay)}`).toBe(true);
    }
    const list = await s.call('GET', `${M}/applet/bsSchedule/list?date=${day}`, { token });
    const mine = (list.body.result.list as { title: string; allDay: boolean }[]).filter((r) =>
      r.title.startsWith('全天'),
    );
    expect(mine).toHaveLength(4);
    expect(mine.every((r) => r.allDay === true)).toBe(true);
    for (const allDay of [false, 'false', 0, '0']) {
      const res = await s.call('POST', `${M}/applet/bsSchedule/save`, {
        token,
        body: { title: '非全天', startTime: `${day} 09:00`, endTime: `${day} 10:00`, allDay },
      });
      expect(res.body.success, `allDay ${JSON.stringify(allDay)}`).toBe(true);
    }
    const no = await s.call('POST', `${M}/applet/bsSchedule/save`, {
      token,
      body: { title: 'x', startTime: `${day} 09:00`, endTime: `${day} 10:00`, allDay: 'sometimes' },
    });
    expect(no.body).toEqual(bad('全天只能是 true 或 false（也可以是 1 或 0）', 'result'));

    // Enabling a person: `enabled` was a strict boolean.
    const userId = await userIdOf(s, 'staff02');
    for (const enabled of ['false', 0, 'true', 1]) {
      const res = await s.call('POST', `${M}/sysUser/enable`, { token, body: { userId, enabled } });
      expect(res.body.success, `enabled ${JSON.stringify(enabled)}`).toBe(true);
    }
  });

  it('takes a flag in a multipart form (the chunk upload) as true and as 1', async () => {
    const content = Buffer.from('管理员上传到其他资源');
    const upload = async (isAdmin: string, name: string) => {
      const form = new FormData();
      const fields = {
        chunkNumber: '1',
        chunkSize: '65536',
        currentChunkSize: String(content.length),
        totalSize: String(content.length),
        identifier: createHash('md5').update(content).digest('hex'),
        filename: name,
        totalChunks: '1',
        filePath: '/',
        isAdmin,
      };
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append('file', new Blob([content]), name);
      const res = await fetch(`${s.url}${W}/filetransfer/uploadfile`, {
        method: 'POST',
        headers: { token: admin.token },
        body: form,
      });
      return (await res.json()) as { success: boolean; message: string };
    };
    expect((await upload('true', 'res-a.txt')).success).toBe(true);
    expect((await upload('1', 'res-b.txt')).success).toBe(true);
    // isAdmin chose 其他资源 (the museum's library), not the personal drive.
    const res = await admin.names('/', { isAdmin: 'true' });
    expect(res).toEqual(expect.arrayContaining(['res-a.txt', 'res-b.txt']));
    expect(await admin.names('/')).not.toContain('res-a.txt');
    expect((await upload('yes', 'res-c.txt')).message).toBe(
      '管理模式（isAdmin）只能是 true 或 false（也可以是 1 或 0）',
    );
  });

  it('takes flags and id lists in a form-encoded body, and only with the token header', async () => {
    const form = (path: string, body: string, token: string | null = admin.token) =>
      s.call('POST', `${M}${path}`, {
        raw: body,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(token ? { token } : {}) },
      });
    const day = '2026-03-03';
    const times = `startTime=${encodeURIComponent(`${day} 09:00`)}&endTime=${encodeURIComponent(`${day} 10:00`)}`;
    for (const allDay of ['true', '1', 'false', '0']) {
      const res = await form(
        '/applet/bsSchedule/save',
        `title=${encodeURIComponent('表单 ' + allDay)}&${times}&allDay=${allDay}`,
      );
      expect(res.body.success, `allDay=${allDay}`).toBe(true);
    }
    const list = await s.call('GET', `${M}/applet/bsSchedule/list?date=${day}`, { token: admin.token });
    const mine = (list.body.result.list as { title: string; allDay: boolean }[]).filter((r) =>
      r.title.startsWith('表单'),
    );
    expect(Object.fromEntries(mine.map((r) => [r.title, r.allDay]))).toEqual({
      '表单 true': true,
      '表单 1': true,
      '表单 false': false,
      '表单 0': false,
    });
    expect((await form('/applet/bsSchedule/save', `title=x&${times}&allDay=maybe`)).body).toEqual(
      bad('全天只能是 true 或 false（也可以是 1 或 0）', 'result'),
    );
    // One receiver, and a key sent twice as a list.
    const to = await userIdOf(s, 'staff02');
    const other = await userIdOf(s, 'staff03');
    for (const receivers of [`receiver=${to}`, `receiver=${to}&receiver=${other}`]) {
      const res = await form(
        '/notice/shareFileToUsers',
        `noticeContent=${encodeURIComponent('请查看')}&${receivers}`,
      );
      expect(res.body.success, receivers).toBe(true);
    }
    // A form is what another web page can make a browser send: without the header it is refused,
    // also where no session is needed (sign-in), and nothing is done.
    const login = await form('/login/webLogin', 'username=admin&password=x', null);
    expect(login.status).toBe(415);
    expect(login.body.message).toBe('表单格式的请求须在请求头中携带登录令牌（token），请登录后重试');
  });

  it('takes a receiver of one number (or one numeric text) as a list of one', async () => {
    const token = admin.token;
    const to = await userIdOf(s, 'staff02');
    for (const receiver of [to, String(to), [to], `${to}`]) {
      const res = await s.call('POST', `${M}/notice/shareFileToUsers`, {
        token,
        body: { noticeContent: '请查看分享', receiver },
      });
      expect(res.body.success, `receiver ${JSON.stringify(receiver)}`).toBe(true);
    }
    for (const [receiver, message] of [
      ['abc', '接收人第 1 项必须是数字'],
      [{}, '接收人必须是编号或编号列表，例如 5 或 [5, 6]'],
      [true, '接收人必须是编号或编号列表，例如 5 或 [5, 6]'],
      [[], '请选择接收人'],
      [0, '接收人第 1 项必须大于 0'],
    ] as const) {
      const res = await s.call('POST', `${M}/notice/shareFileToUsers`, {
        token,
        body: { noticeContent: '请查看分享', receiver },
      });
      expect(res.body, `receiver ${JSON.stringify(receiver)}`).toEqual(bad(message, 'result'));
    }
    // Other id lists take one id too: the copy-to picker narrowed to one person.
    for (const userIds of [to, String(to), [to]]) {
      const res = await s.call('POST', `${M}/workflowConfig/copytoUserList`, { token, body: { userIds } });
      const list = res.body.result.userlist as { userId: number }[];
      expect(
        list.map((u) => u.userId),
        `userIds ${JSON.stringify(userIds)}`,
      ).toEqual([to]);
    }
  });
});
