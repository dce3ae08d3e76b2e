import { afterAll, beforeAll, expect, it } from 'vitest';
import { monthsEnding, museumMonth } from '../../src/shared/records/activity/rules';
import { startServer, type TestServer } from './harness';
import { activityCalls, tables } from './activity-util';

/**
 * GET /activity/statistic (README "Social education activities (issue 24)"): activities,
 * participants and sign-ups per museum month over 12 months, against a seeded set whose every
 * number is known (a fresh server): a filed 实际参与人数 wins over check-ins, drafts and months
 * outside the window never count, `month` moves the window.
 */

let s: TestServer;
let educator: string;
const c = activityCalls(() => s);
const { ok } = c;
let n = 0;
const phone = () => `135${String(10_000_000 + ++n).slice(-8)}`;
const MONTH_MS = 31 * 86_400_000;

/** Moves an activity's times back by `months` × 31 days (its sign-ups stay as they are). */
const moveBack = (id: number, months: number) =>
  tables(s)
    .updateTable('activity')
    .set((eb) => ({
      start_time: eb('start_time', '-', months * MONTH_MS),
      end_time: eb('end_time', '-', months * MONTH_MS),
    }))
    .where('id', '=', id)
    .execute();

/** A published activity under way with 3 people signed up (2 + 1), the 2 checked in, 1 cancelled. */
async function held(typeId: number) {
  const id = await c.addActivity(educator, typeId, {
    startIn: -10,
    signupEnd: new Date(Date.now() + 60 * 60_000).getTime(),
    total: 20,
  });
  await c.publish(educator, id);
  const a = ok(await c.sign(educator, id, phone(), 2)).id as number;
  ok(await c.sign(educator, id, phone(), 1));
  const gone = ok(await c.sign(educator, id, phone(), 3)).id as number;
  ok(await c.act(educator, 'checkIn', { id: a }));
  ok(await c.act(educator, 'cancel', { id: gone, reason: '临时有事' }));
  return id;
}

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  educator = await s.login('staff10');
});
afterAll(async () => s?.close());

it('counts activities, participants and sign-ups per month against seeded data', async () => {
  const typeId = await c.addType(educator, '讲座');
  const a = await held(typeId); // this month: participants = 2 checked in
  const b = await held(typeId); // two months back, with 40 filed as 实际参与人数
  ok(
    await c.post(`${c.base}/activityRecord/save`, educator, {
      activityId: b,
      heldDate: '2026-01-01',
      participants: 40,
    }),
  );
  await moveBack(b, 2);
  const draft = await c.addActivity(educator, typeId, { startIn: -10 }); // never published
  await moveBack(draft, 1);
  const old = await held(typeId); // 13 months back: outside the window
  await moveBack(old, 13);

  const startOf = async (id: number) => Number((await c.activityRow(educator, id)).startTime);
  const months = monthsEnding(museumMonth(Date.now()));
  const stat = ok(await c.stat(educator));
  expect(stat.months).toEqual(months);
  const expected = {
    activities: months.map(() => 0),
    participants: months.map(() => 0),
    signUps: months.map(() => 0),
  };
  for (const [id, people] of [
    [a, 2],
    [b, 40],
  ] as const) {
    const i = months.indexOf(museumMonth(await startOf(id)));
    expected.activities[i]! += 1;
    expected.participants[i]! += people;
    expected.signUps[i]! += 3;
  }
  expect(stat).toMatchObject(expected);
  expect(stat.totals).toEqual({ activities: 2, participants: 42, signUps: 6 });

  // The window ending 13 months back holds only the old one.
  const back = museumMonth(await startOf(old));
  const then = ok(await c.stat(educator, back));
  expect(then.months.at(-1)).toBe(back);
  expect(then.totals).toEqual({ activities: 1, participants: 2, signUps: 3 });
});
