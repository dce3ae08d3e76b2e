/**
 * The shape of the route and menu catalogue (spec/office.md §2).
 *
 * One catalogue drives three consumers: the server (which menu entries a role may see, and the
 * menu data call), the app router (every URL of §2 exists) and the side menu. Keeping it in
 * `shared` means the permission check on the server and the 无权限 page in the app read the
 * same table, so they cannot drift.
 */

/** The 13 rail modules, keyed by the spec's side-menu data groups (§3 "Shared state"). */
export const MODULE_KEYS = [
  'home',
  'oa',
  'project',
  'activity',
  'repair',
  'volunteer',
  'book',
  'resources',
  'applet',
  'website',
  'enWebsite',
  'order',
  'system',
] as const;
export type ModuleKey = (typeof MODULE_KEYS)[number];

/**
 * Icon names the app knows how to draw. Shared code cannot import React, so icons travel as
 * names; `src/app/components/icons.ts` maps each to a Tabler icon and must cover every name.
 */
export const ICON_NAMES = [
  'home',
  'briefcase',
  'presentation',
  'school',
  'tool',
  'heart-handshake',
  'books',
  'database',
  'device-mobile',
  'world',
  'language',
  'calendar-event',
  'settings',
  'file-text',
  'checkbox',
  'users',
  'user',
  'folder',
  'share',
  'trash',
  'photo',
  'chart-bar',
  'clock',
  'list',
  'address-book',
  'news',
  'speakerphone',
  'id-badge',
  'ticket',
  'ban',
  'shield',
  'history',
  'sitemap',
  'download',
  'search',
  'building',
  'video',
  'shopping-bag',
  'map',
  'clipboard-check',
] as const;
export type IconName = (typeof ICON_NAMES)[number];

/** Sidebar count types a menu entry may show as a badge (§3 "Sidebar counts"). */
export type CountKey =
  | 'todoCount'
  | 'copytoCount'
  | 'total'
  | 'noticeCount'
  | 'cooperationCount'
  | 'approvalCount'
  | 'all'
  | 'uploadCount'
  | 'applyCount'
  /** Ours (issue 18): self-registrations waiting for 人员审核. */
  | 'pendingStaffCount'
  /** Ours (issue 22): the librarian's book queues (借阅、领用待审批, 续借待审批). */
  | 'bookBorrowCount'
  | 'bookReceiveCount'
  | 'bookDelayCount';

/**
 * A permission-bearing menu entry. `key` is what roles are granted (stored in role_menu);
 * it is stable and never shown. An entry with `children` is a one-level submenu and has no
 * path of its own; only leaves are granted.
 */
export interface MenuLeaf {
  key: string;
  title: string;
  path: string;
  /** Query parameters the spec gives the entry, e.g. `{ state: 'pending' }`. */
  search?: Record<string, string>;
  icon?: IconName;
  badge?: CountKey;
}
export interface MenuGroup {
  key: string;
  title: string;
  icon?: IconName;
  children: MenuLeaf[];
}
export type MenuItem = MenuLeaf | MenuGroup;

/** A route that is not in the side menu (details, hidden pages). It is permitted with `perm`. */
export interface HiddenRoute {
  path: string;
  title: string;
  /** The menu leaf key whose grant also grants this page. */
  perm: string;
  search?: Record<string, string>;
}

export interface ModuleDef {
  key: ModuleKey;
  /** The rail label, e.g. 办公行政. */
  title: string;
  icon: IconName;
  items: MenuItem[];
  hidden: HiddenRoute[];
}

/** A redirect of §2, e.g. `/activity` → `/activity/activity-manage`. */
export interface RedirectDef {
  from: string;
  to: string;
}

/** A route outside the main layout (§2 "Routes outside the main layout"). */
export interface BareRoute {
  path: string;
  title: string;
  /** null: any signed-in user (or, for share, anyone); otherwise the granting leaf key. */
  perm: string | null;
  /** true for routes reachable without a session (login, the share page). */
  public?: boolean;
}

export function isGroup(item: MenuItem): item is MenuGroup {
  return 'children' in item;
}
