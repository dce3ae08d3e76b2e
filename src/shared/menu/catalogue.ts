/**
 * The route and menu catalogue of spec/office.md §2: the rail modules, their side menus, hidden
 * pages, redirects and the routes outside the main layout.
 *
 * This is the single source of routes and permissions. The server grants menu leaf keys to roles
 * and checks requests against `permForPath`; the app builds its router and side menu from the
 * same table. Add a page here first, never only in the app or only on the server.
 */
import type {
  BareRoute,
  CountKey,
  HiddenRoute,
  IconName,
  MenuGroup,
  MenuItem,
  MenuLeaf,
  ModuleDef,
  ModuleKey,
  RedirectDef,
} from './types';
import { isGroup } from './types';

/** The all-access role (§6): receives every side-menu group. */
export const ADMIN_ROLE = 'viviHignAdmin';
/** The role a user without roles gets (§6). */
export const DEFAULT_ROLE = 'myselfRole';
/**
 * The volunteer role (issue 20, README "Volunteer accounts and the phone view"): built in, with
 * no staff menu leaf. Someone who holds only this role gets the phone view at /m, not the rail.
 */
export const VOLUNTEER_ROLE = 'volunteerRole';
/** The volunteer's phone-first view (ours; the spec's staff routes have no volunteer side). */
export const VOLUNTEER_HOME = '/m';

interface LeafOptions {
  search?: Record<string, string>;
  icon?: IconName;
  badge?: CountKey;
}

function leaf(key: string, title: string, path: string, options: LeafOptions = {}): MenuLeaf {
  return { key, title, path, ...options };
}

function group(key: string, title: string, icon: IconName, children: MenuLeaf[]): MenuGroup {
  return { key, title, icon, children };
}

function hidden(path: string, title: string, perm: string): HiddenRoute {
  return { path, title, perm };
}

