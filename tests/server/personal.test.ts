import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { M, PNG_1X1, demoPhone, failure, loginCall, uploadAvatar, userIdOf } from './util';

/* The personal centre: one's own name, phone, avatar and password. */

let s: TestServer;
const ok = (result: unknown = {}) => ({ success: true, code: 0, message: '成功', result });
const EXPIRED = { success: false, code: 999, message: '登录超时，请重新登录', result: null };

/** A 1×1 GIF. */
const GIF_1X1 = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script></svg>',
);
const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');
/** PNG bytes padded to `size`: the type is decided by the leading signature. */
const pngOfSize = (size: number) => Buffer.concat([PNG_1X1, Buffer.alloc(size - PNG_1X1.length)]);
const ONLY_IMAGES = failure(1010, '头像只支持 PNG、JPG、GIF、WebP 图片');

beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

describe('profile', () => {
  it('reads one’s own details', async () => {
    const token = await s.login('staff03');
    const res = await s.call('GET', `${M}/personal/info`, { token });
    expect(res.body).toEqual(
      ok({
        userId: await userIdOf(s, 'staff03'),
        account: 'staff03',
        userName: '赵磊',
        image: '',
        phone: demoPhone(3),
        roles: ['deptHead', 'keeper'],
        roleNames: ['部门主任', '典藏管理员'],
        departments: [{ id: expect.any(Number), name: '典藏部' }],
        mustChangePassword: false,
      }),
    );
  });

  it('updates name and phone, answering the new details', async () => {
    const token = await s.login('staff04');
    const res = await s.call('POST', `${M}/personal/update`, {
      token,
      body: { userName: ' 陈静静 ', phone: '13600000004' },
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.result).toMatchObject({ account: 'staff04', userName: '陈静静', phone: '13600000004' });
    const info = await s.call('GET', `${M}/login/userInfo`, { token });
    expect(info.body.result).toMatchObject({ userName: '陈静静', phone: '13600000004' });
    expect((await loginCall(s, '13600000004')).body.result.userName).toBe('陈静静');
  });

  it('clears the phone with an empty string', async () => {
    const token = await s.login('staff05');
    const res = await s.call('POST', `${M}/personal/update`, {
      token,
      body: { userName: '刘洋', phone: '' },
    });
    expect(res.body.result.phone).toBe('');
    // The freed number can be taken by someone else.
    const other = await s.login('staff06');
    const taken = await s.call('POST', `${M}/personal/update`, {
      token: other,
      body: { userName: '孙悦', phone: demoPhone(5) },
    });
    expect(taken.body.success).toBe(true);
  });

  it('refuses a phone used by another account', async () => {
    const token = await s.login('staff07');
    const res = await s.call('POST', `${M}/personal/update`, {
      token,
      body: { userName: '周婷', phone: demoPhone(0) },
    });
    expect(res.body).toEqual(failure(1007, '该手机号已被其他账号使用'));
    const info = await s.call('GET', `${M}/personal/info`, { token });
    expect(info.body.result.phone).toBe(demoPhone(7));
    // Keeping one's own number is fine.
    const same = await s.call('POST', `${M}/personal/update`, {
      token,
      body: { userName: '周婷', phone: demoPhone(7) },
    });
    expect(same.body.success).toBe(true);
  });

  it('refuses a bad phone or an empty name with HTTP 400', async () => {
    const token = await s.login('staff08');
    const phone = await s.call('POST', `${M}/personal/update`, {
      token,
      body: { userName: '吴昊', phone: '1380000' },
    });
    expect(phone.status).toBe(400);
    expect(phone.body).toEqual(failure(400, '请输入正确的 11 位手机号'));
    const name = await s.call('POST', `${M}/personal/update`, { token, body: { userName: '', phone: '' } });
    expect(name.status).toBe(400);
    expect(name.body).toEqual(failure(400, '请输入姓名'));
  });

  it('cannot change one’s own account or roles', async () => {
    const token = await s.login('staff10');
    const res = await s.call('POST', `${M}/personal/update`, {
      token,
      body: {
        userName: '何雪',
        phone: demoPhone(10),
        account: 'boss',
        roleIds: [1],
        roles: ['viviHignAdmin'],
      },
    });
    expect(res.body.success).toBe(true);
    expect(res.body.result).toMatchObject({ account: 'staff10', roles: ['educator'] });
  });
});

describe('avatar', () => {
  let token: string;
  let userId: number;
  beforeAll(async () => {
    token = await s.login('staff01');
    userId = await userIdOf(s, 'staff01');
  });

  it('stores a PNG under the hash of its bytes and serves it as image/png with nosniff', async () => {
    const res = await uploadAvatar(s, token, PNG_1X1);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(ok({ image: expect.any(String) }));
    const image = res.body.result.image as string;
    const sha = createHash('sha256').update(PNG_1X1).digest('hex');
    expect(image).toBe(`${M}/sysUser/avatar/${userId}?v=${sha.slice(0, 10)}`);
    expect(await s.storage.avatars.has(`${sha}.png`)).toBe(true);

    // The cookie alone authorises the read, as an <img> element sends it.
    const img = await fetch(s.url + image, { headers: { cookie: `token=${token}` } });
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(img.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await img.arrayBuffer()).equals(PNG_1X1)).toBe(true);

    const info = await s.call('GET', `${M}/personal/info`, { token });
    expect(info.body.result.image).toBe(image);
    const login = await loginCall(s, 'staff01');
    expect(login.body.result.image).toBe(image);
    const row = await s.call('GET', `${M}/sysUser/list?keyword=staff01`, { token: await s.login('admin') });
    expect(row.body.result.list[0].image).toBe(image);
  });

  it('decides the type by the bytes, not by the name or declared type', async () => {
    const gif = await uploadAvatar(s, token, GIF_1X1, { filename: 'a.png', type: 'image/png' });
    expect(gif.body.success).toBe(true);
    const img = await fetch(s.url + gif.body.result.image, { headers: { cookie: `token=${token}` } });
    expect(img.headers.get('content-type')).toBe('image/gif');
    await img.arrayBuffer();

    const png = await uploadAvatar(s, token, PNG_1X1, { filename: 'page.html', type: 'text/html' });
    expect(png.body.success).toBe(true);
    const img2 = await fetch(s.url + png.body.result.image, { headers: { cookie: `token=${token}` } });
    expect(img2.headers.get('content-type')).toBe('image/png');
    await img2.arrayBuffer();
  });

  it('refuses SVG and HTML, whatever they claim to be', async () => {
    const before = (await s.call('GET', `${M}/personal/info`, { token })).body.result.image;
    expect((await uploadAvatar(s, token, SVG, { filename: 'a.svg', type: 'image/svg+xml' })).body).toEqual(
      ONLY_IMAGES,
    );
    expect((await uploadAvatar(s, token, SVG, { filename: 'a.png', type: 'image/png' })).body).toEqual(
      ONLY_IMAGES,
    );
    expect((await uploadAvatar(s, token, HTML, { filename: 'a.html', type: 'text/html' })).body).toEqual(
      ONLY_IMAGES,
    );
    expect((await uploadAvatar(s, token, HTML, { filename: 'a.jpg', type: 'image/jpeg' })).body).toEqual(
      ONLY_IMAGES,
    );
    expect((await s.call('GET', `${M}/personal/info`, { token })).body.result.image).toBe(before);
  });

  it('accepts up to 2 MB and refuses more', async () => {
    const big = await uploadAvatar(s, token, pngOfSize(1.5 * 1024 * 1024));
    expect(big.body.success).toBe(true);
    const limit = await uploadAvatar(s, token, pngOfSize(2 * 1024 * 1024));
    expect(limit.body.success).toBe(true);
    const over = await uploadAvatar(s, token, pngOfSize(2 * 1024 * 1024 + 1));
    expect(over.status).toBe(200);
    expect(over.body).toEqual(failure(1010, '头像图片不能超过 2MB'));
    expect((await s.call('GET', `${M}/personal/info`, { token })).body.result.image).toBe(
      limit.body.result.image,
    );
  });

  it('refuses an empty file, a form without a file, and a request that is not a form', async () => {
    expect((await uploadAvatar(s, token, Buffer.alloc(0))).body).toEqual(
      failure(1010, '图片文件为空，请重新选择'),
    );
    const fd = new FormData();
    fd.append('name', 'value');
    const noFile = await fetch(`${s.url}${M}/personal/avatar`, {
      method: 'POST',
      headers: { token },
      body: fd,
    });
    expect(await noFile.json()).toEqual(failure(1010, '请选择要上传的头像图片'));
    const json = await s.call('POST', `${M}/personal/avatar`, { token, body: {} });
    expect(json.body).toEqual(failure(1010, '请选择要上传的头像图片'));
  });

  it('needs the token header to upload, and a session to read', async () => {
    const fd = new FormData();
    fd.append('file', new Blob([new Uint8Array(PNG_1X1)], { type: 'image/png' }), 'a.png');
    const res = await fetch(`${s.url}${M}/personal/avatar`, {
      method: 'POST',
      headers: { cookie: `token=${token}` },
      body: fd,
    });
    expect(res.status).toBe(999);
    expect(await res.json()).toEqual(EXPIRED);

    const anon = await s.call('GET', `${M}/sysUser/avatar/${userId}`);
    expect(anon.status).toBe(999);
  });

  it('answers a person without an avatar with a message', async () => {
    const other = await userIdOf(s, 'staff09');
    const res = await s.call('GET', `${M}/sysUser/avatar/${other}`, { token });
    expect(res.body).toEqual(failure(404, '该用户没有头像'));
    expect((await s.call('GET', `${M}/sysUser/avatar/99999`, { token })).body).toEqual(
      failure(404, '该用户没有头像'),
    );
  });
});

