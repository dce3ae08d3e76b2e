import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ATTACH_CHUNK_BYTES,
  ATTACH_MAX_BYTES,
  ATTACH_MULTI_MAX,
  ATTACH_TOO_LARGE,
  AttachChunkFields,
  AttachChunkQuery,
  AttachFromDriveBody,
  AttachTable,
  AttachmentIdQuery,
  DeleteAttachmentQuery,
  IMAGE_MAX_BYTES,
  IMAGE_TOO_LARGE,
} from '../../../shared/api/attach';
import { replaceSpoofingChars } from '../../../shared/drive/names';
import { invalid } from '../../errors';
import { DONE, firstIssueMessage } from '../../plugins/envelope';
import { FILE_ANSWER, noneMatch, sendDownload } from '../drive/download';
import { CHUNK_RATE_PER_MINUTE } from '../drive/upload.routes';
import type { ChunkUploads } from './attach.chunks';
import { attachNameProblem, type AttachService } from './attach.service';

/** Room for the multipart framing and the small form fields around the file. */
const FORM_SLACK = 64 * 1024;

/** The most a form's framing and its few small fields (5 of at most 1000 bytes) can take. */
const FORM_FRAMING = 8 * 1024;

/**
 * At least the bytes a form will bring (its length less the framing): a person whose budget
 * of unsaved attachments cannot take them is refused before the body is read. The exact
 * check, on the real size, is made when the file is kept.
 */
function formBytes(req: FastifyRequest): number {
  return Math.max(1, (Number(req.headers['content-length']) || 0) - FORM_FRAMING);
}

function tableOf(raw: string): string {
  const parsed = AttachTable.safeParse(raw.trim());
  if (!parsed.success) throw invalid('不支持的附件类别（tableName）');
  return parsed.data;
}

