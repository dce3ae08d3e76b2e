import {
  Outlet,
  createRootRoute,
  createRoute,
  createRouter,
  redirect,
  useNavigate,
  useRouterState,
  type AnyRoute,
} from '@tanstack/react-router';
import {
  BARE_ROUTES,
  MODULES,
  REDIRECTS,
  VOLUNTEER_HOME,
  VOLUNTEER_ROLE,
  permForPath,
} from '../shared/menu/catalogue';
import { isGroup } from '../shared/menu/types';
import { LoginPage } from './features/auth/login-page';
import { AppLayout } from './features/shell/app-layout';
import { BuildingPage, ForbiddenPage, NotFoundPage } from './features/shell/status-pages';
import { loadSessionState } from './lib/auth';
import { readToken, session, useSession } from './lib/session';
import { BUILT_PAGES, Loaded, panelFooter } from './routes/pages';
import { PHONE_PAGES } from './routes/phone';

/**
 * The route tree, generated from the shared catalogue so that every URL of spec/office.md §2
 * exists exactly once and the permission check reads the same table as the server's menu.
 * (File routes would mean ~160 identical placeholder files; see README "Routes".)
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
function GuardedPage({ path }: { path: string }) {
  const state = useSession();
  const search = useRouterState({ select: (s) => s.location.search as Record<string, string> });
  const perm = permForPath(path, search);
  if (perm?.perm && state && !state.menu.grantedKeys.includes(perm.perm)) return <ForbiddenPage />;
  const Page = BUILT_PAGES[path];
  if (Page) return <Loaded page={Page} />;
  const title = TITLES.get(titleKey(path, perm?.perm ?? null));
  return <BuildingPage moduleTitle={title?.module ?? ''} pageTitle={title?.page ?? ''} />;
}

/** Anonymous users go to /login; a cookie without local state is restored from the server once. */
async function ensureSignedIn({ location }: { location: { href: string } }) {
  if (readToken() && session.get()) return;
  if (readToken() && navigator.onLine) {
    try {
      await loadSessionState(true);
      return;
    } catch {
      session.clear();
    }
  }
  throw redirect({ to: '/login', search: { redirect: location.href } });
}

const rootRoute = createRootRoute({ component: Outlet, notFoundComponent: NotFoundPage });

function LoginRoute() {
  const navigate = useNavigate();
  const target = useRouterState({ select: (s) => (s.location.search as { redirect?: string }).redirect });
  return (
    <LoginPage
      onSignedIn={(firstUrl) => {
        // Only same-app paths are followed after sign-in, never an absolute URL (open redirect).
        const safe = target && target.startsWith('/') && !target.startsWith('//') ? target : firstUrl;
        void navigate({ href: safe });
      }}
    />
  );
}

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  beforeLoad: () => {
    if (readToken() && session.get())
      throw redirect({ href: session.get()!.roleFunction.firstUrl || '/home/workbench' });
  },
  component: LoginRoute,
});

const authedRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'authed',
  beforeLoad: ensureSignedIn,
});
const layoutRoute = createRoute({
  getParentRoute: () => authedRoute,
  id: 'layout',
  // A volunteer with no staff page has nothing in the staff shell: their home is the phone view.
  beforeLoad: () => {
    const state = session.get();
    if (state && !state.menu.modules.length && state.user.roles.includes(VOLUNTEER_ROLE))
      throw redirect({ href: VOLUNTEER_HOME });
  },
  component: () => <AppLayout panelFooter={panelFooter} />,
});

const seen = new Set<string>();
function pageRoute(parent: AnyRoute, path: string): AnyRoute | undefined {
  if (seen.has(path)) return undefined; // e.g. /data/manage with and without role=2: one route, two grants
  seen.add(path);
  return createRoute({ getParentRoute: () => parent, path, component: () => <GuardedPage path={path} /> });
}

const layoutChildren: AnyRoute[] = [];
for (const m of MODULES) {
  for (const item of m.items) {
    for (const leaf of isGroup(item) ? item.children : [item]) {
      const r = pageRoute(layoutRoute, leaf.path);
      if (r) layoutChildren.push(r);
    }
  }
  for (const h of m.hidden) {
    const r = pageRoute(layoutRoute, h.path);
    if (r) layoutChildren.push(r);
  }
}

const redirectRoutes = REDIRECTS.map((r) =>
  createRoute({
    getParentRoute: () => authedRoute,
    path: r.from,
    beforeLoad: () => {
      throw redirect({ to: r.to });
    },
  }),
);

const bareAuthed: AnyRoute[] = [];
const publicRoutes: AnyRoute[] = [];
for (const b of BARE_ROUTES) {
  if (b.path === '/login') continue;
  const r = pageRoute(b.public ? rootRoute : authedRoute, b.path);
  if (r) (b.public ? publicRoutes : bareAuthed).push(r);
}

// The volunteer's phone pages (routes/phone.tsx): signed in, outside the staff layout.
for (const [path, component] of Object.entries(PHONE_PAGES))
  bareAuthed.push(createRoute({ getParentRoute: () => authedRoute, path, component }));

const routeTree = rootRoute.addChildren([
  loginRoute,
  ...publicRoutes,
  authedRoute.addChildren([layoutRoute.addChildren(layoutChildren), ...bareAuthed, ...redirectRoutes]),
]);

export const router = createRouter({
  routeTree,
  defaultNotFoundComponent: NotFoundPage,
  // Plain query strings (?fileType=0), as the spec's URLs have them, instead of JSON-encoded values.
  parseSearch: (s) => Object.fromEntries(new URLSearchParams(s)),
  stringifySearch: (o) => {
    const q = new URLSearchParams(
      Object.entries(o)
        .filter((e): e is [string, string] => e[1] !== undefined && e[1] !== null)
        .map(([k, v]) => [k, String(v)]),
    ).toString();
    return q ? `?${q}` : '';
  },
});
