import { describe, it, expect } from 'vitest';
import {
  ADMIN_ROLE,
  BARE_ROUTES,
  DEFAULT_ROLE,
  DEFAULT_ROLE_MENU,
  MODULES,
  REDIRECTS,
  allLeafKeys,
  allLeaves,
  filterModules,
  moduleFirstPath,
  permForPath,
} from './catalogue';
import { ICON_NAMES, MODULE_KEYS, isGroup } from './types';

/** Every path of spec/office.md §2, transcribed independently of the catalogue (redirect sources excluded). */
const SPEC_PATHS: readonly string[] = [
  // outside the main layout
  '/mymap',
  '/login',
  '/project/sub',
  '/staff/info-publish/detail',
  '/approve/notice-detail',
  '/share/$shareBatchNum',
  '/onlyoffice',
  '/personal/base',
  // home
  '/home/workbench',
  '/home/address-book',
  '/home/data-download',
  '/home/notice-list',
  '/home/nbdt-list',
  '/home/watch-list',
  // OA
  '/approve/info-publish',
  '/oa/address-book-management',
  '/oa/watch-list-management',
  '/home/data-managemnt',
  // 业务数据's three grants (issue 18): one's own month, the department's, the office's summary.
  '/home/data-managemnt',
  '/home/data-managemnt',
  '/approve/start-approve',
  '/approve/process-pending',
  '/approve/process-done',
  '/approve/process-mystart',
  '/approve/process-copy',
  '/approve/dispose',
  '/gongwen/process-list',
  '/gongwen/process-pending',
  '/gongwen/process-mystart',
  '/approve/view',
  '/approve/view-person',
  '/approve/view-person-detail',
  '/project-list',
  '/approve/department-summary',
  '/approve/personal-summary',
  '/approve/project-progress',
  // exhibition
  '/exhibition',
  '/project/project-plan',
  // social education
  '/activity/activity-manage',
  '/activity/activity-type',
  '/activity/activity-manage/detail',
  '/activity/activity-datamanagement',
  '/activity/activity-statistic',
  // repair
  '/repair/repair-manage',
  '/repair/standards-query',
  '/repair/standards-management',
  '/repair/repair-cultural',
  '/repair/repair-fill',
  // volunteer
  '/volunteer/sign',
  '/volunteer/sign-detail',
  '/volunteer/recruit',
  '/volunteer/recruit/detail',
  '/volunteer/volunteer-info-publish',
  '/volunteer/sign-in',
  '/volunteer/application-review',
  ...[
    'register-list',
    'adult-volunteer',
    'exlain-index',
    'service-list',
    'stu-service',
    'appoint-setting',
    'hxhibition-explain',
    'stu-register-list',
    'school-group',
    'little-student',
    'stu-volunteer',
    'stu-service-setting',
    'stu-service-appoint',
  ].map((name) => `/volunteer/${name}`),
  // books
  ...[
    'books-panel',
    'book',
    'book-manage',
    'periodical',
    'periodical-manage',
    'publication',
    'publication-manage',
    'borrow-record',
    'receive-record',
    'borrow-management',
    'receive-management',
    'delay-management',
  ].map((name) => `/books/${name}`),
  // digital resources
  '/resources/collection',
  '/resources/collection-management',
  '/photo/search',
  '/resources/other-resource',
  '/resources/other-resource-management',
  '/resources/hd-picture-management',
  '/resources/net-disk',
  '/resources/my-share',
  '/resources/collection-depot',
  '/data/manage',
  '/data/manage',
  '/data/manage/extract',
  // mini-program
  ...[
    'carousel',
    'plane',
    'digital-relics',
    'guide',
    'guide-management',
    'exhibition',
    'exhibition-management',
    'showroom',
    'learning/topics',
    'learning/meeting',
    'learning/monograph',
    'learning/paper',
    'classroom',
    'radio-video',
    'video-type',
    'radio-list',
    'volunteer/carousel',
    'volunteer/service-carousel',
    'volunteer/intro',
    'volunteer/demeanor',
    'volunteer/recruit',
    'cultural-creation',
    'list-person',
    'setting',
  ].map((name) => `/applet-management/${name}`),
  '/order/reservation/list',
  // website
  ...[
    'qinggong',
    'home',
    'info-publish',
    'notice-publish',
    'zdjs',
    'course',
    'identify',
    'identify-record',
    'exhibition',
    'showroom',
    'digital',
    'learning',
    'classroom',
    'cultural',
    'tongji',
  ].map((name) => `/website/${name}`),
  // English website
  ...[
    'home',
    'info-publish',
    'exhibition',
    '3d',
    'premium',
    'activity',
    'cultural',
    'showroom',
    'tongji',
  ].map((name) => `/en-website/${name}`),
  // reservation
  ...[
    'view',
    'basic-info',
    'panel',
    'list',
    'time-period',
    'list/ticket',
    'list/reservelist',
    'order-person',
    'order-team',
    'order-team/tourist-info',
    'black-list',
  ].map((name) => `/reservation/${name}`),
  // system
  ...['person', 'party', 'person/pending', 'role/setting', 'data'].map((name) => `/staff/${name}`),
  '/system/log',
  // Not in the spec (ours, issue 18): the OpenAPI browser for administrators, and the register
  // path §2 names without giving it.
  '/system/openapi',
  '/register',
  // Ours (issue 20): the volunteer's phone view; its session pages (/m/session/$id) are routed
  // beside it in src/app/routes/phone.tsx.
  '/m',
  // Ours (issue 21): the visitor's public booking page (no staff sign-in).
  '/visit',
  // Ours (issue 23): the visitor-eye preview of the mini-program home (no staff sign-in).
  '/content-preview',
  // Ours (issue 21): the gate tablet's 入馆核验.
  '/reservation/gate',
];

