/*
 * The dashboards' base path and who may read each call, kept apart from dashboards.ts's schemas
 * without zod: the workbench's cards read them to choose what to show, and zod would otherwise
 * load with the workbench (issue 25). dashboards.ts re-exports both.
 */

export const DASHBOARD_BASE = '/applet';

/** Who may read each call (menu grants, any one; 超级管理员 always). */
export const DASHBOARD_GRANTS = {
  /** Keepers: the collection's readers and managers. */
  relicPie: ['resources.collection', 'resources.collectionManagement'],
  /** Every member of staff: exhibitions are what the museum is showing. */
  exhibitions: ['home.workbench'],
  /** Social education's pages. */
  activity: ['activity.manage', 'activity.statistic', 'activity.dataManagement', 'activity.type'],
  /** Volunteer administrators, and the office compiling the museum's figures. */
  volunteers: [
    'volunteer.social.adultVolunteer',
    'volunteer.social.serviceList',
    'volunteer.student.stuVolunteer',
    'volunteer.signIn',
    'oa.dataSummary',
  ],
  /** Reservation staff (the board, the overview, orders, the gate), and the office's figures. */
  tourLine: ['order.view', 'order.panel', 'order.orderPerson', 'order.gate', 'oa.dataSummary'],
  /** Typing in visitor numbers (手工补录, gate counters): the visitor statistics' owner, 预约总览. */
  tourWrite: ['order.view'],
} as const;
