import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApplyChangeExtra,
  ApplyDownloadQuery,
  ApplyExtractBody,
  ApplyIdQuery,
  ApplyListQuery,
} from '../../../shared/api/collection';
import { bsDigitalassetsInfo } from '../../../shared/records/collection/collection';
import { createSchema, updateSchema } from '../../../shared/records/schemas';
import { AttachmentIdQuery } from '../../../shared/api/attach';
import type { BlobStore } from '../../storage/blob-store';
import { notFound } from '../../errors';
import { FILE_ANSWER, noneMatch, sendDownload } from '../drive/download';
import type { CollectionService } from './collection.service';
import { loadSharp } from '../../lazy';

/** A reader's preview: the long side at most this many pixels (README "Collection (issue 24)"). */
export const PREVIEW_PX = 1280;

/**
 * The collection's hand-written calls (README "Collection (issue 24)"), beside the engine's
 * 藏品 list, detail and export: the data approvals under /bsDigitalassetsApply, the sidebar's
 * countApproval, and a reader's reduced preview of a 藏品 image.
 */
export function collectionRoutes(
  app: FastifyInstance,
  deps: {
    collection: CollectionService;
    store: BlobStore;
    resourceCounts: (userId: number) => Promise<unknown>;
  },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { collection } = deps;
  const base = '/bsDigitalassetsApply';
  const def = bsDigitalassetsInfo;

  r.post(
    `${base}/add`,
    {
      schema: { body: createSchema(def).extend(ApplyChangeExtra.shape) },
      config: { summary: '数据审批 · 申请新增藏品（审批通过后写入藏品资料）' },
    },
    async (req) => collection.applyChange(req.user, req.body as never),
  );
  r.post(
    `${base}/update`,
    {
      schema: { body: updateSchema(def).extend(ApplyChangeExtra.shape) },
      config: { summary: '数据审批 · 申请修改藏品（审批通过后写入藏品资料）' },
    },
    async (req) => collection.applyChange(req.user, req.body as never),
  );
  r.post(
    `${base}/extract`,
    { schema: { body: ApplyExtractBody }, config: { summary: '数据提取 · 申请提取高清原图' } },
    async (req) => collection.applyExtract(req.user, req.body),
  );
  r.get(
    `${base}/pageList`,
    {
      schema: { querystring: ApplyListQuery },
      config: { summary: '数据审批 · 我的申请（1）或我审核的（2）' },
    },
    async (req) => collection.list(req.user, req.query),
  );
  r.get(
    `${base}/detail`,
    { schema: { querystring: ApplyIdQuery }, config: { summary: '数据审批 · 详情（修改前后对比、图片）' } },
    async (req) => collection.detail(req.user, req.query.id),
  );
  r.get(
    `${base}/download`,
    {
      ...FILE_ANSWER,
      schema: { querystring: ApplyDownloadQuery },
      config: { summary: '数据提取 · 下载原图（审批通过后限期有效）' },
    },
    async (req, reply) => {
      const a = await collection.download(req.user, req.query.id, req.query.attachmentId);
      const plan = {
        kind: 'file',
        name: a.name,
        md5: a.md5,
        size: Number(a.size),
        mtime: Number(a.created_at),
      } as const;
      return sendDownload(req, reply, plan, deps.store);
    },
  );

  r.get(
    `${def.base}/countApproval`,
    { config: { summary: '数字资源 · 待我审批的数据审核与数据提取数' } },
    async (req) => deps.resourceCounts(req.user.id),
  );

  // A reader's image: at most PREVIEW_PX on its long side, re-encoded as JPEG (no metadata).
  r.get(
    `${def.base}/preview`,
    { schema: { querystring: AttachmentIdQuery }, config: { summary: '藏品资料 · 图片预览（缩小图）' } },
    async (req, reply) => {
      const a = await collection.previewable(req.user, req.query.attachmentId);
      if (!a) throw notFound('图片不存在或无权查看');
      const etag = `"p${PREVIEW_PX}-${a.md5}"`;
      reply.header('x-content-type-options', 'nosniff');
      reply.header('cache-control', 'private, no-cache');
      reply.header('etag', etag);
      if (noneMatch(req.headers['if-none-match'], etag)) return reply.code(304).send();
      const chunks: Buffer[] = [];
      for await (const c of deps.store.open(a.md5)) chunks.push(c as Buffer);
      const sharp = await loadSharp();
      const out = await sharp(Buffer.concat(chunks), { limitInputPixels: 100_000_000 })
        .rotate()
        .resize(PREVIEW_PX, PREVIEW_PX, { fit: 'inside', withoutEnlargement: true })
        .jpeg({ quality: 80 })
        .toBuffer();
      reply.type('image/jpeg');
      return reply.send(out);
    },
  );
}
