import { Badge, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import type { MenuResult } from '../../../shared/api/auth';
import { badgeText } from '../../../shared/menu/badge';
import { permForPath } from '../../../shared/menu/catalogue';
import type { CountKey } from '../../../shared/menu/types';
import { ICONS } from '../../components/icons';

type Module = MenuResult['modules'][number];
type Item = Module['items'][number];
type Leaf = Extract<Item, { path: string }>;

/** The path that calls back instead of navigating (spec/office.md §2 "no-jump entry"). */
export const NO_JUMP_PATH = 'noJump';

function isLeaf(item: Item): item is Leaf {
  return 'path' in item;
}

export interface SideMenuProps {
  module: Module;
  pathname: string;
  search: Record<string, string>;
  counts?: Partial<Record<CountKey, number>>;
  /** Follows an entry (a plain click on its link): navigate, and on a phone close the drawer. */
  onNavigate: (leaf: Leaf) => void;
  /** Called for the no-jump entry instead of navigating. */
  onNoJump?: (leaf: Leaf) => void;
  /** Shown under the entries (e.g. the drive's 存储空间 in 数字资源). */
  footer?: ReactNode;
}

/**
 * A module's side menu: a title, then items with an optional icon and badge, and one-level
 * submenus (buttons that say whether they are expanded). Entries are links with a real href
 * (open in a new tab, the browser's own link menu, a screen reader says "link"); the no-jump
 * entry is a button. The active entry is ours, not the router's: the one the address resolves
 * to in the catalogue (permForPath), so /data/manage?role=2 lights 数据审核 only (the router
 * would light 数据管理 too), a category of the drive (fileType=1) still lights 个人网盘, and a
 * hidden detail page lights the entry that grants it.
 */
export function SideMenu({ module, pathname, search, counts, onNavigate, onNoJump, footer }: SideMenuProps) {
  const current = permForPath(pathname, search)?.perm ?? null;
  const [folds, setFolds] = useState<Record<string, boolean>>({});
  const active = (leaf: Leaf) => leaf.key === current;

  const renderLeaf = (leaf: Leaf, nested: boolean) => {
    const Icon = leaf.icon ? ICONS[leaf.icon] : undefined;
    const count = leaf.badge ? (counts?.[leaf.badge as CountKey] ?? 0) : 0;
    const common = {
      label: leaf.title,
      active: active(leaf),
      'aria-current': active(leaf) ? ('page' as const) : undefined,
      pl: nested ? 'xl' : undefined,
      leftSection: Icon ? <Icon size={18} stroke={1.6} aria-hidden /> : undefined,
      rightSection:
        count > 0 ? (
          <Badge size="sm" color="red" variant="filled" circle={count < 10}>
            {badgeText(count)}
          </Badge>
        ) : undefined,
      style: { borderRadius: 8, minHeight: 40 },
    };
    if (leaf.path === NO_JUMP_PATH)
      return <NavLink key={leaf.key} component="button" {...common} onClick={() => onNoJump?.(leaf)} />;
    const query = new URLSearchParams(leaf.search ?? {}).toString();
    return (
      <NavLink
        key={leaf.key}
        component="a"
        href={query ? `${leaf.path}?${query}` : leaf.path}
        {...common}
        onClick={(e) => {
          // A plain click navigates inside the app; a middle or modified click opens a tab.
          if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
          e.preventDefault();
          onNavigate(leaf);
        }}
      />
    );
  };

  return (
    <Stack gap={0} h="100%" data-testid="side-menu">
      <Text fw={700} size="lg" px="md" py="sm" c="museum.9">
        {module.title}
      </Text>
      <ScrollArea style={{ flex: 1 }} px={6}>
        {module.items.map((item) => {
          if (isLeaf(item)) return renderLeaf(item, false);
          const Icon = item.icon ? ICONS[item.icon] : undefined;
          // A submenu starts open when it holds the current page; then the person decides.
          const opened = folds[item.key] ?? item.children.some(active);
          return (
            <NavLink
              key={item.key}
              component="button"
              label={item.title}
              opened={opened}
              onChange={(next) => setFolds((f) => ({ ...f, [item.key]: next }))}
              aria-expanded={opened}
              childrenOffset={0}
              leftSection={Icon ? <Icon size={18} stroke={1.6} aria-hidden /> : undefined}
              style={{ borderRadius: 8, minHeight: 40 }}
            >
              {item.children.map((c) => renderLeaf(c, true))}
            </NavLink>
          );
        })}
      </ScrollArea>
      {footer}
    </Stack>
  );
}
