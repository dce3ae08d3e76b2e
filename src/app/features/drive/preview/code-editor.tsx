import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import {
  LanguageDescription,
  bracketMatching,
  defaultHighlightStyle,
  foldGutter,
  foldKeymap,
  indentOnInput,
  indentUnit,
  syntaxHighlighting,
} from '@codemirror/language';
import { languages } from '@codemirror/language-data';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { Compartment, EditorSelection, EditorState, Transaction, type Extension } from '@codemirror/state';
import {
  EditorView,
  crosshairCursor,
  drawSelection,
  dropCursor,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
  rectangularSelection,
} from '@codemirror/view';
import { useEffect, useEffectEvent, useRef, type RefObject } from 'react';
import { tPreview } from '../../../lib/i18n/preview';

/** spec/drive.md §9: font sizes 12 to 30 in steps of 2, default 14 px; tab size 4. */
export const FONT_MIN = 12;
export const FONT_MAX = 30;
export const FONT_STEP = 2;
export const FONT_DEFAULT = 14;
const TAB_SIZE = 4;

/** The language of a file by its name (language-data loads each language lazily). */
export async function languageByName(fileName: string): Promise<Extension | null> {
  const desc = LanguageDescription.matchFilename(languages, fileName);
  return desc ? desc.load() : null;
}

export interface CodeEditorProps {
  /** The text to show; replaced whenever `version` changes (load, reload after save, draft). */
  text: string;
  version: number;
  /** Picks the language; must be a stable function (a module-level one). */
  language: () => Promise<Extension | null>;
  readOnly: boolean;
  fontSize: number;
  /** A colour theme, or null for CodeMirror's own light look. */
  theme: Extension | null;
  /** Soft-wrap long lines (prose: markdown). */
  wrap?: boolean;
  onChange: (text: string) => void;
  /** The live view, for callers that edit the text (the markdown toolbar). */
  viewRef?: RefObject<EditorView | null>;
  label: string;
  className?: string;
}

/**
 * The editor's keys: CodeMirror's, except its Escape. The default keymap gives Escape to
 * simplifySelection (a selection collapses, the key is used up), but the spec's Escape closes
 * the dialog (drive.md §4), and a person with a word selected pressed it twice. It also lost
 * the key after 保存: the toolbar's table leaves 列 1 selected, the reload collapses it only
 * after paint, and an Escape in between did nothing (CI caught it). The search panel keeps its
 * own Escape, which closes the panel first (useTextEditing leaves that key alone).
 */
export const EDITOR_KEYS = [
  ...defaultKeymap.filter((b) => b.key !== 'Escape'),
  ...searchKeymap,
  ...historyKeymap,
  ...foldKeymap,
  indentWithTab,
];

const fontTheme = (px: number) => EditorView.theme({ '&': { fontSize: `${px}px` } });

/**
 * CodeMirror 6 as a React component. The view is made once; language, theme, font size and
 * read-only switch through compartments, so changing them keeps the text, cursor and undo
 * history. Ctrl+S and Escape are not bound here: the dialog handles them around the editor, so
 * they also work in read-only mode and from the dialog's header.
 */
export function CodeEditor(props: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const parts = useRef({
    language: new Compartment(),
    theme: new Compartment(),
    font: new Compartment(),
    readOnly: new Compartment(),
  });
  const changed = useEffectEvent((text: string) => props.onChange(text));
  const { viewRef } = props;

  // Made once; later props arrive through the effects below.
  const initial = useRef({
    text: props.text,
    readOnly: props.readOnly,
    wrap: props.wrap,
    label: props.label,
  });
  useEffect(() => {
    const c = parts.current;
    const init = initial.current;
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: init.text,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          highlightSpecialChars(),
          history(),
          foldGutter(),
          drawSelection(),
          dropCursor(),
          EditorState.allowMultipleSelections.of(true),
          indentOnInput(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          bracketMatching(),
          rectangularSelection(),
          crosshairCursor(),
          highlightActiveLine(),
          highlightSelectionMatches(),
          search({ top: true }),
          keymap.of(EDITOR_KEYS),
          EditorState.tabSize.of(TAB_SIZE),
          indentUnit.of(' '.repeat(TAB_SIZE)),
          EditorState.phrases.of(tPreview.editors.phrases),
          EditorView.contentAttributes.of({ 'aria-label': init.label }),
          init.wrap ? EditorView.lineWrapping : [],
          c.language.of([]),
          c.theme.of([]),
          c.font.of(fontTheme(FONT_DEFAULT)),
          c.readOnly.of(EditorState.readOnly.of(init.readOnly)),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) changed(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = v;
    if (viewRef) viewRef.current = v;
    return () => {
      v.destroy();
      view.current = null;
      if (viewRef) viewRef.current = null;
    };
  }, [viewRef]);

  const { text, version, language, readOnly, fontSize, theme } = props;
  const shown = useRef(version);
  useEffect(() => {
    const v = view.current;
    if (!v || shown.current === version) return;
    shown.current = version;
    // A replaced text (reload, restored draft) is not an edit the user can undo. The cursor
    // stays where it was (a selection mapped through the replacement could cover everything).
    v.dispatch({
      changes: { from: 0, to: v.state.doc.length, insert: text },
      selection: EditorSelection.cursor(Math.min(v.state.selection.main.head, text.length)),
      annotations: Transaction.addToHistory.of(false),
    });
  }, [text, version]);

  useEffect(() => {
    let live = true;
    language().then(
      (ext) => {
        if (live && ext) view.current?.dispatch({ effects: parts.current.language.reconfigure(ext) });
      },
      // No highlighting is better than no editor (e.g. offline before the language was loaded).
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [language]);

  useEffect(() => {
    view.current?.dispatch({ effects: parts.current.theme.reconfigure(theme ?? []) });
  }, [theme]);
  useEffect(() => {
    view.current?.dispatch({ effects: parts.current.font.reconfigure(fontTheme(fontSize)) });
  }, [fontSize]);
  useEffect(() => {
    view.current?.dispatch({
      effects: parts.current.readOnly.reconfigure(EditorState.readOnly.of(readOnly)),
    });
  }, [readOnly]);

  return <div ref={host} className={props.className} data-testid="code-editor" data-readonly={readOnly} />;
}
