import type { FastifyRequest } from 'fastify';
import { clientAddress } from '../../client-address';
import type { SessionUser } from '../auth/auth.service';
import type { Area, Areas } from './area';
import type { DownloadPlan } from './drive.service';

/** Who reads through a share: maybe signed in, from an address, holding grant cookies. */
export interface ShareVisitor {
  user: SessionUser | null;
  /** The client's address (clientAddress): code attempts are throttled per share and per address. */
  client: string;
  /** The grant token this client holds for a share (its cookie), if any. */
  grantOf(shareBatchNum: string): string | undefined;
}

/** What a read through a share names: the link, a one-off code, and the item asked for. */
export interface ShareRead {
  shareBatchNum: string;
  extractionCode?: string;
  userFileId: number;
}

/**
 * Reads through a share link (preview, thumbnails, download), implemented by the share module.
 * `areaFor` answers the sharer's area when the share is live and unexpired, the visitor holds
 * its grant (or the share needs no code, or the request carries the right code) and the item is
 * one of the share's; otherwise it throws the reason. `download` plans a download of share items
 * (a folder's zip holds what the share holds).
 */
export interface ShareGrants {
  areaFor(visitor: ShareVisitor, read: ShareRead): Promise<Area>;
  download(
    visitor: ShareVisitor,
    q: { shareBatchNum: string; extractionCode?: string; ids: number[] },
  ): Promise<DownloadPlan>;
}

/** The grant cookie of one share: scoped to the drive's API, unreadable by scripts. */
export const grantCookie = (shareBatchNum: string) => `sg_${shareBatchNum}`;

/** The visitor of a request; `req.user` is null on share routes reached without a session. */
export function visitorOf(req: FastifyRequest): ShareVisitor {
  return {
    user: (req.user as SessionUser | null) ?? null,
    client: clientAddress(req.ip),
    grantOf: (batch) => req.cookies[grantCookie(batch)],
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
  req: FastifyRequest,
  q: {
    shareBatchNum?: string;
    extractionCode?: string;
    userFileId: number;
    fileType?: number;
    isFmt?: number;
    isAdmin?: 0 | 1;
    projectId?: number;
  },
): Promise<Area> {
  if (q.shareBatchNum !== undefined) {
    return shares.areaFor(visitorOf(req), {
      shareBatchNum: q.shareBatchNum,
      extractionCode: q.extractionCode,
      userFileId: q.userFileId,
    });
  }
  return areas.read(req.user, q);
}
