import { afterAll, beforeAll, expect, it } from 'vitest';
import { fireRush, rushOrders, rushSlot, rushState } from '../server/reservation-rush';
import { clearOfDayEnd, DAY_END_WAIT_MS } from '../server/reservation-util';
import { startInstances, type Group, type Instance } from './instances';

/*
 * The holiday rush (issue 21) through two instances sharing one PostgreSQL database, as a
 * museum behind a load balancer: alternate orders land on alternate instances, so the two
 * pools race for the same ticket row. Exactly the slot's places are booked, no ID twice.
 */

let group: Group;
let a: Instance;
let b: Instance;

// Today's tickets are booked throughout: not in the museum day's last minutes.
beforeAll(() => clearOfDayEnd(), DAY_END_WAIT_MS);
beforeAll(async () => {
  group = await startInstances(2, { RATE_LIMIT_PER_MINUTE: '1000000' });
  [a, b] = group.instances as [Instance, Instance];
});
afterAll(() => group?.close());

it(
  '2,000 bookings through two instances for 350 places book exactly 350 persons, no ID twice',
  { timeout: 180_000 },
  async () => {
    const admin = await a.login('admin');
    const ticketId = await rushSlot(a, admin, 350);
    const orders = rushOrders(2000);
    const r = await fireRush(
      [
        { url: a.url, token: admin },
        { url: b.url, token: admin },
      ],
      ticketId,
      orders,
    );
    console.log(
      `holiday rush (two instances, ${process.env.GWY_TEST_PG ? 'PostgreSQL' : 'SQLite'}): ${orders.length} bookings in ` +
        `${r.seconds.toFixed(2)} s, p50 ${r.p50.toFixed(0)} ms, p95 ${r.p95.toFixed(0)} ms`,
    );
    expect(r.failures).toBe(0);
    expect(r.booked).toBe(350);
    expect(await rushState(b, ticketId)).toEqual({
      bookedSum: 350,
      surplusSum: 0,
      persons: 350,
      duplicateIds: 0,
    });
  },
);
