import type {
  CountedRow,
  DeptSheet,
  Days,
  MonthQuery,
  MonthSheet,
  PersonQuery,
  PersonSheet,
  YearSheet,
} from '../../../shared/api/attendance';
import { ADMIN_ROLE } from '../../../shared/menu/catalogue';
import {
  addTotals,
  asRange,
  attendanceKindOf,
  daysInMonth,
  durationField,
  toDays,
  totalsByPerson,
  zeroTotals,
  type CountedRequest,
  type Totals,
} from '../../../shared/workflow/attendance';
import type { FormField, WorkflowDefinition } from '../../../shared/workflow/definition';
import type { Db } from '../../db/index';
import { forbidden, notFound } from '../../errors';
import type { Access } from '../auth/access';
import type { SessionUser } from '../auth/auth.service';
import { loadOrgSnapshot, type OrgSnapshot } from '../workflow/org-snapshot';
import * as repo from './attendance.repo';

/** The menu grants of 考勤统计 and 部门汇总 (menu grant = API grant, see auth/access.ts). */
export const ATTENDANCE_OVERVIEW = 'oa.attendance.overview';
export const DEPARTMENT_SUMMARY = 'oa.attendance.departmentSummary';

export const ATTENDANCE_MSG = {
  noGrant: '无权查看考勤统计，请联系管理员开通',
  otherPerson: '只能查看本人的考勤',
  outOfScope: '无权查看该部门的考勤',
} as const;

interface Counted extends CountedRequest {
  id: number;
  title: string;
  templateName: string;
}

const days = (t: Totals): Days => ({
  leave: toDays(t.leave),
  travel: toDays(t.travel),
  overtime: toDays(t.overtime),
  count: t.count,
});

/**
 * Who a caller may see in the museum-wide sheets (api/attendance.ts states the rule): null is
 * the whole museum, otherwise the departments they head with their sub-departments.
 */
function scopeOf(user: SessionUser, org: OrgSnapshot): Set<number> | null {
  if (user.roles.includes(ADMIN_ROLE) || org.superiorsOf(user.id).length === 0) return null;
  const headed = org
    .ownDeptsOf(user.id)
    .filter((d) =>
      org
        .everyone()
        .some((m) => m !== user.id && org.ownDeptsOf(m).includes(d) && org.superiorsOf(m).includes(user.id)),
    );
  if (headed.length === 0) return null;
  return withChildren(org, headed);
}

function withChildren(org: OrgSnapshot, roots: number[]): Set<number> {
  const out = new Set(roots);
  for (let grew = true; grew;) {
    grew = false;
    for (const d of org.departments)
      if (d.parentId !== null && out.has(d.parentId) && !out.has(d.id)) {
        out.add(d.id);
        grew = true;
      }
  }
  return out;
}

