import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQrSigner } from '../../src/server/modules/volunteer-service/qr';
import * as recordsRepo from '../../src/server/records/records.repo';
import { adultVolunteer } from '../../src/shared/records/volunteer/people';
import { addDays, formatMuseumMinute, museumDate } from '../../src/shared/rules/museum-time';
import { startServer, type TestServer } from './harness';
import { M } from './util';
import { groupIdOf, idFor, jsonCalls } from './volunteer-util';

/**
 * Issue 20, the staff side's rules (README "Volunteers" and "Volunteer service and check-in"):
 * the staff tablet's rotating code (two minutes, judged at the check-in's placed time, so a
 * phone that scanned offline syncs later), the applicant's own 撤回, a volunteer with service
 * records kept from deletion, no-shows from recruits and sessions counted toward 建议停用 (the
 * administrators told, nobody blocked), and a recruit's 确认时长 written as a confirmed service
 * record so it counts in the totals.
 */

let s: TestServer;
let admin: string;
let v1: string; // staff04
const uid: Record<string, number> = {};
let groupId: number;

const EX = `${M}/v2/exhibition`;
const SES = `${M}/v2/exhibitionDetail`;
const CI = `${M}/v2/exhibitionDetailUser`;
const SR = `${M}/v2/serviceRecord`;
const APP = `${M}/v2/bsVolunteerV2ApplicationForm`;
const ADULT = `${M}/v2/bsVolunteerV2Adult`;
const RECRUIT = `${M}/v2/bsVolunteerV2Recruit`;

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  admin = await s.login('admin');
  v1 = await s.login('staff04');
  for (const a of ['admin', 'staff01', 'staff02', 'staff03', 'staff04'])
    uid[a] = Number(
      (await s.db.selectFrom('user').select('id').where('account', '=', a).executeTakeFirstOrThrow()).id,
    );
  groupId = await groupIdOf(s);
});
afterAll(async () => s?.close());

const { post, get, ok, refused } = jsonCalls(() => s);

let seq = 0;
const clientId = () => `01STAFFCLIENT${String(++seq).padStart(8, '0')}`;
const today = () => museumDate(Date.now());

async function exhibition(over: Record<string, unknown> = {}): Promise<number> {
  return ok(
    await post(`${EX}/add`, admin, {
      name: `轮换展${++seq}`,
      hall: '二号.展厅',
      startDate: addDays(today(), -2),
      endDate: addDays(today(), 2),
      explainMinutes: 30,
      explainTimes: [{ time: '10:00' }],
      needQualification: false,
      status: 1,
      ...over,
    }),
  ).id as number;
}

/** A hand-made session of `exhibitionId` on `day` with `who` set on it. */
async function session(exhibitionId: number, day: string, who: number[], start = '10:00', end = '10:30') {
  const id = ok(
    await post(`${SES}/save`, admin, {
      exhibitionId,
      serviceDate: day,
      startTime: start,
      endTime: end,
      type: 3,
      quota: 5,
      recruitOpen: false,
    }),
  ).id as number;
  ok(await post(`${SES}/setExplain`, admin, { id, explainerIds: who }));
  return id;
}

/** An adult volunteer on the roll, linked to `userId` when given. */
async function adult(userId: number | null = null, over: Record<string, unknown> = {}) {
  seq += 1;
  return recordsRepo.insert(
    s.db,
    adultVolunteer,
    {
      name: `志愿者${seq}`,
      gender: 1,
      birthDate: '1990-01-01',
      idType: 1,
      idNumber: idFor('1990-01-01', 300 + seq),
      phone: `139${String(10_000_000 + seq).slice(-8)}`,
      groupId,
      emergencyName: '家人',
      emergencyPhone: '13800003333',
      volunteerNo: `T${String(seq).padStart(5, '0')}`,
      joinDate: '2026-01-01',
      status: 1,
      userId,
      ...over,
    },
    null,
    Date.now(),
  );
}

