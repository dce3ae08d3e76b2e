import type { z } from 'zod';
import type { InstStartBody, StartableTemplate } from '../../../shared/api/workflow';
import { museum } from '../../lib/api';

export type Startable = z.infer<typeof StartableTemplate>;

export const startKeys = {
  startable: ['approval-start', 'startable'] as const,
};

/** The calls of 发起审批 (all under /singleMuseum). */
export const startCalls = {
  startable: (signal?: AbortSignal) =>
    museum.get<Startable[]>('/workflowTemplate/startable', { signal, silent: true }),
  /** Silent: the page shows the refusal above the submit button, where the person looks. */
  start: (body: InstStartBody, idempotencyKey: string) =>
    museum.post<{ actvityId: number }>('/workflowInst/start', body, { idempotencyKey, silent: true }),
};
