import { ActionIcon, Alert, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash, IconUserPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { appointOrder, appointTicket, ID_TYPES } from '../../shared/records/reservation/orders';
import { museumDate } from '../../shared/rules/museum-time';
import { useDialogEscape } from '../components/dialog-escape';
import { FormActions } from '../components/form-actions';
import { RecordListPage, useGrant } from '../features/records';
import { errorToast, museum } from '../lib/api';
import { tReservationDesk } from '../lib/i18n/reservation-desk';
import { tReservationPages } from '../lib/i18n/reservation-pages';
import { fieldErrorsOf, recordKeys, useRecordPage } from '../lib/records';

/**
 * 个人预约 (/reservation/order-person) with 现场预约: booking at the desk for a walk-in (channel
 * 3 现场) through the same `AppointOrder/book` as every booking, so every guard holds (places,
 * one per ID per day, minors, black list). The desk picks one of today's open slots; the answer
 * is the order number and entry code, shown until the clerk closes it.
 */

const D = tReservationDesk;
const rp = tReservationPages;

export function OrderPersonPage() {
  const writer = useGrant(appointOrder.access.write);
  const [open, setOpen] = useState(false);
  return (
    <>
      <RecordListPage
        def={appointOrder}
        intro={rp.personIntro}
        extra={
          writer && (
            <Button
              leftSection={<IconUserPlus size={16} />}
              onClick={() => setOpen(true)}
              data-testid="desk-book"
            >
              {D.button}
            </Button>
          )
        }
      />
      {open && <DeskBookingDialog onClose={() => setOpen(false)} />}
    </>
  );
}

interface VisitorRow {
  name: string;
  idType: string;
  idNumber: string;
}
const blank = (): VisitorRow => ({ name: '', idType: '1', idNumber: '' });

function DeskBookingDialog({ onClose }: { onClose: () => void }) {
  const qc = useQueryClient();
  const [today] = useState(() => museumDate(Date.now()));
  const tickets = useRecordPage(appointTicket, {
    dateFrom: today,
    dateTo: today,
    isOpen: true,
    pageCount: 50,
  });
  const [ticketId, setTicketId] = useState<string | null>(null);
  const [contactName, setContactName] = useState('');
  const [contactPhone, setContactPhone] = useState('');
  const [visitors, setVisitors] = useState<VisitorRow[]>([blank()]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [done, setDone] = useState<{ orderNo: string; verifyCode: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const escape = useDialogEscape(onClose, !saving);

  const options = (tickets.data?.list ?? []).map((r) => ({
    value: String(r.id),
    label: D.slot(`${String(r.startTime)}–${String(r.endTime)}`, Number(r.surplusSum ?? 0)),
    disabled: Number(r.surplusSum ?? 0) <= 0,
  }));

  async function submit() {
    const e: Record<string, string> = {};
    if (!ticketId) e.ticketId = D.pickSlot;
    if (!contactName.trim()) e.contactName = D.needContact;
    if (!/^1[3-9]\d{9}$/.test(contactPhone.trim())) e.contactPhone = D.badPhone;
    visitors.forEach((v, i) => {
      if (!v.name.trim() || !v.idNumber.trim()) e.visitors = D.needVisitor(i + 1);
    });
    setErrors(e);
    setRefusal(null);
    if (Object.keys(e).length) return;
    setSaving(true);
    try {
      const r = await museum.post<{ orderNo: string; verifyCode: string }>(
        `${appointOrder.base}/book`,
        {
          ticketId: Number(ticketId),
          contactName: contactName.trim(),
          contactPhone: contactPhone.trim(),
          channel: 3,
          visitors: visitors.map((v) => ({
            name: v.name.trim(),
            idType: Number(v.idType),
            idNumber: v.idNumber.trim(),
          })),
        },
        { silent: true },
      );
      setDone(r);
      notifications.show({ color: 'green', message: D.booked(r.orderNo) });
      void qc.invalidateQueries({ queryKey: recordKeys.all(appointOrder) });
      void qc.invalidateQueries({ queryKey: recordKeys.all(appointTicket) });
    } catch (err) {
      const f = fieldErrorsOf(err);
      if (f && Object.keys(f).length) {
        // A visitor's field (visitors.0.idNumber) shows under the list.
        const mine: Record<string, string> = {};
        for (const [k, v] of Object.entries(f)) mine[k.startsWith('visitors') ? 'visitors' : k] ??= v;
        setErrors(mine);
      } else if (err instanceof Error) setRefusal(err.message);
      else errorToast(String(err));
    } finally {
      setSaving(false);
    }
  }

  const set = (i: number, patch: Partial<VisitorRow>) =>
    setVisitors((vs) => vs.map((v, j) => (j === i ? { ...v, ...patch } : v)));

  return (
    <Modal opened onClose={onClose} title={D.title(today)} size={620} closeOnClickOutside={false} {...escape}>
      {done ? (
        <Stack gap="sm">
          <Alert color="green" title={D.doneTitle} data-testid="desk-done">
            <Text size="sm">{D.orderNo(done.orderNo)}</Text>
            <Text size="sm" ff="monospace" style={{ userSelect: 'all' }}>
              {D.code(done.verifyCode)}
            </Text>
          </Alert>
          <Group justify="flex-end">
            <Button onClick={onClose}>{D.done}</Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {D.hint}
          </Text>
          <Select
            label={D.slotLabel}
            withAsterisk
            data={options}
            value={ticketId}
            onChange={setTicketId}
            error={errors.ticketId}
            placeholder={tickets.data && !options.length ? D.noSlot : D.pickSlot}
            nothingFoundMessage={D.noSlot}
          />
          <Group grow>
            <TextInput
              label={D.contact}
              withAsterisk
              value={contactName}
              onChange={(e) => setContactName(e.currentTarget.value)}
              error={errors.contactName}
              maxLength={30}
            />
            <TextInput
              label={D.phone}
              withAsterisk
              value={contactPhone}
              onChange={(e) => setContactPhone(e.currentTarget.value)}
              error={errors.contactPhone}
              maxLength={11}
              inputMode="numeric"
            />
          </Group>
          <Text size="sm" fw={500}>
            {D.visitors}
          </Text>
          {visitors.map((v, i) => (
            <Group key={i} gap="xs" wrap="nowrap" align="flex-end">
              <TextInput
                aria-label={D.visitorName(i + 1)}
                placeholder={D.name}
                value={v.name}
                onChange={(e) => set(i, { name: e.currentTarget.value })}
                maxLength={30}
                w={120}
              />
              <Select
                aria-label={D.visitorIdType(i + 1)}
                data={ID_TYPES.map((o) => ({ value: String(o.value), label: o.label }))}
                value={v.idType}
                onChange={(x) => set(i, { idType: x ?? '1' })}
                allowDeselect={false}
                w={170}
              />
              <TextInput
                aria-label={D.visitorId(i + 1)}
                placeholder={D.idNumber}
                value={v.idNumber}
                onChange={(e) => set(i, { idNumber: e.currentTarget.value })}
                maxLength={30}
                style={{ flex: 1 }}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={D.remove(i + 1)}
                disabled={visitors.length === 1}
                onClick={() => setVisitors((vs) => vs.filter((_, j) => j !== i))}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
          {errors.visitors && (
            <Text size="sm" c="red">
              {errors.visitors}
            </Text>
          )}
          <Group>
            <Button
              variant="light"
              size="xs"
              leftSection={<IconPlus size={14} />}
              onClick={() => setVisitors((vs) => [...vs, blank()])}
              disabled={visitors.length >= 20}
            >
              {D.add}
            </Button>
          </Group>
          {refusal && <Alert color="red">{refusal}</Alert>}
          <FormActions
            onCancel={onClose}
            saving={saving}
            onSubmit={() => void submit()}
            submitLabel={D.submit}
          />
        </Stack>
      )}
    </Modal>
  );
}
