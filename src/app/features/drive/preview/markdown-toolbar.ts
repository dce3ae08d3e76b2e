import { EditorSelection } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import { tPreview } from '../../../lib/i18n/preview';

/**
 * The markdown toolbar's actions: each inserts markdown into the editor at the selection (or
 * around it), as one undoable change, and leaves the inserted sample text selected so typing
 * replaces it.
 */
export type MarkdownAction = 'bold' | 'italic' | 'heading' | 'list' | 'quote' | 'code' | 'link' | 'table';
export const MARKDOWN_ACTIONS: readonly MarkdownAction[] = [
  'bold',
  'italic',
  'heading',
  'list',
  'quote',
  'code',
  'link',
  'table',
];

const S = tPreview.editors.markdown.sample;

/** Wraps each selection in `before`/`after` (the sample text when nothing is selected). */
function wrap(view: EditorView, before: string, after: string, sample: string) {
  view.dispatch(
    view.state.changeByRange((range) => {
      const text = range.empty ? sample : view.state.sliceDoc(range.from, range.to);
      const start = range.from + before.length;
      return {
        changes: { from: range.from, to: range.to, insert: before + text + after },
        range: EditorSelection.range(start, start + text.length),
      };
    }),
    { scrollIntoView: true, userEvent: 'input' },
  );
}

/** Puts `prefix` before every line the selection touches (the sample on an empty line). */
function prefixLines(view: EditorView, prefix: string, sample: string) {
  const { state } = view;
  view.dispatch(
    state.changeByRange((range) => {
      const first = state.doc.lineAt(range.from);
      const last = state.doc.lineAt(range.to);
      if (range.empty && first.length === 0) {
        const start = first.from + prefix.length;
        return {
          changes: { from: first.from, insert: prefix + sample },
          range: EditorSelection.range(start, start + sample.length),
        };
      }
      const changes = [];
      for (let n = first.number; n <= last.number; n++) {
        changes.push({ from: state.doc.line(n).from, insert: prefix });
      }
      const added = prefix.length * changes.length;
      return {
        changes,
        range: EditorSelection.range(range.from + prefix.length, range.to + added),
      };
    }),
    { scrollIntoView: true, userEvent: 'input' },
  );
}

/** Inserts a block on lines of its own after the cursor's line. */
function block(view: EditorView, text: string, select: [number, number]) {
  const { state } = view;
  const line = state.doc.lineAt(state.selection.main.head);
  const lead = line.length === 0 ? '' : '\n\n';
  const at = line.length === 0 ? line.from : line.to;
  const start = at + lead.length;
  view.dispatch({
    changes: { from: at, insert: `${lead}${text}\n` },
    selection: EditorSelection.single(start + select[0], start + select[1]),
    scrollIntoView: true,
    userEvent: 'input',
  });
}

function code(view: EditorView) {
  const main = view.state.selection.main;
  const selected = view.state.sliceDoc(main.from, main.to);
  if (!selected.includes('\n')) return wrap(view, '`', '`', S.code);
  const fence = '```';
  view.dispatch({
    changes: { from: main.from, to: main.to, insert: `${fence}\n${selected}\n${fence}` },
    selection: EditorSelection.single(
      main.from + fence.length + 1,
      main.from + fence.length + 1 + selected.length,
    ),
    scrollIntoView: true,
    userEvent: 'input',
  });
}

function table(view: EditorView) {
  const head = S.tableHead;
  const rows = [
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    `| ${head.map(() => S.tableCell).join(' | ')} |`,
  ];
  // The first header cell is selected, ready to be typed over.
  block(view, rows.join('\n'), [2, 2 + head[0].length]);
}

export function applyMarkdown(view: EditorView, action: MarkdownAction) {
  if (view.state.readOnly) return;
  switch (action) {
    case 'bold':
      wrap(view, '**', '**', S.bold);
      break;
    case 'italic':
      wrap(view, '*', '*', S.italic);
      break;
    case 'heading':
      prefixLines(view, '## ', S.heading);
      break;
    case 'list':
      prefixLines(view, '- ', S.list);
      break;
    case 'quote':
      prefixLines(view, '> ', S.quote);
      break;
    case 'code':
      code(view);
      break;
    case 'link':
      wrap(view, '[', '](https://)', S.link);
      break;
    case 'table':
      table(view);
      break;
  }
  view.focus();
}
