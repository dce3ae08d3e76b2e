import {
  Alert,
  Badge,
  Button,
  Card,
  Divider,
  Drawer,
  EmptyState,
  Group,
  Modal,
  NumberInput,
  Pagination,
  ScrollArea,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Textarea,
  Timeline,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconArrowBackUp,
  IconCalendarPlus,
  IconCircleCheck,
  IconCirclePlus,
  IconInbox,
  IconWifiOff,
  IconX,
} from '@tabler/icons-react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { RecordNames, RecordRow } from '../../../shared/records/api';
import {
  APPROVAL_STATES,
  bookRulesOf,
  bsBookApproval,
  isOverdue,
  type BookRules,
} from '../../../shared/records/book/books';
import { statusLabel } from '../../../shared/records/define';
import { addDays, formatMuseumMinute } from '../../../shared/rules/museum-time';
import { CachedViewState } from '../../components/cached-state';
import { confirmAction } from '../../components/confirm-action';
import { DIALOG_WIDTH } from '../../components/dialog-kit';
import { useDialogEscape } from '../../components/dialog-escape';
import { FormActions } from '../../components/form-actions';
import { OfflineNote } from '../../components/offline-note';
import { errorToast } from '../../lib/api';
import { tBooksReader } from '../../lib/i18n/books-reader';
import { useOnline } from '../../lib/online';
import { useRecordDetail } from '../../lib/records';
import {
  ownTransition,
  refreshAfterRequest,
  requestError,
  useOwnApplications,
  useReaderInfo,
} from './reader-api';
import { loanDatesOf, ownActionsOf, ownTabsOf, renewProblem, type OwnAction } from './reader-rules';

const B = tBooksReader;
const EMPTY_NAMES: RecordNames = { users: {}, depts: {} };
const PAGE_SIZE = 20;

const bookTitle = (row: RecordRow, names: RecordNames) =>
  names.refs?.bsBookInfo?.[String(row.bookId)] ?? `#${String(row.bookId)}`;
const stateOf = (status: unknown) => APPROVAL_STATES.find((o) => o.value === Number(status));

/**
 * 我的借阅 (/books/borrow-record) and 我的领用 (/books/receive-record): the reader's own
 * applications (`pageListEmployee`, the kind fixed) as cards, with quick-count tabs per state
 * (and 已逾期 for loans), the 已逾期 badge, 取书截止 and 应还日期, and exactly the actions the
 * state allows the applicant: 取消 (待审批, 待领取), 重新申请 (已拒绝, 已取消), 申请续借 (借阅中,
 * not overdue, renewals left). The lists and the rules are kept on the device and open offline
 * with their sync time; the actions need the network and say so.
 */
