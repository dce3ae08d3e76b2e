import { z } from 'zod';

/** Building blocks shared by the API contracts. */

/** Turns a shared rule (a Chinese message or null) into a zod refinement, so forms and server say the same words. */
export function rule(check: (v: string) => string | null) {
  return (v: string, ctx: z.RefinementCtx) => {
    const problem = check(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  };
}

export const Id = z.coerce.number().int().positive('参数不正确');

/**
 * A list of ids as the spec sends it: JSON text of `[{<key>: id}]` (or that array itself).
 * Answers the distinct ids; 1–1000 of them.
 */
export function idListField<K extends string>(key: K, what: string) {
  const item = z.object({ [key]: Id } as Record<K, typeof Id>);
  const list = z.array(item).min(1, '请选择文件').max(1000, '一次最多操作 1000 项');
  return z.union([z.string(), z.array(item)]).transform((v, ctx) => {
    let arr: unknown = v;
    if (typeof v === 'string') {
      try {
        arr = JSON.parse(v);
      } catch {
        ctx.addIssue({ code: 'custom', message: `${what}格式不正确` });
        return z.NEVER;
      }
    }
    const parsed = list.safeParse(arr);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? `${what}格式不正确` });
      return z.NEVER;
    }
    return [...new Set(parsed.data.map((f) => (f as Record<string, number>)[key]!))];
  });
}
