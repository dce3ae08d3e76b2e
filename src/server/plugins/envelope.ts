import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ZodError } from 'zod';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DRIVE_PREFIX, ErrorCode } from '../../shared/api/envelope';
import { issueText, pathOf } from '../../shared/api/messages';
import { AppError } from '../errors';
import { isLockConflict, isUniqueViolation } from '../db/dialect';
import { apiAnswerHeaders } from './security-headers';

/** `data` under /wangpan, `result` elsewhere (/singleMuseum). */
export function payloadKey(url: string): 'data' | 'result' {
  return url.startsWith(DRIVE_PREFIX) ? 'data' : 'result';
}

export function envelope(url: string, code: number, message: string, payload?: unknown) {
  return { success: code === 0, code, message, [payloadKey(url)]: payload ?? null };
}

/** Sends an envelope with any status, including the spec's 999 that Fastify's `code()` refuses. */
export function sendEnvelope(
  req: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: number,
  message: string,
  extra?: unknown,
) {
  reply.raw.statusCode = status;
  apiAnswerHeaders(reply.raw);
  return reply
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(envelope(req.url, code, message, extra)));
}

/**
 * The words of a refused request: the first issue, in Chinese, naming its field (see
 * shared/api/messages.ts: the error map and issueText are the one place this is decided).
 */
export function firstIssueMessage(err: ZodError): string {
  const first = err.issues[0];
  return first ? issueText(first) : '请求内容不正确，请检查后重试';
}

/**
 * Wraps every API answer in the envelope and maps every error to one, so no route builds an
 * envelope by hand and no stack trace reaches a user.
 */
export const envelopePlugin = fp(async function envelopePlugin(app: FastifyInstance) {
  app.addHook('preSerialization', async (req, reply, payload) => {
    // Every answer serialized here is JSON: it takes the API's headers, not the page's.
    apiAnswerHeaders(reply.raw);
    if (payload && typeof payload === 'object' && 'success' in payload && 'code' in payload) return payload;
    return envelope(req.url, 0, '成功', payload);
  });

  app.setErrorHandler((err, req, reply) => {
    if (err instanceof AppError) {
      return sendEnvelope(req, reply, err.httpStatus, err.code, err.message, err.extra);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0]!;
      const text = issueText({ path: pathOf(first.instancePath), message: first.message });
      return sendEnvelope(req, reply, 400, ErrorCode.badRequest, text);
    }
    if (err instanceof ZodError) {
      return sendEnvelope(req, reply, 400, ErrorCode.badRequest, firstIssueMessage(err));
    }
    const e = err as { code?: string; statusCode?: number; message?: string };
    if (e.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return sendEnvelope(req, reply, 400, ErrorCode.badRequest, '请求内容不是有效的 JSON，请检查后重试');
    }
    if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return sendEnvelope(req, reply, 415, ErrorCode.badRequest, '不支持的请求内容类型');
    }
    if (e.code === 'FST_REQ_FILE_TOO_LARGE' || e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendEnvelope(req, reply, 413, ErrorCode.badRequest, '上传内容过大');
    }
    if (e.statusCode === 429) {
      const text = /[\u4e00-\u9fa5]/.test(e.message ?? '') ? e.message! : '请求过于频繁，请稍后再试';
      return sendEnvelope(req, reply, 429, ErrorCode.rateLimited, text);
    }
    // A unique index caught a race the service's own check could not (two saves at once).
    if (isUniqueViolation(err)) {
      return sendEnvelope(req, reply, 200, ErrorCode.conflict, '数据已存在或已被他人修改，请刷新后重试');
    }
    // The database rolled this transaction back for another one running at once: nothing of
    // it was written, and trying again will work.
    if (isLockConflict(err)) {
      return sendEnvelope(req, reply, 200, ErrorCode.conflict, '有人正在同时修改相同的数据，请稍后重试');
    }
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
      return sendEnvelope(req, reply, e.statusCode, ErrorCode.badRequest, '请求不正确，请检查后重试');
    }
    // The client went away mid-request (a paused or cancelled upload, a tablet leaving Wi-Fi):
    // nobody is left to answer, and it is not a fault of ours.
    // The socket, not the request stream: a request whose body was read to its end counts as
    // destroyed too, and took every unexpected error of a POST for a client gone away (an
    // empty 200 instead of the 500 envelope).
    if (req.raw.socket?.destroyed || e.code === 'ECONNRESET' || e.code === 'ERR_STREAM_PREMATURE_CLOSE') {
      req.log.info({ code: e.code }, 'client went away');
      return reply.send();
    }
    req.log.error({ err }, 'unhandled error');
    return sendEnvelope(req, reply, 500, ErrorCode.serverError, '服务器异常，请稍后再试');
  });
});

/**
 * What a mutation with nothing to report returns. Fastify skips serialization hooks for a bare
 * `null`, which would escape the envelope; an empty object goes through it.
 */
export const DONE: Record<string, never> = {};
