import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorCode } from '../../shared/api/envelope';
import { issueText } from '../../shared/api/messages';
import {
  BatchImportFields,
  IMPORT_MAX_BYTES,
  IMPORT_SUCCESS,
  IMPORT_TYPES,
  TemplateQuery,
  importLine,
  importRefusedMessage,
  type ImportDone,
  type ImportError,
} from '../../shared/records/api';
import {
  formFields,
  importFields,
  type Field,
  type Grant,
  type RecordDef,
  type Row,
} from '../../shared/records/define';
import { createSchema } from '../../shared/records/schemas';
import type { Db } from '../db/index';
import { AppError, invalid } from '../errors';
import type { Access } from '../modules/auth/access';
import type { SessionUser } from '../modules/auth/auth.service';
import { cellText, cellValue, splitNames, splitTitles, type CellLookups } from './cells';
import * as repo from './records.repo';
import { createLookups, type RecordService } from './records.service';
import { readWorkbook, sendXlsx, templateWorkbook, type SheetColumn, type SheetRow } from './xlsx';

/**
 * Batch import, `POST scheme/batchImport` (spec office.md §3, §7; §8 code 1004): a multipart
 * form with `file` (an .xlsx filled from the template), `schemeId` (what is imported: a record's
 * name such as dutyRoster, or addressBook, sysUser) and `type` (1 add, 2 add and replace rows
 * with the same key). Every row is validated by the record's own definition, with the same
 * words as its form. All or nothing: any bad row refuses the whole file with code 1004, whose
 * `result` lists every bad row and field; then nothing is saved. Success answers
 * 批量导入成功 with the counts. `GET scheme/downloadTemplate?schemeId=` gives the template.
 *
 * A scheme is one importable thing. Records get theirs from their definition; the address book
 * and people, which are hand-made modules, register their own (their services do the saving).
 */

export interface ImportContext {
  user: SessionUser;
  /** 1 add; 2 add and replace rows with the same key. */
  type: 1 | 2;
}

export interface ImportScheme {
  id: string;
  title: string;
  /** The menu grant an importer needs. */
  perm: Grant;
  /** Whether `type` 2 (replace rows with the same key) means something here. */
  replaceable: boolean;
  columns: () => Promise<SheetColumn[]>;
  /** One line at the top of 填写说明. */
  hint: string;
  /** Saves every row in one transaction, or answers every error and saves nothing. */
  run: (rows: SheetRow[], ctx: ImportContext) => Promise<ImportDone | { errors: ImportError[] }>;
}

/** Thrown inside an import's transaction to roll it back with the errors found. */
export class ImportRefused extends Error {
  constructor(readonly errors: ImportError[]) {
    super('import refused');
  }
}

/** The 1004 answer (spec §8: the dialog lists each line, titled with the message). */
export function refusal(errors: readonly ImportError[]): AppError {
  const sorted = [...errors].sort((a, b) => a.row - b.row);
  return new AppError(ErrorCode.batchImport, importRefusedMessage(sorted.length), 200, {
    errors: sorted,
    lines: sorted.map(importLine),
  });
}

const KIND_NOTES: Partial<Record<Field['kind'], string>> = {
  date: '日期，如 2026-12-01（也可以填 2026/12/1）',
  time: '时间，如 08:30',
  datetime: '日期和时间，如 2026-12-01 09:30',
  int: '整数',
  money: '金额，最多两位小数',
  bool: '填“是”或“否”',
  user: '在职人员的姓名；同名时写成“姓名（手机号）”',
  users: '在职人员的姓名，多人用顿号“、”分隔，如 王芳、李明',
  dept: '部门名称，与组织架构中一致',
  ref: '填写名称，与系统中已有的一致',
};

/** The columns of a record's template, with its dictionaries' current words. */
async function recordColumns(db: Db, def: RecordDef): Promise<SheetColumn[]> {
  const fields = importFields(def);
  const items = await repo.dictItems(
    db,
    fields.flatMap(([, fd]) => (fd.dict ? [fd.dict] : [])),
    true,
  );
  return fields.map(([key, fd]) => {
    let options: string[] | undefined;
    if (fd.dict) options = items.filter((i) => i.dict_key === fd.dict).map((i) => i.label);
    if (fd.kind === 'status') options = fd.options?.map((o) => o.label);
    if (fd.kind === 'bool') options = ['是', '否'];
    const max = fd.max && (fd.kind === 'text' || fd.kind === 'textarea') ? `不超过 ${fd.max} 个字` : '';
    return {
      key,
      header: fd.label,
      required: fd.required,
      options,
      note: [KIND_NOTES[fd.kind], fd.placeholder, fd.help, max].filter(Boolean).join('；'),
      text: fd.kind === 'text' || fd.kind === 'textarea',
      width: fd.kind === 'users' || fd.kind === 'refs' ? 24 : undefined,
    };
  });
}

