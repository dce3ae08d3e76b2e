import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addDays, formatMuseumMinute, museumDate } from '../../src/shared/rules/museum-time';
import { startServer, type TestServer } from './harness';
import { M, clearLoginAttempts, demoPhone, loginCall, userIdOf } from './util';
import { groupIdOf, idFor, jsonCalls } from './volunteer-util';

/**
 * Issue 20, the volunteer's own side (README "Volunteer accounts and the phone view"): the
 * account made (or linked by phone) at the interview's pass with a one-time initial password
 * that must be changed, the volunteer role without a staff menu, the phone view's answer (only
 * confirmed hours count, the year's edge), the claim of an open session with setExplain's guards
 * and its quota under parallel claims, withdrawing a sign-up, the refusal of non-volunteers, and
 * that nobody sees another volunteer's data. 转正 now counts confirmed hours.
 */

let s: TestServer;
let admin: string;
let groupId: number;
const APP = `${M}/v2/bsVolunteerV2ApplicationForm`;
const ADULT = `${M}/v2/bsVolunteerV2Adult`;
const RECRUIT = `${M}/v2/bsVolunteerV2Recruit`;
const EX = `${M}/v2/exhibition`;
const SES = `${M}/v2/exhibitionDetail`;
const QUAL = `${M}/v2/applyExhibition`;
const SR = `${M}/v2/serviceRecord`;
const ME = `${M}/v2/volunteer/me`;

const today = museumDate(Date.now());
const year = Number(today.slice(0, 4));

/** The server's log lines (the SMS hook writes there while no gateway is configured). */
const logLines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _enc, done) {
    logLines.push(chunk.toString());
    done();
  },
});

beforeAll(async () => {
  s = await startServer(
    { RATE_LIMIT_PER_MINUTE: '1000000' },
    { logger: { level: 'info', stream: logStream } },
  );
  admin = await s.login('admin');
  groupId = await groupIdOf(s);
});
afterAll(async () => s?.close());

const { post, get, ok, refused } = jsonCalls(() => s);

let seq = 0;
const inDays = (d: number) => formatMuseumMinute(Date.now() + d * 86_400_000);

