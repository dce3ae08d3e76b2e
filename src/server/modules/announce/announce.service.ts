import type { z } from 'zod';
import {
  ANNOUNCE_STATUS,
  NOT_READABLE,
  announceNoticeText,
  noticeDetailPath,
  type AnnounceAdminPage,
  type AnnounceCreate,
  type AnnounceDetail,
  type AnnouncePageQuery,
  type AnnounceReadPage,
  type AnnounceReadQuery,
  type AnnounceSaved,
  type AnnounceStatus,
  type AnnounceUpdate,
  type Audience,
} from '../../../shared/api/announce';
import type { Db } from '../../db/index';
import { AppError, conflict, invalid, notFound } from '../../errors';
import type { Access } from '../auth/access';
import { departmentsOf } from '../auth/auth.repo';
import type { SessionUser } from '../auth/auth.service';
import type { AttachService } from '../attach/attach.service';
import { toAttachment } from '../attach/attach.service';
import type { LiveBus } from '../notice/live';
import type { NoticeService } from '../notice/notice.service';
import { allDepts, countExisting, enabledUserIds } from '../org/org.repo';
import * as repo from './announce.repo';
import { hasContent, imageIdsIn, sanitizeRichHtml } from '../attach/rich-html';

/** The menu leaf 信息发布: its grant is the administrators' API grant. */
export const INFO_PUBLISH = 'oa.infoPublish';
/** The workbench grant opens /home/notice-list and /approve/notice-detail (catalogue). */
const READER = 'home.workbench';
export const ANNOUNCE_TABLE = 'announcement';

type Fields = z.output<typeof AnnounceCreate>;
type Stored = NonNullable<Awaited<ReturnType<typeof repo.findAnnouncement>>>;
type UpdateFields = z.output<typeof AnnounceUpdate>;

