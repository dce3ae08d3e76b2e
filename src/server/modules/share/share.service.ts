import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import { ErrorCode } from '../../../shared/api/envelope';
import type {
  MyShareList,
  MyShareQuery,
  SaveShareBody,
  ShareFileBody,
  ShareFileList,
  ShareInfo,
  ShareResult,
} from '../../../shared/api/share';
import { folderPath, freeName, joinName, topLevel } from '../../../shared/drive/names';
import {
  CODE_ALPHABET,
  CODE_LENGTH,
  SHARE_EXPIRED,
  SHARE_GONE,
  SHARE_MAX_DAYS,
  SHARE_REVOKED,
  formatMuseumTime,
  isExpired,
  normaliseCode,
  parseMuseumTime,
} from '../../../shared/drive/share-rules';
import type { Db } from '../../db/index';
import { AppError, forbidden, invalid, notFound } from '../../errors';
import type { SessionUser } from '../auth/auth.service';
import { type Area, areaOf, personalSpace } from '../drive/area';
import * as driveRepo from '../drive/drive.repo';
import {
  type DownloadPlan,
  type DriveService,
  type ExistingTreeItem,
  type ZipEntry,
  toEntry,
} from '../drive/drive.service';
import type { ShareGrants, ShareRead, ShareVisitor } from '../drive/share-grant';
import * as repo from './share.repo';
import type { ShareItem, ShareRow } from './share.repo';

type Out<T extends z.ZodType> = z.output<T>;

/*
 * Sharing by link (issue 6). What the server enforces, for every read through a share (info,
 * listing, preview, thumbnails, download, save):
 *
 * - The link exists, was not revoked and its end time is in the future (spec §4: expired when
 *   the end time is not in the future). Unknown, revoked and expired links say which.
 * - A private share (shareType 1) needs its extraction code. A right code buys this client a
 *   grant: a random token in an HttpOnly cookie for this one share, kept by its SHA-256 for
 *   GRANT_MS. Nothing carries the code afterwards; the sharer needs no code for their own link.
 * - Code attempts are throttled per (share, client address) and per share across all clients;
 *   a wrong code says how many attempts are left, a lock says how long to wait. With 31⁶ codes
 *   and at most SHARE_FAILURES guesses an hour, guessing a code takes years.
 * - Only the share's own items are reachable: the snapshot taken at share time (share_file)
 *   joined with the sharer's live rows. The answers never carry the code, the sharer's paths
 *   or storage keys.
 * - Saving needs a session, charges the saver's quota, shares the blobs and follows the
 *   collision rule (drive.placeTree).
 */

/** How long a right code opens a share for one client. */
export const GRANT_MS = 2 * 3600_000;
/** Per client and share: this many wrong codes within CLIENT_WINDOW_MS lock it for CLIENT_LOCK_MS. */
export const CLIENT_FAILURES = 5;
const CLIENT_WINDOW_MS = 15 * 60_000;
const CLIENT_LOCK_MS = 15 * 60_000;
/** Per share, all clients together: a slow, distributed guess is stopped too. */
export const SHARE_FAILURES = 30;
const SHARE_WINDOW_MS = 3600_000;
const SHARE_LOCK_MS = 3600_000;
/** The most items one share snapshots (a chosen folder counts with everything inside it). */
export const SHARE_MAX_ITEMS = 20_000;

export const NOT_OWN = '只能分享自己网盘中的文件，所选文件不存在或已被删除';
export const NOT_IN_SHARE = '分享中没有该文件，或它已被分享者删除';
export const NEED_CODE = '请先输入提取码';
const CANCEL_GONE = '分享不存在或已取消，请刷新后重试';
const FOLDER_GONE = '该文件夹不存在或已不在分享中';

const BATCH_RE = /^[A-Za-z0-9_-]{1,64}$/;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Equal-length comparison that takes the same time wherever the strings differ. */
function sameCode(a: string, b: string): boolean {
  const x = Buffer.from(a.padEnd(16));
  const y = Buffer.from(b.padEnd(16));
  return x.length === y.length && timingSafeEqual(x, y) && a.length === b.length;
}

function newCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

const minutes = (ms: number) => Math.max(1, Math.ceil(ms / 60_000));

