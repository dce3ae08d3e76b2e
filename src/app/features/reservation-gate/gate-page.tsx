import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Container,
  Group,
  Loader,
  Modal,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconIdBadge2, IconQrcode, IconRefresh } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { GATE_LIST_PATH, idHashInput, type GateList } from '../../../shared/api/reservation-gate';
import { appointOrder, TEAM_STATES } from '../../../shared/records/reservation/orders';
import { correctedNow } from '../../../shared/rules/clock-offset';
import { formatMuseumMinute, museumDate } from '../../../shared/rules/museum-time';
import { OfflineNote, syncTime } from '../../components/offline-note';
import { ScannerDialog } from '../../components/qr-scanner';
import { museum } from '../../lib/api';
import { useCachedQuery } from '../../lib/cached-query';
import { lastClockOffset, timedRead } from '../../lib/device-clock';
import { tReservationGate } from '../../lib/i18n/reservation-gate';
import { outbox, submitWrite, useOutbox } from '../../lib/offline';
import { OutboxRefusal } from '../../lib/outbox';
import {
  KIND_GATE,
  codeOf,
  findByCodeHash,
  findByIdHash,
  gateCounts,
  gateKey,
  overlayGate,
  refusedGate,
  verdictOf,
  type GateMeta,
  type GateView,
  type Verdict,
} from './gate-state';

/**
 * 入馆核验 (/reservation/gate; README "Visitor reservations" › 入馆核验): the gate tablet.
 * Offline-first: today's orders and visitors are kept on the device (hashes of the entry codes
 * and IDs, never the codes or numbers: shared/api/reservation-gate.ts) with the clock offset
 * measured on each sync. A scanned code or a typed ID is checked here against that list, in the
 * server's words; the chosen visitors are admitted at once, one outbox write each
 * (finishAppoint by order id with the tablet's time), sent at once online or shown as 待同步 and
 * replayed on start, on `online`, when the app becomes visible and by Background Sync. A
 * check-in the server refuses on replay (cancelled meanwhile, admitted at another gate) stays
 * on the page with its reason until dismissed.
 */

type GateData = GateList & { offsetMs: number };

const hm = (ms: number) => formatMuseumMinute(ms).slice(11);