function cataloguePaths(): string[] {
  return [
    ...allLeaves().map((item) => item.path),
    ...MODULES.flatMap((module) => module.hidden.map((route) => route.path)),
    ...BARE_ROUTES.map((route) => route.path),
  ];
}

describe('catalogue', () => {
  it('holds exactly the paths of spec §2 (and our /system/openapi, /register and /m), each once except /data/manage (two searches) and /home/data-managemnt (three)', () => {
    expect([...cataloguePaths()].sort()).toEqual([...SPEC_PATHS].sort());
    const counts = new Map<string, number>();
    for (const path of cataloguePaths()) counts.set(path, (counts.get(path) ?? 0) + 1);
    const repeated = [...counts].filter(([, count]) => count > 1).map(([path]) => path);
    expect(repeated.sort()).toEqual(['/data/manage', '/home/data-managemnt']);
    const dataManage = allLeaves().filter((item) => item.path === '/data/manage');
    expect(dataManage.map((item) => item.search)).toEqual([undefined, { role: '2' }]);
    const business = allLeaves().filter((item) => item.path === '/home/data-managemnt');
    expect(business.map((item) => [item.key, item.search])).toEqual([
      ['oa.dataManagement', { type: '1' }],
      ['oa.dataDept', { type: '2' }],
      ['oa.dataSummary', { type: '3' }],
    ]);
  });

  it('lists the 13 rail modules in spec order with their rail titles', () => {
    expect(MODULES.map((module) => module.key)).toEqual([...MODULE_KEYS]);
    expect(MODULES.map((module) => module.title)).toEqual([
      '工作台',
      '办公行政',
      '展览策划',
      '社会教育',
      '保护修复',
      '志愿服务',
      '图书借阅',
      '数字资源',
      '小程序管理',
      '官网建设',
      '英文网站',
      '预约管理',
      '系统管理',
    ]);
  });

  it('has unique keys across groups and leaves, each prefixed by its module key', () => {
    const keys = MODULES.flatMap((module) =>
      module.items.flatMap((item) => [item.key, ...(isGroup(item) ? item.children.map((c) => c.key) : [])]),
    );
    expect(new Set(keys).size).toBe(keys.length);
    for (const module of MODULES) {
      for (const item of module.items) {
        const own = isGroup(item) ? [item.key, ...item.children.map((c) => c.key)] : [item.key];
        for (const key of own) expect(key.startsWith(`${module.key}.`), key).toBe(true);
      }
    }
  });

  it('keeps the spec query parameters', () => {
    const search = (path: string) => allLeaves().find((item) => item.path === path)?.search;
    expect(search('/approve/process-pending')).toEqual({ state: 'pending' });
    expect(search('/approve/dispose')).toEqual({ pageType: 'setting' });
    expect(search('/gongwen/process-list')).toEqual({ state: 'list' });
    expect(search('/home/data-managemnt')).toEqual({ type: '1' });
    expect(search('/volunteer/stu-register-list')).toEqual({ type: '2' });
    expect(search('/resources/net-disk')).toEqual({ fileType: '0' });
    expect(search('/resources/my-share')).toEqual({ fileType: '8' });
    expect(search('/resources/collection-depot')).toEqual({ fileType: '6' });
    expect(search('/resources/other-resource')).toEqual({ fileType: '9', filePath: '/' });
    expect(search('/resources/other-resource-management')).toEqual({ isAdmin: '1' });
    expect(search('/resources/hd-picture-management')).toEqual({ isFmt: '2' });
  });

  it('points every redirect at a leaf, and the module entry at the same place', () => {
    const leafPaths = new Set(allLeaves().map((item) => item.path));
    for (const redirect of REDIRECTS) expect(leafPaths.has(redirect.to), redirect.to).toBe(true);
    const firstPaths = MODULES.map(moduleFirstPath);
    for (const redirect of REDIRECTS) expect(firstPaths, redirect.to).toContain(redirect.to);
  });

  it('gives hidden routes a perm that is a leaf of the same module', () => {
    for (const module of MODULES) {
      const keys = new Set(
        module.items.flatMap((item) => (isGroup(item) ? item.children : [item])).map((l) => l.key),
      );
      for (const route of module.hidden) expect(keys.has(route.perm), route.path).toBe(true);
    }
    const leafKeys = new Set(allLeafKeys());
    for (const route of BARE_ROUTES) {
      if (route.perm !== null) expect(leafKeys.has(route.perm), route.path).toBe(true);
    }
  });

  it('files each page where a person looks for it (issue 17 §5)', () => {
    const oa = MODULES.find((module) => module.key === 'oa')!;
    const titles = (key: string) => {
      const item = oa.items.find((i) => i.key === key);
      return item && isGroup(item) ? item.children.map((c) => c.title) : [];
    };
    // The summaries count leave, travel and overtime days: they are attendance pages.
    expect(titles('oa.attendance')).toEqual(['考勤统计', '个人考勤', '部门汇总', '个人汇总']);
    expect(titles('oa.project')).toEqual(['项目列表', '项目进度']);
    // Every leaf's key names the group it sits in, so a grant reads as what it opens.
    for (const module of MODULES)
      for (const item of module.items)
        if (isGroup(item))
          for (const c of item.children) expect(c.key.startsWith(`${item.key}.`), c.key).toBe(true);
  });

  it('tells 数据管理 and 数据审核 apart though they share /data/manage', () => {
    const [manage, review] = allLeaves().filter((item) => item.path === '/data/manage');
    expect(permForPath('/data/manage', manage!.search)?.perm).toBe(manage!.key);
    expect(permForPath('/data/manage', review!.search)?.perm).toBe(review!.key);
    expect(manage!.title).not.toBe(review!.title);
  });

  it('uses only known icon names', () => {
    const known = new Set<string>(ICON_NAMES);
    const used = MODULES.flatMap((module) => [
      module.icon,
      ...module.items.flatMap((item) => [
        item.icon,
        ...(isGroup(item) ? item.children.map((c) => c.icon) : []),
      ]),
    ]).filter((icon) => icon !== undefined);
    expect(used.length).toBeGreaterThan(MODULES.length);
    for (const icon of used) expect(known.has(icon), icon).toBe(true);
  });
});

