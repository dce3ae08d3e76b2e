import type { FastifyInstance } from 'fastify';
import { CHUNK_BODY_LIMIT, UploadParams } from '../../../shared/api/upload';
import { AppError, invalid } from '../../errors';
import { sendEnvelope } from '../../plugins/envelope';
import type { Areas } from './area';
import type { UploadService } from './upload.service';

const PATH = '/filetransfer/uploadfile';

function parse(input: unknown): UploadParams {
  const r = UploadParams.safeParse(input);
  if (!r.success) throw invalid(r.error.issues[0]?.message ?? '上传参数不正确');
  return r.data;
}

/**
 * The chunked upload under /wangpan (simple-uploader.js protocol; see upload.service.ts and
 * shared/api/upload.ts). GET is the test request and always answers HTTP 200, a refusal being
 * `success: false` with its message. POST is one chunk: multipart, its parameters as fields
 * before the `file` part.
 */
export function uploadRoutes(app: FastifyInstance, deps: { uploads: UploadService; areas: Areas }) {
  const { uploads, areas } = deps;

  app.get(PATH, async (req, reply) => {
    try {
      const p = parse(req.query);
      return await uploads.test(await areas.manage(req.user, p), p);
    } catch (err) {
      if (err instanceof AppError) return sendEnvelope(req, reply, 200, err.code, err.message);
      throw err;
    }
  });

  app.post(PATH, { bodyLimit: CHUNK_BODY_LIMIT }, async (req) => {
    if (!req.isMultipart()) throw invalid('请选择要上传的文件');
    const file = await req.file({ limits: { fileSize: CHUNK_BODY_LIMIT, files: 1, fields: 20 } });
    if (!file) throw invalid('请选择要上传的文件');
    const fields: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(file.fields)) {
      const f = Array.isArray(v) ? v[0] : v;
      if (f && f.type === 'field') fields[k] = f.value;
    }
    let p: UploadParams;
    try {
      p = parse(fields);
    } catch (err) {
      file.file.resume();
      throw err;
    }
    let area;
    try {
      area = await areas.manage(req.user, p);
    } catch (err) {
      file.file.resume();
      throw err;
    }
    return uploads.chunk(area, p, file.file);
  });
}
