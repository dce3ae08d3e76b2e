import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { M } from './util';

/**
 * 业务数据 and 下载中心 (issue 18): their own rules beside the generic suite. A person's month is
 * theirs alone; a department's rows are its heads'; the office (业务数据汇总, held by the
 * director's 馆领导 role) reads everything and closes a month, after which no one changes it until
 * it is reopened with a reason. The download centre hands out published documents only and counts
 * each person once a museum day.
 */

let s: TestServer;
let director: string; // 馆领导: 业务数据汇总, 信息发布
let office: string; // staff01, 办公室 head: 部门业务数据, 信息发布
let clerk: string; // staff02, 办公室: one's own month only
let keeperHead: string; // staff03, 典藏部 head
let keeper: string; // staff04, 典藏部

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  director = await s.login('director');
  office = await s.login('staff01');
  clerk = await s.login('staff02');
  keeperHead = await s.login('staff03');
  keeper = await s.login('staff04');
});
afterAll(async () => s?.close());

const P = `${M}/businessData/personal`;
const D = `${M}/businessData/dept`;
const PLAN = `${M}/businessData/plan`;
const MONTH = `${M}/businessData/month`;
const DL = `${M}/bs/bsDataDownload`;

const post = (path: string, token: string, body: Record<string, unknown>) =>
  s.call('POST', path, { token, body });