describe('the staff tablet’s rotating code', () => {
  it('signs a two-minute code of the current version that a phone checks in with', async () => {
    const id = await exhibition();
    const before = Date.now();
    const code = ok(await get(`${EX}/rotatingCode?id=${id}`, admin));
    expect(code.validTo - code.validFrom).toBe(150_000);
    expect(code.validFrom).toBeGreaterThanOrEqual(before - 30_000);
    expect(code.validTo).toBeLessThanOrEqual(Date.now() + 120_000);
    expect(code.refreshMs).toBe(30_000);
    expect(code.hall).toBe('二号.展厅');
    const parts = (code.payload as string).split('.');
    expect(parts).toHaveLength(7);
    expect(parts.slice(0, 2)).toEqual(['gwy1', String(id)]);
    expect(Buffer.from(parts[2]!, 'base64url').toString('utf8')).toBe('二号.展厅');
    expect(parts.slice(3, 6)).toEqual(['1', String(code.validFrom), String(code.validTo)]);
    // The same key as the printed code: the phone verifies it the same way.
    expect(code.publicKey).toBe(ok(await get(`${EX}/qrKey`, v1)).publicKey);

    const detailId = await session(id, today(), [uid.staff04!]);
    const r = ok(
      await post(`${CI}/check`, v1, {
        detailId,
        qrPayload: code.payload,
        deviceTime: Date.now(),
        clientId: clientId(),
      }),
    );
    expect(r.record.status).toBe(1);

    // 作废旧码 also retires the rotating code on the screen.
    ok(await post(`${EX}/revokeQr`, admin, { id }));
    const other = await session(id, addDays(today(), 1), [uid.staff04!]);
    expect(
      refused(
        await post(`${CI}/check`, v1, {
          detailId: other,
          qrPayload: code.payload,
          deviceTime: Date.now(),
          clientId: clientId(),
        }),
      ),
    ).toBe('签到码已作废（展厅已更换新码），请扫描展厅现场的新签到码');
  });

  it('judges the window at the placed check-in time, not when an offline phone syncs', async () => {
    const id = await exhibition();
    const detailId = await session(id, today(), [uid.staff03!, uid.staff04!], '11:00', '11:30');
    // A code the tablet showed an hour ago (the server's own key and window), scanned then by
    // a phone with no signal that only now comes back online.
    const shownAt = Date.now() - 3600_000;
    const signer = createQrSigner(s.db, Date.now);
    const old = await signer.sign({
      exhibitionId: id,
      hall: '二号.展厅',
      qrVersion: 1,
      validFrom: shownAt - 30_000,
      validTo: shownAt + 120_000,
    });
    const late = ok(
      await post(`${CI}/check`, v1, {
        detailId,
        qrPayload: old,
        deviceTime: shownAt + 10_000,
        serverOffsetMs: 0,
        clientId: clientId(),
      }),
    );
    expect(late.record.status).toBe(1);
    // A scan placed five minutes after the code was shown is refused, though the server
    // receives both requests at the same moment.
    const v2 = await s.login('staff03');
    expect(
      refused(
        await post(`${CI}/check`, v2, {
          detailId,
          qrPayload: old,
          deviceTime: shownAt + 300_000,
          clientId: clientId(),
        }),
      ),
    ).toBe('签到码不在有效期内，请扫描展厅现场的签到码');
  });

  it('needs the exhibition’s write grant and the exhibition’s dates', async () => {
    const id = await exhibition();
    expect(refused(await get(`${EX}/rotatingCode?id=${id}`, v1))).toBe('无权限执行此操作');
    const later = await exhibition({ startDate: '2030-03-01', endDate: '2030-03-02' });
    expect(refused(await get(`${EX}/rotatingCode?id=${later}`, admin))).toContain('不在展期内');
    const over = await exhibition({ startDate: '2020-03-01', endDate: '2020-03-02' });
    expect(refused(await get(`${EX}/rotatingCode?id=${over}`, admin))).toContain('不在展期内');
    expect(refused(await get(`${EX}/rotatingCode?id=99999999`, admin))).toBe(
      '该展览不存在或已删除，请刷新后重试',
    );
    expect((await get(`${EX}/rotatingCode?id=abc`, admin)).status).toBe(400);
  });
});

