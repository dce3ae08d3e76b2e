import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { M, attachUpload, personWithMenu, userIdOf } from './util';
import { jsonCalls } from './volunteer-util';

/**
 * Conservation and repair (README "Conservation and repair (issue 24)"; records-design §6): a
 * project's stages 立项申报 → 已归档 through `update`, each guard in its words, the grade-1 rules
 * (NCHA approval before work, the project ticked 含一级文物 before a grade-1 object joins, its
 * archive hidden from readers), custody hand-over (出库/归库 with the storeroom keeper), the
 * report deadline (3 months, 报备临期), other users' ids and bad input. The generic record suite
 * covers the records' own calls.
 */

let s: TestServer;
let admin: string;
let conservator: string;
let reader: string;
let keeper: number;
let restorer: number;
const { post, get, ok, refused } = jsonCalls(() => s);
const P = `${M}/repair/bsRepairProject`;
const R = `${M}/repair/bsRepairManagement`;
let n = 0;

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  admin = await s.login('admin');
  conservator = await s.login('staff08');
  reader = await personWithMenu(s, 'repairreader', ['repair.cultural']);
  keeper = await userIdOf(s, 'staff04');
  restorer = await userIdOf(s, 'staff08');
});
afterAll(async () => s?.close());

const project = (extra: Record<string, unknown> = {}) => ({
  projectNo: `XF-T-${++n}`,
  name: `青铜器修复项目${n}`,
  projectType: 1,
  hasGrade1: false,
  undertaker: '省文物保护中心',
  licenceNo: '文保修复(甲)001',
  principalId: restorer,
  startDate: '2026-03-01',
  plannedEndDate: '2026-12-31',
  ...extra,
});

async function newProject(extra: Record<string, unknown> = {}, token = conservator) {
  const body = project(extra);
  const { id } = ok(await post(`${P}/save`, token, body));
  return { ...body, id: id as number };
}
const projectRow = async (id: number, token = conservator) =>
  ok(await get(`${P}/detail?id=${id}`, token)).record;
/** `update` with the whole form and a status: the way every stage moves. */
const moveProject = (body: Record<string, unknown>, status: number, extra: Record<string, unknown> = {}) =>
  post(`${P}/update`, conservator, { ...body, ...extra, status });

/** A project under way (实施中), without grade-1 objects. */
async function underWay(extra: Record<string, unknown> = {}) {
  const p = await newProject({ planName: '修复方案', planOrg: '省文物保护中心', ...extra });
  ok(await moveProject(p, 1));
  ok(await moveProject(p, 3));
  return p;
}

async function record(projectId: number, extra: Record<string, unknown> = {}, token = conservator) {
  const body = {
    projectId,
    archiveNo: `DA-T-${++n}`,
    relicName: `青铜鼎${n}`,
    registerNo: `Z${10000 + n}`,
    category: '4',
    level: '2',
    era: '西周',
    material: '11',
    completeness: '3',
    preservation: '3',
    diseases: [{ type: '矿化', part: '腹部', severity: 3 }],
    beforePhotoIds: [await attachUpload(s, token, 'bsRepairManagement', 'image')],
    restorerIds: [restorer],
    ...extra,
  };
  const r = await post(`${R}/add`, token, body);
  return { r, body };
}
async function newRecord(projectId: number, extra: Record<string, unknown> = {}) {
  const { r, body } = await record(projectId, extra);
  return { ...body, id: ok(r).id as number };
}
const recordRow = async (id: number, token = conservator) =>
  ok(await get(`${R}/detail?id=${id}`, token)).record;
const moveRecord = (body: Record<string, unknown>, status: number, extra: Record<string, unknown> = {}) =>
  post(`${R}/update`, conservator, { ...body, ...extra, status });

