import { Box, Drawer, Group, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { dialogs } from '../../lib/dialogs';
import { IconWifiOff } from '@tabler/icons-react';
import { Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { useEffect, useState, type ReactNode } from 'react';
import type { MenuResult } from '../../../shared/api/auth';
import { VOLUNTEER_HOME, VOLUNTEER_ROLE, permForPath } from '../../../shared/menu/catalogue';
import type { ModuleKey } from '../../../shared/menu/types';
import { loadSessionState } from '../../lib/auth';
import { pendingWrites, signOut } from '../../lib/sign-out';
import { leaveForSignIn } from '../../lib/sign-in-page';
import { tCore } from '../../lib/i18n-core';
import { useCounts } from '../../lib/notices';
import { useOnline } from '../../lib/online';
import { useSession } from '../../lib/session';
import { Loaded, page } from '../../routes/lazy';
import { Rail } from './rail';
import { SideMenu } from './side-menu';
import { TopBar } from './top-bar';
import classes from './shell.module.css';

// Shown only to someone whose password another person chose, so loaded only then: its form
// carries the password rules' schema, and with it zod, which the workbench otherwise needs not.
const FirstPassword = page(() => import('../../components/first-password'), 'FirstPassword');

type Module = MenuResult['modules'][number];
type Leaf = Extract<Module['items'][number], { path: string }>;

/** Widths of the rail and a module's panel (shell.module.css). */
const RAIL_WIDTH = 76;
const PANEL_WIDTH = 208;

function firstLeaf(m: Module): Leaf | undefined {
  const item = m.items[0];
  if (!item) return undefined;
  return 'path' in item ? item : item.children[0];
}

/**
 * The main layout of spec/office.md §1–2: the module rail, the module's side menu, the top bar
 * and the work area. At 768 px and wider the rail and panel sit beside the work area; below,
 * they move into a drawer opened from the top bar. `panelFooter` lets the routes put a
 * module's own piece under its side menu without the shell knowing the feature.
 */
export function AppLayout({ panelFooter }: { panelFooter?: (module: ModuleKey) => ReactNode } = {}) {
  const state = useSession();
  const online = useOnline();
  const navigate = useNavigate();
  const narrow = useMediaQuery('(max-width: 767.98px)') ?? false;
  const { pathname, search } = useRouterState({
    select: (s) => ({ pathname: s.location.pathname, search: s.location.search as Record<string, string> }),
  });
  const activeKey: ModuleKey | null = permForPath(pathname, search)?.module ?? null;
  const [panelOpen, setPanelOpen] = useState(true);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [drawerModule, setDrawerModule] = useState<ModuleKey | null>(null);
  const counts = useCounts().data;

  // Refresh the user, menu and roles from the server whenever we are (back) online, so a role
  // change made by an administrator shows without signing out.
  useEffect(() => {
    if (online) void loadSessionState(true).catch(() => undefined);
  }, [online]);

  if (!state) return null;
  const modules = state.menu.modules;
  const shownKey = narrow ? (drawerModule ?? activeKey) : activeKey;
  const shown = modules.find((m) => m.key === shownKey && m.key !== 'home');

  const go = (leaf: Leaf) => {
    setDrawerOpen(false);
    void navigate({ to: leaf.path, search: leaf.search ?? {} });
  };

  const selectModule = (m: Module) => {
    if (m.key === 'home') {
      // The workbench entry folds the panel and goes to / (which redirects to the workbench).
      setPanelOpen(false);
      setDrawerOpen(false);
      setDrawerModule(null);
      void navigate({ to: '/' });
      return;
    }
    if (narrow) {
      setDrawerModule(m.key);
      return;
    }
    if (m.key === activeKey) {
      setPanelOpen((o) => !o);
      return;
    }
    setPanelOpen(true);
    const leaf = firstLeaf(m);
    if (leaf) go(leaf);
  };

  const logout = async () => {
    const pending = await pendingWrites();
    dialogs.openConfirmModal({
      title: tCore.shell.logout,
      children: pending > 0 ? tCore.shell.logoutKeepsPending(pending) : tCore.shell.logoutConfirm,
      labels: { confirm: tCore.common.confirm, cancel: tCore.common.cancel },
      onConfirm: async () => {
        await signOut();
        // The sign-in page's document (login.html), or 当前离线 when it cannot load.
        await leaveForSignIn(() => void navigate({ href: '/login' }));
      },
    });
  };

  const navigation = (
    <Box style={{ display: 'flex', height: '100%' }}>
      <Rail modules={modules} activeKey={shownKey} onSelect={selectModule} counts={counts} />
      {shown && (narrow || panelOpen) && (
        <Box className={classes.panel} data-testid="module-panel">
          <SideMenu
            module={shown}
            pathname={pathname}
            search={search}
            counts={counts}
            onNavigate={go}
            footer={panelFooter?.(shown.key)}
          />
        </Box>
      )}
    </Box>
  );

  return (
    <Box style={{ display: 'flex', height: '100dvh', overflow: 'hidden' }}>
      {narrow ? (
        // As wide as what it holds: the rail alone until a module is chosen (on the workbench
        // no module is), then the rail and that module's menu. Never a blank panel.
        <Drawer.Root
          opened={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          size={shown ? RAIL_WIDTH + PANEL_WIDTH : RAIL_WIDTH}
          padding={0}
          closeOnClickOutside
        >
          <Drawer.Overlay />
          <Drawer.Content aria-label={tCore.shell.menu} data-testid="menu-drawer">
            <Drawer.Body h="100%" p={0}>
              {navigation}
            </Drawer.Body>
          </Drawer.Content>
        </Drawer.Root>
      ) : (
        navigation
      )}
      <Box style={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <Box
          h={56}
          style={{
            borderBottom: '1px solid var(--mantine-color-gray-3)',
            background: '#fff',
            flex: '0 0 56px',
          }}
        >
          <TopBar
            user={state.user}
            online={online}
            narrow={narrow}
            drawerOpened={drawerOpen}
            onToggleDrawer={() => {
              setDrawerModule(null);
              setDrawerOpen((o) => !o);
            }}
            onProfile={() => void navigate({ to: '/personal/base' })}
            onVolunteer={
              state.user.roles.includes(VOLUNTEER_ROLE)
                ? () => void navigate({ href: VOLUNTEER_HOME })
                : undefined
            }
            onLogout={() => void logout()}
            counts={counts}
          />
        </Box>
        {!online && (
          <Group
            gap="xs"
            px="md"
            py={6}
            className={classes.offline}
            data-testid="offline-banner"
            role="status"
          >
            <IconWifiOff size={16} />
            <Text size="sm" fw={600}>
              {tCore.shell.offline}
            </Text>
            <Text size="sm">{tCore.shell.offlineHint}</Text>
          </Group>
        )}
        <Box
          component="main"
          className={classes.main}
          p={narrow ? 'sm' : 'md'}
          style={{ flex: 1, overflow: 'auto' }}
        >
          {/* A password someone else chose (人员管理 → 重置密码) is replaced before any page. */}
          {state?.user.mustChangePassword ? <Loaded page={FirstPassword} /> : <Outlet />}
        </Box>
      </Box>
    </Box>
  );
}
