import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { LOGIN_CALLS_PER_MINUTE } from '../../src/server/modules/auth/auth.routes';
import { DEMO_PASSWORD, driveServiceOf, startServer, type TestServer } from './harness';
import { W, driveUser, type DriveUser } from './drive-util';
import { M, loginCall, userIdOf } from './util';
import { formatMuseumTime } from '../../src/shared/drive/share-rules';

/*
 * The flood guard (issue 16 §6): the general API limit is per signed-in person, calls without a
 * valid session share a ceiling per address, and TRUST_PROXY makes the address the real client
 * behind a listed reverse proxy (and only then). Every request here comes from 127.0.0.1, as a
 * museum's tablets do from behind one NAT.
 */

const LIMITED = /^请求过于频繁，请 \d+ 秒后再试$/;

/** Creates `n` people with the drive role through the admin API (as the admin pages do). */
async function createPeople(s: TestServer, n: number, prefix: string): Promise<string[]> {
  const admin = await s.login('admin');
  const roles = await s.call('GET', `${M}/sysRole/list`, { token: admin });
  const roleId = (roles.body.result as { roleId: number; code: string }[]).find(
    (r) => r.code === 'keeper',
  )!.roleId;
  const accounts: string[] = [];
  for (let i = 0; i < n; i++) {
    const account = `${prefix}${String(i).padStart(2, '0')}`;
    const res = await s.call('POST', `${M}/sysUser/save`, {
      token: admin,
      body: { account, userName: `员工${i}`, phone: '', password: DEMO_PASSWORD, roleIds: [roleId] },
    });
    if (!res.body?.success) throw new Error(`create ${account}: ${JSON.stringify(res.body)}`);
    accounts.push(account);
  }
  return accounts;
}

/** A private share of one new file of staff03's, answering its batch number. */
async function privateShare(s: TestServer): Promise<string> {
  const owner = await driveUser(s, 'staff03');
  const id = await owner.put('/', `分享${Math.random()}.txt`, 'x');
  const res = await owner.post('/share/sharefile', {
    files: JSON.stringify([{ userFileId: id }]),
    endTime: formatMuseumTime(Date.now() + 86_400_000),
    shareType: 1,
    remarks: '',
  });
  return res.body.data.shareBatchNum as string;
}

/** A wrong extraction code, as a visitor's browser sends it. */
async function wrongCode(s: TestServer, shareBatchNum: string, headers: Record<string, string> = {}) {
  const q = new URLSearchParams({ shareBatchNum, extractionCode: '222222' });
  return (await s.call('GET', `${W}/share/checkextractioncode?${q}`, { headers })).body.message as string;
}
const CLIENT_LOCK = '提取码错误次数过多，请 15 分钟后再试';
const SHARE_LOCK = '该分享的提取码尝试次数过多，已暂时锁定，请 60 分钟后再试';

/** A thumbnail request as an <img> makes it: the session in the cookie, no header. */
async function thumbnail(s: TestServer, token: string, id: number, headers: Record<string, string> = {}) {
  const res = await fetch(`${s.url}${W}/filetransfer/preview?userFileId=${id}&isMin=1`, {
    headers: { cookie: `token=${token}`, ...headers },
  });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, body, type: res.headers.get('content-type') ?? '' };
}

describe('the default limits: a museum behind one address', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.close());

  it('20 people each browse a 200-image grid within a minute and nobody gets 429; one person flooding does', async () => {
    const accounts = await createPeople(s, 21, 'grid');
    const image = await sharp({
      create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 120, b: 40 } },
    })
      .jpeg()
      .toBuffer();
    const svc = driveServiceOf(s);
    const people: { user: DriveUser; id: number }[] = [];
    for (const account of accounts) {
      const user = await driveUser(s, account, svc);
      people.push({ user, id: await user.put('/', '藏品.jpg', image) });
    }
    expect(s.config.rateLimitPerMinute).toBe(1200);
    expect(s.config.rateLimitPerAddress).toBe(3000);

    // All twenty at once, each loading its grid of 200 thumbnails (six at a time, as a
    // browser does per host): 4,000 requests from one address, more than the anonymous ceiling.
    const started = Date.now();
    const statuses = new Map<number, number>();
    // The 21st person only floods (below): their minute starts then, not with the grid's.
    const flooder = people.pop()!;
    await Promise.all(
      people.map(async ({ user, id }) => {
        let next = 0;
        await Promise.all(
          Array.from({ length: 6 }, async () => {
            while (next < 200) {
              next++;
              const res = await thumbnail(s, user.token, id);
              statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            }
          }),
        );
      }),
    );
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(Object.fromEntries(statuses)).toEqual({ 200: 4000 });

    // One person floods, six at a time as a browser would: refused once past their own 1,200 a
    // minute, with the wait in Chinese; everyone else behind the same address is still served.
    // A person of their own, so that their minute starts with the flood: after the grid's
    // minute, on a loaded machine, the counter could start afresh in the middle (it did once).
    let served = 0;
    let refused: Awaited<ReturnType<typeof thumbnail>> | undefined;
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (!refused && served < 1300) {
          const res = await thumbnail(s, flooder.user.token, flooder.id);
          if (res.status === 429) refused ??= res;
          else served++;
        }
      }),
    );
    expect(served).toBe(1200);
    expect(refused!.type).toMatch(/^application\/json/);
    const body = JSON.parse(refused!.body.toString());
    expect(body).toMatchObject({ success: false, code: 1008, data: null });
    expect(body.message).toMatch(LIMITED);
    expect((await thumbnail(s, people[1]!.user.token, people[1]!.id)).status).toBe(200);
  }, 120_000);
});

