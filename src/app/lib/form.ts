import type { z } from 'zod';

/**
 * Adapts a shared zod schema to Mantine's `useForm({ validate })`, so a form shows the very
 * sentence the server would answer with for the same value. Keys are the issue paths joined
 * with dots (`deptIds.0`, `password`), as Mantine names its fields; only the first message of
 * each field is kept because an input shows one error at a time.
 */
export function zodValidate(schema: z.ZodType) {
  return (values: unknown): Record<string, string> => {
    const result = schema.safeParse(values);
    if (result.success) return {};
    const errors: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const path = issue.path.map(String).join('.');
      errors[path] ??= issue.message;
    }
    return errors;
  };
}
