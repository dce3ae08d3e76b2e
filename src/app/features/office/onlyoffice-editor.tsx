import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { AreaQuery } from '../../../shared/api/drive';
import type { OfficeEditor } from '../../../shared/api/office';
import { drive } from '../../lib/api';
import classes from './office.module.css';
import { ViewerLoading, ViewerMessage } from './viewer-state';

/*
 * The ONLYOFFICE editor. The server builds and signs the whole DocEditor config (the Document
 * Server believes the signed token, not the page), including the phone layout and the Chinese
 * interface; the page only loads the Document Server's api.js (allowed by the CSP when it is
 * configured) and adds the size. When api.js cannot be loaded, the page falls back to the
 * read-only viewer.
 */

interface DocEditorInstance {
  destroyEditor(): void;
}
declare global {
  interface Window {
    DocsAPI?: { DocEditor: new (placeholderId: string, config: object) => DocEditorInstance };
  }
}

const scripts = new Map<string, Promise<void>>();

function loadScript(src: string): Promise<void> {
  let p = scripts.get(src);
  if (!p) {
    p = new Promise<void>((resolve, reject) => {
      const s = document.createElement('script');
      s.src = src;
      s.async = true;
      s.onload = () => (window.DocsAPI ? resolve() : reject(new Error('api.js without DocsAPI')));
      s.onerror = () => reject(new Error('api.js failed to load'));
      document.head.appendChild(s);
    });
    // A failed load may succeed later (the Document Server was restarting): not cached.
    p.catch(() => scripts.delete(src));
    scripts.set(src, p);
  }
  return p;
}

const isPhone = () => window.matchMedia('(max-width: 768px)').matches;

let placeholders = 0;

export default function OnlyOfficeEditor(props: {
  area: AreaQuery;
  userFileId: number;
  edit: boolean;
  /** api.js or the editor could not start: show the read-only viewer instead. */
  onUnavailable: () => void;
}) {
  const { area, userFileId, edit, onUnavailable } = props;
  const box = useRef<HTMLDivElement>(null);
  const config = useQuery({
    queryKey: ['office', 'editor', JSON.stringify(area), userFileId, edit],
    queryFn: () =>
      drive.post<OfficeEditor>(
        edit ? '/office/editofficefile' : '/office/previewofficefile',
        { ...area, userFileId, mobile: isPhone() },
        { silent: true },
      ),
    retry: false,
    // A config is used once: its document URL expires, and refetching would reopen the editor.
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  const data = config.data;

  useEffect(() => {
    const el = box.current;
    if (!data || !el) return;
    // api.js replaces its placeholder with an iframe: a node of ours, never one React renders.
    const placeholder = document.createElement('div');
    placeholder.id = `gwy-onlyoffice-${++placeholders}`;
    el.appendChild(placeholder);
    let editor: DocEditorInstance | undefined;
    let cancelled = false;
    loadScript(data.docServiceApiUrl)
      .then(() => {
        if (cancelled) return;
        editor = new window.DocsAPI!.DocEditor(placeholder.id, {
          ...data.config,
          width: '100%',
          height: '100%',
        });
      })
      .catch(() => {
        if (!cancelled) onUnavailable();
      });
    return () => {
      cancelled = true;
      try {
        editor?.destroyEditor();
      } catch {
        /* already gone */
      }
      el.replaceChildren();
    };
  }, [data, onUnavailable]);

  if (config.error) return <ViewerMessage message={config.error.message} />;
  return (
    <>
      {!data && <ViewerLoading />}
      <div ref={box} className={classes.editor} data-testid="onlyoffice-editor" />
    </>
  );
}