const get = (path: string, token: string) => s.call('GET', path, { token });
async function deptId(name: string): Promise<number> {
  const row = await s.db
    .selectFrom('department')
    .select('id')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
const refused = (res: { body: any }) => {
  expect(res.body.success, JSON.stringify(res.body)).toBe(false);
  return res.body.message as string;
};
/** A refusal's words for `field`: its per-field message, or the message of a schema refusal. */
const fieldOf = (res: { body: any }, field: string) => {
  expect(res.body.success, JSON.stringify(res.body)).toBe(false);
  return (res.body.result?.fields?.[field] ?? res.body.message) as string;
};

describe('个人业务数据', () => {
  it("keeps each person's month their own, by list, id and write", async () => {
    const saved = await post(`${P}/save`, clerk, {
      year: 2031,
      month: 3,
      items: [{ indicator: '1', value: 12, unit: '场' }],
      workSummary: '完成常设展讲解 12 场',
      // Naming someone else is ignored: the row is the caller's.
      userId: 1,
    });
    expect(saved.body.success, JSON.stringify(saved.body)).toBe(true);
    const id = saved.body.result.id as number;
    const mine = (await get(`${P}/find?id=${id}`, clerk)).body.result.record;
    const clerkId = mine.userId as number;
    expect(clerkId).not.toBe(1);
    expect(mine.items).toEqual([{ indicator: '1', value: 12, unit: '场' }]);

    // Another person: not in their list, not by id, not to change or delete.
    expect((await get(`${P}/list?year=2031`, keeper)).body.result.list.map((r: any) => r.id)).not.toContain(
      id,
    );
    expect((await get(`${P}/find?id=${id}`, keeper)).body.code).toBe(404);
    refused(await post(`${P}/save`, keeper, { id, year: 2031, month: 3, items: [] }));
    refused(await get(`${P}/delete?id=${id}`, keeper));
    expect((await get(`${P}/find?id=${id}`, clerk)).body.result.record.items).toHaveLength(1);

    // The office reads everyone's.
    expect((await get(`${P}/find?id=${id}`, director)).body.result.record.userId).toBe(clerkId);

    // One row per person and month.
    const again = await post(`${P}/save`, clerk, { year: 2031, month: 3, items: [] });
    expect(JSON.stringify(again.body)).toContain('这个月的个人业务数据已经填写过');
  });

  it('refuses bad figures in Chinese, naming the row', async () => {
    const save = (body: Record<string, unknown>) =>
      post(`${P}/save`, clerk, { year: 2031, month: 4, ...body });
    expect(fieldOf(await save({ month: 13 }), 'month')).toBe('月份不能大于 12');
    expect(fieldOf(await save({ items: [{ indicator: '1', value: -1 }] }), 'items')).toBe(
      '业务指标第 1 行：数值不能小于 0',
    );
    expect(fieldOf(await save({ items: [{ indicator: '1', value: 1.5 }] }), 'items')).toMatch(/第 1 行/);
    expect(fieldOf(await save({ items: [{ indicator: '999', value: 1 }] }), 'items')).toMatch(/第 1 行/);
    expect(fieldOf(await save({ items: ['讲解'] }), 'items')).toBe('业务指标第 1 行格式不正确');
    expect(fieldOf(await save({ items: '不是列表' }), 'items')).toMatch(/业务指标/);
    expect(
      fieldOf(
        await save({
          items: [
            { indicator: '2', value: 1 },
            { indicator: '2', value: 3 },
          ],
        }),
        'items',
      ),
    ).toBe('业务指标第 1 行和第 2 行是同一指标，请合并为一行');
    const tooMany = Array.from({ length: 31 }, (_, i) => ({ indicator: '1', value: i }));
    expect(fieldOf(await save({ items: tooMany }), 'items')).toBe('业务指标最多 30 行');
    // Nothing of it was kept.
    expect((await get(`${P}/list?year=2031&month=4`, clerk)).body.result.total).toBe(0);
  });
});

describe('部门业务数据 and month closing', () => {
  it("lets a head keep their department's figures and no other's", async () => {
    const officeDept = await deptId('办公室');
    const keepDept = await deptId('典藏部');
    const body = { deptId: officeDept, year: 2031, month: 5, indicators: [{ indicator: '1', value: 3200 }] };
    const saved = await post(`${D}/save`, office, body);
    expect(saved.body.success, JSON.stringify(saved.body)).toBe(true);
    const id = saved.body.result.id as number;
    // Another department's head: not theirs to read, change, or write for.
    expect((await get(`${D}/find?id=${id}`, keeperHead)).body.code).toBe(404);
    refused(await post(`${D}/save`, keeperHead, { ...body, id, summary: '改' }));
    refused(await post(`${D}/save`, office, { ...body, deptId: keepDept }));
    // A member without the department grant.
    refused(await get(`${D}/list`, clerk));
    expect(
      fieldOf(await post(`${D}/save`, office, { ...body, month: 6, deptId: 999999 }), 'deptId'),
    ).toBeTruthy();
  });

  it('freezes a closed month for everyone until the office reopens it with a reason', async () => {
    const officeDept = await deptId('办公室');
    const mine = await post(`${P}/save`, clerk, {
      year: 2031,
      month: 7,
      items: [{ indicator: '1', value: 2 }],
    });
    const id = mine.body.result.id as number;
    const dept = await post(`${D}/save`, office, {
      deptId: officeDept,
      year: 2031,
      month: 7,
      indicators: [],
    });
    expect(dept.body.success).toBe(true);

    // Only the office closes.
    refused(await post(`${MONTH}/save`, office, { year: 2031, month: 7, status: 1 }));
    const closed = await post(`${MONTH}/save`, director, { year: 2031, month: 7, status: 1 });
    expect(closed.body.success, JSON.stringify(closed.body)).toBe(true);
    const monthId = closed.body.result.id as number;

    const frozen = '2031 年 7 月的业务数据已关账，不能再修改；如需更正请联系办公室重新开账';
    expect(refused(await post(`${P}/save`, clerk, { id, year: 2031, month: 7, items: [] }))).toBe(frozen);
    expect(refused(await get(`${P}/delete?id=${id}`, clerk))).toBe(frozen);
    expect(refused(await post(`${P}/save`, keeper, { year: 2031, month: 7, items: [] }))).toBe(frozen);
    // Moving a row into a closed month is changing that month too.
    const other = await post(`${P}/save`, clerk, { year: 2031, month: 8, items: [] });
    expect(refused(await post(`${P}/save`, clerk, { id: other.body.result.id, year: 2031, month: 7 }))).toBe(
      frozen,
    );
    expect(refused(await post(`${P}/save`, director, { id, year: 2031, month: 7, items: [] }))).toBe(frozen);

    // Reopening takes a reason, and only the office's.
    expect(refused(await post(`${MONTH}/reopen`, director, { id: monthId }))).toMatch(/重新开账原因/);
    refused(await post(`${MONTH}/reopen`, office, { id: monthId, reason: '补报' }));
    const reopened = await post(`${MONTH}/reopen`, director, { id: monthId, reason: '社教部补报活动场次' });
    expect(reopened.body.success, JSON.stringify(reopened.body)).toBe(true);
    expect((await post(`${P}/save`, clerk, { id, year: 2031, month: 7, items: [] })).body.success).toBe(true);
    // A stale close: the month is open, so 重新开账 again is refused.
    expect(refused(await post(`${MONTH}/reopen`, director, { id: monthId, reason: '再次' }))).toBe(
      '状态已变化，请刷新',
    );
    const history = (await get(`${MONTH}/find?id=${monthId}`, director)).body.result.log;
    expect(JSON.stringify(history)).toContain('社教部补报活动场次');
  });

  it("sums a department's month for its head and the office, and refuses other departments", async () => {
    const officeDept = await deptId('办公室');
    const keepDept = await deptId('典藏部');
    await post(`${P}/save`, clerk, {
      year: 2031,
      month: 9,
      items: [{ indicator: '1', value: 5, unit: '场' }],
    });
    await post(`${P}/save`, office, {
      year: 2031,
      month: 9,
      items: [{ indicator: '1', value: 7, unit: '场' }],
    });
    const plan = await post(`${PLAN}/save`, office, {
      deptId: officeDept,
      title: '三季度展厅改造',
      year: 2031,
      period: 2,
      periodNo: 3,
      items: [
        { content: '灯光改造', progress: 100, state: 3 },
        { content: '展柜更换', progress: 0, state: 1 },
      ],
    });
    expect(plan.body.success, JSON.stringify(plan.body)).toBe(true);

    const q = `?deptId=${officeDept}&year=2031&month=9`;
    const sum = await get(`${M}/businessData/summary${q}`, office);
    expect(sum.body.success, JSON.stringify(sum.body)).toBe(true);
    expect(sum.body.result.personal.totals).toEqual([{ indicator: '1', value: 12, people: 2, unit: '场' }]);
    expect(sum.body.result.plans.map((p: any) => [p.title, p.progress])).toEqual([['三季度展厅改造', 50]]);
    expect((await get(`${M}/businessData/summary${q}`, director)).body.success).toBe(true);
    expect(refused(await get(`${M}/businessData/summary${q}`, keeperHead))).toBe('只能查看本部门的业务数据');
    refused(await get(`${M}/businessData/summary${q}`, clerk));
    expect(
      (await get(`${M}/businessData/summary?deptId=${keepDept}&year=2031&month=9`, keeperHead)).body.success,
    ).toBe(true);
    expect(
      refused(await get(`${M}/businessData/summary?deptId=${officeDept}&year=2031&month=13`, office)),
    ).toMatch(/月份须在 1–12 之间/);

    const overview = await get(`${M}/businessData/overview?year=2031&month=9`, director);
    const row = overview.body.result.depts.find((d: any) => d.deptId === officeDept);
    expect(row).toMatchObject({ personalReported: 2, plans: 1, progress: 50 });
    refused(await get(`${M}/businessData/overview?year=2031&month=9`, office));
  });

  it("checks a plan's period and its items' progress against their state; the office confirms", async () => {
    const officeDept = await deptId('办公室');
    const base = {
      deptId: officeDept,
      title: '年度计划',
      year: 2031,
      period: 1,
      items: [{ content: '编制预算', progress: 0, state: 1 }],
    };
    expect(fieldOf(await post(`${PLAN}/save`, office, { ...base, periodNo: 2 }), 'periodNo')).toBe(
      '年度计划不填季度或月份',
    );
    expect(fieldOf(await post(`${PLAN}/save`, office, { ...base, period: 2, periodNo: 5 }), 'periodNo')).toBe(
      '季度计划请填写第几季度（1–4）',
    );
    expect(
      fieldOf(
        await post(`${PLAN}/save`, office, {
          ...base,
          items: [{ content: '编制预算', progress: 60, state: 3 }],
        }),
        'items',
      ),
    ).toBe('计划事项第 1 行：状态为已完成时进度应为 100%');
    expect(fieldOf(await post(`${PLAN}/save`, office, { ...base, items: [] }), 'items')).toBe(
      '请至少填写 1 行计划事项',
    );
    const id = (await post(`${PLAN}/save`, office, base)).body.result.id as number;
    expect((await post(`${PLAN}/submit`, office, { id })).body.success).toBe(true);
    refused(await post(`${PLAN}/confirm`, office, { id }));
    expect((await post(`${PLAN}/confirm`, director, { id })).body.success).toBe(true);
  });
});

describe('下载中心', () => {
  async function upload(token: string, name: string, bytes = Buffer.from('%PDF-1.4 考勤制度')) {
    const fd = new FormData();
    fd.append('tableName', 'downloadDoc');
    fd.append('file', new Blob([new Uint8Array(bytes)]), name);
    const res = await fetch(`${s.url}${M}/attach/upload`, { method: 'POST', headers: { token }, body: fd });
    return (await res.json()) as any;
  }
  const download = (token: string, id: unknown) =>
    fetch(`${s.url}${DL}/download?id=${String(id)}`, { headers: { token } });

  it('hands out published documents only, and counts each person once a museum day', async () => {
    const bytes = Buffer.from('%PDF-1.4 请假单模板');
    const att = await upload(office, '请假单.pdf', bytes);
    expect(att.success, JSON.stringify(att)).toBe(true);
    const saved = await post(`${DL}/save`, office, {
      title: '请假单',
      category: '1',
      file: [att.result.attId],
    });
    expect(saved.body.success, JSON.stringify(saved.body)).toBe(true);
    const id = saved.body.result.id as number;

    // A draft: not listed for staff, its download answers like a missing one.
    expect((await get(`${DL}/list`, clerk)).body.result.list.map((r: any) => r.id)).not.toContain(id);
    const draft = await download(clerk, id);
    expect(((await draft.json()) as any).message).toBe('该资料不存在或已下线，请刷新后重试');

    expect((await post(`${DL}/publish`, office, { id })).body.success).toBe(true);
    const got = await download(clerk, id);
    expect(got.headers.get('content-disposition')).toContain('attachment');
    expect(Buffer.from(await got.arrayBuffer())).toEqual(bytes);
    await (await download(clerk, id)).arrayBuffer();
    await (await download(keeper, id)).arrayBuffer();
    expect((await get(`${DL}/detail?id=${id}`, clerk)).body.result.record.downloadCount).toBe(2);
    // Each download is in the system log, as 下载 of 下载中心 (the log is written in batches).
    await expect
      .poll(
        async () =>
          (
            await s.db
              .selectFrom('system_log')
              .select(['module', 'target_table', 'target_id', 'result'])
              .where('action', '=', '下载')
              .where('path', 'like', `%bsDataDownload/download%`)
              .execute()
          ).filter((r) => r.target_id === String(id) && r.result === 1).length,
      )
      .toBe(3);

    // Taken down: gone for staff again.
    await post(`${DL}/takeDown`, office, { id });
    expect(((await (await download(clerk, id)).json()) as any).code).toBe(404);
  });

  it('refuses bad ids, other people, wrong files and writes without the grant', async () => {
    expect(((await (await download(clerk, 'abc')).json()) as any).success).toBe(false);
    expect(((await (await download(clerk, 99999999)).json()) as any).code).toBe(404);

    // An upload the attachment service takes but the download centre does not (its types).
    const md = await upload(office, '说明.md', Buffer.from('# 说明'));
    expect(md.success, JSON.stringify(md)).toBe(true);
    const wrong = await post(`${DL}/save`, office, { title: '说明', category: '1', file: [md.result.attId] });
    expect(fieldOf(wrong, 'file')).toMatch(/文件/);
    // Staff cannot upload to or write the download centre.
    expect((await upload(clerk, '表.pdf')).success).toBe(false);
    const att = await upload(office, '值班表.xlsx', Buffer.from('PK'));
    refused(await post(`${DL}/save`, clerk, { title: '值班表', category: '1', file: [att.result.attId] }));
    // Someone else's upload, an unknown one, none, a bad category.
    const director_ = await upload(director, '制度.pdf');
    expect(
      fieldOf(
        await post(`${DL}/save`, office, { title: '制度', category: '1', file: [director_.result.attId] }),
        'file',
      ),
    ).toBeTruthy();
    expect(
      fieldOf(await post(`${DL}/save`, office, { title: '制度', category: '1', file: [99999999] }), 'file'),
    ).toBeTruthy();
    expect(
      fieldOf(await post(`${DL}/save`, office, { title: '制度', category: '1', file: [] }), 'file'),
    ).toBe('请上传文件');
    expect(
      fieldOf(
        await post(`${DL}/save`, office, { title: '制度', category: '99', file: [att.result.attId] }),
        'category',
      ),
    ).toBeTruthy();
    expect(
      fieldOf(
        await post(`${DL}/save`, office, { title: '', category: '1', file: [att.result.attId] }),
        'title',
      ),
    ).toBeTruthy();
  });
});
