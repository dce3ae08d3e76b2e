import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ROLE_MENU, MODULES, allLeafKeys, filterModules } from '../../src/shared/menu/catalogue';
import { RESERVED_LEAVES } from '../../src/shared/menu/reserved';
import { MODULE_KEYS, isGroup, type ModuleKey } from '../../src/shared/menu/types';
import { startServer, type TestServer } from './harness';
import { M } from './util';

/*
 * Role functions and menu data for the admin and every demo person (seed.ts DEMO_PEOPLE and
 * DEMO_ROLES). Demo roles grant whole modules plus myselfRole's everyday entries (approvals,
 * own attendance, the project list, the personal drive), so a person's menu is those modules and
 * oa/resources in catalogue order; a person without roles gets myselfRole's partial grant.
 */

let s: TestServer;
const tokens = new Map<string, string>();

beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

async function tokenOf(account: string): Promise<string> {
  let t = tokens.get(account);
  if (!t) {
    t = await s.login(account);
    tokens.set(account, t);
  }
  return t;
}

function leafKeysOf(modules: readonly ModuleKey[], leader = false): string[] {
  const whole = MODULES.filter((m) => modules.includes(m.key)).flatMap((m) =>
    m.items.flatMap((i) => (isGroup(i) ? i.children.map((c) => c.key) : [i.key])),
  );
  // 系统日志 is reserved to 审计员 (shared/menu/reserved.ts): no demo role holds it; 业务数据汇总
  // (every department's figures, month closing) is the leaders', not every department head's.
  return [...new Set([...whole, ...DEFAULT_ROLE_MENU])].filter(
    (k) => !RESERVED_LEAVES[k] && (leader || k !== 'oa.dataSummary'),
  );
}

/** What `/login/menu` must answer for a set of granted leaf keys. */
function expectedMenu(granted: ReadonlySet<string> | 'all') {
  return filterModules(granted).map((m) => ({ key: m.key, title: m.title, icon: m.icon, items: m.items }));
}

const NOT_SYSTEM = MODULE_KEYS.filter((k) => k !== 'system');

/** `whole`: the modules a person's roles grant whole; `modules`: the menu they see (plus the default role's oa, book and resources). */
const PEOPLE: {
  account: string;
  roles: string[];
  whole: readonly ModuleKey[];
  modules: readonly ModuleKey[];
}[] = [
  { account: 'director', roles: ['leader'], whole: NOT_SYSTEM, modules: NOT_SYSTEM },
  {
    account: 'staff01',
    roles: ['deptHead'],
    whole: ['home', 'oa', 'project'],
    modules: ['home', 'oa', 'project', 'book', 'resources'],
  },
  {
    account: 'staff03',
    roles: ['deptHead', 'keeper'],
    whole: ['home', 'oa', 'project', 'book', 'resources'],
    modules: ['home', 'oa', 'project', 'book', 'resources'],
  },
  {
    account: 'staff04',
    roles: ['keeper'],
    whole: ['home', 'book', 'resources'],
    modules: ['home', 'oa', 'book', 'resources'],
  },
  {
    account: 'staff05',
    roles: ['deptHead', 'curator'],
    whole: ['home', 'oa', 'project', 'resources'],
    modules: ['home', 'oa', 'project', 'book', 'resources'],
  },
  {
    account: 'staff06',
    roles: ['curator'],
    whole: ['home', 'project', 'resources'],
    modules: ['home', 'oa', 'project', 'book', 'resources'],
  },
  {
    account: 'staff07',
    roles: ['deptHead', 'educator'],
    whole: ['home', 'oa', 'project', 'activity', 'volunteer', 'order'],
    modules: ['home', 'oa', 'project', 'activity', 'volunteer', 'book', 'resources', 'order'],
  },
  {
    account: 'staff08',
    roles: ['conservator'],
    whole: ['home', 'repair', 'resources'],
    modules: ['home', 'oa', 'repair', 'book', 'resources'],
  },
  {
    account: 'staff09',
    roles: ['itAdmin'],
    whole: ['home', 'applet', 'website', 'enWebsite', 'system'],
    modules: ['home', 'oa', 'book', 'resources', 'applet', 'website', 'enWebsite', 'system'],
  },
  {
    account: 'staff10',
    roles: ['educator'],
    whole: ['home', 'activity', 'volunteer', 'order'],
    modules: ['home', 'oa', 'activity', 'volunteer', 'book', 'resources', 'order'],
  },
];

