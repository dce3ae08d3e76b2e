import { createHash, randomInt } from 'node:crypto';
import {
  APP_PASSWORD_ALPHABET,
  APP_PASSWORD_LENGTH,
  APP_PASSWORD_MAX,
  type AppPasswordCreate,
  type AppPasswordList,
  type AppPasswordMade,
  looksLikeAppPassword,
  normalizeAppPassword,
} from '../../../shared/api/app-password';
import { ErrorCode } from '../../../shared/api/envelope';
import { formatMuseumTime } from '../../../shared/rules/museum-time';
import type { Db } from '../../db/index';
import { AppError, invalid, notFound } from '../../errors';
import { addressOf } from '../syslog/syslog.service';
import * as authRepo from './auth.repo';
import type { AuthService, SessionRef, SessionUser } from './auth.service';
import * as repo from './app-password.repo';
import { DUMMY_HASH_PROMISE, hashPassword, verifyPassword } from './password';

/*
 * App passwords (issue 26): what a WebDAV client signs in with, never the sign-in password.
 *
 * - Made in 个人中心 after the sign-in password is typed again (a stolen session alone cannot
 *   mint a standing way in), at most APP_PASSWORD_MAX live per person; 24 characters from 31
 *   letters and digits without look-alikes (about 2^119), shown once in groups of four.
 * - Kept as the project's scrypt hash, plus `lookup` (16 hex characters of the password's
 *   SHA-256) to pick the one row to verify.
 * - Checked under the sign-in throttle's mechanism (auth.guard) in its own scope `dav:`: failures
 *   count per person and per address before scrypt runs, and a wrong password, a revoked one and a
 *   sign-in password all count. Its own scope, so a Windows client retrying a revoked password
 *   locks out WebDAV for its owner, never their web sign-in.
 * - A right password is remembered for VERIFIED_MS by the hash of what was typed, so a client's
 *   hundred PROPFINDs do not run scrypt a hundred times; each request still reads the row, so a
 *   revocation or a disabled account stops the very next request.
 * - A password change or reset, or disabling the account, revokes them all (auth.repo
 *   deleteSessionsOfUser).
 */

const VERIFIED_MS = 5 * 60_000;
const VERIFIED_KEPT = 5000;
/** Last-used time and address are written at most this often per password. */
const TOUCH_MS = 60_000;

const DAV_SCOPE = 'dav:';
export const DAV_WRONG = (left: number) => `用户名或应用密码错误，还可尝试 ${left} 次`;
export const NOT_APP_PASSWORD = (left: number) =>
  `请使用在“个人中心”新建的应用密码，不能使用登录密码（还可尝试 ${left} 次）`;
export const REVOKED = '该应用密码已撤销，请在“个人中心”新建应用密码后重新连接';

/** The password's lookup key: 16 hex characters of its SHA-256 (says nothing useful about 119 bits). */
function lookupOf(normalized: string): string {
  return createHash('sha256').update(normalized).digest('hex').slice(0, 16);
}

function generate(): string {
  let s = '';
  for (let i = 0; i < APP_PASSWORD_LENGTH; i++)
    s += APP_PASSWORD_ALPHABET[randomInt(APP_PASSWORD_ALPHABET.length)];
  return s;
}

/** `abcdefgh…` → `abcd-efgh-…`, as it is shown (and may be typed). */
export function groupAppPassword(p: string): string {
  return p.match(/.{1,4}/g)!.join('-');
}

