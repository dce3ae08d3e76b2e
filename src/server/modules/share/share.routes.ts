import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CancelShareBody,
  CheckCodeQuery,
  MyShareQuery,
  SaveShareBody,
  ShareBatchQuery,
  ShareFileBody,
  ShareFileListQuery,
} from '../../../shared/api/share';
import { clientAddress } from '../../client-address';
import type { Config } from '../../config';
import { DONE } from '../../plugins/envelope';
import { perAddress } from '../../plugins/flood-guard';
import { grantCookie, visitorOf } from '../drive/share-grant';
import { GRANT_MS, type ShareService } from './share.service';

/** Code checks per client address per minute: a flood guard; guessing is stopped per share. */
const CODE_CHECKS_PER_MINUTE = 20;

/**
 * /wangpan/share/* (spec/drive.md §7; shapes in shared/api/share.ts). The visitor's calls are
 * marked `shareVisitor` (no session needed unless SHARE_REQUIRE_LOGIN); the sharer's need one.
 */
export function shareRoutes(app: FastifyInstance, deps: { shares: ShareService; config: Config }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { shares } = deps;
  const visitor = { shareVisitor: 'always' as const };

  r.post('/share/sharefile', { schema: { body: ShareFileBody } }, async (req) =>
    shares.create(req.user, req.body),
  );

  r.get('/share/checkendtime', { schema: { querystring: ShareBatchQuery }, config: visitor }, async (req) =>
    shares.endTime(req.query.shareBatchNum),
  );
  r.get('/share/sharetype', { schema: { querystring: ShareBatchQuery }, config: visitor }, async (req) =>
    shares.info(req.query.shareBatchNum, visitorOf(req)),
  );
  r.get(
    '/share/checkextractioncode',
    {
      schema: { querystring: CheckCodeQuery },
      config: { ...visitor, rateLimit: perAddress(CODE_CHECKS_PER_MINUTE) },
    },
    async (req, reply) => {
      const { shareBatchNum, extractionCode } = req.query;
      const token = await shares.checkExtractionCode(shareBatchNum, extractionCode, clientAddress(req.ip));
      if (token) {
        // HttpOnly: page scripts never see it; the drive's API path only; gone with the grant.
        reply.setCookie(grantCookie(shareBatchNum), token, {
          path: '/wangpan/',
          maxAge: GRANT_MS / 1000,
          sameSite: 'lax',
          secure: Boolean(deps.config.tls),
          httpOnly: true,
        });
      }
      return DONE;
    },
  );
  r.get(
    '/share/sharefileList',
    { schema: { querystring: ShareFileListQuery }, config: visitor },
    async (req) =>
      shares.list(req.query.shareBatchNum, req.query.shareFilePath ?? req.query.path ?? '/', visitorOf(req)),
  );

  r.get('/share/shareList', { schema: { querystring: MyShareQuery } }, async (req) =>
    shares.mine(req.user, req.query),
  );
  r.post('/share/cancelshare', { schema: { body: CancelShareBody } }, async (req) => {
    await shares.cancel(req.user, req.body.shareBatchNums);
    return DONE;
  });
  r.post('/share/savesharefile', { schema: { body: SaveShareBody } }, async (req) => {
    await shares.save(req.user, req.body, visitorOf(req));
    return DONE;
  });
}
