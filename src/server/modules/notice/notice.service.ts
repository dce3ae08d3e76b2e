import type { Db } from '../../db/index';
import { notFound } from '../../errors';
import { enabledUserIds } from '../org/org.repo';
import * as repo from './notice.repo';

/** Where a notice came from (the notice centre may group or label by it). */
export type NoticeSource = 'share' | 'announcement' | 'system';

/**
 * Notices for people (spec office.md §3 "notices"). Other modules call `notify`; the notices
 * issue adds reading, clearing, counts and the live push on top of this table. Content is
 * plain text: the notice centre renders it as text, never as HTML.
 */
export function createNoticeService(db: Db, now: () => number = Date.now) {
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
      const receivers = [...new Set(input.receivers)];
      const known = await enabledUserIds(db, receivers);
      if (known.length !== receivers.length) throw notFound('接收人不存在或已停用，请重新选择');
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
    },
    noticesOf: (userId: number) => repo.noticesOf(db, userId),
  };
}
export type NoticeService = ReturnType<typeof createNoticeService>;
