import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * JSON Web Tokens, HS256 only (RFC 7519 with RFC 7518 §3.2), on node:crypto. The ONLYOFFICE
 * Document Server signs and checks its requests this way, and our own signed URLs use the same
 * format. Only HS256 is accepted: a token naming any other algorithm ("none" included) is
 * refused before its signature is looked at, so nobody chooses how we check it.
 */

export type Claims = Record<string, unknown>;

const HEADER = b64url(Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })));
const SEGMENT = /^[A-Za-z0-9_-]+$/;

function b64url(buf: Buffer): string {
  return buf.toString('base64url');
}

function mac(input: string, secret: string | Buffer): Buffer {
  return createHmac('sha256', secret).update(input).digest();
}

/** Signs `claims`; `ttlSeconds` adds `exp` that many seconds from now. */
export function signJwt(claims: Claims, secret: string | Buffer, ttlSeconds?: number): string {
  const body = ttlSeconds === undefined ? claims : { ...claims, exp: nowSeconds() + ttlSeconds };
  const head = `${HEADER}.${b64url(Buffer.from(JSON.stringify(body)))}`;
  return `${head}.${b64url(mac(head, secret))}`;
}

export interface VerifyOptions {
  /** Refuse a token without `exp` (our own URLs always carry one). */
  requireExp?: boolean;
  /** Seconds of clock difference tolerated for exp and nbf (another machine's clock). */
  leewaySeconds?: number;
  /** Milliseconds since the epoch to check against (tests). */
  now?: number;
}

function nowSeconds(now = Date.now()) {
  return Math.floor(now / 1000);
}

function parseJson(segment: string): unknown {
  try {
    return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Claims => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The claims of a token signed with `secret`, or null when it is malformed, signed otherwise
 * or with another algorithm, expired, or not yet valid. The signature is compared in constant
 * time.
 */
export function verifyJwt(token: string, secret: string | Buffer, opts: VerifyOptions = {}): Claims | null {
  if (typeof token !== 'string' || token.length > 64 * 1024) return null;
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((p) => SEGMENT.test(p))) return null;
  const [h, p, s] = parts as [string, string, string];
  const header = parseJson(h);
  if (!isObject(header) || header.alg !== 'HS256') return null;
  if (header.typ !== undefined && header.typ !== 'JWT') return null;
  const given = Buffer.from(s, 'base64url');
  const expected = mac(`${h}.${p}`, secret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const claims = parseJson(p);
  if (!isObject(claims)) return null;
  const now = nowSeconds(opts.now);
  const leeway = opts.leewaySeconds ?? 0;
  if (claims.exp !== undefined) {
    if (typeof claims.exp !== 'number' || now >= claims.exp + leeway) return null;
  } else if (opts.requireExp) {
    return null;
  }
  if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || now + leeway < claims.nbf)) return null;
  return claims;
}
