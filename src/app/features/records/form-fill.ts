import type { Field } from '../../../shared/records/define';

/**
 * Filling a record form from elsewhere (a form addon such as the catalogue's 按ISBN填充): only
 * fields that are still empty take a value, so nothing a person typed is overwritten. Values
 * come as the API answers them and become what the form holds for their kind; kinds a helper
 * cannot fill this way (people, files, references) are left alone.
 */

export const isEmptyValue = (v: unknown) =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** An API value as the form holds it, for the kinds a helper may fill; undefined for the others. */
export function formValueOf(fd: Field, v: unknown): unknown {
  if (isEmptyValue(v)) return undefined;
  switch (fd.kind) {
    case 'int':
    case 'money':
      return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
    case 'status':
      return String(v);
    case 'text':
    case 'textarea':
    case 'date':
      return typeof v === 'string' ? v : String(v);
    default:
      return undefined;
  }
}

/** The values to set: each field of `patch` the form has, that is empty now, in the form's terms. */
export function emptyFieldsFilled(
  fields: Readonly<Record<string, Field>>,
  values: Readonly<Record<string, unknown>>,
  patch: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(patch)) {
    const fd = fields[k];
    const value = fd ? formValueOf(fd, v) : undefined;
    if (value !== undefined && isEmptyValue(values[k])) set[k] = value;
  }
  return set;
}
