import {
  Alert,
  Badge,
  Button,
  Card,
  Divider,
  Group,
  Modal,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft, IconBell, IconChecks, IconEye } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useState } from 'react';
import type { RecordRow } from '../../shared/records/api';
import { dictKeysOf, statusLabel } from '../../shared/records/define';
import {
  appointTeamOrder,
  CHECK_STATES,
  ID_TYPES,
  TEAM_STATES,
} from '../../shared/records/reservation/orders';
import { formatMuseumMinute } from '../../shared/rules/museum-time';
import { CachedViewState } from '../components/cached-state';
import { useDialogEscape } from '../components/dialog-escape';
import { FormActions } from '../components/form-actions';
import { RecordListPage, useGrant } from '../features/records';
import { StatusTimeline } from '../features/records/record-detail';
import { FieldView } from '../features/records/field-view';
import { errorToast, museum } from '../lib/api';
import { tReservationPages } from '../lib/i18n/reservation-pages';
import { tReservationStaff } from '../lib/i18n/reservation-staff';
import { fieldErrorsOf, recordKeys, useDictionaries, useRecordDetail, writeRecord } from '../lib/records';

/**
 * 团队预约 (/reservation/order-team) and its detail page 游客信息
 * (/reservation/order-team/tourist-info?id=): the team's fields, its name list with ID numbers
 * masked (spec: visitorList), the status timeline, and the two dialogs the office works with —
 * 审核 (the spec's one `approve` call: 通过 or 不通过, the latter with its reason) and 发送通知
 * (repeatable; shows when the last notice went). Both text the leader (server side).
 */

const S = tReservationStaff;
const rp = tReservationPages;
const TOURIST_INFO = '/reservation/order-team/tourist-info';

/** 团队预约, opened on 待审核, each row leading to its detail page. */
export function OrderTeamPage() {
  const navigate = useNavigate();
  return (
    <RecordListPage
      def={appointTeamOrder}
      intro={rp.teamIntro}
      initial={{ status: 0 }}
      rowActions={(row) => [
        {
          key: 'detail',
          label: S.detail,
          icon: IconEye,
          run: () => void navigate({ to: TOURIST_INFO, search: { id: row.id } }),
        },
      ]}
    />
  );
}

interface TeamVisitor {
  id: number;
  name: string;
  idType: number;
  idNumber: string;
  isMinor: boolean;
  checkStatus: number;
  checkTime: number | null;
}

const label = (opts: readonly { value: number; label: string }[], v: number) =>
  opts.find((o) => o.value === v)?.label ?? String(v);

