import { notFound } from '../../errors';
import type { SessionUser } from '../auth/auth.service';
import type { Area, Areas } from './area';

/** The answer for a share that does not exist, has expired, or whose code is wrong. */
export const SHARE_GONE = '分享链接不存在或已失效';

/** What a read through a share names: the link, its code, and the item asked for. */
export interface ShareRead {
  shareBatchNum: string;
  extractionCode?: string;
  userFileId: number;
}

/**
 * Reads through a share link (preview, thumbnails; later the share's list and download). The
 * one place the sharing issue plugs in: given the link, its code and an item, it answers the
 * sharer's area when the share exists, has not expired, its code matches (and its attempts are
 * not exhausted) and the item is one of the share's files or inside one of its folders;
 * otherwise it throws SHARE_GONE. Until sharing exists, no share exists.
 */
export interface ShareGrants {
  areaFor(user: SessionUser, read: ShareRead): Promise<Area>;
}

export function createShareGrants(): ShareGrants {
  return {
    async areaFor() {
      throw notFound(SHARE_GONE);
    },
  };
}

/**
 * The area a read names: the share's when `shareBatchNum` is present (even empty), else the
 * caller's own drive or a library by the area flags. A share's parameters never widen the
 * caller's own reads: without a valid grant the call fails, it never falls back to the
 * caller's own drive, and `extractionCode` alone is ignored.
 */
export function readArea(
  areas: Areas,
  shares: ShareGrants,
  user: SessionUser,
  q: {
    shareBatchNum?: string;
    extractionCode?: string;
    userFileId: number;
    fileType?: number;
    isFmt?: number;
    isAdmin?: number;
  },
): Promise<Area> {
  if (q.shareBatchNum !== undefined) {
    return shares.areaFor(user, {
      shareBatchNum: q.shareBatchNum,
      extractionCode: q.extractionCode,
      userFileId: q.userFileId,
    });
  }
  return Promise.resolve(areas.read(user, q));
}