async function sha256Hex(text: string): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export function GatePage() {
  const g = tReservationGate;
  const view = useCachedQuery<GateData>({
    queryKey: gateKey,
    toastErrors: false,
    fetch: ({ signal }) => timedRead(() => museum.get<GateList>(GATE_LIST_PATH, { signal, silent: true })),
  });
  const ops = useOutbox();
  const data = view.data;
  const overlaid = useMemo<GateView | undefined>(
    () => (data ? overlayGate(data, ops) : undefined),
    [data, ops],
  );
  const refused = refusedGate(ops);

  const [scanning, setScanning] = useState(false);
  const [scanError, setScanError] = useState<string | null>(null);
  // The order found, drawn live from the list (so a check-in just made shows at once).
  const [found, setFound] = useState<{ orderId: number; at: number; only?: number; refusal?: string } | null>(
    null,
  );
  const foundOrder = found ? overlaid?.orders.find((o) => o.id === found.orderId) : undefined;
  const verdict = found && foundOrder && overlaid ? verdictOf(overlaid, foundOrder, found.at) : null;
  const [idText, setIdText] = useState('');
  const [idError, setIdError] = useState<string | null>(null);

  /** The server's idea of now on this tablet. */
  async function clock() {
    const offsetMs = Math.round((await lastClockOffset()) ?? data?.offsetMs ?? 0);
    const deviceTime = Date.now();
    return { deviceTime, offsetMs, at: correctedNow(deviceTime, offsetMs) };
  }

  function staleProblem(at: number): string | null {
    if (!overlaid) return g.notCached;
    return overlaid.date !== museumDate(at) ? g.staleList(overlaid.date) : null;
  }

  async function onCode(scanned: string) {
    if (!overlaid) return;
    const { at } = await clock();
    const stale = staleProblem(at);
    if (stale) return setScanError(stale);
    const hash = await sha256Hex(codeOf(scanned));
    if (!hash) return setScanError(g.noCrypto);
    const order = findByCodeHash(overlaid, hash);
    if (!order) {
      return setScanError(view.offline ? g.codeNotFoundOffline(syncTime(view.syncedAt)) : g.codeNotFound);
    }
    setScanError(null);
    setScanning(false);
    setFound({ orderId: order.id, at });
  }

  async function onId() {
    if (!overlaid || !idText.trim()) return;
    const { at } = await clock();
    const stale = staleProblem(at);
    if (stale) return setIdError(stale);
    const hash = await sha256Hex(idHashInput(overlaid.salt, idText));
    if (!hash) return setIdError(g.noCrypto);
    const hit = findByIdHash(overlaid, hash);
    if (!hit) return setIdError(g.idNotFound);
    setIdError(null);
    setIdText('');
    setFound({ orderId: hit.order.id, at, only: hit.visitor.id });
  }

  /** One write per visitor, so a refusal on replay names its person and the rest still land. */
  async function admit(visitorIds: number[]) {
    if (!verdict) return;
    const { order } = verdict;
    const c = await clock();
    let queued = 0;
    let sent = 0;
    const problems: string[] = [];
    for (const id of visitorIds) {
      const v = order.visitors.find((x) => x.id === id)!;
      const meta: GateMeta = {
        orderId: order.id,
        visitorId: id,
        orderNo: order.orderNo,
        name: v.name,
        at: c.at,
      };
      try {
        const r = await submitWrite({
          client: 'museum',
          path: `${appointOrder.base}/finishAppoint`,
          body: { orderId: order.id, visitorIds: [id], deviceTime: c.deviceTime, serverOffsetMs: c.offsetMs },
          label: g.label(v.name, order.orderNo),
          kind: KIND_GATE,
          scope: [[...gateKey]],
          meta,
        });
        if (r.queued) queued++;
        else sent++;
      } catch (err) {
        // Refused while the visitor stands there (online): the server's words, in the dialog.
        problems.push(
          `${v.name}：${err instanceof OutboxRefusal || err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
    if (problems.length) {
      setFound((f) => (f ? { ...f, refusal: problems.join('；') } : f));
      view.refetch();
    } else setFound(null);
    if (sent) notifications.show({ color: 'green', message: g.done(sent) });
    if (queued) notifications.show({ color: 'yellow', message: g.queued(queued) });
  }

  if (!overlaid) {
    return (
      <Container size={960} p="md">
        <Stack>
          <Title order={2}>{g.title}</Title>
          {view.status === 'not-cached' || view.status === 'error' ? (
            <Alert color={view.status === 'error' ? 'red' : 'yellow'} data-testid="gate-error">
              {view.status === 'error' && view.error instanceof Error ? view.error.message : g.notCached}
            </Alert>
          ) : (
            <Group justify="center" mt="xl">
              <Loader />
            </Group>
          )}
        </Stack>
      </Container>
    );
  }

  const counts = gateCounts(overlaid);
  return (
    <Container size={960} p="md" data-testid="gate-page">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={2}>{g.title}</Title>
            <Text c="dimmed" size="sm">
              {g.today(overlaid.date)} ·{' '}
              <span data-testid="gate-synced">{g.synced(syncTime(view.syncedAt))}</span>
            </Text>
          </div>
          <Group gap="xs">
            <OfflineNote view={view} />
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} />}
              loading={view.refreshing}
              onClick={() => view.refetch()}
            >
              {g.refresh}
            </Button>
          </Group>
        </Group>

        <SimpleGrid cols={{ base: 2, sm: 3 }}>
          <Card withBorder p="md" data-testid="gate-counts">
            <Text size="sm" c="dimmed">
              {g.entered} / {g.expected}
            </Text>
            <Text fw={700} size="xl">
              {counts.entered} / {counts.expected}
            </Text>
            {counts.pending > 0 && (
              <Badge color="yellow" variant="light">
                {g.pendingCount(counts.pending)}
              </Badge>
            )}
          </Card>
          <Card withBorder p="md">
            <Text size="sm" c="dimmed">
              {g.teams} {g.entered} / {g.expected}
            </Text>
            <Text fw={700} size="xl">
              {counts.teamEntered} / {counts.teamExpected}
            </Text>
          </Card>
        </SimpleGrid>

        {view.offline && <Alert color="yellow">{g.offline}</Alert>}

        {refused.length > 0 && (
          <Alert color="red" title={g.refusedTitle} data-testid="gate-refused">
            <Stack gap="xs">
              <Text size="sm">{g.refusedHint}</Text>
              {refused.map((o) => {
                const m = o.meta as GateMeta;
                return (
                  <Group key={o.id} justify="space-between" wrap="nowrap">
                    <Text size="sm">
                      {o.label} {hm(m.at)}：{o.error}
                    </Text>
                    <Button size="xs" variant="light" color="red" onClick={() => void outbox.discard(o.id)}>
                      {g.dismiss}
                    </Button>
                  </Group>
                );
              })}
            </Stack>
          </Alert>
        )}

        <Group grow align="flex-start">
          <Button
            size="xl"
            leftSection={<IconQrcode size={28} />}
            onClick={() => {
              setScanError(null);
              setScanning(true);
            }}
          >
            {g.scan}
          </Button>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void onId();
            }}
          >
            <Group gap="xs" align="flex-end" wrap="nowrap">
              <TextInput
                style={{ flex: 1 }}
                label={g.idLabel}
                placeholder={g.idPlaceholder}
                value={idText}
                onChange={(e) => setIdText(e.currentTarget.value)}
                error={idError}
                autoComplete="off"
                leftSection={<IconIdBadge2 size={16} />}
              />
              <Button type="submit" variant="default" disabled={!idText.trim()}>
                {g.idFind}
              </Button>
            </Group>
          </form>
        </Group>

        <Card withBorder p="md">
          <Text fw={600} mb="xs">
            {g.teamTitle}
          </Text>
          {overlaid.teams.length === 0 ? (
            <Text size="sm" c="dimmed">
              {g.noTeams}
            </Text>
          ) : (
            <Table>
              <Table.Tbody>
                {overlaid.teams.map((team) => {
                  const st = TEAM_STATES.find((x) => x.value === team.status);
                  return (
                    <Table.Tr key={team.id}>
                      <Table.Td>{team.startTime}</Table.Td>
                      <Table.Td>{team.teamName}</Table.Td>
                      <Table.Td>{team.leaderName}</Table.Td>
                      <Table.Td>{g.teamCount(team.actualCount, team.visitorCount)}</Table.Td>
                      <Table.Td>
                        <Badge color={st?.color} variant="light">
                          {st?.label}
                        </Badge>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          )}
        </Card>
      </Stack>

      <ScannerDialog
        opened={scanning}
        title={g.scanTitle}
        error={scanError}
        busy={false}
        onCode={(p) => void onCode(p)}
        onClose={() => setScanning(false)}
        manualLabel={g.manualLabel}
        manualHint={g.manualHint}
        scanHint={g.scanHint}
        cameraNone={g.cameraNone}
        cameraFailed={g.cameraFailed}
      />
      {found && verdict && (
        <OrderDialog
          // A fresh selection for each found order.
          key={`${found.orderId}-${found.at}-${found.only ?? ''}`}
          verdict={verdict}
          only={found.only}
          refusal={found.refusal}
          onAdmit={admit}
          onClose={() => setFound(null)}
        />
      )}
    </Container>
  );
}

function OrderDialog({
  verdict,
  only,
  refusal,
  onAdmit,
  onClose,
}: {
  verdict: Verdict;
  only?: number;
  /** What the server refused of the last confirmation (the rest went in). */
  refusal?: string;
  onAdmit: (ids: number[]) => Promise<void>;
  onClose: () => void;
}) {
  const g = tReservationGate;
  const { order, open, problem } = verdict;
  const [chosen, setChosen] = useState<number[]>(() =>
    open.filter((v) => only === undefined || v.id === only).map((v) => v.id),
  );
  const [busy, setBusy] = useState(false);
  // Only those still open: one admitted a moment ago drops out of the choice.
  const picked = chosen.filter((id) => open.some((v) => v.id === id));
  return (
    <Modal opened onClose={onClose} title={g.title} size="lg">
      <Stack gap="sm" data-testid="gate-order">
        <Group gap="lg">
          <Text size="sm">
            {g.order} {order.orderNo}
          </Text>
          <Text size="sm">
            {g.slot} {order.startTime}–{order.endTime}
          </Text>
          <Text size="sm">
            {g.contact} {order.contactName}
          </Text>
        </Group>
        {(problem ?? refusal) && (
          <Alert color="red" data-testid="gate-problem">
            {problem ?? refusal}
          </Alert>
        )}
        <Text size="sm" fw={600}>
          {g.choose}
        </Text>
        <Stack gap={6}>
          {order.visitors.map((v) => {
            const done = v.checkStatus === 1;
            return (
              <Group key={v.id} justify="space-between" wrap="nowrap">
                <Checkbox
                  label={`${v.name}  ${v.idMasked}${v.isMinor ? `  ${g.minor}` : ''}`}
                  checked={picked.includes(v.id)}
                  disabled={v.checkStatus !== 0 || problem !== null}
                  onChange={(e) => {
                    const on = e.currentTarget.checked;
                    setChosen((c) => (on ? [...c, v.id] : c.filter((x) => x !== v.id)));
                  }}
                />
                {done && v.checkTime != null && (
                  <Badge color={v.pending ? 'yellow' : 'green'} variant="light">
                    {g.admitted(hm(v.checkTime))}
                    {v.pending ? g.pending : ''}
                  </Badge>
                )}
              </Group>
            );
          })}
        </Stack>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {g.close}
          </Button>
          <Button
            disabled={problem !== null || !picked.length}
            loading={busy}
            onClick={() => {
              setBusy(true);
              void onAdmit(picked).finally(() => setBusy(false));
            }}
          >
            {g.confirm(picked.length)}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
