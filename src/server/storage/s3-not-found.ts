/*
 * Apart from s3.ts so that the local stores (shelf.ts) can ask it without loading the AWS SDK:
 * an installation without BLOB_STORE=s3 never loads it (issue 25: start time, memory at rest).
 */

/** True for "no such object" however the store words it. */
export function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  return (
    e?.name === 'NotFound' ||
    e?.name === 'NoSuchKey' ||
    e?.Code === 'NoSuchKey' ||
    e?.$metadata?.httpStatusCode === 404
  );
}
