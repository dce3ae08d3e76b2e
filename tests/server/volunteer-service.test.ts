import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, museumDate, parseMuseumMinute } from '../../src/shared/rules/museum-time';
import { startServer, type TestServer } from './harness';
import { M } from './util';
import { jsonCalls } from './volunteer-util';

/**
 * Volunteer service (issue 20; README "Volunteer service and check-in"): what the generic suite
 * cannot say. Sessions generated from an exhibition's daily times; explainers set only when
 * qualified (two examiners, a certificate) and not double-booked; the hall's Ed25519 code
 * (forged, another hall's, revoked); check-in and check-out placed by the server's clock and
 * clamped to the window, with the minutes at the window's edges; replays answered once; the
 * cancelled session and the unassigned volunteer refused in Chinese; hours counted only when
 * confirmed, in bulk; the annual check that lists and changes nobody.
 */

let s: TestServer;
let admin: string;
let v1: string; // staff04, a volunteer (by account)
let v2: string; // staff03
const uid: Record<string, number> = {};

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  admin = await s.login('admin');
  v1 = await s.login('staff04');
  v2 = await s.login('staff03');
  for (const a of ['staff01', 'staff02', 'staff03', 'staff04'])
    uid[a] = Number(
      (await s.db.selectFrom('user').select('id').where('account', '=', a).executeTakeFirstOrThrow()).id,
    );
});
afterAll(async () => s?.close());

const { post, get, ok, refused } = jsonCalls(() => s);

const EX = `${M}/v2/exhibition`;
const SES = `${M}/v2/exhibitionDetail`;
const QUAL = `${M}/v2/applyExhibition`;
const CI = `${M}/v2/exhibitionDetailUser`;
const SR = `${M}/v2/serviceRecord`;

const at = (minute: string) => parseMuseumMinute(minute)!;
let clientSeq = 0;
const clientId = () => `01TESTCLIENT${String(++clientSeq).padStart(8, '0')}`;

async function exhibition(over: Record<string, unknown> = {}): Promise<number> {
  return ok(
    await post(`${EX}/add`, admin, {
      name: `讲解展${++clientSeq}`,
      hall: '一号展厅',
      startDate: '2030-03-01',
      endDate: '2030-03-14',
      explainMinutes: 30,
      explainTimes: [{ time: '14:30' }, { time: '10:00' }],
      needQualification: true,
      status: 1,
      ...over,
    }),
  ).id as number;
}

async function sessionsOf(exhibitionId: number) {
  return ok(await get(`${SES}/list?exhibitionId=${exhibitionId}&pageCount=200`, admin)).list as any[];
}

describe('sessions from an exhibition', () => {
  it('generates one session per daily time on open weekdays inside the exhibition, once', async () => {
    const id = await exhibition();
    const r = ok(
      await post(`${SES}/generate`, admin, {
        exhibitionId: id,
        from: '2030-02-20',
        to: '2030-04-01',
        quota: 2,
      }),
    );
    // 2030-03-01..14 is 14 days; Mondays (03-04, 03-11) are closed by default (周二至周日).
    expect(r).toMatchObject({ created: 24, closedDays: 2 });
    const list = await sessionsOf(id);
    expect(list).toHaveLength(24);
    expect(list[0]).toMatchObject({
      serviceDate: '2030-03-01',
      startTime: '10:00',
      endTime: '10:30',
      quota: 2,
      status: 0,
    });
    expect(list[1]).toMatchObject({ startTime: '14:30', endTime: '15:00' });
    expect(list.some((x) => x.serviceDate === '2030-03-04')).toBe(false);
    // A second run leaves the existing sessions as they are.
    expect(
      ok(await post(`${SES}/generate`, admin, { exhibitionId: id, from: '2030-03-01', to: '2030-03-14' }))
        .created,
    ).toBe(0);
  });

  it('refuses dates outside the exhibition, reversed dates, a disabled exhibition and bad input', async () => {
    const id = await exhibition();
    expect(
      refused(
        await post(`${SES}/generate`, admin, { exhibitionId: id, from: '2030-05-01', to: '2030-05-03' }),
      ),
    ).toContain('不在展览的展期内');
    expect(
      refused(
        await post(`${SES}/generate`, admin, { exhibitionId: id, from: '2030-03-05', to: '2030-03-01' }),
      ),
    ).toBe('结束日期不能早于开始日期');
    expect(
      refused(await post(`${SES}/generate`, admin, { exhibitionId: id, from: '2030-3-1', to: '2030-03-01' })),
    ).toContain('日期须为 yyyy-MM-dd');
    const off = await exhibition({ status: 0 });
    expect(
      refused(
        await post(`${SES}/generate`, admin, { exhibitionId: off, from: '2030-03-01', to: '2030-03-02' }),
      ),
    ).toBe('该展览已停用，不能生成场次');
    expect(
      refused(await post(`${SES}/generate`, v1, { exhibitionId: id, from: '2030-03-01', to: '2030-03-02' })),
    ).toBe('无权限执行此操作');
  });
});

