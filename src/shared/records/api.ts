import { z } from 'zod';
import { Attachment } from '../api/attach';
import { addRecordLabels } from '../api/labels';

/**
 * What the records engine's calls answer, shared by the server (and its OpenAPI document) and
 * the app. A row is the record's fields plus the base columns (id, createTime, createBy,
 * updateTime, updateBy); people and departments come as ids, with their names beside the list.
 */

export const RecordRow = z.record(z.string(), z.unknown());
export type RecordRow = Record<string, unknown> & { id: number; createTime: number; updateTime: number };

/**
 * What the ids of a page of rows stand for: people and departments by name, the files of file
 * and image fields by attachment id, and the rows ref fields point to by record name and id
 * (their `by` field; a row the caller may not read is left out).
 */
export const RecordNames = z.object({
  users: z.record(z.string(), z.string()),
  depts: z.record(z.string(), z.string()),
  files: z.record(z.string(), Attachment).optional(),
  refs: z.record(z.string(), z.record(z.string(), z.string())).optional(),
});
export type RecordNames = z.infer<typeof RecordNames>;

/** A list call's answer: one page, the total, names, and for records with a status the count per status. */
export const RecordPage = z.object({
  list: z.array(RecordRow),
  total: z.number(),
  names: RecordNames,
  /** Rows per status under the same filters, status aside (the quick-count tabs). */
  counts: z.array(z.object({ value: z.number(), count: z.number() })).optional(),
});
export type RecordPage = Omit<z.infer<typeof RecordPage>, 'list'> & { list: RecordRow[] };

/** One line of a record's status history (bsStatusLog), the detail drawer's timeline. */
export const StatusLine = z.object({
  action: z.string(),
  /** The transition's words (发布), or 新建. */
  actionLabel: z.string(),
  fromStatus: z.number().nullable(),
  toStatus: z.number(),
  operatorId: z.number().nullable(),
  operatorName: z.string(),
  comment: z.string(),
  time: z.number(),
});
export type StatusLine = z.infer<typeof StatusLine>;

/** A detail call's answer: the row, the names it refers to and its status history. */
export const RecordDetail = z.object({
  record: RecordRow,
  names: RecordNames,
  log: z.array(StatusLine),
});
export type RecordDetail = Omit<z.infer<typeof RecordDetail>, 'record'> & { record: RecordRow };

// Batch import (spec office.md §3 "Batch import form: file, schemeId, type"; §8 code 1004) --------

/**
 * `type` of scheme/batchImport: 1 adds every row (a row that repeats an existing one is an
 * error); 2 also replaces the stored row with the same key (a duty slot), for a roster
 * re-imported after a change. Our reading; the spec shows only the field.
 */
export const IMPORT_TYPES = { add: 1, replace: 2 } as const;

export const BatchImportFields = z.object({
  schemeId: z.string('请选择导入类型').trim().min(1, '请选择导入类型').max(50, '导入类型不正确'),
  type: z.preprocess(
    (v) => (v === undefined || v === '' ? 1 : typeof v === 'string' ? Number(v) : v),
    z.union([z.literal(1), z.literal(2)], {
      error: () => '导入方式只能是 1（新增）或 2（新增并覆盖相同的行）',
    }),
  ),
});

export const TemplateQuery = z.object({
  schemeId: z.string('请选择导入类型').trim().min(1, '请选择导入类型').max(50, '导入类型不正确'),
});

addRecordLabels({ schemeId: '导入类型', orderBy: '排序字段' });

/** One bad cell or row of an import: its Excel row number, the column and what is wrong. */
export const ImportError = z.object({ row: z.number(), column: z.string(), message: z.string() });
export type ImportError = z.infer<typeof ImportError>;

/** The 1004 answer's `result`: every error, and each as a line for the dialog. */
export const ImportRefusal = z.object({ errors: z.array(ImportError), lines: z.array(z.string()) });
export type ImportRefusal = z.infer<typeof ImportRefusal>;

export const ImportDone = z.object({ imported: z.number(), created: z.number(), replaced: z.number() });
export type ImportDone = z.infer<typeof ImportDone>;

/** The success message of the spec (§8 "batch import succeeded"). */
export const IMPORT_SUCCESS = '批量导入成功';
/** The most rows one file may hold. */
export const IMPORT_MAX_ROWS = 5000;
/** The largest file one import takes. */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;

export function importLine(e: ImportError): string {
  return e.row > 0 ? `第 ${e.row} 行：${e.message}` : e.message;
}

/** What 1004 says: how many errors, and that nothing was imported. */
export function importRefusedMessage(n: number): string {
  return `导入失败：文件中有 ${n} 处错误，未导入任何数据。请按下列提示修改后重新导入`;
}
