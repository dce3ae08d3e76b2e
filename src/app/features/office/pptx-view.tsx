import { init } from 'pptx-preview';
import { useEffect, useRef, useState } from 'react';
import { t } from '../../lib/i18n';
import classes from './office.module.css';
import { ViewerLoading, ViewerMessage } from './viewer-state';

/** Slides at most this wide (px); narrower screens get slides as wide as they are. */
const MAX_WIDTH = 960;

/** A presentation, read-only: every slide one below the other (pptx-preview's list mode). */
export default function PptxView({ bytes }: { bytes: ArrayBuffer }) {
  const ref = useRef<HTMLDivElement>(null);
  const [done, setDone] = useState<{ bytes: ArrayBuffer; error: string | null } | null>(null);
  const state = done?.bytes === bytes ? done : null;

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const host = document.createElement('div');
    el.appendChild(host);
    const width = Math.max(280, Math.min(MAX_WIDTH, el.clientWidth - 32));
    const previewer = init(host, { width, height: Math.round((width * 9) / 16), mode: 'list' });
    let cancelled = false;
    previewer
      .preview(bytes)
      .then(() => {
        if (!cancelled) setDone({ bytes, error: null });
      })
      .catch(() => {
        if (!cancelled) setDone({ bytes, error: t.preview.office.broken });
      });
    return () => {
      cancelled = true;
      try {
        previewer.destroy();
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
        className={classes.pptx}
        data-testid="pptx-view"
        data-ready={state && !state.error ? '' : undefined}
        hidden={Boolean(state?.error)}
      />
    </>
  );
}
