/**
 * The gate tablet's calls (README "Visitor reservations" › 入馆核验): today's orders and teams
 * as the device keeps them to check entry codes and ID numbers with no network, and the
 * hashes both sides compute. Admission itself is `AppointOrder/finishAppoint`
 * (shared/api/reservation.ts), which also takes `orderId` and the device's clock for a
 * check-in made offline.
 *
 * What the device holds, and why: never an entry code or a full ID number. An order carries
 * `codeHash` = SHA-256 of its entry code (hex): the code is 128 random bits, so its hash cannot
 * be turned back, and a lost tablet's cache cannot be replayed at the gate as QR codes. A
 * visitor carries the masked ID (1101**********1234, what the staff compare against the card)
 * and `idHash` = SHA-256 of `salt|ID` with a salt fresh in every answer, so an ID typed at the
 * gate finds its visitor. The salt stops a table of hashes computed once for every day; it does
 * not make the ID secret — an 18-digit resident ID with its mask known leaves a few million
 * candidates, which a laptop tries in seconds. The protection of the numbers is that the list is
 * today's only, read with the gate's grant, kept in the signed-in user's own device database
 * (dropped at sign-out), and holds no more than the masked form plus this hash.
 */

/** The gate's own grant (menu 预约管理 › 入馆核验); 个人预约's holders may use the gate too. */
export const GATE_GRANT = 'order.gate';

/** The list's path under /singleMuseum (ours). */
export const GATE_LIST_PATH = '/AppointOrder/gateList';

export interface GateVisitor {
  id: number;
  name: string;
  idType: number;
  /** The ID masked as the office lists show it. */
  idMasked: string;
  /** SHA-256 hex of `${salt}|${ID in upper case}`. */
  idHash: string;
  isMinor: boolean;
  /** 0 未入馆, 1 已入馆, 2 失约, 3 已取消 (CHECK_STATES). */
  checkStatus: number;
  checkTime: number | null;
}

export interface GateOrder {
  id: number;
  orderNo: string;
  /** SHA-256 hex of the entry code (what the QR carries). */
  codeHash: string;
  startTime: string;
  endTime: string;
  /** ORDER_STATES: 1 已预约, 2 已入馆, 3 已取消, 4 已失约, 5 已作废, 6 部分入馆. */
  status: number;
  contactName: string;
  cancelReason: string;
  visitors: GateVisitor[];
}

export interface GateTeam {
  id: number;
  orderNo: string;
  teamName: string;
  leaderName: string;
  startTime: string;
  visitorCount: number;
  actualCount: number | null;
  /** TEAM_STATES: 1 已通过, 3 已入馆. */
  status: number;
}

export interface GateList {
  /** The museum's today ('yyyy-MM-dd'): the list is this day's only. */
  date: string;
  /** The server's clock when answering (the device measures its offset from it). */
  serverTime: number;
  salt: string;
  arrivalToleranceMinutes: number;
  orders: GateOrder[];
  teams: GateTeam[];
}

/** What is hashed for an ID lookup: the salt and the number as the server keeps it (trimmed, upper case). */
export const idHashInput = (salt: string, idNumber: string) => `${salt}|${idNumber.trim().toUpperCase()}`;