describe('password change', () => {
  const change = (token: string, oldPassword: string, newPassword: string) =>
    s.call('POST', `${M}/personal/password`, { token, body: { oldPassword, newPassword } });

  it('refuses a wrong old password, the same password, and one that breaks the rule', async () => {
    const token = await s.login('staff02');
    expect((await change(token, 'Wrong@123', 'New@2026')).body).toEqual(failure(1010, '原密码不正确'));
    expect((await change(token, 'Demo@2026', 'Demo@2026')).body).toEqual(
      failure(1010, '新密码不能与原密码相同'),
    );
    const rule = await change(token, 'Demo@2026', 'abcdefgh');
    expect(rule.status).toBe(400);
    expect(rule.body).toEqual(failure(400, '密码须至少包含数字、字母、符号中的两种'));
    const short = await change(token, 'Demo@2026', 'a1');
    expect(short.status).toBe(400);
    expect(short.body).toEqual(failure(400, '密码长度须为 6–20 位'));
    const noOld = await change(token, '', 'New@2026');
    expect(noOld.status).toBe(400);
    expect(noOld.body).toEqual(failure(400, '请输入原密码'));
    // Nothing changed: the session and the password still work.
    expect((await s.call('GET', `${M}/personal/info`, { token })).status).toBe(200);
    expect((await loginCall(s, 'staff02')).body.success).toBe(true);
  });

  it('changes the password and ends every session of the user', async () => {
    const t1 = await s.login('staff09');
    const t2 = await s.login('staff09');
    const res = await change(t1, 'Demo@2026', 'Changed#99');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(ok());
    expect(res.headers.get('set-cookie') ?? '').toMatch(/^token=;/);

    for (const t of [t1, t2]) {
      const r = await s.call('GET', `${M}/personal/info`, { token: t });
      expect(r.status).toBe(999);
      expect(r.body).toEqual(EXPIRED);
    }
    expect((await loginCall(s, 'staff09')).body.code).toBe(1001);
    const fresh = await loginCall(s, 'staff09', 'Changed#99');
    expect(fresh.body.success).toBe(true);
    expect((await s.call('GET', `${M}/personal/info`, { token: fresh.body.result.token })).status).toBe(200);
  });
});
