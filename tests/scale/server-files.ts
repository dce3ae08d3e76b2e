/**
 * The server test files the scale-out pass runs again (vitest.scale.config.ts): those that touch
 * blobs, uploads, unzip, thumbnails, office saves, notices, rate limits and throttles. That pass
 * runs them on PostgreSQL (with S3 and Redis), so the PostgreSQL pass (vitest.pg.config.ts)
 * leaves them out: each file still runs on both databases, once each, and CI is not spent on a
 * third run of the same SQL.
 */
export const SCALE_SERVER_FILES: readonly string[] = [
  'drive-bin',
  'drive-download',
  'drive-preview',
  'media-thumbs',
  'media-music',
  'media-preview',
  'upload-chunks',
  'upload-image',
  'upload-part-file',
  'quota-hardening',
  'unzip',
  'notices',
  'approval-outcome',
  'approval-attach',
  'announce',
  'office',
  'office-save',
  'personal',
  'share',
  'flood-guard',
  'throttle',
  'auth',
  // Issue 23: the content's public media (ranged, from the attachment store) and its per-address limits.
  'content-public',
].map((f) => `tests/server/${f}.test.ts`);