describe('explainers: qualified and not double-booked', () => {
  it('needs two examiners to pass, a unique certificate, then lets the volunteer be set', async () => {
    const id = await exhibition();
    ok(
      await post(`${SES}/generate`, admin, {
        exhibitionId: id,
        from: '2030-03-05',
        to: '2030-03-05',
        quota: 1,
      }),
    );
    const [morning] = await sessionsOf(id);
    // Not qualified yet.
    expect(
      refused(await post(`${SES}/setExplain`, admin, { id: morning.id, explainerIds: [uid.staff04] })),
    ).toMatch(/尚未取得“讲解展\d+”的讲解证书/);
    const q = ok(
      await post(`${QUAL}/save`, admin, {
        exhibitionId: id,
        volunteerId: uid.staff04,
        trialTime: '2030-02-20 10:00',
        trialScore: 90,
        examinerIds: [uid.staff01],
      }),
    ).id;
    expect(refused(await post(`${QUAL}/pass`, admin, { id: q }))).toBe('考核须有至少 2 名考官');
    ok(
      await post(`${QUAL}/update`, admin, {
        id: q,
        exhibitionId: id,
        volunteerId: uid.staff04,
        trialTime: '2030-02-20 10:00',
        trialScore: 90,
        examinerIds: [uid.staff01, uid.staff02],
      }),
    );
    ok(await post(`${QUAL}/pass`, admin, { id: q }));
    // Passed but no certificate yet: still not assignable.
    expect(
      refused(await post(`${SES}/setExplain`, admin, { id: morning.id, explainerIds: [uid.staff04] })),
    ).toContain('尚未取得');
    ok(await post(`${QUAL}/issue`, admin, { id: q, certNo: 'JS-2030-001' }));
    const d = ok(await get(`${QUAL}/detail?id=${q}`, admin)).record;
    expect(d).toMatchObject({ status: 3, certNo: 'JS-2030-001' });
    expect(d.issueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // The same certificate number for someone else is refused.
    const other = ok(
      await post(`${QUAL}/save`, admin, {
        exhibitionId: id,
        volunteerId: uid.staff03,
        trialTime: '2030-02-20 11:00',
        trialScore: 80,
        examinerIds: [uid.staff01, uid.staff02],
      }),
    ).id;
    ok(await post(`${QUAL}/pass`, admin, { id: other }));
    expect(refused(await post(`${QUAL}/issue`, admin, { id: other, certNo: 'JS-2030-001' }))).toBe(
      '证书编号 JS-2030-001 已被使用，请换一个编号',
    );
    // Over the quota (1), then one explainer: set, the session 已安排, a check-in row made.
    expect(
      refused(
        await post(`${SES}/setExplain`, admin, { id: morning.id, explainerIds: [uid.staff04, uid.staff03] }),
      ),
    ).toBe('讲解员不能超过需要人数 1 人');
    ok(await post(`${SES}/setExplain`, admin, { id: morning.id, explainerIds: [uid.staff04] }));
    expect(ok(await get(`${SES}/detail?id=${morning.id}`, admin)).record).toMatchObject({
      status: 1,
      explainerIds: [uid.staff04],
    });
    const rows = ok(await get(`${CI}/checkList?detailId=${morning.id}`, admin));
    expect(rows.list).toHaveLength(1);
    expect(rows.counts.find((c: any) => c.value === 0).count).toBe(1);
  });

  it('refuses a volunteer already on an overlapping session that day, whatever the exhibition', async () => {
    const a = await exhibition({ needQualification: false });
    const b = await exhibition({
      needQualification: false,
      explainTimes: [{ time: '10:15' }, { time: '10:30' }],
    });
    ok(await post(`${SES}/generate`, admin, { exhibitionId: a, from: '2030-03-06', to: '2030-03-06' }));
    ok(await post(`${SES}/generate`, admin, { exhibitionId: b, from: '2030-03-06', to: '2030-03-06' }));
    const [a10] = await sessionsOf(a);
    const [b1015, b1030] = await sessionsOf(b);
    ok(await post(`${SES}/setExplain`, admin, { id: a10.id, explainerIds: [uid.staff03] }));
    expect(
      refused(await post(`${SES}/setExplain`, admin, { id: b1015.id, explainerIds: [uid.staff03] })),
    ).toMatch(/^.+在 2030-03-06 10:00–10:30 已有场次，时间重叠，不能重复安排$/);
    // Touching sessions (10:00–10:30 then 10:30–11:00) are a hand-over, not an overlap.
    ok(await post(`${SES}/setExplain`, admin, { id: b1030.id, explainerIds: [uid.staff03] }));
  });
});

/** An exhibition with one assigned session on `day` at 10:00–10:30 for staff04; its code. */
async function assigned(day = '2030-03-07') {
  const id = await exhibition({
    needQualification: false,
    startDate: day,
    endDate: day,
    explainTimes: [{ time: '10:00' }],
  });
  ok(await post(`${SES}/generate`, admin, { exhibitionId: id, from: day, to: day }));
  const [session] = await sessionsOf(id);
  ok(await post(`${SES}/setExplain`, admin, { id: session.id, explainerIds: [uid.staff04] }));
  const code = ok(await get(`${EX}/qrCode?id=${id}`, admin));
  return { exhibitionId: id, detailId: session.id as number, qr: code.payload as string, day };
}

const checkIn = (token: string, body: Record<string, unknown>) => post(`${CI}/check`, token, body);
const checkOut = (token: string, body: Record<string, unknown>) => post(`${CI}/checkTime`, token, body);

describe('check-in and check-out placed by the server', () => {
  it('clamps to the window and counts whole units at the edges', async () => {
    const a = await assigned();
    // 09:00 on the phone is before the 30 minutes' early window: placed at 09:30.
    const cin = ok(
      await checkIn(v1, {
        detailId: a.detailId,
        qrPayload: a.qr,
        deviceTime: at(`${a.day} 09:00`),
        clientId: clientId(),
      }),
    );
    expect(cin.record.checkInTime).toBe(at(`${a.day} 09:30`));
    expect(cin.record.status).toBe(1);
    // 11:45 is after the end + 30 minutes: placed at 11:00; 90 minutes from 09:30.
    const out = ok(
      await checkOut(v1, {
        detailId: a.detailId,
        qrPayload: a.qr,
        deviceTime: at(`${a.day} 11:45`),
        clientId: clientId(),
      }),
    );
    expect(out.record).toMatchObject({ status: 2, checkOutTime: at(`${a.day} 11:00`), serviceMinutes: 90 });
    // The service record is written, pending: it does not count yet.
    const recs = ok(
      await get(
        `${SR}/pageList?volunteerId=${uid.staff04}&serviceDateFrom=${a.day}&serviceDateTo=${a.day}`,
        admin,
      ),
    ).list;
    expect(recs).toHaveLength(1);
    expect(recs[0]).toMatchObject({
      serviceType: 4,
      serviceMinutes: 90,
      status: 0,
      startTime: '09:30',
      endTime: '11:00',
    });
  });

  it('applies the measured clock offset and rounds down to the unit', async () => {
    const a = await assigned('2030-03-08');
    // The phone runs 5 minutes slow: 09:55 on it is 10:00 on the server.
    ok(
      await checkIn(v1, {
        detailId: a.detailId,
        qrPayload: a.qr,
        deviceTime: at(`${a.day} 09:55`),
        serverOffsetMs: 300_000,
        clientId: clientId(),
      }),
    );
    // 10:59 − 10:00 = 59 minutes: one unit of 30.
    const out = ok(
      await checkOut(v1, {
        detailId: a.detailId,
        qrPayload: a.qr,
        deviceTime: at(`${a.day} 10:54`),
        serverOffsetMs: 300_000,
        clientId: clientId(),
      }),
    );
    expect(out.record).toMatchObject({
      checkInTime: at(`${a.day} 10:00`),
      checkOutTime: at(`${a.day} 10:59`),
      serviceMinutes: 30,
    });
  });

  it('counts nothing for under one unit, and a check-out never before the check-in', async () => {
    const a = await assigned('2030-03-09');
    ok(
      await checkIn(v1, {
        detailId: a.detailId,
        qrPayload: a.qr,
        deviceTime: at(`${a.day} 10:29`),
        clientId: clientId(),
      }),
    );
    const out = ok(
      await checkOut(v1, {
        detailId: a.detailId,
        qrPayload: a.qr,
        deviceTime: at(`${a.day} 10:10`),
        clientId: clientId(),
      }),
    );
    expect(out.record).toMatchObject({
      checkInTime: at(`${a.day} 10:29`),
      checkOutTime: at(`${a.day} 10:29`),
      serviceMinutes: 0,
    });
  });

  it('answers a replay with what it answered first, by client id and by volunteer and session', async () => {
    const a = await assigned('2030-03-10');
    const cid = clientId();
    const body = { detailId: a.detailId, qrPayload: a.qr, deviceTime: at(`${a.day} 09:58`), clientId: cid };
    const first = ok(await checkIn(v1, body));
    expect(first.replay).toBe(false);
    const again = await Promise.all([checkIn(v1, body), checkIn(v1, body), checkIn(v1, body)]);
    for (const r of again)
      expect(ok(r)).toMatchObject({
        replay: true,
        record: { id: first.record.id, checkInTime: at(`${a.day} 09:58`) },
      });
    // Another device's later check-in for the same session keeps the first time.
    const other = ok(await checkIn(v1, { ...body, deviceTime: at(`${a.day} 10:05`), clientId: clientId() }));
    expect(other).toMatchObject({ replay: true, record: { checkInTime: at(`${a.day} 09:58`) } });
    const outBody = {
      detailId: a.detailId,
      qrPayload: a.qr,
      deviceTime: at(`${a.day} 10:30`),
      clientId: clientId(),
    };
    ok(await checkOut(v1, outBody));
    ok(await checkOut(v1, outBody));
    const log = ok(await get(`${CI}/detail?id=${first.record.id}`, admin)).log as any[];
    expect(log.filter((l) => l.action === 'check')).toHaveLength(1);
    expect(log.filter((l) => l.action === 'checkTime')).toHaveLength(1);
    const recs = ok(await get(`${SR}/pageList?serviceDateFrom=${a.day}&serviceDateTo=${a.day}`, admin)).list;
    expect(recs).toHaveLength(1);
  });

  it('refuses a forged code, another exhibition’s, and a revoked one; the new one works', async () => {
    const a = await assigned('2030-03-12');
    const b = await assigned('2030-03-13');
    const base = { detailId: a.detailId, deviceTime: at(`${a.day} 09:50`) };
    const sig = a.qr.slice(a.qr.lastIndexOf('.') + 1);
    const forged = `${a.qr.slice(0, a.qr.lastIndexOf('.') + 1)}${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
    expect(refused(await checkIn(v1, { ...base, qrPayload: forged, clientId: clientId() }))).toBe(
      '签到码无效（签名校验失败），请扫描展厅现场的签到码',
    );
    // A code whose claims were edited (another version) with the old signature: forged too.
    const parts = a.qr.split('.');
    parts[3] = String(Number(parts[3]) + 1);
    expect(
      refused(await checkIn(v1, { ...base, qrPayload: parts.join('.'), clientId: clientId() })),
    ).toContain('签名校验失败');
    expect(refused(await checkIn(v1, { ...base, qrPayload: 'not-a-code', clientId: clientId() }))).toContain(
      '签名校验失败',
    );
    expect(refused(await checkIn(v1, { ...base, clientId: clientId() }))).toBe('请扫描展厅的签到码');
    expect(refused(await checkIn(v1, { ...base, qrPayload: b.qr, clientId: clientId() }))).toMatch(
      /^这不是“讲解展\d+”的签到码/,
    );
    const fresh = ok(await post(`${EX}/revokeQr`, admin, { id: a.exhibitionId }));
    expect(fresh.qrVersion).toBe(2);
    expect(refused(await checkIn(v1, { ...base, qrPayload: a.qr, clientId: clientId() }))).toBe(
      '签到码已作废（展厅已更换新码），请扫描展厅现场的新签到码',
    );
    ok(await checkIn(v1, { ...base, qrPayload: fresh.payload, clientId: clientId() }));
    // The key a phone checks codes with offline.
    expect(ok(await get(`${EX}/qrKey`, v1))).toMatchObject({
      algorithm: 'Ed25519',
      publicKey: fresh.publicKey,
    });
  });

  it('refuses a cancelled session with its reason, and a volunteer not on the session', async () => {
    const a = await assigned('2030-03-14');
    ok(await post(`${SES}/cancel`, admin, { id: a.detailId, reason: '展厅临时闭馆' }));
    expect(
      refused(
        await checkIn(v1, {
          detailId: a.detailId,
          qrPayload: a.qr,
          deviceTime: at(`${a.day} 09:50`),
          clientId: clientId(),
        }),
      ),
    ).toBe('该场次已取消：展厅临时闭馆，签到未计入');
    const b = await assigned('2030-03-02');
    expect(
      refused(
        await checkIn(v2, {
          detailId: b.detailId,
          qrPayload: b.qr,
          deviceTime: at(`${b.day} 09:50`),
          clientId: clientId(),
        }),
      ),
    ).toBe('你未被安排在该场次，无法签到；如需参加请联系志愿者管理员');
    // Checking out before checking in, and someone else's 代签 without the grant.
    expect(
      refused(
        await checkOut(v1, {
          detailId: b.detailId,
          qrPayload: b.qr,
          deviceTime: at(`${b.day} 10:30`),
          clientId: clientId(),
        }),
      ),
    ).toBe('尚未签到，不能签退');
    expect(refused(await checkIn(v2, { detailId: b.detailId, volunteerId: uid.staff04 }))).toBe(
      '只有志愿者管理员可以代签或补签',
    );
  });

  it('flags skew, late sync and one phone for two volunteers, and still takes the check-in', async () => {
    const a = await assigned('2030-03-03');
    // The phone's clock was 20 minutes off at its last sync: placed at 10:00, flagged.
    const skew = ok(
      await checkIn(v1, {
        detailId: a.detailId,
        qrPayload: a.qr,
        deviceTime: at(`${a.day} 09:40`),
        serverOffsetMs: 20 * 60_000,
        clientId: clientId(),
        deviceId: 'phone-1',
      }),
    );
    expect(skew.record).toMatchObject({ status: 1, checkInTime: at(`${a.day} 10:00`) });
    expect(skew.record.flags).toContain('手机时钟偏差超过 10 分钟');
    // A session in 2030 synced now is no late sync; one checked in long ago is.
    expect(skew.record.flags).not.toContain('24 小时');
    // staff03, on another exhibition's 10:00 session, checks in on the same phone a minute later.
    const ex = await exhibition({ needQualification: false, explainTimes: [{ time: '10:00' }] });
    ok(await post(`${SES}/generate`, admin, { exhibitionId: ex, from: a.day, to: a.day }));
    const [s2] = await sessionsOf(ex);
    ok(await post(`${SES}/setExplain`, admin, { id: s2.id, explainerIds: [uid.staff03] }));
    const qr2 = ok(await get(`${EX}/qrCode?id=${ex}`, admin)).payload;
    const shared = ok(
      await checkIn(v2, {
        detailId: s2.id,
        qrPayload: qr2,
        deviceTime: at(`${a.day} 10:01`),
        clientId: clientId(),
        deviceId: 'phone-1',
      }),
    );
    expect(shared.record.status).toBe(1);
    expect(shared.record.flags).toContain('同一手机 2 分钟内为两名志愿者签到');
  });

  it('flags a check-in synced more than a day late', async () => {
    const day = addDays(museumDate(Date.now()), -3);
    const id = await exhibition({
      needQualification: false,
      startDate: addDays(day, -1),
      endDate: addDays(day, 1),
    });
    // Added by hand, so any weekday will do.
    const sid = ok(
      await post(`${SES}/save`, admin, {
        exhibitionId: id,
        serviceDate: day,
        startTime: '10:00',
        endTime: '10:30',
        type: 3,
        quota: 1,
        recruitOpen: false,
      }),
    ).id;
    ok(await post(`${SES}/setExplain`, admin, { id: sid, explainerIds: [uid.staff04] }));
    const qr = ok(await get(`${EX}/qrCode?id=${id}`, admin)).payload;
    const r = ok(
      await checkIn(v1, {
        detailId: sid,
        qrPayload: qr,
        deviceTime: at(`${day} 09:59`),
        clientId: clientId(),
      }),
    );
    expect(r.record).toMatchObject({
      status: 1,
      checkInTime: at(`${day} 09:59`),
      flags: '超过 24 小时后才同步',
    });
  });

  it('lets an administrator check someone in (代签) and correct the time (补签) with a reason', async () => {
    const a = await assigned('2030-04-02');
    const cin = ok(
      await checkIn(admin, {
        detailId: a.detailId,
        volunteerId: uid.staff04,
        time: `${a.day} 10:00`,
        reason: '手机没电',
      }),
    );
    expect(cin.record).toMatchObject({ source: 3, checkInTime: at(`${a.day} 10:00`) });
    expect(
      refused(
        await checkOut(admin, { detailId: a.detailId, volunteerId: uid.staff04, time: `${a.day} 10:30` }),
      ),
    ).toBe('补签须填写原因');
    const out = ok(
      await checkOut(admin, {
        detailId: a.detailId,
        volunteerId: uid.staff04,
        time: `${a.day} 10:30`,
        reason: '忘记签退',
      }),
    );
    expect(out.record).toMatchObject({ status: 2, serviceMinutes: 30, remark: '忘记签退' });
    // A second correction rewrites the pending record's minutes; there is still one record.
    const fixed = ok(
      await checkOut(admin, {
        detailId: a.detailId,
        volunteerId: uid.staff04,
        time: `${a.day} 11:00`,
        reason: '核对后更正',
      }),
    );
    expect(fixed.record.serviceMinutes).toBe(60);
    const recs = ok(
      await get(
        `${SR}/pageList?volunteerId=${uid.staff04}&serviceDateFrom=${a.day}&serviceDateTo=${a.day}`,
        admin,
      ),
    ).list;
    expect(recs.filter((r: any) => r.serviceType === 4)).toHaveLength(1);
    expect(recs.find((r: any) => r.serviceType === 4).serviceMinutes).toBe(60);
  });
});

describe('notices to volunteers', () => {
  const noticesOf = async (account: string) =>
    (
      await s.db
        .selectFrom('notice')
        .select('notice_content')
        .where('user_id', '=', uid[account]!)
        .orderBy('id', 'asc')
        .execute()
    ).map((n) => n.notice_content);

  it('tells a volunteer of a session assigned, a session cancelled and hours confirmed', async () => {
    const a = await assigned('2030-04-03');
    await expect
      .poll(() => noticesOf('staff04'))
      .toContainEqual(
        expect.stringMatching(/^你已被安排在 2030-04-03 10:00–10:30「讲解展\d+」（一号展厅）的讲解场次/),
      );
    ok(
      await checkIn(v1, {
        detailId: a.detailId,
        qrPayload: a.qr,
        deviceTime: at(`${a.day} 10:00`),
        clientId: clientId(),
      }),
    );
    ok(
      await checkOut(v1, {
        detailId: a.detailId,
        qrPayload: a.qr,
        deviceTime: at(`${a.day} 10:30`),
        clientId: clientId(),
      }),
    );
    const [rec] = ok(
      await get(`${SR}/pageList?serviceDateFrom=${a.day}&serviceDateTo=${a.day}&serviceType=4`, admin),
    ).list;
    ok(await post(`${SR}/confirm`, admin, { id: rec.id }));
    await expect
      .poll(() => noticesOf('staff04'))
      .toContainEqual(
        expect.stringMatching(/^你 2030-04-03 的志愿服务（讲解展\d+ 10:00 场次讲解）0\.5 小时已确认/),
      );
    const b = await assigned('2030-04-04');
    ok(await post(`${SES}/cancel`, admin, { id: b.detailId, reason: '布展调整' }));
    await expect
      .poll(() => noticesOf('staff04'))
      .toContain('你 2030-04-04 10:00–10:30 的讲解场次已取消：布展调整');
  });
});

describe('缺勤 after a session ends', () => {
  it('marks who never checked in absent, leaves who did and cancelled sessions alone', async () => {
    const id = await exhibition({ needQualification: false, startDate: '2020-01-01', endDate: '2020-12-31' });
    const save = async (start: string, end: string) =>
      ok(
        await post(`${SES}/save`, admin, {
          exhibitionId: id,
          serviceDate: '2020-01-07',
          startTime: start,
          endTime: end,
          type: 3,
          quota: 2,
          recruitOpen: false,
        }),
      ).id as number;
    const past = await save('09:00', '09:30');
    const cancelled = await save('13:00', '13:30');
    ok(await post(`${SES}/setExplain`, admin, { id: past, explainerIds: [uid.staff03, uid.staff04] }));
    ok(await post(`${SES}/setExplain`, admin, { id: cancelled, explainerIds: [uid.staff03] }));
    ok(await post(`${SES}/cancel`, admin, { id: cancelled, reason: '停电' }));
    ok(
      await checkIn(admin, {
        detailId: past,
        volunteerId: uid.staff04,
        time: '2020-01-07 09:00',
        reason: '现场登记',
      }),
    );
    expect(refused(await post(`${CI}/markAbsent`, v1))).toBe('无权限执行此操作');
    expect(ok(await post(`${CI}/markAbsent`, admin)).marked).toBeGreaterThanOrEqual(1);
    const rows = ok(await get(`${CI}/checkList?detailId=${past}`, admin)).list as any[];
    expect(rows.find((r) => r.volunteerId === uid.staff03).status).toBe(3);
    expect(rows.find((r) => r.volunteerId === uid.staff04).status).toBe(1);
    const other = ok(await get(`${CI}/checkList?detailId=${cancelled}`, admin)).list as any[];
    expect(other[0].status).toBe(0);
    // Running again marks nobody new.
    expect(ok(await post(`${CI}/markAbsent`, admin)).marked).toBe(0);
  });
});

describe('hours: confirmed only, derived, checked yearly', () => {
  it('derives a hand entry’s minutes and refuses impossible times', async () => {
    const body = {
      volunteerId: uid.staff03,
      volunteerKind: 1,
      serviceType: 3,
      serviceDate: '2029-06-01',
      startTime: '09:00',
      endTime: '10:45',
      content: '端午活动服务',
    };
    const id = ok(await post(`${SR}/save`, admin, { ...body, serviceMinutes: 999 })).id;
    expect(ok(await get(`${SR}/detail?id=${id}`, admin)).record.serviceMinutes).toBe(90);
    const bad = await post(`${SR}/save`, admin, { ...body, endTime: '08:00' });
    expect(bad.body.result.fields.endTime).toBe('结束时间须晚于开始时间');
    const long = await post(`${SR}/save`, admin, { ...body, startTime: '08:00', endTime: '17:30' });
    expect(long.body.result.fields.endTime).toBe('一天的服务时长不能超过 8 小时（只计实际服务时间）');
  });

  it('counts only confirmed records, confirms in bulk, and the annual check lists without exiting', async () => {
    const make = async (date: string, start: string, end: string) =>
      ok(
        await post(`${SR}/save`, admin, {
          volunteerId: uid.staff01,
          volunteerKind: 1,
          serviceType: 1,
          serviceDate: date,
          startTime: start,
          endTime: end,
          content: '接待讲解',
        }),
      ).id as number;
    const a = await make('2028-05-01', '09:00', '12:00'); // 180
    const b = await make('2028-05-02', '09:00', '10:00'); // 60
    const c = await make('2028-05-03', '09:00', '11:00'); // 120, rejected below
    const before = ok(await get(`${SR}/totals?volunteerId=${uid.staff01}&year=2028`, admin));
    expect(before).toMatchObject({ totalMinutes: 0, yearMinutes: 0, pendingMinutes: 360 });
    ok(await post(`${SR}/reject`, admin, { id: c, reason: '重复登记' }));
    const r = ok(await post(`${SR}/batchConfirm`, admin, { ids: [a, b, c] }));
    expect(r.confirmed).toBe(2);
    expect(r.skipped).toEqual([{ id: c, reason: '状态已变化，请刷新' }]);
    // Confirming again changes nothing.
    expect(ok(await post(`${SR}/batchConfirm`, admin, { ids: [a, b] })).confirmed).toBe(0);
    expect(ok(await get(`${SR}/totals?volunteerId=${uid.staff01}&year=2028`, admin))).toMatchObject({
      totalMinutes: 240,
      yearMinutes: 240,
      pendingMinutes: 0,
    });
    expect(ok(await get(`${SR}/detail?id=${a}`, admin)).record).toMatchObject({
      status: 1,
      confirmBy: expect.any(Number),
    });
    // A confirmed record is neither changed nor deleted.
    expect(refused(await get(`${SR}/delete?id=${a}`, admin))).toBe(
      '已确认的服务记录不能删除，它已计入服务时长',
    );
    // The annual check: 4 h is below the 60 h default; it lists and changes nobody.
    const check = ok(await get(`${SR}/annualCheck?year=2028`, admin));
    expect(check.minMinutes).toBe(3600);
    expect(check.below.find((p: any) => p.volunteerId === uid.staff01)).toMatchObject({ minutes: 240 });
    expect(ok(await get(`${SR}/detail?id=${a}`, admin)).record.status).toBe(1);
    // Someone without the grant cannot confirm, nor read another's totals.
    expect(refused(await post(`${SR}/batchConfirm`, v1, { ids: [b] }))).toBe('无权限执行此操作');
    expect(refused(await get(`${SR}/totals?volunteerId=${uid.staff01}`, v1))).toBe('无权限执行此操作');
  });

  it('confirming a session’s record confirms its check-in', async () => {
    const a = await assigned('2030-03-01');
    ok(
      await checkIn(v1, {
        detailId: a.detailId,
        qrPayload: a.qr,
        deviceTime: at(`${a.day} 10:00`),
        clientId: clientId(),
      }),
    );
    const out = ok(
      await checkOut(v1, {
        detailId: a.detailId,
        qrPayload: a.qr,
        deviceTime: at(`${a.day} 10:30`),
        clientId: clientId(),
      }),
    );
    const [rec] = ok(
      await get(`${SR}/pageList?serviceDateFrom=${a.day}&serviceDateTo=${a.day}&serviceType=4`, admin),
    ).list;
    ok(await post(`${SR}/batchConfirm`, admin, { ids: [rec.id] }));
    expect(ok(await get(`${CI}/detail?id=${out.record.id}`, admin)).record.status).toBe(4);
    const day = ok(await get(`${CI}/dayCounts?date=${a.day}`, admin));
    expect(day.sessions.find((x: any) => x.id === a.detailId)).toMatchObject({
      assigned: 1,
      confirmed: 1,
      waiting: 0,
    });
  });
});

describe('student service bookings (服务预约)', () => {
  const SLOT = `${M}/v2/stuServiceSlot`;
  const AP = `${M}/v2/stuServiceAppoint`;

  it('never books more places than the slot holds, under parallel bookings; a cancel gives them back', async () => {
    const slotId = ok(
      await post(`${SLOT}/save`, admin, {
        serviceDate: '2030-07-02',
        startTime: '09:00',
        endTime: '11:00',
        total: 5,
        open: true,
      }),
    ).id;
    const tries = await Promise.all(
      Array.from({ length: 12 }, () =>
        post(`${AP}/save`, admin, { slotId, volunteerId: uid.staff04, persons: 1 }),
      ),
    );
    const won = tries.filter((r) => r.body.success);
    expect(won).toHaveLength(5);
    for (const r of tries.filter((x) => !x.body.success))
      expect(r.body.result.fields.slotId).toBe('名额不足或已停止预约，请选择其他场次');
    expect(ok(await get(`${SLOT}/detail?id=${slotId}`, admin)).record.used).toBe(5);
    // The slot cannot shrink below what is booked.
    const shrink = await post(`${SLOT}/update`, admin, {
      id: slotId,
      serviceDate: '2030-07-02',
      startTime: '09:00',
      endTime: '11:00',
      total: 4,
      open: true,
    });
    expect(shrink.body.result.fields.total).toBe('名额不能少于已预约的 5 人');
    ok(await post(`${AP}/cancel`, admin, { id: won[0]!.body.result.id, reason: '学校活动调整' }));
    expect(ok(await get(`${SLOT}/detail?id=${slotId}`, admin)).record.used).toBe(4);
    ok(await post(`${AP}/save`, admin, { slotId, volunteerId: uid.staff03, persons: 1 }));
    // A closed slot takes nobody.
    const closed = ok(
      await post(`${SLOT}/save`, admin, {
        serviceDate: '2030-07-03',
        startTime: '09:00',
        endTime: '11:00',
        total: 5,
        open: false,
      }),
    ).id;
    expect(
      (await post(`${AP}/save`, admin, { slotId: closed, volunteerId: uid.staff04, persons: 1 })).body.result
        .fields.slotId,
    ).toBe('名额不足或已停止预约，请选择其他场次');
  });
});

describe("the phone's session (mySession)", () => {
  it('answers the volunteer on the session with its window, their row, the key and the clock', async () => {
    const a = await assigned('2031-09-10');
    const before = Date.now();
    const r = ok(await get(`${CI}/mySession?id=${a.detailId}`, v1));
    expect(r.session).toMatchObject({
      id: a.detailId,
      exhibitionId: a.exhibitionId,
      hall: '一号展厅',
      qrVersion: 1,
      serviceDate: a.day,
      startTime: '10:00',
      endTime: '10:30',
      status: 1,
      cancelReason: '',
      earlyMinutes: 30,
      lateMinutes: 30,
    });
    expect(r.checkIn).toMatchObject({ status: 0, checkInTime: null, checkOutTime: null, serviceMinutes: 0 });
    expect(r.publicKey).toBe(ok(await get(`${EX}/qrKey`, v1)).publicKey);
    expect(r.serverTime).toBeGreaterThanOrEqual(before);
    // After a check-in the row says so.
    ok(
      await checkIn(v1, {
        detailId: a.detailId,
        qrPayload: a.qr,
        deviceTime: at(`${a.day} 10:05`),
        clientId: clientId(),
      }),
    );
    expect(ok(await get(`${CI}/mySession?id=${a.detailId}`, v1)).checkIn).toMatchObject({
      status: 1,
      checkInTime: at(`${a.day} 10:05`),
    });
  });

  it('refuses someone not on the session, answers 签到管理 without a row, and shows a cancellation', async () => {
    const a = await assigned('2031-09-11');
    expect(refused(await get(`${CI}/mySession?id=${a.detailId}`, v2))).toBe(
      '你未被安排在该场次，无法查看；如需参加请联系志愿者管理员',
    );
    expect(ok(await get(`${CI}/mySession?id=${a.detailId}`, admin)).checkIn).toBeNull();
    expect(refused(await get(`${CI}/mySession?id=999999999`, v1))).toBe('该场次不存在或已删除，请刷新后重试');
    expect(refused(await get(`${CI}/mySession?id=abc`, v1))).toMatch(/场次|编号|id/i);
    ok(await post(`${SES}/cancel`, admin, { id: a.detailId, reason: '展厅临时闭馆' }));
    expect(ok(await get(`${CI}/mySession?id=${a.detailId}`, v1)).session).toMatchObject({
      status: 3,
      cancelReason: '展厅临时闭馆',
    });
  });
});