describe('a project through its stages', () => {
  it('walks 立项申报 → 方案编制 → 实施中 → 待验收 → 已验收 → 已归档, each stage logged', async () => {
    const p = await newProject();
    expect((await projectRow(p.id)).status).toBe(0);
    // The plan is asked for before work starts.
    ok(await moveProject(p, 1));
    expect(refused(await moveProject(p, 3))).toContain('修复方案名称');
    const planned = { ...p, planName: '青铜器修复方案', planOrg: '省文物保护中心' };
    // Without a grade-1 object there is nothing to approve: 待批复 is skipped.
    expect(refused(await moveProject(planned, 2))).toContain('无需报国家文物局批复');
    ok(await moveProject(planned, 3));
    const r = await newRecord(p.id, { takeOutDate: '2026-04-01', keeperId: keeper });
    // Acceptance waits for every object and for the actual end.
    expect(refused(await moveProject(planned, 4))).toContain('实际完成日期');
    const ended = { ...planned, actualEndDate: '2026-10-31' };
    expect(refused(await moveProject(ended, 4))).toBe('项目下还有 1 件文物未完成修复，完成后再提交验收');
    ok(await moveRecord(r, 1));
    const done = { ...r, steps: [{ date: '2026-05-01', step: '清洗' }] };
    ok(
      await moveRecord(done, 2, {
        afterPhotoIds: [await attachUpload(s, conservator, 'bsRepairManagement', 'image')],
      }),
    );
    ok(await moveProject(ended, 4));
    expect(refused(await moveProject(ended, 5))).toBe('请填写验收日期');
    expect(
      refused(await moveProject(ended, 5, { acceptanceDate: '2026-11-10', acceptanceResult: 2 })),
    ).toContain('合格');
    const accepted = { ...ended, acceptanceDate: '2026-11-10', acceptanceResult: 1 };
    ok(await moveProject(accepted, 5));
    expect(refused(await moveProject(accepted, 6))).toBe('请先上传修复报告后再归档');
    const report = [await attachUpload(s, conservator, 'bsRepairProject', 'file', '修复报告.pdf')];
    const filed = { ...accepted, reportFileId: report, filedDate: '2026-12-20' };
    ok(await moveProject(filed, 6));
    const row = await projectRow(p.id);
    expect(row).toMatchObject({ status: 6, reportDeadline: '2027-01-31' });
    const log = ok(await get(`${P}/detail?id=${p.id}`, conservator)).log.map((l: any) => l.toStatus);
    expect(log).toEqual([0, 1, 3, 4, 5, 6]);
    // An archived project is closed: no change, no status, no delete.
    expect(refused(await post(`${P}/update`, conservator, { ...filed, name: '改名' }))).toBe(
      '项目已归档，不能再修改',
    );
    expect(refused(await moveProject(filed, 9, { reason: 'x' }))).toBe('项目已归档，不能再修改');
    expect(refused(await post(`${P}/delete`, conservator, { id: p.id }))).toContain('不能删除');
  });

  it('refuses a status the table does not lead to, and a status that is not one, in words', async () => {
    const p = await newProject();
    expect(refused(await moveProject(p, 6))).toBe('“立项申报”不能直接改为“已归档”，可改为：方案编制、已终止');
    const bad = await moveProject(p, 7);
    expect(bad.body.success).toBe(false);
    expect(bad.body.message).toContain('状态不正确');
    expect((await projectRow(p.id)).status).toBe(0);
  });

  it('sends an acceptance that failed back to work, and terminates only with a reason', async () => {
    const p = await underWay({ actualEndDate: '2026-10-01' });
    ok(await moveProject(p, 4));
    expect(refused(await moveProject(p, 3))).toContain('不合格');
    ok(await moveProject(p, 3, { acceptanceResult: 2 }));
    expect((await projectRow(p.id)).status).toBe(3);
    expect(refused(await moveProject(p, 9))).toBe('终止项目请填写终止原因');
    ok(await moveProject(p, 9, { reason: '经费未落实' }));
    expect(await projectRow(p.id)).toMatchObject({ status: 9, terminateReason: '经费未落实' });
  });

  it('saves the form and the status together, or neither', async () => {
    const p = await newProject();
    // The new name rides with a refused move: neither is kept.
    refused(await moveProject({ ...p, name: '新名称' }, 6));
    expect((await projectRow(p.id)).name).toBe(p.name);
    ok(await moveProject({ ...p, name: '新名称' }, 1));
    expect(await projectRow(p.id)).toMatchObject({ name: '新名称', status: 1 });
  });
});

