import type { Sheet } from '@fortune-sheet/core';
import { Workbook, type WorkbookInstance } from '@fortune-sheet/react';
import '@fortune-sheet/react/dist/index.css';
import { useEffect, useRef, useState } from 'react';
import { tPreview } from '../../lib/i18n/preview';
import type { EditorProps } from './editor-types';
import classes from './office.module.css';
import { ViewerLoading } from './viewer-state';
import { TooLargeToEdit, readWorkbook, writeWorkbook } from './xlsx-bridge';

/*
 * A workbook, editable (issue 17 §1): @fortune-sheet/react (MIT) draws and edits the grid, in
 * Chinese; xlsx-bridge.ts (ExcelJS, MIT) reads the file into it and writes the person's changes
 * back over the original file. The toolbar and menus offer only what the bridge saves — values,
 * formulas, number formats, fonts, colours, borders, alignment, wrapping, merged cells, widths
 * and heights, hidden rows and columns, frozen panes, sheets added, renamed, moved, hidden or
 * deleted — so nothing a person does in the grid is silently dropped on saving.
 */

const TOOLBAR = [
  'undo',
  'redo',
  'format-painter',
  'clear-format',
  '|',
  'currency-format',
  'percentage-format',
  'number-decrease',
  'number-increase',
  'format',
  '|',
  'font',
  '|',
  'font-size',
  '|',
  'bold',
  'italic',
  'strike-through',
  'underline',
  '|',
  'font-color',
  'background',
  'border',
  'merge-cell',
  '|',
  'horizontal-align',
  'vertical-align',
  'text-wrap',
  '|',
  'freeze',
  'quick-formula',
  'search',
];
const CELL_MENU = [
  'copy',
  'paste',
  '|',
  'insert-row',
  'insert-column',
  'delete-row',
  'delete-column',
  'delete-cell',
  'hide-row',
  'hide-column',
  'set-row-height',
  'set-column-width',
  '|',
  'clear',
  'sort',
  'orderAZ',
  'orderZA',
];
const HEADER_MENU = CELL_MENU;
const SHEET_TAB_MENU = ['delete', 'copy', 'rename', 'hide', '|', 'move'];

export default function XlsxEditorView({ bytes, onChange, onReady, onFail }: EditorProps) {
  const ref = useRef<WorkbookInstance>(null);
  const [sheets, setSheets] = useState<{ bytes: ArrayBuffer; data: Sheet[] } | null>(null);
  const latest = useRef({ onChange, onReady, onFail });
  useEffect(() => {
    latest.current = { onChange, onReady, onFail };
  });

  useEffect(() => {
    let cancelled = false;
    readWorkbook(bytes).then(
      (data) => {
        if (!cancelled) setSheets({ bytes, data });
      },
      (err: unknown) => {
        if (cancelled) return;
        latest.current.onFail(
          err instanceof TooLargeToEdit ? tPreview.office.tooLargeToEdit : tPreview.office.editorBroken,
        );
      },
    );
    return () => {
      cancelled = true;
    };
  }, [bytes]);

  const ready = sheets?.bytes === bytes;
  useEffect(() => {
    if (!ready) return;
    latest.current.onReady({
      save: async () => {
        const wb = ref.current;
        if (!wb) throw new Error(tPreview.office.editorBroken);
        return writeWorkbook(bytes, wb.getAllSheets());
      },
    });
  }, [ready, bytes]);

  if (!sheets || !ready) return <ViewerLoading />;
  return (
    <div className={classes.sheetEditor} data-testid="xlsx-editor">
      <Workbook
        ref={ref}
        data={sheets.data}
        lang="zh"
        showFormulaBar
        showSheetTabs
        toolbarItems={TOOLBAR}
        cellContextMenu={CELL_MENU}
        headerContextMenu={HEADER_MENU}
        sheetTabContextMenu={SHEET_TAB_MENU}
        currency="¥"
        onOp={() => latest.current.onChange()}
      />
    </div>
  );
}