export function ReaderApplicationsPage({ applyType }: { applyType: 1 | 2 }) {
  const online = useOnline();
  const qc = useQueryClient();
  const [tab, setTab] = useState('all');
  const [pageNo, setPageNo] = useState(1);
  const filter = tab === 'overdue' ? { overdue: true } : tab === 'all' ? {} : { status: Number(tab) };
  const view = useOwnApplications({ applyType, currentPage: pageNo, pageCount: PAGE_SIZE, ...filter });
  // The tabs' counts: the per-state counts of all my applications of this kind, and the overdue.
  const countView = useOwnApplications({ applyType, currentPage: 1, pageCount: 1 });
  const overdueView = useOwnApplications(
    { applyType, overdue: true, currentPage: 1, pageCount: 1 },
    applyType === 1,
  );
  const info = useReaderInfo();
  const rules = bookRulesOf(info.data?.rules);
  const [openId, setOpenId] = useState<number | null>(null);
  const [renewing, setRenewing] = useState<{ row: RecordRow; title: string } | null>(null);

  const page = view.data;
  const names = page?.names ?? EMPTY_NAMES;
  const rows = page?.list ?? [];
  const counts = new Map((countView.data?.counts ?? []).map((c) => [c.value, c.count]));
  const all = countView.data ? [...counts.values()].reduce((a, b) => a + b, 0) : null;
  const overdue = overdueView.data?.total ?? null;
  // Overdue and the actions are judged at the page's opening (a reload judges again).
  const [now] = useState(Date.now);

  const run = (action: OwnAction, row: RecordRow) => {
    const title = bookTitle(row, names);
    if (action === 'renew') return setRenewing({ row, title });
    const cancel = action === 'cancel';
    confirmAction({
      title: cancel ? B.cancelApply : B.reapply,
      message: cancel ? B.cancelConfirm(title) : B.reapplyConfirm(title),
      confirmLabel: cancel ? B.cancelApply : B.reapply,
      danger: cancel,
      run: () => sendOwn(qc, cancel ? 'cancel' : 'reapply', row.id, {}, cancel ? B.cancelled : B.reapplied),
    });
  };

  let body;
  if (!page) body = <CachedViewState view={view} />;
  else if (!rows.length)
    body = (
      <EmptyState
        py="xl"
        icon={<IconInbox size={28} />}
        title={B.ownEmpty[applyType]}
        description={tab === 'all' ? B.ownEmptyHint[applyType] : undefined}
        data-testid="own-empty"
      />
    );
  else
    body = (
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm" data-testid="own-list">
        {rows.map((row) => (
          <ApplicationCard
            key={row.id}
            row={row}
            names={names}
            rules={rules}
            now={now}
            online={online}
            onOpen={() => setOpenId(row.id)}
            onAction={(a) => run(a, row)}
          />
        ))}
      </SimpleGrid>
    );

  const pages = page ? Math.max(1, Math.ceil(page.total / PAGE_SIZE)) : 1;
  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }} data-testid={`books-own-${applyType}`}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Group gap="xs" wrap="nowrap">
          <Title order={3}>{B.ownTitles[applyType]}</Title>
          <OfflineNote view={view} />
        </Group>
        {applyType === 1 && info.data && (
          <Group gap="xs">
            <Text size="sm" c="dimmed" data-testid="own-active">
              {B.myLoans(info.data.active, rules.maxActive)}
            </Text>
            {info.data.overdue > 0 && (
              <Badge color="red" radius="sm">
                {B.overdueCount(info.data.overdue)}
              </Badge>
            )}
          </Group>
        )}
      </Group>
      <Text size="sm" c="dimmed">
        {B.ownIntros[applyType]}
      </Text>
      {!online && (
        <Alert color="yellow" variant="light" icon={<IconWifiOff size={18} />} data-testid="books-offline">
          {B.offlineBanner}
        </Alert>
      )}
      <ScrollArea type="auto" scrollbarSize={6} offsetScrollbars="x">
        <Tabs
          value={tab}
          onChange={(v) => {
            setTab(v ?? 'all');
            setPageNo(1);
          }}
        >
          <Tabs.List style={{ flexWrap: 'nowrap' }}>
            <Tabs.Tab value="all" data-testid="own-tab-all">
              {B.all} {all ?? ''}
            </Tabs.Tab>
            {ownTabsOf(applyType).map((s) =>
              s === 'overdue' ? (
                <Tabs.Tab key={s} value={s} color="red" data-testid="own-tab-overdue">
                  {B.overdue} {overdue ?? ''}
                </Tabs.Tab>
              ) : (
                <Tabs.Tab key={s} value={String(s)} data-testid={`own-tab-${s}`}>
                  {stateOf(s)?.label} {countView.data ? (counts.get(s) ?? 0) : ''}
                </Tabs.Tab>
              ),
            )}
          </Tabs.List>
        </Tabs>
      </ScrollArea>
      {body}
      {page && pages > 1 && (
        <Group justify="center">
          <Pagination total={pages} value={pageNo} onChange={setPageNo} size="sm" />
        </Group>
      )}
      <ApplicationDetail
        id={openId}
        now={now}
        fallback={rows.find((r) => r.id === openId) ?? null}
        names={names}
        onClose={() => setOpenId(null)}
      />
      {renewing && (
        <RenewDialog
          row={renewing.row}
          title={renewing.title}
          maxDeferDays={rules.maxDeferDays}
          onClose={() => setRenewing(null)}
        />
      )}
    </Stack>
  );
}

/** Sends one of the applicant's transitions at once; the refusal is the server's words. */
async function sendOwn(
  qc: QueryClient,
  name: 'cancel' | 'reapply' | 'applyDeferredDays',
  id: number,
  input: Record<string, unknown>,
  done: string,
) {
  try {
    await ownTransition(name, id, input);
    notifications.show({ color: 'green', message: done });
    refreshAfterRequest(qc);
  } catch (err) {
    errorToast(requestError(err, B.actionNeedsNetwork));
    throw err;
  }
}

