import ExcelJS from 'exceljs';
import type { TestServer } from './harness';
import { M } from './util';

/** Helpers for the batch-import tests (not a test file itself). */

/** A workbook with one sheet: the header row, then the rows. */
export async function xlsxOf(headers: string[], rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  ws.addRow(headers);
  for (const r of rows) ws.addRow(r as ExcelJS.CellValue[]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** POST scheme/batchImport as the page sends it: multipart file, schemeId, type. */
export async function importFile(
  s: TestServer,
  token: string,
  schemeId: string,
  body: Buffer,
  opts: { type?: number; fileName?: string } = {},
) {
  const fd = new FormData();
  fd.append('schemeId', schemeId);
  fd.append('type', String(opts.type ?? 1));
  fd.append('file', new Blob([new Uint8Array(body)]), opts.fileName ?? 'import.xlsx');
  const res = await fetch(`${s.url}${M}/scheme/batchImport`, {
    method: 'POST',
    headers: { token },
    body: fd,
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** The template of a scheme, read back: its first sheet's header row and its sheet names. */
export async function template(s: TestServer, token: string, schemeId: string) {
  const res = await fetch(`${s.url}${M}/scheme/downloadTemplate?schemeId=${schemeId}`, {
    headers: { token },
  });
  if (!res.headers.get('content-type')?.includes('spreadsheetml'))
    return { ok: false as const, body: (await res.json()) as any };
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(await res.arrayBuffer());
  const headers = (wb.worksheets[0]!.getRow(1).values as unknown[]).filter(Boolean).map(String);
  return {
    ok: true as const,
    headers,
    sheets: wb.worksheets.map((w) => w.name),
    wb,
    disposition: res.headers.get('content-disposition'),
  };
}
