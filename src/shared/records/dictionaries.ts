import { CLC_CLASSES } from './validators';

/**
 * The dictionaries seeded at every start (research/records-design.md §8, sources S13, S18,
 * S22). Seeding only adds what is missing, by key and by (key, value): an administrator's
 * renamed, re-sorted or disabled item stays as they left it, and a seeded (system) item can be
 * disabled but never deleted, so a record that stored its value always finds its words.
 *
 * Values are stable codes ('1', '2' …, or the CLC letter); labels are what people read.
 * `parent` makes a tree (质地: 单一质地 → 无机质).
 */
export interface SeedItem {
  value: string;
  label: string;
  parent?: string;
}
export interface SeedDict {
  key: string;
  name: string;
  remark: string;
  items: readonly SeedItem[];
}

/** A dictionary key: a letter, then letters, digits or _ (2–50). */
export const DICT_KEY_RE = /^[a-z][a-zA-Z0-9_]{1,49}$/;

/** Items numbered 1, 2, 3 … in the order given. */
const numbered = (labels: readonly string[]): SeedItem[] =>
  labels.map((label, i) => ({ value: String(i + 1), label }));

export const SEED_DICTIONARIES: readonly SeedDict[] = [
  {
    key: 'relic_category',
    name: '文物类别',
    remark: '全国可移动文物普查的 35 个类别（S18）',
    items: numbered([
      '玉石器、宝石',
      '陶器',
      '瓷器',
      '铜器',
      '金银器',
      '铁器、其他金属器',
      '漆器',
      '雕塑、造像',
      '石器、石刻、砖瓦',
      '书法、绘画',
      '文具',
      '甲骨',
      '玺印符牌',
      '钱币',
      '牙骨角器',
      '竹木雕',
      '家具',
      '珐琅器',
      '织绣',
      '古籍图书',
      '碑帖拓本',
      '武器',
      '邮品',
      '文件、宣传品',
      '档案文书',
      '名人遗物',
      '玻璃器',
      '乐器、法器',
      '皮革',
      '音像制品',
      '票据',
      '交通、运输工具',
      '度量衡器',
      '标本、化石',
      '其他',
    ]),
  },
  {
    key: 'relic_level',
    name: '文物级别',
    remark: 'S18',
    items: numbered(['一级', '二级', '三级', '一般', '未定级']),
  },
  {
    key: 'relic_completeness',
    name: '完残程度',
    remark: 'S18',
    items: numbered(['完整', '基本完整', '残缺', '严重残缺（含缺失部件）']),
  },
  {
    key: 'relic_preservation',
    name: '保存状态',
    remark: 'S18',
    items: numbered(['状态稳定，不需修复', '部分损腐，需要修复', '腐蚀损毁严重，急需修复', '已修复']),
  },
  {
    key: 'relic_source',
    name: '文物来源',
    remark: 'S18',
    items: numbered([
      '征集购买',
      '接受捐赠',
      '依法交换',
      '拨交',
      '移交',
      '旧藏',
      '发掘',
      '采集',
      '拣选',
      '其他',
    ]),
  },
  {
    key: 'relic_in_time_range',
    name: '入藏时间范围',
    remark: 'S18',
    items: numbered([
      '1949年10月1日前',
      '1949年10月1日至1965年',
      '1966年至1976年',
      '1977年至2000年',
      '2001年至今',
    ]),
  },
  {
    key: 'relic_texture',
    name: '质地',
    remark: '单一/复合，有机/无机（S18）',
    items: [
      { value: '1', label: '单一质地' },
      { value: '11', label: '无机质', parent: '1' },
      { value: '12', label: '有机质', parent: '1' },
      { value: '2', label: '复合质地' },
      { value: '21', label: '无机复合', parent: '2' },
      { value: '22', label: '有机复合', parent: '2' },
      { value: '23', label: '有机无机复合', parent: '2' },
    ],
  },
  {
    key: 'id_type',
    name: '证件类型',
    remark: 'records-design §1',
    items: numbered([
      '居民身份证',
      '护照',
      '港澳居民来往内地通行证',
      '台湾居民来往大陆通行证',
      '港澳台居民居住证',
      '外国人永久居留身份证',
    ]),
  },
  {
    key: 'political_status',
    name: '政治面貌',
    remark: 'GB/T 4762 的 13 类',
    items: numbered([
      '中共党员',
      '中共预备党员',
      '共青团员',
      '民革党员',
      '民盟盟员',
      '民建会员',
      '民进会员',
      '农工党党员',
      '致公党党员',
      '九三学社社员',
      '台盟盟员',
      '无党派人士',
      '群众',
    ]),
  },
  {
    key: 'education',
    name: '学历',
    remark: '',
    items: numbered([
      '博士研究生',
      '硕士研究生',
      '大学本科',
      '大学专科',
      '中等职业教育',
      '普通高中',
      '初中',
      '小学',
      '其他',
    ]),
  },
  {
    key: 'team_type',
    name: '团队类型',
    remark: '团队预约（records-design §7.5）',
    items: numbered(['学校', '机关事业单位', '企业', '旅行社', '其他']),
  },
  {
    key: 'clc_class',
    name: '中图分类',
    remark: '中国图书馆分类法 22 个基本大类',
    items: CLC_CLASSES.map((c) => ({ value: c.value, label: `${c.value} ${c.label}` })),
  },
  {
    key: 'periodical_frequency',
    name: '刊期',
    remark: '',
    items: numbered(['周刊', '旬刊', '半月刊', '月刊', '双月刊', '季刊', '半年刊', '年刊']),
  },
  {
    key: 'video_type',
    name: '视频分类',
    remark: '小程序音视频',
    items: numbered(['展览导览', '文物故事', '专题讲座', '社教活动', '宣传片', '其他']),
  },
  {
    key: 'course_type',
    name: '课程类型',
    remark: '云课堂',
    items: numbered(['历史文化', '艺术鉴赏', '科学探究', '非遗体验', '亲子研学', '其他']),
  },
  {
    key: 'cultural_category',
    name: '文创品类',
    remark: '文创产品（records-design §5）',
    items: numbered(['文具', '服饰', '家居', '饰品', '图书', '其他']),
  },
  {
    // Seeded empty: the museum adds the hosts it trusts (README "Website and mini-program content").
    key: 'content_link_host',
    name: '内容外链白名单',
    remark:
      '网站与小程序内容可以链接、嵌入的 https 网站：每项的“值”填域名（如 www.720yun.com，含其子域名），“名称”填网站名称',
    items: [],
  },
  {
    key: 'volunteer_indicator',
    name: '志愿服务指标',
    remark: '业务数据中的志愿服务统计项',
    items: numbered([
      '服务时长（小时）',
      '服务人次',
      '讲解场次',
      '服务观众人次',
      '新增志愿者人数',
      '培训场次',
    ]),
  },
  {
    key: 'disease_bronze',
    name: '病害（青铜器）',
    remark: 'S22',
    items: numbered([
      '矿化',
      '残缺',
      '断裂',
      '裂隙',
      '变形',
      '点腐蚀',
      '全面腐蚀',
      '瘤状物',
      '表面硬结物',
      '有害锈',
    ]),
  },
  {
    key: 'disease_iron',
    name: '病害（铁器）',
    remark: '',
    items: numbered([
      '残缺',
      '断裂',
      '裂隙',
      '变形',
      '层状剥离',
      '点腐蚀',
      '全面腐蚀',
      '表面硬结物',
      '瘤状物',
    ]),
  },
  {
    key: 'disease_ceramic',
    name: '病害（陶瓷器）',
    remark: 'S22',
    items: numbered([
      '残缺',
      '断裂',
      '裂隙',
      '表面污染',
      '釉面（彩绘）起泡',
      '起翘',
      '剥落',
      '粉化',
      '可溶盐',
      '旧修复不当',
    ]),
  },
  {
    key: 'disease_stone',
    name: '病害（石质）',
    remark: '',
    items: numbered([
      '残缺',
      '断裂',
      '裂隙',
      '表面风化',
      '片状剥落',
      '粉状剥落',
      '表面污染',
      '生物病害',
      '盐析',
      '旧修复不当',
    ]),
  },
  {
    key: 'disease_paper',
    name: '病害（纸质）',
    remark: '',
    items: numbered([
      '污渍',
      '霉斑',
      '虫蛀',
      '鼠啮',
      '残缺',
      '断裂',
      '褶皱',
      '粘连',
      '酸化',
      '糟朽',
      '字迹褪色',
    ]),
  },
  {
    key: 'disease_textile',
    name: '病害（织绣）',
    remark: '',
    items: numbered(['污染', '霉变', '虫蛀', '糟朽', '破裂', '褪色', '晕色', '残缺', '皱褶', '饰物脱落']),
  },
  {
    key: 'duty_type',
    name: '值班类型',
    remark: '值班表',
    items: numbered(['行政值班', '安保值班', '节假日值班']),
  },
  {
    key: 'duty_shift',
    name: '值班班次',
    remark: '值班表；时间见 README“值班表”',
    items: numbered(['白班', '夜班', '全天']),
  },
  {
    key: 'personal_indicator',
    name: '个人业务指标',
    remark: '个人业务数据的统计项（records-design §8）',
    items: numbered([
      '讲解场次',
      '接待团队',
      '撰写稿件',
      '策划活动',
      '参与展览',
      '整理藏品（件）',
      '修复文物（件）',
      '培训学时',
      '外出调研',
    ]),
  },
  {
    key: 'dept_indicator',
    name: '部门业务指标',
    remark: '部门业务数据的统计项（records-design §8）',
    items: numbered([
      '观众接待人次',
      '社教活动场次',
      '社教活动参与人次',
      '志愿服务时长（小时）',
      '新增藏品（件/套）',
      '修复文物件数',
      '图书借阅量（册次）',
      '举办展览',
      '宣传报道篇数',
    ]),
  },
  {
    key: 'download_category',
    name: '下载中心分类',
    remark: '下载中心的资料分类',
    items: numbered(['表格模板', '规章制度', '工作文件', '培训资料', '其他']),
  },
];
