import { createHash } from 'node:crypto';
import { invalid } from '../../errors';
import type { Shelf } from '../../storage/shelf';
import { AVATAR_MAX_BYTES } from '../../../shared/api/org';

/**
 * Avatars are kept on their shelf (DATA_DIR/avatars, or the object store's `avatars/`) by the
 * hash of their bytes; the user-chosen file name is never used. The type is decided by the bytes (magic numbers), not by the client's
 * claim, so an HTML or SVG file cannot pass as an image.
 */
const SIGNATURES: { ext: string; mime: string; test: (b: Buffer) => boolean }[] = [
  {
    ext: 'png',
    mime: 'image/png',
    test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { ext: 'jpg', mime: 'image/jpeg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { ext: 'gif', mime: 'image/gif', test: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8' },
  {
    ext: 'webp',
    mime: 'image/webp',
    test: (b) =>
      b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
];

/** The image type of bytes by their magic number (PNG, JPEG, GIF, WebP), or undefined. */
export function sniffImage(b: Buffer): { ext: string; mime: string } | undefined {
  const sig = SIGNATURES.find((s) => s.test(b));
  return sig && { ext: sig.ext, mime: sig.mime };
}

export function avatarUrl(userId: number, avatar: string | null): string {
  return avatar ? `/singleMuseum/sysUser/avatar/${userId}?v=${avatar.slice(0, 10)}` : '';
}

export function avatarMime(name: string): string {
  const ext = name.split('.').pop();
  return SIGNATURES.find((s) => s.ext === ext)?.mime ?? 'application/octet-stream';
}

/** Validates and stores avatar bytes; answers the stored name. */
export async function storeAvatar(shelf: Shelf, bytes: Buffer): Promise<string> {
  if (bytes.length === 0) throw invalid('图片文件为空，请重新选择');
  if (bytes.length > AVATAR_MAX_BYTES) throw invalid('头像图片不能超过 2MB');
  const sig = sniffImage(bytes);
  if (!sig) throw invalid('头像只支持 PNG、JPG、GIF、WebP 图片');
  const name = `${createHash('sha256').update(bytes).digest('hex')}.${sig.ext}`;
  await shelf.put(name, bytes);
  return name;
}
