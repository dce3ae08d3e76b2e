import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Menu,
  Modal,
  NumberInput,
  Progress,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconAdjustments,
  IconCalendarPlus,
  IconChevronLeft,
  IconChevronRight,
  IconDoorEnter,
  IconDoorExit,
  IconList,
  IconTicket,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { RecordRow } from '../../shared/records/api';
import { appointTicket, CHILDREN_HALL } from '../../shared/records/reservation/orders';
import { addDays, museumDate } from '../../shared/rules/museum-time';
import { CachedViewState } from '../components/cached-state';
import { useDialogEscape } from '../components/dialog-escape';
import { FormActions } from '../components/form-actions';
import { useGrant } from '../features/records';
import { ApiError, errorToast, museum } from '../lib/api';
import { tReservationCalendar } from '../lib/i18n/reservation-calendar';
import { fieldErrorsOf, recordKeys, useAllRows } from '../lib/records';

/**
 * 场次管理 (/reservation/list): the tickets as a calendar, days across and slots down, each cell
 * the slot's booked/total and whether it is open; a cell opens 关闭/开放场次 and 调整名额, a day's
 * header closes or opens the whole day (a temporary closure). Closing a slot that holds live
 * bookings is refused by the server; the dialog then offers 强制关闭 and says what it does
 * (orders voided, places given back, visitors texted). 生成场次 runs the hourly generation now.
 * 门票记录 and 预约名单 stay lists (reservation.tsx), linked from here.
 */

const C = tReservationCalendar;
const DAYS = 7;
const WEEKDAY = ['日', '一', '二', '三', '四', '五', '六'];

const weekdayOf = (date: string) => WEEKDAY[new Date(`${date}T00:00:00Z`).getUTCDay()]!;
/** A row of the calendar: a slot's hours, the children's hall's apart (its own templates). */
const slotOf = (r: RecordRow) =>
  `${Number(r.venue ?? 1) === CHILDREN_HALL ? C.hall : ''}${String(r.startTime)}–${String(r.endTime)}`;
/** Everyone holding a place: individuals and teams. */
const bookedOf = (r: RecordRow) => Number(r.bookedSum ?? 0) + Number(r.teamBooked ?? 0);

type Target = { kind: 'ticket'; row: RecordRow } | { kind: 'day'; date: string; open: boolean };

