import { randomInt } from 'node:crypto';
import { DEFAULT_ROLE, VOLUNTEER_ROLE } from '../../../shared/menu/catalogue';
import type { Db } from '../../db/index';
import { hashPassword } from '../auth/password';
import { lockOrg } from '../org/org.repo';

/**
 * The adult volunteer's login account (issue 20; README "Volunteer accounts and the phone view"),
 * made when the interview passes, in the pass's transaction:
 *
 * - A phone already on an account (a staff member who volunteers, or a volunteer who left and
 *   came back) links that account and adds the volunteer role; no password is issued (they keep
 *   theirs). An account without roles also gets the default role, so its staff menu stays.
 * - Otherwise a new account: the volunteer number as its account name (the phone signs in too),
 *   the volunteer role only, and a random initial password that must be changed at the first
 *   sign-in (`must_change_password`). The password exists only in the pass's answer and the SMS;
 *   the server keeps its hash.
 *
 * Students have no accounts (they use the applet): this is for adults only.
 */

export interface IssuedAccount {
  userId: number;
  account: string;
  /** True when an existing account (same phone) was linked instead of a new one made. */
  linked: boolean;
  /** The one-time initial password of a new account (never stored in the clear). */
  initialPassword?: string;
}

/** Letters and digits a person can read off a screen without confusing (no 0/O, 1/l/I). */
const LETTERS = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';

/** 10 characters, at least one letter and one digit (passwordProblem's two kinds). */
export function initialPassword(): string {
  const all = LETTERS + DIGITS;
  const chars = [LETTERS[randomInt(LETTERS.length)]!, DIGITS[randomInt(DIGITS.length)]!];
  while (chars.length < 10) chars.push(all[randomInt(all.length)]!);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

/** A password and its hash made before the transaction (hashing is slow; the write lock is not). */
export async function preparePassword(): Promise<{ password: string; hash: string }> {
  const password = initialPassword();
  return { password, hash: await hashPassword(password) };
}

async function roleId(trx: Db, code: string): Promise<number> {
  const r = await trx.selectFrom('role').select('id').where('code', '=', code).executeTakeFirst();
  if (!r) throw new Error(`built-in role ${code} is missing (ensureBuiltinRoles runs at start)`);
  return r.id;
}

/** The account of the volunteer with this phone: linked when it exists, else made. */
export async function issueAccount(
  trx: Db,
  v: { name: string; phone: string; number: string },
  prepared: { password: string; hash: string },
  time: number,
): Promise<IssuedAccount> {
  await lockOrg(trx);
  const volunteerRole = await roleId(trx, VOLUNTEER_ROLE);
  const existing = await trx
    .selectFrom('user')
    .select(['id', 'account'])
    .where('phone', '=', v.phone)
    .executeTakeFirst();
  if (existing) {
    const held = (
      await trx.selectFrom('user_role').select('role_id').where('user_id', '=', existing.id).execute()
    ).map((r) => r.role_id);
    const add = held.includes(volunteerRole) ? [] : [volunteerRole];
    // No roles meant the default role; holding the volunteer role alone would take it away.
    if (!held.length) add.push(await roleId(trx, DEFAULT_ROLE));
    if (add.length)
      await trx
        .insertInto('user_role')
        .values(add.map((role_id) => ({ user_id: existing.id, role_id })))
        .execute();
    return { userId: existing.id, account: existing.account, linked: true };
  }
  const taken = await trx.selectFrom('user').select('id').where('account', '=', v.number).executeTakeFirst();
  const account = taken ? v.phone : v.number;
  const row = await trx
    .insertInto('user')
    .values({
      account,
      user_name: v.name,
      phone: v.phone,
      avatar: null,
      password_hash: prepared.hash,
      enabled: 1,
      superior_id: null,
      created_at: time,
      updated_at: time,
      must_change_password: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx.insertInto('user_role').values({ user_id: row.id, role_id: volunteerRole }).execute();
  return { userId: row.id, account, linked: false, initialPassword: prepared.password };
}
