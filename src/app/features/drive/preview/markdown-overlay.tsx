import { markdown } from '@codemirror/lang-markdown';
import { languages } from '@codemirror/language-data';
import type { EditorView } from '@codemirror/view';
import { ActionIcon, Group, Tabs } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconBold,
  IconCode,
  IconHeading,
  IconItalic,
  IconLink,
  IconList,
  IconQuote,
  IconTable,
  type Icon,
} from '@tabler/icons-react';
import { useDeferredValue, useMemo, useRef, useState } from 'react';
import { joinName } from '../../../../shared/drive/names';
import { tPreview } from '../../../lib/i18n/preview';
import { CodeEditor, FONT_DEFAULT } from './code-editor';
import { useCodeTheme } from './code-themes';
import classes from './editors.module.css';
import { renderMarkdown } from './markdown-render';
import { MARKDOWN_ACTIONS, applyMarkdown, type MarkdownAction } from './markdown-toolbar';
import { EditorShell } from './editor-shell';
import { EditingNotes, LoadingOrError, useTextEditing } from './text-editing';
import type { PreviewProps } from './types';

const T = tPreview.editors;
const M = T.markdown;
/** spec §9: "markdown split view only when the screen is wider than 768". */
const WIDE_QUERY = '(min-width: 768.02px)';

const ICONS: Record<MarkdownAction, Icon> = {
  bold: IconBold,
  italic: IconItalic,
  heading: IconHeading,
  list: IconList,
  quote: IconQuote,
  code: IconCode,
  link: IconLink,
  table: IconTable,
};

/** Markdown, with fenced code blocks highlighted in their own language. */
const markdownLanguage = () => Promise.resolve(markdown({ codeLanguages: languages }));

/**
 * The markdown preview-and-edit overlay (spec/drive.md §2 dialog 4, §6): full screen. Not
 * editable: the rendered preview only. Editable: a formatting toolbar and a CodeMirror
 * markdown editor, beside a live preview when the screen is wider than 768 px, otherwise as
 * 编辑 / 预览 tabs. Saving, 未保存, Ctrl+S and Escape are the code dialog's (useTextEditing).
 * The preview is sanitised (markdown-render.ts): a file's scripts never run.
 */
export default function MarkdownOverlay(props: PreviewProps) {
  const file = props.files[props.index] ?? props.files[0]!;
  const name = joinName(file.fileName, file.extendName);
  const editing = useTextEditing({
    file,
    area: props.area,
    editable: props.editable,
    onClose: props.onClose,
  });
  const wide = useMediaQuery(WIDE_QUERY, true, { getInitialValueInEffect: false });
  const theme = useCodeTheme();
  const view = useRef<EditorView | null>(null);
  const [tab, setTab] = useState<'edit' | 'preview'>('edit');

  // Typing stays smooth on long files: the preview follows when React has time.
  const shown = useDeferredValue(editing.current);
  const html = useMemo(() => renderMarkdown(shown), [shown]);

  const split = editing.editable && wide;
  const showEditor = editing.editable && (wide || tab === 'edit');
  const showPreview = !editing.editable || wide || tab === 'preview';

  return (
    <EditorShell editing={editing} name={name} testId="markdown-overlay" fullScreen>
      <EditingNotes editing={editing} />
      <LoadingOrError editing={editing} />
      {editing.status === 'ready' && (
        <>
          {editing.editable && !wide && (
            <Tabs value={tab} onChange={(v) => setTab(v === 'preview' ? 'preview' : 'edit')}>
              <Tabs.List>
                <Tabs.Tab value="edit">{M.edit}</Tabs.Tab>
                <Tabs.Tab value="preview">{M.preview}</Tabs.Tab>
              </Tabs.List>
            </Tabs>
          )}
          <div className={classes.panes} data-layout={split ? 'split' : 'single'}>
            {editing.editable && (
              // Kept mounted while the 预览 tab shows, so the cursor and undo history stay.
              <div className={classes.pane} hidden={!showEditor} data-testid="markdown-editor-pane">
                <Group gap={4} role="toolbar" aria-label={M.toolbar} data-testid="markdown-toolbar">
                  {MARKDOWN_ACTIONS.map((action) => {
                    const I = ICONS[action];
                    return (
                      <ActionIcon
                        key={action}
                        variant="subtle"
                        color="gray"
                        aria-label={M[action]}
                        title={M[action]}
                        disabled={editing.readOnly}
                        onClick={() => view.current && applyMarkdown(view.current, action)}
                      >
                        <I size={18} />
                      </ActionIcon>
                    );
                  })}
                </Group>
                <CodeEditor
                  className={classes.mdEditor}
                  text={editing.doc.text}
                  version={editing.doc.version}
                  language={markdownLanguage}
                  readOnly={editing.readOnly}
                  fontSize={FONT_DEFAULT}
                  theme={theme.extension}
                  wrap
                  onChange={editing.setText}
                  viewRef={view}
                  label={name}
                />
              </div>
            )}
            <div className={classes.pane} hidden={!showPreview}>
              <div
                className={classes.preview}
                data-testid="markdown-preview"
                // Sanitised by DOMPurify in renderMarkdown: no scripts, handlers or script URLs.
                dangerouslySetInnerHTML={{ __html: html }}
              />
            </div>
          </div>
        </>
      )}
    </EditorShell>
  );
}
