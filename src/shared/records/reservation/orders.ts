import { defineRecord, f, type StatusOption } from '../define';
import { idCardProblem, mobileProblem } from '../validators';

/**
 * 门票 AppointTicket, 个人预约 AppointOrder, 参观人 AppointOrderVisitor, 团队预约 appointTeamOrder
 * and 黑名单 (research/records-design.md §7.3–§7.6; office.md §7 Reservation). The engine serves
 * their lists, details, exports and the plain transitions; what holds places, checks IDs across
 * orders and feeds the black list is hand-written in src/server/modules/reservation/ (README
 * "Visitor reservations").
 *
 * A ticket's places are counters kept in one row, changed only by single conditional UPDATEs:
 * `surplusSum` is what individuals may still book (total − team places − booked individuals),
 * `teamSurplus` what teams may still book. Booking is `SET surplus_sum = surplus_sum − n …
 * WHERE is_open = 1 AND surplus_sum >= n`, so two bookings can never both take the last place,
 * on SQLite or PostgreSQL.
 */

export const ID_TYPES: readonly StatusOption[] = [
  { value: 1, label: '居民身份证' },
  { value: 2, label: '护照' },
  { value: 3, label: '港澳居民来往内地通行证' },
  { value: 4, label: '台湾居民来往大陆通行证' },
  { value: 5, label: '港澳台居民居住证' },
  { value: 6, label: '外国人永久居留身份证' },
];

/**
 * The venues one reservation engine serves (migration 0033; README "Visitor reservations"):
 * the museum and the children's experience hall (儿童体验馆, the applet's 预约列表 / 预约人员).
 * Each has its own slot templates, hence its own tickets; one booking per ID per day holds per venue.
 */
export const VENUES: readonly StatusOption[] = [
  { value: 1, label: '主馆' },
  { value: 2, label: '儿童体验馆' },
];
export const CHILDREN_HALL = 2;

export const appointTicket = defineRecord({
  name: 'appointTicket',
  title: '门票',
  shape: 'catalog',
  table: 'appoint_ticket',
  base: '/AppointTicket',
  // Tickets are made by generation from the templates (POST generate, ours), changed only by
  // openOrClose and updateSurplusSum: no create, update or delete call.
  calls: { list: 'GET getList', detail: 'GET load', export: 'GET export' },
  fields: {
    date: f.date('日期', { required: true, list: true, filter: 'range', width: 110 }),
    timeId: f.ref('时段', 'appointSettingTimes', { by: 'name', required: true, list: true, filter: 'eq' }),
    startTime: f.time('开始时间', { required: true, list: true, width: 80 }),
    endTime: f.time('结束时间', { required: true, list: true, width: 80 }),
    totalSum: f.int('总名额', { required: true, max: 99_999, list: true, width: 80 }),
    surplusSum: f.int('个人剩余', { form: false, list: true, width: 80 }),
    bookedSum: f.int('个人已约', { form: false, list: true, width: 80 }),
    teamTotal: f.int('团队预留', { max: 99_999, list: true, width: 80 }),
    teamSurplus: f.int('团队剩余', { form: false, list: true, width: 80 }),
    teamBooked: f.int('团队已约', { form: false, list: true, width: 80 }),
    isOpen: f.bool('开放', { list: true, filter: 'eq', width: 70 }),
    closeReason: f.text('关闭原因', { max: 100, list: true }),
    venue: f.status('场馆', VENUES, { form: false, list: true, filter: 'eq', initial: 1, width: 90 }),
  },
  unique: [{ fields: ['date', 'timeId'], message: '这一天的这个时段已有门票' }],
  access: { read: 'order.list', write: 'order.list' },
  order: [
    ['date', 'asc'],
    ['startTime', 'asc'],
  ],
  describe: (r) => `${String(r.date ?? '')} ${String(r.startTime ?? '')}–${String(r.endTime ?? '')}`,
});

