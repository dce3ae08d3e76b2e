import type { Db } from '../../db/index';
import { notFound } from '../../errors';
import { formatMuseumTime } from '../../../shared/rules/museum-time';
import { RESOURCE_APPROVAL_TYPES, type LiveTopic } from '../../../shared/api/notice';
import { avatarUrl } from '../org/avatar';
import { enabledUserIds } from '../org/org.repo';
import type { LiveBus } from './live';
import * as repo from './notice.repo';

/** Where a notice came from (the notice centre may label by it). */
export type NoticeSource = 'share' | 'announcement' | 'system' | 'approval';

/** Approval message statuses (spec office.md §3): awaiting my decision, copied to me. */
export const AWAITING = 1;
export const COPIED = 10;

const sender = (r: { from_id: number | null; from_name: string | null; from_avatar: string | null }) => ({
  userImg: r.from_id ? avatarUrl(r.from_id, r.from_avatar) : '',
  userName: r.from_name ?? '',
});

export interface ApprovalMessageInput {
  receivers: number[];
  actvityId: number;
  title: string;
  type: string;
  status: typeof AWAITING | typeof COPIED;
  startTime: number;
  from: number | null;
}
export type ApprovalWriter = ReturnType<NoticeService['approvalWriter']>;

/**
 * The notification service (issue 7): every module that must tell people something calls it,
 * and it is the only writer of the notice centre's three lists. Each write commits, then tells
 * the live bus whose lists changed, so the affected pages refresh within a second.
 * Content is plain text: the app renders it as text, never as HTML.
 */