export const MODULES: readonly ModuleDef[] = [
  {
    key: 'home',
    title: '工作台',
    icon: 'home',
    items: [leaf('home.workbench', '工作台', '/home/workbench', { icon: 'home' })],
    hidden: [
      hidden('/home/address-book', '通讯录', 'home.workbench'),
      hidden('/home/data-download', '下载中心', 'home.workbench'),
      hidden('/home/notice-list', '通知公告', 'home.workbench'),
      hidden('/home/nbdt-list', '馆内动态', 'home.workbench'),
      hidden('/home/watch-list', '值班表', 'home.workbench'),
    ],
  },
  {
    key: 'oa',
    title: '办公行政',
    icon: 'briefcase',
    items: [
      leaf('oa.infoPublish', '信息发布', '/approve/info-publish', { icon: 'speakerphone' }),
      leaf('oa.addressBook', '通讯录管理', '/oa/address-book-management', { icon: 'address-book' }),
      leaf('oa.watchList', '值班表管理', '/oa/watch-list-management', { icon: 'calendar-event' }),
      // 业务数据 (issue 18): one page, three grants. type=1 one's own month (every member of
      // staff), type=2 the department's figures and plans (department heads), type=3 every
      // department, month closing and plan confirmation (the office).
      leaf('oa.dataManagement', '业务数据', '/home/data-managemnt', {
        icon: 'chart-bar',
        search: { type: '1' },
      }),
      leaf('oa.dataDept', '部门业务数据', '/home/data-managemnt', {
        icon: 'building',
        search: { type: '2' },
      }),
      leaf('oa.dataSummary', '业务数据汇总', '/home/data-managemnt', {
        icon: 'clipboard-check',
        search: { type: '3' },
      }),
      group('oa.approve', '审批', 'checkbox', [
        leaf('oa.approve.start', '发起审批', '/approve/start-approve'),
        leaf('oa.approve.pending', '待我审批', '/approve/process-pending', {
          search: { state: 'pending' },
          badge: 'todoCount',
        }),
        leaf('oa.approve.done', '我已审批', '/approve/process-done', { search: { state: 'done' } }),
        leaf('oa.approve.mystart', '我发起的', '/approve/process-mystart', { search: { state: 'mystart' } }),
        leaf('oa.approve.copy', '抄送我的', '/approve/process-copy', {
          search: { state: 'copy' },
          badge: 'copytoCount',
        }),
        leaf('oa.approve.setting', '审批设置', '/approve/dispose', { search: { pageType: 'setting' } }),
      ]),
      group('oa.gongwen', '公文', 'file-text', [
        leaf('oa.gongwen.list', '公文列表', '/gongwen/process-list', { search: { state: 'list' } }),
        leaf('oa.gongwen.pending', '待办公文', '/gongwen/process-pending'),
        leaf('oa.gongwen.mystart', '我发起的', '/gongwen/process-mystart'),
      ]),
      // The spec lists 部门汇总 and 个人汇总 under "Others" with the project pages; they are
      // attendance summaries, so a person looks for them under 考勤 (issue 17 §5). Their keys
      // moved with them (migration 0019 renames existing grants).
      group('oa.attendance', '考勤', 'clock', [
        leaf('oa.attendance.overview', '考勤统计', '/approve/view'),
        leaf('oa.attendance.person', '个人考勤', '/approve/view-person'),
        leaf('oa.attendance.departmentSummary', '部门汇总', '/approve/department-summary'),
        leaf('oa.attendance.personalSummary', '个人汇总', '/approve/personal-summary'),
      ]),
      group('oa.project', '项目管理', 'list', [
        leaf('oa.project.list', '项目列表', '/project-list'),
        leaf('oa.project.progress', '项目进度', '/approve/project-progress'),
      ]),
    ],
    hidden: [hidden('/approve/view-person-detail', '个人考勤详情', 'oa.attendance.person')],
  },
  {
    key: 'project',
    title: '展览策划',
    icon: 'presentation',
    items: [
      leaf('project.exhibition', '展览管理', '/exhibition', { icon: 'presentation' }),
      leaf('project.plan', '展览计划', '/project/project-plan', { icon: 'clipboard-check' }),
    ],
    hidden: [],
  },
  {
    key: 'activity',
    title: '社会教育',
    icon: 'school',
    items: [
      leaf('activity.manage', '活动管理', '/activity/activity-manage', { icon: 'school' }),
      leaf('activity.type', '活动类型', '/activity/activity-type', { icon: 'list' }),
      leaf('activity.dataManagement', '活动资料', '/activity/activity-datamanagement', { icon: 'folder' }),
      leaf('activity.statistic', '活动统计', '/activity/activity-statistic', { icon: 'chart-bar' }),
    ],
    hidden: [hidden('/activity/activity-manage/detail', '活动详情', 'activity.manage')],
  },
  {
    key: 'repair',
    title: '保护修复',
    icon: 'tool',
    items: [
      leaf('repair.manage', '修复管理', '/repair/repair-manage', { icon: 'tool' }),
      leaf('repair.standardsQuery', '标准查询', '/repair/standards-query', { icon: 'search' }),
      leaf('repair.standardsManagement', '标准管理', '/repair/standards-management', { icon: 'file-text' }),
      leaf('repair.cultural', '修复文物', '/repair/repair-cultural', { icon: 'building' }),
      leaf('repair.fill', '修复填报', '/repair/repair-fill', { icon: 'clipboard-check' }),
    ],
    hidden: [],
  },
  {
    key: 'volunteer',
    title: '志愿服务',
    icon: 'heart-handshake',
    items: [
      group('volunteer.social', '社会志愿者', 'users', [
        leaf('volunteer.social.registerList', '报名列表', '/volunteer/register-list'),
        leaf('volunteer.social.adultVolunteer', '成人志愿者', '/volunteer/adult-volunteer'),
        leaf('volunteer.social.explainIndex', '讲解服务', '/volunteer/exlain-index'),
        leaf('volunteer.social.serviceList', '服务记录', '/volunteer/service-list'),
        leaf('volunteer.social.stuService', '学生服务记录', '/volunteer/stu-service'),
        leaf('volunteer.social.appointSetting', '预约设置', '/volunteer/appoint-setting'),
        leaf('volunteer.social.exhibitionExplain', '展厅讲解', '/volunteer/hxhibition-explain'),
      ]),
      group('volunteer.student', '学生志愿者', 'school', [
        leaf('volunteer.student.registerList', '报名列表', '/volunteer/stu-register-list', {
          search: { type: '2' },
        }),
        leaf('volunteer.student.schoolGroup', '学校团体', '/volunteer/school-group'),
        leaf('volunteer.student.littleStudent', '小小讲解员', '/volunteer/little-student'),
        leaf('volunteer.student.stuVolunteer', '学生志愿者', '/volunteer/stu-volunteer'),
        leaf('volunteer.student.serviceSetting', '服务设置', '/volunteer/stu-service-setting'),
        leaf('volunteer.student.serviceAppoint', '服务预约', '/volunteer/stu-service-appoint'),
      ]),
      leaf('volunteer.sign', '报名管理', '/volunteer/sign', { icon: 'id-badge' }),
      leaf('volunteer.recruit', '招募管理', '/volunteer/recruit', { icon: 'speakerphone' }),
      leaf('volunteer.infoPublish', '信息发布', '/volunteer/volunteer-info-publish', { icon: 'news' }),
      leaf('volunteer.signIn', '签到管理', '/volunteer/sign-in', { icon: 'clipboard-check' }),
      leaf('volunteer.applicationReview', '申请审核', '/volunteer/application-review', { icon: 'checkbox' }),
    ],
    hidden: [
      hidden('/volunteer/sign-detail', '报名详情', 'volunteer.sign'),
      hidden('/volunteer/recruit/detail', '招募详情', 'volunteer.recruit'),
    ],
  },
  {
    key: 'book',
    title: '图书借阅',
    icon: 'books',
    items: [
      leaf('book.panel', '借阅概览', '/books/books-panel', { icon: 'chart-bar' }),
      leaf('book.book', '图书查阅', '/books/book', { icon: 'books' }),
      leaf('book.bookManage', '图书管理', '/books/book-manage', { icon: 'books' }),
      leaf('book.periodical', '期刊查阅', '/books/periodical', { icon: 'news' }),
      leaf('book.periodicalManage', '期刊管理', '/books/periodical-manage', { icon: 'news' }),
      leaf('book.publication', '出版物查阅', '/books/publication', { icon: 'file-text' }),
      leaf('book.publicationManage', '出版物管理', '/books/publication-manage', { icon: 'file-text' }),
      leaf('book.borrowRecord', '借阅记录', '/books/borrow-record', { icon: 'history' }),
      leaf('book.receiveRecord', '领用记录', '/books/receive-record', { icon: 'history' }),
      leaf('book.borrowManagement', '借阅审批', '/books/borrow-management', {
        icon: 'checkbox',
        badge: 'bookBorrowCount',
      }),
      leaf('book.receiveManagement', '领用审批', '/books/receive-management', {
        icon: 'checkbox',
        badge: 'bookReceiveCount',
      }),
      leaf('book.delayManagement', '续借审批', '/books/delay-management', {
        icon: 'clock',
        badge: 'bookDelayCount',
      }),
    ],
    hidden: [],
  },
  {
    key: 'resources',
    title: '数字资源',
    icon: 'database',
    items: [
      leaf('resources.collection', '藏品资料', '/resources/collection', { icon: 'building' }),
      leaf('resources.collectionManagement', '藏品资料管理', '/resources/collection-management', {
        icon: 'settings',
      }),
      leaf('resources.photoSearch', '以图搜图', '/photo/search', { icon: 'search' }),
      leaf('resources.otherResource', '其他资源', '/resources/other-resource', {
        icon: 'folder',
        search: { fileType: '9', filePath: '/' },
      }),
      leaf('resources.otherResourceManagement', '其他资源管理', '/resources/other-resource-management', {
        icon: 'settings',
        search: { isAdmin: '1' },
      }),
      leaf('resources.hdPicture', '高清图管理', '/resources/hd-picture-management', {
        icon: 'photo',
        search: { isFmt: '2' },
      }),
      leaf('resources.netDisk', '个人网盘', '/resources/net-disk', {
        icon: 'folder',
        search: { fileType: '0' },
      }),
      leaf('resources.myShare', '我的分享', '/resources/my-share', {
        icon: 'share',
        search: { fileType: '8' },
      }),
      leaf('resources.recycleBin', '回收站', '/resources/collection-depot', {
        icon: 'trash',
        search: { fileType: '6' },
      }),
      // Badges: resource approvals awaiting me (shared/api/notice.ts ResourceCounts).
      leaf('resources.dataManage', '数据管理', '/data/manage', { icon: 'database', badge: 'applyCount' }),
      leaf('resources.dataReview', '数据审核', '/data/manage', {
        icon: 'clipboard-check',
        search: { role: '2' },
        badge: 'uploadCount',
      }),
    ],
    hidden: [hidden('/data/manage/extract', '数据提取', 'resources.dataManage')],
  },
  // The next three modules edit the website and mini-program content (issue 23): which leaf
  // reads and writes which content record is `GRANTS` in shared/records/content/common.ts.
  {
    key: 'applet',
    title: '小程序管理',
    icon: 'device-mobile',
    items: [
      leaf('applet.guide', '导览内容', '/applet-management/guide', { icon: 'map' }),
      leaf('applet.guideManagement', '导览管理', '/applet-management/guide-management', { icon: 'map' }),
      leaf('applet.carousel', '轮播图', '/applet-management/carousel', { icon: 'photo' }),
      leaf('applet.plane', '平面导览', '/applet-management/plane', { icon: 'map' }),
      leaf('applet.digitalRelics', '数字文物', '/applet-management/digital-relics', { icon: 'building' }),
      leaf('applet.exhibition', '展览内容', '/applet-management/exhibition', { icon: 'presentation' }),
      leaf('applet.exhibitionManagement', '展览管理', '/applet-management/exhibition-management', {
        icon: 'presentation',
      }),
      leaf('applet.showroom', '展厅管理', '/applet-management/showroom', { icon: 'building' }),
      group('applet.learning', '学术研究', 'books', [
        leaf('applet.learning.topics', '学术专题', '/applet-management/learning/topics'),
        leaf('applet.learning.meeting', '学术会议', '/applet-management/learning/meeting'),
        leaf('applet.learning.monograph', '学术专著', '/applet-management/learning/monograph'),
        leaf('applet.learning.paper', '学术论文', '/applet-management/learning/paper'),
      ]),
      leaf('applet.classroom', '博物馆课堂', '/applet-management/classroom', { icon: 'school' }),
      leaf('applet.radioVideo', '音视频管理', '/applet-management/radio-video', { icon: 'video' }),
      leaf('applet.videoType', '视频分类', '/applet-management/video-type', { icon: 'list' }),
      leaf('applet.radioList', '音频列表', '/applet-management/radio-list', { icon: 'list' }),
      group('applet.volunteer', '志愿者管理', 'heart-handshake', [
        leaf('applet.volunteer.carousel', '轮播图', '/applet-management/volunteer/carousel'),
        leaf(
          'applet.volunteer.serviceCarousel',
          '服务轮播图',
          '/applet-management/volunteer/service-carousel',
        ),
        leaf('applet.volunteer.intro', '志愿者简介', '/applet-management/volunteer/intro'),
        leaf('applet.volunteer.demeanor', '志愿者风采', '/applet-management/volunteer/demeanor'),
        leaf('applet.volunteer.recruit', '志愿者招募', '/applet-management/volunteer/recruit'),
      ]),
      leaf('applet.culturalCreation', '文创产品', '/applet-management/cultural-creation', {
        icon: 'shopping-bag',
      }),
      group('applet.childrenHall', '儿童体验馆', 'ticket', [
        leaf('applet.childrenHall.list', '预约列表', '/order/reservation/list'),
        leaf('applet.childrenHall.listPerson', '预约人员', '/applet-management/list-person'),
        leaf('applet.childrenHall.setting', '预约设置', '/applet-management/setting'),
      ]),
    ],
    hidden: [],
  },
  {
    key: 'website',
    title: '官网建设',
    icon: 'world',
    items: [
      leaf('website.qinggong', '清宫文化', '/website/qinggong', { icon: 'building' }),
      leaf('website.home', '首页管理', '/website/home', { icon: 'home' }),
      leaf('website.infoPublish', '资讯发布', '/website/info-publish', { icon: 'news' }),
      leaf('website.noticePublish', '公告发布', '/website/notice-publish', { icon: 'speakerphone' }),
      leaf('website.zdjs', '制度建设', '/website/zdjs', { icon: 'file-text' }),
      leaf('website.course', '发展历程', '/website/course', { icon: 'history' }),
      leaf('website.identify', '文物鉴定', '/website/identify', { icon: 'search' }),
      leaf('website.identifyRecord', '鉴定记录', '/website/identify-record', { icon: 'list' }),
      leaf('website.exhibition', '展览管理', '/website/exhibition', { icon: 'presentation' }),
      leaf('website.showroom', '展厅管理', '/website/showroom', { icon: 'building' }),
      leaf('website.digital', '数字展览', '/website/digital', { icon: 'device-mobile' }),
      leaf('website.learning', '学术研究', '/website/learning', { icon: 'books' }),
      leaf('website.classroom', '教育课堂', '/website/classroom', { icon: 'school' }),
      leaf('website.cultural', '文创产品', '/website/cultural', { icon: 'shopping-bag' }),
      leaf('website.tongji', '访问统计', '/website/tongji', { icon: 'chart-bar' }),
    ],
    hidden: [],
  },
  {
    key: 'enWebsite',
    title: '英文网站',
    icon: 'language',
    items: [
      leaf('enWebsite.home', '首页管理', '/en-website/home', { icon: 'home' }),
      leaf('enWebsite.infoPublish', '资讯发布', '/en-website/info-publish', { icon: 'news' }),
      leaf('enWebsite.exhibition', '展览管理', '/en-website/exhibition', { icon: 'presentation' }),
      leaf('enWebsite.threeD', '三维展览', '/en-website/3d', { icon: 'device-mobile' }),
      leaf('enWebsite.premium', '精品文物', '/en-website/premium', { icon: 'building' }),
      leaf('enWebsite.activity', '活动管理', '/en-website/activity', { icon: 'school' }),
      leaf('enWebsite.cultural', '文创产品', '/en-website/cultural', { icon: 'shopping-bag' }),
      leaf('enWebsite.showroom', '展厅管理', '/en-website/showroom', { icon: 'building' }),
      leaf('enWebsite.tongji', '访问统计', '/en-website/tongji', { icon: 'chart-bar' }),
    ],
    hidden: [],
  },
  {
    key: 'order',
    title: '预约管理',
    icon: 'calendar-event',
    items: [
      leaf('order.view', '预约总览', '/reservation/view', { icon: 'chart-bar' }),
      leaf('order.basicInfo', '基本信息', '/reservation/basic-info', { icon: 'file-text' }),
      leaf('order.panel', '预约看板', '/reservation/panel', { icon: 'presentation' }),
      leaf('order.list', '场次管理', '/reservation/list', { icon: 'list' }),
      leaf('order.timePeriod', '时段设置', '/reservation/time-period', { icon: 'clock' }),
      leaf('order.orderPerson', '个人预约', '/reservation/order-person', { icon: 'user' }),
      leaf('order.orderTeam', '团队预约', '/reservation/order-team', { icon: 'users' }),
      leaf('order.blackList', '黑名单', '/reservation/black-list', { icon: 'ban' }),
      // Ours (issue 21): the gate tablet's check-in, offline-first (README 入馆核验).
      leaf('order.gate', '入馆核验', '/reservation/gate', { icon: 'ticket' }),
    ],
    hidden: [
      hidden('/reservation/list/ticket', '门票记录', 'order.list'),
      hidden('/reservation/list/reservelist', '预约名单', 'order.list'),
      hidden('/reservation/order-team/tourist-info', '游客信息', 'order.orderTeam'),
    ],
  },
  {
    key: 'system',
    title: '系统管理',
    icon: 'settings',
    items: [
      leaf('system.person', '人员管理', '/staff/person', { icon: 'user' }),
      leaf('system.party', '组织架构', '/staff/party', { icon: 'sitemap' }),
      // Badge: self-registrations waiting (shared/api/registration.ts PendingStaffCount).
      leaf('system.personPending', '人员审核', '/staff/person/pending', {
        icon: 'clipboard-check',
        badge: 'pendingStaffCount',
      }),
      leaf('system.roleSetting', '角色设置', '/staff/role/setting', { icon: 'shield' }),
      leaf('system.data', '数据字典', '/staff/data', { icon: 'database' }),
      leaf('system.log', '系统日志', '/system/log', { icon: 'history' }),
    ],
    // Ours (issue 18): the OpenAPI browser, for those who set roles (the administrators).
    hidden: [hidden('/system/openapi', '接口文档', 'system.roleSetting')],
  },
];

