import type { Db } from '../../db/index';
import { PASSED } from '../../../shared/workflow/attendance';

/**
 * SQL of 考勤: the passed approval requests (migration 0011) with the definitions that say
 * whether and how they count. Attendance keeps no table of its own: it is derived from the
 * requests, so a refusal, a cancel or a later change of a template's kind is never out of step.
 *
 * Each row carries its pinned version's definition (the form fields its values fill) and the
 * template's current published definition (whose `attendanceKind` decides the column, so an
 * administrator's correction applies to past requests too). A museum passes a few thousand such
 * requests a year, so the service filters by month in memory rather than in SQL over JSON.
 */
export function passedRequests(db: Db, starterIds?: readonly number[]) {
  return db
    .selectFrom('approval_request as r')
    .innerJoin('approval_template as t', 't.id', 'r.template_id')
    .innerJoin('workflow_version as pv', (j) =>
      j.onRef('pv.template_id', '=', 'r.template_id').onRef('pv.version', '=', 'r.version'),
    )
    .innerJoin('workflow_version as cv', (j) =>
      j.onRef('cv.template_id', '=', 't.id').onRef('cv.version', '=', 't.current_version'),
    )
    .select([
      'r.id',
      'r.starter_id',
      'r.title',
      'r.form',
      'r.template_id',
      'r.version',
      't.name as template_name',
      'pv.definition as pinned',
      'cv.definition as current',
    ])
    .where('r.status', '=', PASSED)
    .$if(starterIds !== undefined, (q) => q.where('r.starter_id', 'in', [...starterIds!, -1]))
    .orderBy('r.id')
    .execute();
}
