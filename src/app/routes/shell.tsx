import { useRouterState } from '@tanstack/react-router';
import { BARE_ROUTES, MODULES, permForPath } from '../../shared/menu/catalogue';
import { isGroup } from '../../shared/menu/types';
import { AppLayout } from '../features/shell/app-layout';
import { BuildingPage, ForbiddenPage } from '../features/shell/status-pages';
import { useSession } from '../lib/session';
import { Loaded } from './lazy';
import { PageProviders } from './page-providers';
import { BUILT_PAGES, panelFooter } from './pages';

/**
 * The signed-in shell: the staff layout and the page guard with the map of built pages. It is
 * a chunk of its own that the router loads once someone is signed in (issue 25), so the sign-in
 * page carries none of it; the service worker precaches it with the rest after sign-in.
 */

/**
 * Titles for the 建设中 page, by the entry a location resolves to (permForPath): /data/manage is
 * 数据管理 and /data/manage?role=2 is 数据审核, one route with two entries.
 */
const TITLES = new Map<string, { page: string; module: string }>();
const titleKey = (path: string, perm: string | null) => `${perm ?? ''} ${path}`;
for (const m of MODULES) {
  for (const item of m.items) {
    for (const leaf of isGroup(item) ? item.children : [item]) {
      TITLES.set(titleKey(leaf.path, leaf.key), { page: leaf.title, module: m.title });
    }
  }
  for (const h of m.hidden) TITLES.set(titleKey(h.path, h.perm), { page: h.title, module: m.title });
}
for (const b of BARE_ROUTES) TITLES.set(titleKey(b.path, b.perm), { page: b.title, module: b.title });

/**
 * Shows the page for a catalogue path, or 无权限 when the user's menu does not grant it. The
 * server enforces the same grants on every call; this only spares the person a broken page.
 */
export function GuardedPage({ path }: { path: string }) {
  const state = useSession();
  const search = useRouterState({ select: (s) => s.location.search as Record<string, string> });
  const perm = permForPath(path, search);
  if (perm?.perm && state && !state.menu.grantedKeys.includes(perm.perm)) return <ForbiddenPage />;
  const Page = BUILT_PAGES[path];
  if (Page)
    return (
      <PageProviders>
        <Loaded page={Page} />
      </PageProviders>
    );
  const title = TITLES.get(titleKey(path, perm?.perm ?? null));
  return <BuildingPage moduleTitle={title?.module ?? ''} pageTitle={title?.page ?? ''} />;
}

/**
 * Starts loading the code of the page at a catalogue path (router.tsx, at a signed-in launch),
 * so that it is ready when the shell first draws it. Settles once loaded or failed, never
 * rejecting: a page that could not load says so with 重试 when it is drawn.
 */
export function preloadPage(path: string | undefined): Promise<void> {
  return (path && BUILT_PAGES[path]?.preload()) || Promise.resolve();
}

/** The staff layout, with the drive's storage meter under 数字资源's menu. */
export function ShellLayout() {
  return (
    <PageProviders>
      <AppLayout panelFooter={panelFooter} />
    </PageProviders>
  );
}