export const REDIRECTS: readonly RedirectDef[] = [
  { from: '/', to: '/home/workbench' },
  { from: '/activity', to: '/activity/activity-manage' },
  { from: '/repair', to: '/repair/repair-manage' },
  { from: '/volunteer', to: '/volunteer/register-list' },
  { from: '/book', to: '/books/books-panel' },
  { from: '/digital-resources', to: '/resources/collection' },
  { from: '/applet-management', to: '/applet-management/guide' },
  { from: '/staff', to: '/staff/person' },
];

export const BARE_ROUTES: readonly BareRoute[] = [
  { path: '/login', title: '登录', perm: null, public: true },
  // Spec §2 "Login and register paths are reachable without a user id cookie"; the spec names
  // no register path, /register is ours (README "Self-registration and pending staff").
  { path: '/register', title: '注册', perm: null, public: true },
  { path: '/share/$shareBatchNum', title: '文件分享', perm: null, public: true },
  // Ours (issue 21): the visitor's public booking page; its calls need a visitor session (a
  // phone's one-time code), never a staff one (README "The visitor's side").
  { path: '/visit', title: '参观预约', perm: null, public: true },
  // Ours (issue 23): the visitor-eye preview of the mini-program home; it reads only the public
  // content API, so it needs no sign-in (README "Public read API and preview").
  { path: '/content-preview', title: '内容预览', perm: null, public: true },
  { path: '/mymap', title: '我的地图', perm: null },
  { path: '/project/sub', title: '项目详情', perm: 'oa.project.list' },
  // Notice and news details are opened from the workbench lists, so every workbench user may read them.
  { path: '/staff/info-publish/detail', title: '信息详情', perm: 'home.workbench' },
  { path: '/approve/notice-detail', title: '通知详情', perm: 'home.workbench' },
  { path: '/onlyoffice', title: '在线文档', perm: null },
  { path: '/personal/base', title: '个人中心', perm: null },
  // Ours (issue 20): the volunteer's phone view; its calls answer only the caller's own data.
  { path: VOLUNTEER_HOME, title: '志愿者', perm: null },
];