interface Passed {
  applicationId: number;
  volunteerId: number;
  volunteerNo: string;
  operatorNote: string;
  account: { userId: number; account: string; linked: boolean; initialPassword?: string } | null;
  phone: string;
}
/** An application taken through the interview to a pass; answers the pass's answer. */
async function pass(
  over: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<Passed> {
  seq += 1;
  const phone = (over.phone as string) ?? `136${String(20_000_000 + seq).slice(-8)}`;
  const id = ok(
    await post(`${APP}/save`, admin, {
      type: 1,
      name: `林${String.fromCharCode(0x4e00 + seq * 7)}`,
      gender: 2,
      birthDate: '1990-05-06',
      idType: 1,
      idNumber: idFor('1990-05-06', 300 + seq),
      phone,
      emergencyName: '家人',
      emergencyPhone: '13800002222',
      groupId,
      availableTimes: '周末上午',
      ...over,
    }),
  ).id as number;
  ok(
    await get(
      `${APP}/sendInterview?id=${id}&interviewTime=${encodeURIComponent(inDays(2))}&interviewPlace=会议室`,
      admin,
    ),
  );
  const r = ok(await post(`${APP}/interviewResult`, admin, { id, result: 1, interviewScore: 90 }, headers));
  return { ...r, phone, applicationId: id };
}

/** A new volunteer signed in with a password of their own (the first sign-in's change done). */
async function volunteer(): Promise<Passed & { token: string; userId: number }> {
  const p = await pass();
  const first = await s.login(p.account!.account, p.account!.initialPassword);
  ok(
    await post(`${M}/personal/password`, first, {
      oldPassword: p.account!.initialPassword,
      newPassword: 'Vol@2026x',
    }),
  );
  const token = await s.login(p.account!.account, 'Vol@2026x');
  return { ...p, token, userId: p.account!.userId };
}

async function exhibition(needQualification: boolean): Promise<number> {
  seq += 1;
  return ok(
    await post(`${EX}/add`, admin, {
      name: `认领展${seq}`,
      hall: `${seq}号展厅`,
      startDate: today,
      endDate: addDays(today, 90),
      explainMinutes: 60,
      explainTimes: [{ time: '10:00' }],
      needQualification,
      status: 1,
    }),
  ).id as number;
}
/** A session `days` from today, open for claims unless told otherwise. */
async function session(
  exhibitionId: number,
  o: { days?: number; start?: string; end?: string; quota?: number; open?: boolean } = {},
): Promise<number> {
  const id = ok(
    await post(`${SES}/save`, admin, {
      exhibitionId,
      serviceDate: addDays(today, o.days ?? 2),
      startTime: o.start ?? '10:00',
      endTime: o.end ?? '11:00',
      type: 1,
      quota: o.quota ?? 1,
    }),
  ).id as number;
  if (o.open ?? true) ok(await post(`${SES}/showRecruit`, admin, { id, recruitOpen: true }));
  return id;
}
async function certify(exhibitionId: number, userId: number) {
  const staff = [await userIdOf(s, 'staff01'), await userIdOf(s, 'staff02')];
  const q = ok(
    await post(`${QUAL}/save`, admin, {
      exhibitionId,
      volunteerId: userId,
      trialTime: `${today} 09:00`,
      trialScore: 90,
      examinerIds: staff,
    }),
  ).id;
  ok(await post(`${QUAL}/pass`, admin, { id: q }));
  ok(await post(`${QUAL}/issue`, admin, { id: q, certNo: `ZS-${seq}-${userId}` }));
}
const me = async (token: string) => ok(await get(ME, token));

describe('the account made at the pass', () => {
  it('makes a volunteer-only account with a one-time initial password that must be changed', async () => {
    const p = await pass();
    expect(p.account).toMatchObject({ account: p.volunteerNo, linked: false });
    const pw = p.account!.initialPassword!;
    expect(pw).toMatch(/^[A-Za-z2-9]{10}$/);
    // Linked on the volunteer's record; the password is nowhere in the clear.
    const adult = ok(await get(`${ADULT}/detail?id=${p.volunteerId}`, admin)).record;
    expect(adult.userId).toBe(p.account!.userId);
    const u = await s.db
      .selectFrom('user')
      .selectAll()
      .where('id', '=', p.account!.userId)
      .executeTakeFirstOrThrow();
    expect(u.password_hash).not.toContain(pw);
    expect(Number(u.must_change_password)).toBe(1);
    const appDetail = JSON.stringify(ok(await get(`${APP}/pageList?pageCount=100`, admin)));
    expect(appDetail).not.toContain(pw);
    // The SMS (logged, no gateway) tells how to sign in, with the phone masked and the password blanked.
    const sms = logLines.filter((l) => l.includes('SMS 未配置网关') && l.includes(p.volunteerNo));
    expect(sms.join('')).toContain(`${p.phone.slice(0, 3)}****${p.phone.slice(-4)}`);
    expect(sms.join('')).toContain('初始密码 ******');
    expect(logLines.join('')).not.toContain(pw);

    // Signs in by the number and by the phone; the volunteer role alone, no staff menu, /m first.
    const token = await s.login(p.account!.account, pw);
    await s.login(p.phone, pw);
    const info = ok(await get(`${M}/login/userInfo`, token));
    expect(info.roles).toEqual(['volunteerRole']);
    expect(info.roleNames).toEqual(['志愿者']);
    const menu = ok(await get(`${M}/login/menu`, token));
    expect(menu).toEqual({ modules: [], grantedKeys: [] });
    expect(ok(await post(`${M}/login/getRoleFunction`, token)).firstUrl).toBe('/m');
    // Staff calls are refused.
    expect(refused(await get(`${ADULT}/pageList`, token))).toContain('无权限');

    // The phone view asks for a new password first; the change ends the initial one.
    const first = await me(token);
    expect(first.mustChangePassword).toBe(true);
    expect(first.volunteer).toMatchObject({ number: p.volunteerNo, status: 1, kind: 1, groupName: '讲解组' });
    ok(await post(`${M}/personal/password`, token, { oldPassword: pw, newPassword: 'Mine@2026' }));
    await clearLoginAttempts(s);
    expect((await loginCall(s, p.account!.account, pw)).body.success).toBe(false);
    const again = await s.login(p.account!.account, 'Mine@2026');
    expect((await me(again)).mustChangePassword).toBe(false);
    await clearLoginAttempts(s);
  });

  it("answers the staff dialog's pass (interviewPass) with the note to read out, once", async () => {
    seq += 1;
    const id = ok(
      await post(`${APP}/save`, admin, {
        type: 1,
        name: '韩晓',
        gender: 1,
        birthDate: '1990-05-06',
        idType: 1,
        idNumber: idFor('1990-05-06', 300 + seq),
        phone: `136${String(20_000_000 + seq).slice(-8)}`,
        emergencyName: '家人',
        emergencyPhone: '13800002222',
        groupId,
        availableTimes: '周末上午',
      }),
    ).id;
    ok(await post(`${APP}/sendInterview`, admin, { id, interviewTime: inDays(2), interviewPlace: '会议室' }));
    const key = { 'idempotency-key': `dialog-${randomUUID()}` };
    const r = ok(await post(`${APP}/interviewPass`, admin, { id, interviewScore: 80 }, key));
    const pw = r.account.initialPassword as string;
    expect(r.operatorNote).toContain(`初始密码：${pw}`);
    expect(r.operatorNote).toContain('只显示这一次');
    // The generic transition route keeps it out of the stored answer too.
    const replay = await post(`${APP}/interviewPass`, admin, { id, interviewScore: 80 }, key);
    expect(replay.headers.get('idempotent-replay')).toBe('true');
    expect(ok(replay).operatorNote).toContain('不再显示');
    expect(JSON.stringify(await s.db.selectFrom('idempotency').selectAll().execute())).not.toContain(pw);
    await s.login(r.account.account, pw);
    // The application's detail never shows it again.
    expect(JSON.stringify(ok(await get(`${APP}/detail?id=${id}`, admin)))).not.toContain(pw);
  });

  it('never stores the initial password: a replay of the pass answers without it and says why', async () => {
    const key = `pass-${randomUUID()}`;
    const first = await pass({}, { 'idempotency-key': key });
    const pw = first.account!.initialPassword!;
    expect(first.operatorNote).toContain(`初始密码：${pw}`);

    // The outbox resends the pass: answered from the stored copy, the account without its password.
    const again = await post(
      `${APP}/interviewResult`,
      admin,
      { id: first.applicationId, result: 1, interviewScore: 90 },
      { 'idempotency-key': key },
    );
    expect(again.headers.get('idempotent-replay')).toBe('true');
    const replay = ok(again);
    expect(replay).toMatchObject({ volunteerId: first.volunteerId, volunteerNo: first.volunteerNo });
    expect(replay.account).toEqual({
      userId: first.account!.userId,
      account: first.account!.account,
      linked: false,
    });
    expect(replay.operatorNote).toContain('初始密码已在第一次提交时显示过');
    expect(replay.operatorNote).toContain('“人员管理”');
    expect(replay.operatorNote).toContain('“重置密码”');
    expect(JSON.stringify(again.body)).not.toContain(pw);
    // One volunteer, not two.
    const made = await s.db
      .selectFrom('volunteer_adult')
      .select('id')
      .where('user_id', '=', first.account!.userId)
      .execute();
    expect(made).toHaveLength(1);

    // The stored answer, the system log's entry (once written), the status log, the notices:
    // the password is in no table at all, nor in the server's log.
    const stored = await s.db
      .selectFrom('idempotency')
      .selectAll()
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    expect(stored.response).toContain(first.volunteerNo);
    expect(stored.response).not.toContain(pw);
    await vi.waitFor(
      async () => {
        const rows = await s.db
          .selectFrom('system_log')
          .selectAll()
          .where('path', 'like', '%/interviewResult%')
          .where('target_id', '=', String(first.applicationId))
          .execute();
        expect(rows.length).toBeGreaterThan(0);
        expect(JSON.stringify(rows)).not.toContain(pw);
      },
      { timeout: 5000, interval: 50 },
    );
    for (const t of await s.db.introspection.getTables()) {
      const rows = await s.db
        .selectFrom(t.name as never)
        .selectAll()
        .execute();
      expect(JSON.stringify(rows), t.name).not.toContain(pw);
    }
    expect(logLines.join('')).not.toContain(pw);
  });

  it('links the existing account of a staff member who volunteers (same phone), keeping their menu', async () => {
    const staffId = await userIdOf(s, 'staff05');
    const before = ok(await get(`${M}/login/menu`, await s.login('staff05'))).grantedKeys as string[];
    const p = await pass({ phone: demoPhone(5) });
    expect(p.account).toEqual({ userId: staffId, account: 'staff05', linked: true });
    const token = await s.login('staff05');
    const info = ok(await get(`${M}/login/userInfo`, token));
    expect(info.roles).toContain('volunteerRole');
    expect(ok(await get(`${M}/login/menu`, token)).grantedKeys).toEqual(before);
    expect(ok(await post(`${M}/login/getRoleFunction`, token)).firstUrl).not.toBe('/m');
    const mine = await me(token);
    expect(mine.mustChangePassword).toBe(false);
    expect(mine.volunteer.number).toBe(p.volunteerNo);
  });

  it('refuses the phone view to someone who is not a volunteer, in Chinese', async () => {
    for (const call of [
      () => get(ME, admin),
      () => get(`${ME}/records`, admin),
      () => post(`${ME}/claim`, admin, { sessionId: 1 }),
      () => post(`${ME}/cancelSign`, admin, { signId: 1 }),
    ])
      expect(refused(await call())).toContain('你还不是本馆志愿者');
  });

  it('refuses bad input with the field named', async () => {
    const v = await volunteer();
    expect(refused(await post(`${ME}/claim`, v.token, { sessionId: 'abc' }))).toContain('场次');
    expect(refused(await post(`${ME}/cancelSign`, v.token, {}))).toContain('报名');
    expect(refused(await get(`${ME}/records?pageCount=1000`, v.token))).toContain('每页条数');
    expect(refused(await post(`${ME}/claim`, v.token, { sessionId: 99_999_999 }))).toBe(
      '该场次不存在或已删除，请刷新后重试',
    );
  });
});

describe('hours', () => {
  async function record(
    userId: number,
    date: string,
    start: string,
    end: string,
    confirm: boolean | 'reject',
  ) {
    const id = ok(
      await post(`${SR}/save`, admin, {
        volunteerId: userId,
        volunteerKind: 1,
        serviceType: 1,
        serviceDate: date,
        startTime: start,
        endTime: end,
        content: '展厅讲解',
      }),
    ).id;
    if (confirm === true) ok(await post(`${SR}/confirm`, admin, { id }));
    if (confirm === 'reject') ok(await post(`${SR}/reject`, admin, { id, reason: '时间不符' }));
    return id as number;
  }

  it('counts only confirmed records, this year apart from the total, and pending apart', async () => {
    const a = await volunteer();
    const b = await volunteer();
    await record(a.userId, `${year}-01-01`, '09:00', '11:00', true); // 120, this year
    await record(a.userId, `${year - 1}-12-31`, '09:00', '12:00', true); // 180, last year
    await record(a.userId, `${year}-02-01`, '09:00', '10:00', false); // 60 pending
    await record(a.userId, `${year}-02-02`, '09:00', '13:00', 'reject'); // never counts
    await record(b.userId, `${year}-01-02`, '09:00', '17:00', true); // b's, not a's
    expect((await me(a.token)).hours).toEqual({
      year,
      yearMinutes: 120,
      totalMinutes: 300,
      pendingMinutes: 60,
    });
    expect((await me(b.token)).hours).toMatchObject({
      yearMinutes: 480,
      totalMinutes: 480,
      pendingMinutes: 0,
    });
    // My records: mine only, newest first, paged.
    const page = ok(await get(`${ME}/records?currentPage=1&pageCount=3`, a.token));
    expect(page.total).toBe(4);
    expect(page.list.map((r: any) => r.serviceDate)).toEqual([
      `${year}-02-02`,
      `${year}-02-01`,
      `${year}-01-01`,
    ]);
    expect(page.list[0]).toMatchObject({ status: 2, rejectReason: '时间不符' });
    // Another volunteer's id in the query changes nothing: the call has no such field.
    const other = ok(await get(`${ME}/records?volunteerId=${b.userId}`, a.token));
    expect(other.total).toBe(4);
  });

  it('转正 counts the confirmed hours since joining', async () => {
    const v = await volunteer();
    await record(v.userId, today, '09:00', '17:00', true);
    await record(v.userId, today, '18:00', '20:00', false);
    const r = await get(`${ADULT}/becomeRegularWorker?id=${v.volunteerId}`, admin);
    expect(refused(r)).toContain('已服务 8 小时');
  });
});

describe('claiming an open session', () => {
  it('needs the certificate, refuses an overlap, a closed or full session, and takes a place once', async () => {
    const v = await volunteer();
    const w = await volunteer();
    const exQ = await exhibition(true);
    const exFree = await exhibition(false);
    const s1 = await session(exQ, { days: 2, start: '10:00', end: '11:00', quota: 1 });
    expect(refused(await post(`${ME}/claim`, v.token, { sessionId: s1 }))).toMatch(
      /^你尚未取得“认领展\d+”的讲解证书，不能认领该场次$/,
    );
    // Not offered to the uncertified either.
    expect((await me(v.token)).openSessions.map((x: any) => x.id)).not.toContain(s1);
    await certify(exQ, v.userId);
    const offered = (await me(v.token)).openSessions.find((x: any) => x.id === s1);
    expect(offered).toMatchObject({ left: 1, quota: 1, startTime: '10:00' });
    expect(ok(await post(`${ME}/claim`, v.token, { sessionId: s1 }))).toEqual({ sessionId: s1, left: 0 });
    expect(refused(await post(`${ME}/claim`, v.token, { sessionId: s1 }))).toContain('无需重复认领');
    // The session is 已安排 with me on it and my check-in row waiting; it shows in my week.
    const d = ok(await get(`${SES}/detail?id=${s1}`, admin)).record;
    expect(d).toMatchObject({ status: 1, explainerIds: [v.userId] });
    const mine = await me(v.token);
    expect(mine.sessions).toEqual([
      expect.objectContaining({
        id: s1,
        serviceDate: addDays(today, 2),
        status: 1,
        checkStatus: 0,
        checkInTime: null,
      }),
    ]);
    expect(mine.certificates).toHaveLength(1);
    // Full for the next person (certified too).
    await certify(exQ, w.userId);
    expect(refused(await post(`${ME}/claim`, w.token, { sessionId: s1 }))).toBe('该场次名额已满，认领未成功');
    // Overlapping 10:30–11:30 the same day in another hall: refused; not offered.
    const s2 = await session(exFree, { days: 2, start: '10:30', end: '11:30', quota: 3 });
    expect(refused(await post(`${ME}/claim`, v.token, { sessionId: s2 }))).toBe(
      `你在 ${addDays(today, 2)} 10:00–11:00 已有场次，时间重叠，不能认领`,
    );
    expect((await me(v.token)).openSessions.map((x: any) => x.id)).not.toContain(s2);
    // Back to back (11:00–12:00) is no overlap.
    const s3 = await session(exFree, { days: 2, start: '11:00', end: '12:00', quota: 3 });
    ok(await post(`${ME}/claim`, v.token, { sessionId: s3 }));
    // Not open for claims; cancelled; already started.
    const closed = await session(exFree, { days: 3, open: false });
    expect(refused(await post(`${ME}/claim`, v.token, { sessionId: closed }))).toContain('未开放认领');
    const cancelled = await session(exFree, { days: 4 });
    ok(await post(`${SES}/cancel`, admin, { id: cancelled, reason: '闭馆检修' }));
    expect(refused(await post(`${ME}/claim`, v.token, { sessionId: cancelled }))).toBe(
      '该场次已取消：闭馆检修',
    );
    const past = await session(exFree, { days: 0, start: '00:00', end: '00:30' });
    expect(refused(await post(`${ME}/claim`, v.token, { sessionId: past }))).toBe('该场次已开始，不能再认领');
    // A blocked volunteer claims nothing.
    const x = await volunteer();
    ok(await post(`${ADULT}/block`, admin, { id: x.volunteerId, reason: '多次缺席' }));
    const s4 = await session(exFree, { days: 5, quota: 2 });
    expect(refused(await post(`${ME}/claim`, x.token, { sessionId: s4 }))).toContain('已停用');
  });

  it('10 claims at once for 2 places: exactly 2 are taken', async () => {
    const ex = await exhibition(false);
    const sid = await session(ex, { days: 6, start: '14:00', end: '15:00', quota: 2 });
    const people = [];
    for (let i = 0; i < 10; i++) people.push(await volunteer());
    const answers = await Promise.all(people.map((p) => post(`${ME}/claim`, p.token, { sessionId: sid })));
    const won = answers.filter((a) => a.body.success);
    expect(won).toHaveLength(2);
    for (const a of answers.filter((x) => !x.body.success))
      expect(a.body.message).toBe('该场次名额已满，认领未成功');
    const d = ok(await get(`${SES}/detail?id=${sid}`, admin)).record;
    expect(d.explainerIds).toHaveLength(2);
    const rows = await s.db
      .selectFrom('volunteer_check_in')
      .select('volunteer_id')
      .where('detail_id', '=', sid)
      .execute();
    expect(rows.map((r) => Number(r.volunteer_id)).sort()).toEqual([...d.explainerIds].sort());
    // Each sees only their own sessions: the winners have it, the others do not.
    for (const [i, p] of people.entries()) {
      const has = (await me(p.token)).sessions.some((x: any) => x.id === sid);
      expect(has, `person ${i}`).toBe(d.explainerIds.includes(p.userId));
    }
  });
});

describe('recruits and notices on the phone', () => {
  async function openRecruit(over: Record<string, unknown> = {}) {
    const id = ok(
      await post(`${RECRUIT}/add`, admin, {
        title: `周末导览招募${++seq}`,
        type: 1,
        groupId,
        targetType: 1,
        content: '<p>招募</p>',
        signupStart: inDays(-1),
        signupEnd: inDays(1),
        total: 2,
        hoursPerPerson: '3',
        needReview: false,
        ...over,
      }),
    ).id as number;
    ok(await post(`${RECRUIT}/publish`, admin, { id }));
    return id;
  }
  const used = async (id: number) =>
    Number(
      (
        await s.db
          .selectFrom('volunteer_recruit')
          .select('used')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).used,
    );

  it('signs up, withdraws (the place goes back), signs up again; others cannot touch my sign-up', async () => {
    const v = await volunteer();
    const w = await volunteer();
    const rid = await openRecruit();
    const listed = (await me(v.token)).recruits.find((r: any) => r.id === rid);
    expect(listed).toMatchObject({ left: 2, mySign: null, needReview: false });
    const sign = ok(await post(`${RECRUIT}/signUp`, v.token, { recruitId: rid }));
    expect(sign.status).toBe(1);
    expect(await used(rid)).toBe(1);
    expect((await me(v.token)).recruits.find((r: any) => r.id === rid).mySign).toEqual({
      id: sign.id,
      status: 1,
      cancellable: true,
    });
    // Someone else's sign-up answers as missing.
    expect(refused(await post(`${ME}/cancelSign`, w.token, { signId: sign.id }))).toBe(
      '该报名不存在或已取消，请刷新后重试',
    );
    ok(await post(`${ME}/cancelSign`, v.token, { signId: sign.id }));
    expect(await used(rid)).toBe(0);
    expect(refused(await post(`${ME}/cancelSign`, v.token, { signId: sign.id }))).toBe(
      '该报名已取消，无需重复取消',
    );
    // Again: a new sign-up takes a place again.
    const again = ok(await post(`${RECRUIT}/signUp`, v.token, { recruitId: rid }));
    expect(again.id).not.toBe(sign.id);
    expect(await used(rid)).toBe(1);
    // After the sign-up closed, an admitted sign-up is no longer withdrawn by its volunteer.
    await s.db
      .updateTable('volunteer_recruit')
      .set({ signup_end: Date.now() - 60_000 })
      .where('id', '=', rid)
      .execute();
    expect(refused(await post(`${ME}/cancelSign`, v.token, { signId: again.id }))).toContain('报名已截止');
    expect(await used(rid)).toBe(1);
  });

  it('shows the notices published to all, to adults and to my group, never drafts or others', async () => {
    const v = await volunteer();
    const NOTICE = `${M}/v2/bsVolunteerV2Notice`;
    const add = async (
      title: string,
      audience: number,
      publish = true,
      over: Record<string, unknown> = {},
    ) => {
      const id = ok(
        await post(`${NOTICE}/add`, admin, {
          title,
          category: 1,
          content: '<p>内容<b>加粗</b></p>',
          audience,
          ...over,
        }),
      ).id;
      if (publish) ok(await get(`${NOTICE}/publishOrCancel?id=${id}`, admin));
      return id as number;
    };
    await add('全体志愿者公告', 1);
    await add('社会志愿者公告', 2);
    await add('学生公告', 3);
    await add('草稿公告', 1, false);
    await add('讲解组公告', 4, true, { groupId });
    const titles = (await me(v.token)).notices.map((n: any) => n.title);
    expect(titles).toEqual(expect.arrayContaining(['全体志愿者公告', '社会志愿者公告', '讲解组公告']));
    expect(titles).not.toContain('学生公告');
    expect(titles).not.toContain('草稿公告');
    const n = (await me(v.token)).notices.find((x: any) => x.title === '全体志愿者公告');
    expect(n.content).toBe('内容加粗');
  });
});
