/**
 * The holiday rush (issue 21): 2,000 bookings fired at once at a slot of 350 places (the mix of
 * tests/server/reservation-rush.ts: one or two visitors an order, every tenth order repeating an
 * ID), on a fresh server per round over SQLite, then over PostgreSQL (a throw-away cluster from
 * Debian's `postgresql`, the test cluster's settings). Reported: bookings answered per second,
 * p50 and p95 latency of a booking, and, as the reference measured in the same round on the same
 * server, 2,000 signed-in reads of the same slot (`AppointTicket/load`) fired the same way; the
 * ratio is the rush's per-request time over the read's. Medians of three rounds.
 *
 * Every round also checks the outcome (exactly 350 persons, no ID twice, no failed request):
 * a fast wrong answer is not a result.
 *
 * Run alone with `npx tsx tests/bench/reservation-rush.ts`, or as part of `npm run bench`.
 */
import { performance } from 'node:perf_hooks';
import { startServer } from '../server/harness';
import { admin, startCluster } from '../server/postgres';
import { fireRush, rushClient, rushOrders, rushSlot, rushState } from '../server/reservation-rush';
import { M } from '../server/util';

const ROUNDS = 3;
const BOOKINGS = 2000;
const CAPACITY = 350;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function round(env: Record<string, string>) {
  const s = await startServer({ RATE_LIMIT_PER_MINUTE: '100000000', ...env });
  try {
    const token = await s.login('admin');
    const ticketId = await rushSlot(s, token, CAPACITY);
    // The reference: the same number of signed-in reads of the slot, all in flight at once.
    const get = rushClient(s.url);
    const path = `${M}/AppointTicket/load?id=${ticketId}`;
    await Promise.all(Array.from({ length: 200 }, () => get('GET', path, token)));
    const t0 = performance.now();
    await Promise.all(Array.from({ length: BOOKINGS }, () => get('GET', path, token)));
    const readMs = (performance.now() - t0) / BOOKINGS;

    const r = await fireRush([{ url: s.url, token }], ticketId, rushOrders(BOOKINGS));
    const state = await rushState(s, ticketId);
    if (r.failures || r.booked !== CAPACITY || state.persons !== CAPACITY || state.duplicateIds)
      throw new Error(`wrong outcome: ${JSON.stringify({ ...r, reasons: undefined, state })}`);
    return {
      perSecond: BOOKINGS / r.seconds,
      p50: r.p50,
      p95: r.p95,
      ratio: (r.seconds * 1000) / BOOKINGS / readMs,
    };
  } finally {
    await s.close();
  }
}

async function report(name: string, env: () => Promise<Record<string, string>>) {
  const rounds: Awaited<ReturnType<typeof round>>[] = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push(await round(await env()));
  const m = (k: keyof (typeof rounds)[number]) => median(rounds.map((x) => x[k]));
  console.log(
    `${name.padEnd(12)} ${m('perSecond').toFixed(0).padStart(6)} bookings/s   p50 ${m('p50').toFixed(0).padStart(6)} ms` +
      `   p95 ${m('p95').toFixed(0).padStart(6)} ms   ×${m('ratio').toFixed(2)} of a read of the slot`,
  );
}

console.log(
  `\nHoliday rush: ${BOOKINGS} bookings at once for ${CAPACITY} places (median of ${ROUNDS} rounds)`,
);
await report('SQLite', async () => ({}));
const cluster = await startCluster();
try {
  let n = 0;
  await report('PostgreSQL', async () => {
    const name = `rush${n++}`;
    await admin(cluster.url('postgres'), `create database ${name}`);
    return { DATABASE_URL: cluster.url(name) };
  });
} finally {
  await cluster.stop();
}
