import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { fireRush, rushOrders, rushSlot, rushState } from './reservation-rush';
import { clearOfDayEnd, DAY_END_WAIT_MS } from './reservation-util';

/**
 * The holiday rush (issue 21, README "Visitor reservations"): 2,000 bookings fired at once at a
 * slot of 350 places, on SQLite here and on PostgreSQL under `npm run test:pg`; through two
 * instances in tests/scale/reservation-rush.test.ts. No latency is asserted here (it is
 * printed, and measured by `npm run bench`); what is asserted is that the slot is filled exactly,
 * no ID is booked twice, and every request got an answer.
 */

let s: TestServer;
let admin: string;

// Today's tickets are booked throughout: not in the museum day's last minutes.
beforeAll(() => clearOfDayEnd(), DAY_END_WAIT_MS);
beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  admin = await s.login('admin');
});
afterAll(async () => s?.close());

describe('the holiday rush', () => {
  // Two thousand requests on a loaded two-core machine: the time is reported, not asserted.
  it(
    '2,000 bookings at once for 350 places book exactly 350 persons, no ID twice',
    { timeout: 120_000 },
    async () => {
      const ticketId = await rushSlot(s, admin, 350);
      const orders = rushOrders(2000);
      const r = await fireRush([{ url: s.url, token: admin }], ticketId, orders);
      console.log(
        `holiday rush (${process.env.GWY_TEST_PG ? 'PostgreSQL' : 'SQLite'}): ${orders.length} bookings in ` +
          `${r.seconds.toFixed(2)} s, p50 ${r.p50.toFixed(0)} ms, p95 ${r.p95.toFixed(0)} ms`,
      );
      expect(r.failures).toBe(0);
      expect(r.booked).toBe(350);
      const state = await rushState(s, ticketId);
      expect(state).toEqual({ bookedSum: 350, surplusSum: 0, persons: 350, duplicateIds: 0 });
      // Every refusal is one a visitor can act on: the slot is full, or that ID is booked today.
      const words = [...r.reasons.keys()];
      expect(words.length).toBeGreaterThan(0);
      for (const w of words)
        expect(w).toMatch(/已约满，请选择其他场次|仅剩 1 个名额|已有预约，同一证件每天只能预约一次/);
      // The server is still up and answering.
      expect((await s.call('GET', '/singleMuseum/login/userInfo', { token: admin })).status).toBe(200);
    },
  );
});
