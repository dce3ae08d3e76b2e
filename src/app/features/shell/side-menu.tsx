import { Badge, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { MenuResult } from '../../../shared/api/auth';
import { badgeText } from '../../../shared/menu/badge';
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

function searchMatches(want: Record<string, string> | undefined, have: Record<string, string>) {
  return Object.entries(want ?? {}).every(([k, v]) => have[k] === v);
}

export interface SideMenuProps {
  module: Module;
  pathname: string;
  search: Record<string, string>;
  counts?: Partial<Record<CountKey, number>>;
  onNavigate: (leaf: Leaf) => void;
  /** Called for the no-jump entry instead of navigating. */
  onNoJump?: (leaf: Leaf) => void;
  /** Shown under the entries (e.g. the drive's 存储空间 in 数字资源). */
  footer?: ReactNode;
}

/**
 * A module's side menu: a title, then items with an optional icon and badge, and one-level
 * submenus. The active item is the one whose path (and the spec's query, where it has one)
 * matches the address.
 */
export function SideMenu({ module, pathname, search, counts, onNavigate, onNoJump, footer }: SideMenuProps) {
  const active = (leaf: Leaf) => leaf.path === pathname && searchMatches(leaf.search, search);

  const renderLeaf = (leaf: Leaf, nested: boolean) => {
    const Icon = leaf.icon ? ICONS[leaf.icon] : undefined;
    const count = leaf.badge ? (counts?.[leaf.badge as CountKey] ?? 0) : 0;
    return (
      <NavLink
        key={leaf.key}
        label={leaf.title}
        active={active(leaf)}
        pl={nested ? 'xl' : undefined}
        leftSection={Icon ? <Icon size={18} stroke={1.6} /> : undefined}
        rightSection={
          count > 0 ? (
            <Badge size="sm" color="red" variant="filled" circle={count < 10}>
              {badgeText(count)}
            </Badge>
          ) : undefined
        }
        onClick={() => (leaf.path === NO_JUMP_PATH ? onNoJump?.(leaf) : onNavigate(leaf))}
        style={{ borderRadius: 8, minHeight: 40 }}
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
          const opened = item.children.some(active);
          return (
            <NavLink
              key={item.key}
              label={item.title}
              defaultOpened={opened}
              childrenOffset={0}
              leftSection={Icon ? <Icon size={18} stroke={1.6} /> : undefined}
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
