import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../../config';
import type { Db } from '../../db/index';
import { AppError } from '../../errors';
import { ErrorCode } from '../../../shared/api/envelope';
import type {
  LoginBody,
  LoginResult,
  MenuResult,
  RoleFunctionResult,
  UserInfo,
} from '../../../shared/api/auth';
import {
  ADMIN_ROLE,
  DEFAULT_ROLE,
  VOLUNTEER_HOME,
  VOLUNTEER_ROLE,
  allLeafKeys,
  filterModules,
  moduleFirstPath,
} from '../../../shared/menu/catalogue';
import { rolesMayUse } from '../../../shared/menu/reserved';
import * as repo from './auth.repo';
import { DUMMY_HASH_PROMISE, verifyPassword } from './password';
import { avatarUrl } from '../org/avatar';
import { clientAddress } from '../../client-address';

/** The signed-in caller, as every later module sees it. */
export interface SessionUser {
  id: number;
  account: string;
  userName: string;
  roles: string[];
  tokenHash: string;
}

/** A session's caller before their roles are read (see lookup). */
export type SessionRef = Omit<SessionUser, 'roles'>;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Roles as the spec hands them out: no role at all means the default role (office.md §6). */
const withDefaultRole = (roles: string[]): string[] => (roles.length ? roles : [DEFAULT_ROLE]);

/** A person's roles, as the spec hands them out (withDefaultRole). */
export async function effectiveRoles(db: Db, userId: number): Promise<string[]> {
  return withDefaultRole(await repo.rolesOf(db, userId));
}

/**
 * The menu leaf keys a set of roles may see; viviHignAdmin sees all. A reserved entry (系统日志)
 * counts only for the roles it is reserved to (shared/menu/reserved.ts).
 */
export async function grantedKeys(db: Db, roles: string[]): Promise<Set<string> | 'all'> {
  if (roles.includes(ADMIN_ROLE)) return 'all';
  const known = new Set(allLeafKeys());
  return new Set(
    (await repo.menuKeysOfRoles(db, roles)).filter((k) => known.has(k) && rolesMayUse(roles, k)),
  );
}

/** An address's counter (`ip:…`, or a scoped one such as `dav:ip:…`), which gets a larger allowance. */
const isAddressKey = (key: string) => /^(?:(?!name:)[a-z]+:)?ip:/.test(key);

/**
 * What to answer a sign-in whose name has no account but that another module knows (a phone
 * whose registration waits or was refused): the hash the typed password must match, and the
 * answer then given. A wrong password answers as for any unknown name.
 */
export type UnknownAccountHook = (
  login: string,
) => Promise<{ passwordHash: string; answer: AppError } | null>;

/** How long a failed sign-in is remembered when no lock is running. */
const FAILURE_WINDOW_MS = 30 * 60_000;

/** A sign-in attempt counted as a failure before its password is checked (reserveFailure). */
interface Reserved {
  /** What a wrong password answers. */
  wrong: AppError;
  /** When it was counted: an address row still stamped so has seen no failure since. */
  at: number;
  /** Each key's locked_until before it was counted (in the order of the keys). */
  priorLocks: number[];
}

