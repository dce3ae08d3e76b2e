import { notifications } from '@mantine/notifications';
import { IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import type { RecordRow } from '../../shared/records/api';
import { RETURN_CONDITIONS, availableOf, bsBookApproval, bsBookInfo } from '../../shared/records/book/books';
import { f } from '../../shared/records/define';
import {
  CATALOGUE_COLUMNS,
  CATALOGUE_FORM,
  CATALOGUE_HIDDEN_FILTERS,
  OVERDUE_QUERY,
  QUEUE_COLUMNS,
  QUEUE_FIXED,
  QUEUE_HIDDEN_FILTERS,
  QUEUE_STATUSES,
  librarianMay,
  queueMark,
  queueName,
  type BookKind,
  type Queue,
} from '../features/books/admin-rules';
import { ebookRowActions } from '../features/books/ebook';
import { IsbnFillButton } from '../features/books/isbn-fill';
import { RecordListPage, useGrant, type QuickTab, type TransitionVariant } from '../features/records';
import { confirmAction } from '../components/confirm-action';
import { errorToast } from '../lib/api';
import { tBooksAdmin } from '../lib/i18n/books-admin';
import { tRecords } from '../lib/i18n/records';
import { noticeKeys } from '../lib/notices';
import { recordKeys, useRecordPage, writeRecord } from '../lib/records';

/**
 * The librarian's pages of book lending (issue 22, README "Book lending"): the three catalogue
 * management pages and the three queues, each the records engine's list on bsBookInfo or
 * bsBookApproval with the cut features/books/admin-rules.ts gives it. Decisions are the engine's
 * transitions, so one made offline waits in the outbox like any other.
 */

const B = tBooksAdmin;

/** The librarian's grant: every application and the decisions (README "Book lending"). */
const MANAGE = 'book.borrowManagement';

/** 可借: what can still go out, computed as the server does (馆藏 − 待领取 − 在借). */
const COMPUTED = {
  available: {
    field: f.int(B.available, { list: true, width: 70 }),
    value: (row: RecordRow) => availableOf(row),
  },
};

/**
 * 停借 and 恢复借阅 in the row: the row saved with the other status (the form's 状态 does the
 * same, and 剔除), through the outbox like any edit.
 */
function setStatus(row: RecordRow, status: number, label: string) {
  confirmAction({
    title: B.statusTitle(label),
    message: B.statusConfirm(label, bsBookInfo.describe(row)),
    confirmLabel: label,
    danger: status !== 1,
    run: async () => {
      try {
        const body = { ...row, status };
        const r = await writeRecord(bsBookInfo, bsBookInfo.calls.update!, body, {
          action: 'update',
          id: row.id,
          body,
          label: `${label}：${bsBookInfo.describe(row)}`,
        });
        notifications.show({
          color: r.queued ? 'yellow' : 'green',
          message: r.queued ? tRecords.queued : tRecords.done(label),
        });
      } catch (err) {
        errorToast(err instanceof Error ? err.message : String(err));
        throw err;
      }
    },
  });
}

/** 按ISBN填充 under a book's ISBN (README "Book lending"): periodicals and publications have none. */
const ISBN_ADDON = { isbn: IsbnFillButton };

function CataloguePage({ kind, title, intro }: { kind: BookKind; title: string; intro: string }) {
  const fixed = useMemo(() => ({ type: kind }), [kind]);
  const writer = useGrant(bsBookInfo.access.write);
  return (
    <RecordListPage
      def={bsBookInfo}
      title={title}
      intro={intro}
      fixed={fixed}
      columns={CATALOGUE_COLUMNS[kind]}
      computed={COMPUTED}
      hideFilters={CATALOGUE_HIDDEN_FILTERS[kind]}
      form={CATALOGUE_FORM[kind]}
      formAddons={kind === 1 ? ISBN_ADDON : undefined}
      rowActions={(row) => [
        ...ebookRowActions(row),
        ...(!writer
          ? []
          : Number(row.status) === 1
            ? [
                {
                  key: 'suspend',
                  label: B.suspend,
                  icon: IconPlayerPause,
                  color: 'orange',
                  run: () => setStatus(row, 2, B.suspend),
                },
              ]
            : [
                {
                  key: 'resume',
                  label: B.resume,
                  icon: IconPlayerPlay,
                  run: () => setStatus(row, 1, B.resume),
                },
              ]),
      ]}
    />
  );
}

/** 图书管理 (/books/book-manage). */
export function BookManagePage() {
  return <CataloguePage kind={1} title={B.bookTitle} intro={B.bookIntro} />;
}

/** 期刊管理 (/books/periodical-manage): one row per issue. */
export function PeriodicalManagePage() {
  return <CataloguePage kind={2} title={B.periodicalTitle} intro={B.periodicalIntro} />;
}

/** 出版物管理 (/books/publication-manage): the museum's own publications, given away. */
export function PublicationManagePage() {
  return <CataloguePage kind={3} title={B.publicationTitle} intro={B.publicationIntro} />;
}

/**
 * Decisions as buttons that say what they do: 续借审批's 同意续借 (a remark) and 不予续借 (a
 * reason) over the one `delay` call; 归还 of a book in good order, and 登记破损或遗失 (returned damaged, or lost), which
 * asks which and requires the remark (the server's rule, shown before sending).
 */
const VARIANTS: Record<string, readonly TransitionVariant[]> = {
  returnBook: [
    {
      key: 'returnGood',
      label: B.returnGood,
      preset: { returnCondition: 1 },
      input: { remark: f.textarea(B.returnRemark, { max: 200 }) },
    },
    {
      key: 'returnDamaged',
      label: B.returnDamaged,
      preset: {},
      input: {
        returnCondition: f.status(
          B.returnCondition,
          RETURN_CONDITIONS.filter((c) => c.value !== 1),
          { required: true },
        ),
        remark: f.textarea(B.returnRemark, { required: true, max: 200 }),
      },
      danger: true,
    },
  ],
  delay: [
    {
      key: 'delayAgree',
      label: B.agree,
      preset: { agree: true },
      input: { comment: f.textarea(B.agreeComment, { max: 200 }) },
    },
    {
      key: 'delayRefuse',
      label: B.disagree,
      preset: { agree: false },
      input: { comment: f.textarea(B.disagreeReason, { required: true, max: 200 }) },
      danger: true,
    },
  ],
};

const MARK_WORDS = { overdue: B.overdue, pickupLate: B.pickupLate };

/**
 * The side menu's queue badges follow what this page reads: whenever a list of applications
 * arrives (opened, filtered, after a decision), the counts are asked again.
 */
function useCountsFollowQueue() {
  const qc = useQueryClient();
  useEffect(() => {
    const [root, name] = recordKeys.all(bsBookApproval);
    return qc.getQueryCache().subscribe((e) => {
      if (e.type !== 'updated' || e.action.type !== 'success') return;
      const key = e.query.queryKey;
      if (key[0] === root && key[1] === name) void qc.invalidateQueries({ queryKey: noticeKeys.counts });
    });
  }, [qc]);
}

function QueuePage({ queue, title, intro }: { queue: Queue; title: string; intro: string }) {
  useCountsFollowQueue();
  const fixed = QUEUE_FIXED[queue];
  const withOverdue = !QUEUE_HIDDEN_FILTERS[queue].includes('overdue');
  // 已逾期 n: the whole queue's overdue loans, one row asked for its total.
  const overdue = useRecordPage(
    bsBookApproval,
    { ...fixed, ...OVERDUE_QUERY, currentPage: 1, pageCount: 1 },
    withOverdue,
  );
  const quickTabs: QuickTab[] = withOverdue
    ? [{ key: 'overdue', label: B.overdue, query: OVERDUE_QUERY, count: overdue.data?.total }]
    : [];
  return (
    <RecordListPage
      def={bsBookApproval}
      title={title}
      intro={intro}
      grant={MANAGE}
      fixed={fixed}
      statuses={QUEUE_STATUSES[queue]}
      quickTabs={quickTabs}
      columns={QUEUE_COLUMNS[queue]}
      hideFilters={QUEUE_HIDDEN_FILTERS[queue]}
      allow={(action, row) => librarianMay(action, row, Date.now())}
      variants={VARIANTS}
      badge={(row) => queueMark(row, Date.now(), MARK_WORDS)}
      describe={queueName}
    />
  );
}

/** 借阅审批 (/books/borrow-management). */
export function BorrowManagementPage() {
  return <QueuePage queue="borrow" title={B.borrowTitle} intro={B.borrowIntro} />;
}

/** 领用审批 (/books/receive-management). */
export function ReceiveManagementPage() {
  return <QueuePage queue="receive" title={B.receiveTitle} intro={B.receiveIntro} />;
}

/** 续借审批 (/books/delay-management): renewals asked for (延期审批中). */
export function DelayManagementPage() {
  return <QueuePage queue="delay" title={B.delayTitle} intro={B.delayIntro} />;
}
