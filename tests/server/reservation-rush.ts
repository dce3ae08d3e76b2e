import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { addDays, museumDate } from '../../src/shared/rules/museum-time';
import type { TestServer } from './harness';
import { M } from './util';
import { idFor } from './volunteer-util';
import { ALL_DAY_SETTINGS } from './reservation-util';

/**
 * The holiday rush (issue 21): the minute a popular slot's tickets are released, thousands of
 * visitors book it at once. Shared by the API test on SQLite and PostgreSQL
 * (reservation-rush.test.ts), the two-instance run (tests/scale/reservation-rush.test.ts) and
 * `npm run bench` (tests/bench/reservation-rush.ts), so all three fire the same mix.
 *
 * The mix: `bookings` orders of one or two visitors (alternating), every visitor a distinct
 * adult resident ID, except that every tenth order repeats the first visitor of the order
 * before it, so "one booking per ID per day" is raced too. With about 1.5 persons per order,
 * the slot is full after a few hundred orders; the rest must be refused, and since single
 * orders keep arriving until the end, the last place is always taken (exactly `capacity`).
 */

/**
 * Visitors' phones reach the museum through its reverse proxy, which keeps a bounded pool of
 * connections to each instance (nginx's upstream keepalive); 2,000 phones are not 2,000 sockets
 * on the Node process. The rush's client does the same: every order is in flight at once, over
 * at most `CONNECTIONS` kept-alive sockets per instance, so the server sees the queue a proxy
 * would hand it, not a SYN flood (which resets connections in the kernel's accept queue before
 * the application sees them).
 */
const CONNECTIONS = 128;

/** A JSON client over a bounded pool of kept-alive sockets (see CONNECTIONS). */
export function rushClient(url: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  return (method: 'GET' | 'POST', path: string, token: string, body?: unknown) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const data = body === undefined ? null : Buffer.from(JSON.stringify(body));
      const headers: Record<string, string | number> = { token };
      if (data) Object.assign(headers, { 'content-type': 'application/json', 'content-length': data.length });
      const req = http.request(url + path, { method, agent, headers }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(parts).toString()) });
          } catch (e) {
            reject(e as Error);
          }
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(data ?? undefined);
    });
}

export interface RushVisitor {
  name: string;
  idType: 1;
  idNumber: string;
}

/** Distinct valid resident IDs: a birth day per thousand serials, all adults born 1960–1999. */
export function rushId(k: number): string {
  const birth = addDays('1960-01-01', Math.floor(k / 1000) * 37);
  return idFor(birth, k % 1000);
}

export function rushOrders(bookings: number, offset = 0): RushVisitor[][] {
  const orders: RushVisitor[][] = [];
  let k = offset;
  for (let i = 0; i < bookings; i++) {
    const size = i % 2 === 0 ? 1 : 2;
    const visitors: RushVisitor[] = [];
    if (i % 10 === 9) visitors.push({ ...orders[i - 1]![0]! });
    while (visitors.length < size) visitors.push({ name: `游客${k}`, idType: 1, idNumber: rushId(k++) });
    orders.push(visitors);
  }
  return orders;
}

/**
 * Sets up a museum whose single all-day slot today holds `capacity` places (same-day booking
 * open until 23:58), and answers its ticket id.
 */
export async function rushSlot(
  s: Pick<TestServer, 'call'>,
  admin: string,
  capacity: number,
): Promise<number> {
  const post = async (path: string, body: unknown) => {
    const r = await s.call('POST', `${M}${path}`, { token: admin, body });
    if (!r.body.success) throw new Error(`${path}: ${r.body.message}`);
    return r.body.result;
  };
  await post('/AppointSetting/save', {
    ...ALL_DAY_SETTINGS,
  });
  await post('/AppointSettingTimes/save', {
    name: '节假日全天',
    startTime: '00:00',
    endTime: '23:58',
    capacity,
    weekdays: '1,2,3,4,5,6,7',
    enabled: true,
  });
  await post('/AppointTicket/generate', { days: 1 });
  const today = museumDate(Date.now());
  const list = await s.call('GET', `${M}/AppointTicket/getList?dateFrom=${today}&pageCount=200`, {
    token: admin,
  });
  if (!list.body.success) throw new Error(list.body.message);
  const rows = list.body.result.list as { id: number; date: string; totalSum: number }[];
  const row = rows.find((t) => t.date === today && t.totalSum === capacity);
  if (!row) throw new Error('今日的节假日场次未生成');
  return row.id;
}

export interface RushResult {
  booked: number;
  refused: number;
  /** Refusals by message, to tell "full" from "ID already booked" from anything unexpected. */
  reasons: Map<string, number>;
  /** Non-2xx/5xx answers or dropped connections: must stay 0. */
  failures: number;
  p50: number;
  p95: number;
  seconds: number;
}

/**
 * Fires every order at once (no client-side queue: the server sees them all in flight) through
 * the given calls, spread round-robin (two instances get alternate orders), and answers what
 * came back with the latency percentiles.
 */
export async function fireRush(
  callers: { url: string; token: string }[],
  ticketId: number,
  orders: RushVisitor[][],
): Promise<RushResult> {
  const times: number[] = [];
  const reasons = new Map<string, number>();
  let booked = 0;
  let refused = 0;
  let failures = 0;
  const clients = callers.map((c) => ({ request: rushClient(c.url), token: c.token }));
  const t0 = performance.now();
  await Promise.all(
    orders.map(async (visitors, i) => {
      const { request, token } = clients[i % clients.length]!;
      const start = performance.now();
      try {
        const r = await request('POST', `${M}/AppointOrder/book`, token, {
          ticketId,
          contactName: '王联系',
          contactPhone: `139${String(i).padStart(8, '0')}`,
          visitors,
        });
        times.push(performance.now() - start);
        if (r.status >= 500 || r.status === 429) {
          failures++;
          if (failures <= 3) console.error('rush failure', r.status, r.body?.message);
        } else if (r.body.success) booked += visitors.length;
        else {
          refused++;
          const reason = String(r.body.message)
            .replace(/“.*?”（.*?）/, '“X”')
            .replace(/\d{4}-\d\d-\d\d/, 'D');
          reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        }
      } catch (e) {
        failures++;
        if (failures <= 3) console.error('rush failure', e);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
  return { booked, refused, reasons, failures, p50: at(0.5), p95: at(0.95), seconds };
}

/** What the database holds for the slot: persons booked, and any ID live twice that day. */
export async function rushState(s: Pick<TestServer, 'db'>, ticketId: number) {
  const ticket = await s.db
    .selectFrom('appoint_ticket')
    .select(['booked_sum', 'surplus_sum', 'total_sum'])
    .where('id', '=', ticketId)
    .executeTakeFirstOrThrow();
  const visitors = await s.db
    .selectFrom('appoint_order_visitor as v')
    .innerJoin('appoint_order as o', 'o.id', 'v.order_id')
    .select(['v.id_number'])
    .where('o.ticket_id', '=', ticketId)
    .where('o.status', '=', 1)
    .execute();
  const ids = visitors.map((v) => v.id_number);
  return {
    bookedSum: Number(ticket.booked_sum),
    surplusSum: Number(ticket.surplus_sum),
    persons: ids.length,
    duplicateIds: ids.length - new Set(ids).size,
  };
}
