import type { RecordDef } from '../../../shared/records/define';
import { formFields, plainValue } from '../../../shared/records/define';

/**
 * The collection's pure rules (unit-tested in collection.rules.test.ts): what a 修改 changes, in
 * words a reviewer reads in the approval panel.
 */
export const KIND_WORDS: Record<number, string> = { 1: '新增藏品', 2: '修改藏品', 3: '提取高清图' };

const same = (a: unknown, b: unknown): boolean => {
  const norm = (v: unknown) =>
    v === undefined || v === null || v === ''
      ? ''
      : Array.isArray(v)
        ? v.map(Number).join(',')
        : String(v).trim();
  return norm(a) === norm(b);
};

/** The form fields whose value differs between the stored row and the asked one. */
export function changedFields(
  def: RecordDef,
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
  words: (field: string, value: unknown) => string = (field, v) => plainValue(def.fields[field]!, v),
): { field: string; label: string; before: string; after: string }[] {
  return formFields(def).flatMap(([key, fd]) => {
    if (same(before[key], after[key])) return [];
    const say = (v: unknown) => (v === undefined || v === null || v === '' ? '' : words(key, v));
    if (fd.kind === 'image' || fd.kind === 'file') {
      const b = Array.isArray(before[key]) ? (before[key] as unknown[]).length : 0;
      const a = Array.isArray(after[key]) ? (after[key] as unknown[]).length : 0;
      return [{ field: key, label: fd.label, before: describeImages(b), after: describeImages(a) }];
    }
    return [{ field: key, label: fd.label, before: say(before[key]), after: say(after[key]) }];
  });
}

export const describeImages = (n: number) => (n ? `${n} 张图片` : '无图片');
