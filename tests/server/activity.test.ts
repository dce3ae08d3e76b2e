import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { personWithMenu } from './util';
import { activityCalls, tables } from './activity-util';

/**
 * Social education activities (README "Social education activities (issue 24)"): the sign-up's
 * places (capacity, the race for the last places, cancel giving them back), one live sign-up per
 * phone, the sign-up window, 签到 / 缺席 / 取消 by the activity's times, 开放报名 with 发布 and
 * 下架, other people's and unknown ids, and bad input refused in Chinese.
 */

let s: TestServer;
let admin: string;
let educator: string; // staff10 何雪, 社教专员: the activity module
let outsider: string;
let typeId: number;
const c = activityCalls(() => s);
const { ok, refused } = c;
let phoneNo = 0;
const phone = () => `137${String(10_000_000 + ++phoneNo).slice(-8)}`;

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  admin = await s.login('admin');
  educator = await s.login('staff10');
  outsider = await personWithMenu(s, 'noactivity', ['home.workbench']);
  typeId = await c.addType(educator, '亲子活动');
});
afterAll(async () => s?.close());

describe('sign-ups and places', () => {
  it('takes sign-ups only while 开放报名, and 发布 / 下架 open and close them', async () => {
    const id = await c.addActivity(educator, typeId);
    expect(refused(await c.sign(educator, id, phone()))).toBe('该活动未开放报名');
    await c.publish(educator, id);
    expect(await c.activityRow(educator, id)).toMatchObject({ status: 1, open: true });
    ok(await c.sign(educator, id, phone()));
    ok(await c.post(`${c.base}/activity/takeDown`, educator, { id }));
    expect(await c.activityRow(educator, id)).toMatchObject({ status: 2, open: false, used: 1 });
    expect(refused(await c.sign(educator, id, phone()))).toBe('该活动未开放报名');
  });

  it('counts places, refuses more than are left or than one sign-up brings, and one phone twice', async () => {
    const id = await c.addActivity(educator, typeId);
    await c.publish(educator, id);
    const p = phone();
    ok(await c.sign(educator, id, p, 3));
    expect((await c.activityRow(educator, id)).used).toBe(3);
    expect(refused(await c.sign(educator, id, p, 1))).toBe('该手机号已报名本活动，不能重复报名');
    expect(refused(await c.sign(educator, id, phone(), 4))).toBe('每次报名最多 3 人');
    expect(refused(await c.sign(educator, id, phone(), 3))).toBe('名额不足，仅剩 2 个名额');
    ok(await c.sign(educator, id, phone(), 2));
    expect(refused(await c.sign(educator, id, phone(), 1))).toBe('名额已满，不能再报名');
    // The places cannot shrink below those taken.
    const row = await c.activityRow(educator, id);
    const r = await c.post(`${c.base}/activity/update`, educator, { ...row, total: 4, cover: [] });
    expect(refused(r)).toBe('名额不能少于已报名的 5 人');
  });

  it('never oversells the last places when many sign up at once', async () => {
    const id = await c.addActivity(educator, typeId, { total: 10, maxPersons: 2 });
    await c.publish(educator, id);
    ok(await c.sign(educator, id, phone(), 2));
    ok(await c.sign(educator, id, phone(), 2));
    ok(await c.sign(educator, id, phone(), 2)); // 4 places left
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => c.sign(educator, id, phone(), 1 + (phoneNo % 2))),
    );
    const won = answers.filter((a) => a.body.success).length;
    expect(won).toBeGreaterThan(0);
    for (const a of answers.filter((x) => !x.body.success)) expect(a.body.message).toMatch(/名额|已满/);
    const live = await tables(s)
      .selectFrom('activity_sign')
      .select((eb) => eb.fn.sum<number>('persons').as('n'))
      .where('activity_id', '=', id)
      .where('status', '<>', 3)
      .executeTakeFirstOrThrow();
    const used = (await c.activityRow(educator, id)).used;
    expect(Number(live.n)).toBe(used);
    expect(used).toBeLessThanOrEqual(10);
  });

  it('gives the places back on cancel (a reason required), and the phone may sign up again', async () => {
    const id = await c.addActivity(educator, typeId);
    await c.publish(educator, id);
    const p = phone();
    const signId = ok(await c.sign(educator, id, p, 2)).id as number;
    const bare = await c.act(educator, 'cancel', { id: signId });
    expect(bare.body.message).toContain('取消原因');
    ok(await c.act(educator, 'cancel', { id: signId, reason: '家中有事' }));
    expect((await c.activityRow(educator, id)).used).toBe(0);
    expect(refused(await c.act(educator, 'cancel', { id: signId, reason: '再取消' }))).toBe(
      '状态已变化，请刷新',
    );
    ok(await c.sign(educator, id, p, 1));
    expect((await c.activityRow(educator, id)).used).toBe(1);
  });
});

