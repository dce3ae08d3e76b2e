import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { M } from './util';
import { idFor } from './volunteer-util';

/**
 * 意向服务组 as several groups (records-design §3.1 groupIds; README "Volunteers"): the records
 * engine's refs field, stored as ',3,7,'. An application takes 1..n enabled groups, the older
 * single `groupId` still reads as one, the list filters by "has this group" exactly (group 1 is
 * not group 11), a group any application chose cannot be deleted, and a pass gives the volunteer
 * the first group chosen.
 */

let s: TestServer;
let admin: string;
const APP = `${M}/v2/bsVolunteerV2ApplicationForm`;
const GROUP = `${M}/v2/bsVolunteerV2Group`;
const ADULT = `${M}/v2/bsVolunteerV2Adult`;
const group: Record<string, number> = {};

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  admin = await s.login('admin');
  for (const r of await s.db.selectFrom('volunteer_group').select(['id', 'name']).execute())
    group[String(r.name)] = Number(r.id);
});
afterAll(async () => s?.close());

let seq = 0;
const application = (over: Record<string, unknown>) => {
  seq += 1;
  return {
    type: 1,
    name: '周若溪',
    gender: 2,
    birthDate: '1990-03-08',
    idType: 1,
    idNumber: idFor('1990-03-08', 300 + seq),
    phone: `137${String(20_000_000 + seq).slice(-8)}`,
    emergencyName: '周父',
    emergencyPhone: '13800003333',
    availableTimes: '周末上午',
    ...over,
  };
};
const save = (over: Record<string, unknown>) =>
  s.call('POST', `${APP}/save`, { token: admin, body: application(over) });
const get = (url: string, q: Record<string, unknown>) =>
  s.call('GET', `${url}?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`, {
    token: admin,
  });
async function apply(over: Record<string, unknown>): Promise<number> {
  const r = await save(over);
  expect(r.body, JSON.stringify(r.body)).toMatchObject({ success: true });
  return r.body.result.id as number;
}
async function idsWith(q: Record<string, unknown>): Promise<number[]> {
  const r = await get(`${APP}/pageList`, { pageCount: 200, ...q });
  expect(r.body.success, JSON.stringify(r.body)).toBe(true);
  return (r.body.result.list as { id: number }[]).map((x) => x.id);
}
async function newGroup(name: string): Promise<number> {
  const r = await s.call('POST', `${GROUP}/save`, { token: admin, body: { name, sort: 90, status: 1 } });
  expect(r.body, JSON.stringify(r.body)).toMatchObject({ success: true });
  return r.body.result.id as number;
}

