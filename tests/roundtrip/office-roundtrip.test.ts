import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseDocx, repackDocx } from '@eigenpal/docx-editor-core/docx';
import type { Sheet } from '@fortune-sheet/core';
import ExcelJS from 'exceljs';
import { SaxesParser } from 'saxes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TooLargeToEdit,
  readWorkbook,
  writeWorkbook,
  type WriteStats,
} from '../../src/app/features/office/xlsx-bridge';
import { countFeatures, lostFeatures, type PackageView } from '../../src/shared/office/features';
import { W, driveUser, readZip, type DriveUser } from '../server/drive-util';
import { driveServiceOf, startServer, type TestServer } from '../server/harness';
import { download } from '../server/upload-util';

/**
 * Round trips of the in-browser office editors (issue 17 §1): documents made by the product
 * (office/createofficefile) and real documents written by LibreOffice (tests/fixtures/office,
 * made by make-office.py) are opened with the editors' own code, edited, saved through
 * office/savefile to a real server, and read back from it: the text of a docx, the cells of an
 * xlsx, compared with what was there and what was typed.
 *
 * - xlsx: the editor's bridge (src/app/features/office/xlsx-bridge.ts) turns the file into
 *   fortune-sheet's model and writes the edited model back over the original, as the page does;
 *   the edits are made on the model as fortune-sheet makes them.
 * - docx: @eigenpal/docx-editor-core parses the document into the editor's model and repacks
 *   it, as the editor's save does; the edits are made on that model.
 *
 * What each editor keeps is measured here too (shared/office/features.ts, the same count the page
 * warns with): the LibreOffice documents holding charts, comments, footnotes, validation… lose
 * exactly what README says, and the page's warning names it.
 *
 * OFFICE_ROUNDTRIP_OUT=<dir> keeps the saved files, to open them in LibreOffice, Word or WPS
 * (tests/fixtures/office/check-libreoffice.sh).
 */

const FIXTURES = path.resolve('tests/fixtures/office');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));
const md5 = (b: Buffer | Uint8Array) => createHash('md5').update(b).digest('hex');
const ab = (b: Buffer) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

let s: TestServer;
let me: DriveUser;

beforeAll(async () => {
  s = await startServer();
  me = await driveUser(s, 'staff08', driveServiceOf(s));
});
afterAll(() => s.close());

function keep(name: string, bytes: Buffer) {
  const dir = process.env.OFFICE_ROUNDTRIP_OUT;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, name), bytes);
}

/** A package as the page's warning reads it. */
async function view(bytes: Buffer | Uint8Array): Promise<PackageView> {
  const items = await readZip(Buffer.from(bytes));
  const byName = new Map(items.map((i) => [i.name, i.data]));
  return {
    names: items.filter((i) => !i.name.endsWith('/')).map((i) => i.name),
    text: async (n) => byName.get(n)?.toString('utf8') ?? null,
  };
}

/** Every XML part parses; every part the content types name exists. */
async function wellFormed(bytes: Buffer) {
  const items = await readZip(bytes);
  for (const item of items) {
    if (!/\.(xml|rels)$/.test(item.name)) continue;
    const parser = new SaxesParser({ xmlns: true });
    let error: Error | undefined;
    parser.on('error', (e) => {
      error ??= e;
    });
    parser.write(item.data.toString('utf8')).close();
    expect(error, item.name).toBeUndefined();
  }
  const names = new Set(items.map((i) => i.name));
  const types = items.find((i) => i.name === '[Content_Types].xml')!.data.toString('utf8');
  for (const m of types.matchAll(/PartName="\/([^"]+)"/g)) expect(names.has(m[1]!), m[1]).toBe(true);
}

/** Places `bytes` as a new file of the drive, answering its id and the MD5 an editor would name. */
async function place(name: string, bytes: Buffer) {
  const id = await me.put('/', name, bytes);
  return { id, base: md5(bytes) };
}

/** office/savefile, as the page's outbox sends it. */
async function save(id: number, base: string, bytes: Uint8Array) {
  const res = await fetch(`${s.url}${W}/office/savefile?userFileId=${id}&baseMd5=${base}`, {
    method: 'POST',
    headers: { token: me.token, 'content-type': 'application/octet-stream' },
    body: bytes as Uint8Array<ArrayBuffer>,
  });
  const body = (await res.json()) as any;
  expect(body.success, JSON.stringify(body)).toBe(true);
  return body.data as { md5: string; changed: boolean; conflict: boolean };
}

// ——————————————————————————————————————————————————————————————— docx