export function createAttendanceService(db: Db, access: Access) {
  /** Passed requests that count, parsed once per definition. */
  async function counted(starterIds?: number[]): Promise<Counted[]> {
    const rows = await repo.passedRequests(db, starterIds);
    const defs = new Map<string, WorkflowDefinition>();
    const parse = (text: string) => {
      let d = defs.get(text);
      if (!d) defs.set(text, (d = JSON.parse(text) as WorkflowDefinition));
      return d;
    };
    const out: Counted[] = [];
    for (const r of rows) {
      const kind = attendanceKindOf(r.template_name, parse(r.current));
      if (!kind) continue;
      const field: FormField | undefined = durationField(parse(r.pinned).fields);
      if (!field) continue;
      const range = asRange((JSON.parse(r.form) as Record<string, unknown>)[field.id]);
      if (!range) continue;
      out.push({
        id: r.id,
        title: r.title,
        templateName: r.template_name,
        userId: r.starter_id,
        kind,
        range,
        unit: field.unit,
      });
    }
    return out;
  }

  const deptNames = (org: OrgSnapshot, userId: number) => {
    const names = new Map(org.departments.map((d) => [d.id, d.name]));
    return org
      .ownDeptsOf(userId)
      .map((d) => names.get(d) ?? '')
      .join('、');
  };

  /** Everyone the scope holds, in department order; the whole museum leaves out administrators without a department. */
  function peopleIn(org: OrgSnapshot, scope: Set<number> | null): number[] {
    const order = new Map(org.departments.map((d, i) => [d.id, i]));
    const rank = (u: number) => Math.min(...org.ownDeptsOf(u).map((d) => order.get(d) ?? 1e9), 1e9);
    const admins = new Set(org.admins());
    return org
      .everyone()
      .filter((u) =>
        scope === null
          ? org.ownDeptsOf(u).length > 0 || !admins.has(u)
          : org.ownDeptsOf(u).some((d) => scope.has(d)),
      )
      .sort((a, b) => rank(a) - rank(b) || a - b);
  }

  async function requireGrant(user: SessionUser, key: string) {
    if (!(await access.can(user, key))) throw forbidden(ATTENDANCE_MSG.noGrant);
  }

  return {
    /** 考勤统计: each person of the caller's scope in one month. */
    async month(user: SessionUser, q: MonthQuery): Promise<MonthSheet> {
      await requireGrant(user, ATTENDANCE_OVERVIEW);
      const org = await loadOrgSnapshot(db);
      const scope = scopeOf(user, org);
      let filter = scope;
      if (q.deptId !== undefined) {
        if (!org.departments.some((d) => d.id === q.deptId) || (scope && !scope.has(q.deptId)))
          throw forbidden(ATTENDANCE_MSG.outOfScope);
        filter = withChildren(org, [q.deptId]);
      }
      const people = peopleIn(org, filter);
      // The whole museum reads every passed request rather than binding hundreds of ids.
      const totals = totalsByPerson(await counted(filter ? people : undefined), q.month);
      return {
        month: q.month,
        depts: org.departments
          .filter((d) => (scope ? scope.has(d.id) : true))
          .map((d) => ({ deptId: d.id, deptName: d.name })),
        list: people.map((u) => ({
          userId: u,
          name: org.person(u)?.name ?? '',
          deptNames: deptNames(org, u),
          ...days(totals.get(u) ?? zeroTotals()),
        })),
      };
    },

    /** 部门汇总: each department of the caller's scope that has members, by its own members. */
    async departments(user: SessionUser, month: string): Promise<DeptSheet> {
      await requireGrant(user, DEPARTMENT_SUMMARY);
      const org = await loadOrgSnapshot(db);
      const scope = scopeOf(user, org);
      const people = peopleIn(org, scope);
      const totals = totalsByPerson(await counted(scope ? people : undefined), month);
      const list = [];
      for (const d of org.departments) {
        if (scope && !scope.has(d.id)) continue;
        const members = people.filter((u) => org.ownDeptsOf(u).includes(d.id));
        if (members.length === 0) continue;
        const sum = zeroTotals();
        for (const u of members) addTotals(sum, totals.get(u) ?? zeroTotals());
        list.push({ deptId: d.id, deptName: d.name, people: members.length, ...days(sum) });
      }
      return { month, list };
    },

    /** 个人考勤 and its detail: one person's counted requests in a month. */
    async person(user: SessionUser, q: PersonQuery): Promise<PersonSheet> {
      const userId = q.userId ?? user.id;
      const org = await loadOrgSnapshot(db);
      if (userId !== user.id) {
        if (!(await access.can(user, ATTENDANCE_OVERVIEW))) throw forbidden(ATTENDANCE_MSG.otherPerson);
        const scope = scopeOf(user, org);
        if (scope && !org.ownDeptsOf(userId).some((d) => scope.has(d)))
          throw forbidden(ATTENDANCE_MSG.otherPerson);
      }
      const who = org.person(userId);
      if (!who) throw notFound('该人员不存在或已停用');
      const mine = (await counted([userId])).filter((r) => daysInMonth(r, q.month) > 0);
      const list: CountedRow[] = mine.map((r) => ({
        actvityId: r.id,
        title: r.title,
        templateName: r.templateName,
        kind: r.kind,
        start: r.range.start,
        end: r.range.end,
        ...(r.range.startHalf && { startHalf: r.range.startHalf }),
        ...(r.range.endHalf && { endHalf: r.range.endHalf }),
        duration: r.range.duration,
        unit: r.unit ?? 1,
        days: toDays(daysInMonth(r, q.month)),
      }));
      return {
        month: q.month,
        userId,
        name: who.name,
        deptNames: deptNames(org, userId),
        totals: days(totalsByPerson(mine, q.month).get(userId) ?? zeroTotals()),
        list,
      };
    },

    /** 个人汇总: the caller's twelve months of one year. */
    async personal(user: SessionUser, year: number): Promise<YearSheet> {
      const mine = await counted([user.id]);
      const sum = zeroTotals();
      const list = Array.from({ length: 12 }, (_, i) => {
        const month = `${year}-${String(i + 1).padStart(2, '0')}`;
        const t = totalsByPerson(mine, month).get(user.id) ?? zeroTotals();
        addTotals(sum, t);
        return { month, ...days(t) };
      });
      // A request across two months counts once a month; the year counts it once.
      sum.count = mine.filter((r) => list.some((m) => daysInMonth(r, m.month) > 0)).length;
      return { year, name: user.userName, list, totals: days(sum) };
    },
  };
}
export type AttendanceService = ReturnType<typeof createAttendanceService>;
