import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { STALE_STATUS } from '../../src/shared/records/define';
import { formatMuseumMinute, museumDate } from '../../src/shared/rules/museum-time';
import * as recordsRepo from '../../src/server/records/records.repo';
import { adultVolunteer } from '../../src/shared/records/volunteer/people';
import { startServer, type TestServer } from './harness';
import { M, userIdOf } from './util';
import { groupIdOf, idFor } from './volunteer-util';

/**
 * Issue 20, volunteers part A (README "Volunteers"): the application pipeline (interview
 * scheduling and result; a pass creates the numbered volunteer), 转正 by thresholds or with a
 * reason, block and lift, the recruit sign-up's window and quota under concurrent sign-ups,
 * notices published to volunteers, masked personal data and the logged full view, and bad input
 * answered in Chinese. The generic suite (records-generic.test.ts) covers each record's CRUD.
 */

let s: TestServer;
let admin: string;
let groupId: number;
const APP = `${M}/v2/bsVolunteerV2ApplicationForm`;
const ADULT = `${M}/v2/bsVolunteerV2Adult`;
const RECRUIT = `${M}/v2/bsVolunteerV2Recruit`;
const NOTICE = `${M}/v2/bsVolunteerV2Notice`;

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  admin = await s.login('admin');
  groupId = await groupIdOf(s);
});
afterAll(async () => s?.close());

let seq = 0;
const application = (over: Record<string, unknown> = {}) => {
  seq += 1;
  return {
    type: 1,
    name: '林晓',
    gender: 2,
    birthDate: '1988-04-12',
    idType: 1,
    idNumber: idFor('1988-04-12', 100 + seq),
    phone: `135${String(10_000_000 + seq).slice(-8)}`,
    emergencyName: '林父',
    emergencyPhone: '13800002222',
    groupId,
    availableTimes: '周末上午',
    ...over,
  };
};
const get = (url: string, q: Record<string, unknown>, token = admin) =>
  s.call('GET', `${url}?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`, {
    token,
  });
async function apply(over: Record<string, unknown> = {}): Promise<number> {
  const r = await s.call('POST', `${APP}/save`, { token: admin, body: application(over) });
  expect(r.body, JSON.stringify(r.body)).toMatchObject({ success: true });
  return r.body.result.id as number;
}
const inDays = (d: number) => formatMuseumMinute(Date.now() + d * 86_400_000);
async function detailOf(url: string, id: number) {
  const r = await get(`${url}/detail`, { id });
  expect(r.body.success, JSON.stringify(r.body)).toBe(true);
  return r.body.result as { record: Record<string, any>; log: { action: string; comment: string }[] };
}
/** Takes an application through the interview to a pass; answers the volunteer's id. */
async function passed(over: Record<string, unknown> = {}): Promise<number> {
  const id = await apply(over);
  expect(
    (await get(`${APP}/sendInterview`, { id, interviewTime: inDays(2), interviewPlace: '三楼会议室' })).body
      .success,
  ).toBe(true);
  expect((await get(`${APP}/interviewResult`, { id, result: 1, interviewScore: 88 })).body.success).toBe(
    true,
  );
  return (await detailOf(APP, id)).record.volunteerId as number;
}

