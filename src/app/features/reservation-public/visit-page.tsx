import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Checkbox,
  Group,
  Image,
  Loader,
  Modal,
  Paper,
  ScrollArea,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconAlertCircle, IconArrowLeft, IconCircleCheck, IconTrash, IconWifiOff } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import {
  PUBLIC_BASE,
  VISITOR_SESSION_CODE,
  type PublicOrder,
  type PublicOrderDetail,
  type PublicSlot,
  type PublicTickets,
  type SendCodeAnswer,
  type VisitorSessionAnswer,
} from '../../../shared/api/reservation-public';
import { ID_TYPES } from '../../../shared/records/reservation/orders';
import { ApiError, museum } from '../../lib/api';
import { tCore } from '../../lib/i18n-core';
import { tVisit } from '../../lib/i18n/visit';
import { useQrImage } from '../../lib/qr-image';
import { useOnline } from '../../lib/online';

const T = tVisit;
const api = (path: string) => `${PUBLIC_BASE}${path}`;
const messageOf = (e: unknown) => (e instanceof ApiError ? e.message : tCore.errors.server);

/** The session of this browser's visitor (the HttpOnly cookie), or null when none. */
function useVisitor() {
  return useQuery({
    queryKey: ['visit', 'me'],
    queryFn: async ({ signal }) => {
      try {
        return await museum.get<VisitorSessionAnswer>(api('/me'), { signal, silent: true });
      } catch (e) {
        if (e instanceof ApiError && e.code === VISITOR_SESSION_CODE) return null;
        throw e;
      }
    },
    staleTime: 60_000,
  });
}

