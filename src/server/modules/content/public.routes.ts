import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CONTENT_MEDIA_MAX_AGE,
  CONTENT_MEDIA_PER_MINUTE,
  CONTENT_PUBLIC_BASE,
  CONTENT_PUBLIC_MAX_AGE,
  CONTENT_PUBLIC_READS_PER_MINUTE,
  PUBLIC_KINDS,
  PublicDetailQuery,
  PublicHome,
  PublicHomeQuery,
  PublicItem,
  PublicListQuery,
  PublicMediaQuery,
  PublicPage,
  type PublicKind,
} from '../../../shared/api/content-public';
import type { BlobStore } from '../../storage/blob-store';
import { envelope } from '../../plugins/envelope';
import { perAddress } from '../../plugins/flood-guard';
import { FILE_ANSWER, noneMatch, sendPreview } from '../drive/download';
import type { PublicContentService } from './public.service';
import { visitOf, type MuseumVisit, type ViewKind } from './views';

/** What a list call of each kind filters by, for its summary in the API document. */
const FILTER_WORDS: Partial<Record<PublicKind, string>> = {
  carousel: '；position 展示位置（默认按语言：zh 1 小程序首页，en 5 英文官网首页）',
  exhibition: '；phase 展出状态 now/upcoming/closed',
  chapter: '；showroomId 所属展厅',
  unit: '；chapterId 所属章节，labelCode 展签编号',
  science: '；category 类别 1 学术专题 · 2 学术会议 · 3 学术专著 · 4 学术论文',
  news: '；category 1 News · 2 Notice',
  article: '；column 栏目 1 清宫文化 · 2 资讯 · 3 公告 · 4 制度建设',
};

/**
 * The answer with a weak ETag of its data and a short public Cache-Control; a request whose
 * If-None-Match names the same data answers 304 with no body. The tag is made from what would
 * be sent, so two instances answer the same tag for the same rows (no per-process state).
 */
function cached(req: FastifyRequest, reply: FastifyReply, data: unknown) {
  const body = envelope(req.url, 0, '成功', data);
  const text = JSON.stringify(body);
  const etag = `W/"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
  reply.header('etag', etag);
  reply.header('cache-control', `public, max-age=${CONTENT_PUBLIC_MAX_AGE}`);
  if (noneMatch(req.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(text);
}

/**
 * The public read API of the website and mini-program content (shared/api/content-public.ts;
 * README "Public read API and preview"), under /singleMuseum/contentPublic: no sign-in
 * (`public`), GET only, each call limited per client address. Readable from any origin
 * (`Access-Control-Allow-Origin: *`, never with credentials), so a website on another host
 * can be built on it; it carries no session and answers nothing private.
 */
export function publicContentRoutes(
  app: FastifyInstance,
  deps: {
    content: PublicContentService;
    store: BlobStore;
    /**
     * Counts a visit (views.ts countView): a detail read as a view, a media request of an audio
     * or video row as a play. A lost count never fails the visitor's answer.
     */
    count?: (visit: MuseumVisit, table: string, id: number, kind: ViewKind) => Promise<boolean>;
  },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { content } = deps;

  async function counted(req: FastifyRequest, table: string, id: number, kind: ViewKind) {
    if (!deps.count) return;
    try {
      await deps.count(visitOf(req), table, id, kind);
    } catch (err) {
      req.log.warn({ err: String(err), table, id }, 'content view not counted');
    }
  }
  const base = CONTENT_PUBLIC_BASE;
  const reads = {
    public: true,
    audit: false as const,
    rateLimit: perAddress(CONTENT_PUBLIC_READS_PER_MINUTE),
  };
  const cors = async (_req: FastifyRequest, reply: FastifyReply) => {
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-expose-headers', 'ETag, Content-Range, Accept-Ranges, Content-Length');
    // helmet's same-origin default would stop another site's <img> and <audio> from loading them.
    reply.header('cross-origin-resource-policy', 'cross-origin');
  };

  r.get(
    `${base}/home`,
    {
      schema: { querystring: PublicHomeQuery },
      onRequest: cors,
      config: {
        ...reads,
        answer: PublicHome,
        summary:
          '网站与小程序内容（公开）· 首页：轮播图（zh 小程序首页 / en 英文官网首页，按排序）、展出中的展览、导览展厅（含讲解音频）；lang=zh|en',
      },
    },
    async (req, reply) => cached(req, reply, await content.home(req.query.lang)),
  );

  for (const kind of Object.keys(PUBLIC_KINDS) as PublicKind[]) {
    const k = PUBLIC_KINDS[kind] as { title: string; zh?: string; en?: string };
    const langs = [k.zh ? 'zh' : '', k.en ? 'en' : ''].filter(Boolean).join('、');
    r.get(
      `${base}/${kind}/list`,
      {
        schema: { querystring: PublicListQuery },
        onRequest: cors,
        config: {
          ...reads,
          answer: PublicPage,
          summary: `网站与小程序内容（公开）· ${k.title}列表：仅已发布的（按排序；语言 ${langs}）；page 页码，pageSize 每页 1–50 条${FILTER_WORDS[kind] ?? ''}`,
        },
      },
      async (req, reply) => cached(req, reply, await content.list(kind, req.query)),
    );
    r.get(
      `${base}/${kind}/detail`,
      {
        schema: { querystring: PublicDetailQuery },
        onRequest: cors,
        config: {
          ...reads,
          answer: PublicItem,
          summary: `网站与小程序内容（公开）· ${k.title}详情（含正文；未发布、已下架或不存在的答“不存在或未发布”）`,
        },
      },
      async (req, reply) => {
        const item = await content.detail(kind, req.query.id, req.query.lang);
        await counted(req, content.recordOf(kind, req.query.lang), req.query.id, 'view');
        return cached(req, reply, item);
      },
    );
  }

  r.get(
    `${base}/media`,
    {
      ...FILE_ANSWER,
      schema: { querystring: PublicMediaQuery },
      onRequest: cors,
      // sendPreview marks its answers private; these are public, for browsers and CDNs alike.
      onSend: async (_req, reply, payload) => {
        if (reply.statusCode < 400) reply.header('cache-control', `public, max-age=${CONTENT_MEDIA_MAX_AGE}`);
        return payload;
      },
      config: {
        public: true,
        audit: false as const,
        rateLimit: perAddress(CONTENT_MEDIA_PER_MINUTE),
        summary:
          '网站与小程序内容（公开）· 文件：已发布内容的图片、音频、视频与 PDF（支持 Range 断点与拖动播放，ETag）；其他一律 404 文件不存在或未公开',
      },
    },
    async (req, reply) => {
      const { plan, kind, owner } = await content.media(req.query.id);
      // Only the first bytes count as a play: a player's later ranges are the same play, and
      // a HEAD (FILE_ANSWER) asks for the headers alone.
      if (kind === 'audio' || kind === 'video') {
        const range = req.headers.range;
        if (req.method === 'GET' && (!range || /^bytes=0-/.test(range)))
          await counted(req, owner.table, owner.id, 'play');
      }
      // sendPreview treats only text specially: images, audio, video and PDFs go inline, ranged.
      return sendPreview(req, reply, plan, kind === 'file' ? 'video' : kind, deps.store);
    },
  );
}
