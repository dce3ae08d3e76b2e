import type { z } from 'zod';
import type { Db } from '../../db/index';
import { conflict, forbidden, invalid, notFound } from '../../errors';
import type {
  DeptCreate,
  DeptNode,
  DeptUpdate,
  RoleCreate,
  RoleRow,
  RoleSetMenus,
  RoleUpdate,
  UserCreate,
  UserEnable,
  UserListQuery,
  UserResetPassword,
  UserRow,
  UserUpdate,
} from '../../../shared/api/org';
import type { UserLookupRow } from '../../../shared/api/share';
import {
  ADMIN_ROLE,
  DEFAULT_ROLE,
  VOLUNTEER_ROLE,
  allLeafKeys,
  allLeaves,
} from '../../../shared/menu/catalogue';
import { AUDITOR_ROLE, RESERVED_LEAVES, roleMayHold } from '../../../shared/menu/reserved';
import { deleteSessionsOfUser } from '../auth/auth.repo';
import { hashPassword } from '../auth/password';
import { avatarUrl } from './avatar';
import type { ImportError } from '../../../shared/records/api';
import { ImportRefused } from '../../records/records.import';
import * as repo from './org.repo';

type Out<T extends z.ZodType> = z.output<T>;

/** The most people one lookup answers: a picker shows a short list, the typist narrows it. */
const LOOKUP_MAX = 20;

/** 13812341234 → 138****1234; anything shorter keeps only its last two digits. */
export function maskPhone(phone: string): string {
  if (phone.length >= 11) return `${phone.slice(0, 3)}****${phone.slice(-4)}`;
  return phone.length > 2 ? `${'*'.repeat(phone.length - 2)}${phone.slice(-2)}` : phone;
}

/** Who is acting: admin-only rules depend on it. */
export interface Actor {
  id: number;
  roles: string[];
}

/**
 * Another module's work when a person is disabled, run inside the same transaction after the
 * change (so it sees them disabled, and fails the change as a whole if it cannot be done).
 * Answers what to run after the commit (telling the live bus). The approvals module registers
 * one, so org knows nothing of approvals.
 */
export type DisabledHook = (trx: Db, userId: number) => Promise<() => void>;

/**
 * Rules for the organisation: unique accounts and phones, a superior chain without cycles, a
 * department tree without cycles, roles whose menus are real catalogue entries, and the
 * built-in roles that cannot be removed. Every multi-row write is one transaction.
 */
