import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ATTACH_MAX_BYTES,
  ATTACH_TOO_LARGE,
  AttachTable,
  AttachmentIdQuery,
  DeleteAttachmentQuery,
  IMAGE_MAX_BYTES,
  IMAGE_TOO_LARGE,
} from '../../../shared/api/attach';
import { invalid } from '../../errors';
import { DONE } from '../../plugins/envelope';
import { contentDisposition, noneMatch } from '../drive/download';
import type { AttachService } from './attach.service';

/** Room for the multipart framing and the small form fields around the file. */
const FORM_SLACK = 64 * 1024;

function tableOf(raw: string): string {
  const parsed = AttachTable.safeParse(raw.trim());
  if (!parsed.success) throw invalid('不支持的附件类别（tableName）');
  return parsed.data;
}

/** /singleMuseum/attach/*: uploading, downloading and deleting attachments (see shared/api/attach.ts). */
export function attachRoutes(app: FastifyInstance, deps: { attach: AttachService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { attach } = deps;

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

  r.get('/attach/downloadFile', { schema: { querystring: AttachmentIdQuery } }, async (req, reply) => {
    const { row, open } = await attach.openReadable(req.user, req.query.attachmentId, { image: false });
    reply.header('content-disposition', contentDisposition(row.name));
    reply.header('x-content-type-options', 'nosniff');
    reply.header('cache-control', 'private, no-cache');
    reply.header('content-length', String(row.size));
    reply.type('application/octet-stream');
    return reply.send(open());
  });

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