export const ORDER_STATES: readonly StatusOption[] = [
  { value: 1, label: '已预约', color: 'blue' },
  { value: 2, label: '已入馆', color: 'green' },
  { value: 3, label: '已取消', color: 'gray' },
  { value: 4, label: '已失约', color: 'red' },
  { value: 5, label: '已作废', color: 'gray' },
  { value: 6, label: '部分入馆', color: 'orange' },
];

export const CHANNELS: readonly StatusOption[] = [
  { value: 1, label: '小程序' },
  { value: 2, label: '官网' },
  { value: 3, label: '现场' },
];

const mobile = (v: string) => mobileProblem(v);

export const appointOrder = defineRecord({
  name: 'appointOrder',
  title: '个人预约',
  shape: 'pipeline',
  table: 'appoint_order',
  base: '/AppointOrder',
  // The spec shows only the stats and finishAppoint; the list and detail are ours (the routes
  // order-person and list/reservelist need them). Orders are made by POST book (ours).
  calls: { list: 'GET pageList', detail: 'GET detail', export: 'GET export' },
  fields: {
    orderNo: f.text('预约号', { form: false, max: 20, list: true, keyword: true, width: 150 }),
    ticketId: f.ref('场次', 'appointTicket', { by: 'date', required: true, filter: 'eq' }),
    date: f.date('参观日期', { required: true, list: true, filter: 'range', width: 110 }),
    startTime: f.time('开始时间', { required: true, list: true, width: 80 }),
    endTime: f.time('结束时间', { required: true, width: 80 }),
    contactName: f.text('联系人', { required: true, max: 30, list: true, keyword: true }),
    contactPhone: f.text('联系电话', {
      required: true,
      max: 11,
      validate: mobile,
      list: true,
      keyword: true,
      mask: 'phone',
    }),
    visitorCount: f.int('人数', { required: true, min: 1, max: 20, list: true, width: 60 }),
    channel: f.status('渠道', CHANNELS, { list: true, filter: 'eq', initial: 3, width: 70 }),
    status: f.status('状态', ORDER_STATES, { form: false, list: true, filter: 'eq', initial: 1, width: 80 }),
    verifyCode: f.text('入馆码', { form: false, max: 40 }),
    cancelTime: f.datetime('取消时间', { form: false }),
    cancelReason: f.textarea('取消原因', { form: false, max: 200 }),
    finishTime: f.datetime('入馆时间', { form: false, list: true }),
    venue: f.status('场馆', VENUES, { form: false, list: true, filter: 'eq', initial: 1, width: 90 }),
  },
  status: { field: 'status' },
  transitions: {
    // The office cancels for a visitor who phoned (the visitor's own cancel, with its deadline,
    // is the public page's, not built yet). Places and IDs are given back in the same transaction.
    cancel: {
      label: '取消预约',
      from: [1],
      to: 3,
      input: { reason: f.textarea('取消原因', { required: true, max: 200 }) },
      set: (_row, input, now) => ({ cancelReason: input.reason, cancelTime: now }),
      effect: 'releasePlaces',
      danger: true,
      confirm: '取消后名额退回该场次，参观人当天可重新预约。',
    },
  },
  access: { read: 'order.orderPerson', write: 'order.orderPerson' },
  order: [['id', 'desc']],
  describe: (r) => `预约 ${String(r.orderNo ?? '')}`,
});

export const CHECK_STATES: readonly StatusOption[] = [
  { value: 0, label: '未入馆', color: 'blue' },
  { value: 1, label: '已入馆', color: 'green' },
  { value: 2, label: '失约', color: 'red' },
  { value: 3, label: '已取消', color: 'gray' },
];

