import { PassThrough, type Readable } from 'node:stream';
import { loadExcel } from '../../lazy';
import { LOG_COLUMNS, LOG_RESULTS, type LogRow } from '../../../shared/api/syslog';

/** One cell of the export: results in words, parameters as their JSON text, nothing empty as null. */
function cell(row: LogRow, key: keyof LogRow): string | number {
  const v = row[key];
  if (key === 'result') return LOG_RESULTS[row.result];
  if (key === 'params')
    return v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);
  if (v === null || v === undefined) return '';
  return typeof v === 'number' ? v : String(v);
}

const WIDTHS: Partial<Record<keyof LogRow, number>> = {
  time: 20,
  path: 40,
  params: 60,
  errorMessage: 30,
  userAgent: 40,
};

/**
 * The export as an xlsx stream: a bold header and one row per entry, written page by page as
 * the pages arrive, so a hundred thousand entries never sit in memory at once. A failure half
 * way ends the stream with that error (the download breaks; the server's log says why).
 */
export function logWorkbook(pages: AsyncIterable<LogRow[]>): Readable {
  const out = new PassThrough();
  void (async () => {
    const ExcelJS = await loadExcel();
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
    wb.creator = '馆务云';
    const ws = wb.addWorksheet('系统日志', { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.columns = LOG_COLUMNS.map((c) => ({ header: c.title, key: c.key, width: WIDTHS[c.key] ?? 12 }));
    ws.getRow(1).font = { bold: true };
    ws.getRow(1).commit();
    for await (const rows of pages) {
      for (const r of rows) ws.addRow(LOG_COLUMNS.map((c) => cell(r, c.key))).commit();
    }
    ws.commit();
    await wb.commit();
  })().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}
