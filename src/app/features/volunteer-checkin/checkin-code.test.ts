import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CODE_EMPTY,
  CODE_EXPIRED,
  CODE_FORGED,
  CODE_REVOKED,
  checkCode,
  codeOfOther,
  importCodeKey,
  parseCode,
} from './checkin-code';
import { correctedNow, measureOffset } from '../../../shared/rules/clock-offset';

/** Codes signed the way the server signs them (volunteer-service/qr.ts), with a real key. */
const pair = generateKeyPairSync('ed25519');
const spki = pair.publicKey.export({ type: 'spki', format: 'der' }).toString('base64url');
const other = generateKeyPairSync('ed25519');
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

function code(
  c: { exhibitionId?: number; hall?: string; qrVersion?: number; validFrom?: number; validTo?: number } = {},
  key = pair.privateKey,
) {
  const body = [
    'gwy1',
    c.exhibitionId ?? 7,
    b64(c.hall ?? '二号展厅 (A.B)'),
    c.qrVersion ?? 2,
    c.validFrom ?? 1_000,
    c.validTo ?? 2_000,
  ].join('.');
  return `${body}.${sign(null, Buffer.from(body), key).toString('base64url')}`;
}

const subtle = globalThis.crypto.subtle;
const ctx = async (over: Record<string, unknown> = {}) => ({
  exhibitionId: 7,
  exhibitionName: '青铜器展',
  qrVersion: 2,
  at: 1_500,
  key: await importCodeKey(subtle, spki),
  subtle,
  ...over,
});

describe('the hall code on the phone', () => {
  it('parses the claims, a hall name with dots and Chinese included', () => {
    const c = parseCode(code());
    expect(c).toMatchObject({
      exhibitionId: 7,
      hall: '二号展厅 (A.B)',
      qrVersion: 2,
      validFrom: 1_000,
      validTo: 2_000,
    });
    expect(c!.sig).toHaveLength(64);
  });

  it('rejects malformed text before any crypto', () => {
    for (const bad of [
      '',
      'hello',
      'gwy2.7.x.2.1.2.sig',
      'gwy1.7.x.2.1.2',
      'gwy1.a.x.2.1.2.sig',
      'gwy1.7.x.2.1.2.s+g',
    ])
      expect(parseCode(bad)).toBeNull();
    expect(parseCode('gwy1.' + '1'.repeat(600))).toBeNull();
  });

  it('takes a genuine code of this exhibition inside its validity, verified here', async () => {
    expect(await checkCode(code(), await ctx())).toEqual({ error: null, verified: true });
    // A newer version than the phone last saw (printed after it synced) is the server's to judge.
    expect((await checkCode(code({ qrVersion: 3 }), await ctx())).error).toBeNull();
  });

  it("refuses in the server's words: forged, another exhibition's, revoked, out of validity", async () => {
    expect((await checkCode(code({}, other.privateKey), await ctx())).error).toBe(CODE_FORGED);
    // One changed character of the signed text breaks the signature.
    const tampered = code().replace('.2.1000.', '.2.1001.');
    expect((await checkCode(tampered, await ctx())).error).toBe(CODE_FORGED);
    expect((await checkCode('not a code', await ctx())).error).toBe(CODE_FORGED);
    expect((await checkCode('  ', await ctx())).error).toBe(CODE_EMPTY);
    expect((await checkCode(code({ exhibitionId: 8 }), await ctx())).error).toBe(codeOfOther('青铜器展'));
    expect(codeOfOther('青铜器展')).toBe('这不是“青铜器展”的签到码，请扫描本场次展厅的签到码');
    expect((await checkCode(code({ qrVersion: 1 }), await ctx())).error).toBe(CODE_REVOKED);
    // Validity is read from the code itself (a rotating tablet code has a short window), edges inclusive.
    expect((await checkCode(code(), await ctx({ at: 999 }))).error).toBe(CODE_EXPIRED);
    expect((await checkCode(code(), await ctx({ at: 2_001 }))).error).toBe(CODE_EXPIRED);
    expect((await checkCode(code(), await ctx({ at: 1_000 }))).error).toBeNull();
    expect((await checkCode(code(), await ctx({ at: 2_000 }))).error).toBeNull();
    const short = code({ validFrom: 1_490, validTo: 1_520 });
    expect((await checkCode(short, await ctx({ at: 1_500 }))).error).toBeNull();
    expect((await checkCode(short, await ctx({ at: 1_530 }))).error).toBe(CODE_EXPIRED);
  });

  it('leaves the signature to the server where the browser has no Ed25519, and still checks the rest', async () => {
    expect(await importCodeKey(undefined, spki)).toBeNull();
    expect(await importCodeKey(subtle, 'not*base64')).toBeNull();
    const noKey = await ctx({ key: null });
    expect(await checkCode(code({}, other.privateKey), noKey)).toEqual({ error: null, verified: false });
    expect((await checkCode(code({ exhibitionId: 9 }), noKey)).error).toBe(codeOfOther('青铜器展'));
  });
});

describe('the clock offset', () => {
  it('is the server time minus the middle of the round trip', () => {
    // Sent at 1000, answered at 1200 (phone clock); the server said 301_100: offset +300_000.
    expect(measureOffset(1_000, 1_200, 301_100)).toBe(300_000);
    // A phone running fast gets a negative offset.
    expect(measureOffset(10_000, 10_000, 9_000)).toBe(-1_000);
    expect(correctedNow(5_000, -1_000)).toBe(4_000);
    expect(correctedNow(5_000, undefined)).toBe(5_000);
  });
});