/** What the cells of these rows name: dictionary words, people, departments, rows of refs by title. */
async function lookupsFor(
  db: Db,
  def: RecordDef,
  rows: readonly SheetRow[],
  defOf: (name: string) => RecordDef | undefined,
): Promise<CellLookups> {
  const fields = importFields(def);
  const items = await repo.dictItems(
    db,
    fields.flatMap(([, fd]) => (fd.dict ? [fd.dict] : [])),
    true,
  );
  const words = new Set<string>();
  const deptWords = new Set<string>();
  for (const r of rows)
    for (const [key, fd] of fields) {
      const text = cellText(r.cells[key]);
      if (!text) continue;
      if (fd.kind === 'user' || fd.kind === 'users')
        for (const w of splitNames(text)) {
          const m = /^(.+?)\s*[（(]\s*(1\d{10})\s*[)）]$/.exec(w);
          words.add(m ? m[1]! : w);
          if (m) words.add(m[2]!);
        }
      if (fd.kind === 'dept') deptWords.add(text);
    }
  const people = await repo.usersByNameOrPhone(db, [...words]);
  const depts = await repo.departmentsByName(db, [...deptWords]);
  const refRows = new Map<Field, Row[]>();
  for (const [key, fd] of fields)
    if (fd.ref) {
      const titles = rows.flatMap((r) => {
        const text = cellText(r.cells[key]);
        return fd.kind === 'refs' ? splitTitles(text) : text ? [text] : [];
      });
      refRows.set(fd, await repo.findAllIn(db, defOf(fd.ref.record)!, fd.ref.by, titles));
    }
  return {
    refs: (fd, word) => (refRows.get(fd) ?? []).filter((r) => r[fd.ref!.by] === word).map((r) => r.id),
    dict: (key) => items.filter((i) => i.dict_key === key),
    people: (w) =>
      people
        .filter((p) => p.user_name === w || p.phone === w)
        .map((p) => ({ id: Number(p.id), name: p.user_name, phone: p.phone })),
    depts: (w) => depts.filter((d) => d.name === w).map((d) => ({ id: Number(d.id), name: d.name })),
  };
}

/** A record's import scheme, from its definition alone. */
export function recordScheme(def: RecordDef, deps: { db: Db; records: RecordService }): ImportScheme {
  const { db, records } = deps;
  const schema = createSchema(def);
  const key = def.unique?.[0];
  // Files, images and lists cannot be typed into a cell: the template says which are left out.
  const left = formFields(def)
    .filter(([, fd]) => fd.importable === false && fd.kind !== 'rich')
    .map(([, fd]) => fd.label);
  return {
    id: def.name,
    title: def.title,
    perm: def.access.write,
    replaceable: Boolean(key),
    hint:
      `${def.title}导入模板：从第 2 行起每行填写一条；标 * 的列必填；有下拉列表的列请从列表中选择。` +
      (left.length ? `${left.join('、')}不能通过导入填写，请导入后在页面上补充。` : ''),
    columns: () => recordColumns(db, def),
    async run(rows, ctx) {
      const errors: ImportError[] = [];
      const label = (field: string) => def.fields[field]?.label ?? field;
      const look = await lookupsFor(db, def, rows, records.defOf);
      const ready: { row: number; values: Record<string, unknown> }[] = [];
      for (const r of rows) {
        const input: Record<string, unknown> = {};
        let bad = false;
        for (const [k, fd] of importFields(def)) {
          const got = cellValue(fd, r.cells[k], look);
          if ('problem' in got) {
            errors.push({ row: r.row, column: fd.label, message: got.problem });
            bad = true;
          } else input[k] = got.value;
        }
        if (bad) continue;
        const parsed = schema.safeParse(input);
        if (!parsed.success) {
          // One message per field: the first, as the form would show it.
          const seen = new Set<string>();
          for (const issue of parsed.error.issues) {
            const field = String(issue.path[0] ?? '');
            if (seen.has(field)) continue;
            seen.add(field);
            errors.push({ row: r.row, column: label(field), message: issueText(issue) });
          }
          continue;
        }
        ready.push({
          row: r.row,
          values: records.createValues(def, ctx.user, parsed.data as Record<string, unknown>),
        });
      }

      // Every row that read well goes through the same checks as a form, all at once in one
      // short transaction (records.checks.ts reads what the whole file refers to in a few
      // queries): rows of the file see the rows before them, and any error saves nothing.
      const write = await records.writeContext(def, ctx.user);
      try {
        return await db.transaction().execute(async (trx) => {
          let before: (Row | undefined)[] = ready.map(() => undefined);
          if (ctx.type === IMPORT_TYPES.replace && key) {
            const first = key.fields[0]!;
            const stored = await repo.findAllIn(
              trx,
              def,
              first,
              ready.map((r) => r.values[first]),
            );
            before = ready.map((r) => stored.find((x) => key.fields.every((k) => x[k] === r.values[k])));
          }
          const items = ready.map((r, i) => ({ values: r.values, before: before[i] }));
          const saved = await records.saveMany(trx, def, write, items, createLookups(trx));
          if ('problems' in saved)
            saved.problems.forEach((list, i) => {
              for (const p of list)
                errors.push({ row: ready[i]!.row, column: label(p.field), message: p.message });
            });
          if (errors.length) throw new ImportRefused(errors);
          const replaced = items.filter((p) => p.before).length;
          return { imported: items.length, created: items.length - replaced, replaced };
        });
      } catch (err) {
        if (err instanceof ImportRefused) return { errors };
        throw err;
      }
    },
  };
}

