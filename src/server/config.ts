import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { ScaleEnv, type ScaleConfig, scaleConfigOf } from './scale-config';
import { LOG_RETENTION_DEFAULT_DAYS, LOG_RETENTION_MIN_DAYS } from '../shared/api/syslog';

/**
 * Configuration comes only from the environment (README lists every variable). Parsing it
 * once, here, means a typo in PORT fails at start with a clear message instead of at the
 * first request.
 */
const boolish = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true');

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  ADMIN_PASSWORD: z.string().optional(),
  TLS_CERT: z.string().optional(),
  TLS_KEY: z.string().optional(),
  SEED_DEMO: boolish,
  DEMO_PASSWORD: z.string().default('Demo@2026'),
  DIST_DIR: z.string().default('./dist'),
  NODE_ENV: z.string().default('production'),
  /** Extra allowed sign-in failures before delays start; tests lower nothing, they use the defaults. */
  LOGIN_FREE_FAILURES: z.coerce.number().int().min(1).default(5),
  /** API requests per minute per signed-in person (a flood guard, not a quota; README "Flood guard"). */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(10).default(1200),
  /** API requests per minute per client address for calls without a valid session (a ceiling). */
  RATE_LIMIT_PER_ADDRESS: z.coerce.number().int().min(10).default(3000),
  /** Reverse proxies whose X-Forwarded-For is believed: a comma-separated list of IPs or CIDRs. */
  TRUST_PROXY: z.string().optional(),
  /** Each person's drive quota unless an administrator sets another: 10 GiB. */
  DEFAULT_QUOTA_GB: z.coerce.number().min(0).default(10),
  /** Hours after its last chunk that an unfinished upload is abandoned and its chunks deleted. */
  UPLOAD_SESSION_HOURS: z.coerce.number().positive().default(24),
  /** Unfinished drive uploads one person may hold at once (README "Uploads: what unfinished uploads may hold"). */
  UPLOAD_OPEN_MAX: z.coerce.number().int().min(1).default(50),
  /** MiB one person's unfinished uploads may hold in the libraries and project documents (no quota there). */
  UPLOAD_SHARED_MAX_MB: z.coerce.number().positive().default(2048),
  /** MiB one person's unfinished attachment uploads and unbound attachments may hold together. */
  ATTACH_PENDING_MB: z.coerce.number().positive().default(1024),
  /** Unfinished attachment chunk uploads one person may hold at once. */
  ATTACH_OPEN_MAX: z.coerce.number().int().min(1).default(20),
  /** Unzip limits (README "Unzip"): entries, total uncompressed MiB, compression ratio, time. */
  UNZIP_MAX_ENTRIES: z.coerce.number().int().min(1).default(10000),
  UNZIP_MAX_MB: z.coerce.number().positive().default(2048),
  UNZIP_MAX_RATIO: z.coerce.number().min(2).default(200),
  UNZIP_TIMEOUT_SECONDS: z.coerce.number().positive().default(600),
  /** An ONLYOFFICE Document Server's root (e.g. https://docs.museum.example/); unset: read-only viewer. */
  ONLYOFFICE_URL: z.string().optional(),
  /** The Document Server's JWT secret (its services.CoAuthoring.secret); required with ONLYOFFICE_URL. */
  ONLYOFFICE_JWT_SECRET: z.string().optional(),
  /** Where others reach this server (the Document Server fetches and saves documents here). */
  PUBLIC_URL: z.string().optional(),
  /** 1: share links open only for signed-in staff (default: anyone with the link, and its code). */
  SHARE_REQUIRE_LOGIN: boolish,
  LIVE_HEARTBEAT_SECONDS: z.coerce.number().min(1).max(300).default(25),
  /** The largest file one WebDAV PUT may store, in GiB (the quota still applies in 我的网盘). */
  DAV_MAX_FILE_GB: z.coerce.number().positive().default(20),
  ...ScaleEnv,
  /** postgres://user:password@host:5432/db selects PostgreSQL (README "Scale-out: PostgreSQL"); unset: SQLite. */
  DATABASE_URL: z.string().optional(),
  /** Most PostgreSQL connections one server instance holds at once. */
  DATABASE_POOL_MAX: z.coerce.number().int().min(2).max(500).default(10),
  /** 0: send PostgreSQL unprepared statements (behind a transaction-pooling PgBouncer before 1.21). */
  DATABASE_PREPARED: z
    .enum(['0', '1', 'true', 'false', ''], { error: 'DATABASE_PREPARED 只能是 1 或 0' })
    .optional()
    .transform((v) => v !== '0' && v !== 'false'),
  /** Days the system log keeps an entry (README "System log"); the law's six months at least. */
  LOG_RETENTION_DAYS: z.coerce
    .number({ error: 'LOG_RETENTION_DAYS 必须是天数，例如 365' })
    .int('LOG_RETENTION_DAYS 必须是整数天数，例如 365')
    .min(
      LOG_RETENTION_MIN_DAYS,
      `系统日志保留天数不能少于 ${LOG_RETENTION_MIN_DAYS} 天：《网络安全法》第二十一条要求网络日志留存不少于六个月，请把 LOG_RETENTION_DAYS 设为 ${LOG_RETENTION_MIN_DAYS} 或更大（默认 ${LOG_RETENTION_DEFAULT_DAYS}）`,
    )
    .max(36500, 'LOG_RETENTION_DAYS 最多 36500 天')
    .default(LOG_RETENTION_DEFAULT_DAYS),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  dbFile: string;
  /** PostgreSQL instead of the SQLite file, when set (README "Scale-out: PostgreSQL"). */
  databaseUrl: string | undefined;
  databasePoolMax: number;
  /** Statements go to PostgreSQL prepared (src/server/db/dialect.ts preparedStatements). */
  databasePrepared: boolean;
  adminPassword: string | undefined;
  tls: { cert: string; key: string } | undefined;
  seedDemo: boolean;
  demoPassword: string;
  distDir: string;
  production: boolean;
  loginFreeFailures: number;
  /** The general API limit per signed-in person, per minute. */
  rateLimitPerMinute: number;
  /** The general API limit per client address for calls without a valid session, per minute. */
  rateLimitPerAddress: number;
  /**
   * The reverse proxies (IPs or CIDRs) trusted to say who the client is in X-Forwarded-For;
   * empty: the connection's own address is the client (nothing forwarded is believed).
   */
  trustProxy: string[];
  /** Default drive quota in bytes. */
  defaultQuotaBytes: number;
  /** Where content blobs are stored: DATA_DIR/blobs. */
  blobDir: string;
  /** Where upload chunks wait for their session to complete: DATA_DIR/uploads. */
  uploadDir: string;
  /** How long an unfinished upload session is kept after its last activity. */
  uploadSessionMs: number;
  /**
   * What one person's unfinished uploads may hold (issue 16 §1): drive sessions open at once,
   * bytes held outside the personal quota (libraries, projects), and the attachment budget
   * (unfinished chunk uploads plus unbound attachments) with its own count of open uploads.
   */
  pending: { uploadOpenMax: number; uploadSharedBytes: number; attachBytes: number; attachOpenMax: number };
  /** Unzip: limits and the worker's time limit; temporary files under DATA_DIR/unzip-tmp. */
  unzip: { maxEntries: number; maxBytes: number; maxRatio: number; timeoutMs: number; tmpDir: string };
  /** Session life: 7 days (spec/office.md §9, token cookie life). */
  sessionMs: number;
  /** The ONLYOFFICE Document Server, when one is configured (README "Online office"). */
  onlyoffice: { url: string; origin: string; jwtSecret: string; apiJs: string } | undefined;
  /** This server's address as the Document Server reaches it, without a trailing slash. */
  publicUrl: string;
  /** Share links need a session too (README "Sharing"). */
  shareRequireLogin: boolean;
  /** How often a live stream (notice centre) pings and re-checks its session. */
  liveHeartbeatMs: number;
  /** The object store and Redis of a scale-out installation (scale-config.ts). */
  scale: ScaleConfig;
  /** Days the system log keeps an entry before the daily prune deletes it (at least 180). */
  logRetentionDays: number;
  /** The largest file one WebDAV PUT may store, in bytes (README "Mount the drive (WebDAV)"). */
  davMaxFileBytes: number;
}