describe('applications', () => {
  it('refuses bad applications field by field, in Chinese', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ idNumber: '110105198804121230' }, 'idNumber', '证件号码'],
      [{ birthDate: '1988-04-13' }, 'birthDate', '出生日期与身份证号不一致'],
      [{ phone: '12345' }, 'phone', '手机'],
      [{ name: 'A1' }, 'name', '姓名'],
      [{ emergencyName: '' }, 'emergencyName', '请填写紧急联系人'],
      [{ birthDate: '1950-01-01', idNumber: idFor('1950-01-01', 7) }, 'birthDate', '18–65'],
      [{ type: 2, workUnit: '' }, 'workUnit', '学生须填写学校'],
      [{ groupId: 999_999 }, 'groupId', '意向服务组'],
    ];
    for (const [over, field, words] of cases) {
      const r = await s.call('POST', `${APP}/save`, { token: admin, body: application(over) });
      expect(r.body.success, JSON.stringify(over)).toBe(false);
      const said = String(r.body.result?.fields?.[field] ?? r.body.message);
      expect(said, JSON.stringify(over)).toContain(words);
    }
  });

  it('schedules the interview (in the future, with a place), reschedules it, and a pass makes a numbered trainee', async () => {
    const id = await apply();
    const past = await get(`${APP}/sendInterview`, {
      id,
      interviewTime: inDays(-1),
      interviewPlace: '会议室',
    });
    expect(past.body).toMatchObject({ success: false, message: '面试时间须晚于现在' });
    const noPlace = await get(`${APP}/sendInterview`, { id, interviewTime: inDays(1) });
    expect(noPlace.status).toBe(400);
    expect(noPlace.body.message).toContain('面试地点');
    // No result before an interview is scheduled: a pass needs 待面试.
    expect((await get(`${APP}/interviewResult`, { id, result: 1, interviewScore: 80 })).body.message).toBe(
      STALE_STATUS,
    );
    expect(
      (await get(`${APP}/sendInterview`, { id, interviewTime: inDays(1), interviewPlace: '一楼' })).body
        .success,
    ).toBe(true);
    expect(
      (await get(`${APP}/sendInterview`, { id, interviewTime: inDays(3), interviewPlace: '二楼' })).body
        .success,
    ).toBe(true);
    let d = await detailOf(APP, id);
    expect(d.record).toMatchObject({ status: 1, interviewPlace: '二楼' });
    expect(d.log.map((l) => l.action)).toEqual(['create', 'sendInterview', 'sendInterview']);

    const noScore = await get(`${APP}/interviewResult`, { id, result: 1 });
    expect(noScore.body).toMatchObject({ success: false, message: '请填写面试成绩' });
    const badResult = await get(`${APP}/interviewResult`, { id, result: 5 });
    expect(badResult.body.message).toContain('面试结果只能是 1（通过）或 2（不通过）');
    expect((await get(`${APP}/interviewResult`, { id, result: 1, interviewScore: 91 })).body.success).toBe(
      true,
    );
    d = await detailOf(APP, id);
    expect(d.record).toMatchObject({ status: 2, interviewScore: 91 });
    const vol = (await detailOf(ADULT, d.record.volunteerId)).record;
    const today = museumDate(Date.now());
    expect(vol).toMatchObject({ status: 1, joinDate: today, name: '林晓', groupId });
    expect(vol.volunteerNo).toMatch(new RegExp(`^V${today.slice(0, 4)}\\d{4}$`));
    // Decided once: a second result is stale.
    expect((await get(`${APP}/interviewResult`, { id, result: 2, comment: '重复' })).body.message).toBe(
      STALE_STATUS,
    );
    // One open application per person.
    const open = await apply();
    const openId = (await detailOf(APP, open)).record.idNumber as string;
    const twice = await s.call('POST', `${APP}/save`, {
      token: admin,
      body: application({ idNumber: openId }),
    });
    expect(twice.body).toMatchObject({ success: false, code: 1010 });
    expect(twice.body.result.fields.idNumber).toBe('该证件号已有一份待审核或待面试的申请，请勿重复提交');
    // The same person cannot be put on the roll twice.
    const again = await apply({ idNumber: vol.idNumber });
    await get(`${APP}/sendInterview`, { id: again, interviewTime: inDays(1), interviewPlace: '一楼' });
    const dup = await get(`${APP}/interviewResult`, { id: again, result: 1, interviewScore: 90 });
    expect(dup.body.message).toContain('该证件号已是在册志愿者');
    expect((await detailOf(APP, again)).record.status).toBe(1);
  });

  it('fails an application at the first screening only with a reason', async () => {
    const id = await apply();
    const bare = await get(`${APP}/interviewResult`, { id, result: 2 });
    expect(bare.body).toMatchObject({ success: false, message: '请填写不通过原因' });
    expect(
      (await get(`${APP}/interviewResult`, { id, result: 2, comment: '可服务时间不符' })).body.success,
    ).toBe(true);
    const d = await detailOf(APP, id);
    expect(d.record).toMatchObject({ status: 3, interviewComment: '可服务时间不符' });
    expect(d.log.at(-1)).toMatchObject({ action: 'interviewFail', comment: '可服务时间不符' });
  });

  it('a student application that passes makes a student volunteer numbered S…', async () => {
    const id = await passedStudent();
    const stu = (await detailOf(`${M}/v2/bsVolunteerV2Student`, id)).record;
    expect(stu).toMatchObject({ status: 1, school: '实验中学', category: 1 });
    expect(stu.studentNo).toMatch(/^S\d{8}$/);
  });

  it('lists mask ID numbers and phones; a full view is for administrators and written to the system log', async () => {
    const id = await apply();
    const list = await get(`${APP}/pageList`, { pageCount: 200 });
    const row = list.body.result.list.find((r: any) => r.id === id);
    expect(row.idNumber).toMatch(/^\d{4}\*+\d{4}$/);
    expect(row.phone).toContain('*');
    const full = await detailOf(APP, id);
    expect(full.record.idNumber).not.toContain('*');
    await vi.waitFor(
      async () => {
        const logged = await s.db
          .selectFrom('system_log')
          .selectAll()
          .where('action', '=', '查看证件号')
          .where('target_table', '=', 'volunteer_application')
          .where('target_id', '=', String(id))
          .execute();
        expect(logged.length).toBe(1);
      },
      { timeout: 5000, interval: 50 },
    );
    // Someone without the grant reads nothing.
    const staff = await s.login('staff02');
    expect((await get(`${APP}/pageList`, {}, staff)).body.success).toBe(false);
  });
});

