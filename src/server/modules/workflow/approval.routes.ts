import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  InstApprovalBody,
  InstCancelBody,
  InstCommentBody,
  InstCommentDelBody,
  InstDeliverBody,
  InstIdBody,
  InstListQuery,
  InstStartBody,
  InstTemplatesQuery,
} from '../../../shared/api/workflow';
import { formatMuseumTime } from '../../../shared/rules/museum-time';
import { AppError } from '../../errors';
import { DONE } from '../../plugins/envelope';
import { PRINT_HEADERS, printPage, refusalPage } from './approval.print';
import { INST_MSG, type ApprovalService } from './approval.service';

/**
 * /singleMuseum/workflowInst/*: approval requests (spec/office.md §7 "Approvals"; start and
 * list are ours, the spec does not show them). Who may do what is the service's rule: every
 * signed-in member of staff reaches these routes, and a request they may not see answers as
 * not found.
 */
export function approvalRoutes(app: FastifyInstance, deps: { approvals: ApprovalService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { approvals } = deps;
  r.post('/workflowInst/start', { schema: { body: InstStartBody } }, async (req) =>
    approvals.start(req.user, req.body),
  );
  r.post('/workflowInst/approval', { schema: { body: InstApprovalBody } }, async (req) =>
    approvals.decide(req.user, req.body.actvityId, req.body.action, req.body.reason),
  );
  r.post('/workflowInst/cancel', { schema: { body: InstCancelBody } }, async (req) =>
    approvals.cancel(req.user, req.body.actvityId, req.body.reason),
  );
  r.post('/workflowInst/deliver', { schema: { body: InstDeliverBody } }, async (req) =>
    approvals.deliver(req.user, req.body.actvityId, req.body.target),
  );
  r.post('/workflowInst/comment', { schema: { body: InstCommentBody } }, async (req) =>
    approvals.comment(req.user, req.body.actvityId, req.body.comment),
  );
  r.post('/workflowInst/commentDel', { schema: { body: InstCommentDelBody } }, async (req) => {
    await approvals.deleteComment(req.user, req.body.actvityId, req.body.delete);
    return DONE;
  });
  // Opening a copied-to-me request marks it read (spec §4): off the list, onto the readList.
  r.post('/workflowInst/read', { schema: { body: InstIdBody } }, async (req) => {
    await approvals.read(req.user, req.body.actvityId);
    return DONE;
  });
  r.post('/workflowInst/data', { schema: { body: InstIdBody } }, async (req) =>
    approvals.detail(req.user, req.body.actvityId),
  );
  /*
   * The printable page (spec: GET …/print?id, page navigation). A GET, so the token cookie is
   * accepted (like attach/downloadFile); a page the caller may not see, or a malformed id, is
   * the same Chinese refusal page (whether the request exists is not told). No session at all
   * answers the app-wide HTTP 999 before this runs.
   */
  r.get('/workflowInst/print', async (req, reply) => {
    reply.headers(PRINT_HEADERS);
    const raw = (req.query as { id?: unknown }).id;
    const id = typeof raw === 'string' && /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : null;
    if (id === null) return reply.code(404).send(refusalPage(INST_MSG.gone));
    try {
      const d = await approvals.detail(req.user, id);
      return reply.send(printPage(d, formatMuseumTime(Date.now())));
    } catch (err) {
      if (err instanceof AppError) return reply.code(404).send(refusalPage(err.message));
      throw err;
    }
  });
  r.get('/workflowInst/list', { schema: { querystring: InstListQuery } }, async (req) =>
    approvals.list(req.user, req.query),
  );
  r.get('/workflowInst/templates', { schema: { querystring: InstTemplatesQuery } }, async (req) =>
    approvals.templates(req.query.category),
  );
}
