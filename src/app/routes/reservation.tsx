import {
  appointBlackList,
  appointOrder,
  appointOrderVisitor,
  appointTicket,
  CHILDREN_HALL,
} from '../../shared/records/reservation/orders';
import { appointSettingTimes } from '../../shared/records/reservation/setting';
import { RecordListPage } from '../features/records';
import { tReservationPages } from '../lib/i18n/reservation-pages';

/**
 * Visitor reservations' staff pages (issue 21, first slice): the records engine's generic list
 * on each reservation record, with its filters, status tabs, detail timeline and transitions
 * (取消预约, 审核通过/不通过, 发送通知, 解除). The settings form, the ticket calendar's
 * open/close and capacity dialogs, booking at the desk and the gate are not built yet
 * (README "Visitor reservations").
 */

const rp = tReservationPages;

/** 时段设置 (/reservation/time-period). */
export function TimePeriodPage() {
  return <RecordListPage def={appointSettingTimes} intro={rp.timesIntro} />;
}

/** 门票记录 (/reservation/list/ticket); 场次管理 (/reservation/list) is the calendar (reservation-calendar.tsx). */
export function TicketPage() {
  return <RecordListPage def={appointTicket} intro={rp.ticketIntro} />;
}

/** 预约名单 (/reservation/list/reservelist): every visitor. */
export function ReserveListPage() {
  return <RecordListPage def={appointOrderVisitor} title={rp.visitorTitle} intro={rp.visitorIntro} />;
}

/** 个人预约 (/reservation/order-person) with 现场预约: reservation-desk.tsx. */

/** 团队预约 (/reservation/order-team) and its detail page: reservation-team.tsx. */

/** 黑名单 (/reservation/black-list), opened on 生效. */
export function BlackListPage() {
  return <RecordListPage def={appointBlackList} intro={rp.blackIntro} initial={{ status: 1 }} />;
}

/** 预约列表 (/order/reservation/list): the children's experience hall's orders (venue 2). */
export function ChildrenHallOrdersPage() {
  return (
    <RecordListPage
      def={appointOrder}
      title={rp.hallOrdersTitle}
      intro={rp.hallOrdersIntro}
      fixed={{ venue: CHILDREN_HALL }}
    />
  );
}

/** 预约人员 (/applet-management/list-person): the children's experience hall's visitors (venue 2). */
export function ChildrenHallVisitorsPage() {
  return (
    <RecordListPage
      def={appointOrderVisitor}
      title={rp.hallVisitorsTitle}
      intro={rp.hallVisitorsIntro}
      fixed={{ venue: CHILDREN_HALL }}
    />
  );
}