async function passedStudent(): Promise<number> {
  return passed({
    type: 2,
    birthDate: '2010-06-01',
    idNumber: idFor('2010-06-01', 500 + seq),
    workUnit: '实验中学',
    guardianName: '学生家长',
    guardianPhone: '13900001111',
    emergencyName: '',
    emergencyPhone: '',
  });
}

describe('adult volunteers', () => {
  it('turns regular only past the thresholds, or with a reason for the override', async () => {
    const id = await passed();
    const short = await get(`${ADULT}/becomeRegularWorker`, { id });
    expect(short.body.success).toBe(false);
    expect(short.body.message).toContain('见习期未满：已服务 0 小时（需 20 小时），已满 0 个月（需 2 个月）');
    expect((await detailOf(ADULT, id)).record.status).toBe(1);
    const ok = await get(`${ADULT}/becomeRegularWorker`, {
      id,
      reason: '有十年讲解经验，经部门研究破格转正',
    });
    expect(ok.body.success).toBe(true);
    const d = await detailOf(ADULT, id);
    expect(d.record).toMatchObject({ status: 2, regularDate: museumDate(Date.now()) });
    expect(d.record.regularReason).toContain('破格');
    expect(d.log.at(-1)).toMatchObject({ action: 'becomeRegularWorker' });
  });

  it('blocks with a reason and lifts back to the state before', async () => {
    const id = await passed();
    await get(`${ADULT}/becomeRegularWorker`, { id, reason: '破格' });
    expect((await get(`${ADULT}/block`, { id })).body).toMatchObject({
      success: false,
      message: '请填写停用原因',
    });
    expect((await get(`${ADULT}/block`, { id, reason: '连续缺席' })).body.success).toBe(true);
    expect((await detailOf(ADULT, id)).record).toMatchObject({
      status: 9,
      blockReason: '连续缺席',
      prevStatus: 2,
    });
    expect((await get(`${ADULT}/block`, { id, reason: '再停' })).body.message).toBe(STALE_STATUS);
    expect((await get(`${ADULT}/block`, { id, lift: true })).body.success).toBe(true);
    expect((await detailOf(ADULT, id)).record.status).toBe(2);
    // Lifting someone not blocked is stale.
    expect((await get(`${ADULT}/block`, { id, lift: true })).body.message).toBe(STALE_STATUS);
  });
});

