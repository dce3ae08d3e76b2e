/**
 * The one table `npm run bench` ends with (issue 25): every measured target in one place, with
 * the product's figure, the reference measured in the same run, their ratio, the target and
 * whether it is met. Each bench calls `report()` for its rows as it finishes; the table is
 * printed once when the process exits, so it closes both `npm run bench` and a bench run alone
 * (`npx tsx tests/bench/upload.ts` prints only that bench's rows). It is also written, as
 * Markdown, to `.tmp/bench-report.md` for a note or an issue. How to read it: tests/bench/README.md.
 *
 * Figures are medians of the rounds each bench runs (at least three), because the machines
 * these run on are shared and noisy; the ratio against a reference taken side by side is the
 * figure that compares across machines, the absolute one only tells the size.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface BenchRow {
  /** What is measured, e.g. "chunked upload 500 MiB / one streamed POST". */
  measure: string;
  /** Which installation: SQLite + local disk unless said ("PostgreSQL", "S3"). */
  setup?: string;
  /** The product's figure, with its unit ("212 MB/s", "0.12 s"). */
  product: string;
  /** The reference's figure, or "—" where the target is absolute. */
  reference: string;
  /** product / reference where the target is a ratio. */
  ratio?: number;
  /** The target as the issue words it ("≥ ×0.75", "≤ 0.3 s"). */
  target: string;
  /** Met or not; null where the row is reported for information only. */
  met: boolean | null;
}

const rows: BenchRow[] = [];
let hooked = false;

export function report(row: BenchRow): void {
  rows.push(row);
  if (hooked) return;
  hooked = true;
  // 'exit' and not 'beforeExit': a bench may end with process.exit(). Writes to a pipe or a file
  // are synchronous on Linux, so the table is not cut short.
  process.once('exit', printReport);
}

/** Median of the samples; what every row reports when a bench runs rounds. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function formatTable(list: readonly BenchRow[]): string {
  const head = ['measure', 'setup', 'product', 'reference', 'ratio', 'target', 'met'];
  const body = list.map((r) => [
    r.measure,
    r.setup ?? 'SQLite, local disk',
    r.product,
    r.reference,
    r.ratio === undefined ? '—' : `×${r.ratio < 0.1 ? r.ratio.toFixed(3) : r.ratio.toFixed(2)}`,
    r.target,
    r.met === null ? '—' : r.met ? 'met' : 'NOT MET',
  ]);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...body.map(line)].join('\n');
}

function printReport(): void {
  if (!rows.length) return;
  const table = formatTable(rows);
  const missed = rows.filter((r) => r.met === false).length;
  console.log(`\n## 馆务云 bench report (${new Date().toISOString()})\n\n${table}\n`);
  console.log(missed ? `${missed} of ${rows.length} rows not met.` : `All ${rows.length} rows met.`);
  try {
    const file = path.resolve('.tmp/bench-report.md');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${table}\n`);
  } catch {
    // The table is already on stdout; a read-only checkout only loses the copy.
  }
}
