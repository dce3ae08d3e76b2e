import path from 'node:path';
import yauzl from 'yauzl';
import { OFFICE_SAVE_MSG, OOXML_MAIN_TYPES, type BrowserEditableExt } from '../../../shared/api/office';
import { invalid } from '../../errors';

/*
 * Is this buffer really the OOXML package of a file's type? A save from the browser must be
 * a docx for a .docx and an xlsx for an .xlsx: anything else (a broken zip, a macro-enabled
 * package, a workbook sent for a document, random bytes) is refused before it replaces a
 * colleague's file with something Word or Excel cannot open.
 *
 * The check follows the package's own wiring, as Office does: `_rels/.rels` names the main
 * part (the officeDocument relationship), `[Content_Types].xml` says what that part is, and
 * the part must be in the zip. Only those two small XML parts are inflated (each capped), so
 * a zip bomb costs nothing here.
 */

const KIND: Record<BrowserEditableExt, string> = { docx: 'Word 文档（.docx）', xlsx: 'Excel 表格（.xlsx）' };

/** Main-part content types a person might send by mistake, named in the refusal. */
const KNOWN: Record<string, string> = {
  [OOXML_MAIN_TYPES.docx]: 'Word 文档（.docx）',
  [OOXML_MAIN_TYPES.xlsx]: 'Excel 表格（.xlsx）',
  'application/vnd.ms-word.document.macroEnabled.main+xml': '启用宏的 Word 文档（.docm）',
  'application/vnd.ms-word.template.macroEnabledTemplate.main+xml': '启用宏的 Word 模板（.dotm）',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml': 'Word 模板（.dotx）',
  'application/vnd.ms-excel.sheet.macroEnabled.main+xml': '启用宏的 Excel 表格（.xlsm）',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml': 'Excel 模板（.xltx）',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml':
    'PowerPoint 演示文稿（.pptx）',
};

const OFFICE_DOCUMENT_REL = /\/officeDocument$/;
/** The two XML parts read here are small; more means something is wrong. */
const PART_MAX = 1024 * 1024;
const ENTRIES_MAX = 20_000;

interface Listing {
  names: Set<string>;
  read: (name: string) => Promise<string | null>;
  close: () => void;
}

function open(buf: Buffer): Promise<Listing> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true, autoClose: false }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('not a zip'));
      const entries = new Map<string, yauzl.Entry>();
      zip.on('error', reject);
      zip.on('entry', (e: yauzl.Entry) => {
        if (entries.size >= ENTRIES_MAX) {
          zip.close();
          return reject(new Error('too many entries'));
        }
        entries.set(e.fileName, e);
        zip.readEntry();
      });
      zip.on('end', () =>
        resolve({
          names: new Set(entries.keys()),
          close: () => zip.close(),
          read: (name) =>
            new Promise((res, rej) => {
              const entry = entries.get(name);
              if (!entry) return res(null);
              if (entry.uncompressedSize > PART_MAX) return rej(new Error(`${name} too large`));
              zip.openReadStream(entry, (e, stream) => {
                if (e || !stream) return rej(e ?? new Error('no stream'));
                const chunks: Buffer[] = [];
                let size = 0;
                stream.on('data', (c: Buffer) => {
                  size += c.length;
                  if (size > PART_MAX) stream.destroy(new Error(`${name} too large`));
                  else chunks.push(c);
                });
                stream.on('error', rej);
                stream.on('end', () => res(Buffer.concat(chunks).toString('utf8')));
              });
            }),
        }),
      );
      zip.readEntry();
    });
  });
}

const attr = (tag: string, name: string) => new RegExp(`\\b${name}\\s*=\\s*"([^"]*)"`).exec(tag)?.[1];

/** The main part's name (no leading slash) from `_rels/.rels`, or null. */
function mainPartOf(rels: string): string | null {
  for (const m of rels.matchAll(/<(?:\w+:)?Relationship\b[^>]*>/g)) {
    const type = attr(m[0], 'Type');
    const target = attr(m[0], 'Target');
    if (!type || !target || !OFFICE_DOCUMENT_REL.test(type)) continue;
    if (attr(m[0], 'TargetMode') === 'External') continue;
    return path.posix.normalize(target.replace(/^\//, ''));
  }
  return null;
}

/** The content type `[Content_Types].xml` gives a part: its Override, else its extension's Default. */
function contentTypeOf(types: string, part: string): string | null {
  for (const m of types.matchAll(/<(?:\w+:)?Override\b[^>]*>/g)) {
    const name = attr(m[0], 'PartName');
    if (name && name.replace(/^\//, '').toLowerCase() === part.toLowerCase()) {
      return attr(m[0], 'ContentType') ?? null;
    }
  }
  const ext = part.slice(part.lastIndexOf('.') + 1).toLowerCase();
  for (const m of types.matchAll(/<(?:\w+:)?Default\b[^>]*>/g)) {
    if (attr(m[0], 'Extension')?.toLowerCase() === ext) return attr(m[0], 'ContentType') ?? null;
  }
  return null;
}

/** Throws a Chinese refusal unless `buf` is the OOXML package of a `.ext` file. */
export async function assertOoxml(ext: BrowserEditableExt, buf: Buffer): Promise<void> {
  const kind = KIND[ext];
  const notPackage = () => invalid(OFFICE_SAVE_MSG.notPackage(kind));
  let zip: Listing;
  try {
    zip = await open(buf);
  } catch {
    throw notPackage();
  }
  try {
    let rels: string | null;
    let types: string | null;
    try {
      [rels, types] = [await zip.read('_rels/.rels'), await zip.read('[Content_Types].xml')];
    } catch {
      throw notPackage();
    }
    const main = rels && mainPartOf(rels);
    if (!types || !main || !zip.names.has(main)) throw notPackage();
    const type = contentTypeOf(types, main);
    if (type === OOXML_MAIN_TYPES[ext]) return;
    const found = type ? KNOWN[type] : undefined;
    throw found ? invalid(OFFICE_SAVE_MSG.wrongPackage(found, kind)) : notPackage();
  } finally {
    zip.close();
  }
}
