import { expect, type APIRequestContext } from '@playwright/test';
import { ADMIN_PASSWORD } from './helpers';

/**
 * Fresh, isolated people for a test, made through the real admin API (the calls the 人员管理
 * page makes): other specs assert on the demo accounts' drives, so a test that fills a drive
 * uses a person of its own.
 */

export interface TestUser {
  account: string;
  password: string;
  token: string;
  userId: number;
}

interface Envelope<T> {
  success: boolean;
  message: string;
  result?: T;
}

/** Satisfies the password rule (6–20 characters, at least two of digits, letters, symbols). */
export const TEST_PASSWORD = 'Test@2026';

let counter = 0;

/** A unique account name (letters and digits, at most 30). */
export function uniqueAccount(prefix = 'e2e'): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter.toString(36)}`.slice(0, 30);
}

async function call<T>(
  request: APIRequestContext,
  method: 'GET' | 'POST',
  path: string,
  opts: { token?: string; data?: unknown } = {},
): Promise<T> {
  const res = await request.fetch(`/singleMuseum${path}`, {
    method,
    headers: opts.token ? { token: opts.token } : {},
    data: opts.data,
  });
  const body = (await res.json()) as Envelope<T>;
  expect(body.success, `${method} ${path}: HTTP ${res.status()} ${body.message}`).toBe(true);
  return body.result as T;
}

/** Signs in through /singleMuseum/login/webLogin (one call, well inside the sign-in throttle). */
export async function signInApi(request: APIRequestContext, account: string, password: string) {
  return call<{ token: string; userId: number }>(request, 'POST', '/login/webLogin', {
    data: { username: account, password },
  });
}

/** Admin tokens per server (base URL), so a spec signs admin in once per server. */
const adminTokens = new Map<string, Promise<string>>();

function adminToken(request: APIRequestContext, server: string): Promise<string> {
  let t = adminTokens.get(server);
  if (!t) {
    t = signInApi(request, 'admin', ADMIN_PASSWORD).then((r) => r.token);
    // A failed sign-in is not cached: the next caller tries again.
    t.catch(() => adminTokens.delete(server));
    adminTokens.set(server, t);
  }
  return t;
}

export interface CreateUserOptions {
  /** Prefix of the account name. */
  prefix?: string;
  /** Role code; `keeper` (典藏管理员) grants 工作台, 数字资源 (so the 网盘) and 图书借阅. */
  role?: string;
  password?: string;
  /**
   * Identifies the server `request` talks to (its base URL), for the admin token cache; only
   * needed when one spec uses several servers.
   */
  server?: string;
}

/**
 * Creates a person with a drive role as admin (`/sysRole/list`, `/sysUser/save`, as the
 * admin pages do), then signs them in once. `request` must have the server as its base URL.
 */
export async function createDriveUser(
  request: APIRequestContext,
  opts: CreateUserOptions = {},
): Promise<TestUser> {
  const server = opts.server ?? 'default';
  const role = opts.role ?? 'keeper';
  const password = opts.password ?? TEST_PASSWORD;
  const account = uniqueAccount(opts.prefix);
  const admin = await adminToken(request, server);
  const roles = await call<{ roleId: number; code: string }[]>(request, 'GET', '/sysRole/list', {
    token: admin,
  });
  const roleId = roles.find((r) => r.code === role)?.roleId;
  expect(roleId, `role ${role}`).toBeTruthy();
  // An administrator's 初始密码 is replaced at the first sign-in (README "First sign-in"): the
  // person does that once here, as the form would, so journeys sign straight in with `password`.
  const initial = `Init#${account.slice(-6)}`;
  await call<{ userId: number }>(request, 'POST', '/sysUser/save', {
    token: admin,
    data: { account, userName: `测试${account.slice(-6)}`, phone: '', password: initial, roleIds: [roleId] },
  });
  const first = await signInApi(request, account, initial);
  await call(request, 'POST', '/personal/password', {
    token: first.token,
    data: { oldPassword: initial, newPassword: password },
  });
  const { token, userId } = await signInApi(request, account, password);
  return { account, password, token, userId };
}
