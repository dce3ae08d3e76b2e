import type { ReactNode } from 'react';
import { Checkbox, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { allLeafKeys, MODULES } from '../../../shared/menu/catalogue';
import { roleMayHold } from '../../../shared/menu/reserved';
import {
  isGroup,
  type MenuGroup,
  type MenuItem,
  type MenuLeaf,
  type ModuleDef,
} from '../../../shared/menu/types';
import { tOrg } from '../../lib/i18n/org';

/** Every grantable key in catalogue order: saved grants are sent in this order, unknown keys dropped. */
export const ALL_MENU_KEYS: readonly string[] = allLeafKeys();
const KNOWN_KEYS: ReadonlySet<string> = new Set(ALL_MENU_KEYS);

export function knownKeys(keys: readonly string[]): ReadonlySet<string> {
  return new Set(keys.filter((key) => KNOWN_KEYS.has(key)));
}

export function sameKeys(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((key) => b.has(key));
}

function leafKeys(items: readonly MenuItem[]): string[] {
  return items.flatMap((item) => (isGroup(item) ? item.children.map((c) => c.key) : [item.key]));
}

interface MenuGrantsProps {
  granted: ReadonlySet<string>;
  onChange: (next: ReadonlySet<string>) => void;
  /** The super admin's grants are fixed: shown all checked, nothing can change. */
  readOnly: boolean;
  /** The role's code: an entry reserved to other roles (系统日志: 审计员 only) cannot be ticked. */
  roleCode: string;
}

/**
 * The role's menu grants as the rail shows them: one block per module (rail order), its
 * entries and its submenus' entries. A module or submenu box sets all the entries beneath it
 * and is indeterminate while only some are granted; only entries are stored.
 */
export function MenuGrants({ granted, onChange, readOnly, roleCode }: MenuGrantsProps) {
  // The server refuses a reserved entry for any other role (shared/menu/reserved.ts).
  const locked = (key: string) => !readOnly && !roleMayHold(roleCode, key);
  const setKeys = (keys: readonly string[], on: boolean) => {
    const next = new Set(granted);
    for (const key of keys) {
      if (on) next.add(key);
      else next.delete(key);
    }
    onChange(next);
  };
  return (
    <Stack gap="sm">
      {MODULES.map((module) => (
        <ModuleBlock
          key={module.key}
          module={module}
          granted={granted}
          setKeys={setKeys}
          readOnly={readOnly}
          locked={locked}
        />
      ))}
    </Stack>
  );
}

interface BlockProps {
  granted: ReadonlySet<string>;
  setKeys: (keys: readonly string[], on: boolean) => void;
  readOnly: boolean;
  locked: (key: string) => boolean;
}

/** A box over several entries: checked when all are granted, indeterminate when some are. */
function ParentBox({
  keys: all,
  label,
  granted,
  setKeys,
  readOnly,
  locked,
}: BlockProps & { keys: string[]; label: ReactNode }) {
  // A box sets only the entries this role may hold.
  const keys = all.filter((key) => !locked(key));
  const count = keys.filter((key) => granted.has(key)).length;
  const full = count === keys.length && count > 0;
  return (
    <Checkbox
      label={label}
      checked={full}
      indeterminate={count > 0 && !full}
      disabled={readOnly || keys.length === 0}
      onChange={() => setKeys(keys, !full)}
    />
  );
}

function LeafGrid({ leaves, granted, setKeys, readOnly, locked }: BlockProps & { leaves: MenuLeaf[] }) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: 3 }} spacing="sm" verticalSpacing="xs">
      {leaves.map((leaf) => (
        <Checkbox
          key={leaf.key}
          label={leaf.title}
          description={locked(leaf.key) ? tOrg.role.reservedLeaf : undefined}
          checked={granted.has(leaf.key)}
          disabled={readOnly || locked(leaf.key)}
          onChange={(e) => setKeys([leaf.key], e.currentTarget.checked)}
        />
      ))}
    </SimpleGrid>
  );
}

function ModuleBlock({ module, ...rest }: BlockProps & { module: ModuleDef }) {
  const keys = leafKeys(module.items);
  const count = keys.filter((key) => rest.granted.has(key)).length;
  // Consecutive plain entries share one grid; each submenu gets its own titled block, in catalogue order.
  const sections: ({ kind: 'leaves'; leaves: MenuLeaf[] } | { kind: 'group'; item: MenuGroup })[] = [];
  for (const item of module.items) {
    const last = sections.at(-1);
    if (isGroup(item)) sections.push({ kind: 'group', item });
    else if (last?.kind === 'leaves') last.leaves.push(item);
    else sections.push({ kind: 'leaves', leaves: [item] });
  }
  return (
    <Paper withBorder radius="md" p="sm">
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <ParentBox
          keys={keys}
          label={
            <Text fw={600} size="sm">
              {module.title}
            </Text>
          }
          {...rest}
        />
        <Text size="xs" c="dimmed">
          {tOrg.role.grantedCount(count, keys.length)}
        </Text>
      </Group>
      <Stack gap="sm" mt="sm" pl={{ base: 'md', sm: 'xl' }}>
        {sections.map((section) =>
          section.kind === 'leaves' ? (
            <LeafGrid key={section.leaves[0]?.key} leaves={section.leaves} {...rest} />
          ) : (
            <Stack key={section.item.key} gap="xs">
              <ParentBox
                keys={section.item.children.map((c) => c.key)}
                label={
                  <Text size="sm" fw={500}>
                    {section.item.title}
                  </Text>
                }
                {...rest}
              />
              <div style={{ paddingLeft: 'var(--mantine-spacing-lg)' }}>
                <LeafGrid leaves={section.item.children} {...rest} />
              </div>
            </Stack>
          ),
        )}
      </Stack>
    </Paper>
  );
}
