import { describe, expect, it } from 'vitest';
import type { GateList } from '../../../shared/api/reservation-gate';
import { parseMuseumMinute } from '../../../shared/rules/museum-time';
import type { OutboxOp } from '../../lib/outbox';
import {
  KIND_GATE,
  codeOf,
  findByIdHash,
  gateCounts,
  overlayGate,
  refusedGate,
  verdictOf,
} from './gate-state';

const DAY = '2026-12-01';
const at = (hm: string) => parseMuseumMinute(`${DAY} ${hm}`)!;
const visitor = (id: number, checkStatus = 0, idHash = `h${id}`) => ({
  id,
  name: `参观人${id}`,
  idType: 1,
  idMasked: '1101**********1234',
  idHash,
  isMinor: false,
  checkStatus,
  checkTime: checkStatus === 1 ? at('09:40') : null,
});
const list: GateList = {
  date: DAY,
  serverTime: at('09:00'),
  salt: 's',
  arrivalToleranceMinutes: 15,
  orders: [
    {
      id: 1,
      orderNo: 'P1',
      codeHash: 'c1',
      startTime: '09:00',
      endTime: '11:00',
      status: 1,
      contactName: '甲',
      cancelReason: '',
      visitors: [visitor(11), visitor(12)],
    },
    {
      id: 2,
      orderNo: 'P2',
      codeHash: 'c2',
      startTime: '09:00',
      endTime: '11:00',
      status: 3,
      contactName: '乙',
      cancelReason: '临时有事',
      visitors: [visitor(21, 3, 'same')],
    },
    {
      id: 3,
      orderNo: 'P3',
      codeHash: 'c3',
      startTime: '13:00',
      endTime: '15:00',
      status: 1,
      contactName: '丙',
      cancelReason: '',
      visitors: [visitor(31, 0, 'same')],
    },
  ],
  teams: [
    {
      id: 9,
      orderNo: 'T9',
      teamName: '实验小学',
      leaderName: '陈',
      startTime: '10:00',
      visitorCount: 30,
      actualCount: 28,
      status: 3,
    },
  ],
};
let seq = 0;
const op = (visitorId: number, status: OutboxOp['status'], error?: string): OutboxOp => ({
  seq: ++seq,
  id: `op${seq}`,
  idempotencyKey: `k${seq}`,
  client: 'museum',
  path: '/AppointOrder/finishAppoint',
  body: {},
  label: `入馆：参观人${visitorId}`,
  kind: KIND_GATE,
  scope: [],
  meta: { orderId: 1, visitorId, orderNo: 'P1', name: `参观人${visitorId}`, at: at('09:30') },
  status,
  createdAt: 0,
  attempts: 0,
  ...(error ? { error } : {}),
});

describe('the gate tablet', () => {
  it('draws its own check-ins over the list as 待同步 and counts them, refused ones apart', () => {
    const ops = [op(11, 'pending'), op(12, 'failed', '已入馆（09:20），不能重复核销')];
    const view = overlayGate(list, ops);
    const o = view.orders[0]!;
    expect(o.visitors.map((v) => [v.checkStatus, v.pending])).toEqual([
      [1, true],
      [0, false],
    ]);
    // Cancelled orders are not expected; the team counts who came.
    expect(gateCounts(view)).toEqual({
      entered: 1,
      expected: 3,
      pending: 1,
      teamEntered: 28,
      teamExpected: 30,
    });
    expect(refusedGate(ops).map((x) => x.id)).toEqual([ops[1]!.id]);
  });

  it("refuses on the tablet in the server's words, and a code used here", () => {
    const view = overlayGate(list, [op(11, 'pending'), op(12, 'sending')]);
    expect(verdictOf(view, view.orders[0]!, at('09:50')).problem).toBe(
      '该入馆码已使用：全部参观人已入馆（09:30，待同步），不能重复核销',
    );
    expect(verdictOf(view, view.orders[1]!, at('09:50')).problem).toBe('该预约已取消（临时有事），不能入馆');
    expect(verdictOf(view, view.orders[2]!, at('09:50')).problem).toBe('未到入馆时间：该场次 12:45 起可入馆');
    const fresh = overlayGate(list, []);
    expect(verdictOf(fresh, fresh.orders[0]!, at('08:46'))).toMatchObject({ problem: null });
    expect(verdictOf(fresh, fresh.orders[0]!, at('11:16')).problem).toBe(
      '已过入馆时间：该场次 11:15 停止入馆',
    );
  });

  it('finds the live order of an ID before a cancelled one, and reads the code out of a link', () => {
    const view = overlayGate(list, []);
    expect(findByIdHash(view, 'same')?.order.id).toBe(3);
    expect(findByIdHash(view, 'none')).toBeUndefined();
    const code = 'AbCdEfGhIjKlMnOpQrStUv';
    expect(codeOf(`  ${code}\n`)).toBe(code);
    expect(codeOf(`https://museum.example/visit/order?code=${code}`)).toBe(code);
  });
});