describe('roles and filtering', () => {
  it('names the roles of §6', () => {
    expect(ADMIN_ROLE).toBe('viviHignAdmin');
    expect(DEFAULT_ROLE).toBe('myselfRole');
  });

  it('grants the default role only existing leaves', () => {
    const keys = new Set(allLeafKeys());
    for (const key of DEFAULT_ROLE_MENU) expect(keys.has(key), key).toBe(true);
  });

  it('shows the default role the workbench, OA, the reading room and digital resources only', () => {
    const modules = filterModules(new Set(DEFAULT_ROLE_MENU));
    expect(modules.map((module) => module.key)).toEqual(['home', 'oa', 'book', 'resources']);
    const oa = modules.find((module) => module.key === 'oa');
    // 业务数据: everyone reports their own month (issue 18).
    expect(oa?.items.map((item) => item.key)).toEqual([
      'oa.dataManagement',
      'oa.approve',
      'oa.attendance',
      'oa.project',
    ]);
    // 个人考勤's detail page comes with 个人考勤.
    expect(oa?.hidden.map((item) => item.path)).toEqual(['/approve/view-person-detail']);
    const resources = modules.find((module) => module.key === 'resources');
    expect(resources && moduleFirstPath(resources)).toBe('/resources/net-disk');
    expect(modules.find((module) => module.key === 'home')?.hidden).toHaveLength(5);
  });

  it('returns the whole catalogue for all and nothing for no grants', () => {
    expect(filterModules('all')).toEqual(MODULES);
    expect(filterModules(new Set())).toEqual([]);
    expect(filterModules(new Set(allLeafKeys()))).toEqual(MODULES);
  });
});