/** Department ids with every department below them (a department's audience includes its sub-departments). */
function withDescendants(all: { id: number; parent_id: number | null }[], roots: number[]): number[] {
  const children = new Map<number, number[]>();
  for (const d of all) {
    if (d.parent_id === null) continue;
    children.set(d.parent_id, [...(children.get(d.parent_id) ?? []), d.id]);
  }
  const out = new Set<number>();
  const stack = [...roots];
  while (stack.length) {
    const id = stack.pop()!;
    if (out.has(id)) continue;
    out.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return [...out];
}

/** Department ids with every department above them (a reader belongs to the ancestors too). */
function withAncestors(all: { id: number; parent_id: number | null }[], ids: number[]): number[] {
  const parent = new Map(all.map((d) => [d.id, d.parent_id]));
  const out = new Set<number>();
  for (let id of ids) {
    for (let guard = 0; guard < 100 && !out.has(id); guard++) {
      out.add(id);
      const p = parent.get(id);
      if (p === null || p === undefined) break;
      id = p;
    }
  }
  return [...out];
}

/**
 * Notice publishing (信息发布): administrators write and publish announcements; staff read the
 * ones meant for them. See src/shared/api/announce.ts for the rules and decisions.
 */
export function createAnnounceService(deps: {
  db: Db;
  access: Access;
  notices: NoticeService;
  attach: AttachService;
  bus: LiveBus;
  now?: () => number;
}) {
  const { db, access, notices, attach, bus } = deps;
  const now = deps.now ?? Date.now;

  async function readerOf(user: SessionUser) {
    const mine = (await departmentsOf(db, user.id)).map((d) => d.id);
    return { userId: user.id, deptIds: mine.length ? withAncestors(await allDepts(db), mine) : [] };
  }

  async function isAdmin(user: SessionUser) {
    return access.can(user, INFO_PUBLISH);
  }

  /** Everyone enabled who is in an audience right now. */
  async function receivers(q: Db, a: { type: string; deptIds: number[]; userIds: number[] }) {
    const deptIds = a.type === 'dept' ? withDescendants(await allDepts(q), a.deptIds) : [];
    return repo.enabledAudience(q, { ...a, deptIds });
  }

  async function storedAudience(q: Db, row: { id: number; audience: string }) {
    return { type: row.audience, ...(await repo.targetIds(q, row.id)) };
  }

  /** Checks a submitted form: the HTML sanitized and not empty, the audience's ids known. */
  async function prepare(f: Fields) {
    const content = sanitizeRichHtml(f.content);
    if (!hasContent(content)) throw invalid('请输入正文内容');
    const deptIds = f.audienceType === 'dept' ? [...new Set(f.deptIds)] : [];
    const userIds = f.audienceType === 'user' ? [...new Set(f.userIds)] : [];
    if ((await countExisting(db, 'department', deptIds)) !== deptIds.length)
      throw invalid('所选部门不存在或已删除，请重新选择');
    if ((await enabledUserIds(db, userIds)).length !== userIds.length)
      throw invalid('所选人员不存在或已停用，请重新选择');
    const kind: repo.TargetKind | null =
      f.audienceType === 'dept' ? 'dept' : f.audienceType === 'user' ? 'user' : null;
    return {
      row: { title: f.title, content, audience: f.audienceType },
      kind,
      targetIds: kind === 'dept' ? deptIds : userIds,
      audience: { type: f.audienceType, deptIds, userIds },
      attachmentIds: [...new Set([...f.attachmentIds, ...imageIdsIn(content)])],
    };
  }

  async function mustFind(id: number) {
    const row = await repo.findAnnouncement(db, id);
    if (!row) throw notFound('该通知不存在或已被删除');
    return row;
  }

  function audienceOf(type: string, targets: { kind: string; id: number; name: string }[]): Audience {
    return {
      type: type as Audience['type'],
      depts: targets.filter((t) => t.kind === 'dept').map(({ id, name }) => ({ id, name })),
      users: targets.filter((t) => t.kind === 'user').map(({ id, name }) => ({ id, name })),
    };
  }

  /**
   * Sends the publishing notice to `ids`. notify() runs its own transaction (and the live
   * push after it), so it follows the status change; when it fails, the caller undoes that.
   */
  async function notifyAll(ids: number[], row: { id: number; title: string }, from: number) {
    if (!ids.length) return;
    await notices.notify({
      receivers: ids,
      content: announceNoticeText(row.title),
      source: 'announcement',
      from,
      link: noticeDetailPath(row.id),
    });
  }

  /** The readers' live streams refresh their announcement lists (the workbench card, 通知公告). */
  function tell(userIds: number[]) {
    if (userIds.length) bus.publish(userIds, ['announce']);
  }

  /**
   * Publishes a saved draft or cancelled announcement: the status, then the notices to everyone
   * in its audience, then the readers' lists. When the notices fail, the status goes back.
   */
  async function publish(user: SessionUser, row: Stored) {
    const t = now();
    if (!(await repo.setStatus(db, row.id, row.status, ANNOUNCE_STATUS.published, t, t)))
      throw conflict('该通知的状态已被他人修改，请刷新后重试');
    const readers = await receivers(db, await storedAudience(db, row));
    try {
      await notifyAll(readers, row, user.id);
    } catch (err) {
      // Published without its notices would be silent: put it back as it was.
      await repo.setStatus(db, row.id, ANNOUNCE_STATUS.published, row.status, now(), row.published_at);
      throw err;
    }
    tell(readers);
    return { status: ANNOUNCE_STATUS.published, notified: readers.length };
  }

  /** add/edit with `publish`: publishes what was just saved, or says why not (it stays saved). */
  async function publishSaved(user: SessionUser, saved: AnnounceSaved): Promise<AnnounceSaved> {
    try {
      return { ...saved, ...(await publish(user, await mustFind(saved.id))) };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return { ...saved, publishError: err.message };
    }
  }

  return {
    requireAdmin: (user: SessionUser) => access.require(user, INFO_PUBLISH),
    async requireReader(user: SessionUser) {
      if (!(await access.can(user, READER))) await access.require(user, INFO_PUBLISH);
    },

    async create(user: SessionUser, f: Fields): Promise<AnnounceSaved> {
      const p = await prepare(f);
      const t = now();
      let dropped: string[] = [];
      const id = await db.transaction().execute(async (trx) => {
        const id = await repo.insertAnnouncement(trx, { ...p.row, created_by: user.id }, t);
        await repo.setTargets(trx, id, p.kind, p.targetIds);
        dropped = await attach.bindInTx(trx, {
          user,
          table: ANNOUNCE_TABLE,
          recordId: id,
          ids: p.attachmentIds,
        });
        return id;
      });
      await attach.dropBytes(dropped);
      const saved: AnnounceSaved = { id, status: ANNOUNCE_STATUS.draft, notified: 0 };
      return f.publish ? publishSaved(user, saved) : saved;
    },

    /**
     * Saves a draft, cancelled or published one; a published one notifies only people the edit
     * adds. With `publish`, a draft or cancelled one is published once saved.
     */
    async update(user: SessionUser, f: UpdateFields): Promise<AnnounceSaved> {
      const p = await prepare(f);
      const before = await mustFind(f.id);
      const wasPublished = before.status === ANNOUNCE_STATUS.published;
      const oldReceivers = wasPublished ? await receivers(db, await storedAudience(db, before)) : [];
      let dropped: string[] = [];
      await db.transaction().execute(async (trx) => {
        await repo.updateAnnouncement(trx, f.id, p.row, now());
        await repo.setTargets(trx, f.id, p.kind, p.targetIds);
        dropped = await attach.bindInTx(trx, {
          user,
          table: ANNOUNCE_TABLE,
          recordId: f.id,
          ids: p.attachmentIds,
        });
      });
      await attach.dropBytes(dropped);
      if (wasPublished) {
        const readers = await receivers(db, p.audience);
        const had = new Set(oldReceivers);
        const added = readers.filter((id) => !had.has(id));
        await notifyAll(added, { id: f.id, title: p.row.title }, user.id);
        // Old and new readers: the title changed for some, the announcement left or reached others.
        tell([...oldReceivers, ...readers]);
        return { id: f.id, status: ANNOUNCE_STATUS.published, notified: added.length };
      }
      const saved: AnnounceSaved = { id: f.id, status: before.status as AnnounceStatus, notified: 0 };
      return f.publish ? publishSaved(user, saved) : saved;
    },

    async remove(id: number) {
      const row = await mustFind(id);
      const readers =
        row.status === ANNOUNCE_STATUS.published ? await receivers(db, await storedAudience(db, row)) : [];
      let dropped: string[] = [];
      await db.transaction().execute(async (trx) => {
        dropped = await attach.deleteOfRecordInTx(trx, ANNOUNCE_TABLE, id);
        await repo.deleteAnnouncement(trx, id);
      });
      await attach.dropBytes(dropped);
      tell(readers);
    },

    /**
     * Publishes a draft or cancelled announcement (notifying its audience) or cancels a
     * published one. `wanted` (1 or 2) refuses a stale click instead of flipping back.
     */
    async publishOrCancel(user: SessionUser, id: number, wanted?: 1 | 2) {
      const row = await mustFind(id);
      const publishing = row.status !== ANNOUNCE_STATUS.published;
      const target = publishing ? ANNOUNCE_STATUS.published : ANNOUNCE_STATUS.cancelled;
      if (wanted !== undefined && wanted !== target)
        throw conflict(wanted === 1 ? '该通知已发布' : '该通知未发布，无需撤回');
      if (publishing) return { status: (await publish(user, row)).status };
      if (!(await repo.setStatus(db, id, row.status, target, now())))
        throw conflict('该通知的状态已被他人修改，请刷新后重试');
      tell(await receivers(db, await storedAudience(db, row)));
      return { status: target };
    },

    async adminPage(q: z.output<typeof AnnouncePageQuery>): Promise<AnnounceAdminPage> {
      const { rows, total } = await repo.adminPage(db, q);
      const targets = await repo.targetsOf(
        db,
        rows.map((r) => r.id),
      );
      return {
        total,
        list: rows.map((r) => ({
          id: r.id,
          title: r.title,
          status: r.status,
          audience: audienceOf(
            r.audience,
            targets.filter((t) => t.announcement_id === r.id),
          ),
          authorName: r.author_name ?? '',
          publishTime: r.published_at === null ? null : Number(r.published_at),
          updateTime: Number(r.updated_at),
        })),
      };
    },

    async readerPage(user: SessionUser, q: z.output<typeof AnnounceReadQuery>): Promise<AnnounceReadPage> {
      const { rows, total } = await repo.readerPage(db, await readerOf(user), q);
      return {
        total,
        list: rows.map((r) => ({
          id: r.id,
          title: r.title,
          authorName: r.author_name ?? '',
          publishTime: Number(r.published_at ?? 0),
        })),
      };
    },

    /** Administrators read any announcement; others only published ones meant for them. */
    async canRead(user: SessionUser, id: number): Promise<boolean> {
      if (await isAdmin(user)) return Boolean(await repo.findAnnouncement(db, id));
      return repo.isReadableBy(db, id, await readerOf(user));
    },

    async detail(user: SessionUser, id: number): Promise<AnnounceDetail> {
      const admin = await isAdmin(user);
      if (!admin && !(await repo.isReadableBy(db, id, await readerOf(user)))) throw notFound(NOT_READABLE);
      const row = await repo.findAnnouncement(db, id);
      if (!row) throw notFound(admin ? '该通知不存在或已被删除' : NOT_READABLE);
      const files = (await attach.listOf(db, ANNOUNCE_TABLE, id)).filter((a) => !a.inline);
      return {
        id: row.id,
        title: row.title,
        content: row.content,
        status: row.status,
        authorName: row.author_name ?? '',
        publishTime: row.published_at === null ? null : Number(row.published_at),
        updateTime: Number(row.updated_at),
        attachments: files.map(toAttachment),
        audience: admin ? audienceOf(row.audience, await repo.targetsOf(db, [id])) : null,
      };
    },

    async isPublished(id: number) {
      return (await repo.findAnnouncement(db, id))?.status === ANNOUNCE_STATUS.published;
    },
  };
}
export type AnnounceService = ReturnType<typeof createAnnounceService>;
