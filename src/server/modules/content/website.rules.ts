import {
  IDENTIFY_DONE,
  IDENTIFY_REFUSED,
  bsIdentify,
  bsIdentifyRecord,
} from '../../../shared/records/content/website';
import { invalid } from '../../errors';
import * as repo from '../../records/records.repo';
import type { RecordService } from '../../records/records.service';

/**
 * The rules of the website's 文物鉴定 that read the database (README "Website and English
 * website pages"), registered on the records engine:
 *
 * - a 鉴定记录 may not name a request refused (不予受理); one still 待受理 may get one (a relic
 *   appraised on the spot on an appraisal day before the desk accepted the request), but it is
 *   marked 已鉴定 only once accepted;
 * - 标记已鉴定 (from 已受理) needs at least one 鉴定记录 of the request (the result the applicant
 *   will read);
 * - the last record of a request marked 已鉴定 stays (the request would lose its result).
 *
 * The articles', milestones', relics' and events' links are the content module's checks (they
 * are content records).
 */
export function registerWebsiteRules(records: RecordService) {
  const recordsOf = (q: Parameters<typeof repo.count>[0], requestId: number) =>
    repo.count(q, bsIdentifyRecord, [{ field: 'requestId', op: 'eq', value: requestId }]);

  records.registerWriteCheck(bsIdentifyRecord.name, async (q, row) => {
    if (row.requestId === null || row.requestId === undefined || row.requestId === '') return null;
    const req = await repo.find(q, bsIdentify, Number(row.requestId));
    // A missing request is the engine's ref check's refusal.
    if (!req) return null;
    if (Number(req.status) === IDENTIFY_REFUSED)
      return {
        field: 'requestId',
        message: `鉴定申请“${bsIdentify.describe(req)}”已不予受理，不能登记鉴定记录`,
      };
    return null;
  });

  records.registerEffect(`${bsIdentify.name}.hasRecord`, async (trx, { row }) => {
    if (!(await recordsOf(trx, row.id)))
      throw invalid(
        `“${bsIdentify.describe(row)}”还没有鉴定记录，请先在“鉴定记录”中登记专家的鉴定结论，再标记为已鉴定`,
      );
  });

  records.registerDeleteGuard(bsIdentifyRecord.name, async (trx, row) => {
    if (row.requestId === null || row.requestId === undefined) return null;
    const req = await repo.find(trx, bsIdentify, Number(row.requestId));
    if (!req || Number(req.status) !== IDENTIFY_DONE) return null;
    return (await recordsOf(trx, req.id)) <= 1
      ? `鉴定申请“${bsIdentify.describe(req)}”已标记为已鉴定，这是它唯一的鉴定记录，不能删除；如结论有误请修改这条记录`
      : null;
  });
}
