import { Alert, Button, Center, Group, Image, Modal, Stack, Text, Title } from '@mantine/core';
import { IconMaximize, IconPrinter, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import type { QrCode, RotatingCode } from '../../shared/api/volunteer-service';
import { volunteerExhibition } from '../../shared/records/volunteer/exhibition-service';
import { formatMuseumMinute, museumDate } from '../../shared/rules/museum-time';
import { museum } from '../lib/api';
import { useQrImage } from '../lib/qr-image';
import { tVolunteerService } from '../lib/i18n/volunteer-service';
import classes from './volunteer-qr.module.css';

/**
 * The hall's check-in code as a picture (README "Volunteer service and check-in"): the printed
 * sheet and the staff tablet's rotating display. The QR encodes exactly the signed payload
 * (`gwy1.…`), nothing around it, so a phone reads and verifies it as the server made it.
 * Drawn as SVG by npm `qrcode` (MIT): sharp at any print size, no canvas needed.
 */

const V = tVolunteerService;

/**
 * 打印: a sheet outside the app (a child of body) that only print shows: the hall, the
 * exhibition, the QR and the 作废旧码 note. The print CSS hides everything else.
 */
export function PrintButton({ code, name }: { code: QrCode; name: string }) {
  const src = useQrImage(code.payload);
  const [today] = useState(() => museumDate(Date.now()));
  return (
    <>
      <Button leftSection={<IconPrinter size={16} />} disabled={!src} onClick={() => window.print()}>
        {V.print}
      </Button>
      {src &&
        createPortal(
          <div className={classes.sheet} data-testid="qr-print-sheet">
            <h1 className={classes.hall}>{code.hall}</h1>
            <p className={classes.name}>{name}</p>
            <img className={classes.code} src={src} alt={V.qrImage(code.hall)} />
            <p className={classes.scan}>{V.printScan}</p>
            <p className={classes.note}>{V.printNote(code.qrVersion)}</p>
            <p className={classes.note}>{V.printedAt(today)}</p>
          </div>,
          document.body,
        )}
    </>
  );
}

/** Keeps the tablet's screen on while the code is shown, where the browser can (Wake Lock). */
function useWakeLock() {
  useEffect(() => {
    let lock: { release: () => Promise<void> } | undefined;
    const nav = navigator as Navigator & {
      wakeLock?: { request: (type: 'screen') => Promise<{ release: () => Promise<void> }> };
    };
    const take = () =>
      nav.wakeLock
        ?.request('screen')
        .then((l) => (lock = l))
        .catch(() => {});
    void take();
    const again = () => document.visibilityState === 'visible' && void take();
    document.addEventListener('visibilitychange', again);
    return () => {
      document.removeEventListener('visibilitychange', again);
      void lock?.release().catch(() => {});
    };
  }, []);
}

/**
 * 平板轮换码: the full-screen display on a staff tablet in the hall. A fresh code every
 * `refreshMs` (30 s), each valid two minutes (server: ROTATING_VALID_MS); a photo of the
 * screen passed on stops working. When the network drops the last code stays up with the
 * time it expires, and the staff are told to use the printed one.
 */
export function RotatingDisplay({ id, name, onClose }: { id: number; name: string; onClose: () => void }) {
  useWakeLock();
  const code = useQuery({
    queryKey: ['volunteer', 'rotatingCode', id],
    queryFn: () => museum.get<RotatingCode>(`${volunteerExhibition.base}/rotatingCode`, { query: { id } }),
    refetchInterval: (q) => q.state.data?.refreshMs ?? 30_000,
    refetchIntervalInBackground: true,
    retry: false,
    gcTime: 0,
  });
  const data = code.data;
  const src = useQrImage(data?.payload);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  // Seconds to the next code, on the server's clock (the tablet's may be off).
  const skew = data ? data.serverTime - code.dataUpdatedAt : 0;
  const next = data
    ? Math.min(
        data.refreshMs / 1000,
        Math.max(0, Math.ceil((code.dataUpdatedAt + data.refreshMs - now) / 1000)),
      )
    : 0;
  const expired = data ? now + skew > data.validTo : false;
  const failing = code.isError;
  return (
    <Modal
      opened
      onClose={onClose}
      fullScreen
      withCloseButton={false}
      transitionProps={{ duration: 0 }}
      title={V.displayTitle}
    >
      <Stack align="center" mih="80vh" justify="center" gap="sm" data-testid="rotating-display">
        <Group justify="flex-end" w="100%">
          <Group>
            <Button
              variant="default"
              leftSection={<IconMaximize size={16} />}
              onClick={() => void document.documentElement.requestFullscreen?.().catch(() => {})}
            >
              {V.displayFullscreen}
            </Button>
            <Button
              variant="default"
              leftSection={<IconX size={16} />}
              onClick={() => {
                if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
                onClose();
              }}
            >
              {V.displayClose}
            </Button>
          </Group>
        </Group>
        <Title order={1} ta="center" fz={40}>
          {data?.hall ?? ''}
        </Title>
        <Text size="xl" c="dimmed" ta="center">
          {name}
        </Text>
        <Center>
          {src && !expired ? (
            <Image
              src={src}
              alt={V.qrImage(data!.hall)}
              w="min(54vh, 70vw)"
              h="min(54vh, 70vw)"
              data-testid="rotating-qr"
              data-payload={data!.payload}
            />
          ) : (
            <Center w="min(54vh, 70vw)" h="min(54vh, 70vw)" bg="gray.1">
              <Text c="dimmed">{code.isPending ? '…' : ''}</Text>
            </Center>
          )}
        </Center>
        <Text size="xl" fw={600}>
          {V.displayScan}
        </Text>
        {data && !failing && (
          <Text c="dimmed" data-testid="rotating-countdown">
            {V.displayCountdown(next)} · {V.displayValidTo(formatMuseumMinute(data.validTo).slice(11))}
          </Text>
        )}
        {failing && (
          <Alert color="red" maw={640}>
            {data
              ? V.displayOffline(formatMuseumMinute(data.validTo).slice(11))
              : code.error instanceof Error
                ? code.error.message
                : ''}
          </Alert>
        )}
      </Stack>
    </Modal>
  );
}
