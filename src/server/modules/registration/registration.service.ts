import { ErrorCode } from '../../../shared/api/envelope';
import {
  LOGIN_PENDING,
  PHONE_TAKEN,
  REGISTER_DONE,
  REGISTER_FREE_PER_ADDRESS,
  REGISTER_WINDOW_MS,
  loginRefused,
  registerThrottled,
  welcomeNotice,
  type RegisterBody,
  type RegisterDept,
} from '../../../shared/api/registration';
import { MOBILE_RE } from '../../../shared/records/validators';
import {
  REGISTRATION_APPROVED,
  REGISTRATION_REFUSED,
  staffRegistration,
} from '../../../shared/records/system/staff-registration';
import type { z } from 'zod';
import { clientAddress } from '../../client-address';
import type { Db } from '../../db/index';
import { AppError, invalid } from '../../errors';
import type { RecordService } from '../../records/records.service';
import * as authRepo from '../auth/auth.repo';
import type { AuthService } from '../auth/auth.service';
import { hashPassword } from '../auth/password';
import type { LiveBus } from '../notice/live';
import type { NoticeService } from '../notice/notice.service';
import type { OrgService } from '../org/org.service';
import * as repo from './registration.repo';

/** The grant of 人员审核: who sees registrations and decides them. */
export const PERSON_PENDING = 'system.personPending';

type Body = z.output<typeof RegisterBody>;

/**
 * Self-registration (README "Self-registration and pending staff"): the public page's calls,
 * the per-address throttle, the effects of the record's transitions (an approval creates the
 * account), the sign-in's answer for a registered phone, and the badge of those who decide.
 */
export function createRegistrationService(deps: {
  db: Db;
  org: OrgService;
  auth: AuthService;
  records: RecordService;
  bus: LiveBus;
  notices: Pick<NoticeService, 'notify'>;
  /** The server's log, for a live notice that could not be sent (the badge then waits for its refresh). */
  report?: (message: string, err: unknown) => void;
  now?: () => number;
}) {
  const { db, org, records, bus } = deps;
  const now = deps.now ?? Date.now;

  /** Tells everyone who decides registrations that the count changed (after a commit). */
  async function tellApprovers() {
    bus.publish(await repo.approverIds(db, PERSON_PENDING), ['registration']);
  }
  const tellSoon = () =>
    void tellApprovers().catch((err: unknown) => deps.report?.('registration live notice failed', err));
  const tellLater = () => tellSoon;

  /**
   * Counts one registration call against the address, as the sign-in counts failures (one row
   * in login_attempt, in a transaction with the check): REGISTER_FREE_PER_ADDRESS calls an hour
   * are free; after them each call sets a wait before the next one, growing as the sign-in's
   * delays do (30 s, 60 s, 120 s … 15 minutes), and a call during a wait is refused saying how
   * long. Every call counts, accepted or refused: the count limits the rows one address makes
   * for administrators to read, and the guessing of which phones are registered.
   */
  async function countCall(ip: string) {
    const key = `register:ip:${clientAddress(ip)}`;
    await db.transaction().execute(async (trx) => {
      const t = now();
      const prior = await authRepo.getAttempt(trx, key);
      if (prior && prior.locked_until > t)
        throw new AppError(
          ErrorCode.rateLimited,
          registerThrottled(Math.ceil((prior.locked_until - t) / 1000)),
          200,
          { retryAfter: Math.ceil((prior.locked_until - t) / 1000) },
        );
      const recent = prior && prior.updated_at > t - REGISTER_WINDOW_MS;
      const calls = (recent ? prior.failures : 0) + 1;
      const over = calls - REGISTER_FREE_PER_ADDRESS;
      const lock = over > 0 ? Math.min(30_000 * 2 ** (over - 1), 15 * 60_000) : 0;
      await authRepo.putAttempt(trx, key, calls, lock ? t + lock : 0, t);
    });
  }

  // Approving creates the account: the phone is its login, the password the one registered.
  records.registerEffect(`${staffRegistration.name}.createAccount`, async (trx, { row, input, user }) => {
    const roleIds = input.roleIds as number[];
    const deptIds = typeof row.deptId === 'number' ? [row.deptId] : [];
    const userId = await org.createUserInTx(
      trx,
      user,
      {
        account: String(row.phone),
        userName: String(row.userName),
        phone: String(row.phone),
        deptIds,
        roleIds,
        superiorId: null,
      },
      await repo.passwordHashOf(trx, row.id),
    );
    const grantedRoles = (await repo.roleNames(trx, roleIds)).join('、');
    return {
      set: { userId, grantedRoles },
      after: () => {
        tellSoon();
        // Her first sign-in finds it in the bell: what she may now do, and from whom.
        deps.notices
          .notify({
            receivers: [userId],
            content: welcomeNotice(grantedRoles),
            source: 'system',
            from: user.id,
          })
          .catch((err: unknown) => deps.report?.('registration welcome notice failed', err));
      },
    };
  });
  records.registerEffect(`${staffRegistration.name}.refused`, async () => ({ after: tellLater() }));

  // Signing in with a registered phone (and its password) says where the registration stands.
  deps.auth.onUnknownAccount(async (login) => {
    if (!MOBILE_RE.test(login)) return null;
    const r = await repo.latestByPhone(db, login);
    if (!r || r.status === REGISTRATION_APPROVED) return null;
    const answer =
      r.status === REGISTRATION_REFUSED
        ? new AppError(ErrorCode.registrationRefused, loginRefused(r.refuse_reason))
        : new AppError(ErrorCode.registrationPending, LOGIN_PENDING);
    return { passwordHash: r.password_hash, answer };
  });

  return {
    /** The departments a newcomer chooses from, parents before their children. */
    async departments(): Promise<RegisterDept[]> {
      const rows = await repo.departments(db);
      const out: RegisterDept[] = [];
      const walk = (parent: number | null) => {
        for (const d of rows.filter((x) => (x.parent_id ?? null) === parent)) {
          out.push({ id: d.id, name: d.name, parentId: d.parent_id });
          walk(d.id);
        }
      };
      walk(null);
      return out;
    },

    /** A registration from the public page: counted, checked, stored as 待审核. */
    async apply(body: Body, ip: string): Promise<{ message: string }> {
      await countCall(ip);
      if (!(await repo.departments(db)).some((d) => d.id === body.deptId))
        throw invalid('所选部门不存在，请刷新页面后重新选择');
      // Hashing is slow: before the transaction.
      const passwordHash = await hashPassword(body.password);
      try {
        await db.transaction().execute(async (trx) => {
          if ((await repo.accountHolds(trx, body.phone)) || (await repo.hasPending(trx, body.phone)))
            throw invalid(PHONE_TAKEN);
          await repo.insertRegistration(
            trx,
            {
              userName: body.userName,
              phone: body.phone,
              deptId: body.deptId,
              remark: body.remark,
              ip: clientAddress(ip),
              passwordHash,
            },
            now(),
          );
        });
      } catch (err) {
        // Two registrations of one phone at once: the partial unique index keeps one.
        if (err instanceof AppError) throw err;
        if (await repo.hasPending(db, body.phone)) throw invalid(PHONE_TAKEN);
        throw err;
      }
      tellSoon();
      return { message: REGISTER_DONE };
    },

    /** Registrations waiting, for the badge of those who decide them. */
    async pendingCount() {
      return { pendingStaffCount: await repo.pendingCount(db) };
    },
  };
}
export type RegistrationService = ReturnType<typeof createRegistrationService>;
