import { hashPassword } from '../../src/server/modules/auth/password';
import * as orgRepo from '../../src/server/modules/org/org.repo';
import { DEMO_PASSWORD, type TestServer } from './harness';
import { M } from './util';
import { jsonCalls } from './volunteer-util';

/**
 * What the Books suites (books, books-stats, books-admin) share: the two records' paths, the
 * librarian's spec GET writes, a book added with sensible defaults, a reader's request, and
 * readers made with their own role. The server and the librarian's token are getters because each
 * suite starts its server in beforeAll, after these helpers are made.
 */

export const BOOK = `${M}/book/bsBookInfo`;
export const APPLY = `${M}/book/bsBookApproval`;

export function bookCalls(server: () => TestServer, librarian: () => string) {
  const { post, ok } = jsonCalls(server);
  let serial = 0;
  return {
    read: (path: string, token = librarian()) => server().call('GET', path, { token }),
    /** A spec GET that writes on an application: query parameters and the token header. */
    act: (call: string, params: Record<string, unknown>, token = librarian()) =>
      server().call(
        'GET',
        `${APPLY}/${call}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`,
        { token, headers: { token } },
      ),
    /** A book with 3 copies (and any other fields), titled `${prefix}${n}`, answered by id. */
    addBook: async (prefix: string, fields: Record<string, unknown> = {}): Promise<number> => {
      serial += 1;
      return ok(
        await post(`${BOOK}/add`, librarian(), {
          type: 1,
          title: `${prefix}${serial}`,
          author: '某某',
          publisher: '文物出版社',
          location: '资料室 1 架 1 层',
          totalCount: 3,
          lendMode: 1,
          ...fields,
        }),
      ).id as number;
    },
    /** A reader asks to borrow `bookId` for 14 days (or as `extra` says); the raw answer. */
    ask: (token: string, bookId: number, extra: Record<string, unknown> = {}) =>
      post(`${APPLY}/add`, token, { bookId, applyType: 1, borrowDays: 14, ...extra }),
  };
}

/**
 * Readers with a role of their own holding `menu`: accounts `${prefix}${i}` named `${name}${i}`,
 * each in the department `depts[i - 1]` names (none when null or missing), signed in.
 */
export async function makeReaders(
  s: TestServer,
  opts: {
    prefix: string;
    name: string;
    count: number;
    menu: string[];
    phone: string;
    depts?: (string | null)[];
  },
): Promise<{ token: string; id: number }[]> {
  const roleId = await orgRepo.insertRole(s.db, {
    code: `${opts.prefix}Reader`,
    name: '读者',
    remark: '图书借阅',
  });
  await orgRepo.setRoleMenus(s.db, roleId, opts.menu);
  const hash = await hashPassword(DEMO_PASSWORD);
  const out: { token: string; id: number }[] = [];
  for (let i = 1; i <= opts.count; i++) {
    const account = `${opts.prefix}${String(i).padStart(2, '0')}`;
    const id = await orgRepo.insertUser(s.db, {
      account,
      user_name: `${opts.name}${i}`,
      phone: `${opts.phone}${String(i).padStart(4, '0')}`,
      password_hash: hash,
      superior_id: null,
    });
    await orgRepo.setUserRoles(s.db, id, [roleId]);
    const dept = opts.depts?.[i - 1];
    if (dept) {
      const row = await s.db
        .selectFrom('department')
        .select('id')
        .where('name', '=', dept)
        .executeTakeFirstOrThrow();
      await orgRepo.setUserDepts(s.db, id, [Number(row.id)]);
    }
    out.push({ token: await s.login(account), id: Number(id) });
  }
  return out;
}
