import { Alert, Badge, Button, Card, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft, IconQrcode } from '@tabler/icons-react';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { SESSION_STATES, sessionCheckIn } from '../../../shared/records/volunteer/exhibition-service';
import { formatMuseumMinute } from '../../../shared/rules/museum-time';
import { correctedNow } from '../../../shared/rules/clock-offset';
import { hoursText } from '../../../shared/rules/volunteer-hours';
import { OfflineNote } from '../../components/offline-note';
import { ScannerDialog } from '../../components/qr-scanner';
import { useCachedQuery } from '../../lib/cached-query';
import { tVolunteerCheckin } from '../../lib/i18n/volunteer-checkin';
import { outbox, submitWrite, useOutbox } from '../../lib/offline';
import { OutboxRefusal } from '../../lib/outbox';
import { lastClockOffset, mySessionKey, readMySession, type SessionView } from '../../lib/volunteer-sessions';
import { checkCode, importCodeKey } from './checkin-code';
import { KIND_IN, KIND_OUT, checkState, opsOfSession, type CheckMeta } from './checkin-state';

/**
 * The volunteer's session on the phone, `/m/session/$id` (README "Volunteer service and
 * check-in"; records-design §10). Offline-first: the session, the code's public key and the
 * clock offset are kept on the device when the page is opened online; a check-in or check-out
 * is verified here (Ed25519, WebCrypto), recorded at once with the phone's time and the last
 * measured offset, shown as 已签到 09:58（待同步）, and sent by the outbox (replayed at start, on
 * `online`, when the app becomes visible and from Background Sync). A refused one stays here
 * with the server's reason until the volunteer dismisses it.
 */

const DEVICE_KEY = 'gwy-device-id';

/** A random id for this phone (the server flags one phone checking in two volunteers). */
function deviceId(): string {
  try {
    let id = localStorage.getItem(DEVICE_KEY);
    if (!id) {
      id = crypto.randomUUID();
      localStorage.setItem(DEVICE_KEY, id);
    }
    return id;
  } catch {
    return '';
  }
}

const hm = (ms: number) => formatMuseumMinute(ms).slice(11);

