import type { FastifyReply } from 'fastify';
import { ErrorCode } from '../../../shared/api/envelope';
import { AppError } from '../../errors';
import { BlobTooLargeError } from '../../storage/blob-store';
import { QuotaError } from '../drive/drive.service';
import { XML_DECL, esc } from './xml';

/*
 * WebDAV answers: a refusal is an HTTP status with an XML body (RFC 4918 §16) carrying the
 * precondition it failed, where RFC 4918 names one, and the drive's own Chinese words in our
 * namespace, so a client library or a person reading the answer sees why.
 */

/** Our namespace in answers: messages, and nothing a client must understand. */
export const GWY_NS = 'urn:guanwuyun:dav';

export const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  207: 'Multi-Status',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  423: 'Locked',
  424: 'Failed Dependency',
  429: 'Too Many Requests',
  502: 'Bad Gateway',
  507: 'Insufficient Storage',
};

export const statusLine = (code: number) => `HTTP/1.1 ${code} ${STATUS_TEXT[code] ?? ''}`.trim();

/** A refused WebDAV request: its status, the Chinese reason, and RFC 4918's precondition element. */
export class DavError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Inner XML of DAV:error naming the condition, e.g. `<D:propfind-finite-depth/>`. */
    readonly condition?: string,
  ) {
    super(message);
  }
}

/** The reasons the drive gives, as WebDAV statuses. */
export function davErrorOf(err: unknown): DavError | null {
  if (err instanceof DavError) return err;
  if (err instanceof QuotaError) return new DavError(507, err.message);
  if (err instanceof BlobTooLargeError) return new DavError(507, '存储空间不足，文件未保存');
  if (err instanceof AppError) {
    const status =
      err.code === ErrorCode.notFound
        ? 404
        : err.code === ErrorCode.forbidden
          ? 403
          : err.code === ErrorCode.conflict
            ? 409
            : err.code === ErrorCode.loginLocked
              ? 429
              : 400;
    return new DavError(status, err.message);
  }
  return null;
}

/** Sends a refusal as RFC 4918's DAV:error body with our message. */
export function sendDavError(reply: FastifyReply, e: DavError) {
  const body =
    `${XML_DECL}<D:error xmlns:D="DAV:" xmlns:g="${GWY_NS}">` +
    `${e.condition ?? ''}<g:message>${esc(e.message)}</g:message></D:error>`;
  return reply.code(e.status).type('application/xml; charset=utf-8').send(body);
}
