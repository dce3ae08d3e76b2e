import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AnnounceCreate,
  AnnounceIdBody,
  AnnounceIdQuery,
  AnnouncePageQuery,
  AnnounceReadQuery,
  AnnounceUpdate,
  PublishOrCancelBody,
} from '../../../shared/api/announce';
import { DONE } from '../../plugins/envelope';
import type { AnnounceService } from './announce.service';

/** /singleMuseum/infoPublish/*: notice publishing (see src/shared/api/announce.ts). */
export function announceRoutes(app: FastifyInstance, deps: { announce: AnnounceService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { announce } = deps;

  r.get('/infoPublish/pageList', { schema: { querystring: AnnouncePageQuery } }, async (req) => {
    await announce.requireAdmin(req.user);
    return announce.adminPage(req.query);
  });
  r.post('/infoPublish/add', { schema: { body: AnnounceCreate } }, async (req) => {
    await announce.requireAdmin(req.user);
    return announce.create(req.user, req.body);
  });
  r.post('/infoPublish/edit', { schema: { body: AnnounceUpdate } }, async (req) => {
    await announce.requireAdmin(req.user);
    return announce.update(req.user, req.body);
  });
  r.post('/infoPublish/delete', { schema: { body: AnnounceIdBody } }, async (req) => {
    await announce.requireAdmin(req.user);
    await announce.remove(req.body.id);
    return DONE;
  });
  r.post('/infoPublish/publishOrCancel', { schema: { body: PublishOrCancelBody } }, async (req) => {
    await announce.requireAdmin(req.user);
    return announce.publishOrCancel(req.user, req.body.id, req.body.status);
  });

  // Staff: what is published for me (the workbench and /home/notice-list), and one announcement.
  r.get('/infoPublish/readList', { schema: { querystring: AnnounceReadQuery } }, async (req) => {
    await announce.requireReader(req.user);
    return announce.readerPage(req.user, req.query);
  });
  r.get('/infoPublish/detail', { schema: { querystring: AnnounceIdQuery } }, async (req) => {
    await announce.requireReader(req.user);
    return announce.detail(req.user, req.query.id);
  });
}