/** Phone and one-time code; on success the visitor session is this browser's cookie. */
function PhoneVerify({ onVerified }: { onVerified: () => void }) {
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [wait, setWait] = useState(0);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (wait <= 0) return;
    const id = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(id);
  }, [wait]);

  const send = async () => {
    setError(null);
    setBusy(true);
    try {
      const r = await museum.post<SendCodeAnswer>(api('/sendCode'), { phone }, { silent: true });
      setWait(r.resendSeconds);
      setSent(true);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  const verify = async () => {
    setError(null);
    setBusy(true);
    try {
      await museum.post(api('/login'), { phone, smsCode: code }, { silent: true });
      onVerified();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="xs" data-testid="visit-verify">
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          label={T.phone}
          placeholder={T.phonePlaceholder}
          inputMode="numeric"
          autoComplete="tel"
          maxLength={11}
          size="md"
          style={{ flex: 1 }}
          value={phone}
          onChange={(e) => setPhone(e.currentTarget.value.trim())}
        />
        <Button size="md" variant="light" onClick={send} disabled={busy || wait > 0 || phone.length !== 11}>
          {wait > 0 ? T.resendIn(wait) : T.sendCode}
        </Button>
      </Group>
      {sent && (
        <Text size="sm" c="dimmed">
          {T.codeSent}
        </Text>
      )}
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          label={T.code}
          placeholder={T.codePlaceholder}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          size="md"
          style={{ flex: 1 }}
          value={code}
          onChange={(e) => setCode(e.currentTarget.value.trim())}
        />
        <Button size="md" onClick={verify} disabled={busy || code.length !== 6 || phone.length !== 11}>
          {T.verify}
        </Button>
      </Group>
      {error && (
        <Alert color="red" icon={<IconAlertCircle size={18} />} data-testid="visit-verify-error">
          {error}
        </Alert>
      )}
    </Stack>
  );
}

interface VisitorRow {
  name: string;
  idType: string;
  idNumber: string;
}
const emptyVisitor = (): VisitorRow => ({ name: '', idType: '1', idNumber: '' });
const newKey = () => `visit-${crypto.randomUUID()}`;

function slotText(s: PublicSlot): string {
  return s.state === 'open' ? T.left(s.surplusSum) : s.note;
}

function BookView({ onBooked }: { onBooked: (id: number) => void }) {
  const online = useOnline();
  const qc = useQueryClient();
  const me = useVisitor();
  const tickets = useQuery({
    queryKey: ['visit', 'tickets'],
    queryFn: ({ signal }) => museum.get<PublicTickets>(api('/tickets'), { signal, silent: true }),
    refetchInterval: 60_000,
  });
  const [date, setDate] = useState<string | null>(null);
  const [slotId, setSlotId] = useState<number | null>(null);
  const [contactName, setContactName] = useState('');
  const [visitors, setVisitors] = useState<VisitorRow[]>([emptyVisitor()]);
  const [agree, setAgree] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // One key per booking being filled in: a second tap or a retry gets the first answer.
  const [key, setKey] = useState(newKey);

  if (tickets.isPending) return <Loader m="xl" />;
  if (tickets.isError)
    return (
      <Alert color="red" title={T.loadFailed}>
        <Button size="xs" mt="xs" onClick={() => void tickets.refetch()}>
          {T.retry}
        </Button>
      </Alert>
    );
  const data = tickets.data;
  const s = data.settings;
  const day = data.days.find((d) => d.date === date) ?? null;
  const slot = day?.slots.find((x) => x.id === slotId) ?? null;
  const set = (i: number, patch: Partial<VisitorRow>) =>
    setVisitors((vs) => vs.map((v, j) => (j === i ? { ...v, ...patch } : v)));

  const submit = async () => {
    setError(null);
    if (!slot) return setError(T.chooseSlotFirst);
    if (!agree) return setError(T.mustAgree);
    setBusy(true);
    try {
      const made = await museum.post<{ id: number }>(
        api('/book'),
        {
          ticketId: slot.id,
          contactName,
          channel: 2,
          visitors: visitors.map((v) => ({ name: v.name, idType: Number(v.idType), idNumber: v.idNumber })),
        },
        { silent: true, idempotencyKey: key },
      );
      setKey(newKey());
      setVisitors([emptyVisitor()]);
      setAgree(false);
      setSlotId(null);
      void qc.invalidateQueries({ queryKey: ['visit'] });
      onBooked(made.id);
    } catch (e) {
      if (e instanceof ApiError && e.code === VISITOR_SESSION_CODE) void me.refetch();
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="lg">
      {!online && (
        <Alert color="yellow" icon={<IconWifiOff size={18} />}>
          {T.offline}
        </Alert>
      )}
      <Stack gap="xs">
        <Title order={5}>1. {T.stepDate}</Title>
        {data.days.length === 0 && <Text c="dimmed">{T.noDays}</Text>}
        <ScrollArea type="never">
          <Group gap="xs" wrap="nowrap" pb={4}>
            {data.days.map((d) => {
              const open = d.slots.some((x) => x.state === 'open');
              const chosen = d.date === date;
              return (
                <UnstyledButton
                  key={d.date}
                  data-testid="visit-date"
                  data-date={d.date}
                  aria-pressed={chosen}
                  onClick={() => {
                    setDate(d.date);
                    setSlotId(null);
                  }}
                >
                  <Paper
                    withBorder
                    radius="md"
                    px="sm"
                    py={6}
                    miw={64}
                    ta="center"
                    bg={chosen ? 'var(--mantine-primary-color-filled)' : undefined}
                    c={chosen ? 'white' : open ? undefined : 'dimmed'}
                  >
                    <Text size="xs">{d.date === data.today ? T.today : T.weekdays[d.weekday]}</Text>
                    <Text fw={600}>{d.date.slice(5)}</Text>
                  </Paper>
                </UnstyledButton>
              );
            })}
          </Group>
        </ScrollArea>
        {data.nextRelease && (
          <Text size="sm" c="dimmed">
            {T.nextRelease(data.nextRelease.date, data.nextRelease.at)}
          </Text>
        )}
      </Stack>

      {day && (
        <Stack gap="xs">
          <Title order={5}>2. {T.stepSlot}</Title>
          <SimpleGrid cols={2} spacing="xs">
            {day.slots.map((x) => (
              <Button
                key={x.id}
                data-testid="visit-slot"
                data-slot={x.id}
                variant={x.id === slotId ? 'filled' : 'default'}
                disabled={x.state !== 'open'}
                onClick={() => setSlotId(x.id)}
                h="auto"
                py={8}
              >
                <Stack gap={0} align="center">
                  <Text size="sm" fw={600}>
                    {x.startTime}–{x.endTime}
                  </Text>
                  <Text size="xs" data-testid="visit-slot-left">
                    {slotText(x)}
                  </Text>
                </Stack>
              </Button>
            ))}
          </SimpleGrid>
        </Stack>
      )}

      {slot && (
        <Stack gap="xs">
          <Title order={5}>3. {T.stepPhone}</Title>
          {me.data ? (
            <Group justify="space-between">
              <Text size="sm" data-testid="visit-verified">
                {T.verified(me.data.phone)}
              </Text>
              <Button
                size="xs"
                variant="subtle"
                onClick={async () => {
                  await museum.post(api('/logout'), {}, { silent: true }).catch(() => undefined);
                  void me.refetch();
                }}
              >
                {T.signOut}
              </Button>
            </Group>
          ) : (
            <PhoneVerify onVerified={() => void me.refetch()} />
          )}
        </Stack>
      )}

      {slot && me.data && (
        <>
          <Stack gap="xs">
            <Title order={5}>4. {T.stepVisitors}</Title>
            <Text size="sm" c="dimmed">
              {T.limits(s.maxPersonsPerOrder, s.maxMinorsPerOrder, s.minorAge)}
              {s.onePerIdPerDay ? T.onePerDay : ''}
            </Text>
            <TextInput
              label={T.contactName}
              size="md"
              maxLength={30}
              autoComplete="name"
              value={contactName}
              onChange={(e) => setContactName(e.currentTarget.value)}
            />
            {visitors.map((v, i) => (
              <Card key={i} withBorder radius="md" p="sm" data-testid="visit-visitor">
                <Group justify="space-between" mb={4}>
                  <Text size="sm" fw={600}>
                    {T.visitor(i + 1)}
                  </Text>
                  {visitors.length > 1 && (
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={T.removeVisitor}
                      onClick={() => setVisitors((vs) => vs.filter((_, j) => j !== i))}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  )}
                </Group>
                <Stack gap={6}>
                  <TextInput
                    label={T.name}
                    size="md"
                    maxLength={30}
                    value={v.name}
                    onChange={(e) => set(i, { name: e.currentTarget.value })}
                  />
                  <Select
                    label={T.idType}
                    size="md"
                    allowDeselect={false}
                    data={ID_TYPES.map((o) => ({ value: String(o.value), label: o.label }))}
                    value={v.idType}
                    onChange={(x) => set(i, { idType: x ?? '1' })}
                  />
                  <TextInput
                    label={T.idNumber}
                    size="md"
                    maxLength={30}
                    autoComplete="off"
                    value={v.idNumber}
                    onChange={(e) => set(i, { idNumber: e.currentTarget.value.trim() })}
                  />
                </Stack>
              </Card>
            ))}
            {visitors.length < s.maxPersonsPerOrder && (
              <Button variant="light" onClick={() => setVisitors((vs) => [...vs, emptyVisitor()])}>
                {T.addVisitor}
              </Button>
            )}
          </Stack>
          <Stack gap="xs">
            <Title order={5}>5. {T.stepNotice}</Title>
            <Paper withBorder p="sm" radius="md" mah={200} style={{ overflow: 'auto' }}>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="visit-notice">
                {s.notice}
              </Text>
              <Text size="sm" mt="xs" c="dimmed">
                {T.cancelRule(s.cancelDeadline)}
              </Text>
            </Paper>
            <Checkbox
              label={T.agree}
              checked={agree}
              onChange={(e) => {
                setAgree(e.currentTarget.checked);
                setError(null);
              }}
            />
          </Stack>
          {error && (
            <Alert color="red" icon={<IconAlertCircle size={18} />} data-testid="visit-error">
              {error}
            </Alert>
          )}
          <Button size="lg" onClick={submit} loading={busy} disabled={!online}>
            {T.submit}
          </Button>
        </>
      )}
    </Stack>
  );
}

function OrderView({ id, fresh, onBack }: { id: number; fresh: boolean; onBack: () => void }) {
  const qc = useQueryClient();
  const order = useQuery({
    queryKey: ['visit', 'order', id],
    queryFn: ({ signal }) =>
      museum.get<PublicOrderDetail>(api('/orderDetail'), { query: { id }, signal, silent: true }),
  });
  const tickets = useQuery({
    queryKey: ['visit', 'tickets'],
    queryFn: ({ signal }) => museum.get<PublicTickets>(api('/tickets'), { signal, silent: true }),
  });
  const qr = useQrImage(order.data?.verifyCode);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (order.isPending) return <Loader m="xl" />;
  if (order.isError) return <Alert color="red">{messageOf(order.error)}</Alert>;
  const o = order.data;
  const slot = `${o.date} ${o.startTime}–${o.endTime}`;
  const cancel = async () => {
    setBusy(true);
    setError(null);
    try {
      await museum.post(api('/cancel'), { id: o.id }, { silent: true });
      setAsking(false);
      void qc.invalidateQueries({ queryKey: ['visit'] });
    } catch (e) {
      setError(messageOf(e));
      setAsking(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="md" data-testid="visit-order">
      <Group>
        <Button variant="subtle" leftSection={<IconArrowLeft size={16} />} onClick={onBack} px={4}>
          {T.back}
        </Button>
      </Group>
      {fresh && o.status === 1 && (
        <Group gap="xs" c="green">
          <IconCircleCheck size={22} />
          <Title order={4}>{T.booked}</Title>
        </Group>
      )}
      {o.verifyCode && (
        <Stack align="center" gap={4}>
          <Text size="sm">{T.showQr}</Text>
          {qr ? (
            <Image
              src={qr}
              w={240}
              h={240}
              alt={T.qrAlt(o.orderNo)}
              data-testid="visit-qr"
              data-payload={o.verifyCode}
            />
          ) : (
            <Loader />
          )}
          <Text size="xs" c="dimmed">
            {T.entryCode}：<span data-testid="visit-code">{o.verifyCode}</span>
          </Text>
        </Stack>
      )}
      <Card withBorder radius="md">
        <Stack gap={6}>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {T.status}
            </Text>
            <Badge data-testid="visit-status">{o.statusLabel}</Badge>
          </Group>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {T.orderNo}
            </Text>
            <Text size="sm">{o.orderNo}</Text>
          </Group>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {T.slot}
            </Text>
            <Text size="sm">{slot}</Text>
          </Group>
          <Text size="sm" c="dimmed">
            {T.visitors}
          </Text>
          {o.visitors.map((v, i) => (
            <Text size="sm" key={i}>
              {v.name} {v.idNumber}
            </Text>
          ))}
        </Stack>
      </Card>
      {o.status === 1 && (
        <Text size="sm" c="dimmed">
          {o.cancelNote}
        </Text>
      )}
      {error && (
        <Alert color="red" icon={<IconAlertCircle size={18} />} data-testid="visit-cancel-error">
          {error}
        </Alert>
      )}
      {o.canCancel && (
        <Button color="red" variant="light" onClick={() => setAsking(true)}>
          {T.cancel}
        </Button>
      )}
      <Modal
        opened={asking}
        onClose={() => setAsking(false)}
        title={T.cancelTitle}
        centered
        closeOnClickOutside={false}
      >
        <Stack>
          <Text size="sm">{T.cancelText(slot)}</Text>
          {tickets.data?.settings.cancelCountsAsNoShow && (
            <Text size="sm" c="red">
              {T.cancelNoShow}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setAsking(false)}>
              {T.keep}
            </Button>
            <Button color="red" loading={busy} onClick={cancel}>
              {T.cancelConfirm}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function MineView({ onOpen }: { onOpen: (id: number) => void }) {
  const me = useVisitor();
  const orders = useQuery({
    queryKey: ['visit', 'orders'],
    queryFn: ({ signal }) => museum.get<PublicOrder[]>(api('/orderList'), { signal, silent: true }),
    enabled: Boolean(me.data),
  });
  if (me.isPending) return <Loader m="xl" />;
  if (!me.data) return <PhoneVerify onVerified={() => void me.refetch()} />;
  if (orders.isPending) return <Loader m="xl" />;
  if (orders.isError) return <Alert color="red">{messageOf(orders.error)}</Alert>;
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {T.verified(me.data.phone)}
      </Text>
      {orders.data.length === 0 && <Text c="dimmed">{T.noOrders}</Text>}
      {orders.data.map((o) => (
        <UnstyledButton key={o.id} onClick={() => onOpen(o.id)} data-testid="visit-mine-row">
          <Card withBorder radius="md" p="sm">
            <Group justify="space-between" wrap="nowrap">
              <Stack gap={2}>
                <Text fw={600}>
                  {o.date} {o.startTime}–{o.endTime}
                </Text>
                <Text size="xs" c="dimmed">
                  {T.orderNo} {o.orderNo} · {o.visitorCount} 人
                </Text>
              </Stack>
              <Badge variant="light" color={o.status === 1 ? 'blue' : 'gray'}>
                {o.statusLabel}
              </Badge>
            </Group>
          </Card>
        </UnstyledButton>
      ))}
    </Stack>
  );
}

/**
 * /visit (outside the staff layout, no staff session; README "The visitor's side"): a phone-first
 * page where a visitor chooses a released date and slot, proves their phone with a one-time
 * code, adds visitors, agrees to the notice and books; the booking shows its entry QR (the
 * order's verifyCode, drawn here), and 我的预约 lists the phone's bookings with cancel before the
 * deadline. The visitor session is an HttpOnly cookie on the public calls' path only.
 */
export function VisitPage() {
  const [tab, setTab] = useState<'book' | 'mine'>('book');
  const [open, setOpen] = useState<{ id: number; fresh: boolean } | null>(null);
  return (
    <Box mih="100dvh" bg="#f7f3ee" data-testid="visit-page">
      <Box bg="#7a2e1d" c="white" px="md" py="md">
        <Title order={3}>{T.title}</Title>
        <Text size="sm" opacity={0.85}>
          {T.intro}
        </Text>
      </Box>
      <Box maw={560} mx="auto" p="md">
        {open ? (
          <OrderView
            id={open.id}
            fresh={open.fresh}
            onBack={() => {
              setOpen(null);
              setTab('mine');
            }}
          />
        ) : (
          <Stack gap="md">
            <SegmentedControl
              fullWidth
              value={tab}
              onChange={(v) => setTab(v as 'book' | 'mine')}
              data={[
                { value: 'book', label: T.tabBook },
                { value: 'mine', label: T.tabMine },
              ]}
            />
            {tab === 'book' ? (
              <BookView onBooked={(id) => setOpen({ id, fresh: true })} />
            ) : (
              <MineView onOpen={(id) => setOpen({ id, fresh: false })} />
            )}
          </Stack>
        )}
      </Box>
    </Box>
  );
}