/**
 * The leaf keys of the default role `myselfRole`: what an ordinary employee needs — the
 * workbench, their own approvals, their own attendance (个人考勤, 个人汇总: the server only ever
 * answers them with the caller's own days), the project list, their own month of 业务数据, the personal
 * drive, and the reading room as a reader.
 */
export const DEFAULT_ROLE_MENU: readonly string[] = [
  'home.workbench',
  'oa.approve.start',
  'oa.approve.pending',
  'oa.approve.done',
  'oa.approve.mystart',
  'oa.approve.copy',
  'oa.attendance.person',
  'oa.attendance.personalSummary',
  'oa.project.list',
  'oa.dataManagement',
  'resources.netDisk',
  'resources.myShare',
  'resources.recycleBin',
  // The reading room lends to every member of staff (records-design §4.2: `add` by myselfRole):
  // the catalogue, the overview and their own loans; the librarian's pages come with a role.
  'book.panel',
  'book.book',
  'book.periodical',
  'book.publication',
  'book.borrowRecord',
  'book.receiveRecord',
];

function leavesOf(items: readonly MenuItem[]): MenuLeaf[] {
  return items.flatMap((item) => (isGroup(item) ? item.children : [item]));
}

/** Every menu leaf in catalogue order (rail order, then side-menu order). Leaves are what roles are granted. */
export function allLeaves(): MenuLeaf[] {
  return MODULES.flatMap((module) => leavesOf(module.items));
}