export const appointOrderVisitor = defineRecord({
  name: 'appointOrderVisitor',
  title: '参观人',
  shape: 'catalog',
  table: 'appoint_order_visitor',
  base: '/AppointOrderVisitor',
  // Written with their order (book, a team's save); read here (spec: GET getList).
  calls: { list: 'GET getList', detail: 'GET detail', export: 'GET export' },
  fields: {
    orderId: f.ref('个人预约', 'appointOrder', { by: 'orderNo', filter: 'eq', list: true }),
    teamOrderId: f.ref('团队预约', 'appointTeamOrder', { by: 'orderNo', filter: 'eq' }),
    date: f.date('参观日期', { required: true, list: true, filter: 'range', width: 110 }),
    name: f.text('姓名', { required: true, max: 30, list: true, keyword: true }),
    idType: f.status('证件类型', ID_TYPES, { list: true, initial: 1 }),
    idNumber: f.text('证件号', { required: true, max: 30, list: true, keyword: true, mask: 'idNumber' }),
    isMinor: f.bool('未成年', { list: true, filter: 'eq', width: 70 }),
    checkStatus: f.status('入馆状态', CHECK_STATES, { list: true, filter: 'eq', initial: 0, width: 80 }),
    checkTime: f.datetime('入馆时间', { list: true }),
    venue: f.status('场馆', VENUES, { form: false, list: true, filter: 'eq', initial: 1, width: 90 }),
  },
  access: { read: 'order.orderPerson', write: 'order.orderPerson' },
  order: [['id', 'desc']],
  describe: (r) => String(r.name ?? ''),
});

export const TEAM_STATES: readonly StatusOption[] = [
  { value: 0, label: '待审核', color: 'orange' },
  { value: 1, label: '已通过', color: 'blue' },
  { value: 2, label: '未通过', color: 'red' },
  { value: 3, label: '已入馆', color: 'green' },
  { value: 4, label: '已取消', color: 'gray' },
  { value: 5, label: '已失约', color: 'red' },
];

export const TEAM_TYPES: readonly StatusOption[] = [
  { value: 1, label: '学校' },
  { value: 2, label: '机关事业单位' },
  { value: 3, label: '企业' },
  { value: 4, label: '旅行社' },
  { value: 5, label: '其他' },
];

export const EXPLAIN_LANGUAGES: readonly StatusOption[] = [
  { value: 1, label: '普通话' },
  { value: 2, label: '英语' },
  { value: 3, label: '其他外语' },
  { value: 4, label: '手语' },
];

/** 介绍信 and 安全承诺书: a scan (PDF) or a photo (S6, S7). */
export const TEAM_DOCUMENT_TYPES = ['pdf', 'jpg', 'jpeg', 'png'] as const;
export const TEAM_DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
/** Schools, public bodies and companies bring a letter and a safety pledge (S6, S7). */
export const TEAM_TYPES_WITH_DOCUMENTS: readonly number[] = [1, 2, 3];

