import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IsbnQuery } from '../../../shared/api/books-stats';
import { bsBookInfo } from '../../../shared/records/book/books';
import { IdQuery } from '../../../shared/records/schemas';
import type { Db } from '../../db/index';
import { notFound } from '../../errors';
import * as repo from '../../records/records.repo';
import type { RecordService } from '../../records/records.service';
import type { AttachService } from '../attach/attach.service';
import { contentDisposition } from '../drive/download';
import { noteAudit } from '../syslog/syslog.plugin';
import type { BookStats } from './book.stats';

/**
 * The panel's figures (`total`, `chartOne` … `chartFour`), the form's ISBN look-up and the
 * e-book download, under `/singleMuseum/book/bsBookInfo` (README "Book lending").
 */

const GONE_BOOK = '该书刊不存在或已删除，请刷新后重试';
const TYPES: Record<string, string> = { pdf: 'application/pdf', epub: 'application/epub+zip' };

/** A title as a file name: no path separators, reserved or control characters, at most 80 characters. */
export function ebookFileName(title: string, ext: string): string {
  const safe = Array.from(
    title
      .replace(/\p{Cc}/gu, '')
      .replace(/[\\/:*?"<>|]/g, '_')
      .trim(),
  )
    .slice(0, 80)
    .join('')
    .replace(/^\.+/, '');
  return `${safe || '电子版'}.${ext}`;
}

export function bookStatsRoutes(
  app: FastifyInstance,
  deps: { stats: BookStats; db: Db; records: RecordService; attach: AttachService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { stats } = deps;
  const base = bsBookInfo.base;

  r.get(
    `${base}/total`,
    {
      config: {
        summary: '书刊 · 借阅概览的计数（图书种/册、期刊期数、出版物种数、在借、逾期、待审批、待处理延期）',
      },
    },
    async (req) => stats.total(req.user),
  );
  r.get(`${base}/chartOne`, { config: { summary: '书刊 · 馆藏按中图法大类（饼图）' } }, async (req) =>
    stats.chartOne(req.user),
  );
  r.get(
    `${base}/chartTwo`,
    { config: { summary: '书刊 · 近 12 个月每月借阅与领用（折线图）' } },
    async (req) => stats.chartTwo(req.user),
  );
  r.get(`${base}/chartThree`, { config: { summary: '书刊 · 借阅最多的 10 种书（柱状图）' } }, async (req) =>
    stats.chartThree(req.user),
  );
  r.get(`${base}/chartFour`, { config: { summary: '书刊 · 各部门借阅次数（柱状图）' } }, async (req) =>
    stats.chartFour(req.user),
  );
  r.get(
    `${base}/isbn`,
    {
      schema: { querystring: IsbnQuery },
      config: { summary: '书刊 · 按 ISBN 查馆藏已有的书目信息（表单填充；10 或 13 位，可带连字符）' },
    },
    async (req) => stats.isbn(req.user, req.query.isbn),
  );

  /**
   * `GET bsBookInfo/download?id=`: the row's 电子版 as an attachment, to whoever may read the
   * catalogue, and in the system log as 下载 (like 下载中心's). A navigation: the cookie is
   * enough, as for every download, and downloading changes nothing.
   */
  r.get(
    `${base}/download`,
    {
      schema: { querystring: IdQuery },
      config: { summary: '书刊 · 下载电子版（记入系统日志）', audit: { action: '下载' } },
    },
    async (req, reply) => {
      const { conds } = await deps.records.readScope(bsBookInfo, req.user);
      const row = await repo.find(deps.db, bsBookInfo, req.query.id, conds);
      if (!row) throw notFound(GONE_BOOK);
      noteAudit(req, { table: bsBookInfo.table, targetId: row.id });
      const fileId = (row.ebookFileId as number[] | undefined)?.[0];
      if (!fileId) throw notFound(`《${String(row.title ?? '')}》没有电子版，请到资料室借阅纸本`);
      const { row: file, open } = await deps.attach.openReadable(req.user, fileId, { image: false });
      const ext = (/\.([a-z0-9]+)$/i.exec(file.name)?.[1] ?? '').toLowerCase();
      const type = TYPES[ext];
      reply.header(
        'content-disposition',
        contentDisposition(type ? ebookFileName(String(row.title ?? ''), ext) : file.name),
      );
      reply.header('x-content-type-options', 'nosniff');
      reply.header('cache-control', 'private, no-cache');
      reply.header('content-length', String(file.size));
      reply.type(type ?? 'application/octet-stream');
      return reply.send(open());
    },
  );
}