describe('意向服务组: several groups on an application', () => {
  it('keeps two groups in the order chosen, names them in the list, and still takes the older single groupId', async () => {
    const two = await apply({ groupIds: [group['导览咨询组']!, group['讲解组']!] });
    const d = await get(`${APP}/detail`, { id: two });
    expect(d.body.result.record.groupIds).toEqual([group['导览咨询组'], group['讲解组']]);
    const page = await get(`${APP}/pageList`, { pageCount: 200 });
    expect(page.body.result.names.refs.volunteerGroup).toMatchObject({
      [String(group['导览咨询组'])]: '导览咨询组',
      [String(group['讲解组'])]: '讲解组',
    });
    // A form-encoded '3,5' and the applet's older single groupId read the same way.
    const text = await apply({ groupIds: `${group['讲解组']},${group['导览咨询组']}` });
    expect((await get(`${APP}/detail`, { id: text })).body.result.record.groupIds).toEqual([
      group['讲解组'],
      group['导览咨询组'],
    ]);
    const old = await apply({ groupId: group['讲解组'] });
    expect((await get(`${APP}/detail`, { id: old })).body.result.record.groupIds).toEqual([group['讲解组']]);
  });

  it('refuses none, an unknown and a disabled group, in Chinese naming 意向服务组', async () => {
    const none = await save({ groupIds: [] });
    expect(none.body.success).toBe(false);
    const said = (r: { body: { message: string; result?: { fields?: Record<string, string> } } }) =>
      String(r.body.result?.fields?.groupIds ?? r.body.message);
    expect(said(none)).toBe('请至少选择一个意向服务组');
    const missing = await save({});
    expect(missing.body.success).toBe(false);
    expect(said(missing)).toContain('意向服务组');
    const unknown = await save({ groupIds: [group['讲解组']!, 999_999] });
    expect(unknown.body.success).toBe(false);
    expect(said(unknown)).toBe('所选意向服务组不存在或已删除，请重新选择');
    const bad = await save({ groupIds: ['讲解组'] });
    expect(bad.body.success).toBe(false);
    expect(said(bad)).toContain('意向服务组');

    const paused = await newGroup('暂停组');
    await s.db.updateTable('volunteer_group').set({ status: 0 }).where('id', '=', paused).execute();
    const disabled = await save({ groupIds: [group['讲解组']!, paused] });
    expect(disabled.body.success).toBe(false);
    expect(said(disabled)).toBe('所选意向服务组“暂停组”已停用，请重新选择');
  });

  it('filters by one group exactly: group 1 is not group 11 or 21', async () => {
    // Enough groups that one id is a digit-prefix or suffix of another (',1,' vs ',11,').
    const made: number[] = [];
    for (let i = 0; i < 12; i++) made.push(await newGroup(`筛选组${i}`));
    // 讲解组 is the first seeded group (id 1): 11, 12… hold its digits, so a loose match would show.
    const a = group['讲解组']!;
    const longer = made.find((id) => String(id).includes(String(a)));
    expect(longer, `a group id holding ${a}'s digits among ${made.join(',')}`).toBeDefined();
    const onlyLonger = await apply({ groupIds: [longer!] });
    const both = await apply({ groupIds: [longer!, a] });
    const hasA = await idsWith({ groupIds: a });
    expect(hasA).toContain(both);
    expect(hasA).not.toContain(onlyLonger);
    const hasLonger = await idsWith({ groupIds: longer! });
    expect(hasLonger).toEqual(expect.arrayContaining([both, onlyLonger]));
    // The older single groupId reads as the same filter.
    expect(await idsWith({ groupId: a })).toEqual(hasA);
    const bad = await get(`${APP}/pageList`, { groupIds: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('意向服务组');
  });

  it('a group any application chose cannot be deleted, only disabled; a disabled group stays on it', async () => {
    const kept = await newGroup('守护组');
    const free = await newGroup('空闲组');
    const id = await apply({ groupIds: [group['讲解组']!, kept] });
    const refused = await get(`${GROUP}/delete`, { id: kept });
    expect(refused.body.success).toBe(false);
    expect(refused.body.message).toBe('“守护组”已被 1 条志愿者申请用作意向服务组，请先修改或删除它们');
    expect((await get(`${GROUP}/delete`, { id: free })).body.success).toBe(true);
    // Disabling is allowed and the application keeps the group (an edit that keeps it passes).
    const disable = await s.call('POST', `${GROUP}/update`, {
      token: admin,
      body: { id: kept, name: '守护组', sort: 90, status: 0 },
    });
    expect(disable.body, JSON.stringify(disable.body)).toMatchObject({ success: true });
    const d = (await get(`${APP}/detail`, { id })).body.result.record;
    expect(d.groupIds).toEqual([group['讲解组'], kept]);
  });

  it('a pass gives the adult volunteer the first group chosen', async () => {
    const id = await apply({ groupIds: [group['导览咨询组']!, group['讲解组']!] });
    const when = new Date(Date.now() + 86_400_000 + 8 * 3600_000).toISOString();
    const time = `${when.slice(0, 10)} ${when.slice(11, 16)}`;
    expect(
      (await get(`${APP}/sendInterview`, { id, interviewTime: time, interviewPlace: '一楼' })).body.success,
    ).toBe(true);
    expect((await get(`${APP}/interviewResult`, { id, result: 1, interviewScore: 88 })).body.success).toBe(
      true,
    );
    const app = (await get(`${APP}/detail`, { id })).body.result.record;
    const vol = (await get(`${ADULT}/detail`, { id: app.volunteerId })).body.result.record;
    expect(vol.groupId).toBe(group['导览咨询组']);
  });
});
