import type { FastifyInstance } from 'fastify';
import { BookQueueCounts } from '../../../shared/api/books-admin';
import { bsBookApproval } from '../../../shared/records/book/books';
import type { Db } from '../../db/index';
import * as repo from '../../records/records.repo';
import type { Access } from '../auth/access';
import type { LiveBus } from '../notice/live';
import { approverIds } from '../registration/registration.repo';

/** The librarian's grant: every application and the decisions (README "Book lending"). */
const MANAGE = 'book.borrowManagement';

/**
 * The librarian's side of book lending beyond the engine's lists and transitions: the counts of
 * the three queues for the side menu's badges (`GET bsBookApproval/countPending`, ours), kept
 * live: after any write to an application (a reader's request, a decision, a deletion) every
 * holder of 借阅审批 is told to read the counts again.
 */
export function bookAdminRoutes(
  app: FastifyInstance,
  deps: { db: Db; access: Access; bus: LiveBus; report?: (message: string, err: unknown) => void },
) {
  const { db, access, bus } = deps;
  const prefix = `${bsBookApproval.base}/`;
  app.addHook('onResponse', async (req) => {
    const url = req.routeOptions.url ?? '';
    const write = req.method === 'POST' || req.routeOptions.config?.mutation === true;
    if (!write || !url.includes(prefix) || url.endsWith('/export')) return;
    // After the answer, so the write has committed; a refused one only costs a needless refresh.
    try {
      bus.publish(await approverIds(db, MANAGE), ['books']);
    } catch (err) {
      deps.report?.('book queue live notice failed', err);
    }
  });
  app.get(
    `${bsBookApproval.base}/countPending`,
    {
      config: {
        summary: '借阅与领用申请 · 待处理数（借阅待审批、领用待审批、续借待审批；侧栏角标）',
        answer: BookQueueCounts,
      },
    },
    async (req): Promise<BookQueueCounts> => {
      await access.require(req.user, MANAGE);
      const waiting = (applyType: number) =>
        repo.count(db, bsBookApproval, [
          { field: 'applyType', op: 'eq', value: applyType },
          { field: 'status', op: 'eq', value: 1 },
        ]);
      const [bookBorrowCount, bookReceiveCount, bookDelayCount] = await Promise.all([
        waiting(1),
        waiting(2),
        repo.count(db, bsBookApproval, [{ field: 'status', op: 'eq', value: 6 }]),
      ]);
      return { bookBorrowCount, bookReceiveCount, bookDelayCount };
    },
  );
}