export function createOrgService(db: Db) {
  async function assertIdsExist(q: Db, table: 'department' | 'role' | 'user', ids: number[], what: string) {
    const unique = [...new Set(ids)];
    if ((await repo.countExisting(q, table, unique)) !== unique.length)
      throw invalid(`所选${what}不存在，请刷新后重试`);
  }

  async function assertUniquePhone(q: Db, phone: string, exceptId = 0) {
    if (!phone) return;
    const other = await repo.findUserByPhone(q, phone);
    if (other && other.id !== exceptId) throw conflict('该手机号已被其他账号使用');
  }

  async function assertSuperior(q: Db, userId: number, superiorId: number | null) {
    if (superiorId === null) return;
    if (superiorId === userId) throw invalid('直属上级不能是本人');
    await assertIdsExist(q, 'user', [superiorId], '直属上级');
    if ((await repo.superiorChain(q, superiorId)).includes(userId)) {
      throw invalid('所选上级是该员工的下属，不能形成循环的上下级关系');
    }
  }

  /**
   * Only a super administrator may grant the super-administrator role, or change, reset or
   * disable an account that holds it. Without this, anyone trusted with the staff list could
   * make themselves all-powerful or lock the real administrator out.
   */
  async function assertMayTouchAdmin(
    actor: Actor,
    targetId: number | null,
    roleIds: number[] = [],
    q: Db = db,
  ) {
    if (actor.roles.includes(ADMIN_ROLE)) return;
    const adminRole = await repo.findRoleByCode(q, ADMIN_ROLE);
    if (!adminRole) return;
    const targetIsAdmin =
      targetId !== null && (await repo.rolesOfUsers(q, [targetId])).some((r) => r.id === adminRole.id);
    if (targetIsAdmin || roleIds.includes(adminRole.id)) {
      throw forbidden('只有超级管理员可以授予、修改或停用超级管理员账号');
    }
  }

  /** A new account with its departments and roles, after the unique and existence checks. */
  async function insertChecked(
    trx: Db,
    b: Omit<Out<typeof UserCreate>, 'password'>,
    password_hash: string,
    chosenBy: 'owner' | 'administrator',
  ): Promise<number> {
    await repo.lockOrg(trx);
    if (await repo.findUserByAccount(trx, b.account))
      throw conflict(`账号 ${b.account} 已存在，请换一个账号`);
    await assertUniquePhone(trx, b.phone);
    await assertIdsExist(trx, 'department', b.deptIds, '部门');
    await assertIdsExist(trx, 'role', b.roleIds, '角色');
    if (b.superiorId !== null) await assertIdsExist(trx, 'user', [b.superiorId], '直属上级');
    const id = await repo.insertUser(trx, {
      account: b.account,
      user_name: b.userName,
      phone: b.phone || null,
      password_hash,
      superior_id: b.superiorId,
      // A password an administrator typed is known to two people: its owner replaces it at the
      // first sign-in, as after 重置密码. A registrant chose theirs.
      must_change_password: chosenBy === 'administrator' ? 1 : 0,
    });
    await repo.setUserDepts(trx, id, [...new Set(b.deptIds)]);
    await repo.setUserRoles(trx, id, [...new Set(b.roleIds)]);
    return id;
  }

  async function updateDeptIn(q: Db, b: Out<typeof DeptUpdate>) {
    const rows = await repo.allDepts(q);
    if (!rows.some((r) => r.id === b.id)) throw notFound('该部门不存在，请刷新后重试');
    if (b.parentId !== null) {
      if (!rows.some((r) => r.id === b.parentId)) throw invalid('所选上级部门不存在，请刷新后重试');
      // Walk up from the new parent: meeting the department itself would make a cycle.
      for (
        let p: number | null = b.parentId;
        p !== null;
        p = rows.find((r) => r.id === p)?.parent_id ?? null
      ) {
        if (p === b.id) throw invalid('不能把部门移动到它自己或它的下级部门之下');
      }
    }
    if (await repo.findDeptSibling(q, b.name, b.parentId, b.id))
      throw conflict(`同一上级下已有部门“${b.name}”`);
    await repo.updateDept(q, b.id, b.name, b.parentId);
  }

  async function deleteDeptIn(q: Db, id: number) {
    const rows = await repo.allDepts(q);
    if (!rows.some((r) => r.id === id)) throw notFound('该部门不存在，请刷新后重试');
    if (rows.some((r) => r.parent_id === id)) throw invalid('请先删除或移走该部门的下级部门');
    const counts = await repo.deptUserCounts(q);
    if (counts.some((c) => c.dept_id === id && Number(c.n) > 0))
      throw invalid('该部门下还有员工，请先调整员工的部门');
    await repo.deleteDept(q, id);
  }

  const disabledHooks: DisabledHook[] = [];

  return {
    onUserDisabled(hook: DisabledHook) {
      disabledHooks.push(hook);
    },

    /**
     * Staff found by name or phone, for pickers any signed-in person uses (the share dialog's
     * 发送给同事). Phones are masked: a colleague's number is not everyone's to read.
     */
    async lookupUsers(nameOrPhone: string): Promise<UserLookupRow[]> {
      const rows = await repo.lookupUsers(db, nameOrPhone, LOOKUP_MAX);
      const depts = await repo.deptsOfUsers(
        db,
        rows.map((r) => r.id),
      );
      return rows.map((r) => ({
        userId: r.id,
        userName: r.user_name,
        phone: maskPhone(r.phone ?? ''),
        deptName: depts.find((d) => d.user_id === r.id)?.name ?? '',
      }));
    },

    async listUsers(q: UserListQuery): Promise<{ list: UserRow[]; total: number }> {
      const { rows, total } = await repo.listUsers(db, q);
      const ids = rows.map((r) => r.id);
      const [depts, roles] = await Promise.all([repo.deptsOfUsers(db, ids), repo.rolesOfUsers(db, ids)]);
      const list = rows.map((r) => {
        const d = depts.filter((x) => x.user_id === r.id);
        const ro = roles.filter((x) => x.user_id === r.id);
        return {
          userId: r.id,
          account: r.account,
          userName: r.user_name,
          phone: r.phone ?? '',
          image: avatarUrl(r.id, r.avatar),
          enabled: r.enabled === 1,
          superiorId: r.superior_id,
          superiorName: r.superior_name ?? '',
          deptIds: d.map((x) => x.id),
          deptNames: d.map((x) => x.name),
          roleIds: ro.map((x) => x.id),
          roleNames: ro.map((x) => x.name),
        };
      });
      return { list, total };
    },

    async createUser(actor: Actor, b: Out<typeof UserCreate>): Promise<{ userId: number }> {
      await assertMayTouchAdmin(actor, null, b.roleIds);
      // Hash before the transaction (it is slow); check and insert inside it, so two saves of
      // the same account or phone at once cannot both pass the check.
      const password_hash = await hashPassword(b.password);
      const userId = await db
        .transaction()
        .execute((trx) => insertChecked(trx, b, password_hash, 'administrator'));
      return { userId };
    },

    /**
     * An account whose password is already hashed (an approved registration: the person chose
     * it when registering), inside the caller's transaction, with createUser's rules. Roles are
     * checked to exist, and only a super administrator grants the super-administrator role.
     */
    async createUserInTx(
      trx: Db,
      actor: Actor,
      b: Omit<Out<typeof UserCreate>, 'password'>,
      passwordHash: string,
    ): Promise<number> {
      await assertMayTouchAdmin(actor, null, b.roleIds, trx);
      return insertChecked(trx, b, passwordHash, 'owner');
    },

    /**
     * The people of a batch import (org.import.ts), each already checked by UserCreate: saved in
     * one transaction or not at all. Accounts and phones must be new; a 直属上级 is an existing
     * account or the account of an earlier row; only a super administrator grants that role.
     * Answers the counts, or every row's problem (nothing saved).
     */
    async importUsers(
      actor: Actor,
      people: { row: number; user: Out<typeof UserCreate>; superior: string }[],
    ): Promise<{ imported: number; created: number; replaced: number } | { errors: ImportError[] }> {
      const errors: ImportError[] = [];
      const adminRole = await repo.findRoleByCode(db, ADMIN_ROLE);
      if (!actor.roles.includes(ADMIN_ROLE) && adminRole)
        for (const p of people)
          if (p.user.roleIds.includes(adminRole.id))
            errors.push({ row: p.row, column: '角色', message: '只有超级管理员可以授予超级管理员角色' });
      if (errors.length) return { errors };
      // Hashing is slow: before the transaction, a few at a time.
      const hashes: string[] = [];
      for (let i = 0; i < people.length; i += 8)
        hashes.push(...(await Promise.all(people.slice(i, i + 8).map((p) => hashPassword(p.user.password)))));
      try {
        await db.transaction().execute(async (trx) => {
          const made = new Map<string, number>();
          for (const [i, p] of people.entries()) {
            const b = p.user;
            if (await repo.findUserByAccount(trx, b.account)) {
              errors.push({ row: p.row, column: '账号', message: `账号 ${b.account} 已存在，请换一个账号` });
              continue;
            }
            if (b.phone && (await repo.findUserByPhone(trx, b.phone))) {
              errors.push({ row: p.row, column: '手机号', message: '该手机号已被其他账号使用' });
              continue;
            }
            let superiorId: number | null = null;
            if (p.superior) {
              superiorId =
                made.get(p.superior.toLowerCase()) ??
                (await repo.findUserByAccount(trx, p.superior))?.id ??
                null;
              if (superiorId === null) {
                errors.push({
                  row: p.row,
                  column: '直属上级',
                  message: `直属上级“${p.superior}”不是已有账号，也不是本文件前面行的账号`,
                });
                continue;
              }
            }
            const id = await repo.insertUser(trx, {
              account: b.account,
              user_name: b.userName,
              phone: b.phone || null,
              password_hash: hashes[i]!,
              superior_id: superiorId,
              must_change_password: 1, // the file's passwords are the administrator's, as on 新增人员
            });
            made.set(b.account.toLowerCase(), id);
            await repo.setUserDepts(trx, id, [...new Set(b.deptIds)]);
            await repo.setUserRoles(trx, id, [...new Set(b.roleIds)]);
          }
          if (errors.length) throw new ImportRefused(errors);
        });
      } catch (err) {
        if (err instanceof ImportRefused) return { errors };
        throw err;
      }
      return { imported: people.length, created: people.length, replaced: 0 };
    },

    async updateUser(actor: Actor, b: Out<typeof UserUpdate>) {
      if (!(await repo.findUser(db, b.userId))) throw notFound('该员工不存在，请刷新后重试');
      await assertMayTouchAdmin(actor, b.userId, b.roleIds);
      await db.transaction().execute(async (trx) => {
        // Checked under the lock: two people made each other's superior at once is a cycle.
        await repo.lockOrg(trx);
        await assertIdsExist(trx, 'department', b.deptIds, '部门');
        await assertIdsExist(trx, 'role', b.roleIds, '角色');
        await assertSuperior(trx, b.userId, b.superiorId);
        await assertUniquePhone(trx, b.phone, b.userId);
        await repo.updateUser(trx, b.userId, {
          user_name: b.userName,
          phone: b.phone || null,
          superior_id: b.superiorId,
        });
        await repo.setUserDepts(trx, b.userId, [...new Set(b.deptIds)]);
        await repo.setUserRoles(trx, b.userId, [...new Set(b.roleIds)]);
      });
    },

    /**
     * Disabling ends the user's sessions at once and hands their pending work on (the hooks);
     * nobody may disable themselves or the admin account. Enabling gives nothing back.
     */
    async setEnabled(actor: Actor, b: Out<typeof UserEnable>) {
      const u = await repo.findUser(db, b.userId);
      if (!u) throw notFound('该员工不存在，请刷新后重试');
      if (!b.enabled && u.id === actor.id) throw forbidden('不能停用自己的账号');
      if (!b.enabled && u.account === 'admin') throw forbidden('不能停用系统管理员账号 admin');
      await assertMayTouchAdmin(actor, u.id);
      const after = await db.transaction().execute(async (trx) => {
        await repo.updateUser(trx, u.id, { enabled: b.enabled ? 1 : 0 });
        if (b.enabled) return [];
        await deleteSessionsOfUser(trx, u.id);
        const done: (() => void)[] = [];
        for (const hook of disabledHooks) done.push(await hook(trx, u.id));
        return done;
      });
      for (const f of after) f();
    },

    async resetPassword(actor: Actor, b: Out<typeof UserResetPassword>) {
      if (!(await repo.findUser(db, b.userId))) throw notFound('该员工不存在，请刷新后重试');
      await assertMayTouchAdmin(actor, b.userId);
      const password_hash = await hashPassword(b.password);
      await db.transaction().execute(async (trx) => {
        // The administrator chose it, so its owner must choose their own at first sign-in.
        await repo.updateUser(trx, b.userId, { password_hash, must_change_password: 1 });
        await deleteSessionsOfUser(trx, b.userId);
      });
    },

    async deptTree(): Promise<DeptNode[]> {
      const [rows, counts] = await Promise.all([repo.allDepts(db), repo.deptUserCounts(db)]);
      const byId = new Map<number, DeptNode>();
      for (const r of rows) {
        const userCount = Number(counts.find((c) => c.dept_id === r.id)?.n ?? 0);
        byId.set(r.id, {
          id: r.id,
          name: r.name,
          parentId: r.parent_id,
          sort: r.sort,
          userCount,
          children: [],
        });
      }
      const roots: DeptNode[] = [];
      for (const node of byId.values()) {
        const parent = node.parentId === null ? undefined : byId.get(node.parentId);
        (parent ? parent.children : roots).push(node);
      }
      return roots;
    },

    async createDept(b: Out<typeof DeptCreate>) {
      return db.transaction().execute(async (trx) => {
        await repo.lockOrg(trx);
        if (b.parentId !== null) await assertIdsExist(trx, 'department', [b.parentId], '上级部门');
        if (await repo.findDeptSibling(trx, b.name, b.parentId))
          throw conflict(`同一上级下已有部门“${b.name}”`);
        return { id: await repo.insertDept(trx, b.name, b.parentId) };
      });
    },

    /** Checked and written under the org lock: two moves at once must not close a cycle. */
    updateDept: (b: Out<typeof DeptUpdate>) =>
      db.transaction().execute(async (trx) => {
        await repo.lockOrg(trx);
        await updateDeptIn(trx, b);
      }),

    /** Refuses while the department has sub-departments or members, so nobody loses their place silently. */
    deleteDept: (id: number) =>
      db.transaction().execute(async (trx) => {
        await repo.lockOrg(trx);
        await deleteDeptIn(trx, id);
      }),

    async listRoles(): Promise<RoleRow[]> {
      const { roles, counts, menus } = await repo.listRoles(db);
      return roles.map((r) => ({
        roleId: r.id,
        code: r.code,
        name: r.name,
        remark: r.remark,
        builtin: r.builtin === 1,
        userCount: Number(counts.find((c) => c.role_id === r.id)?.n ?? 0),
        menuKeys:
          r.code === ADMIN_ROLE
            ? allLeafKeys()
            : menus.filter((m) => m.role_id === r.id).map((m) => m.menu_key),
        allMenus: r.code === ADMIN_ROLE,
      }));
    },

    async createRole(b: Out<typeof RoleCreate>) {
      if (await repo.findRoleByCode(db, b.code)) throw conflict(`角色编码 ${b.code} 已存在`);
      return { roleId: await repo.insertRole(db, { code: b.code, name: b.name, remark: b.remark }) };
    },

    async updateRole(b: Out<typeof RoleUpdate>) {
      if (!(await repo.findRole(db, b.roleId))) throw notFound('该角色不存在，请刷新后重试');
      await repo.updateRole(db, b.roleId, { name: b.name, remark: b.remark });
    },

    async deleteRole(id: number) {
      const r = await repo.findRole(db, id);
      if (!r) throw notFound('该角色不存在，请刷新后重试');
      if (r.builtin) throw forbidden(`内置角色“${r.name}”不能删除`);
      await repo.deleteRole(db, id);
    },

    async setRoleMenus(b: Out<typeof RoleSetMenus>) {
      const r = await repo.findRole(db, b.roleId);
      if (!r) throw notFound('该角色不存在，请刷新后重试');
      if (r.code === ADMIN_ROLE) throw forbidden('超级管理员始终拥有全部菜单，无需设置');
      const known = new Set(allLeafKeys());
      const unknown = b.menuKeys.filter((k) => !known.has(k));
      if (unknown.length) throw invalid('包含不存在的菜单项，请刷新后重试');
      const reserved = b.menuKeys.find((k) => !roleMayHold(r.code, k));
      if (reserved) {
        const title = allLeaves().find((l) => l.key === reserved)?.title ?? reserved;
        throw invalid(`“${title}”只能授予审计员角色，请取消勾选后再保存`);
      }
      await db.transaction().execute((trx) => repo.setRoleMenus(trx, r.id, [...new Set(b.menuKeys)]));
    },

    /** Creates the built-in roles if missing; run at every start. */
    async ensureBuiltinRoles(defaultMenu: readonly string[]) {
      if (!(await repo.findRoleByCode(db, ADMIN_ROLE))) {
        await repo.insertRole(db, {
          code: ADMIN_ROLE,
          name: '超级管理员',
          remark: '可见全部模块',
          builtin: 1,
        });
      }
      if (!(await repo.findRoleByCode(db, DEFAULT_ROLE))) {
        const id = await repo.insertRole(db, {
          code: DEFAULT_ROLE,
          name: '普通员工',
          remark: '未分配角色的员工默认使用此角色',
          builtin: 1,
        });
        await repo.setRoleMenus(db, id, [...defaultMenu]);
      }
      // 审计员 reads the system log and nothing else until an administrator grants more.
      if (!(await repo.findRoleByCode(db, AUDITOR_ROLE))) {
        const id = await repo.insertRole(db, {
          code: AUDITOR_ROLE,
          name: '审计员',
          remark: '只读查看系统日志',
          builtin: 1,
        });
        await repo.setRoleMenus(db, id, ['system.log']);
      }
      // 志愿者: no staff menu; a volunteer-only account opens the phone view (README "Volunteer accounts").
      if (!(await repo.findRoleByCode(db, VOLUNTEER_ROLE))) {
        await repo.insertRole(db, {
          code: VOLUNTEER_ROLE,
          name: '志愿者',
          remark: '志愿者本人使用手机端（/m），不含后台菜单',
          builtin: 1,
        });
      }
      // A reserved entry granted to another role before it was reserved is taken back.
      for (const [key, roles] of Object.entries(RESERVED_LEAVES)) {
        await repo.revokeMenuExcept(db, key, roles);
      }
    },
  };
}
export type OrgService = ReturnType<typeof createOrgService>;
