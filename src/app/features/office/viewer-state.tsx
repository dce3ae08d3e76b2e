import { Center, Loader, Stack, Text } from '@mantine/core';
import { IconFileAlert } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { tPreview } from '../../lib/i18n/preview';

/** What a viewer shows while it renders, and when the file cannot be shown. */
export function ViewerLoading() {
  return (
    <Center py="xl" data-testid="office-loading">
      <Stack align="center" gap="xs">
        <Loader size="sm" />
        <Text size="sm" c="dimmed">
          {tPreview.office.opening}
        </Text>
      </Stack>
    </Center>
  );
}

export function ViewerMessage({ message }: { message: string }) {
  return (
    <Center py="xl" px="md" data-testid="office-message">
      <Stack align="center" gap="xs" maw={440}>
        <IconFileAlert size={40} color="var(--mantine-color-gray-6)" />
        <Text ta="center">{message}</Text>
      </Stack>
    </Center>
  );
}

/** What a host renderer starts: its finish, and how to take it down (optional). */
export interface HostRender {
  done: Promise<unknown>;
  destroy?: () => void;
}

/**
 * A library that draws into a DOM node (docx-preview, pptx-preview): the loading and broken
 * states around it, and a fresh child node per file, so a render still finishing after the
 * file changed lands in a detached node instead of over the new one.
 */
export function HostRendered({
  bytes,
  className,
  testId,
  render,
}: {
  bytes: ArrayBuffer;
  className: string | undefined;
  testId: string;
  /** Starts drawing `bytes` into `host`; `box` is the visible container (for its width). */
  render: (host: HTMLDivElement, box: HTMLDivElement, bytes: ArrayBuffer) => HostRender;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [done, setDone] = useState<{ bytes: ArrayBuffer; error: string | null } | null>(null);
  const state = done?.bytes === bytes ? done : null;
  // The latest render function without re-running the effect when a parent re-creates it.
  const renderRef = useRef(render);
  useEffect(() => {
    renderRef.current = render;
  });

  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const host = document.createElement('div');
    box.appendChild(host);
    let cancelled = false;
    const run = renderRef.current(host, box, bytes);
    run.done
      .then(() => {
        if (!cancelled) setDone({ bytes, error: null });
      })
      .catch(() => {
        if (!cancelled) setDone({ bytes, error: tPreview.office.broken });
      });
    return () => {
      cancelled = true;
      try {
        run.destroy?.();
      } catch {
        /* never finished rendering: nothing to take down */
      }
      host.remove();
    };
  }, [bytes]);

  return (
    <>
      {!state && <ViewerLoading />}
      {state?.error && <ViewerMessage message={state.error} />}
      <div
        ref={ref}
        className={className}
        data-testid={testId}
        data-ready={state && !state.error ? '' : undefined}
        hidden={Boolean(state?.error)}
      />
    </>
  );
}
