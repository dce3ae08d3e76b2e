import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  GATE_GRANT,
  GATE_LIST_PATH,
  idHashInput,
  type GateList,
  type GateOrder,
} from '../../../shared/api/reservation-gate';
import { appointOrder } from '../../../shared/records/reservation/orders';
import { appointSetting, reservationSettingsOf } from '../../../shared/records/reservation/setting';
import { maskIdNumber } from '../../../shared/records/validators';
import { museumDate } from '../../../shared/rules/museum-time';
import type { Db } from '../../db/index';
import * as repo from '../../records/records.repo';
import type { Access } from '../auth/access';
import type { SessionUser } from '../auth/auth.service';

/**
 * The gate tablet's list (README "Visitor reservations" › 入馆核验; shared/api/reservation-gate.ts
 * for what the device holds and why): today's orders with their visitors and today's approved
 * teams, read by holders of the gate's grant or of 个人预约. Only today: the gate has no use for
 * another day, and a lost tablet then holds one day. Admission is finishAppoint's
 * (reservation.service.ts).
 */

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

export function createGate(deps: { db: Db; access: Access; now?: () => number }) {
  const { db, access } = deps;
  const now = deps.now ?? Date.now;

  return {
    async list(user: SessionUser): Promise<GateList> {
      if (!(await access.can(user, GATE_GRANT))) await access.require(user, appointOrder.access.read);
      const serverTime = now();
      const date = museumDate(serverTime);
      const s = reservationSettingsOf((await repo.findAll(db, appointSetting, [], 1))[0]);
      const salt = randomBytes(16).toString('base64url');
      const orders = await db
        .selectFrom('appoint_order')
        .select([
          'id',
          'order_no',
          'verify_code',
          'start_time',
          'end_time',
          'status',
          'contact_name',
          'cancel_reason',
        ])
        .where('date', '=', date)
        .where('del_flag', '=', 0)
        .orderBy('start_time')
        .orderBy('id')
        .execute();
      const visitors = await db
        .selectFrom('appoint_order_visitor')
        .select(['id', 'order_id', 'name', 'id_type', 'id_number', 'is_minor', 'check_status', 'check_time'])
        .where('date', '=', date)
        .where('order_id', 'is not', null)
        .where('del_flag', '=', 0)
        .orderBy('id')
        .execute();
      const byOrder = new Map<number, GateOrder>();
      const out: GateOrder[] = orders.map((o) => {
        const g: GateOrder = {
          id: o.id,
          orderNo: String(o.order_no),
          codeHash: sha256(String(o.verify_code ?? '')),
          startTime: String(o.start_time),
          endTime: String(o.end_time),
          status: Number(o.status),
          contactName: String(o.contact_name ?? ''),
          cancelReason: String(o.cancel_reason ?? ''),
          visitors: [],
        };
        byOrder.set(o.id, g);
        return g;
      });
      for (const v of visitors) {
        const id = String(v.id_number);
        byOrder.get(Number(v.order_id))?.visitors.push({
          id: v.id,
          name: String(v.name),
          idType: Number(v.id_type),
          idMasked: maskIdNumber(id),
          idHash: sha256(idHashInput(salt, id)),
          isMinor: Boolean(Number(v.is_minor)),
          checkStatus: Number(v.check_status),
          checkTime: v.check_time == null ? null : Number(v.check_time),
        });
      }
      const teams = await db
        .selectFrom('appoint_team_order')
        .select([
          'id',
          'order_no',
          'team_name',
          'leader_name',
          'start_time',
          'visitor_count',
          'actual_count',
          'status',
        ])
        .where('date', '=', date)
        .where('del_flag', '=', 0)
        .where('status', 'in', [1, 3])
        .orderBy('start_time')
        .orderBy('id')
        .execute();
      return {
        date,
        serverTime,
        salt,
        arrivalToleranceMinutes: s.arrivalToleranceMinutes,
        orders: out,
        teams: teams.map((t) => ({
          id: t.id,
          orderNo: String(t.order_no),
          teamName: String(t.team_name),
          leaderName: String(t.leader_name),
          startTime: String(t.start_time),
          visitorCount: Number(t.visitor_count),
          actualCount: t.actual_count == null ? null : Number(t.actual_count),
          status: Number(t.status),
        })),
      };
    },
  };
}
export type Gate = ReturnType<typeof createGate>;

export function gateRoutes(app: FastifyInstance, deps: { gate: Gate }) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      GATE_LIST_PATH,
      { config: { summary: '个人预约 · 入馆核验名单（今天的预约与参观人；入馆码与证件号只给哈希）' } },
      async (req) => deps.gate.list(req.user),
    );
}
