import { Alert, Badge, Button, Divider, Drawer, Group, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { dialogs } from '../../lib/dialogs';
import { notifications } from '@mantine/notifications';
import { IconCloudOff, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { CachedViewState } from '../../components/cached-state';
import { OfflineNote } from '../../components/offline-note';
import { confirmAction } from '../../components/page-states';
import { useDialogEscape } from '../../components/dialog-escape';
import { UserAvatar } from '../../components/user-avatar';
import { errorToast } from '../../lib/api';
import { refusedFor, type DecideMeta } from '../../lib/approval-overlay';
import {
  approvalWrites,
  printUrl,
  refreshApprovals,
  useApprovalDetail,
  type ProcessDetail,
} from '../../lib/approvals';
import { tCore } from '../../lib/i18n-core';
import { tApprovalProcess } from '../../lib/i18n/approval-process';
import { classify, outbox, useOutbox } from '../../lib/offline';
import type { OutboxOp } from '../../lib/outbox';
import { session } from '../../lib/session';
import { ActionDialog } from './action-dialog';
import { ContactPicker } from './action-contact-picker';
import { ApprovalTimeline, CopyList, FormFields, Section } from './detail-sections';
import {
  NEEDS_NETWORK,
  panelButtons,
  PRIORITY_COLOR,
  STATUS_COLOR,
  type DialogAction,
  type PanelButton,
  type PanelMode,
} from './process-rules';

const P = tApprovalProcess;
const D = P.detail;

/**
 * The approval detail panel (spec §2, §3, §4, §6): a side panel on tablets and desktops, full
 * screen on phones. Buttons follow the mode and status (process-rules.ts). Agree, refuse and
 * comment work offline (queued, shown as 待同步); transfer, cancel and print need the network
 * and say so. A copy-to item not yet read is marked read when it opens.
 */
export function DetailPanel({
  id,
  mode,
  onClose,
}: {
  id: number | null;
  mode: PanelMode;
  onClose: () => void;
}) {
  const phone = useMediaQuery('(max-width: 575px)');
  // Escape in the action dialog or contact picker closes that one, not the panel under it.
  const escape = useDialogEscape(onClose, id !== null);
  return (
    <Drawer
      {...escape}
      opened={id !== null}
      onClose={onClose}
      position="right"
      size={phone ? '100%' : 600}
      title={D.title}
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': D.close }}
      scrollAreaComponent={ScrollArea.Autosize}
    >
      {id !== null && <PanelBody key={id} id={id} mode={mode} />}
    </Drawer>
  );
}

function askCancel() {
  return new Promise<boolean>((resolve) =>
    dialogs.openConfirmModal({
      title: P.dialog.cancelConfirmTitle,
      children: <Text size="sm">{P.dialog.cancelConfirm}</Text>,
      labels: { confirm: P.dialog.cancelConfirmButton, cancel: tCore.common.cancel },
      confirmProps: { color: 'red', 'data-testid': 'cancel-confirm' } as Record<string, unknown>,
      closeOnClickOutside: false,
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    }),
  );
}

function PanelBody({ id, mode }: { id: number; mode: PanelMode }) {
  const view = useApprovalDetail(id);
  const qc = useQueryClient();
  const ops = useOutbox();
  const [dialog, setDialog] = useState<DialogAction | null>(null);
  const [picking, setPicking] = useState(false);
  const d = view.data;
  const offline = view.offline;

  // A copy not yet read is marked read on open (spec §4); once, and not again while queued.
  const readSent = useRef(false);
  const me = session.get()?.user.userId;
  useEffect(() => {
    if (mode !== 'copy' || !d || readSent.current || d.queued.read) return;
    if (!d.unreadList.some((u) => u.userId === me)) return;
    readSent.current = true;
    approvalWrites.read(id, d.title).catch(() => undefined);
  }, [mode, d, id, me]);

  if (!d) return <CachedViewState view={view} />;

  const refused = refusedFor(ops, id);
  const buttons = panelButtons(mode, d.status, d.isCancel, d.queued.action !== undefined);

  const done = (message: string, queued: boolean) =>
    notifications.show({ color: queued ? 'yellow' : 'green', message: queued ? P.done.queued : message });

  /** Runs a write of the dialog; true closes it. Refusals are toasted (spec §8) and views refresh. */
  const submit = async (action: DialogAction, reason: string): Promise<boolean> => {
    try {
      if (action === 'cancel') {
        // 确定撤销该申请吗 (spec §5) gates the write; the dialog keeps its spinner meanwhile.
        if (!(await askCancel())) return false;
        await approvalWrites.cancel(id, reason);
        done(P.done.cancel, false);
        refreshApprovals(qc);
        return true;
      }
      const r =
        action === 'comment'
          ? await approvalWrites.comment(id, d.title, reason)
          : await approvalWrites.decide(id, d.title, action === 'agree' ? 2 : 3, reason);
      done(P.done[action], r.queued);
      return true;
    } catch (err) {
      errorToast(err instanceof Error ? err.message : tCore.errors.server);
      // No network (cancel is sent at once): keep the dialog and its text to try again.
      if (classify(err) === 'network') return false;
      // A refusal settles the question (已被他人处理): the dialog closes onto the server's truth.
      refreshApprovals(qc);
      return true;
    }
  };

  const transfer = async (target: number) => {
    try {
      await approvalWrites.deliver(id, target);
      done(P.done.transfer, false);
      refreshApprovals(qc);
      return true;
    } catch (err) {
      errorToast(err instanceof Error ? err.message : tCore.errors.server);
      return false;
    }
  };

  const press = (b: PanelButton) => {
    if (b === 'print') window.open(printUrl(id), '_blank', 'noopener');
    else if (b === 'transfer') setPicking(true);
    else setDialog(b);
  };

  return (
    <Stack gap="md" data-testid="detail-panel">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <UserAvatar name={d.title} image={d.userImage} size={44} />
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Title order={4} data-testid="detail-title" style={{ wordBreak: 'break-word' }}>
            {d.title}
          </Title>
          <Group gap={6}>
            <Badge color={STATUS_COLOR[d.status] ?? 'gray'} data-testid="detail-status">
              {P.status[d.status] ?? String(d.status)}
            </Badge>
            <Badge color={PRIORITY_COLOR[d.priority] ?? 'gray'} variant="light">
              {P.priority[d.priority] ?? String(d.priority)}
            </Badge>
            {d.queued.syncPending && (
              <Badge color="yellow" variant="light" data-testid="detail-sync-pending">
                {P.syncPending}
              </Badge>
            )}
          </Group>
        </Stack>
        <OfflineNote view={view} />
      </Group>

      {offline && (
        <Alert color="yellow" icon={<IconCloudOff size={16} />} data-testid="detail-offline">
          {D.offline}
        </Alert>
      )}
      {d.queued.action !== undefined && d.queued.syncPending && (
        <Alert color="yellow" data-testid="detail-queued">
          {D.queuedDecision(d.queued.action === 2 ? P.opWhat.agree : P.opWhat.refuse)}
        </Alert>
      )}
      {refused.map((op) => (
        <RefusedNote key={op.id} op={op} />
      ))}

      <Section title={D.form}>
        <FormFields fields={d.fields} detail={d.detail} />
      </Section>
      <Divider />
      <Section title={D.timeline}>
        <ApprovalTimeline approval={d.approval} />
      </Section>
      <CopyList readList={d.readList} unreadList={d.unreadList} copytoList={d.copytoList} notice={d.notice} />
      <Divider />
      <Comments detail={d} offline={offline} onChanged={() => refreshApprovals(qc)} />

      <Group
        justify="flex-end"
        gap="xs"
        pt="sm"
        style={{ position: 'sticky', bottom: 0, background: 'var(--mantine-color-body)' }}
        data-testid="detail-buttons"
      >
        {buttons.map((b) => (
          <Button
            key={b}
            variant={b === 'agree' ? 'filled' : b === 'refuse' || b === 'cancel' ? 'light' : 'default'}
            color={b === 'refuse' || b === 'cancel' ? 'red' : undefined}
            disabled={offline && NEEDS_NETWORK.includes(b)}
            onClick={() => press(b)}
            data-testid={`panel-${b}`}
          >
            {P.actions[b]}
          </Button>
        ))}
      </Group>

      <ActionDialog action={dialog} onClose={() => setDialog(null)} submit={submit} />
      <ContactPicker opened={picking} onClose={() => setPicking(false)} submit={transfer} />
    </Stack>
  );
}

/** A write made offline that the server refused on replay: what it was and the server's words. */
function RefusedNote({ op }: { op: OutboxOp }) {
  const what =
    op.kind === 'approvals.decide'
      ? (op.meta as DecideMeta).action === 2
        ? P.opWhat.agree
        : P.opWhat.refuse
      : op.kind === 'approvals.comment'
        ? P.opWhat.comment
        : P.opWhat.read;
  return (
    <Alert color="red" data-testid="detail-refused" title={D.refused(what)}>
      <Stack gap={6}>
        <Text size="sm" fw={500}>
          {op.error}
        </Text>
        <Text size="xs" c="dimmed">
          {D.refusedHint}
        </Text>
        <Group>
          <Button size="xs" variant="light" onClick={() => void outbox.discard(op.id)}>
            {D.dismiss}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

function Comments({
  detail,
  offline,
  onChanged,
}: {
  detail: ProcessDetail;
  offline: boolean;
  onChanged: () => void;
}) {
  const list = detail.comment;
  const queued = detail.queued.comments;
  return (
    <Section title={D.comments} testId="detail-comments">
      {list.length === 0 && queued.length === 0 && (
        <Text size="sm" c="dimmed">
          {D.noComments}
        </Text>
      )}
      {list.map((c) => (
        <Group key={c.commentId} gap="xs" align="flex-start" wrap="nowrap" data-testid="comment-row">
          <UserAvatar name={c.name} image={c.userImage} size={28} />
          <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
            <Group gap={6}>
              <Text size="sm" fw={500}>
                {c.name}
              </Text>
              <Text size="xs" c="dimmed">
                {c.date}
              </Text>
            </Group>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              {c.comment}
            </Text>
          </Stack>
          {c.canDelete && (
            <Button
              size="compact-xs"
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={12} />}
              disabled={offline}
              onClick={() =>
                confirmAction({
                  title: P.dialog.deleteCommentTitle,
                  message: P.dialog.deleteCommentConfirm,
                  confirmLabel: tCore.common.delete,
                  danger: true,
                  run: () =>
                    approvalWrites.deleteComment(c.actvityId, c.commentId).then(
                      () => {
                        notifications.show({ color: 'green', message: P.done.deleteComment });
                        onChanged();
                      },
                      (err: unknown) => {
                        errorToast(err instanceof Error ? err.message : tCore.errors.server);
                        throw err;
                      },
                    ),
                })
              }
              data-testid="comment-delete"
            >
              {P.actions.deleteComment}
            </Button>
          )}
        </Group>
      ))}
      {queued.map((text, i) => (
        <Group key={`q${i}`} gap="xs" align="flex-start" wrap="nowrap" data-testid="comment-queued">
          <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
            <Badge size="xs" color="yellow" variant="light">
              {D.queuedComment}
            </Badge>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              {text}
            </Text>
          </Stack>
        </Group>
      ))}
    </Section>
  );
}