describe('permForPath', () => {
  it('finds leaves, hidden and bare routes', () => {
    expect(permForPath('/resources/net-disk?fileType=0')).toEqual({
      perm: 'resources.netDisk',
      module: 'resources',
    });
    expect(permForPath('/approve/view-person-detail')).toEqual({
      perm: 'oa.attendance.person',
      module: 'oa',
    });
    expect(permForPath('/project/sub')).toEqual({ perm: 'oa.project.list', module: null });
    expect(permForPath('/personal/base')).toEqual({ perm: null, module: null });
  });

  it('has a public register path beside the login (spec §2 access rule)', () => {
    expect(BARE_ROUTES.find((route) => route.path === '/register')).toMatchObject({
      perm: null,
      public: true,
    });
    expect(permForPath('/register')).toEqual({ perm: null, module: null });
  });

  it('matches the share page by parameter and marks it public', () => {
    expect(permForPath('/share/abc')).toEqual({ perm: null, module: null });
    const share = BARE_ROUTES.find((route) => route.path === '/share/$shareBatchNum');
    expect(share?.public).toBe(true);
    expect(permForPath('/share')).toBeUndefined();
    expect(permForPath('/share/abc/def')).toBeUndefined();
  });

  it('answers redirects for their target and tells /data/manage apart by search', () => {
    expect(permForPath('/')).toEqual({ perm: 'home.workbench', module: 'home' });
    expect(permForPath('/book')).toEqual({ perm: 'book.panel', module: 'book' });
    expect(permForPath('/data/manage')?.perm).toBe('resources.dataManage');
    expect(permForPath('/data/manage', { role: '2' })?.perm).toBe('resources.dataReview');
    expect(permForPath('/data/manage', { role: '1' })?.perm).toBe('resources.dataManage');
    expect(permForPath('/home/data-managemnt')?.perm).toBe('oa.dataManagement');
    expect(permForPath('/home/data-managemnt', { type: '2' })?.perm).toBe('oa.dataDept');
    expect(permForPath('/home/data-managemnt', { type: '3' })?.perm).toBe('oa.dataSummary');
  });

  it('returns undefined for unknown paths', () => {
    expect(permForPath('/nope')).toBeUndefined();
    expect(permForPath('/home')).toBeUndefined();
  });
});
