import { hashToken } from '../../src/server/modules/auth/auth.service';
import { hashPassword } from '../../src/server/modules/auth/password';
import * as orgRepo from '../../src/server/modules/org/org.repo';
import { DEMO_PASSWORD, type TestServer } from './harness';

/** Helpers shared by the API tests (not a test file itself). */

export const M = '/singleMuseum';

/** A valid 1×1 transparent PNG. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * An unbound upload of `token`'s for a record's file or image field (`table` is the record's
 * name): a 1×1 PNG, or a small PDF named `name`, unless `bytes` are given. Answers its id.
 */
export async function attachUpload(
  s: Pick<TestServer, 'url'>,
  token: string,
  table: string,
  kind: 'file' | 'image',
  name = 'sample.pdf',
  bytes?: Buffer,
): Promise<number> {
  const fd = new FormData();
  fd.append('tableName', table);
  const body = bytes ?? (kind === 'image' ? PNG_1X1 : Buffer.from('%PDF-1.4 样例'));
  fd.append('file', new Blob([new Uint8Array(body)]), kind === 'image' ? 'p.png' : name);
  const res = await fetch(`${s.url}${M}/attach/${kind === 'image' ? 'uploadimage' : 'upload'}`, {
    method: 'POST',
    headers: { token },
    body: fd,
  });
  const json = (await res.json()) as { success: boolean; result: { attId: number } };
  if (!json.success) throw new Error(`upload refused: ${JSON.stringify(json)}`);
  return json.result.attId;
}

/** The demo phone of the person at `index` in DEMO_PEOPLE (director = 0). */
export const demoPhone = (index: number) => `1380000${String(index).padStart(4, '0')}`;

/** A sign-in call that answers the whole response, for tests of failures. */
export function loginCall(s: TestServer, username: string, password = DEMO_PASSWORD) {
  return s.call('POST', `${M}/login/webLogin`, { body: { username, password } });
}

/** The `failed` envelope every business refusal answers with. */
export function failure(code: number, message: string, result: unknown = null) {
  return { success: false, code, message, result };
}

/** Removes every sign-in failure counter, so a test starts from a clean slate. */
export async function clearLoginAttempts(s: TestServer) {
  await s.db.deleteFrom('login_attempt').execute();
}

/** Ends one session by moving its expiry into the past. */
export async function expireSession(s: TestServer, token: string) {
  await s.db
    .updateTable('session')
    .set({ expires_at: Date.now() - 1000 })
    .where('token_hash', '=', hashToken(token))
    .execute();
}

export async function sessionCount(s: TestServer, userId: number) {
  const rows = await s.db.selectFrom('session').select('token_hash').where('user_id', '=', userId).execute();
  return rows.length;
}

export async function userIdOf(s: TestServer, account: string): Promise<number> {
  const row = await s.db
    .selectFrom('user')
    .select('id')
    .where('account', '=', account)
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface Dept {
  id: number;
  name: string;
  parentId: number | null;
  sort: number;
  userCount: number;
  children: Dept[];
}

/** The department tree flattened, parents before children. */
export function flatten(tree: Dept[]): Dept[] {
  return tree.flatMap((d) => [d, ...flatten(d.children)]);
}

export async function deptTree(s: TestServer, token: string): Promise<Dept[]> {
  const res = await s.call('GET', `${M}/sysDept/tree`, { token });
  if (!res.body?.success) throw new Error(`tree failed: ${JSON.stringify(res.body)}`);
  return res.body.result as Dept[];
}

export async function deptIdByName(s: TestServer, token: string, name: string): Promise<number> {
  const found = flatten(await deptTree(s, token)).filter((d) => d.name === name);
  if (found.length !== 1) throw new Error(`expected one department ${name}, found ${found.length}`);
  return found[0]!.id;
}

export async function roleIdByCode(s: TestServer, token: string, code: string): Promise<number> {
  const res = await s.call('GET', `${M}/sysRole/list`, { token });
  const role = (res.body.result as { roleId: number; code: string }[]).find((r) => r.code === code);
  if (!role) throw new Error(`no role ${code}`);
  return role.roleId;
}

/** Uploads an avatar as multipart/form-data with the `token` header. */
export async function uploadAvatar(
  s: TestServer,
  token: string,
  bytes: Uint8Array,
  opts: { filename?: string; type?: string } = {},
) {
  const fd = new FormData();
  fd.append(
    'file',
    new Blob([new Uint8Array(bytes)], { type: opts.type ?? 'image/png' }),
    opts.filename ?? 'a.png',
  );
  const res = await fetch(`${s.url}${M}/personal/avatar`, { method: 'POST', headers: { token }, body: fd });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

/**
 * Signs in a new person whose one role holds exactly `keys` (a role replaces the default
 * 普通员工, which every member of staff without a role holds): the outsider of a module the
 * default role reads, such as the reading room.
 */
export async function personWithMenu(s: TestServer, account: string, keys: string[]): Promise<string> {
  const role = await orgRepo.insertRole(s.db, { code: `only${account}`, name: `仅${account}`, remark: '' });
  await orgRepo.setRoleMenus(s.db, role, keys);
  const id = await orgRepo.insertUser(s.db, {
    account,
    user_name: account,
    phone: null,
    password_hash: await hashPassword(DEMO_PASSWORD),
    superior_id: null,
  });
  await orgRepo.setUserRoles(s.db, id, [role]);
  return s.login(account);
}
