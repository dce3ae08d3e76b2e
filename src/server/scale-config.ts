import { z } from 'zod';

/**
 * The scale-out settings (ARCHITECTURE.md §10; README "Scale-out: object store and Redis"):
 * where blobs and unfinished upload chunks live (`BLOB_STORE`, `S3_*`) and whether the live bus,
 * locks, rate-limit counters and background jobs are shared through Redis (`REDIS_URL`).
 * Unset, everything stays in DATA_DIR and in the process, as for one museum's server.
 * Kept apart from config.ts so the database's settings (DATABASE_URL) and these meet in one line.
 */
const boolish = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true');

export const ScaleEnv = {
  BLOB_STORE: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z.string().optional(),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: boolish,
  /** Keys start with this (one bucket shared by several installations, or the tests). */
  S3_PREFIX: z.string().optional(),
  REDIS_URL: z.string().optional(),
  /** Every Redis key and channel starts with this (one Redis shared by several installations). */
  REDIS_PREFIX: z.string().optional(),
};

export interface S3Settings {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
  /** '' or ends with '/'. */
  prefix: string;
}

export interface ScaleConfig {
  /** Undefined: blobs and chunks under DATA_DIR (the embedded default). */
  s3: S3Settings | undefined;
  /** Undefined: the bus, locks, counters and jobs live in this process. */
  redis: { url: string; prefix: string } | undefined;
}

type ScaleEnvValues = z.output<ReturnType<typeof z.object<typeof ScaleEnv>>>;

/** Bucket names as S3 allows them (3–63 of a–z 0–9 . -), which MinIO and Ceph accept too. */
const BUCKET_RE = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX_RE = /^[A-Za-z0-9._/-]*$/;

export function scaleConfigOf(e: ScaleEnvValues): ScaleConfig {
  return { s3: s3Of(e), redis: redisOf(e) };
}

function s3Of(e: ScaleEnvValues): S3Settings | undefined {
  if (e.BLOB_STORE !== 's3') {
    const stray = (['S3_ENDPOINT', 'S3_BUCKET'] as const).filter((k) => e[k]);
    if (stray.length)
      throw new Error(
        `设置了 ${stray.join('、')}，但 BLOB_STORE 不是 s3：要使用对象存储，请同时设置 BLOB_STORE=s3`,
      );
    return undefined;
  }
  const bucket = e.S3_BUCKET ?? '';
  if (!bucket) throw new Error('BLOB_STORE=s3 时必须设置 S3_BUCKET（对象存储的桶名）');
  if (!BUCKET_RE.test(bucket))
    throw new Error(`S3_BUCKET 不是有效的桶名：${bucket}（3–63 个小写字母、数字、点或连字符）`);
  let endpoint: string | undefined;
  if (e.S3_ENDPOINT) {
    let u: URL;
    try {
      u = new URL(e.S3_ENDPOINT);
    } catch {
      throw new Error(`S3_ENDPOINT 不是有效的网址：${e.S3_ENDPOINT}（例如 http://10.0.0.20:9000）`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:')
      throw new Error('S3_ENDPOINT 必须以 http:// 或 https:// 开头');
    endpoint = u.href.replace(/\/+$/, '');
  }
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    throw new Error(
      'S3_ACCESS_KEY_ID 与 S3_SECRET_ACCESS_KEY 必须同时设置（或都不设置，使用运行环境的凭证）',
    );
  }
  const rawPrefix = e.S3_PREFIX ?? '';
  if (!PREFIX_RE.test(rawPrefix) || rawPrefix.split('/').some((s) => s === '..' || s === '.')) {
    throw new Error(`S3_PREFIX 只能包含字母、数字和 . _ - /：${rawPrefix}`);
  }
  const trimmed = rawPrefix.replace(/^\/+|\/+$/g, '');
  return {
    endpoint,
    bucket,
    region: e.S3_REGION || 'us-east-1',
    credentials:
      e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
        : undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    prefix: trimmed ? `${trimmed}/` : '',
  };
}

function redisOf(e: ScaleEnvValues): ScaleConfig['redis'] {
  if (!e.REDIS_URL) return undefined;
  let u: URL;
  try {
    u = new URL(e.REDIS_URL);
  } catch {
    throw new Error(`REDIS_URL 不是有效的地址：${e.REDIS_URL}（例如 redis://127.0.0.1:6379/0）`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') {
    throw new Error('REDIS_URL 必须以 redis:// 或 rediss://（TLS）开头');
  }
  const prefix = e.REDIS_PREFIX ?? 'gwy:';
  if (!/^[A-Za-z0-9:._-]{1,64}$/.test(prefix))
    throw new Error(`REDIS_PREFIX 只能包含字母、数字和 : . _ -：${prefix}`);
  return { url: e.REDIS_URL, prefix };
}

/** The start message's lines about where files and shared state are (none for the default). */
export function describeScale(scale: ScaleConfig): string[] {
  const lines: string[] = [];
  if (scale.s3) {
    const prefix = scale.s3.prefix ? `/${scale.s3.prefix}` : '';
    lines.push(`文件存储：对象存储 ${scale.s3.endpoint ?? 'AWS S3'}，桶 ${scale.s3.bucket}${prefix}`);
  }
  // The address without its password.
  if (scale.redis) lines.push(`共享状态：Redis ${new URL(scale.redis.url).host}（可运行多个实例）`);
  return lines;
}
