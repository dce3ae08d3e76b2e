import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ShareToUsersBody } from '../../../shared/api/share';
import { DONE } from '../../plugins/envelope';
import type { NoticeService } from './notice.service';

/** /singleMuseum/notice/*: sending notices (the notice centre's reads come with the notices issue). */
export function noticeRoutes(app: FastifyInstance, deps: { notices: NoticeService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // A share link sent to chosen colleagues (the share dialog, for shares without a code).
  r.post('/notice/shareFileToUsers', { schema: { body: ShareToUsersBody } }, async (req) => {
    await deps.notices.notify({
      receivers: req.body.receiver,
      content: req.body.noticeContent,
      source: 'share',
      from: req.user.id,
    });
    return DONE;
  });
}