describe('exports', () => {
  async function exported(query: string) {
    const res = await fetch(`${s.url}${ADULT}/export${query}`, { headers: { token: admin } });
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    return JSON.stringify(wb.worksheets[0]!.getSheetValues());
  }
  it('masks ID numbers unless 含证件号 is asked for, and logs that export', async () => {
    const id = await passed();
    const full = (await detailOf(ADULT, id)).record.idNumber as string;
    const masked = await exported(`?keyword=${full}`);
    expect(masked).not.toContain(full);
    expect(masked).toContain(`${full.slice(0, 4)}**********${full.slice(-4)}`);
    expect(await exported(`?keyword=${full}&whole=1`)).toContain(full);
    await vi.waitFor(
      async () => {
        const logged = await s.db
          .selectFrom('system_log')
          .selectAll()
          .where('action', '=', '查看证件号')
          .where('target_table', '=', 'volunteer_adult')
          .where('target_id', '=', 'export')
          .execute();
        expect(logged.length).toBe(1);
      },
      { timeout: 5000, interval: 50 },
    );
    const bad = await s.call('GET', `${ADULT}/export?whole=maybe`, { token: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('含证件号');
  });
});

describe('recruits and sign-ups', () => {
  async function openRecruit(over: Record<string, unknown> = {}) {
    const r = await s.call('POST', `${RECRUIT}/add`, {
      token: admin,
      body: {
        title: '周末讲解招募',
        type: 1,
        groupId,
        targetType: 1,
        content: '<p>招募</p>',
        signupStart: inDays(-1),
        signupEnd: inDays(1),
        total: 5,
        hoursPerPerson: '3',
        needReview: false,
        ...over,
      },
    });
    expect(r.body, JSON.stringify(r.body)).toMatchObject({ success: true });
    const id = r.body.result.id as number;
    expect((await s.call('POST', `${RECRUIT}/publish`, { token: admin, body: { id } })).body.success).toBe(
      true,
    );
    return id;
  }
  async function volunteers(n: number): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < n; i++)
      ids.push(
        await recordsRepo.insert(
          s.db,
          adultVolunteer,
          {
            name: '报名人',
            gender: 1,
            birthDate: '1990-01-01',
            idType: 1,
            idNumber: idFor('1990-01-01', 600 + i + seq * 40),
            phone: `137${String(10_000_000 + i + seq * 40).slice(-8)}`,
            groupId,
            emergencyName: '家人',
            emergencyPhone: '13800003333',
            volunteerNo: `R${seq}${String(i).padStart(3, '0')}`,
            joinDate: '2026-01-01',
            status: 1,
          },
          null,
          Date.now(),
        ),
      );
    seq += 1;
    return ids;
  }
  const signUp = (recruitId: number, volunteerId: number) =>
    s.call('POST', `${RECRUIT}/signUp`, { token: admin, body: { recruitId, volunteerId } });

  it('20 sign-ups at once for 5 places: exactly 5 are taken, the rest told the places are gone', async () => {
    const recruitId = await openRecruit();
    const vols = await volunteers(20);
    const answers = await Promise.all(vols.map((v) => signUp(recruitId, v)));
    const ok = answers.filter((a) => a.body.success);
    expect(ok).toHaveLength(5);
    for (const a of answers.filter((x) => !x.body.success))
      expect(a.body.message).toBe('名额已满，报名未成功');
    const rec = await s.db
      .selectFrom('volunteer_recruit')
      .selectAll()
      .where('id', '=', recruitId)
      .executeTakeFirstOrThrow();
    expect(Number(rec.used)).toBe(5);
    const signs = await s.db
      .selectFrom('volunteer_recruit_sign')
      .select('status')
      .where('recruit_id', '=', recruitId)
      .execute();
    expect(signs).toHaveLength(5);
    // No review needed: each is 已录用 at once.
    expect(signs.every((x) => Number(x.status) === 1)).toBe(true);
  });

  it('keeps the window, refuses doubles and blocked volunteers, and gives a refused place back', async () => {
    const [a, b, c] = await volunteers(3);
    const recruitId = await openRecruit({ needReview: true, total: 2 });
    const first = await signUp(recruitId, a!);
    expect(first.body).toMatchObject({ success: true, result: { status: 0 } });
    expect((await signUp(recruitId, a!)).body.message).toBe('已报名此招募，无需重复报名');
    await get(`${ADULT}/block`, { id: b!, reason: '测试' });
    expect((await signUp(recruitId, b!)).body.message).toBe('该志愿者已停用，不能报名');
    expect((await signUp(recruitId, c!)).body.success).toBe(true);
    const signId = first.body.result.id as number;
    const bare = await get(`${RECRUIT}/notPass`, { id: signId });
    expect(bare.status).toBe(400);
    expect(bare.body.message).toContain('不录用原因');
    expect((await get(`${RECRUIT}/notPass`, { id: signId, comment: '岗位已满' })).body.success).toBe(true);
    const rec = await s.db
      .selectFrom('volunteer_recruit')
      .select('used')
      .where('id', '=', recruitId)
      .executeTakeFirstOrThrow();
    expect(Number(rec.used)).toBe(1);

    const later = await openRecruit({ signupStart: inDays(1), signupEnd: inDays(2) });
    expect((await signUp(later, a!)).body.message).toContain('报名尚未开始');
    const draft = await s.call('POST', `${RECRUIT}/add`, {
      token: admin,
      body: {
        title: '草稿',
        type: 1,
        groupId,
        targetType: 1,
        content: '<p>x</p>',
        signupStart: inDays(-1),
        signupEnd: inDays(1),
        total: 3,
      },
    });
    expect((await signUp(draft.body.result.id, a!)).body.message).toBe('该招募不在报名中');
  });

  it('confirms hours only after 到岗, in half hours, and counts a no-show', async () => {
    const [a, b] = await volunteers(2);
    const recruitId = await openRecruit();
    const sa = (await signUp(recruitId, a!)).body.result.id;
    const sb = (await signUp(recruitId, b!)).body.result.id;
    expect((await get(`${RECRUIT}/serviceApproved`, { id: sa })).body.message).toBe(STALE_STATUS);
    expect((await get(`${RECRUIT}/bePresent`, { id: sa })).body.success).toBe(true);
    const bad = await get(`${RECRUIT}/serviceApproved`, { id: sa, hours: '2.3' });
    expect(bad.body.message).toContain('服务时长须为大于 0 的小时数，最小单位 0.5');
    // The hours go into a service record of the volunteer's account: none yet, so refused.
    expect((await get(`${RECRUIT}/serviceApproved`, { id: sa })).body.message).toContain('还没有登录账号');
    await s.db
      .updateTable('volunteer_adult')
      .set({ user_id: await userIdOf(s, 'staff02') })
      .where('id', '=', a!)
      .execute();
    expect((await get(`${RECRUIT}/serviceApproved`, { id: sa })).body.success).toBe(true);
    const signed = await get(`${RECRUIT}/signDetail`, { id: sa });
    expect(signed.body.result.record).toMatchObject({ status: 5, hours: '3' });
    expect((await get(`${RECRUIT}/notPresent`, { id: sb })).body.success).toBe(true);
    const vol = await s.db
      .selectFrom('volunteer_adult')
      .select('no_show_count')
      .where('id', '=', b!)
      .executeTakeFirstOrThrow();
    expect(Number(vol.no_show_count)).toBe(1);
  });

  it('refuses a recruit whose times contradict, naming the field', async () => {
    const r = await s.call('POST', `${RECRUIT}/add`, {
      token: admin,
      body: {
        title: '活动',
        type: 2,
        groupId,
        targetType: 3,
        content: '<p>x</p>',
        location: '报告厅',
        activityStart: inDays(2),
        activityEnd: inDays(2.1),
        signupStart: inDays(1),
        signupEnd: inDays(3),
        total: 3,
        hoursPerPerson: '2',
      },
    });
    expect(r.body).toMatchObject({ success: false, code: 1010, message: '报名截止不能晚于服务开始' });
    expect(r.body.result.fields.signupEnd).toBe('报名截止不能晚于服务开始');
  });
});