/** The paragraphs' text of a docx, as Word shows it (one line per paragraph). */
async function paragraphs(bytes: Buffer): Promise<string[]> {
  const doc = (await readZip(bytes)).find((i) => i.name === 'word/document.xml')!.data.toString('utf8');
  return [...doc.matchAll(/<w:p[\s>][\s\S]*?<\/w:p>/g)]
    .map((p) => [...p[0].matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join(''))
    .filter((t) => t !== '');
}

const countOf = async (bytes: Buffer, part: string, tag: string) => {
  const xml = (await readZip(bytes)).find((i) => i.name === part)?.data.toString('utf8') ?? '';
  return xml.match(new RegExp(`<${tag}[\\s/>]`, 'g'))?.length ?? 0;
};

type Block = { type: string; content?: Run[]; rows?: { cells: { content: Block[] }[] }[] };
type Run = { type: string; content?: { type: string; text?: string }[] };

/** Types `text` at the start of a paragraph of the editor's model, as the editor would. */
function typeAtStart(p: Block, text: string) {
  const run = p.content?.find((r) => r.type === 'run' && r.content?.some((c) => c.type === 'text'));
  const t = run?.content?.find((c) => c.type === 'text');
  if (t) t.text = text + (t.text ?? '');
  else p.content = [{ type: 'run', content: [{ type: 'text', text }] }, ...(p.content ?? [])];
}

/** A new paragraph after the last, with `text`. */
function newParagraph(text: string): Block {
  return { type: 'paragraph', content: [{ type: 'run', content: [{ type: 'text', text }] }] };
}

/** Opens a docx in the editor's model, lets `edit` change it, and saves it as the editor does. */
async function editDocx(bytes: Buffer, edit: (blocks: Block[]) => void): Promise<Buffer> {
  const buffer = ab(Buffer.from(bytes));
  const doc = (await parseDocx(buffer)) as unknown as { package: { document: { content: Block[] } } };
  edit(doc.package.document.content);
  return Buffer.from(await repackDocx({ ...(doc as object), originalBuffer: buffer } as never));
}

describe('Word documents', () => {
  it('a blank made by 新建文件: typed text is saved, and the package stays valid', async () => {
    const r = await me.post('/office/createofficefile', {
      extendName: 'docx',
      filePath: '/',
      fileName: '新文档',
    });
    const id = r.body.data.userFileId as number;
    const blank = await download(s, me.token, id);
    const edited = await editDocx(blank, (blocks) => {
      const first = blocks.find((b) => b.type === 'paragraph') ?? newParagraph('');
      typeAtStart(first, '馆藏文物保护工作会议纪要');
      if (!blocks.includes(first)) blocks.push(first);
      blocks.push(newParagraph('时间：2025 年 6 月 1 日'));
    });
    expect(
      lostFeatures(
        await countFeatures('docx', await view(blank)),
        await countFeatures('docx', await view(edited)),
      ),
    ).toEqual([]);
    const saved = await save(id, md5(blank), edited);
    expect(saved).toMatchObject({ changed: true, conflict: false });
    const back = await download(s, me.token, id);
    keep('blank-edited.docx', back);
    await wellFormed(back);
    expect(await paragraphs(back)).toEqual(['馆藏文物保护工作会议纪要', '时间：2025 年 6 月 1 日']);
    // The A4 page of the product's blank survives the editor.
    expect((await readZip(back)).find((i) => i.name === 'word/document.xml')!.data.toString()).toContain(
      'w:w="11906"',
    );
  });

  it('a real report (headings, a table, an image, a list): edits land, nothing else changes', async () => {
    const original = fixture('report.docx');
    const { id, base } = await place('年度报告.docx', original);
    const edited = await editDocx(original, (blocks) => {
      typeAtStart(blocks[1]!, '【已审阅】');
      // The table's 铜鼎 row: 修复中 → 已完成.
      const table = blocks.find((b) => b.type === 'table')!;
      const cell = table.rows![2]!.cells[2]!.content[0]!;
      cell.content = [{ type: 'run', content: [{ type: 'text', text: '已完成' }] }];
      blocks.push(newParagraph('补充：玉璧已入库。'));
    });
    const lost = lostFeatures(
      await countFeatures('docx', await view(original)),
      await countFeatures('docx', await view(edited)),
    );
    expect(lost).toEqual([]);
    await save(id, base, edited);
    const back = await download(s, me.token, id);
    keep('report-edited.docx', back);
    await wellFormed(back);

    const before = await paragraphs(original);
    const after = await paragraphs(back);
    expect(after).toEqual([
      before[0],
      `【已审阅】${before[1]}`,
      ...before.slice(2, 11),
      '已完成',
      ...before.slice(12),
      '补充：玉璧已入库。',
    ]);
    expect(before[11]).toBe('修复中');
    expect(after).toContain('馆藏文物保护年度报告');
    // Structure: the headings' styles, one table of four rows, the image and its part, the list.
    for (const [tag, n] of [
      ['w:tbl', 1],
      ['w:tr', 4],
      ['pic:pic', 1],
      ['w:numPr', 2],
    ] as const) {
      expect(await countOf(back, 'word/document.xml', tag), tag).toBe(n);
    }
    const doc = (await readZip(back)).find((i) => i.name === 'word/document.xml')!.data.toString();
    expect(doc.match(/w:pStyle w:val="Heading1"/g)).toHaveLength(1);
    expect(doc.match(/w:pStyle w:val="Heading2"/g)).toHaveLength(3);
    const media = (await readZip(back)).filter((i) => /^word\/media\/.+\.png$/.test(i.name));
    expect(media.length).toBeGreaterThanOrEqual(1);
    expect(media[0]!.data.subarray(1, 4).toString()).toBe('PNG');
    // The bold run is still bold.
    expect(doc).toMatch(/<w:b\/>[\s\S]*?保护与修复/);
  });

  it('what the Word editor cannot keep is found: a chart (comments, footnotes, headers, revisions stay)', async () => {
    const original = fixture('features.docx');
    const { id, base } = await place('借出意见.docx', original);
    const before = await countFeatures('docx', await view(original));
    expect(before).toMatchObject({ chart: 1, comment: 1, footnote: 1, headerFooter: 1, trackedChange: 1 });
    const edited = await editDocx(original, (blocks) => blocks.push(newParagraph('同意借出。')));
    const after = await countFeatures('docx', await view(edited));
    expect(lostFeatures(before, after).map((l) => [l.label, l.before, l.after])).toEqual([['图表', 1, 0]]);
    await save(id, base, edited);
    const back = await download(s, me.token, id);
    keep('features-edited.docx', back);
    await wellFormed(back);
    expect(await paragraphs(back)).toContain('同意借出。');
    expect(await countOf(back, 'word/comments.xml', 'w:comment')).toBe(1);
    expect(await countOf(back, 'word/document.xml', 'w:footnoteReference')).toBe(1);
  });
});

// ——————————————————————————————————————————————————————————————— xlsx

type FCell = NonNullable<NonNullable<Sheet['celldata']>[number]['v']>;

/** fortune-sheet's own edit: the cell at r, c of a sheet gets `v` (merged into what is there). */
function setCell(sheet: Sheet, r: number, c: number, v: FCell) {
  const cells = (sheet.celldata ??= []);
  const at = cells.find((d) => d.r === r && d.c === c);
  if (at) at.v = { ...(at.v ?? {}), ...v };
  else cells.push({ r, c, v });
}
const cellOf = (sheet: Sheet, r: number, c: number) => sheet.celldata?.find((d) => d.r === r && d.c === c)?.v;

async function load(bytes: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(ab(bytes));
  return wb;
}

/** A cell as a person reads it: the value (a formula's formula and result), its number format. */
function shown(cell: ExcelJS.Cell) {
  const v = cell.value as unknown;
  const fmt = cell.numFmt && cell.numFmt !== 'General' ? cell.numFmt : undefined;
  if (v instanceof Date) return { date: v.toISOString().slice(0, 10), fmt };
  return { v: JSON.parse(JSON.stringify(v ?? null)), fmt };
}

function cells(ws: ExcelJS.Worksheet) {
  const out = new Map<string, ReturnType<typeof shown>>();
  ws.eachRow((row) =>
    row.eachCell((cell) => {
      if (cell.isMerged && cell.master.address !== cell.address) return;
      out.set(cell.address, shown(cell));
    }),
  );
  return out;
}

describe('Excel workbooks', () => {
  it("a blank made by 新建文件: a value and a formula are saved, with the formula's result", async () => {
    const r = await me.post('/office/createofficefile', {
      extendName: 'xlsx',
      filePath: '/',
      fileName: '新表格',
    });
    const id = r.body.data.userFileId as number;
    const blank = await download(s, me.token, id);
    const sheets = await readWorkbook(blank);
    expect(sheets.map((x) => x.name)).toEqual(['Sheet1']);
    setCell(sheets[0]!, 0, 0, { v: 42, m: '42', ct: { fa: 'General', t: 'n' } });
    setCell(sheets[0]!, 1, 0, { f: '=A1*2', v: 84, m: '84', ct: { fa: 'General', t: 'n' } });
    setCell(sheets[0]!, 2, 0, { v: '合计', m: '合计', ct: { fa: 'General', t: 'g' }, bl: 1 });
    const out = await writeWorkbook(blank, sheets);
    await save(id, md5(blank), out);
    const back = await download(s, me.token, id);
    keep('blank-edited.xlsx', back);
    await wellFormed(back);
    const ws = (await load(back)).getWorksheet('Sheet1')!;
    expect(ws.getCell('A1').value).toBe(42);
    expect(ws.getCell('A2').value).toEqual({ formula: 'A1*2', result: 84 });
    expect(ws.getCell('A3').value).toBe('合计');
    expect(ws.getCell('A3').font?.bold).toBe(true);
  });

  it('a real inventory (merged cells, dates, formats, formulas, two sheets): edits land, the rest is intact', async () => {
    const original = fixture('inventory.xlsx');
    const { id, base } = await place('藏品清单.xlsx', original);
    const sheets = await readWorkbook(original);
    expect(sheets.map((x) => x.name)).toEqual(['藏品清单', '统计']);
    const [list, stats] = sheets as [Sheet, Sheet];
    // What reading gave the grid: the merged title, a date, a formatted value, a formula.
    expect(list.config?.merge?.['0_0']).toEqual({ r: 0, c: 0, rs: 1, cs: 5 });
    expect(cellOf(list, 2, 2)).toMatchObject({ ct: { fa: 'yyyy-mm-dd', t: 'd' }, m: '2019-03-12' });
    expect(cellOf(list, 2, 3)).toMatchObject({ v: 1280000.5, m: '1,280,000.50' });
    expect(cellOf(list, 6, 3)).toMatchObject({ f: '=SUM(D3:D6)', v: 5430001.25 });

    // The person's edits, as fortune-sheet records them. D7 (SUM) and 汇总!B2 (AVERAGE over this
    // sheet) are left as they were: saving recalculates them.
    setCell(list, 3, 1, { v: '商代青铜鼎', m: '商代青铜鼎' });
    setCell(list, 3, 3, { v: 3800000, m: '3,800,000.00' });
    setCell(list, 8, 0, { v: '最高估值', m: '最高估值', ct: { fa: 'General', t: 'g' }, bl: 1 });
    setCell(list, 8, 3, { f: '=MAX(D3:D6)', v: 3800000, m: '3,800,000.00', ct: { fa: '#,##0.00', t: 'n' } });
    setCell(list, 4, 1, { bg: '#fff2cc' });
    list.config!.columnlen = { ...list.config!.columnlen, 1: 200 };
    setCell(list, 9, 0, { v: '备注：估值以 2025 年评估为准', m: '', mc: { r: 9, c: 0, rs: 1, cs: 3 } });
    setCell(list, 9, 1, { mc: { r: 9, c: 0 } });
    setCell(list, 9, 2, { mc: { r: 9, c: 0 } });
    list.config!.merge = { ...list.config!.merge, '9_0': { r: 9, c: 0, rs: 1, cs: 3 } };
    stats.name = '汇总';
    const added: Sheet = {
      name: '借展记录',
      id: 'new-sheet-id',
      order: 2,
      celldata: [{ r: 0, c: 0, v: { v: '故宫博物院', m: '故宫博物院', ct: { fa: 'General', t: 'g' } } }],
      config: {},
    };
    const stat: WriteStats = { cells: [] };
    const out = await writeWorkbook(original, [...sheets, added], stat);
    // Only what changed was written.
    expect(stat.cells.sort()).toEqual(
      ['B4', 'B5', 'D4', 'D7', 'A9', 'D9', 'A10']
        .map((a) => `藏品清单!${a}`)
        .concat(['汇总!B2', '借展记录!A1'])
        .sort(),
    );
    expect(
      lostFeatures(
        await countFeatures('xlsx', await view(original)),
        await countFeatures('xlsx', await view(out)),
      ),
    ).toEqual([]);
    await save(id, base, out);
    const back = await download(s, me.token, id);
    keep('inventory-edited.xlsx', back);
    await wellFormed(back);

    const before = await load(original);
    const after = await load(back);
    expect(after.worksheets.map((w) => w.name)).toEqual(['藏品清单', '汇总', '借展记录']);
    const ws = after.getWorksheet('藏品清单')!;
    expect(ws.getCell('B4').value).toBe('商代青铜鼎');
    expect(ws.getCell('D4').value).toBe(3800000);
    expect(ws.getCell('D4').numFmt).toBe('#,##0.00');
    expect(ws.getCell('D7').value).toEqual({ formula: 'SUM(D3:D6)', result: 5630001.25 });
    expect(ws.getCell('D9').value).toEqual({ formula: 'MAX(D3:D6)', result: 3800000 });
    expect(ws.getCell('D9').numFmt).toBe('#,##0.00');
    expect(ws.getCell('A9').font?.bold).toBe(true);
    expect(ws.getCell('B5').fill).toMatchObject({
      type: 'pattern',
      pattern: 'solid',
      fgColor: { argb: 'FFFFF2CC' },
    });
    expect(ws.getCell('B5').value).toBe('山水画卷');
    expect(ws.model.merges.sort()).toEqual(['A10:C10', 'A1:E1']);
    expect(ws.getCell('A10').value).toBe('备注：估值以 2025 年评估为准');
    expect(ws.getColumn(2).width).toBeCloseTo((200 - 5) / 7, 1);
    expect(ws.getColumn(4).width).toBe(before.getWorksheet('藏品清单')!.getColumn(4).width);
    expect(after.getWorksheet('借展记录')!.getCell('A1').value).toBe('故宫博物院');
    const sum = after.getWorksheet('汇总')!;
    expect(sum.getCell('B1').value).toEqual({ formula: 'SUM(藏品清单!E3:E6)', result: 8 });
    expect(sum.getCell('B2').value).toEqual({ formula: 'AVERAGE(藏品清单!D3:D6)', result: 1407500.3125 });
    expect(sum.getCell('B3').numFmt).toBe('0%');

    // Every cell nobody touched reads as it did: values, dates, formats, the rich-text title.
    const edited = new Set(['B4', 'D4', 'D7', 'A9', 'D9', 'A10', 'B5']);
    const was = cells(before.getWorksheet('藏品清单')!);
    const now = cells(ws);
    for (const [addr, cell] of was) if (!edited.has(addr)) expect(now.get(addr), addr).toEqual(cell);
    expect(now.get('C3')).toEqual({ date: '2019-03-12', fmt: 'yyyy-mm-dd' });
  });

  it('an unchanged workbook is written back without touching a cell', async () => {
    for (const name of ['inventory.xlsx', 'features.xlsx']) {
      const original = fixture(name);
      const stat: WriteStats = { cells: [] };
      await writeWorkbook(original, await readWorkbook(original), stat);
      expect(stat.cells, name).toEqual([]);
    }
  });

  it('what the spreadsheet cannot keep is found: a chart (the image, comment, validation and conditional format stay)', async () => {
    const original = fixture('features.xlsx');
    const { id, base } = await place('借展.xlsx', original);
    const before = await countFeatures('xlsx', await view(original));
    expect(before).toMatchObject({ chart: 1, image: 1, comment: 1, validation: 1, conditionalFormat: 1 });
    const sheets = await readWorkbook(original);
    setCell(sheets[0]!, 4, 0, { v: '玉琮', m: '玉琮', ct: { fa: 'General', t: 'g' } });
    const out = await writeWorkbook(original, sheets);
    const after = await countFeatures('xlsx', await view(out));
    expect(lostFeatures(before, after).map((l) => [l.label, l.before, l.after])).toEqual([['图表', 1, 0]]);
    await save(id, base, out);
    const back = await download(s, me.token, id);
    keep('features-edited.xlsx', back);
    await wellFormed(back);
    const ws = (await load(back)).worksheets[0]!;
    expect(ws.getCell('A5').value).toBe('玉琮');
    expect(ws.getCell('B2').note).toBeTruthy();
    expect(ws.getCell('C2').dataValidation).toMatchObject({ type: 'list' });
  });

  it('refuses to open for editing what is too large, and reads a broken file as an error', async () => {
    const wb = new ExcelJS.Workbook();
    const big = wb.addWorksheet('大表');
    for (let r = 1; r <= 30; r++) big.addRow(Array.from({ length: 10 }, (_, c) => r * c));
    const bytes = Buffer.from(await wb.xlsx.writeBuffer());
    await expect(readWorkbook(bytes, { maxCells: 299 })).rejects.toBeInstanceOf(TooLargeToEdit);
    expect((await readWorkbook(bytes, { maxCells: 300 }))[0]!.celldata).toHaveLength(300);
    await expect(readWorkbook(Buffer.from('not a zip'))).rejects.toThrow();
  });
});