/** The keys of `allLeaves()`, in the same order; the full grant of the admin role. */
export function allLeafKeys(): string[] {
  return allLeaves().map((item) => item.key);
}

/**
 * The modules as a user with `granted` leaf keys sees them: only granted leaves, groups without
 * granted children dropped, modules without granted leaves dropped (§2 "Only modules that have
 * entries … appear"), hidden routes kept only when their perm is granted. Returns new objects;
 * the catalogue itself is never modified.
 */
export function filterModules(granted: ReadonlySet<string> | 'all'): ModuleDef[] {
  const has = (key: string): boolean => granted === 'all' || granted.has(key);
  const result: ModuleDef[] = [];
  for (const module of MODULES) {
    const items: MenuItem[] = [];
    for (const item of module.items) {
      if (isGroup(item)) {
        const children = item.children.filter((child) => has(child.key));
        if (children.length > 0) items.push({ ...item, children });
      } else if (has(item.key)) {
        items.push(item);
      }
    }
    if (items.length === 0) continue;
    result.push({ ...module, items, hidden: module.hidden.filter((route) => has(route.perm)) });
  }
  return result;
}

/** Strips query, hash and a trailing slash so `/a/b/?x=1` and `/a/b` compare equal. */
function normalisePath(pathname: string): string {
  const path = pathname.split(/[?#]/, 1)[0] ?? '';
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** True when `pattern` (which may hold `$param` segments) matches the concrete `path`. */
function pathMatches(pattern: string, path: string): boolean {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return false;
  return want.every((segment, index) => {
    const actual = got[index] ?? '';
    return segment.startsWith('$') ? actual.length > 0 : segment === actual;
  });
}

interface RouteEntry {
  path: string;
  search?: Record<string, string>;
  perm: string | null;
  module: ModuleKey | null;
}

function routeEntries(): RouteEntry[] {
  const entries: RouteEntry[] = [];
  for (const module of MODULES) {
    for (const item of leavesOf(module.items)) {
      entries.push({ path: item.path, search: item.search, perm: item.key, module: module.key });
    }
    for (const route of module.hidden) {
      entries.push({ path: route.path, search: route.search, perm: route.perm, module: module.key });
    }
  }
  for (const route of BARE_ROUTES) entries.push({ path: route.path, perm: route.perm, module: null });
  return entries;
}

/**
 * The permission a pathname needs: the granting leaf key (null = any signed-in user, or anyone
 * for public bare routes) and the module whose side menu it belongs to (null outside the main
 * layout). Query and hash are ignored for matching; `$param` segments match any segment; a
 * redirect source answers for its target. When several entries share a path (`/data/manage`
 * and `/data/manage?role=2`), the optional `search` picks the entry whose search parameters it
 * contains, otherwise the first one wins. Unknown paths give undefined, which callers treat as
 * "not found", never as "allowed".
 */
export function permForPath(
  pathname: string,
  search?: Readonly<Record<string, string>>,
): { perm: string | null; module: ModuleKey | null } | undefined {
  const path = normalisePath(pathname);
  const redirect = REDIRECTS.find((item) => item.from === path);
  const target = redirect ? redirect.to : path;
  const candidates = routeEntries().filter((entry) => pathMatches(entry.path, target));
  let best = candidates[0];
  if (search && candidates.length > 1) {
    let bestScore = -1;
    for (const entry of candidates) {
      const wanted = Object.entries(entry.search ?? {});
      if (!wanted.every(([name, value]) => search[name] === value)) continue;
      if (wanted.length > bestScore) {
        best = entry;
        bestScore = wanted.length;
      }
    }
  }
  return best ? { perm: best.perm, module: best.module } : undefined;
}

/**
 * Where a rail click lands: the path of the module's first leaf (for a filtered module, the
 * first leaf the user may open). Modules always hold a leaf; '/' is only a defensive fallback.
 */
export function moduleFirstPath(module: ModuleDef): string {
  return leavesOf(module.items)[0]?.path ?? '/';
}
