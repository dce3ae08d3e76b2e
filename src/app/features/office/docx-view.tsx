import { renderAsync } from 'docx-preview';
import { useEffect, useRef, useState } from 'react';
import { t } from '../../lib/i18n';
import classes from './office.module.css';
import { ViewerLoading, ViewerMessage } from './viewer-state';

/**
 * A Word document, read-only, drawn as pages by docx-preview. Embedded HTML parts (altChunks)
 * are not rendered, and links are kept only when they go to http(s), mail or a place in the
 * document: the page's CSP already refuses `javascript:` URLs, this keeps them from showing.
 */
export default function DocxView({ bytes }: { bytes: ArrayBuffer }) {
  const ref = useRef<HTMLDivElement>(null);
  const [done, setDone] = useState<{ bytes: ArrayBuffer; error: string | null } | null>(null);
  const state = done?.bytes === bytes ? done : null;

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    // A child of our own per run: a render still finishing after cleanup lands in a detached node.
    const host = document.createElement('div');
    el.appendChild(host);
    let cancelled = false;
    renderAsync(bytes, host, undefined, {
      className: 'docx',
      inWrapper: true,
      breakPages: true,
      ignoreLastRenderedPageBreak: true,
      renderAltChunks: false,
      useBase64URL: false,
      experimental: false,
    })
      .then(() => {
        if (cancelled) return;
        tidyLinks(host);
        setDone({ bytes, error: null });
      })
      .catch(() => {
        if (!cancelled) setDone({ bytes, error: t.preview.office.broken });
      });
    return () => {
      cancelled = true;
      host.remove();
    };
  }, [bytes]);

  return (
    <>
      {!state && <ViewerLoading />}
      {state?.error && <ViewerMessage message={state.error} />}
      <div
        ref={ref}
        className={classes.docx}
        data-testid="docx-view"
        data-ready={state && !state.error ? '' : undefined}
        hidden={Boolean(state?.error)}
      />
    </>
  );
}

function tidyLinks(root: HTMLElement) {
  for (const a of root.querySelectorAll('a[href]')) {
    const href = a.getAttribute('href') ?? '';
    if (href.startsWith('#')) continue;
    if (!/^(https?:|mailto:)/i.test(href)) {
      a.removeAttribute('href');
      continue;
    }
    a.setAttribute('target', '_blank');
    a.setAttribute('rel', 'noopener noreferrer');
  }
}
