import { describe, expect, it } from 'vitest';
import {
  clearDraft,
  fieldErrors,
  loadDraft,
  rangeDuration,
  saveDraft,
  toFormValues,
  type StartDraft,
} from '../../src/app/lib/approval-start';
import type { FormField } from '../../src/shared/workflow/definition';
import { LEAVE_FIELDS } from '../../src/shared/workflow/seed-flows';

/** 发起审批's pure helpers: the live duration, the form sent to the server, per-field problems, drafts. */

describe('rangeDuration', () => {
  it('counts days with both ends included, a single day being 1, half days by 上午/下午', () => {
    expect(rangeDuration({ start: '2026-03-02', end: '2026-03-04' }, 1)).toBe(3);
    expect(rangeDuration({ start: '2026-03-02', end: '2026-03-02' }, 1)).toBe(1);
    expect(rangeDuration({ start: '2026-03-02', end: '2026-03-02', endHalf: 'am' }, 1)).toBe(0.5);
    expect(rangeDuration({ start: '2026-03-02', end: '2026-03-04', startHalf: 'pm' }, 1)).toBe(2.5);
    expect(
      rangeDuration({ start: '2026-03-02', end: '2026-03-02', startHalf: 'pm', endHalf: 'am' }, 1),
    ).toBeNull();
    // Across a month end and a leap day.
    expect(rangeDuration({ start: '2028-02-28', end: '2028-03-01' }, 1)).toBe(3);
  });

  it('counts hours between two museum times, with 2 decimals', () => {
    expect(rangeDuration({ start: '2026-03-02 09:00', end: '2026-03-02 17:30' }, 0)).toBe(8.5);
    expect(rangeDuration({ start: '2026-03-02 09:00', end: '2026-03-02 09:20' }, 0)).toBe(0.33);
    expect(rangeDuration({ start: '2026-03-02 22:00', end: '2026-03-03 02:00' }, 0)).toBe(4);
  });

  it('is null while a side is missing or invalid, or the end is before the start', () => {
    expect(rangeDuration({ start: '2026-03-02', end: '' }, 1)).toBeNull();
    expect(rangeDuration({ start: '2026-02-30', end: '2026-03-02' }, 1)).toBeNull();
    expect(rangeDuration({ start: '2026-03-04', end: '2026-03-02' }, 1)).toBeNull();
    expect(rangeDuration({ start: '2026-03-02 10:00', end: '2026-03-02 09:00' }, 0)).toBeNull();
    // A day where hours are wanted is not a time.
    expect(rangeDuration({ start: '2026-03-02', end: '2026-03-03' }, 0)).toBeNull();
  });
});

const FIELDS: FormField[] = [
  { id: 'amount', type: 'amount', label: '报销金额（元）', required: true },
  { id: 'who', type: 'person', label: '同行人', required: false },
  { id: 'files', type: 'attachment', label: '票据', required: false },
  { id: 'period', type: 'dateRange', label: '请假时间', required: true, unit: 1 },
];

describe('toFormValues', () => {
  it('sends ids for people and attachments, and a range with its computed duration', () => {
    const draft: StartDraft = {
      priority: 1,
      values: {
        amount: '6000.5',
        who: [{ id: 7, name: '李明' }],
        files: [{ attId: 3, attName: 'a.pdf', attPath: '/x', attFileTypeStr: 'pdf', attSize: 1 }],
        period: { start: '2026-03-02', end: '2026-03-06' },
      },
    };
    expect(toFormValues(FIELDS, draft)).toEqual({
      amount: '6000.5',
      who: [7],
      files: [3],
      period: { start: '2026-03-02', end: '2026-03-06', startHalf: 'am', endHalf: 'pm', duration: 5 },
    });
  });

  it('sends the halves of a range in days, and the half-day length', () => {
    const draft: StartDraft = {
      priority: 1,
      values: { period: { start: '2026-03-02', end: '2026-03-03', startHalf: 'pm', endHalf: 'am' } },
    };
    const values = toFormValues(FIELDS, draft);
    expect(values.period).toEqual({
      start: '2026-03-02',
      end: '2026-03-03',
      startHalf: 'pm',
      endHalf: 'am',
      duration: 1,
    });
    expect(fieldErrors(FIELDS, values).period).toBeUndefined();
  });

  it('leaves an untouched range out, so a required one is reported as missing', () => {
    const values = toFormValues(FIELDS, { priority: 1, values: { period: { start: '', end: '' } } });
    expect(values).toEqual({});
    expect(fieldErrors(FIELDS, values).period).toBe('请填写“请假时间”');
  });
});

describe('fieldErrors', () => {
  it('reports every field at once, in the shared checkForm words', () => {
    const values = toFormValues(LEAVE_FIELDS, {
      priority: 1,
      values: { period: { start: '2026-03-06', end: '2026-03-02' }, reason: '  ' },
    });
    expect(fieldErrors(LEAVE_FIELDS, values)).toEqual({
      leaveType: '请填写“请假类型”',
      period: '“请假时间”的结束时间不能早于开始时间',
      reason: '请填写“请假事由”',
    });
  });

  it('refuses an amount with more than 2 decimals and accepts a filled form', () => {
    const bad = toFormValues(FIELDS, {
      priority: 1,
      values: { amount: '1.234', period: { start: '2026-03-02', end: '2026-03-02' } },
    });
    expect(fieldErrors(FIELDS, bad)).toEqual({ amount: '“报销金额（元）”：最多保留 2 位小数' });
    const good = toFormValues(FIELDS, {
      priority: 1,
      values: { amount: '12.5', period: { start: '2026-03-02', end: '2026-03-02' } },
    });
    expect(fieldErrors(FIELDS, good)).toEqual({});
  });
});

describe('drafts', () => {
  it('are kept per user and template until cleared', () => {
    const draft: StartDraft = { priority: 2, values: { reason: '家中有事' } };
    saveDraft(1, 10, draft);
    expect(loadDraft(1, 10)).toEqual(draft);
    expect(loadDraft(1, 11)).toEqual({ priority: 1, values: {} });
    expect(loadDraft(2, 10)).toEqual({ priority: 1, values: {} });
    clearDraft(1, 10);
    expect(loadDraft(1, 10)).toEqual({ priority: 1, values: {} });
  });
});