export function CheckinPage() {
  const c = tVolunteerCheckin;
  const navigate = useNavigate();
  const { id = '' } = useParams({ strict: false });
  const detailId = /^\d{1,12}$/.test(id) ? Number(id) : NaN;
  const valid = Number.isSafeInteger(detailId) && detailId > 0;
  const key = mySessionKey(detailId);

  const view = useCachedQuery<SessionView>({
    queryKey: key,
    enabled: valid,
    toastErrors: false,
    fetch: ({ signal }) => readMySession(detailId, signal),
  });
  const data = view.data;
  const ops = opsOfSession(useOutbox(), detailId);
  const state = checkState(data?.checkIn, ops);

  const [key25519, setKey] = useState<CryptoKey | null>(null);
  const publicKey = data?.publicKey;
  useEffect(() => {
    if (!publicKey) return;
    let live = true;
    void importCodeKey(globalThis.crypto?.subtle, publicKey).then((k) => live && setKey(k));
    return () => {
      live = false;
    };
  }, [publicKey]);

  const [scanning, setScanning] = useState<'in' | 'out' | null>(null);
  // The dialog's title keeps its kind while it closes (scanning is already null then).
  const [lastKind, setLastKind] = useState<'in' | 'out'>('in');
  const [scanError, setScanError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onCode(payload: string) {
    if (!data || !scanning || busy) return;
    const kind = scanning;
    setBusy(true);
    try {
      const offsetMs = Math.round((await lastClockOffset()) ?? data.offsetMs);
      const deviceTime = Date.now();
      const at = correctedNow(deviceTime, offsetMs);
      const s = data.session;
      const verdict = await checkCode(payload, {
        exhibitionId: s.exhibitionId,
        exhibitionName: s.exhibitionName,
        qrVersion: s.qrVersion,
        at,
        key: key25519,
        subtle: globalThis.crypto?.subtle,
      });
      if (verdict.error) {
        setScanError(verdict.error);
        return;
      }
      const when = `${s.startTime}–${s.endTime}`;
      const meta: CheckMeta = { detailId, at };
      const result = await submitWrite({
        client: 'museum',
        path: `${sessionCheckIn.base}/${kind === 'in' ? 'check' : 'checkTime'}`,
        body: {
          detailId,
          qrPayload: payload.trim(),
          deviceTime,
          serverOffsetMs: offsetMs,
          // The server keeps the first answer for this id: a replay is never counted twice.
          clientId: crypto.randomUUID(),
          deviceId: deviceId(),
        },
        label: (kind === 'in' ? c.labelIn : c.labelOut)(s.exhibitionName, s.serviceDate, when),
        kind: kind === 'in' ? KIND_IN : KIND_OUT,
        scope: [[...key]],
        meta,
      });
      setScanning(null);
      setScanError(null);
      if (result.queued) notifications.show({ message: c.queued });
    } catch (err) {
      // Refused while the person waits (online): the server's words, in the dialog.
      setScanError(err instanceof OutboxRefusal || err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  const back = (
    <Button
      variant="subtle"
      px={0}
      leftSection={<IconArrowLeft size={16} />}
      onClick={() => void navigate({ href: '/m' })}
    >
      {c.back}
    </Button>
  );

  if (!valid || view.status === 'error' || view.status === 'not-cached' || !data) {
    const message = !valid
      ? c.badId
      : view.status === 'not-cached'
        ? c.notCached
        : view.status === 'error'
          ? view.error instanceof Error
            ? view.error.message
            : String(view.error)
          : null;
    return (
      <Container size={430} p="md">
        <Stack>
          {back}
          {message ? (
            <Alert color={view.status === 'not-cached' ? 'yellow' : 'red'} data-testid="checkin-error">
              {message}
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

  const s = data.session;
  const cancelled = s.status === 3;
  const status = SESSION_STATES.find((o) => o.value === s.status);
  const assigned = data.checkIn !== null;
  const canIn = assigned && !cancelled && !state.checkIn && !state.absent;
  const canOut = assigned && !cancelled && !!state.checkIn && !state.checkOut;

  return (
    <Container size={430} p="md" data-testid="checkin-page">
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap">
          {back}
          <OfflineNote view={view} />
        </Group>
        <div>
          <Title order={2} size="h3">
            {s.exhibitionName}
          </Title>
          <Text c="dimmed" size="sm">
            {c.title}
          </Text>
        </div>
        <Card withBorder radius="md" p="md">
          <Stack gap={6}>
            <Row label={c.hall} value={s.hall} />
            <Row label={c.date} value={s.serviceDate} />
            <Row label={c.time} value={`${s.startTime}–${s.endTime}`} />
            <Group justify="space-between">
              <Text c="dimmed" size="sm">
                {c.status}
              </Text>
              <Badge color={status?.color} variant="light">
                {status?.label}
              </Badge>
            </Group>
            <Text size="xs" c="dimmed">
              {c.window(s.earlyMinutes, s.lateMinutes)}
            </Text>
          </Stack>
        </Card>

        {cancelled && <Alert color="gray">{c.cancelled(s.cancelReason)}</Alert>}
        {!assigned && <Alert color="yellow">{c.notAssigned}</Alert>}
        {view.offline && <Alert color="yellow">{c.offline}</Alert>}

        {state.refused.length > 0 && (
          <Alert color="red" title={c.refusedTitle} data-testid="checkin-refused">
            <Stack gap="xs">
              {state.refused.map((o) => (
                <Stack key={o.id} gap={4}>
                  <Text size="sm">
                    {o.kind === KIND_IN ? c.refusedIn : c.refusedOut} {hm((o.meta as CheckMeta).at)}：
                    {o.error}
                  </Text>
                  <Group>
                    <Button size="xs" variant="light" color="red" onClick={() => void outbox.discard(o.id)}>
                      {c.dismiss}
                    </Button>
                  </Group>
                </Stack>
              ))}
            </Stack>
          </Alert>
        )}

        {assigned && (
          <Card withBorder radius="md" p="md" data-testid="checkin-state">
            <Stack gap={4}>
              <Text fw={600} size="lg">
                {state.checkIn
                  ? `${c.checkedIn(hm(state.checkIn.time))}${state.checkIn.pending ? c.pending : ''}`
                  : state.absent
                    ? c.absent
                    : c.waiting}
              </Text>
              {state.checkOut && (
                <Text fw={600} size="lg">
                  {`${c.checkedOut(hm(state.checkOut.time))}${state.checkOut.pending ? c.pending : ''}`}
                </Text>
              )}
              {state.checkOut && !state.checkOut.pending && data.checkIn?.checkOutTime != null && (
                <Text size="sm" c="dimmed">
                  {c.hours(hoursText(state.minutes))}
                  {' · '}
                  {state.confirmed ? c.confirmed : c.hoursPending}
                </Text>
              )}
            </Stack>
          </Card>
        )}

        {(canIn || canOut) && (
          <Button
            size="lg"
            fullWidth
            leftSection={<IconQrcode size={20} />}
            onClick={() => {
              setScanError(null);
              setLastKind(canIn ? 'in' : 'out');
              setScanning(canIn ? 'in' : 'out');
            }}
          >
            {canIn ? c.scanIn : c.scanOut}
          </Button>
        )}
        {!key25519 && publicKey && (
          <Text size="xs" c="dimmed">
            {c.unverified}
          </Text>
        )}
      </Stack>
      <ScannerDialog
        opened={scanning !== null}
        title={(scanning ?? lastKind) === 'out' ? c.scanTitleOut : c.scanTitleIn}
        error={scanError}
        busy={busy}
        onCode={(p) => void onCode(p)}
        onClose={() => setScanning(null)}
        manualLabel={c.manualLabel}
        manualHint={c.manualHint}
        scanHint={c.scanHint}
        cameraNone={c.cameraNone}
        cameraFailed={c.cameraFailed}
      />
    </Container>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <Group justify="space-between" wrap="nowrap">
      <Text c="dimmed" size="sm">
        {label}
      </Text>
      <Text size="sm" ta="right">
        {value}
      </Text>
    </Group>
  );
}