describe('windows', () => {
  it('opens sign-up at its start and closes it at its end, or at the start of the activity', async () => {
    const later = await c.addActivity(educator, typeId, {
      startIn: 600,
      signupStart: new Date(Date.now() + 120 * 60_000).getTime(),
    });
    await c.publish(educator, later);
    expect(refused(await c.sign(educator, later, phone()))).toMatch(/^报名尚未开始，请于 .* 后报名$/);
    const started = await c.addActivity(educator, typeId, { startIn: -10 });
    await c.publish(educator, started);
    expect(refused(await c.sign(educator, started, phone()))).toMatch(/^报名已于 .* 截止$/);
  });

  it('checks in from an hour before the start, marks 缺席 only after it, cancels only before it', async () => {
    const soon = await c.addActivity(educator, typeId, { startIn: 180 });
    await c.publish(educator, soon);
    const a = ok(await c.sign(educator, soon, phone())).id as number;
    expect(refused(await c.act(educator, 'checkIn', { id: a }))).toMatch(/^签到于活动开始前 1 小时开放/);
    expect(refused(await c.act(educator, 'notPresent', { id: a }))).toBe('活动开始后才能标记缺席');

    // A workshop under way whose sign-up stays open for an hour more.
    const now = await c.addActivity(educator, typeId, {
      startIn: -10,
      signupEnd: new Date(Date.now() + 60 * 60_000).getTime(),
    });
    await c.publish(educator, now);
    const b = ok(await c.sign(educator, now, phone())).id as number;
    const d = ok(await c.sign(educator, now, phone())).id as number;
    ok(await c.act(educator, 'checkIn', { id: b }));
    ok(await c.act(educator, 'notPresent', { id: d }));
    // One marked 缺席 by mistake arrives late: 签到 still takes them.
    ok(await c.act(educator, 'checkIn', { id: d }));
    const row = ok(await c.get(`${c.base}/activitySign/detail?${c.q({ id: b })}`, educator)).record;
    expect(row).toMatchObject({ status: 1 });
    expect(typeof row.checkInTime).toBe('number');

    // Once sign-up has closed after the start, a cancel is too late.
    await tables(s)
      .updateTable('activity')
      .set({ signup_end: Date.now() - 60_000 })
      .where('id', '=', now)
      .execute();
    const late = await tables(s)
      .insertInto('activity_sign')
      .values({
        activity_id: now,
        name: '迟到者',
        phone: phone(),
        persons: 1,
        status: 0,
        create_time: Date.now(),
        update_time: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(refused(await c.act(educator, 'cancel', { id: Number(late.id), reason: '来不了' }))).toBe(
      '活动已开始，不能再取消报名',
    );
  });
});

describe('who and what', () => {
  it('keeps people without the module out, and refuses unknown activities and sign-ups', async () => {
    const id = await c.addActivity(educator, typeId);
    await c.publish(educator, id);
    const signId = ok(await c.sign(educator, id, phone())).id as number;
    expect(refused(await c.get(`${c.base}/activitySign/pageList`, outsider))).toMatch(/权限/);
    expect(refused(await c.sign(outsider, id, phone()))).toMatch(/权限/);
    expect(refused(await c.act(outsider, 'cancel', { id: signId, reason: '替人取消' }))).toMatch(/权限/);
    expect(refused(await c.stat(outsider))).toMatch(/权限/);
    const unknown = await c.sign(educator, 999_999, phone());
    expect(refused(unknown)).toContain('活动');
    expect(unknown.body.result.fields.activityId).toBeTruthy();
    expect(refused(await c.act(educator, 'checkIn', { id: 999_999 }))).toMatch(/不存在|已删除/);
    // An activity with sign-ups is kept: the refusal names them.
    expect(refused(await c.get(`${c.base}/activity/delete?${c.q({ id })}`, admin))).toContain('活动报名');
  });

  it('refuses bad input in Chinese, naming the field', async () => {
    const id = await c.addActivity(educator, typeId);
    await c.publish(educator, id);
    const badPhone = await c.sign(educator, id, '1234', 1);
    expect(refused(badPhone)).toBe('手机号须为 11 位手机号（如 13812345678）');
    expect(refused(await c.sign(educator, id, phone(), 0))).toContain('人数');
    expect(refused(await c.sign(educator, id, phone(), 1, ''))).toContain('报名人');
    const backwards = await c.post(`${c.base}/activity/save`, educator, {
      title: '倒置的活动',
      typeId,
      place: '一楼大厅',
      startTime: '2030-05-01 14:00',
      endTime: '2030-05-01 10:00',
      total: 10,
    });
    expect(refused(backwards)).toBe('结束时间须晚于开始时间');
    const lateSignup = await c.post(`${c.base}/activity/save`, educator, {
      title: '报名太晚',
      typeId,
      place: '一楼大厅',
      startTime: '2030-05-01 10:00',
      endTime: '2030-05-01 12:00',
      signupEnd: '2030-05-02 10:00',
      total: 10,
    });
    expect(refused(lateSignup)).toBe('报名截止不能晚于活动结束时间');
    const badTime = await c.post(`${c.base}/activity/save`, educator, {
      title: '时间写错',
      typeId,
      place: '一楼大厅',
      startTime: '2030/05/01',
      endTime: '2030-05-01 12:00',
      total: 10,
    });
    expect(refused(badTime)).toBe('开始时间须为 yyyy-MM-dd HH:mm 格式（如 2026-12-01 09:30）');
    expect(refused(await c.stat(educator, '2026-13'))).toBe('统计月份须为 yyyy-MM 格式（如 2026-11）');
    // A disabled type is not offered to new activities.
    const off = ok(await c.post(`${c.base}/activityType/save`, educator, { name: '停用类型', status: 0 })).id;
    const r = await c.post(`${c.base}/activity/save`, educator, {
      title: '用停用类型',
      typeId: off,
      place: '一楼大厅',
      startTime: '2030-05-01 10:00',
      endTime: '2030-05-01 12:00',
      total: 10,
    });
    expect(r.body.success).toBe(false);
    // One 活动资料 per activity.
    const rec = { activityId: id, heldDate: '2030-05-01', participants: 12 };
    ok(await c.post(`${c.base}/activityRecord/save`, educator, rec));
    expect(refused(await c.post(`${c.base}/activityRecord/save`, educator, rec))).toBe(
      '该活动已有活动资料，请编辑原有记录',
    );
  });
});