describe('the admin', () => {
  it('has viviHignAdmin and starts on the workbench', async () => {
    const res = await s.call('POST', `${M}/login/getRoleFunction`, { token: await tokenOf('admin') });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      code: 0,
      message: '成功',
      result: { roles: ['viviHignAdmin'], firstUrl: '/home/workbench' },
    });
  });

  it('sees all 13 modules with every entry', async () => {
    const res = await s.call('GET', `${M}/login/menu`, { token: await tokenOf('admin') });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const { modules, grantedKeys } = res.body.result;
    expect(modules.map((m: { key: string }) => m.key)).toEqual([...MODULE_KEYS]);
    expect(modules).toHaveLength(13);
    expect(modules).toEqual(expectedMenu('all'));
    expect(grantedKeys).toEqual(allLeafKeys());
  });
});

describe('a person without roles (staff02)', () => {
  it('gets myselfRole and the workbench', async () => {
    const res = await s.call('POST', `${M}/login/getRoleFunction`, { token: await tokenOf('staff02') });
    expect(res.body.result).toEqual({ roles: ['myselfRole'], firstUrl: '/home/workbench' });
  });

  it("sees only myselfRole's entries, with groups cut down to their granted children", async () => {
    const res = await s.call('GET', `${M}/login/menu`, { token: await tokenOf('staff02') });
    const { modules, grantedKeys } = res.body.result;
    expect(modules.map((m: { key: string }) => m.key)).toEqual(['home', 'oa', 'book', 'resources']);
    expect([...grantedKeys].sort()).toEqual([...DEFAULT_ROLE_MENU].sort());
    expect(modules).toEqual(expectedMenu(new Set(DEFAULT_ROLE_MENU)));

    const oa = modules.find((m: { key: string }) => m.key === 'oa');
    expect(oa.items.map((i: { key: string }) => i.key)).toEqual([
      'oa.dataManagement',
      'oa.approve',
      'oa.attendance',
      'oa.project',
    ]);
    expect(oa.items[1].children.map((c: { key: string }) => c.key)).toEqual([
      'oa.approve.start',
      'oa.approve.pending',
      'oa.approve.done',
      'oa.approve.mystart',
      'oa.approve.copy',
    ]);
    expect(oa.items[2].children.map((c: { key: string }) => c.key)).toEqual([
      'oa.attendance.person',
      'oa.attendance.personalSummary',
    ]);
    expect(oa.items[3].children.map((c: { key: string }) => c.key)).toEqual(['oa.project.list']);
    const resources = modules.find((m: { key: string }) => m.key === 'resources');
    expect(resources.items.map((i: { key: string }) => i.key)).toEqual([
      'resources.netDisk',
      'resources.myShare',
      'resources.recycleBin',
    ]);
  });
});

describe('demo roles', () => {
  it.each(PEOPLE)('$account ($roles) gets its roles and the workbench first', async (p) => {
    const res = await s.call('POST', `${M}/login/getRoleFunction`, { token: await tokenOf(p.account) });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ roles: p.roles, firstUrl: '/home/workbench' });
  });

  it.each(PEOPLE)('$account sees exactly its modules in catalogue order', async (p) => {
    const res = await s.call('GET', `${M}/login/menu`, { token: await tokenOf(p.account) });
    expect(res.status).toBe(200);
    const { modules, grantedKeys } = res.body.result;
    expect(modules.map((m: { key: string }) => m.key)).toEqual(p.modules);
    const keys = leafKeysOf(p.whole, p.roles.includes('leader'));
    expect([...grantedKeys].sort()).toEqual([...keys].sort());
    expect(modules).toEqual(expectedMenu(new Set(keys)));
  });

  it('never shows the system module to the leader', async () => {
    const res = await s.call('GET', `${M}/login/menu`, { token: await tokenOf('director') });
    expect(res.body.result.grantedKeys.filter((k: string) => k.startsWith('system.'))).toEqual([]);
    expect(res.body.result.modules).toHaveLength(12);
  });

  it('reads the menu with the cookie alone (a GET)', async () => {
    const res = await s.call('GET', `${M}/login/menu`, {
      headers: { cookie: `token=${await tokenOf('staff09')}` },
    });
    expect(res.status).toBe(200);
    expect(res.body.result.modules.map((m: { key: string }) => m.key)).toEqual([
      'home',
      'oa',
      'book',
      'resources',
      'applet',
      'website',
      'enWebsite',
      'system',
    ]);
  });
});
