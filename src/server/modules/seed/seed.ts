import type { Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/index';
import { DEFAULT_ROLE_MENU, MODULES, ADMIN_ROLE, allLeafKeys } from '../../../shared/menu/catalogue';
import { RESERVED_LEAVES } from '../../../shared/menu/reserved';
import { isGroup, type ModuleKey } from '../../../shared/menu/types';
import { hashPassword } from '../auth/password';
import type { OrgService } from '../org/org.service';
import * as orgRepo from '../org/org.repo';
import * as announceRepo from '../announce/announce.repo';
import * as workflowRepo from '../workflow/workflow.repo';
import { gongwenTemplates, museumTemplates } from '../../../shared/workflow/seed-flows';
import { sanitizeRichHtml } from '../attach/rich-html';
import { DATA_SUMMARY } from '../../../shared/records/office/business-data';
import { seedDemoProject } from '../project/project.seed';
import { seedDemoCollection } from '../collection/collection.seed';

/** The leaf keys of whole modules, for demo roles. */
/**
 * The leaves of whole modules, plus what 普通员工 has: a keeper or a conservator is still a member
 * of staff who asks for leave, decides on requests routed to them (文物出入库 goes to 文保部) and
 * reads copies, so a specialised role must not lose the everyday approval pages.
 */
function keysOf(modules: ModuleKey[]): string[] {
  const own = MODULES.filter((m) => modules.includes(m.key)).flatMap((m) =>
    m.items.flatMap((i) => (isGroup(i) ? i.children.map((c) => c.key) : [i.key])),
  );
  // 系统日志 is the 审计员's alone (shared/menu/reserved.ts), so 信息管理员's 系统管理 lacks it.
  return [...new Set([...own, ...DEFAULT_ROLE_MENU])].filter((k) => !RESERVED_LEAVES[k]);
}

/** A password that satisfies the rule (letters and digits), for a first start without ADMIN_PASSWORD. */
function generatedPassword(): string {
  return `${randomBytes(9).toString('base64url').replace(/[-_]/g, 'x')}7a`;
}

/**
 * First-start accounts: the built-in roles and the `admin` account. The admin password comes
 * from ADMIN_PASSWORD or is generated and printed once; an existing admin is never changed, so
 * restarting with another ADMIN_PASSWORD does not silently reset it.
 * Returns the generated password, if one was made, for main.ts to print.
 */
export async function ensureAdmin(db: Db, org: OrgService, adminPassword: string | undefined) {
  await org.ensureBuiltinRoles(DEFAULT_ROLE_MENU);
  if (await orgRepo.findUserByAccount(db, 'admin')) return { created: false as const };
  const password = adminPassword ?? generatedPassword();
  const adminRole = await orgRepo.findRoleByCode(db, ADMIN_ROLE);
  const id = await orgRepo.insertUser(db, {
    account: 'admin',
    user_name: '系统管理员',
    phone: null,
    password_hash: await hashPassword(password),
    superior_id: null,
  });
  if (adminRole) await orgRepo.setUserRoles(db, id, [adminRole.id]);
  return { created: true as const, generated: adminPassword ? undefined : password };
}

interface DemoPerson {
  account: string;
  name: string;
  dept: string;
  roles: string[];
  superior: string | null;
}

/** The demo museum: seven departments, eleven people in a superior chain topped by the director. */
export const DEMO_PEOPLE: DemoPerson[] = [
  { account: 'director', name: '张国华', dept: '馆长办公室', roles: ['leader'], superior: null },
  { account: 'staff01', name: '李明', dept: '办公室', roles: ['deptHead'], superior: 'director' },
  { account: 'staff02', name: '王芳', dept: '办公室', roles: [], superior: 'staff01' },
  { account: 'staff03', name: '赵磊', dept: '典藏部', roles: ['deptHead', 'keeper'], superior: 'director' },
  { account: 'staff04', name: '陈静', dept: '典藏部', roles: ['keeper'], superior: 'staff03' },
  { account: 'staff05', name: '刘洋', dept: '陈列部', roles: ['deptHead', 'curator'], superior: 'director' },
  { account: 'staff06', name: '孙悦', dept: '陈列部', roles: ['curator'], superior: 'staff05' },
  { account: 'staff07', name: '周婷', dept: '社教部', roles: ['deptHead', 'educator'], superior: 'director' },
  { account: 'staff08', name: '吴昊', dept: '文保部', roles: ['conservator'], superior: 'director' },
  { account: 'staff09', name: '郑凯', dept: '信息中心', roles: ['itAdmin'], superior: 'director' },
  { account: 'staff10', name: '何雪', dept: '社教部', roles: ['educator'], superior: 'staff07' },
];

const DEMO_ROLES: { code: string; name: string; remark: string; keys: () => string[] }[] = [
  {
    code: 'leader',
    name: '馆领导',
    remark: '可见除系统管理外的全部模块',
    keys: () => allLeafKeys().filter((k) => !k.startsWith('system.')),
  },
  {
    code: 'deptHead',
    name: '部门主任',
    remark: '办公行政与展览策划',
    // 业务数据汇总 reads every department's figures and closes months: the office's (馆领导
    // have it here), not every head's, or a head would read the other departments' rows.
    keys: () => keysOf(['home', 'oa', 'project']).filter((k) => k !== DATA_SUMMARY),
  },
  // The reading room (资料室) is 典藏部's in the demo museum: its keepers are the librarians.
  {
    code: 'keeper',
    name: '典藏管理员',
    remark: '数字资源与资料室（图书借阅）',
    keys: () => keysOf(['home', 'resources', 'book']),
  },
  {
    code: 'curator',
    name: '策展人',
    remark: '展览策划与数字资源',
    keys: () => keysOf(['home', 'project', 'resources']),
  },
  {
    code: 'educator',
    name: '社教专员',
    remark: '社会教育、志愿服务、预约',
    keys: () => keysOf(['home', 'activity', 'volunteer', 'order']),
  },
  {
    code: 'conservator',
    name: '文保专员',
    remark: '保护修复',
    keys: () => keysOf(['home', 'repair', 'resources']),
  },
  {
    code: 'itAdmin',
    name: '信息管理员',
    remark: '系统、网站与小程序',
    keys: () => keysOf(['home', 'system', 'website', 'enWebsite', 'applet']),
  },
];

/**
 * Announcements of the demo museum, published to everyone by 李明 (办公室). They are seeded
 * without notices: the demo accounts start with an empty notice centre.
 */
export const DEMO_ANNOUNCEMENTS: { title: string; content: string; daysAgo: number }[] = [
  {
    title: '关于本周一闭馆维护的通知',
    daysAgo: 3,
    content:
      '<h2>闭馆安排</h2><p>因展厅照明与安防系统年度维护，本馆于<strong>本周一全天闭馆</strong>，周二 9:00 起恢复开放。</p>' +
      '<ul><li>典藏部：维护期间库房暂停出入库作业；</li><li>陈列部：请于周日闭馆后完成展柜断电检查；</li>' +
      '<li>信息中心：周一 8:00–18:00 内网短暂中断，请提前保存工作。</li></ul>' +
      '<p>如有疑问请联系馆长办公室。</p>',
  },
  {
    title: '2026 年度消防安全培训安排',
    daysAgo: 10,
    content:
      '<p>为提升全馆人员消防安全意识，定于本月 20 日 14:30 在一楼报告厅开展消防安全培训与灭火器实操演练。</p>' +
      '<h3>参加人员</h3><p>全体在岗职工，志愿者代表自愿参加。</p><blockquote>请各部门主任于 18 日前报送参训名单。</blockquote>',
  },
];

export const DEMO_DEPARTMENTS = ['馆长办公室', '办公室', '典藏部', '陈列部', '社教部', '文保部', '信息中心'];

/** Seeds the demo museum once (SEED_DEMO=1); a second start finds `director` and does nothing. */
export async function seedDemo(db: Db, password: string): Promise<boolean> {
  if (await orgRepo.findUserByAccount(db, 'director')) {
    // A demo museum seeded before the 公文 templates existed gets them now (issue 17 §4).
    await seedMissingGongwen(db);
    // …and one seeded before the museum map its floors and halls (issue 18).
    if (!(await db.selectFrom('museum_floor').select('id').limit(1).executeTakeFirst()))
      await db.transaction().execute((trx) => seedDemoMap(trx, Date.now()));
    // …and one seeded before the collection its dozen objects (issue 24).
    if (
      !(await (db as unknown as Kysely<any>)
        .selectFrom('bs_digitalassets_info')
        .select('id')
        .limit(1)
        .executeTakeFirst())
    )
      await db.transaction().execute((trx) => seedDemoCollection(trx, Date.now()));
    return false;
  }
  const hash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    const root = await orgRepo.insertDept(trx, '博物馆', null);
    const deptIds = new Map<string, number>();
    for (const name of DEMO_DEPARTMENTS) deptIds.set(name, await orgRepo.insertDept(trx, name, root));
    const roleIds = new Map<string, number>();
    for (const r of DEMO_ROLES) {
      const id =
        (await orgRepo.findRoleByCode(trx, r.code))?.id ??
        (await orgRepo.insertRole(trx, { code: r.code, name: r.name, remark: r.remark }));
      await orgRepo.setRoleMenus(trx, id, r.keys());
      roleIds.set(r.code, id);
    }
    const userIds = new Map<string, number>();
    for (const [i, p] of DEMO_PEOPLE.entries()) {
      const id = await orgRepo.insertUser(trx, {
        account: p.account,
        user_name: p.name,
        phone: `1380000${String(i).padStart(4, '0')}`,
        password_hash: hash,
        superior_id: p.superior ? (userIds.get(p.superior) ?? null) : null,
      });
      userIds.set(p.account, id);
      await orgRepo.setUserDepts(trx, id, [deptIds.get(p.dept)!]);
      await orgRepo.setUserRoles(
        trx,
        id,
        p.roles.map((c) => roleIds.get(c)!),
      );
    }
    const author = userIds.get('staff01')!;
    for (const a of DEMO_ANNOUNCEMENTS) {
      const at = Date.now() - a.daysAgo * 24 * 3600_000;
      const id = await announceRepo.insertAnnouncement(
        trx,
        { title: a.title, content: sanitizeRichHtml(a.content), audience: 'all', created_by: author },
        at,
      );
      await announceRepo.setStatus(trx, id, 0, 1, at, at);
    }

    // The museum's approval templates, published as version 1 (shared/workflow/seed-flows.ts).
    const roleName = (code: string) => DEMO_ROLES.find((r) => r.code === code)!.name;
    const deptRole = (dept: string, code: string) => ({
      deptid: deptIds.get(dept)!,
      deptName: dept,
      roleid: roleIds.get(code)!,
      roleName: roleName(code),
    });
    const person = (account: string) => ({
      targetId: userIds.get(account)!,
      type: 1 as const,
      name: DEMO_PEOPLE.find((p) => p.account === account)!.name,
    });
    const templates = museumTemplates({
      director: deptRole('馆长办公室', 'leader'),
      office: deptRole('办公室', 'deptHead'),
      sealKeeper: person('staff01'),
      conservators: deptRole('文保部', 'conservator'),
      collections: person('staff03'),
    });
    const now = Date.now();
    for (const t of templates) await insertPublished(trx, t, author, now);
    await seedDemoProject(trx, (account) => userIds.get(account)!, now);
    await seedDemoMap(trx, now);
    await seedDemoLinkHosts(trx, now);
    await seedDemoCollection(trx, now);
  });
  return true;
}

