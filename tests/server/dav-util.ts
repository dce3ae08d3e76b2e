import { DEMO_PASSWORD, type TestServer } from './harness';

/** Helpers shared by the WebDAV tests (not a test file itself). */

export const PERSONAL = `/dav/${encodeURIComponent('我的网盘')}/`;
export const RES = `/dav/${encodeURIComponent('其他资源')}/`;
export const HD = `/dav/${encodeURIComponent('高清图片')}/`;

/** A path under an area root with each name encoded: `at(PERSONAL, '报告', 'a.txt')`. */
export function at(root: string, ...names: string[]): string {
  return root + names.map(encodeURIComponent).join('/');
}

/** Makes an app password for a demo account through 个人中心's call; answers it as shown. */
export async function appPasswordFor(s: TestServer, account: string, name = '测试电脑'): Promise<string> {
  const token = await s.login(account);
  const res = await s.call('POST', '/singleMuseum/personal/appPassword/add', {
    token,
    body: { name, password: DEMO_PASSWORD },
  });
  if (!res.body?.success) throw new Error(`app password for ${account}: ${JSON.stringify(res.body)}`);
  return res.body.result.appPassword as string;
}

export const basic = (user: string, pass: string) =>
  `Basic ${Buffer.from(`${user}:${pass}`, 'utf8').toString('base64')}`;

export interface DavAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** A WebDAV caller: raw requests with Basic credentials (none when `auth` is null). */
export function davClient(s: TestServer, auth: string | null) {
  return async (
    method: string,
    path: string,
    opts: { headers?: Record<string, string>; body?: string | Buffer } = {},
  ): Promise<DavAnswer> => {
    const headers: Record<string, string> = { ...opts.headers };
    if (auth) headers.authorization = auth;
    const res = await fetch(s.url + path, { method, headers, body: opts.body });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
}
export type Dav = ReturnType<typeof davClient>;

/** The hrefs of a PROPFIND answer, decoded. */
export function hrefs(xml: string): string[] {
  return [...xml.matchAll(/<D:href>([^<]*)<\/D:href>/g)].map((m) => decodeURIComponent(m[1]!));
}

/** The text of the first element named `tag` (with its prefix) in an answer. */
export function valueOf(xml: string, tag: string): string | undefined {
  return new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1];
}

/** The Chinese message of a DAV:error answer. */
export function messageOf(xml: string): string | undefined {
  return /<g:message>([^<]*)<\/g:message>/
    .exec(xml)?.[1]
    ?.replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

export const LOCK_BODY = (scope: 'exclusive' | 'shared' = 'exclusive', owner = '测试') =>
  `<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:${scope}/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>${owner}</D:owner></D:lockinfo>`;
