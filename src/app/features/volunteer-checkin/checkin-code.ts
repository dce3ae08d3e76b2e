/**
 * The hall's check-in code on the phone (README "Volunteer service and check-in"; records-design
 * §10): `gwy1.{exhibitionId}.{hall}.{qrVersion}.{validFrom}.{validTo}.{sig}`, Ed25519 over
 * everything before the signature. The phone refuses at once what the server would refuse for
 * certain — a forged code, another exhibition's, one outside its validity, one older than the
 * version it last saw — in the server's own words, so the person reads the same sentence
 * whether the check happened here or on replay. Where the browser has no Ed25519 the code is
 * taken unverified and the server decides (it always checks again).
 *
 * Pure: WebCrypto comes in as `subtle` (the browser's, or node's in the unit tests). Validity is
 * read from the code itself, so a staff tablet's short-lived rotating code in the same format is
 * handled the same way as a printed one.
 */

export interface CodeClaims {
  exhibitionId: number;
  hall: string;
  qrVersion: number;
  validFrom: number;
  validTo: number;
  /** The signed text (everything before the last dot) and the signature's bytes. */
  body: string;
  sig: Uint8Array;
}

/** The server's refusals (volunteer-service.service.ts checkCode), word for word. */
export const CODE_FORGED = '签到码无效（签名校验失败），请扫描展厅现场的签到码';
export const CODE_REVOKED = '签到码已作废（展厅已更换新码），请扫描展厅现场的新签到码';
export const CODE_EXPIRED = '签到码不在有效期内，请扫描展厅现场的签到码';
export const CODE_EMPTY = '请扫描展厅的签到码';
export const codeOfOther = (exhibitionName: string) =>
  `这不是“${exhibitionName}”的签到码，请扫描本场次展厅的签到码`;

function fromB64url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  try {
    const bin = atob(b64);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

/** The claims of a well-formed code (signature not yet checked), or null. */
export function parseCode(payload: string): CodeClaims | null {
  if (typeof payload !== 'string' || payload.length > 500) return null;
  const parts = payload.trim().split('.');
  if (parts.length !== 7 || parts[0] !== 'gwy1') return null;
  const nums = [parts[1]!, parts[3]!, parts[4]!, parts[5]!].map((p) =>
    /^\d{1,15}$/.test(p) ? Number(p) : NaN,
  );
  if (nums.some((n) => !Number.isSafeInteger(n))) return null;
  const hallBytes = fromB64url(parts[2]!);
  const sig = fromB64url(parts[6]!);
  if (!hallBytes || !sig) return null;
  let hall: string;
  try {
    hall = new TextDecoder('utf-8', { fatal: true }).decode(hallBytes);
  } catch {
    return null;
  }
  return {
    exhibitionId: nums[0]!,
    hall,
    qrVersion: nums[1]!,
    validFrom: nums[2]!,
    validTo: nums[3]!,
    body: parts.slice(0, 6).join('.'),
    sig,
  };
}

/** Imports the server's public key (base64url SPKI); null where the browser has no Ed25519. */
export async function importCodeKey(
  subtle: SubtleCrypto | undefined,
  spki: string,
): Promise<CryptoKey | null> {
  const der = fromB64url(spki);
  if (!subtle || !der) return null;
  try {
    return await subtle.importKey('spki', der as BufferSource, { name: 'Ed25519' }, false, ['verify']);
  } catch {
    return null;
  }
}

export interface CodeContext {
  /** The session's exhibition, as the phone cached it. */
  exhibitionId: number;
  exhibitionName: string;
  /** The newest version the phone has seen for it (a lower one was revoked). */
  qrVersion?: number;
  /** The time the check claims: the phone's clock corrected by the measured offset. */
  at: number;
  /** The imported key, or null where the browser cannot verify Ed25519. */
  key: CryptoKey | null;
  subtle?: SubtleCrypto;
}

/**
 * Why the phone refuses the code at once, or null to take it (`verified` says whether the
 * signature was checked here or is left to the server).
 */
export async function checkCode(
  payload: string,
  ctx: CodeContext,
): Promise<{ error: string } | { error: null; verified: boolean }> {
  if (!payload.trim()) return { error: CODE_EMPTY };
  const c = parseCode(payload);
  if (!c) return { error: CODE_FORGED };
  let verified = false;
  if (ctx.key && ctx.subtle) {
    let ok: boolean;
    try {
      ok = await ctx.subtle.verify(
        { name: 'Ed25519' },
        ctx.key,
        c.sig as BufferSource,
        new TextEncoder().encode(c.body),
      );
    } catch {
      ok = false;
    }
    if (!ok) return { error: CODE_FORGED };
    verified = true;
  }
  if (c.exhibitionId !== ctx.exhibitionId) return { error: codeOfOther(ctx.exhibitionName) };
  if (ctx.qrVersion !== undefined && c.qrVersion < ctx.qrVersion) return { error: CODE_REVOKED };
  if (ctx.at < c.validFrom || ctx.at > c.validTo) return { error: CODE_EXPIRED };
  return { error: null, verified };
}