/** 游客信息: one team with its people, timeline and the office's actions. */
export function TeamDetailPage() {
  const search = useRouterState({ select: (st) => st.location.search as Record<string, unknown> });
  const id = Number(search.id);
  const valid = Number.isInteger(id) && id > 0;
  const navigate = useNavigate();
  const writer = useGrant(appointTeamOrder.access.write);
  const view = useRecordDetail(appointTeamOrder, valid ? id : null);
  const dicts = useDictionaries(dictKeysOf(appointTeamOrder));
  const visitors = useQuery({
    queryKey: [...recordKeys.all(appointTeamOrder), 'visitors', id],
    queryFn: () =>
      museum.get<TeamVisitor[]>(`${appointTeamOrder.base}/visitorList`, { query: { id }, silent: true }),
    enabled: valid,
  });
  const [dialog, setDialog] = useState<'approve' | 'notice' | null>(null);

  const back = (
    <Button
      variant="subtle"
      leftSection={<IconArrowLeft size={16} />}
      onClick={() => void navigate({ to: '/reservation/order-team' })}
    >
      {S.back}
    </Button>
  );
  if (!valid)
    return (
      <Stack p="md">
        {back}
        <Alert color="yellow">{S.noId}</Alert>
      </Stack>
    );
  const detail = view.data;
  if (!detail)
    return (
      <Stack p="md">
        {back}
        <CachedViewState view={view} />
      </Stack>
    );
  const row = detail.record;
  const status = Number(row.status);
  const state = TEAM_STATES.find((s) => s.value === status);
  const ctx = { names: detail.names, dictLabel: dicts.labelOf };
  const people = visitors.data ?? [];

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }} data-testid="team-detail">
      <Group justify="space-between" wrap="wrap">
        <Group gap="xs">
          {back}
          <Title order={3}>{S.teamTitle}</Title>
        </Group>
        {writer && (
          <Group gap="xs">
            {status === 0 && (
              <Button leftSection={<IconChecks size={16} />} onClick={() => setDialog('approve')}>
                {S.approve}
              </Button>
            )}
            {status === 1 && (
              <Button
                variant="light"
                leftSection={<IconBell size={16} />}
                onClick={() => setDialog('notice')}
              >
                {S.notice}
              </Button>
            )}
          </Group>
        )}
      </Group>
      <Card withBorder radius="md">
        <Stack gap="sm">
          <Group gap="sm">
            <Title order={4}>{String(row.teamName ?? '')}</Title>
            <Badge color={state?.color} data-testid="team-status">
              {statusLabel(appointTeamOrder, status)}
            </Badge>
            <Text size="sm" c="dimmed">
              {String(row.orderNo ?? '')}
            </Text>
          </Group>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
            {Object.entries(appointTeamOrder.fields)
              .filter(([k, fd]) => fd.kind !== 'textarea' && k !== 'teamName' && k !== 'status')
              .map(([key, fd]) => (
                <div key={key}>
                  <Text size="xs" c="dimmed">
                    {fd.label}
                  </Text>
                  <FieldView fd={fd} value={row[key]} ctx={ctx} full />
                </div>
              ))}
          </SimpleGrid>
          {Object.entries(appointTeamOrder.fields)
            .filter(([k, fd]) => fd.kind === 'textarea' && row[k])
            .map(([key, fd]) => (
              <div key={key}>
                <Text size="xs" c="dimmed">
                  {fd.label}
                </Text>
                <FieldView fd={fd} value={row[key]} ctx={ctx} full />
              </div>
            ))}
        </Stack>
      </Card>
      <Card withBorder radius="md">
        <Stack gap="sm">
          <Title order={5}>{S.visitors(people.length)}</Title>
          {visitors.data && !people.length ? (
            <Text size="sm" c="dimmed">
              {S.noVisitors}
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={520}>
              <Table striped data-testid="team-visitors">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{S.name}</Table.Th>
                    <Table.Th>{S.idType}</Table.Th>
                    <Table.Th>{S.idNumber}</Table.Th>
                    <Table.Th>{S.minor}</Table.Th>
                    <Table.Th>{S.checkStatus}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {people.map((v) => (
                    <Table.Tr key={v.id}>
                      <Table.Td>{v.name}</Table.Td>
                      <Table.Td>{label(ID_TYPES, v.idType)}</Table.Td>
                      <Table.Td ff="monospace">{v.idNumber}</Table.Td>
                      <Table.Td>{v.isMinor ? S.yes : S.no}</Table.Td>
                      <Table.Td>
                        {label(CHECK_STATES, v.checkStatus)}
                        {v.checkTime ? ` ${formatMuseumMinute(v.checkTime)}` : ''}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      </Card>
      <Card withBorder radius="md">
        <Divider label={S.timeline} labelPosition="left" mb="sm" />
        <StatusTimeline def={appointTeamOrder} log={detail.log} />
      </Card>
      {dialog === 'approve' && <ApproveDialog row={row} onClose={() => setDialog(null)} />}
      {dialog === 'notice' && <NoticeDialog row={row} onClose={() => setDialog(null)} />}
    </Stack>
  );
}

/** 审核: the spec's approve call, result 1 通过 or 2 不通过 (a reason required). */
function ApproveDialog({ row, onClose }: { row: RecordRow; onClose: () => void }) {
  const [result, setResult] = useState<'1' | '2'>('1');
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const escape = useDialogEscape(onClose, !saving);
  const name = String(row.teamName ?? '');

  async function submit() {
    const text = comment.trim();
    if (result === '2' && !text) return setError(S.rejectNeedsReason);
    if (text.length > 200) return setError('审核意见不能超过 200 个字符');
    setSaving(true);
    try {
      await writeRecord(
        appointTeamOrder,
        'POST approve',
        { id: row.id, result: Number(result), ...(text ? { comment: text } : {}) },
        { action: 'transition', id: row.id, label: `${S.approve}${appointTeamOrder.title}：${name}` },
      );
      notifications.show({ color: 'green', message: `${S.approved}：${result === '1' ? S.pass : S.reject}` });
      onClose();
    } catch (err) {
      const f = fieldErrorsOf(err);
      if (f) setError(f.comment ?? Object.values(f)[0] ?? null);
      else errorToast(err instanceof Error ? err.message : String(err));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      opened
      onClose={onClose}
      title={S.approveTitle(name)}
      size={460}
      closeOnClickOutside={false}
      {...escape}
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {S.approveHint}
        </Text>
        <SegmentedControl
          value={result}
          onChange={(v) => {
            setResult(v as '1' | '2');
            setError(null);
          }}
          data={[
            { value: '1', label: S.pass },
            { value: '2', label: S.reject },
          ]}
          color={result === '2' ? 'red' : 'blue'}
          data-testid="approve-result"
        />
        <Textarea
          label={result === '2' ? S.rejectReason : S.comment}
          withAsterisk={result === '2'}
          value={comment}
          onChange={(e) => {
            setComment(e.currentTarget.value);
            setError(null);
          }}
          error={error}
          autosize
          minRows={3}
          maxLength={200}
        />
        <FormActions
          onCancel={onClose}
          saving={saving}
          onSubmit={() => void submit()}
          submitLabel={result === '2' ? S.reject : S.pass}
          submitColor={result === '2' ? 'red' : undefined}
        />
      </Stack>
    </Modal>
  );
}

/** 发送通知: repeatable; the last notice's time and words are shown above the new one. */
function NoticeDialog({ row, onClose }: { row: RecordRow; onClose: () => void }) {
  const [content, setContent] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const escape = useDialogEscape(onClose, !saving);
  const name = String(row.teamName ?? '');
  const last = typeof row.noticeTime === 'number' ? row.noticeTime : null;

  async function submit() {
    const text = content.trim();
    if (!text) return setError(S.noticeNeeded);
    if (text.length > 500) return setError('通知内容不能超过 500 个字符');
    setSaving(true);
    try {
      await writeRecord(
        appointTeamOrder,
        'POST notice',
        { id: row.id, noticeContent: text },
        { action: 'transition', id: row.id, label: `${S.notice}：${name}` },
      );
      notifications.show({ color: 'green', message: S.noticeSent });
      onClose();
    } catch (err) {
      const f = fieldErrorsOf(err);
      if (f) setError(f.noticeContent ?? Object.values(f)[0] ?? null);
      else errorToast(err instanceof Error ? err.message : String(err));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      opened
      onClose={onClose}
      title={S.noticeTitle(name)}
      size={480}
      closeOnClickOutside={false}
      {...escape}
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {S.noticeHint}
        </Text>
        <Alert color={last ? 'blue' : 'gray'} variant="light" data-testid="notice-last">
          {last ? S.noticeLast(formatMuseumMinute(last)) : S.noticeNever}
          {last && row.noticeContent ? (
            <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap' }}>
              {String(row.noticeContent)}
            </Text>
          ) : null}
        </Alert>
        <Textarea
          label={S.noticeContent}
          withAsterisk
          value={content}
          onChange={(e) => {
            setContent(e.currentTarget.value);
            setError(null);
          }}
          error={error}
          autosize
          minRows={4}
          maxLength={500}
        />
        <FormActions
          onCancel={onClose}
          saving={saving}
          onSubmit={() => void submit()}
          submitLabel={S.notice}
        />
      </Stack>
    </Modal>
  );
}
