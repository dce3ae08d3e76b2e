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
import { BARE_ROUTES, MODULES, REDIRECTS, VOLUNTEER_HOME, VOLUNTEER_ROLE } from '../shared/menu/catalogue';
import { isGroup } from '../shared/menu/types';
import { LoginPage } from './features/auth/login-page';
import { overlaysReady } from './lib/overlays-load';
import { readToken, session } from './lib/session';
import { Loaded, Loading, RouteError, page } from './routes/lazy';
import { PHONE_PAGES } from './routes/phone';

/**
 * The route tree, generated from the shared catalogue so that every URL of spec/office.md §2
 * exists exactly once and the permission check reads the same table as the server's menu.
 * Only the sign-in page is in the first chunk; the shell, the guard and every page load when
 * opened (issue 25; routes/lazy.tsx has the loading and the 重试 states).
 * (File routes would mean ~160 identical placeholder files; see README "Routes".)
 */

// The 页面不存在 page loads when needed (a typed-in wrong address is rare).
const LazyNotFound = page(() => import('./features/shell/status-pages'), 'NotFoundPage');
const NotFoundPage = () => <Loaded page={LazyNotFound} />;

// The shell and the page guard load once someone is signed in (routes/shell.tsx, issue 25).
const GuardedPage = page(() => import('./routes/shell'), 'GuardedPage');
const ShellLayout = page(() => import('./routes/shell'), 'ShellLayout');

/** The signed-in parts' chunk (lib/signed-in.tsx), started once: not needed on /login. */
let signedIn: Promise<void> | undefined;
function startSignedIn(): Promise<void> {
  // The dialogs' host too: pages may open a dialog (or be told the session expired) at once.
  signedIn ??= Promise.all([import('./lib/signed-in'), overlaysReady]).then(
    ([m]) => m.startSignedIn(),
    (err: unknown) => {
      signedIn = undefined; // tried again at the next navigation
      throw err;
    },
  );
  return signedIn;
}

/** Anonymous users go to /login; a cookie without local state is restored from the server once. */
async function ensureSignedIn({ location }: { location: { href: string } }) {
  if (readToken() && session.get()) return startSignedIn();
  if (readToken() && navigator.onLine) {
    // The session module (and the offline store it clears) loads here, not on /login.
    const { loadSessionState } = await import('./lib/auth');
    try {
      await loadSessionState(true);
    } catch {
      session.clear();
      throw redirect({ to: '/login', search: { redirect: location.href } });
    }
    return startSignedIn();
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
  component: () => <Loaded page={ShellLayout} />,
});

const seen = new Set<string>();
function pageRoute(parent: AnyRoute, path: string): AnyRoute | undefined {
  if (seen.has(path)) return undefined; // e.g. /data/manage with and without role=2: one route, two grants
  seen.add(path);
  return createRoute({
    getParentRoute: () => parent,
    path,
    component: () => (
      <Loading>
        <GuardedPage path={path} />
      </Loading>
    ),
  });
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
  defaultErrorComponent: RouteError,
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