/**
 * The demo museum's allow-list of content links (内容外链白名单, README "Website and mini-program
 * content"): the panorama host its digital exhibitions use. Ordinary items (not system ones),
 * so the administrator may delete them.
 */
export const DEMO_LINK_HOSTS = [
  ['720yun.com', '720云全景'],
  ['demo-museum.cn', '本馆官网（演示）'],
] as const;

async function seedDemoLinkHosts(db: Db, now: number) {
  for (const [i, [value, label]] of DEMO_LINK_HOSTS.entries())
    await db
      .insertInto('dict_item')
      .values({
        dict_key: 'content_link_host',
        label,
        value,
        parent_value: '',
        sort: (i + 1) * 10,
        status: 1,
        is_system: 0,
        create_time: now,
        update_time: now,
        create_by: null,
        update_by: null,
      })
      .execute();
}

/** The demo museum's floors and halls (馆区地图, /mymap); plans are drawn in by its 信息管理员. */
export const DEMO_FLOORS = [
  {
    name: '一层',
    code: '1F',
    plan: '<p>主入口在南侧，北侧为货运通道（不对观众开放）；电梯在序厅东侧，卫生间在西侧走廊尽头。</p>',
    halls: [
      ['序厅', 'A101', 1, 50, 78, '入馆第一站：馆史与本馆藏品概览。'],
      ['古代青铜器展厅', 'A102', 1, 22, 40, '商周至汉代青铜礼器、兵器与生活用器。'],
      ['临时展厅', 'A103', 3, 78, 40, '“江南织造”特展布展中，预计下月开幕。'],
    ],
  },
  {
    name: '二层',
    code: '2F',
    plan: '<p>由序厅东侧电梯或中央楼梯上楼；书画展厅恒温恒湿，请勿携带饮品入内。</p>',
    halls: [
      ['书画展厅', 'B201', 1, 26, 45, '明清书画精品，每季度轮换展出。'],
      ['陶瓷展厅', 'B202', 2, 72, 45, '展柜改造中，暂停开放。'],
    ],
  },
  {
    name: '馆区',
    code: 'SITE',
    plan: '<p>馆区总平面：南门为观众出入口，东门为员工与货运出入口。</p>',
    halls: [['碑廊', 'C01', 1, 30, 62, '历代碑刻与拓片，室外展陈。']],
  },
] as const;