export const appointTeamOrder = defineRecord({
  name: 'appointTeamOrder',
  title: '团队预约',
  shape: 'pipeline',
  table: 'appoint_team_order',
  base: '/appointTeamOrder',
  // Spec: GET getList, detail, visitorList; POST approve, notice, finishAppoint. A team is
  // entered by POST save (ours, hand-written: it takes the team's places).
  calls: { list: 'GET getList', detail: 'GET detail', export: 'GET export' },
  fields: {
    orderNo: f.text('预约号', { form: false, max: 20, list: true, keyword: true, width: 150 }),
    teamName: f.text('团队名称', { required: true, max: 100, list: true, keyword: true }),
    unitName: f.text('单位名称', { required: true, max: 100, list: true, keyword: true }),
    teamType: f.status('团队类型', TEAM_TYPES, { required: true, list: true, filter: 'eq' }),
    leaderName: f.text('领队姓名', { required: true, max: 30, list: true, keyword: true }),
    leaderPhone: f.text('领队手机', { required: true, max: 11, validate: mobile, list: true, mask: 'phone' }),
    leaderIdType: f.status('领队证件类型', ID_TYPES, { initial: 1 }),
    leaderIdNumber: f.text('领队证件号', { required: true, max: 30, mask: 'idNumber' }),
    ticketId: f.ref('场次', 'appointTicket', { by: 'date', required: true, filter: 'eq' }),
    date: f.date('参观日期', { form: false, list: true, filter: 'range', width: 110 }),
    startTime: f.time('开始时间', { form: false, list: true, width: 80 }),
    visitorCount: f.int('总人数', { required: true, min: 1, max: 500, list: true, width: 70 }),
    adultCount: f.int('成人数', { required: true, max: 500 }),
    minorCount: f.int('未成年人数', { required: true, max: 500 }),
    needExplain: f.bool('需要讲解', { list: true, filter: 'eq', width: 80 }),
    // The exhibition to explain: approval makes a 预约讲解 session of it for the volunteers.
    explainExhibitionId: f.ref('讲解展览', 'volunteerExhibition', {
      by: 'name',
      help: '需要讲解时必选；审核通过后生成志愿者讲解场次',
    }),
    explainLanguage: f.status('讲解语种', EXPLAIN_LANGUAGES, { initial: 1 }),
    explainSessionId: f.int('讲解场次', { form: false }),
    letterFile: f.file('介绍信', {
      types: TEAM_DOCUMENT_TYPES,
      maxBytes: TEAM_DOCUMENT_MAX_BYTES,
      help: '学校、机关事业单位和企业团队必传；PDF 或 JPG/PNG 图片，不超过 10MB',
    }),
    pledgeFile: f.file('安全承诺书', {
      types: TEAM_DOCUMENT_TYPES,
      maxBytes: TEAM_DOCUMENT_MAX_BYTES,
      help: '学校、机关事业单位和企业团队必传；PDF 或 JPG/PNG 图片，不超过 10MB',
    }),
    purpose: f.textarea('参观目的', { max: 200 }),
    remark: f.textarea('备注', { max: 200 }),
    status: f.status('状态', TEAM_STATES, { form: false, list: true, filter: 'eq', initial: 0, width: 80 }),
    approveComment: f.textarea('审核意见', { form: false, max: 200 }),
    approveTime: f.datetime('审核时间', { form: false }),
    noticeContent: f.textarea('通知内容', { form: false, max: 500 }),
    noticeTime: f.datetime('通知时间', { form: false, list: true }),
    actualCount: f.int('实到人数', { form: false, max: 500 }),
  },
  status: { field: 'status' },
  transitions: {
    // `approve` (the spec's one call, result 1 or 2) dispatches to these two (README).
    approvePass: {
      label: '审核通过',
      from: [0],
      to: 1,
      input: { comment: f.textarea('审核意见', { max: 200 }) },
      set: (_row, input, now) => ({ approveComment: input.comment ?? '', approveTime: now }),
      effect: 'teamApproved',
    },
    approveReject: {
      label: '审核不通过',
      from: [0],
      to: 2,
      input: { comment: f.textarea('不通过原因', { required: true, max: 200 }) },
      set: (_row, input, now) => ({ approveComment: input.comment, approveTime: now }),
      effect: 'releaseTeamPlaces',
      danger: true,
    },
    notice: {
      label: '发送通知',
      from: [1],
      to: 1,
      input: { noticeContent: f.textarea('通知内容', { required: true, max: 500 }) },
      set: (_row, input, now) => ({ noticeContent: input.noticeContent, noticeTime: now }),
      effect: 'tellLeader',
    },
    // The gate admits an approved team on its day (spec: POST finishAppoint), counting who came.
    finishAppoint: {
      label: '核销入馆',
      call: 'POST finishAppoint',
      from: [1],
      to: 3,
      access: 'order.orderTeam',
      input: { actualCount: f.int('实到人数', { required: true, min: 1, max: 500 }) },
      set: (_row, input) => ({ actualCount: input.actualCount }),
      effect: 'teamArrived',
    },
    cancel: {
      label: '取消预约',
      from: [0, 1],
      to: 4,
      input: { reason: f.textarea('取消原因', { required: true, max: 200 }) },
      set: (_row, input) => ({ approveComment: input.reason }),
      effect: 'releaseTeamPlaces',
      danger: true,
    },
  },
  check: (row) => {
    const adults = Number(row.adultCount ?? 0);
    const minors = Number(row.minorCount ?? 0);
    if (typeof row.visitorCount === 'number' && adults + minors !== row.visitorCount)
      return { field: 'minorCount', message: `成人数与未成年人数之和须等于总人数 ${row.visitorCount}` };
    if (row.leaderIdType === 1 && typeof row.leaderIdNumber === 'string') {
      const p = idCardProblem(row.leaderIdNumber);
      if (p) return { field: 'leaderIdNumber', message: `领队证件号${p}` };
    }
    if (TEAM_TYPES_WITH_DOCUMENTS.includes(Number(row.teamType))) {
      const kind = TEAM_TYPES.find((t) => t.value === Number(row.teamType))!.label;
      for (const [field, label] of [
        ['letterFile', '介绍信'],
        ['pledgeFile', '安全承诺书'],
      ] as const)
        if (!(row[field] as unknown[] | undefined)?.length)
          return { field, message: `${kind}团队须上传${label}（PDF 或 JPG/PNG 图片）` };
    }
    if (row.needExplain === true && !row.explainExhibitionId)
      return { field: 'explainExhibitionId', message: '需要讲解时请选择讲解展览' };
    return null;
  },
  access: { read: 'order.orderTeam', write: 'order.orderTeam' },
  order: [['id', 'desc']],
  describe: (r) => `${String(r.teamName ?? '')} ${String(r.date ?? '')}`,
});

