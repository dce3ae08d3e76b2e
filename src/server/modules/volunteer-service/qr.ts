import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import type { Db } from '../../db/index';

/**
 * The halls' check-in codes (research/records-design.md §10): `gwy1.{exhibitionId}.{hall}.
 * {qrVersion}.{validFrom}.{validTo}.{sig}`, signed with the server's Ed25519 key (node:crypto).
 * `hall` is base64url of its UTF-8 text (a hall's name may hold dots); the times are epoch ms;
 * `sig` is base64url of the signature over everything before it. A phone checks the signature
 * offline with WebCrypto where it can (the public key's SPKI, `publicKey`), the server always.
 *
 * The key pair is made once, on first use, and kept in `volunteer_qr_key` (row 1): every
 * instance signs and checks with the same key, and a restart keeps printed codes valid.
 * Revoking a printed code bumps the exhibition's `qrVersion`; the key itself never rotates here.
 */

export interface QrClaims {
  exhibitionId: number;
  hall: string;
  qrVersion: number;
  validFrom: number;
  validTo: number;
}

interface Keys {
  privateKey: KeyObject;
  publicKey: KeyObject;
  spki: string;
}

const b64url = (b: Buffer) => b.toString('base64url');

export function createQrSigner(db: Db, now: () => number) {
  let keys: Promise<Keys> | undefined;

  async function load(): Promise<Keys> {
    let row = await db.selectFrom('volunteer_qr_key').selectAll().where('id', '=', 1).executeTakeFirst();
    if (!row) {
      const pair = generateKeyPairSync('ed25519');
      const values = {
        id: 1,
        public_key: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        private_key: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        create_time: now(),
      };
      // Two instances starting at once: the first insert wins, both read the winner's key.
      await db
        .insertInto('volunteer_qr_key')
        .values(values)
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      row = await db.selectFrom('volunteer_qr_key').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    }
    const publicKey = createPublicKey(row.public_key);
    return {
      privateKey: createPrivateKey(row.private_key),
      publicKey,
      spki: b64url(publicKey.export({ type: 'spki', format: 'der' })),
    };
  }

  const get = () => {
    keys ??= load().catch((e: unknown) => {
      keys = undefined;
      throw e;
    });
    return keys;
  };

  return {
    /** The public key as base64url SPKI (WebCrypto importKey('spki', …, 'Ed25519')). */
    async publicKey(): Promise<string> {
      return (await get()).spki;
    },

    async sign(c: QrClaims): Promise<string> {
      const body = [
        'gwy1',
        c.exhibitionId,
        b64url(Buffer.from(c.hall, 'utf8')),
        c.qrVersion,
        c.validFrom,
        c.validTo,
      ].join('.');
      return `${body}.${b64url(sign(null, Buffer.from(body), (await get()).privateKey))}`;
    },

    /** The claims of a genuine code, or null when it is malformed or its signature is not ours. */
    async read(payload: string): Promise<QrClaims | null> {
      if (typeof payload !== 'string' || payload.length > 500) return null;
      const parts = payload.trim().split('.');
      if (parts.length !== 7 || parts[0] !== 'gwy1') return null;
      const body = parts.slice(0, 6).join('.');
      const nums = [parts[1], parts[3], parts[4], parts[5]].map((p) =>
        /^\d{1,15}$/.test(p!) ? Number(p) : NaN,
      );
      if (nums.some((n) => !Number.isSafeInteger(n))) return null;
      let ok: boolean;
      try {
        ok = verify(null, Buffer.from(body), (await get()).publicKey, Buffer.from(parts[6]!, 'base64url'));
      } catch {
        // A signature of the wrong length throws: as forged as a wrong one.
        ok = false;
      }
      if (!ok) return null;
      return {
        exhibitionId: nums[0]!,
        hall: Buffer.from(parts[2]!, 'base64url').toString('utf8'),
        qrVersion: nums[1]!,
        validFrom: nums[2]!,
        validTo: nums[3]!,
      };
    },
  };
}

export type QrSigner = ReturnType<typeof createQrSigner>;