export function createAuthService(db: Db, config: Config) {
  const now = () => Date.now();
  let unknownAccount: UnknownAccountHook | undefined;

  /**
   * Free failures before delays start. An address gets four times an account's allowance: it
   * is there to stop password spraying across accounts, and several tablets may share one
   * address behind the museum's router, so one person's typos must not lock out the others.
   */
  const freeFailures = (key: string) => (isAddressKey(key) ? 4 : 1) * config.loginFreeFailures;

  /** Growing delay after the free failures: 30 s, 60 s, 120 s … capped at 15 minutes. */
  function lockFor(key: string, failures: number): number {
    const over = failures - freeFailures(key);
    if (over < 0) return 0;
    return Math.min(30_000 * 2 ** over, 15 * 60_000);
  }

  const lockedError = (seconds: number) =>
    new AppError(ErrorCode.loginLocked, `登录失败次数过多，请 ${seconds} 秒后再试`, 200, {
      retryAfter: seconds,
    });

  /**
   * Counts this attempt as a failure on every key before its password is checked, in one
   * transaction with the lock check (SQLite runs one at a time), and answers what a wrong
   * password will say. Counting first means a burst of parallel guesses is not all checked
   * before the first of them locks the account: each sees the ones before it (issue 16 §2's
   * class: a guess must count before anything answers it). A right password takes its count
   * back (refund). Refuses while any key is locked. Failures older than the window are
   * forgotten, so a shared address is not locked by typos spread over weeks.
   */
  async function reserveFailure(
    keys: string[],
    wrongText: (left: number) => string = (left) => `账号或密码错误，还可尝试 ${left} 次`,
  ): Promise<Reserved> {
    return db.transaction().execute(async (trx) => {
      await repo.lockAttempts(trx, keys);
      const t = now();
      const prior = await Promise.all(keys.map((key) => repo.getAttempt(trx, key)));
      for (const a of prior) {
        if (a && a.locked_until > t) throw lockedError(Math.ceil((a.locked_until - t) / 1000));
      }
      let left = Infinity;
      let lockedSeconds = 0;
      for (const [i, key] of keys.entries()) {
        const p = prior[i];
        const recent = p && p.updated_at > t - FAILURE_WINDOW_MS;
        const failures = (recent ? p.failures : 0) + 1;
        const lock = lockFor(key, failures);
        await repo.putAttempt(trx, key, failures, lock ? t + lock : 0, t);
        left = Math.min(left, freeFailures(key) - failures);
        lockedSeconds = Math.max(lockedSeconds, Math.ceil(lock / 1000));
      }
      const wrong =
        lockedSeconds > 0 ? lockedError(lockedSeconds) : new AppError(ErrorCode.loginFailed, wrongText(left));
      return { wrong, at: t, priorLocks: prior.map((a) => a?.locked_until ?? 0) };
    });
  }

  /**
   * Takes back a reserved failure of a right password: the person's counter is cleared, the
   * address's loses one count, and the lock that count set is lifted unless another failure
   * was counted since (its lock stands). A success must not reset the address's count, or one
   * valid account could launder a password-spraying run.
   */
  async function refundFailure(personKey: string, addressKey: string, reserved: Reserved) {
    await db.transaction().execute(async (trx) => {
      await repo.lockAttempts(trx, [personKey, addressKey]);
      await repo.clearAttempt(trx, personKey);
      const a = await repo.getAttempt(trx, addressKey);
      if (!a) return;
      const failures = Math.max(0, a.failures - 1);
      if (failures === 0) return repo.clearAttempt(trx, addressKey);
      const untouched = a.updated_at === reserved.at;
      const lockedUntil = untouched ? (reserved.priorLocks[1] ?? 0) : a.locked_until;
      await repo.putAttempt(trx, addressKey, failures, lockedUntil, a.updated_at);
    });
  }

  /**
   * The live session behind a raw token, in one indexed read: who is calling, with their roles.
   * The flood guard keys by it before the request is counted, so it must stay one cheap read.
   */
  async function lookup(token: string): Promise<SessionUser | undefined> {
    const tokenHash = hashToken(token);
    const s = await repo.findSession(db, tokenHash);
    if (!s || s.expires_at <= now() || !s.enabled) return undefined;
    return {
      id: s.user_id,
      account: s.account,
      userName: s.user_name,
      tokenHash,
      roles: withDefaultRole(s.roles),
    };
  }

  /** The caller of a session found another way (an app password), with their roles. */
  async function withRoles(ref: SessionRef): Promise<SessionUser> {
    return { ...ref, roles: await effectiveRoles(db, ref.id) };
  }

  return {
    /** Registers the answer for names without an account that another module knows. */
    onUnknownAccount(hook: UnknownAccountHook) {
      unknownAccount = hook;
    },

    async login(body: LoginBody, ip: string): Promise<LoginResult> {
      const username = body.username.trim();
      const user = await repo.findUserForLogin(db, username);
      // Count failures against the person, whichever alias (account or phone) was typed; an
      // unknown name gets a key of its own, and the answers are identical either way.
      const personKey = user ? `user:${user.id}` : `name:${username.toLowerCase()}`;
      const addressKey = `ip:${clientAddress(ip)}`;
      const reserved = await reserveFailure([personKey, addressKey]);
      // A name without an account may still be a registered phone (README "Self-registration").
      const known = user ? null : ((await unknownAccount?.(username)) ?? null);
      // Verify even for unknown accounts so the answer time does not reveal which accounts exist.
      const ok = await verifyPassword(
        body.password,
        user?.password_hash ?? known?.passwordHash ?? (await DUMMY_HASH_PROMISE),
      );
      if (!user && known && ok) {
        // The registrant themself: no failure counted, and told where their registration stands.
        await refundFailure(personKey, addressKey, reserved);
        throw known.answer;
      }
      if (!user || !ok) throw reserved.wrong;
      await refundFailure(personKey, addressKey, reserved);
      if (!user.enabled) throw new AppError(ErrorCode.accountDisabled, '该账号已停用，请联系管理员');

      const token = randomBytes(32).toString('base64url');
      const t = now();
      await repo.insertSession(db, {
        token_hash: hashToken(token),
        user_id: user.id,
        created_at: t,
        expires_at: t + config.sessionMs,
        ip,
      });
      await repo.deleteExpiredSessions(db, t);
      return {
        token,
        userId: user.id,
        userName: user.user_name,
        image: avatarUrl(user.id, user.avatar),
        phone: user.phone ?? '',
      };
    },

    /**
     * Checks a secret that is not a sign-in (an app password of a WebDAV client, the password
     * re-entered to make one) under the sign-in throttle's own mechanism: the attempt is counted
     * against the person and the address before `verify` runs, and taken back when it is right.
     * `scope` keeps a throttle's counts apart from sign-in's (README "Mount the drive": a Windows
     * client retrying a revoked app password must not lock its owner out of the web app).
     * Throws the lock (登录失败次数过多…) or `wrongText` with the attempts left.
     */
    async guard(
      who: { userId: number | null; typed: string },
      ip: string,
      verify: () => Promise<boolean>,
      opts: { scope?: string; wrongText?: (left: number) => string } = {},
    ): Promise<void> {
      const scope = opts.scope ?? '';
      const personKey =
        who.userId !== null ? `${scope}user:${who.userId}` : `${scope}name:${who.typed.toLowerCase()}`;
      const addressKey = `${scope}ip:${clientAddress(ip)}`;
      const reserved = await reserveFailure([personKey, addressKey], opts.wrongText);
      if (!(await verify())) throw reserved.wrong;
      await refundFailure(personKey, addressKey, reserved);
    },

    async logout(tokenHash: string) {
      await repo.deleteSession(db, tokenHash);
    },

    lookup,
    withRoles,

    /** Resolves a raw token to the caller, or undefined for a missing, unknown, expired or disabled one. */
    resolve: lookup,

    async menu(user: SessionUser): Promise<MenuResult> {
      const granted = await grantedKeys(db, user.roles);
      const modules = filterModules(granted).map((m) => ({
        key: m.key,
        title: m.title,
        icon: m.icon,
        items: m.items,
      }));
      return { modules, grantedKeys: granted === 'all' ? allLeafKeys() : [...granted] };
    },

    /**
     * firstUrl: the first page the user may open, the workbench when they may open it; the
     * volunteer's phone view for a volunteer with no staff page.
     */
    async roleFunction(user: SessionUser): Promise<RoleFunctionResult> {
      const granted = await grantedKeys(db, user.roles);
      const modules = filterModules(granted);
      const home = modules.find((m) => m.key === 'home');
      const first = home ?? modules[0];
      const none = user.roles.includes(VOLUNTEER_ROLE) ? VOLUNTEER_HOME : '/personal/base';
      return { roles: user.roles, firstUrl: first ? moduleFirstPath(first) : none };
    },

    async userInfo(user: SessionUser): Promise<UserInfo> {
      const u = await repo.findUserById(db, user.id);
      if (!u) throw new AppError(ErrorCode.sessionExpired, '登录超时，请重新登录', 999);
      return {
        userId: u.id,
        account: u.account,
        userName: u.user_name,
        image: avatarUrl(u.id, u.avatar),
        phone: u.phone ?? '',
        roles: user.roles,
        roleNames: await repo.roleNamesOf(db, user.roles),
        departments: await repo.departmentsOf(db, u.id),
        mustChangePassword: Number(u.must_change_password) === 1,
      };
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
