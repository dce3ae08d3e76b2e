import type { FastifyInstance } from 'fastify';
import type { Readable } from 'node:stream';
import { CHUNK_BODY_LIMIT, UploadCancelParams, UploadParams } from '../../../shared/api/upload';
import { AppError, invalid } from '../../errors';
import { firstIssueMessage, sendEnvelope } from '../../plugins/envelope';
import type { Areas } from './area';
import type { UploadService } from './upload.service';

const PATH = '/filetransfer/uploadfile';

/**
 * Chunk requests per minute per signed-in person (calls without a session: per address, the
 * flood guard's key). Above the general limit: one person's 500 MB file is 500 chunks; every
 * chunk still needs a session, and the quota bounds what it can add.
 */
export const CHUNK_RATE_PER_MINUTE = 20_000;

function parse(input: unknown): UploadParams {
  const r = UploadParams.safeParse(input);
  if (!r.success) throw invalid(firstIssueMessage(r.error));
  return r.data;
}

/**
 * The chunked upload under /wangpan (simple-uploader.js protocol; see upload.service.ts and
 * shared/api/upload.ts). GET is the test request and always answers HTTP 200, a refusal being
 * `success: false` with its message. POST is one chunk, in either of simple-uploader's
 * methods: multipart (the default; parameters as fields before the `file` part) or octet (the
 * parameters in the query string, the chunk's bytes as the body, of any content type). Our own
 * client sends octet: no multipart parsing, a quarter faster on the server (tests/bench).
 */
export function uploadRoutes(app: FastifyInstance, deps: { uploads: UploadService; areas: Areas }) {
  const { uploads, areas } = deps;
  const rateLimit = { max: CHUNK_RATE_PER_MINUTE, timeWindow: 60_000 };

  // Octet bodies are handed over as the raw stream, unread; the service reads at most the
  // declared chunk size of it. (Multipart and JSON keep their own parsers.)
  app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));

  app.get(PATH, { config: { rateLimit } }, async (req, reply) => {
    try {
      const p = parse(req.query);
      return await uploads.test(await areas.manage(req.user, p), p);
    } catch (err) {
      if (err instanceof AppError) return sendEnvelope(req, reply, 200, err.code, err.message);
      throw err;
    }
  });

  app.post(PATH, { bodyLimit: CHUNK_BODY_LIMIT, config: { rateLimit } }, async (req) => {
    let body: Readable;
    let fields: Record<string, unknown>;
    if (req.isMultipart()) {
      const file = await req.file({ limits: { fileSize: CHUNK_BODY_LIMIT, files: 1, fields: 20 } });
      if (!file) throw invalid('请选择要上传的文件');
      fields = {};
      for (const [k, v] of Object.entries(file.fields)) {
        const f = Array.isArray(v) ? v[0] : v;
        if (f && f.type === 'field') fields[k] = f.value;
      }
      body = file.file;
    } else {
      const raw = req.body as Readable | undefined;
      if (!raw || typeof raw.pipe !== 'function') throw invalid('请选择要上传的文件');
      fields = req.query as Record<string, unknown>;
      body = raw;
    }
    let p: UploadParams;
    let area;
    try {
      p = parse(fields);
      area = await areas.manage(req.user, p);
    } catch (err) {
      body.resume();
      throw err;
    }
    return uploads.chunk(area, p, body);
  });

  // The cancel call (issue 16 §1): the client sends it when a person cancels an upload, so the
  // chunks and the room they held go at once instead of after UPLOAD_SESSION_HOURS. The area
  // is resolved for reading: a person who lost the right to upload somewhere may still drop
  // their own unfinished upload there (sessions are keyed by the caller, never another's).
  app.delete(PATH, async (req) => {
    const r = UploadCancelParams.safeParse(req.query);
    if (!r.success) throw invalid(r.error.issues[0]?.message ?? '上传参数不正确');
    return uploads.cancel(await areas.read(req.user, r.data), r.data);
  });
}
