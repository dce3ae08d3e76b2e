import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { tScanner } from '../lib/i18n/scanner';

/**
 * The QR scanner (the volunteer's check-in, the gate's 入馆核验): the rear camera, decoded by the
 * browser's BarcodeDetector where it has one (Chromium on Android) and otherwise frame by frame
 * with jsQR (iOS Safari, desktop Firefox). Below it a manual field (手动输入…) for when the camera
 * cannot be used (no permission, a dark hall, a damaged print): the text printed under the code.
 * The end-to-end tests type the payload there too — the same path a person takes. The caller
 * names what is scanned (`manualLabel`, `manualHint`, the camera's hints).
 */

interface Detector {
  detect(source: CanvasImageSource): Promise<{ rawValue: string }[]>;
}
type DetectorCtor = new (opts: { formats: string[] }) => Detector;

/** False on an insecure page or a browser without camera access (getUserMedia). */
function hasCamera(): boolean {
  return typeof navigator.mediaDevices?.getUserMedia === 'function';
}

interface Props {
  opened: boolean;
  title: string;
  /** Why the last code was refused on the phone, shown under the camera. */
  error: string | null;
  busy: boolean;
  onCode: (payload: string) => void;
  onClose: () => void;
  /** The manual field's label and hint (手动输入签到码, and where the text is printed). */
  manualLabel: string;
  manualHint: string;
  /** What to aim at, and what to do without a camera or when it fails. */
  scanHint: string;
  cameraNone: string;
  cameraFailed: string;
}

export function ScannerDialog(props: Props) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title} fullScreen>
      {/* Mounted only while open: each opening starts the camera and an empty field afresh. */}
      {props.opened && <ScannerBody {...props} />}
    </Modal>
  );
}

function ScannerBody({ error, busy, onCode, onClose, ...words }: Props) {
  const [manual, setManual] = useState('');
  const [camera, setCamera] = useState<'starting' | 'on' | 'failed' | 'none'>(() =>
    hasCamera() ? 'starting' : 'none',
  );
  const video = useRef<HTMLVideoElement | null>(null);
  const onCodeRef = useRef(onCode);
  useEffect(() => {
    onCodeRef.current = onCode;
  });

  useEffect(() => {
    if (!hasCamera()) return;
    let stream: MediaStream | null = null;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = '';
    void (async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: 'environment' },
          audio: false,
        });
      } catch {
        if (!stopped) setCamera('failed');
        return;
      }
      if (stopped || !video.current) {
        stream.getTracks().forEach((tr) => tr.stop());
        return;
      }
      video.current.srcObject = stream;
      await video.current.play().catch(() => undefined);
      setCamera('on');
      const Native = (globalThis as { BarcodeDetector?: DetectorCtor }).BarcodeDetector;
      const detector = Native ? new Native({ formats: ['qr_code'] }) : null;
      // jsQR only where needed, so browsers with a native detector never load it.
      const jsqr = detector ? null : (await import('jsqr')).default;
      const canvas = document.createElement('canvas');
      const tick = async () => {
        if (stopped || !video.current) return;
        const v = video.current;
        let text: string | null = null;
        try {
          if (detector) text = (await detector.detect(v))[0]?.rawValue ?? null;
          else if (jsqr && v.videoWidth) {
            // Decode a downscaled frame: a phone's 1080p frame takes jsQR too long per tick.
            const scale = Math.min(1, 640 / v.videoWidth);
            canvas.width = Math.round(v.videoWidth * scale);
            canvas.height = Math.round(v.videoHeight * scale);
            const ctx = canvas.getContext('2d', { willReadFrequently: true });
            if (ctx) {
              ctx.drawImage(v, 0, 0, canvas.width, canvas.height);
              const img = ctx.getImageData(0, 0, canvas.width, canvas.height);
              text = jsqr(img.data, img.width, img.height, { inversionAttempts: 'dontInvert' })?.data ?? null;
            }
          }
        } catch {
          text = null;
        }
        // The same code seen again frame after frame is handed over once.
        if (text && text !== last) {
          last = text;
          onCodeRef.current(text);
        }
        timer = setTimeout(() => void tick(), 250);
      };
      void tick();
    })();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      stream?.getTracks().forEach((tr) => tr.stop());
    };
  }, []);

  const c = tScanner;
  return (
    <Stack gap="sm">
      <video
        ref={video}
        muted
        playsInline
        style={{
          width: '100%',
          maxHeight: 320,
          background: '#111',
          borderRadius: 8,
          display: camera === 'on' || camera === 'starting' ? 'block' : 'none',
        }}
      />
      <Text size="sm" c="dimmed">
        {camera === 'starting'
          ? c.cameraStarting
          : camera === 'on'
            ? words.scanHint
            : camera === 'none'
              ? words.cameraNone
              : words.cameraFailed}
      </Text>
      {error && (
        <Alert color="red" data-testid="scan-error">
          {error}
        </Alert>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onCode(manual);
        }}
      >
        <Stack gap="xs">
          <TextInput
            label={words.manualLabel}
            description={words.manualHint}
            value={manual}
            onChange={(e) => setManual(e.currentTarget.value)}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
          />
          <Group grow>
            <Button variant="default" onClick={onClose}>
              {c.cancel}
            </Button>
            <Button type="submit" loading={busy} disabled={!manual.trim()}>
              {c.submit}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
