import { describe, expect, it } from 'vitest';
import { transitionTo } from '../define';
import {
  archiveProblem,
  bsRepairManagement,
  bsRepairProject,
  recordArchiveProblem,
  recordFinishProblem,
  recordStartProblem,
  reportDeadline,
  startProblem,
} from './repair';

describe('reportDeadline (3 months after the actual end, S19)', () => {
  it('adds three calendar months, keeping the day or taking the month’s last', () => {
    expect(reportDeadline('2026-01-15')).toBe('2026-04-15');
    expect(reportDeadline('2026-11-30')).toBe('2027-02-28');
    expect(reportDeadline('2027-11-30')).toBe('2028-02-29');
    expect(reportDeadline('2026-10-31')).toBe('2027-01-31');
    expect(reportDeadline('')).toBe('');
    expect(reportDeadline(null)).toBe('');
  });
});

describe('transitionTo (status through update)', () => {
  it('finds the transition of the table, or names where the row may go', () => {
    expect(transitionTo(bsRepairProject, 1, 3)).toMatchObject({ key: 'start' });
    expect(transitionTo(bsRepairProject, 2, 3)).toMatchObject({ key: 'start' });
    expect(transitionTo(bsRepairProject, 0, 6)).toEqual({
      problem: '“立项申报”不能直接改为“已归档”，可改为：方案编制、已终止',
    });
    expect(transitionTo(bsRepairProject, 6, 0)).toEqual({
      problem: '“已归档”是最终状态，不能再改为“立项申报”',
    });
    expect(transitionTo(bsRepairManagement, 0, 3)).toEqual({
      problem: '“待修复”不能直接改为“已归档”，可改为：修复中',
    });
  });
});

describe('project guards', () => {
  const planned = { planName: '方案', planOrg: '中心', status: 1 };
  it('starts work with a plan, and a grade-1 project only once approved', () => {
    expect(startProblem({ status: 1 })).toContain('修复方案名称');
    expect(startProblem(planned)).toBeNull();
    expect(startProblem({ ...planned, hasGrade1: true })).toContain('待批复');
    expect(startProblem({ ...planned, hasGrade1: true, status: 2 })).toContain('批复文号');
    expect(
      startProblem({
        ...planned,
        hasGrade1: true,
        status: 2,
        approvalDocNo: '文物博函〔2022〕784号',
        approvalDate: '2022-06-01',
      }),
    ).toBeNull();
  });
  it('archives with the report filed in time, or late with a reason', () => {
    const base = { reportFileId: [3], actualEndDate: '2026-01-31' };
    expect(archiveProblem({ actualEndDate: '2026-01-31' })).toContain('修复报告');
    expect(archiveProblem(base)).toContain('报备日期');
    expect(archiveProblem({ ...base, filedDate: '2026-04-30' })).toBeNull();
    expect(archiveProblem({ ...base, filedDate: '2026-05-01' })).toContain('2026-04-30');
    expect(archiveProblem({ ...base, filedDate: '2026-05-01', lateReason: '补充资料' })).toBeNull();
  });
});

describe('record guards', () => {
  it('needs custody, photos, steps and the evaluation at their stages', () => {
    expect(recordStartProblem({ beforePhotoIds: [1] })).toContain('出库');
    expect(recordStartProblem({ takeOutDate: '2026-04-01', keeperId: 3, beforePhotoIds: [] })).toContain(
      '修复前照片',
    );
    expect(recordStartProblem({ takeOutDate: '2026-04-01', keeperId: 3, beforePhotoIds: [1] })).toBeNull();
    expect(recordFinishProblem({ steps: [], afterPhotoIds: [1] })).toContain('修复过程');
    expect(recordFinishProblem({ steps: [{}], afterPhotoIds: [] })).toContain('修复后照片');
    expect(recordArchiveProblem({ evaluation: '好' })).toContain('归库日期');
    expect(recordArchiveProblem({ evaluation: '好', returnDate: '2026-05-01' })).toBeNull();
  });
  it('checks custody dates in order', () => {
    const check = bsRepairManagement.check!;
    expect(check({ takeOutDate: '2026-04-01', keeperId: 3, returnDate: '2026-03-01' })).toMatchObject({
      field: 'returnDate',
    });
    expect(check({ returnDate: '2026-03-01' })).toMatchObject({ field: 'takeOutDate' });
    expect(check({ takeOutDate: '2026-04-01' })).toMatchObject({ field: 'keeperId' });
  });
});