describe('volunteer notices', () => {
  it('adds form-encoded, publishes and takes down with publishOrCancel, telling volunteers with accounts', async () => {
    const staff10 = await userIdOf(s, 'staff10');
    const volId = (await volunteersWithAccount(staff10))!;
    expect(volId).toBeGreaterThan(0);
    const form = new URLSearchParams({
      title: '本周六讲解培训',
      category: '2',
      content: '<p>九点报到</p>',
      audience: '1',
    });
    const r = await s.call('POST', `${NOTICE}/add`, {
      token: admin,
      raw: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(r.body, JSON.stringify(r.body)).toMatchObject({ success: true });
    const id = r.body.result.id as number;
    expect((await get(`${NOTICE}/publishOrCancel`, { id })).body.success).toBe(true);
    expect((await detailOf(NOTICE, id)).record.status).toBe(1);
    await vi.waitFor(
      async () => {
        const got = await s.db.selectFrom('notice').selectAll().where('user_id', '=', staff10).execute();
        expect(got.some((n) => String(n.notice_content).includes('本周六讲解培训'))).toBe(true);
      },
      { timeout: 5000, interval: 50 },
    );
    expect((await get(`${NOTICE}/publishOrCancel`, { id })).body.success).toBe(true);
    expect((await detailOf(NOTICE, id)).record.status).toBe(2);
    const bad = await s.call('POST', `${NOTICE}/add`, {
      token: admin,
      raw: new URLSearchParams({
        title: '指定组',
        category: '1',
        content: '<p>x</p>',
        audience: '4',
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(bad.body).toMatchObject({ success: false, message: '可见范围为指定服务组时请选择服务组' });
  });
});

async function volunteersWithAccount(userId: number): Promise<number> {
  const id = await passed();
  await s.db.updateTable('volunteer_adult').set({ user_id: userId }).where('id', '=', id).execute();
  return id;
}