export function createAppPasswords(deps: { db: Db; auth: AuthService }) {
  const { db, auth } = deps;
  const verified = new Map<string, { passwordId: number; userId: number; until: number }>();
  const touched = new Map<number, number>();

  const memoKey = (typedUser: string, normalized: string) =>
    createHash('sha256').update(`${typedUser.toLowerCase()}\n${normalized}`).digest('hex');

  function remember(key: string, passwordId: number, userId: number) {
    if (verified.size >= VERIFIED_KEPT) {
      const oldest = verified.keys().next().value;
      if (oldest !== undefined) verified.delete(oldest);
    }
    verified.set(key, { passwordId, userId, until: Date.now() + VERIFIED_MS });
  }

  async function touch(passwordId: number, ip: string) {
    const now = Date.now();
    if ((touched.get(passwordId) ?? 0) > now - TOUCH_MS) return;
    touched.set(passwordId, now);
    if (touched.size > VERIFIED_KEPT) touched.delete(touched.keys().next().value!);
    await repo.touchPassword(db, passwordId, now, addressOf(ip));
  }

  /** The caller of a live password, or undefined when it was revoked or its account disabled since. */
  async function ownerOf(passwordId: number): Promise<SessionRef | undefined> {
    const row = await repo.liveWithOwner(db, passwordId);
    if (!row) return undefined;
    if (!row.enabled) throw new AppError(ErrorCode.accountDisabled, '该账号已停用，请联系管理员');
    return { id: row.user_id, account: row.account, userName: row.user_name, tokenHash: '' };
  }

  return {
    async list(userId: number): Promise<AppPasswordList> {
      const rows = await repo.livePasswords(db, userId);
      return {
        list: rows.map((r) => ({
          id: r.id,
          name: r.name,
          createdAt: formatMuseumTime(Number(r.created_at)),
          lastUsedAt: r.last_used_at === null ? null : formatMuseumTime(Number(r.last_used_at)),
          lastUsedIp: r.last_used_ip,
        })),
        max: APP_PASSWORD_MAX,
      };
    },

    /** Makes an app password once the person's sign-in password is confirmed (throttled like sign-in). */
    async create(user: SessionUser, body: AppPasswordCreate, ip: string): Promise<AppPasswordMade> {
      const u = await authRepo.findUserById(db, user.id);
      if (!u) throw notFound('账号不存在');
      await auth.guard(
        { userId: u.id, typed: u.account },
        ip,
        () => verifyPassword(body.password, u.password_hash),
        {
          wrongText: (left) => `登录密码不正确，还可尝试 ${left} 次`,
        },
      );
      if ((await repo.livePasswordCount(db, u.id)) >= APP_PASSWORD_MAX) {
        throw invalid(`应用密码最多 ${APP_PASSWORD_MAX} 个，请先撤销不再使用的应用密码`);
      }
      const plain = generate();
      const id = await repo.insertPassword(db, {
        user_id: u.id,
        name: body.name,
        lookup: lookupOf(plain),
        hash: await hashPassword(plain),
        created_at: Date.now(),
      });
      return { id, name: body.name, account: u.account, appPassword: groupAppPassword(plain) };
    },

    async revoke(userId: number, id: number) {
      if (!(await repo.revokePassword(db, userId, id, Date.now()))) {
        throw notFound('该应用密码不存在或已撤销，请刷新后重试');
      }
      for (const [k, v] of verified) if (v.passwordId === id) verified.delete(k);
    },

    /**
     * Who a WebDAV client is, from the user name (account or phone, as at sign-in) and password
     * of its Basic credentials. Throws AppError: loginFailed (wrong, revoked, or not an app
     * password), loginLocked (the throttle; `extra.retryAfter` seconds), accountDisabled.
     */
    async authenticate(typedUser: string, typedPassword: string, ip: string): Promise<SessionRef> {
      const username = typedUser.trim();
      const normalized = normalizeAppPassword(typedPassword);
      const key = memoKey(username, normalized);
      const known = verified.get(key);
      if (known && known.until > Date.now()) {
        const who = await ownerOf(known.passwordId);
        if (who) {
          await touch(known.passwordId, ip);
          return who;
        }
        verified.delete(key);
      }

      const user = await authRepo.findUserForLogin(db, username);
      const shaped = looksLikeAppPassword(typedPassword);
      let match: number | null = null;
      let revoked = false;
      await auth
        .guard(
          { userId: user?.id ?? null, typed: username },
          ip,
          async () => {
            if (!user || !shaped) {
              // The same work as a real check, so the answer's timing says nothing about the account.
              await verifyPassword(normalized, await DUMMY_HASH_PROMISE);
              return false;
            }
            for (const c of await repo.candidates(db, user.id, lookupOf(normalized))) {
              if (!(await verifyPassword(normalized, c.hash))) continue;
              if (c.revoked_at !== null) revoked = true;
              else match = c.id;
            }
            return match !== null;
          },
          { scope: DAV_SCOPE, wrongText: shaped ? DAV_WRONG : NOT_APP_PASSWORD },
        )
        .catch((err: unknown) => {
          // The count stands; a revoked password is told so (only its holder can know it).
          if (revoked && err instanceof AppError && err.code === ErrorCode.loginFailed) {
            throw new AppError(ErrorCode.loginFailed, REVOKED);
          }
          throw err;
        });
      const passwordId = match as unknown as number;
      const who = await ownerOf(passwordId);
      if (!who) throw new AppError(ErrorCode.loginFailed, REVOKED);
      remember(key, passwordId, who.id);
      await touch(passwordId, ip);
      return who;
    },
  };
}
export type AppPasswords = ReturnType<typeof createAppPasswords>;