async function seedDemoMap(db: Db, now: number) {
  const base = { create_time: now, create_by: null, update_time: now, update_by: null };
  for (const [i, floor] of DEMO_FLOORS.entries()) {
    await db
      .insertInto('museum_floor')
      .values({
        ...base,
        name: floor.name,
        code: floor.code,
        plan: sanitizeRichHtml(floor.plan),
        sort: (i + 1) * 10,
      })
      .execute();
    for (const [j, [name, hallNo, openState, x, y, intro]] of floor.halls.entries())
      await db
        .insertInto('museum_hall')
        .values({
          ...base,
          name,
          floor: floor.code,
          hall_no: hallNo,
          open_state: openState,
          map_x: x,
          map_y: y,
          intro,
          sort: (j + 1) * 10,
        })
        .execute();
  }
}

type SeedTemplate = ReturnType<typeof museumTemplates>[number];

/** A seeded template, published as version 1 so it can be started at once. */
async function insertPublished(db: Db, t: SeedTemplate, author: number, now: number) {
  const draft = JSON.stringify(t.definition);
  const id = await workflowRepo.insertTemplate(
    db,
    { name: t.name, icon: t.icon, group_name: t.group, category: t.category, draft, created_by: author },
    now,
  );
  await workflowRepo.insertVersion(
    db,
    { template_id: id, version: 1, definition: draft, published_by: author },
    now,
  );
  await workflowRepo.updateTemplate(db, id, { current_version: 1 }, now);
}

