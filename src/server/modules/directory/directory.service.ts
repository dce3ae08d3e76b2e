import type { z } from 'zod';
import type { Db } from '../../db/index';
import type { AddressBookTable } from '../../db/schema';
import type { Selectable } from 'kysely';
import { conflict, invalid, notFound } from '../../errors';
import {
  entryKindProblem,
  type AddressBookEntry,
  type AddressBookList,
  type AddressBookSave,
  type AddressBookUpdate,
  type DirectoryDept,
} from '../../../shared/api/directory';
import { filterDirectory } from '../../../shared/rules/directory';
import { avatarUrl } from '../org/avatar';
import { allDepts, countExisting } from '../org/org.repo';
import * as repo from './directory.repo';

type Out<T extends z.ZodType> = z.output<T>;
type EntryRow = Selectable<AddressBookTable>;

const GONE = '该通讯录条目不存在或已被删除，请刷新后重试';
/** Pinyin order for Chinese names, the order a museum's printed directory uses. */
const byName = new Intl.Collator('zh-Hans-CN-u-co-pinyin');

/** Departments depth-first (each parent before its children, siblings by sort then id). */
function treeOrder(rows: { id: number; name: string; parent_id: number | null }[]) {
  const known = new Set(rows.map((r) => r.id));
  const out: Omit<DirectoryDept, 'count'>[] = [];
  const visit = (parentId: number | null, depth: number) => {
    for (const r of rows) {
      const parent = r.parent_id !== null && known.has(r.parent_id) ? r.parent_id : null;
      if (parent !== parentId) continue;
      out.push({ id: r.id, name: r.name, parentId: parent, depth });
      visit(r.id, depth + 1);
    }
  };
  visit(null, 0);
  return out;
}

/**
 * The staff directory (README "Staff directory"). Staff rows are built from the organisation
 * on every read, with the account's name, mobile and departments, so an edit in 人员管理 shows
 * at once and a disabled account drops out; the directory's own rows only extend them (one per
 * account, enforced by a unique index) or add external entries.
 */