/** An http(s) URL without its trailing slash, or an error message naming the variable. */
function baseUrl(name: string, raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error(`${name} 不是有效的网址：${raw}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new Error(`${name} 必须以 http:// 或 https:// 开头`);
  if (u.search || u.hash) throw new Error(`${name} 不能带查询参数或 #`);
  return u.href.replace(/\/+$/, '');
}

/** Shortest Document Server secret accepted: a guessable one would let anyone forge its saves. */
const OFFICE_SECRET_MIN = 16;

function onlyofficeOf(e: { ONLYOFFICE_URL?: string; ONLYOFFICE_JWT_SECRET?: string }): Config['onlyoffice'] {
  if (!e.ONLYOFFICE_URL) return undefined;
  const url = baseUrl('ONLYOFFICE_URL', e.ONLYOFFICE_URL);
  const secret = e.ONLYOFFICE_JWT_SECRET ?? '';
  if (!secret) {
    throw new Error(
      '设置了 ONLYOFFICE_URL 时必须同时设置 ONLYOFFICE_JWT_SECRET（与 Document Server 的 JWT 密钥相同）',
    );
  }
  if (secret.length < OFFICE_SECRET_MIN) {
    throw new Error(`ONLYOFFICE_JWT_SECRET 至少需要 ${OFFICE_SECRET_MIN} 个字符`);
  }
  return {
    url,
    origin: new URL(url).origin,
    jwtSecret: secret,
    apiJs: `${url}/web-apps/apps/api/documents/api.js`,
  };
}

/**
 * TRUST_PROXY as a list of addresses and CIDR ranges. Only an explicit list is accepted: `true`
 * or a hop count would believe X-Forwarded-For from anyone who can reach the port, letting any
 * client pick the address every throttle counts against.
 */
export function trustProxyOf(raw: string | undefined): string[] {
  const parts = (raw ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  for (const part of parts) {
    const [addr = '', bits, extra] = part.split('/');
    const family = isIP(addr);
    const max = family === 6 ? 128 : 32;
    const bitsOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= max);
    if (!family || !bitsOk || extra !== undefined) {
      throw new Error(
        `TRUST_PROXY 中的“${part}”不是 IP 地址或网段：请列出反向代理的地址，用逗号分隔，例如 TRUST_PROXY=127.0.0.1,10.0.0.0/8`,
      );
    }
  }
  return parts;
}

/** DATABASE_URL, if set, must name a PostgreSQL server (the only engine besides SQLite). */
function databaseUrlOf(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let u: URL | undefined;
  try {
    u = new URL(raw);
  } catch {
    u = undefined;
  }
  if (!u || (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') || !u.pathname.slice(1)) {
    throw new Error(
      'DATABASE_URL 必须是 PostgreSQL 连接地址，例如 postgres://guanwuyun:密码@db.example:5432/guanwuyun',
    );
  }
  return raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`环境变量配置有误：\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (Boolean(e.TLS_CERT) !== Boolean(e.TLS_KEY)) {
    throw new Error('TLS_CERT 与 TLS_KEY 必须同时设置（或都不设置）');
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const tls = Boolean(e.TLS_CERT && e.TLS_KEY);
  // A wildcard listen address is not an address anyone can call: loopback stands in for it.
  const shownHost = e.HOST === '0.0.0.0' || e.HOST === '::' ? '127.0.0.1' : e.HOST;
  const hostPart = shownHost.includes(':') ? `[${shownHost}]` : shownHost;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    dbFile: path.join(dataDir, 'museum.sqlite'),
    databaseUrl: databaseUrlOf(e.DATABASE_URL),
    databasePoolMax: e.DATABASE_POOL_MAX,
    databasePrepared: e.DATABASE_PREPARED,
    adminPassword: e.ADMIN_PASSWORD || undefined,
    tls: e.TLS_CERT && e.TLS_KEY ? { cert: e.TLS_CERT, key: e.TLS_KEY } : undefined,
    seedDemo: e.SEED_DEMO,
    demoPassword: e.DEMO_PASSWORD,
    distDir: path.resolve(e.DIST_DIR),
    production: e.NODE_ENV === 'production',
    loginFreeFailures: e.LOGIN_FREE_FAILURES,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    rateLimitPerAddress: e.RATE_LIMIT_PER_ADDRESS,
    trustProxy: trustProxyOf(e.TRUST_PROXY),
    defaultQuotaBytes: Math.round(e.DEFAULT_QUOTA_GB * 1024 ** 3),
    blobDir: path.join(dataDir, 'blobs'),
    uploadDir: path.join(dataDir, 'uploads'),
    uploadSessionMs: Math.round(e.UPLOAD_SESSION_HOURS * 3600_000),
    pending: {
      uploadOpenMax: e.UPLOAD_OPEN_MAX,
      uploadSharedBytes: Math.round(e.UPLOAD_SHARED_MAX_MB * 1024 * 1024),
      attachBytes: Math.round(e.ATTACH_PENDING_MB * 1024 * 1024),
      attachOpenMax: e.ATTACH_OPEN_MAX,
    },
    unzip: {
      maxEntries: e.UNZIP_MAX_ENTRIES,
      maxBytes: Math.round(e.UNZIP_MAX_MB * 1024 * 1024),
      maxRatio: e.UNZIP_MAX_RATIO,
      timeoutMs: Math.round(e.UNZIP_TIMEOUT_SECONDS * 1000),
      tmpDir: path.join(dataDir, 'unzip-tmp'),
    },
    sessionMs: 7 * 24 * 60 * 60 * 1000,
    onlyoffice: onlyofficeOf(e),
    shareRequireLogin: e.SHARE_REQUIRE_LOGIN,
    liveHeartbeatMs: Math.round(e.LIVE_HEARTBEAT_SECONDS * 1000),
    scale: scaleConfigOf(e),
    logRetentionDays: e.LOG_RETENTION_DAYS,
    davMaxFileBytes: Math.round(e.DAV_MAX_FILE_GB * 1024 ** 3),
    publicUrl: e.PUBLIC_URL
      ? baseUrl('PUBLIC_URL', e.PUBLIC_URL)
      : `${tls ? 'https' : 'http'}://${hostPart}:${e.PORT}`,
  };
}
