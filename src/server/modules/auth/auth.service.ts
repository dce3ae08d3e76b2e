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
  allLeafKeys,
  filterModules,
  moduleFirstPath,
} from '../../../shared/menu/catalogue';
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
export async function effectiveRoles(db: Db, userId: number): Promise<string[]> {
  const roles = await repo.rolesOf(db, userId);
  return roles.length ? roles : [DEFAULT_ROLE];
}

/** The menu leaf keys a set of roles may see; viviHignAdmin sees all. */
export async function grantedKeys(db: Db, roles: string[]): Promise<Set<string> | 'all'> {
  if (roles.includes(ADMIN_ROLE)) return 'all';
  const known = new Set(allLeafKeys());
  return new Set((await repo.menuKeysOfRoles(db, roles)).filter((k) => known.has(k)));
}

/** How long a failed sign-in is remembered when no lock is running. */
const FAILURE_WINDOW_MS = 30 * 60_000;

export function createAuthService(db: Db, config: Config) {
  const now = () => Date.now();

  /**
   * Free failures before delays start. An address gets four times an account's allowance: it
   * is there to stop password spraying across accounts, and several tablets may share one
   * address behind the museum's router, so one person's typos must not lock out the others.
   */
  const freeFailures = (key: string) => (key.startsWith('ip:') ? 4 : 1) * config.loginFreeFailures;

  /** Growing delay after the free failures: 30 s, 60 s, 120 s … capped at 15 minutes. */
  function lockFor(key: string, failures: number): number {
    const over = failures - freeFailures(key);
    if (over < 0) return 0;
    return Math.min(30_000 * 2 ** over, 15 * 60_000);
  }

  async function assertNotLocked(keys: string[]) {
    for (const key of keys) {
      const a = await repo.getAttempt(db, key);
      if (a && a.locked_until > now()) {
        const seconds = Math.ceil((a.locked_until - now()) / 1000);
        throw new AppError(ErrorCode.loginLocked, `登录失败次数过多，请 ${seconds} 秒后再试`, 200, {
          retryAfter: seconds,
        });
      }
    }
  }

  /**
   * Records a failure on every key and answers with how many tries remain before a delay.
   * Failures older than the window are forgotten, so a shared address is not locked by typos
   * spread over weeks.
   */
  async function recordFailure(keys: string[]): Promise<never> {
    let left = Infinity;
    let lockedSeconds = 0;
    for (const key of keys) {
      const prior = await repo.getAttempt(db, key);
      const recent = prior && (prior.updated_at > now() - FAILURE_WINDOW_MS || prior.locked_until > now());
      const failures = (recent ? prior.failures : 0) + 1;
      const lock = lockFor(key, failures);
      await repo.putAttempt(db, key, failures, lock ? now() + lock : 0, now());
      left = Math.min(left, freeFailures(key) - failures);
      lockedSeconds = Math.max(lockedSeconds, Math.ceil(lock / 1000));
    }
    if (lockedSeconds > 0) {
      throw new AppError(ErrorCode.loginLocked, `登录失败次数过多，请 ${lockedSeconds} 秒后再试`, 200, {
        retryAfter: lockedSeconds,
      });
    }
    throw new AppError(ErrorCode.loginFailed, `账号或密码错误，还可尝试 ${left} 次`);
  }

  /**
   * The live session behind a raw token, in one indexed read: who is calling, without their
   * roles. The flood guard keys by it before the request is counted, so it must stay cheap.
   */
  async function lookup(token: string): Promise<SessionRef | undefined> {
    const tokenHash = hashToken(token);
    const s = await repo.findSession(db, tokenHash);
    if (!s || s.expires_at <= now() || !s.enabled) return undefined;
    return { id: s.user_id, account: s.account, userName: s.user_name, tokenHash };
  }

  /** The caller of a looked-up session, with their roles (read once the request is let in). */
  async function withRoles(ref: SessionRef): Promise<SessionUser> {
    return { ...ref, roles: await effectiveRoles(db, ref.id) };
  }

  return {
    async login(body: LoginBody, ip: string): Promise<LoginResult> {
      const username = body.username.trim();
      const user = await repo.findUserForLogin(db, username);
      // Count failures against the person, whichever alias (account or phone) was typed; an
      // unknown name gets a key of its own, and the answers are identical either way.
      const personKey = user ? `user:${user.id}` : `name:${username.toLowerCase()}`;
      const keys = [personKey, `ip:${clientAddress(ip)}`];
      await assertNotLocked(keys);
      // Verify even for unknown accounts so the answer time does not reveal which accounts exist.
      const ok = await verifyPassword(body.password, user?.password_hash ?? (await DUMMY_HASH_PROMISE));
      if (!user || !ok) return recordFailure(keys);
      if (!user.enabled) throw new AppError(ErrorCode.accountDisabled, '该账号已停用，请联系管理员');
      // Only the person's counter is cleared: a success must not reset the address's count,
      // or one valid account could launder a password-spraying run.
      await repo.clearAttempt(db, personKey);

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

    async logout(tokenHash: string) {
      await repo.deleteSession(db, tokenHash);
    },

    lookup,
    withRoles,

    /** Resolves a raw token to the caller, or undefined for a missing, unknown, expired or disabled one. */
    async resolve(token: string): Promise<SessionUser | undefined> {
      const ref = await lookup(token);
      return ref && withRoles(ref);
    },

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

    /** firstUrl: the first page the user may open, the workbench when they may open it. */
    async roleFunction(user: SessionUser): Promise<RoleFunctionResult> {
      const granted = await grantedKeys(db, user.roles);
      const modules = filterModules(granted);
      const home = modules.find((m) => m.key === 'home');
      const first = home ?? modules[0];
      return { roles: user.roles, firstUrl: first ? moduleFirstPath(first) : '/personal/base' };
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
      };
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
