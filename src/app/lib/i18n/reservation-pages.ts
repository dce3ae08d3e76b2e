/** Visitor reservations' staff pages (issue 21, first slice: the records engine's lists). */
export const tReservationPages = {
  timesIntro:
    '每天的预约时段。门票按这里的时段每小时自动生成未来可预约天数的场次；修改或删除时段只影响尚未生成的日期，已生成的场次在“场次管理”中调整。同一星期内的时段不能重叠。',
  ticketIntro:
    '每个日期、每个时段一张门票：个人剩余 = 总名额 − 团队预留 − 个人已约。开放与关闭、调整名额请使用场次管理的操作（已有预约的场次须强制关闭，预约作废并短信通知）。',
  personIntro:
    '观众的个人预约。列表中手机号已打码。取消须写明原因，名额退回该场次，参观人当天可以重新预约；场次结束仍未入馆的自动记为失约。',
  visitorTitle: '预约名单',
  visitorIntro: '每一位参观人及其入馆状态。证件号已打码，可按姓名或证件号搜索。',
  teamIntro:
    '团队预约，默认显示待审核的。不通过须写明原因并退回团队名额；通过后可发送入馆通知（可重复发送），通过与通知都会短信告知领队。',
  blackIntro:
    '被限制预约的人员。失约达到次数上限的由系统自动加入并按设置的天数到期解除；手动加入须写明原因，解除须写明原因。',
  hallOrdersTitle: '儿童体验馆预约',
  hallOrdersIntro:
    '儿童体验馆的个人预约。体验馆的时段在“时段设置”中以场馆“儿童体验馆”设置，单独生成场次；同一证件同一天可以分别预约主馆和体验馆各一次。',
  hallVisitorsTitle: '儿童体验馆预约人员',
  hallVisitorsIntro: '儿童体验馆每一位参观人及其入馆状态。证件号已打码，可按姓名或证件号搜索。',
} as const;