/** /singleMuseum/attach/*: uploading, downloading and deleting attachments (see shared/api/attach.ts). */
export function attachRoutes(app: FastifyInstance, deps: { attach: AttachService; chunks: ChunkUploads }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { attach, chunks } = deps;

  /**
   * One file from a multipart form, streamed to disk as it arrives (never buffered). The form
   * field `tableName` may come before or after the file; when it comes first the grant is
   * checked before any byte is read.
   */
  async function upload(req: FastifyRequest, reply: FastifyReply, image: boolean) {
    const max = image ? IMAGE_MAX_BYTES : ATTACH_MAX_BYTES;
    // An unread body is not worth keeping the connection for.
    const refuse = (message: string) => {
      if (!req.raw.readableEnded) reply.header('connection', 'close');
      return invalid(message);
    };
    if (!req.isMultipart()) throw refuse('请选择要上传的文件');
    if (Number(req.headers['content-length']) > max + FORM_SLACK)
      throw refuse(image ? IMAGE_TOO_LARGE : ATTACH_TOO_LARGE);
    await attach.assertMayUpload(req.user);
    try {
      await attach.precheckBudget(req.user, formBytes(req));
    } catch (err) {
      if (!req.raw.readableEnded) reply.header('connection', 'close');
      throw err;
    }
    let table: string | undefined;
    let name: string | undefined;
    let got: Awaited<ReturnType<AttachService['receive']>> | undefined;
    try {
      // The app-wide multipart limit is the avatar's 2 MB; attachments pass their own.
      const parts = req.parts({ limits: { fileSize: max + 1, files: 1, fields: 5, fieldSize: 1000 } });
      for await (const part of parts) {
        if (part.type === 'field') {
          if (part.fieldname === 'tableName') {
            table = tableOf(String(part.value));
            if (!got) await attach.assertMayUpload(req.user, table);
          }
          continue;
        }
        if (part.fieldname !== 'file' || got) {
          part.file.resume();
          continue;
        }
        name = part.filename;
        const nameErr = attachNameProblem(name);
        if (nameErr) throw refuse(nameErr);
        got = await attach.receive(part.file, { image });
      }
      if (!got) throw refuse('请选择要上传的文件');
      // Editor images default to the announcement editor's table.
      table ??= image ? 'announcement' : undefined;
      if (!table) throw refuse('缺少附件类别（tableName）');
      await attach.assertMayUpload(req.user, table);
      return await attach.keep(req.user, got, { table, name, image });
    } catch (err) {
      if (!req.raw.readableEnded) reply.header('connection', 'close');
      throw err;
    } finally {
      await got?.staged.discard();
    }
  }

  r.post('/attach/upload', async (req, reply) => upload(req, reply, false));
  r.post('/attach/uploadimage', async (req, reply) => upload(req, reply, true));

  // Several files at once, all or none (shared/api/attach.ts).
  r.post('/attach/uploadMulti', async (req, reply) => {
    const refuse = (message: string) => {
      if (!req.raw.readableEnded) reply.header('connection', 'close');
      return invalid(message);
    };
    if (!req.isMultipart()) throw refuse('请选择要上传的文件');
    if (Number(req.headers['content-length']) > ATTACH_MAX_BYTES + FORM_SLACK)
      throw refuse('一次上传的文件总大小不能超过500MB');
    await attach.assertMayUpload(req.user);
    try {
      await attach.precheckBudget(req.user, formBytes(req));
    } catch (err) {
      if (!req.raw.readableEnded) reply.header('connection', 'close');
      throw err;
    }
    let table: string | undefined;
    let total = 0;
    const got: (Awaited<ReturnType<AttachService['receive']>> & { name: string })[] = [];
    try {
      const parts = req.parts({
        limits: { fileSize: ATTACH_MAX_BYTES + 1, files: ATTACH_MULTI_MAX + 1, fields: 5, fieldSize: 1000 },
      });
      for await (const part of parts) {
        if (part.type === 'field') {
          if (part.fieldname === 'tableName' && table === undefined) {
            table = tableOf(String(part.value));
            await attach.assertMayUpload(req.user, table);
          }
          continue;
        }
        if (part.fieldname !== 'file') {
          part.file.resume();
          continue;
        }
        // The table must come first here: many files are not read on trust.
        if (!table) throw refuse('缺少附件类别（tableName），请放在文件之前');
        if (got.length >= ATTACH_MULTI_MAX) throw refuse(`一次最多上传 ${ATTACH_MULTI_MAX} 个文件`);
        const nameErr = attachNameProblem(part.filename);
        // Names which file, with the hidden characters shown as _ so the name cannot spoof here too.
        if (nameErr) throw refuse(`“${replaceSpoofingChars(part.filename, '_')}”：${nameErr}`);
        const one = await attach.receive(part.file, { image: false });
        got.push({ ...one, name: part.filename });
        total += one.staged.size;
        if (total > ATTACH_MAX_BYTES) throw refuse('一次上传的文件总大小不能超过500MB');
      }
      if (!got.length || !table) throw refuse('请选择要上传的文件');
      return await attach.keepAll(req.user, got, table);
    } catch (err) {
      if (!req.raw.readableEnded) reply.header('connection', 'close');
      throw err;
    } finally {
      for (const g of got) await g.staged.discard();
    }
  });

  // A resumable chunked upload (shared/api/attach.ts): the fields first, then the `file` part.
  // The drive's chunk rate, per person like it: a 500 MB file is 245 chunks.
  const chunkRate = { rateLimit: { max: CHUNK_RATE_PER_MINUTE, timeWindow: 60_000 } };
  r.post('/attach/chunk', { config: chunkRate }, async (req, reply) => {
    if (!req.isMultipart()) throw invalid('请选择要上传的文件');
    if (Number(req.headers['content-length']) > ATTACH_CHUNK_BYTES + FORM_SLACK) {
      reply.header('connection', 'close');
      throw invalid('分片过大，每个分片最多 2048000 字节');
    }
    const file = await req.file({ limits: { fileSize: ATTACH_CHUNK_BYTES + 1, files: 1, fields: 10 } });
    if (!file) throw invalid('请选择要上传的文件');
    const fields: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(file.fields)) {
      const f = Array.isArray(v) ? v[0] : v;
      if (f && f.type === 'field') fields[k] = f.value;
    }
    const parsed = AttachChunkFields.safeParse(fields);
    if (!parsed.success) {
      file.file.resume();
      throw invalid(firstIssueMessage(parsed.error));
    }
    try {
      await attach.assertMayUpload(req.user, parsed.data.tableName);
    } catch (err) {
      file.file.resume();
      throw err;
    }
    return chunks.chunk(req.user, parsed.data, file.file);
  });
  r.get('/attach/chunk', { schema: { querystring: AttachChunkQuery } }, async (req) =>
    chunks.status(req.user, req.query.uploadId),
  );
  // Cancel (issue 16 §1): the client calls it when a person cancels, or an upload fails for
  // good (its uploadId is never used again), so the chunks and held room go at once.
  r.delete('/attach/chunk', { schema: { querystring: AttachChunkQuery } }, async (req) =>
    chunks.cancel(req.user, req.query.uploadId),
  );

  r.post('/attach/fromDrive', { schema: { body: AttachFromDriveBody } }, async (req) =>
    attach.fromDrive(req.user, {
      table: req.body.tableName,
      userFileId: req.body.userFileId,
      image: req.body.image,
    }),
  );

  r.get(
    '/attach/downloadFile',
    { ...FILE_ANSWER, schema: { querystring: AttachmentIdQuery } },
    async (req, reply) => {
      const { row, store } = await attach.openReadable(req.user, req.query.attachmentId, { image: false });
      // The drive's sender (README "Media: Range and durations"): an attachment with nosniff, and
      // HTTP Range (206, 416, If-Range, Accept-Ranges), so a staff audio or video player can seek.
      const plan = {
        kind: 'file',
        name: row.name,
        md5: row.md5,
        size: row.size,
        mtime: row.created_at,
      } as const;
      return sendDownload(req, reply, plan, store);
    },
  );

  // Editor images, inline: only bytes sniffed as PNG, JPEG, GIF or WebP, never SVG or HTML.
  r.get('/attach/image', { schema: { querystring: AttachmentIdQuery } }, async (req, reply) => {
    const { row, open } = await attach.openReadable(req.user, req.query.attachmentId, { image: true });
    const etag = `"${row.md5}"`;
    reply.header('x-content-type-options', 'nosniff');
    reply.header('content-security-policy', "sandbox; default-src 'none'");
    // Revalidated each time: a reader whose access ends (the announcement was withdrawn) stops seeing it.
    reply.header('cache-control', 'private, no-cache');
    reply.header('etag', etag);
    if (noneMatch(req.headers['if-none-match'], etag)) return reply.code(304).send();
    reply.header('content-length', String(row.size));
    reply.type(row.mime!);
    return reply.send(open());
  });

  // The spec's GET; a change all the same, so the token header is required (config.mutation).
  r.get(
    '/attach/deleteAttachment',
    { schema: { querystring: DeleteAttachmentQuery }, config: { mutation: true } },
    async (req) => {
      await attach.remove(req.user, req.query.id);
      return DONE;
    },
  );
}
