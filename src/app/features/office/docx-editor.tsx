import { setGoogleFontsEnabled } from '@eigenpal/docx-editor-core';
import zhCN from '@eigenpal/docx-editor-i18n/zh-CN';
import { DocxEditor, type DocxEditorRef } from '@eigenpal/docx-editor-react';
import '@eigenpal/docx-editor-react/styles.css';
import { useEffect, useRef } from 'react';
import { tPreview } from '../../lib/i18n/preview';
import type { EditorProps } from './editor-types';
import classes from './office.module.css';
import './office-fonts.css';

/*
 * A Word document, editable (issue 17 §1): @eigenpal/docx-editor-react (Apache-2.0), its
 * interface in Chinese (@eigenpal/docx-editor-i18n zh-CN). It edits the document's own OOXML and
 * saves by patching word/document.xml into the original package, so styles, numbering, headers,
 * footnotes, comments and media it does not touch stay as they were.
 *
 * No font is ever fetched: the library would ask Google Fonts for fonts a document names that the
 * device lacks, which the CSP refuses anyway and a closed museum network cannot reach. It is
 * switched off here, and the usual Chinese fonts are aliases of local ones (office-fonts.css).
 */
setGoogleFontsEnabled(false);

/** The font menu: the Chinese faces museums' documents use, then the common Latin ones. */
const FONTS = [
  { name: '宋体', fontFamily: '宋体, SimSun, serif', category: 'serif' },
  { name: '仿宋', fontFamily: '仿宋, FangSong, serif', category: 'serif' },
  { name: '仿宋_GB2312', fontFamily: '仿宋_GB2312, 仿宋, serif', category: 'serif' },
  { name: '楷体', fontFamily: '楷体, KaiTi, serif', category: 'serif' },
  { name: '黑体', fontFamily: '黑体, SimHei, sans-serif', category: 'sans-serif' },
  { name: '微软雅黑', fontFamily: '微软雅黑, "Microsoft YaHei", sans-serif', category: 'sans-serif' },
  { name: '等线', fontFamily: '等线, DengXian, sans-serif', category: 'sans-serif' },
  { name: 'Calibri', fontFamily: 'Calibri, Carlito, sans-serif', category: 'sans-serif' },
  { name: 'Arial', fontFamily: 'Arial, Arimo, Helvetica, sans-serif', category: 'sans-serif' },
  { name: 'Times New Roman', fontFamily: '"Times New Roman", Tinos, serif', category: 'serif' },
] as const;

/** A4 at 100 % is about 800 px wide: on a phone the page opens fitted to the screen's width. */
const fitZoom = () => Math.min(1, Math.max(0.4, Math.floor(((window.innerWidth - 24) / 816) * 20) / 20));

/**
 * The editor keeps its page area at least as wide as the page at 100 %, so on a phone the page
 * fitted by zoom sits off to the right of a wide scroll area. Once the first page is drawn, the
 * area that scrolls sideways is scrolled to put the page in the middle (a no-op on wider screens).
 */
function centreWhenDrawn(host: HTMLElement, tries = 120): () => void {
  let frame = 0;
  const step = (left: number) => {
    const page = host.querySelector<HTMLElement>('.layout-page');
    if (!page) {
      if (left > 0) frame = requestAnimationFrame(() => step(left - 1));
      return;
    }
    for (let el = page.parentElement; el && el !== document.body; el = el.parentElement) {
      const scrolls = /auto|scroll/.test(getComputedStyle(el).overflowX);
      if (!scrolls || el.scrollWidth <= el.clientWidth + 1) continue;
      const p = page.getBoundingClientRect();
      const box = el.getBoundingClientRect();
      el.scrollLeft += p.left + p.width / 2 - (box.left + box.width / 2);
      return;
    }
  };
  frame = requestAnimationFrame(() => step(tries));
  return () => cancelAnimationFrame(frame);
}

export default function DocxEditorView({ bytes, author, onChange, onReady, onFail }: EditorProps) {
  const ref = useRef<DocxEditorRef>(null);
  const box = useRef<HTMLDivElement>(null);
  // The editor reports a change when it finishes loading too: only changes after the person
  // has touched the document count.
  const touched = useRef(false);
  const loaded = useRef(false);
  const latest = useRef({ onChange, onReady, onFail });
  useEffect(() => {
    latest.current = { onChange, onReady, onFail };
  });

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const arm = () => {
      touched.current = true;
    };
    const events = ['keydown', 'pointerdown', 'paste', 'drop', 'cut'] as const;
    for (const e of events) el.addEventListener(e, arm, { capture: true });
    const stopCentring = centreWhenDrawn(el);
    latest.current.onReady({
      save: async () => {
        const out = await ref.current?.save();
        if (!out) throw new Error(tPreview.office.editorBroken);
        return new Uint8Array(out);
      },
    });
    return () => {
      stopCentring();
      for (const e of events) el.removeEventListener(e, arm, { capture: true });
    };
  }, []);

  return (
    <div ref={box} className={classes.docxEditor} data-testid="docx-editor-host">
      <DocxEditor
        ref={ref}
        documentBuffer={bytes}
        mode="editing"
        initialZoom={fitZoom()}
        author={author}
        i18n={zhCN}
        fontFamilies={FONTS}
        showFileOpen={false}
        showHelpMenu={false}
        showOutlineButton={false}
        documentNameEditable={false}
        onChange={() => {
          loaded.current = true;
          if (touched.current) latest.current.onChange();
        }}
        onError={(err) => {
          // A document that cannot be read falls back to the viewer; a hiccup after it loaded
          // must not take the person's unsaved work away with the editor.
          if (!loaded.current) latest.current.onFail(tPreview.office.editorBroken);
          else console.error('docx editor', err);
        }}
      />
    </div>
  );
}
