import { addDays, museumDate } from '../../../shared/rules/museum-time';
import {
  DEADLINE_WARN_DAYS,
  GRADE_ONE,
  bsRepairManagement,
  bsRepairProject,
} from '../../../shared/records/repair/repair';
import type { Db } from '../../db/index';
import { invalid } from '../../errors';
import type { RecordService } from '../../records/records.service';
import * as repo from '../../records/records.repo';

/**
 * The repair rules that read other rows (README "Conservation and repair"; records-design §6):
 * a record's project and the project's records. The pure rules (stages, guards, the deadline)
 * live beside the definitions in src/shared/records/repair/repair.ts.
 */
export function registerRepairRules(deps: { db: Db; records: RecordService; now?: () => number }) {
  const { records } = deps;
  const now = deps.now ?? Date.now;
  const projectOf = (q: Db, id: unknown) => repo.find(q, bsRepairProject, Number(id));

  // A grade-1 object needs NCHA's consent (S19): its project must say so (含一级文物), so the
  // project's stages ask for the approval; and no object joins a closed project.
  records.registerWriteCheck(bsRepairManagement.name, async (q, row, before) => {
    const project = await projectOf(q, row.projectId);
    if (!project) return { field: 'projectId', message: '所属项目不存在或已删除，请重新选择' };
    const moved = !before || before.projectId !== row.projectId;
    if (moved && [4, 5, 6, 9].includes(Number(project.status)))
      return {
        field: 'projectId',
        message: `项目“${String(project.name)}”已${Number(project.status) === 9 ? '终止' : '完成实施'}，不能再登记修复文物`,
      };
    if (row.level === GRADE_ONE && !project.hasGrade1)
      return {
        field: 'level',
        message: `一级文物的修复须经国家文物局批复：请先在项目“${String(project.name)}”中勾选“含一级文物”并报批`,
      };
    return null;
  });

  // 含一级文物 cannot be unticked while the project holds a grade-1 object's record.
  records.registerWriteCheck(bsRepairProject.name, async (q, row, before) => {
    if (!before || row.hasGrade1 || !before.hasGrade1) return null;
    const n = await repo.count(q, bsRepairManagement, [
      { field: 'projectId', op: 'eq', value: before.id },
      { field: 'level', op: 'eq', value: GRADE_ONE },
    ]);
    return n
      ? { field: 'hasGrade1', message: `项目下有 ${n} 件一级文物的修复档案，不能取消“含一级文物”` }
      : null;
  });

  // An object is taken out for treatment only once its project is under way (approved when it
  // holds grade-1 objects): 实施中.
  records.registerEffect(`${bsRepairManagement.name}.projectUnderWay`, async (trx, { row }) => {
    const project = await projectOf(trx, row.projectId);
    if (!project || Number(project.status) !== 3)
      throw invalid(
        `所属项目“${String(project?.name ?? '')}”尚未进入“实施中”（方案与批复完成后开始实施），文物暂不能出库修复`,
      );
  });

  // A project goes to acceptance once every object is treated (待评估 or 已归档).
  records.registerEffect(`${bsRepairProject.name}.allObjectsDone`, async (trx, { row }) => {
    const n = await repo.count(trx, bsRepairManagement, [
      { field: 'projectId', op: 'eq', value: row.id },
      { field: 'status', op: 'in', value: [0, 1] },
    ]);
    if (n) throw invalid(`项目下还有 ${n} 件文物未完成修复，完成后再提交验收`);
  });

  // 报备临期: finished (待验收, 已验收) and the filing deadline within 30 days or past, not yet
  // filed. 年度: the year work started.
  records.registerListFilter(bsRepairProject.name, async (query) => {
    const conds: repo.Cond[] = [];
    if (query.deadlineNear === true) {
      conds.push(
        { field: 'status', op: 'in', value: [4, 5] },
        { field: 'reportDeadline', op: 'ne', value: '' },
        { field: 'reportDeadline', op: 'lte', value: addDays(museumDate(now()), DEADLINE_WARN_DAYS) },
        { field: 'filedDate', op: 'eq', value: '' },
      );
    }
    if (typeof query.year === 'number')
      conds.push(
        { field: 'startDate', op: 'gte', value: `${query.year}-01-01` },
        { field: 'startDate', op: 'lte', value: `${query.year}-12-31` },
      );
    return conds;
  });
}