export function createNoticeService(db: Db, bus: LiveBus, now: () => number = Date.now) {
  async function knownReceivers(ids: number[], on: Db = db): Promise<number[]> {
    const receivers = [...new Set(ids)];
    const known = await enabledUserIds(on, receivers);
    if (known.length !== receivers.length) throw notFound('接收人不存在或已停用，请重新选择');
    return receivers;
  }
  const changed = (userIds: number[], topic: LiveTopic) => {
    if (userIds.length) bus.publish(userIds, [topic]);
  };

  /** Approval-message writes on any connection; remembers whose lists changed. */
  function writer() {
    const touched = new Set<number>();
    const told = new Set<number>();
    return {
      async open(on: Db, input: ApprovalMessageInput) {
        const receivers = await knownReceivers(input.receivers, on);
        await repo.upsertApprovalMessages(
          on,
          receivers.map((id) => ({
            user_id: id,
            actvity_id: input.actvityId,
            title: input.title,
            type: input.type,
            status: input.status,
            start_time: input.startTime,
            created_by: input.from,
          })),
          now(),
        );
        for (const id of receivers) touched.add(id);
      },
      /** `type` null closes the request's messages of every module (a copy read from the popup). */
      async close(
        on: Db,
        actvityId: number,
        status: typeof AWAITING | typeof COPIED,
        userIds: number[] | null,
        type: string | null = null,
      ) {
        for (const id of await repo.closeApprovalMessages(on, actvityId, status, userIds, type))
          touched.add(id);
      },
      /**
       * Notices written in the caller's transaction (a request's outcome told to its starter),
       * so the outcome and its notice commit together: an offline replay answered from the
       * Idempotency-Key store runs nothing and cannot tell anyone twice. Receivers no longer
       * enabled are left out rather than refused: a disabled starter must not stop their
       * approver from deciding.
       */
      async notice(
        on: Db,
        input: { receivers: number[]; content: string; from: number | null; link: string | null },
      ) {
        const receivers = await enabledUserIds(on, [...new Set(input.receivers)]);
        if (!receivers.length) return;
        await repo.insertNotices(
          on,
          receivers.map((id) => ({
            user_id: id,
            notice_content: input.content,
            source: 'approval',
            created_by: input.from,
            link: input.link,
          })),
          now(),
        );
        for (const id of receivers) told.add(id);
      },
      publish: () => {
        changed([...touched], 'approval');
        changed([...told], 'notice');
      },
    };
  }

  return {
    /** Stores one notice per receiver, all or none; unknown or disabled receivers refuse the call. */
    async notify(input: {
      receivers: number[];
      content: string;
      source: NoticeSource;
      from: number | null;
      /** Where opening the notice goes: an in-app path such as `/approve/notice-detail?id=3`. */
      link?: string;
    }) {
      const receivers = await knownReceivers(input.receivers);
      await db.transaction().execute((trx) =>
        repo.insertNotices(
          trx,
          receivers.map((id) => ({
            user_id: id,
            notice_content: input.content,
            source: input.source,
            created_by: input.from,
            link: input.link ?? null,
          })),
          now(),
        ),
      );
      changed(receivers, 'notice');
    },

    async notices(userId: number) {
      const rows = await repo.noticesOf(db, userId);
      return rows.map((r) => ({
        noticeId: r.id,
        noticeContent: r.notice_content,
        status: r.status === 2 ? ('2' as const) : ('1' as const),
        createTimeStr: formatMuseumTime(r.created_at),
        source: r.source,
        link: r.link,
      }));
    },
    async readNotice(userId: number, noticeId: number) {
      if (await repo.readNotice(db, userId, noticeId)) changed([userId], 'notice');
    },
    async clearNotices(userId: number) {
      if (await repo.clearNotices(db, userId)) changed([userId], 'notice');
    },

    /**
     * A collaboration item for each receiver (the task issue: assigned to you, a deadline
     * changed, a comment on your task, a checklist). Type 1 text, 2 task checklist.
     */
    async cooperate(input: {
      receivers: number[];
      title: string;
      content: string;
      type: 1 | 2;
      projectId: number | null;
      taskId: number | null;
      from: number | null;
    }) {
      const receivers = await knownReceivers(input.receivers);
      await db.transaction().execute((trx) =>
        repo.insertCooperation(
          trx,
          receivers.map((id) => ({
            user_id: id,
            title: input.title,
            content: input.content,
            type: input.type,
            project_id: input.projectId,
            task_id: input.taskId,
            created_by: input.from,
          })),
          now(),
        ),
      );
      changed(receivers, 'cooperation');
    },
    async cooperation(userId: number) {
      const rows = await repo.cooperationOf(db, userId);
      return rows.map((r) => ({
        cooperationId: r.id,
        cooperationTitle: r.title,
        cooperationContent: r.content,
        cooperationType: r.type === 2 ? ('2' as const) : ('1' as const),
        createTimeStr: formatMuseumTime(r.created_at),
        ...sender(r),
        projectId: r.project_id,
        taskId: r.task_id,
        isDelete: r.task_deleted ? (1 as const) : (0 as const),
      }));
    },
    /** One item read (it leaves the list), or every item when `cooperationId` is null ('clear'). */
    async readCooperation(userId: number, cooperationId: number | null) {
      if (await repo.readCooperation(db, userId, cooperationId)) changed([userId], 'cooperation');
    },
    /** The task module tells us its tasks are gone, so their items warn 此任务已被删除. */
    async tasksDeleted(taskIds: number[]) {
      changed(await repo.flagDeletedTasks(db, taskIds), 'cooperation');
    },

    /** A request now awaits these people's decision (status 1) or is copied to them (status 10). */
    async approvalMessage(input: ApprovalMessageInput) {
      const w = writer();
      await db.transaction().execute((trx) => w.open(trx, input));
      w.publish();
    },
    /**
     * Takes a request off lists: status 1 when people decided (or the request ended: pass null
     * for everyone), status 10 when a copy was read.
     */
    async closeApproval(
      actvityId: number,
      status: typeof AWAITING | typeof COPIED,
      userIds: number[] | null,
      type: string | null = null,
    ) {
      const w = writer();
      await w.close(db, actvityId, status, userIds, type);
      w.publish();
    },
    /**
     * The same writes inside the caller's transaction: the approvals module stores a request's
     * new state and its messages in one commit. Call `publish()` after the commit, so the live
     * bus never announces a change that was rolled back.
     */
    approvalWriter: writer,
    async approvalMessages(userId: number) {
      const rows = await repo.approvalMessagesOf(db, userId);
      return rows.map((r) => ({
        actvityId: r.actvity_id,
        title: r.title,
        startTime: formatMuseumTime(r.start_time),
        status: r.status === COPIED ? ('10' as const) : ('1' as const),
        type: r.type,
        ...sender(r),
      }));
    },

    async counts(userId: number) {
      const c = await repo.countsOf(db, userId);
      const approvalCount = c.todo + c.copyto;
      return {
        todoCount: c.todo,
        copytoCount: c.copyto,
        approvalCount,
        noticeCount: c.notices,
        cooperationCount: c.cooperation,
        total: approvalCount + c.notices + c.cooperation,
      };
    },
    async resourceCounts(userId: number) {
      const { upload, apply } = RESOURCE_APPROVAL_TYPES;
      const byType = await repo.todoByType(db, userId, [upload, apply]);
      const uploadCount = byType.get(upload) ?? 0;
      const applyCount = byType.get(apply) ?? 0;
      return { all: uploadCount + applyCount, uploadCount, applyCount };
    },
  };
}
export type NoticeService = ReturnType<typeof createNoticeService>;