describe('the applicant’s own 撤回', () => {
  const application = () => {
    seq += 1;
    return {
      type: 1,
      name: '周敏',
      gender: 2,
      birthDate: '1988-04-12',
      idType: 1,
      idNumber: idFor('1988-04-12', 700 + seq),
      phone: `135${String(20_000_000 + seq).slice(-8)}`,
      emergencyName: '周父',
      emergencyPhone: '13800002222',
      groupId,
      availableTimes: '周末上午',
    };
  };

  it('withdraws while 待审核 or 待面试, only by the submitter, and not after a result', async () => {
    const a = ok(await post(`${APP}/save`, admin, application())).id as number;
    expect(refused(await get(`${APP}/withdraw?id=${a}`, v1))).toBe('只有提交申请的本人可以撤回申请');
    ok(await get(`${APP}/withdraw?id=${a}`, admin));
    const d = ok(await get(`${APP}/detail?id=${a}`, admin));
    expect(d.record.status).toBe(4);
    expect(d.log.some((l: any) => l.action === 'withdraw' && l.comment === '申请人撤回')).toBe(true);
    expect(refused(await get(`${APP}/withdraw?id=${a}`, admin))).toBe('该申请已撤回');
    // A withdrawn application is no longer open: the same person may apply again.
    const again = application();
    const b = ok(await post(`${APP}/save`, admin, again)).id as number;
    const when = formatMuseumMinute(Date.now() + 2 * 86_400_000);
    ok(
      await get(
        `${APP}/sendInterview?id=${b}&interviewTime=${encodeURIComponent(when)}&interviewPlace=会议室`,
        admin,
      ),
    );
    // 待面试 may still be withdrawn (the POST twin, as the outbox sends it).
    ok(await post(`${APP}/withdraw`, admin, { id: b }));
    const c = ok(await post(`${APP}/save`, admin, application())).id as number;
    ok(
      await get(`${APP}/interviewResult?id=${c}&result=2&comment=${encodeURIComponent('不符合要求')}`, admin),
    );
    expect(refused(await get(`${APP}/withdraw?id=${c}`, admin))).toBe('该申请已有面试结果，不能撤回');
    expect(refused(await get(`${APP}/withdraw?id=99999999`, admin))).toBe(
      '该申请不存在或已删除，请刷新后重试',
    );
  });

  it('takes 可服务时间 as a multiple choice of fixed words, in their order, refusing others', async () => {
    const many = ok(
      await post(`${APP}/save`, admin, {
        ...application(),
        availableTimes: ['节假日', '周末上午', '节假日'],
      }),
    ).id as number;
    expect(ok(await get(`${APP}/detail?id=${many}`, admin)).record.availableTimes).toBe('周末上午、节假日');
    const typed = ok(
      await post(`${APP}/save`, admin, { ...application(), availableTimes: '工作日下午，周末下午' }),
    ).id as number;
    expect(ok(await get(`${APP}/detail?id=${typed}`, admin)).record.availableTimes).toBe(
      '工作日下午、周末下午',
    );
    const bad = await post(`${APP}/save`, admin, { ...application(), availableTimes: '周末上午、随时' });
    expect(bad.body.message).toBe(
      '可服务时间只能从“工作日上午、工作日下午、周末上午、周末下午、节假日”中选择，“随时”不是选项',
    );
    expect(
      (await post(`${APP}/save`, admin, { ...application(), availableTimes: [] })).body.message,
    ).toContain('可服务时间');
  });

  it('filters applications by 提交时间 (the row’s creation), refusing a malformed date', async () => {
    const id = ok(await post(`${APP}/save`, admin, application())).id as number;
    const day = today();
    const list = async (q: string) =>
      (ok(await get(`${APP}/pageList?pageCount=200&${q}`, admin)).list as any[]).map((r) => r.id);
    expect(await list(`createTimeFrom=${encodeURIComponent(`${day} 00:00`)}`)).toContain(id);
    expect(
      await list(
        `createTimeFrom=${encodeURIComponent(`${addDays(day, 1)} 00:00`)}&createTimeTo=${encodeURIComponent(`${addDays(day, 2)} 23:59`)}`,
      ),
    ).not.toContain(id);
    expect(await list(`createTimeTo=${encodeURIComponent(`${addDays(day, -1)} 23:59`)}`)).not.toContain(id);
    const bad = await get(`${APP}/pageList?createTimeFrom=2026-13-01`, admin);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('提交时间（起）');
  });
});