/**
 * The 公文 templates (发文, 收文, 签报) for a demo museum seeded before they existed: each one
 * whose name no template has yet is added, published, in one transaction; so a restart adds
 * nothing twice, and a template the museum already made under that name is left as it is.
 * Their flows need the office head and the leadership (办公室·部门主任, 馆长办公室·馆领导); if
 * the museum has renamed or removed those, nothing is added (there would be nobody to route
 * to) and 审批设置 is where such a museum makes its own.
 */
export async function seedMissingGongwen(db: Db): Promise<number> {
  const depts = await orgRepo.allDepts(db);
  const deptId = (name: string) => depts.find((d) => d.name === name)?.id;
  const leader = await orgRepo.findRoleByCode(db, 'leader');
  const head = await orgRepo.findRoleByCode(db, 'deptHead');
  const directorDept = deptId('馆长办公室');
  const officeDept = deptId('办公室');
  const author =
    (await orgRepo.findUserByAccount(db, 'staff01')) ?? (await orgRepo.findUserByAccount(db, 'admin'));
  if (!leader || !head || !directorDept || !officeDept || !author) return 0;
  const wanted = gongwenTemplates({
    director: { deptid: directorDept, deptName: '馆长办公室', roleid: leader.id, roleName: leader.name },
    office: { deptid: officeDept, deptName: '办公室', roleid: head.id, roleName: head.name },
  });
  return db.transaction().execute(async (trx) => {
    let added = 0;
    const now = Date.now();
    for (const t of wanted) {
      if (await workflowRepo.templateByName(trx, t.name)) continue;
      await insertPublished(trx, t, author.id, now);
      added++;
    }
    return added;
  });
}