describe('small limits (RATE_LIMIT_PER_MINUTE=10, RATE_LIMIT_PER_ADDRESS=20)', () => {
  let s: TestServer;
  beforeEach(async () => {
    s = await startServer({ RATE_LIMIT_PER_MINUTE: '10', RATE_LIMIT_PER_ADDRESS: '20' });
  });
  afterEach(() => s.close());

  const userInfo = (token?: string, headers: Record<string, string> = {}) =>
    s.call('GET', `${M}/login/userInfo`, { token, headers });

  it('counts each signed-in person on their own, not against the address', async () => {
    const a = await s.login('staff01');
    const b = await s.login('staff02');
    for (let i = 0; i < 10; i++) expect((await userInfo(a)).status).toBe(200);
    const refused = await userInfo(a);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, code: 1008, result: null });
    expect(refused.body.message).toMatch(LIMITED);
    // Same address, another person: a full allowance of their own.
    for (let i = 0; i < 10; i++) expect((await userInfo(b)).status).toBe(200);
    expect((await userInfo(b)).status).toBe(429);
    // A second session of the same person is the same person.
    const a2 = await s.login('staff01');
    expect((await userInfo(a2)).status).toBe(429);
  });

  it('stops an anonymous flood at the per-address ceiling; signed-in people behind it go on', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) statuses.push((await userInfo()).status);
    expect(statuses).toEqual([...Array<number>(20).fill(999), 429, 429]);
    const staff = await s.login('staff03');
    expect((await userInfo(staff)).status).toBe(200);
  });

  it('gives made-up tokens no bucket of their own: each counts against the address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) {
      // A fresh random token per request, in the header and in the cookie.
      const fake = `forged-${i}-${Math.random().toString(36).slice(2)}`;
      const res =
        i % 2
          ? await userInfo(fake)
          : await s.call('GET', `${M}/login/userInfo`, { headers: { cookie: `token=${fake}` } });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array<number>(20).fill(999), 429, 429]);
  });

  it('ignores X-Forwarded-For without TRUST_PROXY: a spoofed header buys no fresh count', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      statuses.push((await userInfo(undefined, { 'x-forwarded-for': `10.1.0.${i}` })).status);
    }
    expect(statuses.at(-1)).toBe(429);
    // The sign-in throttle keeps counting the connection's address.
    await loginCall(s, 'staff04', 'Wrong@123');
    const keys = await s.db.selectFrom('login_attempt').select('key').orderBy('key').execute();
    expect(keys.map((k) => k.key)).toEqual(['ip:127.0.0.1', `user:${await userIdOf(s, 'staff04')}`]);
  });
});

describe('share codes without TRUST_PROXY', () => {
  it('ignore X-Forwarded-For: a spoofed address per guess still locks the connection at its 5th', async () => {
    const s = await startServer();
    try {
      const batch = await privateShare(s);
      const messages: string[] = [];
      for (let i = 0; i < 6; i++)
        messages.push(await wrongCode(s, batch, { 'x-forwarded-for': `10.6.0.${i}` }));
      expect(messages.slice(3)).toEqual(['提取码错误，还可尝试 1 次', CLIENT_LOCK, CLIENT_LOCK]);
    } finally {
      await s.close();
    }
  });
});