describe('grade-1 objects (S19)', () => {
  it('needs the project ticked 含一级文物 before a grade-1 object joins it', async () => {
    const p = await underWay();
    const { r } = await record(p.id, { level: '1' });
    expect(refused(r)).toContain('请先在项目');
    expect(r.body.result.fields.level).toContain('含一级文物');
  });

  it('asks for NCHA approval (待批复, 批复文号 and 日期) before work starts', async () => {
    const p = await newProject({ hasGrade1: true, planName: '方案', planOrg: '省文物保护中心' });
    await newRecord(p.id, { level: '1' });
    ok(await moveProject(p, 1));
    expect(refused(await moveProject(p, 3))).toContain('须先报国家文物局批复');
    ok(await moveProject(p, 2));
    expect(refused(await moveProject(p, 3))).toContain('批复文号');
    // A date without a number is caught by the form's own rule.
    expect(refused(await moveProject(p, 3, { approvalDate: '2026-03-20' }))).toContain('批复文号');
    ok(await moveProject(p, 3, { approvalDocNo: '文物博函〔2026〕12号', approvalDate: '2026-03-20' }));
    // 含一级文物 cannot be unticked while a grade-1 object's archive is in it.
    const untick = await post(`${P}/update`, conservator, {
      ...p,
      approvalDocNo: '文物博函〔2026〕12号',
      approvalDate: '2026-03-20',
      hasGrade1: false,
    });
    expect(refused(untick)).toContain('不能取消“含一级文物”');
  });

  it("keeps a grade-1 object's archive from readers who do not write archives", async () => {
    const p = await newProject({ hasGrade1: true });
    const top = await newRecord(p.id, { level: '1' });
    const other = await newRecord(p.id, { level: '3' });
    const list = ok(await get(`${R}/pageList?projectId=${p.id}`, reader)).list.map((x: any) => x.id);
    expect(list).toEqual([other.id]);
    expect((await get(`${R}/detail?id=${top.id}`, reader)).body).toMatchObject({ success: false, code: 404 });
    expect((await recordRow(top.id)).level).toBe('1');
    // Reading is not writing.
    expect((await post(`${R}/update`, reader, { ...other, relicName: '改' })).body.code).toBe(1005);
  });
});

describe('an object record: custody and treatment', () => {
  it('goes 待修复 → 修复中 → 待评估 → 已归档 with custody, photos and the evaluation', async () => {
    const p = await underWay();
    const r = await newRecord(p.id);
    expect(refused(await moveRecord(r, 1))).toContain('出库日期和库房交接人');
    expect(refused(await moveRecord({ ...r, takeOutDate: '2026-04-01' }, 1))).toBe(
      '填写出库日期时请选择库房交接人',
    );
    const out = { ...r, takeOutDate: '2026-04-01', keeperId: keeper };
    ok(await moveRecord(out, 1));
    expect(refused(await moveRecord(out, 2))).toBe('请至少填写一条修复过程后再完成修复');
    const steps = [
      { date: '2026-04-02', step: '清洗', materials: '去离子水' },
      { date: '2026-04-10', step: '加固', materials: 'Paraloid B-72', ratio: '3%' },
    ];
    expect(refused(await moveRecord({ ...out, steps }, 2))).toBe('请至少上传一张修复后照片后再完成修复');
    const after = [await attachUpload(s, conservator, 'bsRepairManagement', 'image')];
    const treated = { ...out, steps, afterPhotoIds: after };
    ok(await moveRecord(treated, 2));
    expect(refused(await moveRecord(treated, 3))).toBe('请填写效果评估后再归档');
    expect(refused(await moveRecord({ ...treated, evaluation: '病害稳定' }, 3))).toContain('归库日期');
    expect(
      refused(await moveRecord({ ...treated, evaluation: '病害稳定', returnDate: '2026-03-01' }, 3)),
    ).toBe('归库日期不能早于出库日期');
    const filed = { ...treated, evaluation: '锈蚀稳定，结构加固有效', returnDate: '2026-05-01' };
    ok(await moveRecord(filed, 3));
    const row = await recordRow(r.id);
    // Archived: the object reads 已修复, and the archive is closed.
    expect(row).toMatchObject({
      status: 3,
      preservation: '4',
      afterPhotoIds: after,
      steps: expect.any(Array),
    });
    expect(refused(await post(`${R}/update`, conservator, { ...filed, era: '东周' }))).toBe(
      '档案已归档，不能再修改',
    );
    expect(refused(await post(`${R}/delete`, conservator, { id: r.id }))).toContain('不能删除');
  });

  it('sends a record back to treatment with a reason', async () => {
    const p = await underWay();
    const r = await newRecord(p.id, { takeOutDate: '2026-04-01', keeperId: keeper });
    ok(await moveRecord(r, 1));
    const treated = {
      ...r,
      steps: [{ date: '2026-04-02', step: '清洗' }],
      afterPhotoIds: [await attachUpload(s, conservator, 'bsRepairManagement', 'image')],
    };
    ok(await moveRecord(treated, 2));
    expect(refused(await moveRecord(treated, 1))).toBe('退回修复请填写退回原因');
    ok(await moveRecord(treated, 1, { reason: '补配处色差明显' }));
    expect(await recordRow(r.id)).toMatchObject({ status: 1, reworkReason: '补配处色差明显' });
  });

  it('takes no object out before its project is under way, and none into a closed project', async () => {
    const p = await newProject();
    const r = await newRecord(p.id, { takeOutDate: '2026-04-01', keeperId: keeper });
    expect(refused(await moveRecord(r, 1))).toContain('尚未进入“实施中”');
    expect((await recordRow(r.id)).status).toBe(0);
    const t = await newProject();
    ok(await moveProject(t, 9, { reason: '取消' }));
    expect(refused((await record(t.id)).r)).toContain('已终止');
  });
});

