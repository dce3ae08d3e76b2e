import type { DeptSummary, Overview } from '../../../shared/api/business';
import { DATA_DEPT, DATA_SUMMARY, planProgress } from '../../../shared/records/office/business-data';
import type { Db } from '../../db/index';
import { forbidden, notFound } from '../../errors';
import type { Access } from '../auth/access';
import type { SessionUser } from '../auth/auth.service';
import * as repo from './business.repo';

/**
 * 业务数据's summaries (shared/api/business.ts): a department's month, read from its own figures,
 * its members' personal rows and its plans; and every department's month for the office. The
 * records themselves (save, find, delete, month closing) are the records engine's.
 */

/** Whether a plan is in force in a month: the year's, that quarter's, that month's. */
function inForce(plan: { period: number; period_no: number | null }, month: number): boolean {
  if (plan.period === 1) return true;
  if (plan.period === 2) return plan.period_no === Math.ceil(month / 3);
  return plan.period_no === month;
}

function planLine(p: Awaited<ReturnType<typeof repo.planRows>>[number]) {
  const progress = planProgress(repo.rowsOf(p.items));
  return {
    id: Number(p.id),
    title: p.title,
    period: Number(p.period),
    periodNo: p.period_no === null ? null : Number(p.period_no),
    status: Number(p.status),
    ...progress,
    byState: Object.fromEntries(Object.entries(progress.byState).map(([k, v]) => [k, v])),
  };
}

const monthStateOf = (row: { id: number; status: number } | undefined) => ({
  id: row ? Number(row.id) : null,
  status: row ? Number(row.status) : 0,
});

export function createBusinessService(deps: { db: Db; access: Access }) {
  const { db, access } = deps;

  return {
    /** One department's month, for its heads and the office. */
    async summary(
      user: SessionUser,
      q: { deptId: number; year: number; month: number },
    ): Promise<DeptSummary> {
      if (!(await access.can(user, DATA_SUMMARY))) {
        await access.require(user, DATA_DEPT);
        if (!(await repo.deptIdsOfUser(db, user.id)).includes(q.deptId))
          throw forbidden('只能查看本部门的业务数据');
      }
      const dept = (await repo.departments(db)).find((d) => Number(d.id) === q.deptId);
      if (!dept) throw notFound('该部门不存在，请刷新后重试');
      const [monthRow, deptRows, personal, plans, members] = await Promise.all([
        repo.monthRow(db, q.year, q.month),
        repo.deptRows(db, q.year, q.month, [q.deptId]),
        repo.personalRows(db, q.year, q.month),
        repo.planRows(db, q.year, [q.deptId]),
        repo.membersOf(db, [q.deptId]),
      ]);
      const memberIds = new Set(members.map((m) => Number(m.id)));
      const mine = personal.filter((p) => memberIds.has(Number(p.user_id)));
      // Sum each indicator over the members' rows, keeping the order indicators first appear in.
      const totals = new Map<string, { indicator: string; value: number; people: number; unit: string }>();
      for (const p of mine)
        for (const it of repo.rowsOf(p.items)) {
          const key = String(it.indicator ?? '');
          const t = totals.get(key) ?? { indicator: key, value: 0, people: 0, unit: '' };
          t.value += Number(it.value ?? 0);
          t.people += 1;
          t.unit ||= String(it.unit ?? '');
          totals.set(key, t);
        }
      const reported = new Set(mine.map((p) => Number(p.user_id)));
      const own = deptRows[0];
      return {
        deptId: q.deptId,
        year: q.year,
        month: q.month,
        deptName: dept.name,
        monthState: monthStateOf(monthRow),
        dept: own
          ? {
              id: Number(own.id),
              indicators: repo
                .rowsOf(own.indicators)
                .map((r) => ({ indicator: String(r.indicator ?? ''), value: Number(r.value ?? 0) })),
              summary: own.summary,
            }
          : null,
        personal: {
          totals: [...totals.values()],
          members: members.map((m) => ({
            userId: Number(m.id),
            name: m.user_name,
            reported: reported.has(Number(m.id)),
          })),
        },
        plans: plans
          .filter((p) => inForce({ period: Number(p.period), period_no: p.period_no }, q.month))
          .map(planLine),
      };
    },

    /** Every department's month at a glance: the office's view. */
    async overview(user: SessionUser, q: { year: number; month: number }): Promise<Overview> {
      await access.require(user, DATA_SUMMARY);
      const [monthRow, depts, deptRows, personal, plans, members] = await Promise.all([
        repo.monthRow(db, q.year, q.month),
        repo.departments(db),
        repo.deptRows(db, q.year, q.month),
        repo.personalRows(db, q.year, q.month),
        repo.planRows(db, q.year),
        repo.membersOf(db),
      ]);
      const reportedPeople = new Set(personal.map((p) => Number(p.user_id)));
      const reportedDepts = new Set(deptRows.map((d) => Number(d.dept_id)));
      return {
        year: q.year,
        month: q.month,
        monthState: monthStateOf(monthRow),
        depts: depts
          .map((d) => {
            const id = Number(d.id);
            const people = members.filter((m) => Number(m.dept_id) === id);
            const own = plans
              .filter(
                (p) =>
                  Number(p.dept_id) === id &&
                  inForce({ period: Number(p.period), period_no: p.period_no }, q.month),
              )
              .map(planLine);
            return {
              deptId: id,
              name: d.name,
              reported: reportedDepts.has(id),
              members: people.length,
              personalReported: people.filter((m) => reportedPeople.has(Number(m.id))).length,
              plans: own.length,
              progress: own.length ? Math.round(own.reduce((n, p) => n + p.progress, 0) / own.length) : 0,
            };
          })
          // A department with nobody in it and nothing saved (the museum's root) has nothing to show.
          .filter((d) => d.members || d.reported || d.plans),
      };
    },
  };
}
export type BusinessService = ReturnType<typeof createBusinessService>;