export function createDirectoryService(db: Db, now: () => number = Date.now) {
  async function everything(includeHidden: boolean) {
    const [depts, staff, members, entries] = await Promise.all([
      allDepts(db),
      repo.listedStaff(db),
      repo.memberships(db),
      repo.allEntries(db),
    ]);
    const ordered = treeOrder(depts);
    const position = new Map(ordered.map((d, i) => [d.id, i]));
    const deptName = new Map(depts.map((d) => [d.id, d.name]));
    const byUser = new Map(entries.filter((e) => e.user_id !== null).map((e) => [e.user_id!, e]));

    const inOrder = (ids: number[]) =>
      ids.filter((id) => position.has(id)).sort((a, b) => position.get(a)! - position.get(b)!);
    const extension = (e: EntryRow | undefined) => ({
      id: e?.id ?? null,
      position: e?.position ?? '',
      officePhone: e?.office_phone ?? '',
      email: e?.email ?? '',
      remark: e?.remark ?? '',
      sort: e?.sort ?? 0,
      hidden: e?.hidden === 1,
    });

    const rows: AddressBookEntry[] = [
      ...staff.map((u) => {
        const deptIds = inOrder(members.filter((m) => m.user_id === u.id).map((m) => m.dept_id));
        return {
          ...extension(byUser.get(u.id)),
          userId: u.id,
          name: u.user_name,
          image: avatarUrl(u.id, u.avatar),
          mobile: u.phone ?? '',
          deptIds,
          deptNames: deptIds.map((id) => deptName.get(id)!),
        };
      }),
      ...entries
        .filter((e) => e.user_id === null)
        .map((e) => {
          const deptIds = inOrder(e.dept_id === null ? [] : [e.dept_id]);
          return {
            ...extension(e),
            userId: null,
            name: e.name,
            image: '',
            mobile: e.mobile,
            deptIds,
            deptNames: deptIds.map((id) => deptName.get(id)!),
          };
        }),
    ].filter((r) => includeHidden || !r.hidden);

    // By first department (none last), then the admin's sort, then name, then id: stable.
    const rank = (r: AddressBookEntry) => (r.deptIds.length ? position.get(r.deptIds[0]!)! : ordered.length);
    rows.sort(
      (a, b) =>
        rank(a) - rank(b) ||
        a.sort - b.sort ||
        byName.compare(a.name, b.name) ||
        (a.userId ?? 0) - (b.userId ?? 0) ||
        (a.id ?? 0) - (b.id ?? 0),
    );

    // A row counts in each department it sits in and in every department above those.
    const parentOf = new Map(ordered.map((d) => [d.id, d.parentId]));
    const counts = new Map<number, number>();
    for (const r of rows) {
      const seen = new Set<number>();
      for (const id of r.deptIds)
        for (let p: number | null = id; p !== null && !seen.has(p); p = parentOf.get(p) ?? null) seen.add(p);
      for (const id of seen) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    const departments = ordered.map((d) => ({ ...d, count: counts.get(d.id) ?? 0 }));
    return { rows, departments };
  }

  async function assertDept(deptId: number | null) {
    if (deptId !== null && (await countExisting(db, 'department', [deptId])) !== 1)
      throw invalid('所选部门不存在，请刷新后重试');
  }

  /** The stored columns of a row of its kind: a staff extension keeps no name, mobile or department. */
  function columns(staff: boolean, b: Out<typeof AddressBookSave> | Out<typeof AddressBookUpdate>) {
    return {
      name: staff ? '' : b.name,
      dept_id: staff ? null : b.deptId,
      mobile: staff ? '' : b.mobile,
      position: b.position,
      office_phone: b.officePhone,
      email: b.email,
      sort: b.sort,
      remark: b.remark,
      hidden: b.hidden ? 1 : 0,
    };
  }

  return {
    async list(
      q: { keyword?: string; deptId?: number },
      opts: { includeHidden: boolean },
    ): Promise<AddressBookList> {
      const { rows, departments } = await everything(opts.includeHidden);
      if (q.deptId !== undefined && !departments.some((d) => d.id === q.deptId))
        throw invalid('所选部门不存在，请刷新后重试');
      const list = filterDirectory(rows, departments, q);
      return { list, total: list.length, departments };
    },

    /** One row by its directory id or by its account; hidden rows only for those who may see them. */
    async detail(q: { id?: number; userId?: number }, opts: { includeHidden: boolean }) {
      const { rows } = await everything(opts.includeHidden);
      const row = rows.find((r) => (q.id !== undefined ? r.id === q.id : r.userId === q.userId));
      if (!row) throw notFound(GONE);
      return row;
    },

    async save(actorId: number, b: Out<typeof AddressBookSave>): Promise<{ id: number }> {
      const staff = b.userId !== null;
      await assertDept(b.deptId);
      return db.transaction().execute(async (trx) => {
        if (b.userId !== null) {
          const listed = (await repo.listedStaff(trx)).some((u) => u.id === b.userId);
          if (!listed) throw notFound('所选员工不存在或已停用，请刷新后重试');
          if (await repo.findEntryOfUser(trx, b.userId)) throw conflict('该员工已有通讯录信息，请刷新后编辑');
        }
        const t = now();
        const id = await repo.insertEntry(trx, {
          ...columns(staff, b),
          user_id: b.userId,
          updated_by: actorId,
          created_at: t,
          updated_at: t,
        });
        return { id };
      });
    },

    async update(actorId: number, b: Out<typeof AddressBookUpdate>) {
      const row = await repo.findEntry(db, b.id);
      if (!row) throw notFound(GONE);
      const staff = row.user_id !== null;
      const problem = entryKindProblem(staff, b);
      if (problem) throw invalid(problem.message);
      await assertDept(b.deptId);
      await repo.updateEntry(db, b.id, { ...columns(staff, b), updated_by: actorId, updated_at: now() });
    },

    /**
     * The rows of a batch import (directory.import.ts), already checked one by one, saved in one
     * transaction: a member of staff's extension is added or updated; an external entry with the
     * same name and phones as a stored one is updated, any other is added. A row kept hidden stays
     * hidden.
     */
    async importEntries(actorId: number, entries: { row: number; entry: Out<typeof AddressBookSave> }[]) {
      return db.transaction().execute(async (trx) => {
        const existing = await repo.allEntries(trx);
        let created = 0;
        let replaced = 0;
        for (const { entry: b } of entries) {
          const staff = b.userId !== null;
          const held = staff
            ? existing.find((e) => e.user_id === b.userId)
            : existing.find(
                (e) =>
                  e.user_id === null &&
                  e.name === b.name &&
                  e.mobile === b.mobile &&
                  e.office_phone === b.officePhone,
              );
          const t = now();
          if (held) {
            await repo.updateEntry(trx, held.id, {
              ...columns(staff, b),
              hidden: held.hidden,
              updated_by: actorId,
              updated_at: t,
            });
            replaced++;
          } else {
            await repo.insertEntry(trx, {
              ...columns(staff, b),
              user_id: b.userId,
              updated_by: actorId,
              created_at: t,
              updated_at: t,
            });
            created++;
          }
        }
        return { imported: created + replaced, created, replaced };
      });
    },

    /** An external row goes; a staff extension goes and the person shows from 人员管理 alone. */
    async remove(id: number) {
      if ((await repo.deleteEntry(db, id)) === 0) throw notFound(GONE);
    },
  };
}
export type DirectoryService = ReturnType<typeof createDirectoryService>;
