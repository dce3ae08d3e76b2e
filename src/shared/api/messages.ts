import { z } from 'zod';
import { labelOf } from './labels';

/**
 * Validation messages in Chinese that name the field, as a property of the validation layer
 * rather than of each schema: zod's error map is replaced once (below, on import) so any issue
 * a schema did not word itself reads `<字段><问题>` (分片序号必须是数字, 文件名称不能超过 255 个字符),
 * and `issueText` makes sure a message a schema did word still says which field it is about.
 * The server's envelope and every hand-parsed route answer with `issueText`; the app's forms get
 * the same words because they validate with the same schemas.
 */

/** What a custom issue is about, when a shared builder (Flag, lists) raised it. */
export type IssueKind = 'flag' | 'idList' | 'objectList';

type Path = readonly PropertyKey[];

/**
 * The Chinese name of the field at `path`: `文件名称`; inside a list `文件列表第 1 项的文件编号`.
 * Null for the whole request (a rule across fields words its own message).
 */
export function fieldName(path: Path): string | null {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `第 ${seg + 1} 项`;
    else {
      const key = String(seg);
      const label = labelOf(key) ?? `字段“${key}”`;
      out += out ? `的${label}` : label;
    }
  }
  return out || null;
}

/** The objects-list example each list field shows in its message. */
function listExample(path: Path): string {
  const key = String(path[path.length - 1] ?? '');
  const item = key === 'recoveryFileIds' ? 'recoveryFileId' : 'userFileId';
  return `[{"${item}": 1}]`;
}

const TYPE_WORDS: Record<string, string> = {
  number: '数字',
  int: '整数',
  bigint: '整数',
  string: '文字',
  array: '列表',
  object: '对象',
  date: '日期',
};

/**
 * The message for one issue zod raised without a message of its own. `named` is the field's
 * own label when a schema knows it (a record's field says 值班电话 whatever its key); without
 * it the key's label is looked up.
 */
export function zhIssue(iss: z.core.$ZodRawIssue, named?: string): string {
  const path = iss.path ?? [];
  const name = named ?? fieldName(path) ?? '请求内容';
  const params = (iss as { params?: { kind?: IssueKind } }).params;
  switch (iss.code) {
    case 'invalid_type': {
      // The body itself is not an object (a JSON array, a bare number).
      if (path.length === 0) return '请求内容格式不正确：应为 JSON 对象 {…}';
      if (iss.input === undefined) return `请填写${name}`;
      if (iss.expected === 'boolean') return `${name}只能是 true 或 false（也可以是 1 或 0）`;
      const want = TYPE_WORDS[iss.expected];
      return want ? `${name}必须是${want}` : `${name}格式不正确`;
    }
    case 'too_big': {
      const max = Number(iss.maximum);
      const limit = iss.inclusive === false ? max - 1 : max;
      if (iss.origin === 'string') return `${name}不能超过 ${limit} 个字符`;
      if (iss.origin === 'array' || iss.origin === 'set') return `${name}最多 ${limit} 项`;
      if (iss.origin === 'file') return `${name}过大`;
      return iss.inclusive === false ? `${name}必须小于 ${max}` : `${name}不能大于 ${max}`;
    }
    case 'too_small': {
      const min = Number(iss.minimum);
      if (iss.origin === 'string') return min <= 1 ? `请填写${name}` : `${name}不能少于 ${min} 个字符`;
      if (iss.origin === 'array' || iss.origin === 'set')
        return min <= 1 ? `请选择${name}` : `${name}至少 ${min} 项`;
      return iss.inclusive === false ? `${name}必须大于 ${min}` : `${name}不能小于 ${min}`;
    }
    case 'invalid_format':
      return `${name}格式不正确`;
    case 'not_multiple_of':
      return `${name}必须是 ${String(iss.divisor)} 的倍数`;
    case 'invalid_value': {
      const values = iss.values.map((v) => String(v));
      return values.length > 0 && values.length <= 8
        ? `${name}不正确，可选：${values.join('、')}`
        : `${name}不正确`;
    }
    case 'unrecognized_keys':
      return `${name}含有不认识的字段：${iss.keys.join('、')}`;
    case 'custom':
      if (params?.kind === 'flag') return `${name}只能是 true 或 false（也可以是 1 或 0）`;
      if (params?.kind === 'idList') return `${name}必须是编号或编号列表，例如 5 或 [5, 6]`;
      if (params?.kind === 'objectList') return `${name}格式不正确：应为 ${listExample(path)} 这样的列表`;
      return `${name}不正确`;
    default:
      return `${name}格式不正确`;
  }
}

const CHINESE = /[\u4e00-\u9fa5]/;

/**
 * The words to answer for one finished issue. A message a schema wrote in Chinese is kept as
 * written (its author chose words a person can act on: 请选择链接有效期); inside a list the
 * item's place is added when the words do not say it (文件列表第 2 项：…). Anything else gets
 * zhIssue's words. The path may come back as fastify-type-provider-zod's `/files/0/userFileId`.
 */
export function issueText(issue: { path?: Path; message?: string }): string {
  const path = issue.path ?? [];
  const msg = issue.message ?? '';
  const name = fieldName(path);
  if (!CHINESE.test(msg)) return zhIssue({ path, code: 'custom', input: null } as z.core.$ZodRawIssue);
  if (!name || !path.some((p) => typeof p === 'number') || msg.includes(name)) return msg;
  return `${name}：${msg}`;
}

/**
 * A schema-level error map for a field that knows its own label (zod 4's `error` parameter: it
 * words every issue of that schema, its checks included, unless a check wrote its own message).
 * `verb` is what an empty value asks for: 请填写 for text, 请选择 for pickers.
 */
export function labelledIssue(label: string, verb: '请填写' | '请选择' = '请填写') {
  return (iss: z.core.$ZodRawIssue): string => {
    if (iss.code === 'invalid_type' && iss.input === undefined) return `${verb}${label}`;
    if (iss.code === 'too_small' && iss.origin === 'array' && Number(iss.minimum) <= 1)
      return `请选择${label}`;
    return zhIssue(iss, label);
  };
}

/** `/files/0/userFileId` (fastify-type-provider-zod's instancePath) as a path. */
export function pathOf(instancePath: string): PropertyKey[] {
  return instancePath
    .split('/')
    .filter(Boolean)
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

z.config({ customError: (iss) => zhIssue(iss) });
