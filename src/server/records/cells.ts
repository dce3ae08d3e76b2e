import type { Field } from '../../shared/records/define';

/**
 * Reading one xlsx cell as the value a record's field takes (the import of
 * scheme/batchImport). Spreadsheets hold dates as dates or serial numbers, people by name and
 * choices by their words, so each kind is read the way an office clerk types it; the field's own
 * schema then judges the result with the same words as the form. Pure: the caller passes what a
 * name or a word resolves to.
 */

export interface CellLookups {
  /** The dictionary items of a dict field: [label, value]. */
  dict: (key: string) => readonly { label: string; value: string }[];
  /** Enabled people with this name or phone. */
  people: (word: string) => readonly { id: number; name: string; phone: string | null }[];
  /** Departments with this name. */
  depts: (word: string) => readonly { id: number; name: string }[];
  /** The rows of a ref field's record whose title (its `by` field) is this word: their ids. */
  refs?: (fd: Field, word: string) => readonly number[];
}

export type CellResult = { value: unknown } | { problem: string };

const pad = (n: number) => String(n).padStart(2, '0');

/** A cell as text, whatever ExcelJS gave: rich text, a hyperlink, a formula's result. */
export function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return cell.toISOString();
  if (typeof cell === 'object') {
    const c = cell as { richText?: { text: string }[]; text?: unknown; result?: unknown };
    if (Array.isArray(c.richText))
      return c.richText
        .map((r) => r.text)
        .join('')
        .trim();
    if (c.result !== undefined) return cellText(c.result);
    if (c.text !== undefined) return cellText(c.text);
    return '';
  }
  return String(cell).trim();
}

/** Excel's day 0 (serial numbers count from 1899-12-30, the 1900 leap-year bug included). */
const EXCEL_EPOCH = Date.UTC(1899, 11, 30);

/** A date cell or text as 'yyyy-MM-dd', or the text unchanged for the field to refuse. */
export function cellDate(cell: unknown): string {
  if (cell instanceof Date) return cell.toISOString().slice(0, 10);
  if (typeof cell === 'number' && cell > 0 && cell < 2_958_466)
    return new Date(EXCEL_EPOCH + Math.floor(cell) * 86_400_000).toISOString().slice(0, 10);
  const s = cellText(cell);
  const m = /^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?$/.exec(s);
  return m ? `${m[1]}-${pad(Number(m[2]))}-${pad(Number(m[3]))}` : s;
}

/** A time cell (a day fraction or a Date on 1899-12-30) or 'H:mm' text as 'HH:mm'. */
export function cellTime(cell: unknown): string {
  if (cell instanceof Date) return `${pad(cell.getUTCHours())}:${pad(cell.getUTCMinutes())}`;
  if (typeof cell === 'number' && cell >= 0 && cell < 1) {
    const minutes = Math.round(cell * 24 * 60);
    return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
  }
  const s = cellText(cell);
  const m = /^(\d{1,2})[:：](\d{2})$/.exec(s);
  return m ? `${pad(Number(m[1]))}:${m[2]}` : s;
}

/** Several names in one cell: 王芳、李明 or 王芳,李明 or 王芳 李明. */
/** The titles of a refs cell: 讲解组、咨询组 (a title may hold a space or a slash, so only lists' separators split). */
export function splitTitles(s: string): string[] {
  return s
    .split(/[、,，;；\n]+/)
    .map((x) => x.trim())
    .filter(Boolean);
}

export function splitNames(s: string): string[] {
  return s
    .split(/[、,，;；/\s]+/)
    .map((x) => x.trim())
    .filter(Boolean);
}

/** 张三（13800000001） or 张三(13800000001): the phone picks one of two people of the same name. */
function onePerson(fd: Field, word: string, look: CellLookups): CellResult {
  const m = /^(.+?)\s*[（(]\s*(1\d{10})\s*[)）]$/.exec(word);
  const name = m ? m[1]! : word;
  const phone = m ? m[2]! : null;
  let found = look.people(name);
  if (phone) found = look.people(phone).filter((p) => p.name === name);
  else if (/^1\d{10}$/.test(word)) found = look.people(word);
  else found = found.filter((p) => p.name === name);
  if (found.length === 1) return { value: found[0]!.id };
  if (found.length > 1)
    return { problem: `${fd.label}“${word}”有 ${found.length} 位同名人员，请写成“姓名（手机号）”` };
  return { problem: `${fd.label}“${word}”不是在职人员的姓名或手机号` };
}

/** The value an import cell gives a field, or what is wrong with it (unknown words, people). */
export function cellValue(fd: Field, cell: unknown, look: CellLookups): CellResult {
  const text = cellText(cell);
  if (text === '' && !(cell instanceof Date)) return { value: undefined };
  switch (fd.kind) {
    case 'date':
      return { value: cellDate(cell) };
    case 'time':
      return { value: cellTime(cell) };
    case 'datetime': {
      if (cell instanceof Date) {
        const iso = new Date(cell.getTime()).toISOString();
        return { value: `${iso.slice(0, 10)} ${iso.slice(11, 16)}` };
      }
      return { value: text };
    }
    case 'int':
    case 'money':
      return { value: typeof cell === 'number' ? cell : text };
    case 'bool':
      return { value: text };
    case 'status': {
      const hit = fd.options?.find((o) => o.label === text || String(o.value) === text);
      return hit
        ? { value: hit.value }
        : {
            problem: `${fd.label}“${text}”不是可选项（可选：${fd.options?.map((o) => o.label).join('、')}）`,
          };
    }
    case 'dict': {
      const items = look.dict(fd.dict!);
      const hit = items.find((i) => i.label === text) ?? items.find((i) => i.value === text);
      if (hit) return { value: hit.value };
      const some = items.slice(0, 10).map((i) => i.label);
      return {
        problem: `${fd.label}“${text}”不是可选项（可选：${some.join('、')}${items.length > 10 ? '…' : ''}）`,
      };
    }
    case 'user':
      return onePerson(fd, text, look);
    case 'users': {
      const ids: number[] = [];
      for (const word of splitNames(text)) {
        const r = onePerson(fd, word, look);
        if ('problem' in r) return r;
        ids.push(r.value as number);
      }
      return { value: ids };
    }
    case 'dept': {
      const found = look.depts(text);
      if (found.length === 1) return { value: found[0]!.id };
      return {
        problem:
          found.length > 1
            ? `${fd.label}“${text}”有重名部门，请联系管理员`
            : `${fd.label}“${text}”不是现有部门`,
      };
    }
    case 'ref':
      return oneRef(fd, text, look);
    case 'refs': {
      // Names joined by 、 (or , ; or new lines), as the export writes them; a name may hold a space.
      const ids: number[] = [];
      for (const word of splitTitles(text)) {
        const r = oneRef(fd, word, look);
        if ('problem' in r) return r;
        ids.push(r.value as number);
      }
      return { value: ids };
    }
    default:
      return { value: text };
  }
}

/** A row of a ref's record named by its title. */
function oneRef(fd: Field, text: string, look: CellLookups): { value: unknown } | { problem: string } {
  const found = look.refs?.(fd, text) ?? [];
  if (found.length === 1) return { value: found[0] };
  return {
    problem:
      found.length > 1
        ? `${fd.label}“${text}”有 ${found.length} 条同名记录，请导入后在页面上选择`
        : `找不到${fd.label}“${text}”，请核对名称`,
  };
}
