import {
  Outlet,
  createRootRoute,
  createRoute,
  createRouter,
  redirect,
  type AnyRoute,
} from '@tanstack/react-router';
import { BARE_ROUTES, MODULES, REDIRECTS, VOLUNTEER_HOME, VOLUNTEER_ROLE } from '../shared/menu/catalogue';
import { isGroup } from '../shared/menu/types';
import { overlaysReady } from './lib/overlays-load';
import { readToken, session } from './lib/session';
import { signInPageOpens } from './lib/sign-in-page';
import { SignedOutOffline } from './features/auth/signed-out-offline';
import { Loaded, Loading, RouteError, page } from './routes/lazy';
import { PHONE_PAGES } from './routes/phone';

/**
 * The route tree, generated from the shared catalogue so that every URL of spec/office.md §2
 * exists exactly once and the permission check reads the same table as the server's menu.
 * The sign-in page is not in it: /login is its own light page (login.html, src/app/login/),
 * and this app loads after sign-in. The shell, the guard and every page load when opened
 * (issue 25; routes/lazy.tsx has the loading and the 重试 states).
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

/**
 * The sign-in page, /login, is a document of its own (login.html): the app goes there by
 * loading it, never by drawing a route. Its `redirect` brings the person back here after.
 */
const toLogin = (href?: string) => {
  window.location.replace(href ? `/login?redirect=${encodeURIComponent(href)}` : '/login');
  // Nothing is drawn meanwhile: the browser is leaving this document.
  return new Promise<never>(() => undefined);
};

/**
 * A cookie without local state is restored from the server once: the first stop after signing
 * in (the sign-in page sets only the cookie), or a tab that lost sessionStorage. For every
 * route, the public ones too: the share page asks whether someone is signed in before it offers
 * 保存到我的网盘. A cookie the server refuses is forgotten.
 */
let restoring: Promise<boolean> | undefined;
function restoreSession(): Promise<boolean> {
  if (!readToken()) return Promise.resolve(false);
  if (session.get()) return Promise.resolve(true);
  if (!navigator.onLine) return Promise.resolve(false);
  // The session module (and the offline store it clears) loads here, not with the first screen.
  restoring ??= import('./lib/auth')
    .then(({ loadSessionState }) => loadSessionState(true))
    .then(
      () => {
        // Ask the browser to keep our offline data under storage pressure (ARCHITECTURE.md §5).
        void navigator.storage?.persist?.().catch(() => false);
        return true;
      },
      () => {
        session.clear();
        return false;
      },
    )
    .finally(() => (restoring = undefined));
  return restoring;
}

/**
 * The shell and the page a signed-in launch opens, loaded beside the signed-in chunk rather than
 * one after the other. Before, the shell's code was fetched once the guard had passed, the page's
 * once the shell had drawn, each then evaluated on its own; on a tablet's slow CPU that chain
 * was most of the wait before an installed app showed its cached listing (issue 25,
 * tests/bench/first-paint.ts). Errors are left to the page's own 重试 when it is drawn. The
 * volunteer's phone pages and the redirects need neither.
 */
type Match = { routeId: string; fullPath: string };
function preloadShell(matches: Match[]): Promise<unknown> | undefined {
  const path = matches.at(-1)?.fullPath;
  const inLayout = matches.some((m) => m.routeId === layoutRoute.id);
  if (!inLayout && !(path && seen.has(path))) return undefined;
  return Promise.all([
    inLayout && ShellLayout.preload(),
    GuardedPage.preload(),
    import('./routes/shell').then(
      (m) => m.preloadPage(path),
      () => undefined,
    ),
  ]);
}

/**
 * Anonymous users go to /login, and come back here once signed in. A signed-in launch waits for
 * the shell and its page as well, so that both draw at once, with the cached data they show.
 */
async function ensureSignedIn({ location, matches }: { location: { href: string }; matches: Match[] }) {
  // With a token the session is almost always there: the shell starts loading meanwhile.
  const shell = readToken() ? preloadShell(matches) : undefined;
  if (await restoreSession()) {
    await Promise.all([startSignedIn(), shell]);
    return;
  }
  // Through the /login route: it loads the sign-in page, or says 当前离线 when it cannot.
  throw redirect({ href: `/login?redirect=${encodeURIComponent(location.href)}` });
}

const rootRoute = createRootRoute({
  component: Outlet,
  notFoundComponent: NotFoundPage,
  beforeLoad: async () => {
    await restoreSession();
  },
});

// A link or navigation inside the app to /login (signing out, a share that needs sign-in)
// leaves for the sign-in page's document; its query (`redirect`) goes along. When that document
// cannot load (offline, before the service worker has kept it), the route shows 当前离线 and
// opens the sign-in page once the server answers (lib/sign-in-page.ts).
const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  beforeLoad: async ({ location }) => {
    if (await signInPageOpens())
      return toLogin(new URLSearchParams(location.searchStr).get('redirect') ?? undefined);
  },
  // In the first chunk, not loaded when needed: offline, without the worker, nothing more loads.
  component: SignedOutOffline,
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
      // The app's start (`/`: the installed app's start_url, and where sign-in lands) is the
      // person's first page by role (getRoleFunction's firstUrl), the workbench by default.
      if (r.from === '/') throw redirect({ href: session.get()?.roleFunction.firstUrl || r.to });
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