export const BLOCK_REASONS: readonly StatusOption[] = [
  { value: 1, label: '失约超限' },
  { value: 2, label: '倒票/黄牛' },
  { value: 3, label: '违规讲解' },
  { value: 4, label: '其他' },
];

export const appointBlackList = defineRecord({
  name: 'appointBlackList',
  title: '黑名单',
  shape: 'pipeline',
  table: 'appoint_black_list',
  base: '/appointBlackList',
  // Calls not shown in the spec (route black-list): ours, in the engine's words.
  calls: { list: 'GET pageList', detail: 'GET detail', create: 'POST save', export: 'GET export' },
  fields: {
    name: f.text('姓名', { required: true, max: 30, list: true, keyword: true }),
    idType: f.status('证件类型', ID_TYPES, { list: true, initial: 1 }),
    idNumber: f.text('证件号', { required: true, max: 30, list: true, keyword: true, mask: 'idNumber' }),
    reason: f.status('原因', BLOCK_REASONS, { required: true, list: true, filter: 'eq' }),
    remark: f.textarea('说明', { required: true, max: 200 }),
    auto: f.bool('系统自动', { form: false, list: true, filter: 'eq', width: 80 }),
    noShowCount: f.int('失约次数', { form: false, list: true, width: 70 }),
    startDate: f.date('开始日期', { required: true, list: true, width: 110 }),
    endDate: f.date('结束日期', {
      list: true,
      filter: 'range',
      width: 110,
      help: '留空为永久（仅限手动加入）',
    }),
    status: f.status(
      '状态',
      [
        { value: 1, label: '生效', color: 'red' },
        { value: 0, label: '已解除', color: 'gray' },
      ],
      { form: false, list: true, filter: 'eq', initial: 1, width: 70 },
    ),
    releaseReason: f.textarea('解除原因', { form: false, max: 200 }),
  },
  status: { field: 'status' },
  transitions: {
    release: {
      label: '解除',
      from: [1],
      to: 0,
      input: { reason: f.textarea('解除原因', { required: true, max: 200 }) },
      set: (_row, input) => ({ releaseReason: input.reason }),
      confirm: '解除后此人可以立即预约。',
    },
  },
  check: (row) => {
    if (row.idType === 1 && typeof row.idNumber === 'string') {
      const p = idCardProblem(row.idNumber);
      if (p) return { field: 'idNumber', message: `证件号${p}` };
    }
    if (typeof row.endDate === 'string' && row.endDate && typeof row.startDate === 'string')
      if (row.endDate < row.startDate) return { field: 'endDate', message: '结束日期不能早于开始日期' };
    return null;
  },
  access: { read: 'order.blackList', write: 'order.blackList' },
  order: [['id', 'desc']],
  describe: (r) => `${String(r.name ?? '')}`,
});