/** Reads the multipart form of scheme/batchImport: the file's bytes and the text fields. */
async function readForm(
  req: FastifyRequest,
): Promise<{ file: Buffer | null; fileName: string; fields: Record<string, string> }> {
  if (!req.isMultipart()) throw invalid('请选择要导入的 Excel 文件（.xlsx）');
  const fields: Record<string, string> = {};
  let file: Buffer | null = null;
  let fileName = '';
  const parts = req.parts({
    limits: { fileSize: IMPORT_MAX_BYTES + 1, files: 1, fields: 5, fieldSize: 200 },
  });
  for await (const part of parts) {
    if (part.type === 'file') {
      fileName = part.filename;
      try {
        file = await part.toBuffer();
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
          throw invalid(`导入文件不能超过 ${IMPORT_MAX_BYTES / 1024 / 1024}MB，请拆分后再导入`);
        throw err;
      }
    } else fields[part.fieldname] = String(part.value);
  }
  return { file, fileName, fields };
}

export function createImports() {
  const schemes = new Map<string, ImportScheme>();
  return {
    add(scheme: ImportScheme) {
      if (schemes.has(scheme.id)) throw new Error(`import scheme ${scheme.id} twice`);
      schemes.set(scheme.id, scheme);
    },
    get: (id: string) => schemes.get(id),
    ids: () => [...schemes.keys()],
  };
}
export type Imports = ReturnType<typeof createImports>;

export function importRoutes(app: FastifyInstance, deps: { imports: Imports; access: Access }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { imports, access } = deps;

  async function schemeFor(req: FastifyRequest, id: string) {
    const scheme = imports.get(id);
    if (!scheme) throw invalid(`导入类型“${id}”不存在，可选：${imports.ids().join('、')}`);
    await access.require(req.user, scheme.perm);
    return scheme;
  }

  r.get(
    '/scheme/downloadTemplate',
    { schema: { querystring: TemplateQuery }, config: { summary: '下载导入模板（xlsx）' } },
    async (req, reply) => {
      const scheme = await schemeFor(req, req.query.schemeId);
      const body = await templateWorkbook(scheme.title, await scheme.columns(), scheme.hint);
      return sendXlsx(reply, `${scheme.title}导入模板.xlsx`, body);
    },
  );

  r.post(
    '/scheme/batchImport',
    {
      config: {
        summary: '批量导入（multipart：file、schemeId、type）',
        multipart: {
          file: '由导入模板填写的 .xlsx 文件',
          schemeId: '导入类型',
          type: '1 新增；2 新增并覆盖相同的行',
        },
      },
    },
    async (req) => {
      const { file, fileName, fields } = await readForm(req);
      const form = BatchImportFields.safeParse(fields);
      if (!form.success) throw invalid(issueText(form.error.issues[0]!));
      const scheme = await schemeFor(req, form.data.schemeId);
      if (!file || !file.length) throw invalid('请选择要导入的 Excel 文件（.xlsx）');
      if (!/\.xlsx$/i.test(fileName))
        throw invalid('只能导入 .xlsx 格式的 Excel 文件，请使用页面上下载的导入模板');
      if (form.data.type === IMPORT_TYPES.replace && !scheme.replaceable)
        throw invalid(`${scheme.title}不支持覆盖导入，请选择导入方式 1（新增）`);
      const { rows, errors } = await readWorkbook(file, await scheme.columns());
      if (errors.length) throw refusal(errors);
      const result = await scheme.run(rows, { user: req.user, type: form.data.type });
      if ('errors' in result) throw refusal(result.errors);
      return { success: true, code: 0, message: IMPORT_SUCCESS, result };
    },
  );
}