export function TicketCalendarPage() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const writer = useGrant(appointTicket.access.write);
  const [from, setFrom] = useState(() => museumDate(Date.now()));
  const to = addDays(from, DAYS - 1);
  const view = useAllRows(appointTicket, { dateFrom: from, dateTo: to });
  const [target, setTarget] = useState<Target | null>(null);
  const [capacity, setCapacity] = useState<RecordRow | null>(null);
  const [generating, setGenerating] = useState(false);

  const days = Array.from({ length: DAYS }, (_, i) => addDays(from, i));
  const rows = view.data?.list ?? [];
  const slots = [...new Set(rows.map(slotOf))].sort();
  const cell = new Map(rows.map((r) => [`${String(r.date)}|${slotOf(r)}`, r]));

  async function generate() {
    setGenerating(true);
    try {
      const r = await museum.post<{ made: number }>(`${appointTicket.base}/generate`, {});
      notifications.show({ color: 'green', message: C.generated(r.made) });
      void qc.invalidateQueries({ queryKey: recordKeys.all(appointTicket) });
    } catch {
      // The client toasted the refusal.
    } finally {
      setGenerating(false);
    }
  }

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }} data-testid="ticket-calendar">
      <Group justify="space-between" wrap="wrap">
        <Title order={3}>{C.title}</Title>
        <Group gap="xs">
          <Button
            variant="default"
            leftSection={<IconTicket size={16} />}
            onClick={() => void navigate({ to: '/reservation/list/ticket' })}
          >
            {C.ticketList}
          </Button>
          <Button
            variant="default"
            leftSection={<IconList size={16} />}
            onClick={() => void navigate({ to: '/reservation/list/reservelist' })}
          >
            {C.visitorList}
          </Button>
          {writer && (
            <Button
              leftSection={<IconCalendarPlus size={16} />}
              loading={generating}
              onClick={() => void generate()}
            >
              {C.generate}
            </Button>
          )}
        </Group>
      </Group>
      <Text size="sm" c="dimmed">
        {C.intro}
      </Text>
      <Card withBorder radius="md" padding="sm">
        <Stack gap="sm">
          <Group gap="xs">
            <ActionIcon variant="default" aria-label={C.prev} onClick={() => setFrom(addDays(from, -DAYS))}>
              <IconChevronLeft size={16} />
            </ActionIcon>
            <TextInput
              type="date"
              aria-label={C.from}
              value={from}
              onChange={(e) => e.currentTarget.value && setFrom(e.currentTarget.value)}
              w={170}
            />
            <ActionIcon variant="default" aria-label={C.next} onClick={() => setFrom(addDays(from, DAYS))}>
              <IconChevronRight size={16} />
            </ActionIcon>
            <Button variant="subtle" size="xs" onClick={() => setFrom(museumDate(Date.now()))}>
              {C.today}
            </Button>
          </Group>
          {!view.data ? (
            <CachedViewState view={view} />
          ) : !rows.length ? (
            <Text c="dimmed" py="lg" ta="center">
              {C.empty}
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={760}>
              <Table withColumnBorders data-testid="calendar-grid">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={110}>{C.slot}</Table.Th>
                    {days.map((d) => {
                      const dayRows = rows.filter((r) => r.date === d);
                      const anyOpen = dayRows.some((r) => r.isOpen);
                      return (
                        <Table.Th key={d} data-testid={`day-${d}`}>
                          <Group gap={4} justify="space-between" wrap="nowrap">
                            <div>
                              <Text size="sm" fw={600}>
                                {d.slice(5)}
                              </Text>
                              <Text size="xs" c="dimmed">
                                周{weekdayOf(d)}
                              </Text>
                            </div>
                            {writer && dayRows.length > 0 && (
                              <Tooltip label={anyOpen ? C.closeDay : C.openDay}>
                                <ActionIcon
                                  variant="subtle"
                                  color={anyOpen ? 'red' : 'green'}
                                  aria-label={`${anyOpen ? C.closeDay : C.openDay} ${d}`}
                                  onClick={() => setTarget({ kind: 'day', date: d, open: anyOpen })}
                                >
                                  {anyOpen ? <IconDoorExit size={16} /> : <IconDoorEnter size={16} />}
                                </ActionIcon>
                              </Tooltip>
                            )}
                          </Group>
                        </Table.Th>
                      );
                    })}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {slots.map((slot) => (
                    <Table.Tr key={slot}>
                      <Table.Td>
                        <Text size="sm" fw={500}>
                          {slot}
                        </Text>
                      </Table.Td>
                      {days.map((d) => {
                        const r = cell.get(`${d}|${slot}`);
                        return (
                          <Table.Td key={d} p={4}>
                            {r ? (
                              <TicketCell
                                row={r}
                                writer={writer}
                                onOpenClose={() => setTarget({ kind: 'ticket', row: r })}
                                onCapacity={() => setCapacity(r)}
                              />
                            ) : (
                              <Text size="xs" c="dimmed" ta="center">
                                —
                              </Text>
                            )}
                          </Table.Td>
                        );
                      })}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      </Card>
      {target && <OpenCloseDialog target={target} onClose={() => setTarget(null)} />}
      {capacity && <CapacityDialog row={capacity} onClose={() => setCapacity(null)} />}
    </Stack>
  );
}

function TicketCell({
  row,
  writer,
  onOpenClose,
  onCapacity,
}: {
  row: RecordRow;
  writer: boolean;
  onOpenClose: () => void;
  onCapacity: () => void;
}) {
  const total = Number(row.totalSum ?? 0);
  const booked = bookedOf(row);
  const pct = total ? Math.min(100, Math.round((booked / total) * 100)) : 0;
  const open = Boolean(row.isOpen);
  const body = (
    <Stack gap={2} p={4} data-testid="ticket-cell" data-date={String(row.date)} data-open={open}>
      <Group gap={4} justify="space-between" wrap="nowrap">
        <Text size="sm" fw={600}>
          {booked}/{total}
        </Text>
        <Badge size="xs" color={open ? 'green' : 'gray'} variant={open ? 'light' : 'filled'}>
          {open ? C.open : C.closed}
        </Badge>
      </Group>
      <Progress value={pct} size="sm" color={pct >= 90 ? 'red' : pct >= 70 ? 'orange' : 'blue'} />
      <Text size="xs" c="dimmed" lineClamp={1}>
        {open
          ? C.left(Number(row.surplusSum ?? 0), Number(row.teamSurplus ?? 0))
          : String(row.closeReason ?? '')}
      </Text>
    </Stack>
  );
  if (!writer) return body;
  return (
    <Menu position="bottom-start" withinPortal>
      <Menu.Target>
        <UnstyledButton w="100%" aria-label={C.cellLabel(String(row.date), slotOf(row))}>
          {body}
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item
          leftSection={open ? <IconDoorExit size={14} /> : <IconDoorEnter size={14} />}
          color={open ? 'red' : undefined}
          onClick={onOpenClose}
        >
          {open ? C.closeSlot : C.openSlot}
        </Menu.Item>
        <Menu.Item leftSection={<IconAdjustments size={14} />} onClick={onCapacity}>
          {C.capacity}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * 开放 / 关闭 one slot or a whole day. Closing needs a reason; a refusal because of live
 * bookings turns the dialog into its 强制关闭 form, which says what forcing does.
 */
function OpenCloseDialog({ target, onClose }: { target: Target; onClose: () => void }) {
  const qc = useQueryClient();
  const closing = target.kind === 'ticket' ? Boolean(target.row.isOpen) : target.open;
  const what =
    target.kind === 'ticket' ? `${String(target.row.date)} ${slotOf(target.row)}` : C.wholeDay(target.date);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const escape = useDialogEscape(onClose, !saving);

  async function submit(force: boolean) {
    const text = reason.trim();
    if (closing && !text) return setError(C.reasonNeeded);
    setSaving(true);
    try {
      const where = target.kind === 'ticket' ? { id: target.row.id } : { date: target.date };
      await museum.post(
        `${appointTicket.base}/openOrClose`,
        { ...where, open: !closing, ...(closing ? { reason: text } : {}), ...(force ? { force: true } : {}) },
        { silent: true },
      );
      notifications.show({ color: 'green', message: closing ? C.closedDone(what) : C.openedDone(what) });
      void qc.invalidateQueries({ queryKey: recordKeys.all(appointTicket) });
      onClose();
    } catch (err) {
      const f = fieldErrorsOf(err);
      if (f?.reason) setError(f.reason);
      else if (err instanceof ApiError && err.message.includes('强制关闭')) setRefusal(err.message);
      else errorToast(err instanceof Error ? err.message : String(err));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      opened
      onClose={onClose}
      title={closing ? C.closeTitle(what) : C.openTitle(what)}
      size={480}
      closeOnClickOutside={false}
      {...escape}
    >
      <Stack gap="sm">
        {closing ? (
          <>
            <Text size="sm" c="dimmed">
              {C.closeHint}
            </Text>
            <Textarea
              label={C.reason}
              withAsterisk
              value={reason}
              onChange={(e) => {
                setReason(e.currentTarget.value);
                setError(null);
              }}
              error={error}
              maxLength={100}
              autosize
              minRows={2}
              disabled={Boolean(refusal)}
            />
          </>
        ) : (
          <Text size="sm">{C.openHint}</Text>
        )}
        {refusal ? (
          <>
            <Alert color="red" title={C.forceTitle} data-testid="force-close">
              <Text size="sm">{refusal}</Text>
              <Text size="sm" mt={4}>
                {C.forceHint}
              </Text>
            </Alert>
            <FormActions
              onCancel={onClose}
              saving={saving}
              onSubmit={() => void submit(true)}
              submitLabel={C.force}
              submitColor="red"
            />
          </>
        ) : (
          <FormActions
            onCancel={onClose}
            saving={saving}
            onSubmit={() => void submit(false)}
            submitLabel={closing ? C.closeSlot : C.openSlot}
            submitColor={closing ? 'red' : undefined}
          />
        )}
      </Stack>
    </Modal>
  );
}

/** 调整名额 (updateSurplusSum): what individuals may still book; the total follows. */
function CapacityDialog({ row, onClose }: { row: RecordRow; onClose: () => void }) {
  const qc = useQueryClient();
  const [surplus, setSurplus] = useState<number | string>(Number(row.surplusSum ?? 0));
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const escape = useDialogEscape(onClose, !saving);
  const booked = Number(row.bookedSum ?? 0);
  const team = Number(row.teamTotal ?? 0);
  const n = typeof surplus === 'number' ? surplus : NaN;

  async function submit() {
    const e: Record<string, string> = {};
    if (!Number.isInteger(n) || n < 0) e.surplusSum = C.surplusBad;
    if (!reason.trim()) e.reason = C.adjustReasonNeeded;
    setErrors(e);
    if (Object.keys(e).length) return;
    setSaving(true);
    try {
      await museum.post(
        `${appointTicket.base}/updateSurplusSum`,
        { id: row.id, surplusSum: n, reason: reason.trim() },
        { silent: true },
      );
      notifications.show({ color: 'green', message: C.capacityDone });
      void qc.invalidateQueries({ queryKey: recordKeys.all(appointTicket) });
      onClose();
    } catch (err) {
      const f = fieldErrorsOf(err);
      if (f) setErrors(f);
      else errorToast(err instanceof Error ? err.message : String(err));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      opened
      onClose={onClose}
      title={C.capacityTitle(`${String(row.date)} ${slotOf(row)}`)}
      size={440}
      closeOnClickOutside={false}
      {...escape}
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {C.capacityNow(Number(row.totalSum ?? 0), booked, team)}
        </Text>
        <NumberInput
          label={C.surplus}
          withAsterisk
          min={0}
          max={99_999}
          allowDecimal={false}
          value={surplus}
          onChange={setSurplus}
          error={errors.surplusSum}
          description={Number.isInteger(n) && n >= 0 ? C.totalAfter(booked + team + n) : undefined}
        />
        <Textarea
          label={C.adjustReason}
          withAsterisk
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={errors.reason}
          maxLength={200}
          autosize
          minRows={2}
        />
        <FormActions
          onCancel={onClose}
          saving={saving}
          onSubmit={() => void submit()}
          submitLabel={C.capacity}
        />
      </Stack>
    </Modal>
  );
}