describe('no-shows toward 建议停用, hours from recruits, and deletion', () => {
  const noticesOf = async (userId: number) =>
    (
      await s.db
        .selectFrom('notice')
        .select('notice_content')
        .where('user_id', '=', userId)
        .orderBy('id', 'asc')
        .execute()
    ).map((n) => n.notice_content);
  const noShows = async (id: number) =>
    Number(
      (
        await s.db
          .selectFrom('volunteer_adult')
          .select('no_show_count')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).no_show_count,
    );

  async function openRecruit() {
    const now = Date.now();
    const id = ok(
      await post(`${RECRUIT}/add`, admin, {
        title: `周末服务${++seq}`,
        type: 1,
        groupId,
        targetType: 1,
        content: '<p>招募</p>',
        signupStart: formatMuseumMinute(now - 86_400_000),
        signupEnd: formatMuseumMinute(now + 86_400_000),
        total: 5,
        hoursPerPerson: '2.5',
        needReview: false,
      }),
    ).id as number;
    ok(await post(`${RECRUIT}/publish`, admin, { id }));
    return id;
  }

  it('counts recruit 缺席 and session 缺勤 alike; the third tells the administrators, blocks nobody', async () => {
    const vid = await adult(uid.staff02!);
    // Two recruits' 缺席.
    for (let i = 0; i < 2; i++) {
      const r = await openRecruit();
      const sign = ok(await post(`${RECRUIT}/signUp`, admin, { recruitId: r, volunteerId: vid })).id;
      ok(await get(`${RECRUIT}/notPresent?id=${sign}`, admin));
    }
    expect(await noShows(vid)).toBe(2);
    expect((await noticesOf(uid.admin!)).filter((n) => n.includes('建议核实后考虑停用'))).toHaveLength(0);
    // A past session the volunteer (by account) never checked in to: 缺勤 is the third.
    const ex = await exhibition({ startDate: '2020-01-01', endDate: '2020-12-31' });
    await session(ex, '2020-01-08', [uid.staff02!]);
    ok(await post(`${CI}/markAbsent`, admin));
    expect(await noShows(vid)).toBe(3);
    await expect
      .poll(async () => (await noticesOf(uid.admin!)).filter((n) => n.includes('建议核实后考虑停用')))
      .toEqual([expect.stringMatching(/^志愿者 志愿者\d+（T\d+）已缺席 3 次，建议核实后考虑停用$/)]);
    // Never blocked by itself; the list's 建议停用 tab finds them by 缺席次数 ≥ 3.
    const row = ok(await get(`${ADULT}/detail?id=${vid}`, admin)).record;
    expect(row).toMatchObject({ status: 1, noShowCount: 3 });
    const page = ok(await get(`${ADULT}/pageList?noShowCountFrom=3&pageCount=100`, admin));
    expect(page.list.map((x: any) => x.id)).toContain(vid);
    expect(page.list.every((x: any) => x.noShowCount >= 3)).toBe(true);
    expect((await get(`${ADULT}/pageList?noShowCountFrom=abc`, admin)).status).toBe(400);
  });

  it('writes a recruit’s 确认时长 as a confirmed service record that counts in the totals', async () => {
    const linked = await adult(uid.staff01!);
    const bare = await adult(null);
    const r = await openRecruit();
    const a = ok(await post(`${RECRUIT}/signUp`, admin, { recruitId: r, volunteerId: linked })).id;
    const b = ok(await post(`${RECRUIT}/signUp`, admin, { recruitId: r, volunteerId: bare })).id;
    const before = ok(await get(`${SR}/totals?volunteerId=${uid.staff01}`, admin));
    for (const id of [a, b]) ok(await get(`${RECRUIT}/bePresent?id=${id}`, admin));
    ok(await get(`${RECRUIT}/serviceApproved?id=${a}`, admin));
    const recs = ok(await get(`${SR}/pageList?volunteerId=${uid.staff01}&serviceType=3&pageCount=50`, admin))
      .list as any[];
    const rec = recs.find((x) => x.sourceTable === 'recruitSign' && x.sourceId === a);
    expect(rec).toMatchObject({ status: 1, serviceMinutes: 150, volunteerKind: 1, serviceDate: today() });
    const after = ok(await get(`${SR}/totals?volunteerId=${uid.staff01}`, admin));
    expect(after.totalMinutes).toBe(before.totalMinutes + 150);
    expect(after.yearMinutes).toBe(before.yearMinutes + 150);
    expect(after.pendingMinutes).toBe(before.pendingMinutes);
    // A camp of 30 hours: one record of 1800 minutes, drawn as the whole day.
    const camp = await adult(uid.staff02!);
    const c = ok(await post(`${RECRUIT}/signUp`, admin, { recruitId: r, volunteerId: camp })).id;
    ok(await get(`${RECRUIT}/bePresent?id=${c}`, admin));
    ok(await get(`${RECRUIT}/serviceApproved?id=${c}&hours=30`, admin));
    const campRec = (
      ok(await get(`${SR}/pageList?volunteerId=${uid.staff02}&serviceType=3&pageCount=50`, admin))
        .list as any[]
    ).find((x) => x.sourceId === c);
    expect(campRec).toMatchObject({ serviceMinutes: 1800, startTime: '00:00', endTime: '23:59', status: 1 });
    // Hours typed in for a volunteer without an account would count for nobody: refused, the
    // sign-up stays 已到岗.
    expect(refused(await get(`${RECRUIT}/serviceApproved?id=${b}&hours=2`, admin))).toBe(
      '该志愿者还没有登录账号，服务时长无法记入服务记录；请先为其开通账号后再确认时长',
    );
    expect(ok(await get(`${RECRUIT}/signDetail?id=${b}`, admin)).record.status).toBe(3);
  });

  it('filters the roll by this year’s confirmed hours and by 本年度未达标', async () => {
    const u5 = Number(
      (await s.db.selectFrom('user').select('id').where('account', '=', 'staff05').executeTakeFirstOrThrow())
        .id,
    );
    const u6 = Number(
      (await s.db.selectFrom('user').select('id').where('account', '=', 'staff06').executeTakeFirstOrThrow())
        .id,
    );
    const busy = await adult(u5);
    const idle = await adult(u6);
    const rec = ok(
      await post(`${SR}/save`, admin, {
        volunteerId: u5,
        volunteerKind: 1,
        serviceType: 3,
        serviceDate: today(),
        startTime: '08:00',
        endTime: '11:00',
        content: '展厅值守',
      }),
    ).id;
    // Pending hours do not count yet.
    const ids = async (q: string) =>
      (ok(await get(`${ADULT}/pageList?pageCount=200&${q}`, admin)).list as any[]).map((r) => r.id);
    expect(await ids('yearHoursFrom=3')).not.toContain(busy);
    ok(await post(`${SR}/confirm`, admin, { id: rec }));
    const atLeast3 = await ids('yearHoursFrom=3');
    expect(atLeast3).toContain(busy);
    expect(atLeast3).not.toContain(idle);
    const atMost1 = await ids('yearHoursTo=1');
    expect(atMost1).toContain(idle);
    expect(atMost1).not.toContain(busy);
    // Below the default 60 hours, both in service; meeting it, neither.
    expect(await ids('belowMinimum=true')).toEqual(expect.arrayContaining([busy, idle]));
    const met = await ids('belowMinimum=false');
    expect(met).not.toContain(busy);
    expect(met).not.toContain(idle);
    const bad = await get(`${ADULT}/pageList?yearHoursFrom=abc`, admin);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('本年度服务时长');
  });

  it('refuses to delete a volunteer whose service is on record, and deletes one without', async () => {
    const withHours = await adult(uid.staff03!);
    ok(
      await post(`${SR}/save`, admin, {
        volunteerId: uid.staff03,
        volunteerKind: 1,
        serviceType: 3,
        serviceDate: today(),
        startTime: '09:00',
        endTime: '11:00',
        content: '展厅值守',
      }),
    );
    expect(refused(await get(`${ADULT}/deleteAdult?id=${withHours}`, admin))).toMatch(
      /^志愿者\d+ 已有 \d+ 条志愿服务记录，删除会丢失其服务时长，不能删除；不再服务请用“退出”或“停用”$/,
    );
    const without = await adult(null);
    ok(await get(`${ADULT}/deleteAdult?id=${without}`, admin));
  });
});