describe('behind a reverse proxy (TRUST_PROXY=127.0.0.1)', () => {
  let s: TestServer;
  beforeEach(async () => {
    s = await startServer({ TRUST_PROXY: '127.0.0.1', RATE_LIMIT_PER_ADDRESS: '20' });
  });
  afterEach(() => s.close());

  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  it('counts anonymous calls per real client address', async () => {
    for (let i = 0; i < 20; i++) {
      expect((await s.call('GET', `${M}/login/userInfo`, { headers: from('10.0.0.1') })).status).toBe(999);
    }
    expect((await s.call('GET', `${M}/login/userInfo`, { headers: from('10.0.0.1') })).status).toBe(429);
    expect((await s.call('GET', `${M}/login/userInfo`, { headers: from('10.0.0.2') })).status).toBe(999);
  });

  it('takes the address the proxy saw, not one the client prepended', async () => {
    // nginx appends the peer it saw ($proxy_add_x_forwarded_for): the client's own claim is
    // to the left and is not believed, because 6.6.6.6 is not a listed proxy.
    for (let i = 0; i < 20; i++) {
      const spoof = { 'x-forwarded-for': `6.6.${i}.6, 10.0.0.7` };
      expect((await s.call('GET', `${M}/login/userInfo`, { headers: spoof })).status).toBe(999);
    }
    const again = { 'x-forwarded-for': '6.6.99.6, 10.0.0.7' };
    expect((await s.call('GET', `${M}/login/userInfo`, { headers: again })).status).toBe(429);
  });

  it('counts share codes per real address: ten addresses, and the share locks at the 30th wrong code', async () => {
    const batch = await privateShare(s);
    const messages: string[] = [];
    for (let a = 1; a <= 10; a++) {
      for (let j = 0; j < 5; j++) messages.push(await wrongCode(s, batch, from(`10.0.0.${a}`)));
    }
    const wrong = (n: number) => `提取码错误，还可尝试 ${n} 次`;
    for (let a = 0; a < 5; a++) {
      expect(messages.slice(a * 5, a * 5 + 5)).toEqual([wrong(4), wrong(3), wrong(2), wrong(1), CLIENT_LOCK]);
    }
    // The 30th wrong code locks the whole share; later guesses are refused uncounted.
    expect(messages.slice(25)).toEqual([
      wrong(4),
      wrong(3),
      wrong(2),
      wrong(1),
      ...Array<string>(21).fill(SHARE_LOCK),
    ]);
  });

  it('keeps sign-in throttles per real address: failures, sessions and the call limit', async () => {
    for (let i = 0; i < 3; i++)
      await s.call('POST', `${M}/login/webLogin`, {
        body: { username: `nobody${i}`, password: 'Wrong@123' },
        headers: from('10.0.0.1'),
      });
    await s.call('POST', `${M}/login/webLogin`, {
      body: { username: 'nobody9', password: 'Wrong@123' },
      headers: from('10.0.0.2'),
    });
    const rows = await s.db
      .selectFrom('login_attempt')
      .select(['key', 'failures'])
      .where('key', 'like', 'ip:%')
      .orderBy('key')
      .execute();
    expect(rows).toEqual([
      { key: 'ip:10.0.0.1', failures: 3 },
      { key: 'ip:10.0.0.2', failures: 1 },
    ]);
    const ok = await s.call('POST', `${M}/login/webLogin`, {
      body: { username: 'staff01', password: 'Demo@2026' },
      headers: from('10.0.0.3'),
    });
    expect(ok.body.success).toBe(true);
    const session = await s.db.selectFrom('session').select('ip').executeTakeFirstOrThrow();
    expect(session.ip).toBe('10.0.0.3');

    // The sign-in call limit (a per-address flood guard) counts the real address too.
    for (let i = 0; i < LOGIN_CALLS_PER_MINUTE; i++) {
      expect(
        (await s.call('POST', `${M}/login/webLogin`, { body: {}, headers: from('10.0.0.4') })).status,
      ).toBe(400);
    }
    expect(
      (await s.call('POST', `${M}/login/webLogin`, { body: {}, headers: from('10.0.0.4') })).status,
    ).toBe(429);
    expect(
      (await s.call('POST', `${M}/login/webLogin`, { body: {}, headers: from('10.0.0.5') })).status,
    ).toBe(400);
  });
});

describe('a listed proxy that is not the peer', () => {
  it('believes no X-Forwarded-For from anyone else', async () => {
    const s = await startServer({ TRUST_PROXY: '10.9.9.9', RATE_LIMIT_PER_ADDRESS: '10' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await s.call('GET', `${M}/login/userInfo`, {
          headers: { 'x-forwarded-for': `10.2.0.${i}` },
        });
        statuses.push(res.status);
      }
      expect(statuses.at(-1)).toBe(429);
    } finally {
      await s.close();
    }
  });
});

describe('TRUST_PROXY values', () => {
  const base = { DATA_DIR: '/tmp/gwy-config-check' };
  it('accepts addresses and CIDR ranges, IPv4 and IPv6, and is off by default', () => {
    expect(loadConfig(base).trustProxy).toEqual([]);
    expect(loadConfig({ ...base, TRUST_PROXY: ' 127.0.0.1, 10.0.0.0/8,::1 ,fd00::/8' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
    ]);
  });
  it.each(['true', '1', 'nginx', '10.0.0.0/33', '10.0.0.1/8/8', '::1/129', '10.0.0', 'loopback'])(
    'refuses %s, naming the variable and the form it wants',
    (value) => {
      expect(() => loadConfig({ ...base, TRUST_PROXY: value })).toThrow(
        `TRUST_PROXY 中的“${value}”不是 IP 地址或网段：请列出反向代理的地址，用逗号分隔，例如 TRUST_PROXY=127.0.0.1,10.0.0.0/8`,
      );
    },
  );
});