/** A visitor's row of a share's listing. */
function toShareEntry(r: ShareItem) {
  return {
    userFileId: r.user_file_id,
    fileName: r.file_name,
    extendName: r.extend_name,
    isDir: r.is_dir ? (1 as const) : (0 as const),
    fileSize: r.is_dir ? 0 : Number(r.file_size),
    uploadTime: formatMuseumTime(Number(r.upload_time)),
    shareFilePath: r.share_file_path,
    imageWidth: r.image_width,
    imageHeight: r.image_height,
  };
}

/** The folder path inside the share that a folder item opens. */
const innerPath = (r: Pick<ShareItem, 'share_file_path' | 'file_name'>) =>
  folderPath(r.share_file_path, r.file_name);

export interface ShareServiceDeps {
  db: Db;
  drive: DriveService;
  now?: () => number;
}

export function createShareService({ db, drive, now = Date.now }: ShareServiceDeps) {
  /** The share behind a link while it works; otherwise the reason, in the words the page shows. */
  async function live(batchNum: string): Promise<ShareRow> {
    const share = BATCH_RE.test(batchNum) ? await repo.findShare(db, batchNum) : undefined;
    if (!share) throw notFound(SHARE_GONE);
    if (share.status !== 0) throw notFound(SHARE_REVOKED);
    if (isExpired(Number(share.end_time), now())) throw new AppError(ErrorCode.invalid, SHARE_EXPIRED);
    return share;
  }

  async function granted(share: ShareRow, visitor: ShareVisitor): Promise<boolean> {
    if (share.share_type !== 1) return true;
    if (visitor.user?.id === share.owner_id) return true;
    const token = visitor.grantOf(share.batch_num);
    return Boolean(token && (await repo.findGrant(db, sha256(token), share.id, now())));
  }

  /** The attempt rows of a client and of the whole share ('*'), read once per check. */
  type Attempts = Map<string, Awaited<ReturnType<typeof repo.findAttempt>>>;
  async function attemptsOf(q: Db, share: ShareRow, client: string): Promise<Attempts> {
    const keys = [client, '*'];
    const rows = await Promise.all(keys.map((key) => repo.findAttempt(q, share.id, key)));
    return new Map(keys.map((key, i) => [key, rows[i]]));
  }

  /**
   * Counts a wrong code against the client and the share; answers the attempts left, or
   * throws when this failure locks either. Every counter is saved before anything is thrown:
   * a client's 5th wrong code is also one of the share's 30 (issue 16 §2: throwing the
   * client's lock first left it uncounted, so the share locked at the 37th code, not the 30th).
   * When both lock at once, the whole-share lock is the one reported (it is the longer wait).
   */
  async function countFailure(q: Db, share: ShareRow, client: string, attempts: Attempts): Promise<number> {
    const t = now();
    let left = Infinity;
    let lock: { wholeShare: boolean; lockMs: number } | undefined;
    for (const [key, max, windowMs, lockMs] of [
      [client, CLIENT_FAILURES, CLIENT_WINDOW_MS, CLIENT_LOCK_MS],
      ['*', SHARE_FAILURES, SHARE_WINDOW_MS, SHARE_LOCK_MS],
    ] as const) {
      const row = attempts.get(key);
      const fresh = !row || t - Number(row.window_start) > windowMs;
      const failures = (fresh ? 0 : row.failures) + 1;
      const lockedUntil = failures >= max ? t + lockMs : null;
      await repo.saveAttempt(q, {
        share_id: share.id,
        client: key,
        failures: lockedUntil ? 0 : failures,
        window_start: fresh || lockedUntil ? t : Number(row.window_start),
        locked_until: lockedUntil,
      });
      if (lockedUntil && (!lock || key === '*')) lock = { wholeShare: key === '*', lockMs };
      left = Math.min(left, max - failures);
    }
    if (lock) throw lockedError(lock.wholeShare, lock.lockMs);
    return left;
  }

  function lockedError(wholeShare: boolean, waitMs: number) {
    return new AppError(
      ErrorCode.rateLimited,
      wholeShare
        ? `该分享的提取码尝试次数过多，已暂时锁定，请 ${minutes(waitMs)} 分钟后再试`
        : `提取码错误次数过多，请 ${minutes(waitMs)} 分钟后再试`,
      200,
      { attemptsLeft: 0, waitMinutes: minutes(waitMs) },
    );
  }

  /** Refuses while the client or the whole share is locked out. */
  function assertNotLocked(attempts: Attempts) {
    for (const [key, row] of attempts) {
      const until = row?.locked_until === null || row === undefined ? 0 : Number(row.locked_until);
      if (until > now()) throw lockedError(key === '*', until - now());
    }
  }

  /**
   * Checks a code, throttled, in one transaction so concurrent guesses are all counted. Answers
   * a new grant token for the client, or null when the share needs none. The failure count is
   * written even though the call fails: it is committed before the refusal is thrown.
   */
  async function checkCode(share: ShareRow, code: string, client: string): Promise<string | null> {
    if (share.share_type !== 1) return null;
    const outcome = await db.transaction().execute(async (trx) => {
      await repo.lockAttempts(trx, share.id);
      const attempts = await attemptsOf(trx, share, client);
      assertNotLocked(attempts);
      if (!sameCode(normaliseCode(code), share.extraction_code ?? '')) {
        try {
          return { left: await countFailure(trx, share, client, attempts) };
        } catch (err) {
          if (err instanceof AppError) return { locked: err };
          throw err;
        }
      }
      await repo.clearAttempt(trx, share.id, client);
      await repo.deleteExpiredGrants(trx, now());
      const token = randomBytes(32).toString('base64url');
      await repo.insertGrant(trx, sha256(token), share.id, now() + GRANT_MS);
      return { token };
    });
    if (outcome.token) return outcome.token;
    if (outcome.locked) throw outcome.locked;
    throw new AppError(ErrorCode.invalid, `提取码错误，还可尝试 ${outcome.left} 次`, 200, {
      attemptsLeft: outcome.left,
    });
  }

  /** The share, when this visitor may read it (a one-off code in the request counts too). */
  async function open(batchNum: string, visitor: ShareVisitor, code?: string): Promise<ShareRow> {
    const share = await live(batchNum);
    if (await granted(share, visitor)) return share;
    if (code) {
      await checkCode(share, code, visitor.client);
      return share;
    }
    throw forbidden(NEED_CODE);
  }

  /** The sharer's drive, read-only: whose space every read through the share is scoped by. */
  function sharerArea(share: ShareRow): Area {
    return { ...areaOf(share.owner_id), space: share.space };
  }

  /** The chosen items with everything inside chosen folders, relative to their place in the share. */
  async function expand(
    share: ShareRow,
    ids: number[],
  ): Promise<{ chosen: ShareItem[]; inside: ShareItem[][] }> {
    const found = await repo.findItems(db, share, ids);
    if (found.length !== new Set(ids).size) throw notFound(NOT_IN_SHARE);
    const chosen = topLevel(
      found,
      (r) => (r.is_dir === 1 ? innerPath(r) : null),
      (r) => r.share_file_path,
    );
    const inside = await Promise.all(
      chosen.map((r) => (r.is_dir === 1 ? repo.itemsUnder(db, share, innerPath(r)) : Promise.resolve([]))),
    );
    return { chosen, inside };
  }

  return {
    /** share/sharefile: snapshots the caller's chosen items into a new share. */
    async create(user: SessionUser, body: Out<typeof ShareFileBody>): Promise<Out<typeof ShareResult>> {
      const endMs = parseMuseumTime(body.endTime);
      if (endMs === null) throw invalid('链接有效期不是有效的时间，请重新选择');
      if (isExpired(endMs, now())) throw invalid('链接有效期须晚于当前时间，请重新选择');
      if (endMs - now() > SHARE_MAX_DAYS * 86_400_000) throw invalid('链接有效期最长一年，请重新选择');

      const space = personalSpace(user.id);
      const rows = await driveRepo.findLiveMany(db, space, body.files);
      if (rows.length !== body.files.length) throw notFound(NOT_OWN);
      const byId = new Map(rows.map((r) => [r.id, r]));
      const ordered = body.files.map((id) => byId.get(id)!);
      const tops = topLevel(
        ordered,
        (r) => (r.is_dir === 1 ? folderPath(r.file_path, r.file_name) : null),
        (r) => r.file_path,
      );

      const files: repo.NewShareFile[] = [];
      // Items chosen from different folders may share a name; inside the share they must not,
      // or two folders would pour into one path.
      const taken = new Set<string>();
      for (const r of tops) {
        const ext = r.is_dir ? '' : r.extend_name;
        const name = freeName(r.file_name, ext, taken);
        taken.add(joinName(name, ext));
        files.push({
          user_file_id: r.id,
          share_file_path: '/',
          file_name: name,
          extend_name: r.extend_name,
          is_dir: r.is_dir,
          is_top: 1,
        });
        if (r.is_dir !== 1) continue;
        const base = folderPath(r.file_path, r.file_name);
        for (const d of await driveRepo.liveSubtreeWithBlobs(db, space, base)) {
          files.push({
            user_file_id: d.id,
            share_file_path: `/${name}/${d.file_path.slice(base.length)}`,
            file_name: d.file_name,
            extend_name: d.extend_name,
            is_dir: d.is_dir,
            is_top: 0,
          });
        }
        if (files.length > SHARE_MAX_ITEMS) {
          throw invalid(`一次最多分享 ${SHARE_MAX_ITEMS} 个文件和文件夹，请分批分享`);
        }
      }

      const shareBatchNum = randomBytes(16).toString('base64url');
      const extractionCode = body.shareType === 1 ? newCode() : null;
      await db.transaction().execute((trx) =>
        repo.insertShare(
          trx,
          {
            batch_num: shareBatchNum,
            owner_id: user.id,
            space,
            share_type: body.shareType,
            extraction_code: extractionCode,
            remarks: body.remarks,
            share_time: now(),
            end_time: endMs,
            status: 0,
            revoked_at: null,
            download_count: 0,
          },
          files,
        ),
      );
      return { shareBatchNum, extractionCode, endTime: formatMuseumTime(endMs) };
    },

    /** share/checkendtime */
    async endTime(batchNum: string) {
      const share = await live(batchNum);
      return { endTime: formatMuseumTime(Number(share.end_time)) };
    },

    /** share/sharetype: what the share page shows before asking for a code. */
    async info(batchNum: string, visitor: ShareVisitor): Promise<ShareInfo> {
      const share = await live(batchNum);
      return {
        shareType: share.share_type,
        needCode: !(await granted(share, visitor)),
        shareTime: formatMuseumTime(Number(share.share_time)),
        endTime: formatMuseumTime(Number(share.end_time)),
        remarks: share.remarks,
        sharer: (await repo.sharerName(db, share.owner_id))?.user_name ?? '',
        fileCount: await repo.countTop(db, share.id),
      };
    },

    /** share/checkextractioncode: answers the grant token to set as a cookie (null: none needed). */
    async checkExtractionCode(batchNum: string, code: string, client: string) {
      return checkCode(await live(batchNum), code, client);
    },

    /** share/sharefileList: one folder of the share. */
    async list(batchNum: string, path: string, visitor: ShareVisitor): Promise<ShareFileList> {
      const share = await open(batchNum, visitor);
      if (path !== '/' && !(await repo.folderExists(db, share, path))) throw notFound(FOLDER_GONE);
      const rows = await repo.listFolder(db, share, path);
      return { list: rows.map(toShareEntry), total: rows.length };
    },

    /** The ShareGrants the drive's preview and download routes read through. */
    grants: {
      async areaFor(visitor: ShareVisitor, read: ShareRead): Promise<Area> {
        const share = await open(read.shareBatchNum, visitor, read.extractionCode);
        const [item] = await repo.findItems(db, share, [read.userFileId]);
        if (!item) throw notFound(NOT_IN_SHARE);
        return sharerArea(share);
      },

      async download(
        visitor: ShareVisitor,
        q: { shareBatchNum: string; extractionCode?: string; ids: number[] },
      ): Promise<DownloadPlan> {
        const share = await open(q.shareBatchNum, visitor, q.extractionCode);
        if (!q.ids.length) throw invalid('请选择要下载的文件');
        const { chosen, inside } = await expand(share, q.ids);
        await repo.countDownload(db, share.id);
        const first = chosen[0]!;
        if (q.ids.length === 1 && first.is_dir === 0) {
          if (!first.md5) throw notFound(NOT_IN_SHARE);
          return {
            kind: 'file',
            name: joinName(first.file_name, first.extend_name),
            md5: first.md5,
            size: Number(first.file_size),
            mtime: Number(first.upload_time),
          };
        }
        const entries: ZipEntry[] = [];
        const taken = new Set<string>();
        chosen.forEach((r, i) => {
          const ext = r.is_dir ? '' : r.extend_name;
          const top = joinName(freeName(r.file_name, ext, taken), ext);
          taken.add(top);
          const mtime = Number(r.upload_time);
          if (r.is_dir === 0) {
            if (r.md5) entries.push({ dir: false, name: top, md5: r.md5, size: Number(r.file_size), mtime });
            return;
          }
          entries.push({ dir: true, name: `${top}/`, mtime });
          const base = innerPath(r);
          for (const d of inside[i]!) {
            const name = `${top}/${d.share_file_path.slice(base.length)}${joinName(d.file_name, d.is_dir ? '' : d.extend_name)}`;
            const t = Number(d.upload_time);
            if (d.is_dir === 1) entries.push({ dir: true, name: `${name}/`, mtime: t });
            else if (d.md5)
              entries.push({ dir: false, name, md5: d.md5, size: Number(d.file_size), mtime: t });
          }
        });
        const firstName = joinName(first.file_name, first.is_dir ? '' : first.extend_name);
        const name = chosen.length === 1 ? `${firstName}.zip` : `${firstName}等${chosen.length}个文件.zip`;
        return { kind: 'zip', name, entries };
      },
    } satisfies ShareGrants,

    /** share/savesharefile: copies items of the share into the caller's own drive. */
    async save(user: SessionUser, body: Out<typeof SaveShareBody>, visitor: ShareVisitor) {
      const share = await open(body.shareBatchNum, visitor);
      const { chosen, inside } = await expand(share, body.files);
      const items: ExistingTreeItem[] = [];
      const toTree = (r: ShareItem, dir: string): ExistingTreeItem => ({
        dir: dir.split('/').filter(Boolean),
        name: joinName(r.file_name, r.is_dir ? '' : r.extend_name),
        isDir: r.is_dir === 1,
        blob: r.is_dir || !r.md5 ? null : { md5: r.md5, size: Number(r.file_size) },
        dims:
          r.image_width !== null && r.image_height !== null
            ? { width: r.image_width, height: r.image_height }
            : null,
      });
      chosen.forEach((r, i) => {
        items.push(toTree(r, '/'));
        for (const d of inside[i]!) items.push(toTree(d, d.share_file_path.slice(r.share_file_path.length)));
      });
      await drive.placeExisting(areaOf(user.id), body.filePath, items);
    },

    /** share/shareList: my live shares, one row per chosen item. */
    async mine(user: SessionUser, q: Out<typeof MyShareQuery>): Promise<MyShareList> {
      const total = await repo.countMine(db, user.id);
      const rows = await repo.listMine(db, user.id, q.pageCount, (q.currentPage - 1) * q.pageCount);
      const t = now();
      return {
        total,
        list: rows.map((r) => ({
          ...toEntry(r),
          shareBatchNum: r.batch_num,
          shareType: r.share_type,
          shareTime: formatMuseumTime(Number(r.share_time)),
          endTime: formatMuseumTime(Number(r.end_time)),
          remarks: r.remarks,
          extractionCode: r.extraction_code,
          expired: isExpired(Number(r.end_time), t),
          downloadCount: Number(r.download_count),
          fileCount: Number(r.file_count ?? 0),
        })),
      };
    },

    /** share/cancelshare: revokes my shares, all or none; their links stop working at once. */
    async cancel(user: SessionUser, batchNums: string[]) {
      const unique = [...new Set(batchNums)];
      await db.transaction().execute(async (trx) => {
        const rows = await repo.findMine(trx, user.id, unique);
        if (rows.length !== unique.length) throw notFound(CANCEL_GONE);
        await repo.revoke(
          trx,
          rows.map((r) => r.id),
          now(),
        );
      });
    },
  };
}
export type ShareService = ReturnType<typeof createShareService>;