describe('the list pages’ charts (serviceRecord/stats)', () => {
  it('sums a year’s confirmed hours by month and group, pending, attendance and new volunteers', async () => {
    await adult(uid.admin!, { joinDate: '2021-03-05' });
    const entry = async (date: string, start: string, end: string) =>
      ok(
        await post(`${SR}/save`, admin, {
          volunteerId: uid.admin,
          volunteerKind: 1,
          serviceType: 3,
          serviceDate: date,
          startTime: start,
          endTime: end,
          content: '展厅值守',
        }),
      ).id as number;
    ok(await post(`${SR}/confirm`, admin, { id: await entry('2021-03-02', '09:00', '11:00') }));
    await entry('2021-03-09', '09:00', '10:00'); // pending: not in the month's hours
    const ex = await exhibition({ startDate: '2021-01-01', endDate: '2021-12-31' });
    const sid = await session(ex, '2021-03-02', [uid.staff03!, uid.staff04!]);
    ok(
      await post(`${CI}/check`, admin, {
        detailId: sid,
        volunteerId: uid.staff04,
        time: '2021-03-02 10:00',
        reason: '现场登记',
      }),
    );
    ok(await post(`${CI}/markAbsent`, admin));
    const st = ok(await get(`${SR}/stats?year=2021`, admin));
    expect(st.hoursByMonth).toHaveLength(12);
    expect(st.hoursByMonth[2]).toBe(120);
    expect(st.hoursByMonth.reduce((a: number, b: number) => a + b, 0)).toBe(st.confirmedMinutes);
    expect(st.confirmedMinutes).toBe(120);
    expect(st.pendingMinutes).toBe(60);
    expect(st.hoursByGroup).toEqual([{ groupId, name: '讲解组', minutes: 120 }]);
    expect(st.attendanceByMonth[2]).toEqual({ present: 1, absent: 1 });
    expect(st.newByMonth[2]).toBe(1);
    // The volunteer with three no-shows above is still in service: one 建议停用.
    expect(st.suggestBlock).toBeGreaterThanOrEqual(1);
    // Another year is its own; bad input and readers without a grant are refused.
    expect(ok(await get(`${SR}/stats?year=2022`, admin)).confirmedMinutes).toBe(0);
    expect(refused(await get(`${SR}/stats?year=1999`, admin))).toContain('年份须在 2000–2100 之间');
    expect(refused(await get(`${SR}/stats?year=2021`, v1))).toBe('无权限执行此操作');
  });
});
