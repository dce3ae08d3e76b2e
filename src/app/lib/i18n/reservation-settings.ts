/** 基本信息 (/reservation/basic-info): the reservation settings' groups. */
export const tReservationSettings = {
  title: '预约基本信息',
  childrenTitle: '儿童体验馆 · 预约设置',
  childrenIntro:
    '儿童体验馆与本馆共用一套预约规则（开放时间、放票、每单人数、退票与黑名单）；体验馆的场次在场次管理中按场馆“儿童体验馆”设置。修改后对两个场馆的新预约同时生效。',
  intro:
    '观众预约的规则。留空的数字按默认值执行（见各项说明）；修改后立即对新的预约生效，已生成的场次名额不变（在场次管理中调整）。',
  hours: '开放时间',
  hoursHint: '开馆、停止入馆与闭馆时间；闭馆日不生成场次，特殊日期可临时开放或闭馆。',
  booking: '放票与预约',
  bookingHint: '可提前几天预约、何时放票、每单人数与未成年人陪同要求。',
  cancel: '退票与入馆',
  cancelHint: '观众自行退票的截止时间，以及场次前后可核销入馆的容差。',
  noShow: '失约与黑名单',
  noShowHint: '失约达到上限的观众自动加入黑名单，按限制天数到期解除。',
  team: '团队预约',
  teamHint: '团队人数、提前天数、未成年人团队的带队比例，以及是否需要审核。',
  notices: '须知',
  noticesHint: '预约页面展示给观众和团队的须知。',
  save: '保存设置',
  saveLabel: '保存预约设置',
  saved: '预约设置已保存',
  queued: '网络不可用，设置已保存在本机，联网后自动提交',
  fixFirst: '有设置项需要修改，请查看标红的项目',
  readOnly: '您可以查看预约设置；修改需要“基本信息”的编辑权限。',
} as const;