/** One application: the book, its state (and 已逾期), its dates, and what I may do with it. */
function ApplicationCard({
  row,
  names,
  rules,
  now,
  online,
  onOpen,
  onAction,
}: {
  row: RecordRow;
  names: RecordNames;
  rules: BookRules;
  now: number;
  online: boolean;
  onOpen: () => void;
  onAction: (a: OwnAction) => void;
}) {
  const title = bookTitle(row, names);
  const state = stateOf(row.status);
  const late = isOverdue(row, now);
  const { actions, renewNote } = ownActionsOf(row, rules, now);
  const facts: { label: string; value: string; warn?: boolean }[] = [
    { label: B.applyTime, value: formatMuseumMinute(row.createTime) },
    Number(row.applyType) === 1
      ? { label: B.borrowDays, value: B.days(Number(row.borrowDays ?? 0)) }
      : { label: B.quantity, value: B.count(Number(row.quantity ?? 1)) },
    ...loanDatesOf(row, now),
  ];
  if (Number(row.deferCount ?? 0) > 0) facts.push({ label: '', value: B.deferred(Number(row.deferCount)) });
  if (Number(row.status) === 3 && row.approveComment)
    facts.push({ label: B.comment, value: String(row.approveComment) });
  if (Number(row.status) === 7 && row.returnTime)
    facts.push({ label: B.returned, value: formatMuseumMinute(Number(row.returnTime)) });
  if (Number(row.status) === 8 && row.receiveTime)
    facts.push({ label: B.received, value: formatMuseumMinute(Number(row.receiveTime)) });

  const button = (a: OwnAction) => {
    const spec = {
      cancel: { label: B.cancelApply, aria: B.cancelOf(title), icon: IconX, color: 'red' },
      reapply: { label: B.reapply, aria: B.reapplyOf(title), icon: IconArrowBackUp, color: undefined },
      renew: { label: B.renew, aria: B.renewOf(title), icon: IconCalendarPlus, color: undefined },
    }[a];
    return (
      <Button
        key={a}
        size="xs"
        variant={a === 'cancel' ? 'light' : 'filled'}
        color={spec.color}
        leftSection={<spec.icon size={14} />}
        disabled={!online}
        title={online ? undefined : B.needsNetworkAction}
        aria-label={online ? spec.aria : `${spec.aria}（${B.needsNetworkAction}）`}
        onClick={() => onAction(a)}
      >
        {spec.label}
      </Button>
    );
  };

  return (
    <Card withBorder radius="md" padding="sm" data-testid="own-card" data-status={String(row.status)}>
      <Stack gap={8}>
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <UnstyledButton onClick={onOpen} aria-label={B.applicationOf(title)} style={{ minWidth: 0 }}>
            <Text fw={600} size="sm" lineClamp={2}>
              《{title}》
            </Text>
          </UnstyledButton>
          <Group gap={4} wrap="nowrap" style={{ flex: 'none' }}>
            {late && (
              <Badge color="red" radius="sm" data-testid="overdue-badge">
                {B.overdue}
              </Badge>
            )}
            <Badge color={state?.color ?? 'gray'} variant="light" radius="sm">
              {state?.label ?? String(row.status)}
            </Badge>
          </Group>
        </Group>
        <Group gap="md" wrap="wrap" style={{ rowGap: 2 }}>
          {facts.map((f, i) => (
            <Text
              key={i}
              size="xs"
              c={f.warn ? 'red' : 'dimmed'}
              fw={f.warn ? 600 : undefined}
              style={{ whiteSpace: 'nowrap' }}
            >
              {f.label ? `${f.label}：` : ''}
              {f.value}
            </Text>
          ))}
        </Group>
        {(actions.length > 0 || renewNote) && (
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Text size="xs" c="orange">
              {renewNote ?? ''}
            </Text>
            <Group gap="xs">{actions.map(button)}</Group>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

/** 申请续借: days up to the rule's limit, the due date they would give, and a reason. */
function RenewDialog({
  row,
  title,
  maxDeferDays,
  onClose,
}: {
  row: RecordRow;
  title: string;
  maxDeferDays: number;
  onClose: () => void;
}) {
  const qc = useQueryClient();
  const escape = useDialogEscape(onClose);
  const [days, setDays] = useState<number | ''>(maxDeferDays);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const due = String(row.dueDate ?? '');
  const valid = typeof days === 'number' && days >= 1 && days <= maxDeferDays;

  async function submit() {
    const bad = renewProblem(days, reason, maxDeferDays);
    if (bad) return setProblem(bad);
    setProblem(null);
    setSaving(true);
    try {
      await ownTransition('applyDeferredDays', row.id, {
        deferredDays: Number(days),
        deferReason: reason.trim(),
      });
      notifications.show({ color: 'green', message: B.renewed });
      refreshAfterRequest(qc);
      onClose();
    } catch (err) {
      setProblem(requestError(err, B.actionNeedsNetwork));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      opened
      onClose={onClose}
      title={`${B.renewTitle}：《${title}》`}
      size={DIALOG_WIDTH.standard}
      closeOnClickOutside={false}
      {...escape}
    >
      <Stack gap="sm">
        <NumberInput
          label={B.renewDays}
          required
          min={1}
          max={maxDeferDays}
          allowDecimal={false}
          clampBehavior="none"
          value={days}
          onChange={(v) => setDays(v === '' ? '' : Number(v))}
          description={
            valid && due
              ? `${B.renewDaysHint(maxDeferDays)}；${B.renewNewDue(addDays(due, Number(days)))}`
              : B.renewDaysHint(maxDeferDays)
          }
          data-autofocus
        />
        <Textarea
          label={B.renewReason}
          required
          maxLength={200}
          autosize
          minRows={2}
          maxRows={5}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
        />
        {problem && (
          <Alert color="red" variant="light" data-testid="renew-problem">
            {problem}
          </Alert>
        )}
        <FormActions
          onCancel={onClose}
          saving={saving}
          onSubmit={() => void submit()}
          submitLabel={B.renewSubmit}
        />
      </Stack>
    </Modal>
  );
}

/** An application's detail: its facts and how it went (the status log), kept on the device. */
function ApplicationDetail({
  id,
  now,
  fallback,
  names,
  onClose,
}: {
  id: number | null;
  now: number;
  fallback: RecordRow | null;
  names: RecordNames;
  onClose: () => void;
}) {
  const view = useRecordDetail(bsBookApproval, id);
  const escape = useDialogEscape(onClose, id !== null);
  const detail = view.data;
  const row = detail?.record ?? fallback;
  const rowNames = detail?.names ?? names;
  return (
    <Drawer
      opened={id !== null}
      onClose={onClose}
      position="right"
      size={480}
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': B.closeApply }}
      title={B.detailApply}
      {...escape}
    >
      {!row ? (
        <CachedViewState view={view} />
      ) : (
        <Stack gap="md" data-testid="own-detail">
          <Group justify="space-between" align="flex-start" wrap="nowrap">
            <Title order={4} style={{ wordBreak: 'break-word' }}>
              《{bookTitle(row, rowNames)}》
            </Title>
            <OfflineNote view={view} />
          </Group>
          <SimpleGrid cols={2} spacing="xs">
            {[
              [B.applyTime, formatMuseumMinute(row.createTime)],
              Number(row.applyType) === 1
                ? [B.borrowDays, B.days(Number(row.borrowDays ?? 0))]
                : [B.quantity, B.count(Number(row.quantity ?? 1))],
              ...loanDatesOf(row, now).map((d) => [d.label, d.value]),
              [B.deferCount, Number(row.deferCount ?? 0) ? B.deferred(Number(row.deferCount)) : ''],
              [B.reason, String(row.reason ?? '')],
              [B.comment, String(row.approveComment ?? '')],
              [B.renewReason, String(row.deferReason ?? '')],
            ]
              .filter(([, v]) => v)
              .map(([label, value]) => (
                <div key={label}>
                  <Text size="xs" c="dimmed">
                    {label}
                  </Text>
                  <Text size="sm" style={{ wordBreak: 'break-word' }}>
                    {value}
                  </Text>
                </div>
              ))}
          </SimpleGrid>
          <Divider label={B.timeline} labelPosition="left" />
          {detail?.log.length ? (
            <Timeline active={detail.log.length - 1} bulletSize={22} lineWidth={2}>
              {detail.log.map((l, i) => (
                <Timeline.Item
                  key={i}
                  bullet={
                    l.action === 'create' ? <IconCirclePlus size={14} /> : <IconCircleCheck size={14} />
                  }
                  title={`${l.action === 'create' ? B.created : l.actionLabel} · ${statusLabel(bsBookApproval, l.toStatus)}`}
                >
                  <Text size="xs" c="dimmed">
                    {[l.operatorName, formatMuseumMinute(l.time)].filter(Boolean).join(' · ')}
                  </Text>
                  {l.comment && (
                    <Text size="sm" mt={2}>
                      {l.comment}
                    </Text>
                  )}
                </Timeline.Item>
              ))}
            </Timeline>
          ) : (
            <CachedViewState view={view} />
          )}
        </Stack>
      )}
    </Drawer>
  );
}
