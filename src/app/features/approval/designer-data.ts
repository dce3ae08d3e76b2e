import type { z } from 'zod';
import type {
  CopytoUserList,
  PublishProblem,
  TemplateDetail,
  TemplateRow,
  TemplateSaveBody,
} from '../../../shared/api/workflow';
import type { FormField } from '../../../shared/workflow/definition';
import { ApiError, museum } from '../../lib/api';
import {
  conditionFieldsFromForm,
  parseConditionFields,
  type ConditionField,
} from '../../lib/workflow-designer';

/** The calls of 审批设置 (/approve/dispose) and their query keys. */

export type TemplateDetailData = z.infer<typeof TemplateDetail>;
export type Problem = z.infer<typeof PublishProblem>;

export const designerKeys = {
  all: ['workflow-templates'] as const,
  list: () => ['workflow-templates', 'list'] as const,
  detail: (id: number) => ['workflow-templates', 'detail', id] as const,
  picker: ['workflow-picker'] as const,
  conditions: (id: number | null, form: readonly FormField[]) =>
    ['workflow-conditions', id, JSON.stringify(form)] as const,
};

export const designerCalls = {
  list: (signal?: AbortSignal) => museum.get<TemplateRow[]>('/workflowTemplate/list', { signal }),
  detail: (id: number, signal?: AbortSignal) =>
    museum.get<TemplateDetailData>('/workflowTemplate/detail', { query: { id }, signal }),
  /** Saving shows its own failure in the editor (the form stays as typed). */
  save: (body: TemplateSaveBody) =>
    museum.post<{ id: number }>('/workflowTemplate/save', body, { idempotencyKey: crypto.randomUUID() }),
  /** Silent: a refusal carries the problems, which the editor lists instead of a toast. */
  publish: (id: number) =>
    museum.post<{ version: number }>('/workflowTemplate/publish', { id }, { silent: true }),
  enable: (id: number, enabled: 0 | 1) =>
    museum.post<null>('/workflowTemplate/enable', { id, enabled }, { idempotencyKey: crypto.randomUUID() }),
  picker: (signal?: AbortSignal) =>
    museum.post<CopytoUserList>('/workflowConfig/copytoUserList', {}, { signal }),
  /**
   * The condition fields of a template's form. The server's catalogue (POST
   * /workflowConfig/condition) is asked first; when it is not there (404, an older server) or the
   * template is not saved yet, they are derived here from the form being edited, which is what
   * the server reads too.
   */
  async conditions(
    templateId: number | null,
    form: readonly FormField[],
    signal?: AbortSignal,
  ): Promise<{ fields: ConditionField[]; derived: boolean }> {
    if (templateId !== null) {
      try {
        const raw = await museum.post<unknown>(
          '/workflowConfig/condition',
          { templateId },
          { silent: true, signal },
        );
        const parsed = parseConditionFields(raw, form);
        if (parsed) return { fields: parsed, derived: false };
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
      }
    }
    return { fields: conditionFieldsFromForm(form), derived: true };
  },
};

/** The node-by-node reasons of a refused publish, when the server sent them. */
export function problemsOf(err: unknown): Problem[] | null {
  if (!(err instanceof ApiError)) return null;
  const extra = err.extra as { problems?: unknown } | null | undefined;
  if (!extra || !Array.isArray(extra.problems)) return null;
  return extra.problems.filter(
    (p): p is Problem =>
      !!p &&
      typeof p === 'object' &&
      typeof (p as Problem).nodeName === 'string' &&
      typeof (p as Problem).message === 'string',
  );
}
