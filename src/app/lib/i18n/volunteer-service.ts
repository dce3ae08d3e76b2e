export const tVolunteerService = {
  serviceListIntro:
    '社会志愿者的服务记录，是服务时长的唯一来源：场次签退后自动生成“待确认”记录，也可手工登记活动服务。时长由起止时间计算（按 30 分钟取整），只有“已确认”的记录计入总时长。',
  stuServiceIntro: '学生志愿者的服务记录。时长由起止时间计算，只有“已确认”的记录计入总时长。',
  confirmAll: '批量确认',
  confirmAllTitle: '批量确认服务时长',
  confirmAllText: (n: number) =>
    `将确认当前类别下 ${n} 条“待确认”的服务记录（每次最多 200 条），确认后计入志愿者的服务总时长。`,
  confirmNone: '没有待确认的服务记录',
  confirmDone: (n: number, skipped: number) =>
    `已确认 ${n} 条${skipped ? `，${skipped} 条状态已变化未处理` : ''}`,
  annual: '年度考核',
  annualTitle: '年度服务时长考核',
  annualYear: '年度',
  annualRun: '查询',
  annualHint: (hours: number, checked: number) =>
    `最低 ${hours} 小时；共核查 ${checked} 人。名单仅供参考，系统不会自动处理任何人。`,
  annualNone: '没有低于最低时长的志愿者',
  annualName: '志愿者',
  annualHours: '已确认时长（小时）',
  exhibitionsIntro:
    '志愿者讲解的展览。按每日讲解时间批量生成场次，为场次安排已取得讲解证书的志愿者；展厅签到码由服务器签名，作废后旧码（含已打印的）立即失效。',
  sessionsTitle: '讲解场次',
  sessionsIntro:
    '安排讲解员时，系统会检查讲解证书、需要人数和同一天的时间冲突。取消场次后，志愿者的签到（包括离线补传）会被拒绝并显示原因。',
  generate: '生成场次',
  generateTitle: (name: string) => `生成场次：${name}`,
  from: '开始日期',
  to: '结束日期',
  quota: '每场需要人数',
  generateDone: (created: number, closed: number) =>
    `已生成 ${created} 个场次${closed ? `（跳过 ${closed} 个闭馆日）` : ''}`,
  code: '签到码',
  codeTitle: (name: string) => `展厅签到码：${name}`,
  codeHelp:
    '打印下面的二维码张贴在展厅，或在值守平板上打开“平板轮换码”全屏展示（每 30 秒更新，2 分钟内有效）。志愿者扫码签到、签退。',
  print: '打印',
  printNote: (v: number) =>
    `签到码第 ${v} 版。管理员点击“作废旧码”后，本码立即失效，请以展厅张贴的最新签到码为准。`,
  printScan: '志愿者请用手机扫码签到、签退',
  printedAt: (d: string) => `打印日期：${d}`,
  qrImage: (hall: string) => `${hall} 签到二维码`,
  display: '平板轮换码',
  displayTitle: '展厅签到码',
  displayScan: '志愿者请扫码签到 / 签退',
  displayCountdown: (s: number) => `本码 ${s} 秒后更新`,
  displayValidTo: (t: string) => `有效至 ${t}`,
  displayOffline: (t: string) =>
    `网络中断，无法更新签到码：屏幕上的签到码 ${t} 后失效。请检查网络，或改用张贴的打印签到码。`,
  displayFullscreen: '全屏',
  displayClose: '退出展示',
  todayTitle: '今日讲解场次',
  todaySummary: (sessions: number, open: number) =>
    `今日 ${sessions} 场${open ? ` · 待安排 ${open} 个名额` : ' · 均已安排'}`,
  todaySession: (c: { present: number; assigned: number; open: number }) =>
    `已签到 ${c.present}/${c.assigned}${c.open ? ` · 缺 ${c.open} 人` : ''}`,
  todayEmpty: '今日没有讲解场次',
  todayMore: '签到管理',
  todayAssign: '去安排',
  ageBand: '年龄段',
  ageBands: [
    { value: '18-29', label: '18–29 岁' },
    { value: '30-44', label: '30–44 岁' },
    { value: '45-59', label: '45–59 岁' },
    { value: '60-65', label: '60 岁及以上' },
  ],
  rollAll: '全部',
  rollSuggest: (n: number) => `建议停用（${n}）`,
  rollSuggestHelp:
    '缺席（招募缺席、场次缺勤）累计 3 次及以上的志愿者。系统不会自动停用，请核实情况后再决定。',
  chartsYear: '统计年度',
  chartsTotals: (confirmed: string, pending: string) =>
    `本年度已确认 ${confirmed} 小时 · 待确认 ${pending} 小时`,
  chartHoursByMonth: '每月已确认时长（小时）',
  chartHoursByGroup: '各服务组已确认时长（小时）',
  chartNewByMonth: '每月新增志愿者（人）',
  chartAttendance: '每月场次出勤率',
  chartEmpty: '本年度暂无数据',
  month: (m: number) => `${m}月`,
  codeVersion: (v: number) => `当前版本：第 ${v} 版`,
  copy: '复制',
  copied: '已复制',
  revoke: '作废旧码',
  revokeConfirm: '作废后，所有已打印或已分享的旧签到码立即失效，需重新打印张贴。确定作废吗？',
  revoked: '已作废旧码，请打印新的签到码',
  setExplain: '安排讲解员',
  setExplainTitle: '安排讲解员',
  setExplainHelp: '只能安排已取得本展览讲解证书的志愿者，人数不超过需要人数，且同一天时间不重叠。',
  setExplainDone: '讲解员已安排',
  qualificationIntro:
    '讲解资格按展厅（展览）申请：试讲须有至少 2 名考官，考核通过后发放讲解证书，持证后才能被安排该展览的讲解场次。',
  signInIntro:
    '各场次的签到情况。签到时间由服务器按手机时钟偏差校正并限制在场次时段内；带“复核提示”的记录（时钟偏差、超过 24 小时才同步、同一手机为两人签到）不会被拒绝，请人工复核。',
  signInDay: '日期',
  signInEmpty: '这一天没有场次',
  signInCounts: (c: {
    assigned: number;
    waiting: number;
    checkedIn: number;
    checkedOut: number;
    absent: number;
    confirmed: number;
  }) =>
    `安排 ${c.assigned} 人 · 待签到 ${c.waiting} · 已签到 ${c.checkedIn} · 已签退 ${c.checkedOut} · 缺勤 ${c.absent} · 已确认 ${c.confirmed}`,
  signInList: '签到明细',
  settingIntro:
    '学生志愿者的服务设置。留空的数值按默认值执行（括号内为默认值）；这些门槛是默认规则，管理员可对个人说明理由后调整。',
  slotIntro: '学生志愿者可预约的服务时段。每个时段有名额，关闭“开放预约”后不再接受预约；可按模板批量导入。',
  appointIntro: '学生的服务预约。预约时占用时段名额（不会超出），取消后名额退回；到场后标记“已到”或“缺席”。',
  settingEdit: '编辑设置',
  settingEmpty: '尚未保存过设置，当前全部使用默认值。',
  cancel: '取消',
  ok: '确定',
} as const;
