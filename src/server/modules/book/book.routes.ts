import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { AddBody, BorrowQuery } from '../../../shared/api/books';
import { bsBookApproval, bsBookInfo } from '../../../shared/records/book/books';
import { IdQuery, listSchema } from '../../../shared/records/schemas';
import { requireTokenHeader } from '../../plugins/auth';
import { replayInstead } from '../../plugins/idempotency';
import type { RecordService } from '../../records/records.service';
import { DONE } from '../../plugins/envelope';
import type { BookService } from './book.service';

/**
 * Book lending's hand-written calls (shared/api/books.ts), beside the engine's lists, details,
 * exports and transitions of the three records: the application, the 借阅 pre-check, the one
 * `receive` call for both kinds, the reader's own list and their details.
 */
export function bookRoutes(app: FastifyInstance, deps: { books: BookService; records: RecordService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { books, records } = deps;

  /** A spec GET that changes something: the token header, and a POST twin for the outbox. */
  function write(
    url: string,
    schema: z.ZodObject,
    summary: string,
    handler: (req: FastifyRequest, input: Record<string, unknown>, reply: FastifyReply) => Promise<unknown>,
  ) {
    r.route({
      method: 'GET',
      url,
      schema: { querystring: schema },
      config: { summary, mutation: true },
      handler: async (req, reply) => {
        requireTokenHeader(req);
        return handler(req, req.query as Record<string, unknown>, reply);
      },
    });
    r.route({
      method: 'POST',
      url,
      schema: { body: schema },
      config: { summary: `${summary}（POST，可带 Idempotency-Key）` },
      handler: async (req, reply) => handler(req, req.body as Record<string, unknown>, reply),
    });
  }

  r.post(
    `${bsBookApproval.base}/add`,
    {
      schema: { body: AddBody },
      config: { summary: '借阅与领用申请 · 提交申请（校验库存、在借上限、逾期和重复申请）' },
    },
    async (req) => books.add(req.user, req.body),
  );
  r.get(
    `${bsBookInfo.base}/borrow`,
    {
      schema: { querystring: BorrowQuery },
      config: { summary: '书刊 · 借阅前检查（能否申请、可借册数、默认应还日期；不做任何改动）' },
    },
    async (req) => books.borrow(req.user, req.query as { id: number; applyType?: number }),
  );
  write(
    `${bsBookApproval.base}/receive`,
    IdQuery,
    '借阅与领用申请 · 确认取书或领取（借阅转借阅中，领用转已领用）',
    async (req, b) =>
      (await books.receive(req.user, b.id as number, (replay) => replayInstead(req, replay))) ?? DONE,
  );
  r.get(
    `${bsBookApproval.base}/pageListEmployee`,
    {
      schema: { querystring: listSchema(bsBookApproval) },
      config: { summary: '借阅与领用申请 · 我的申请（借阅记录、领用记录）' },
    },
    async (req) =>
      records.list(bsBookApproval, req.user, { ...(req.query as object), applicantId: req.user.id } as never),
  );
  r.get(
    `${bsBookApproval.base}/getUserInfo`,
    { config: { summary: '借阅与领用申请 · 申请人信息（姓名、部门、在借数、逾期数、借阅规则）' } },
    async (req) => books.userInfo(req.user),
  );
}
