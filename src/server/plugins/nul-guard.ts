import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorCode } from '../../shared/api/envelope';
import { sendEnvelope } from './envelope';

export const NUL_REFUSED = '内容中有空字符（U+0000），请删除后重试';

/**
 * True when `v`, or any string inside it (lists, plain objects: parsed JSON, forms and query
 * strings), holds U+0000. Bytes (a raw chunk upload's Buffer or stream) are not text: skipped.
 */
function holdsNul(v: unknown, depth = 0): boolean {
  if (typeof v === 'string') return v.includes('\u0000');
  if (depth > 20 || v === null || typeof v !== 'object') return false;
  if (Array.isArray(v)) return v.some((x) => holdsNul(x, depth + 1));
  if (ArrayBuffer.isView(v) || typeof (v as { pipe?: unknown }).pipe === 'function') return false;
  return Object.values(v).some((x) => holdsNul(x, depth + 1));
}

/**
 * Refuses U+0000 anywhere in a query string or a parsed body, before any route reads it.
 * PostgreSQL text cannot hold it (its error would be a 500 there, while SQLite stores it), and
 * no field of ours has a use for it: names already refuse control characters, and free text
 * is typed by people. One rule at the door keeps both engines answering the same.
 */
export const nulGuardPlugin = fp(async function nulGuardPlugin(app: FastifyInstance) {
  app.addHook('preValidation', async (req, reply) => {
    if (holdsNul(req.query) || holdsNul(req.body)) {
      return sendEnvelope(req, reply, 400, ErrorCode.badRequest, NUL_REFUSED);
    }
  });
});
