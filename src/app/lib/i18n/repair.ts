// Conservation and repair (issue 24): the five /repair pages and the printable archive.
export const tRepair = {
  manageIntro:
    '修复项目按 立项申报 → 方案编制 →（含一级文物时）待批复 → 实施中 → 待验收 → 已验收 → 已归档 推进；含一级文物的项目须取得国家文物局批复后实施，修复报告须在实际完成后 3 个月内报备。',
  fillIntro:
    '每件文物一份修复档案：病害、检测分析、修复过程和修复前后照片。开始修复前须办理出库交接，归档前须填写效果评估并办理归库交接。',
  culturalIntro: '查看已登记的修复文物及其档案，可打印归档。一级文物的档案仅修复人员可见。',
  standardsQueryIntro: '文物保护修复相关的国家标准、行业标准、地方标准和规范性文件。',
  standardsManageIntro: '维护标准规范库：标准编号唯一；状态为“被代替”时须填写代替标准。',
  print: '打印档案',
  printTitle: '文物保护修复档案',
  printNow: '打印',
  loading: '正在读取档案…',
  loadFailed: '读取档案失败，请稍后重试',
  basic: '一、文物基本信息',
  diseases: '二、病害记录',
  analyses: '三、检测分析',
  before: '四、修复前照片',
  steps: '五、修复过程',
  after: '六、修复后照片',
  evaluation: '七、效果评估与保存建议',
  custody: '八、出入库交接',
  history: '九、状态记录',
  none: '无',
  signRestorer: '修复人员（签字）：',
  signKeeper: '库房交接人（签字）：',
  signDate: '日期：',
  printedAt: (time: string) => `打印时间：${time}`,
} as const;