describe('the report deadline (3 months, S19)', () => {
  it('asks for a reason when the report is filed late, and lists projects near the deadline', async () => {
    const p = await underWay({ startDate: '2025-09-01', actualEndDate: '2026-01-31' });
    ok(await moveProject(p, 4));
    const accepted = { ...p, acceptanceDate: '2026-02-10', acceptanceResult: 1 };
    ok(await moveProject(accepted, 5));
    expect((await projectRow(p.id)).reportDeadline).toBe('2026-04-30');
    // 报备临期: finished, not filed, deadline within 30 days or past (today is after 2026-04-30).
    const near = ok(await get(`${P}/list?deadlineNear=1&pageCount=200`, conservator)).list.map(
      (x: any) => x.id,
    );
    expect(near).toContain(p.id);
    const report = [await attachUpload(s, conservator, 'bsRepairProject', 'file', '报告.pdf')];
    const late = { ...accepted, reportFileId: report, filedDate: '2026-06-01' };
    expect(refused(await moveProject(late, 6))).toBe(
      '报备日期晚于报备期限 2026-04-30（实际完成后 3 个月），请填写逾期报备说明',
    );
    ok(await moveProject({ ...late, lateReason: '验收资料补充' }, 6));
    const after = ok(await get(`${P}/list?deadlineNear=1&pageCount=200`, conservator)).list.map(
      (x: any) => x.id,
    );
    expect(after).not.toContain(p.id);
  });
});

describe('bad input and other people', () => {
  it('refuses dates out of order, a person who does not exist, and a broken list, at their fields', async () => {
    const a = await post(`${P}/save`, conservator, project({ plannedEndDate: '2026-01-01' }));
    expect(refused(a)).toBe('计划完成日期不能早于开始日期');
    const b = await post(`${P}/save`, conservator, project({ principalId: 99_999 }));
    expect(b.body.success).toBe(false);
    expect(b.body.result.fields.principalId).toContain('项目负责人');
    const c = await post(`${P}/save`, conservator, project({ startDate: '2026-02-30' }));
    expect(c.body.message).toContain('开始日期须为有效日期');
    const p = await underWay();
    const { r: d } = await record(p.id, { diseases: [{ type: '矿化', severity: 7 }] });
    expect(refused(d)).toContain('病害第 1 行');
    const { r: e } = await record(p.id, { diseases: [] });
    expect(refused(e)).toContain('病害');
    const { r: f } = await record(p.id, { projectId: 99_999 });
    expect(f.body.success).toBe(false);
    expect(f.body.message).toMatch(/所属项目/);
    const { r: g } = await record(p.id, { keeperId: 99_999, takeOutDate: '2026-04-01' });
    expect(g.body.result.fields.keeperId).toContain('库房交接人');
  });

  it("refuses another person's upload as a photo, and a PDF as a photo", async () => {
    const p = await underWay();
    const theirs = await attachUpload(s, admin, 'bsRepairManagement', 'image');
    const { r } = await record(p.id, { beforePhotoIds: [theirs] });
    expect(r.body.result.fields.beforePhotoIds).toContain('修复前照片');
    const pdf = await attachUpload(s, conservator, 'bsRepairManagement', 'file', 'x.pdf');
    const { r: r2 } = await record(p.id, { beforePhotoIds: [pdf] });
    expect(r2.body.result.fields.beforePhotoIds).toContain('修复前照片');
  });

  it('keeps people without the repair grants out of projects and archives', async () => {
    const staff = await s.login('staff02');
    const p = await newProject();
    expect((await get(`${P}/detail?id=${p.id}`, staff)).body.code).toBe(1005);
    expect((await post(`${P}/update`, staff, { ...p, status: 1 })).body.code).toBe(1005);
    expect((await post(`${P}/save`, reader, project())).body.code).toBe(1005);
    expect((await projectRow(p.id)).status).toBe(0);
  });
});
