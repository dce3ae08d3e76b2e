import { Indicator, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import type { MenuResult } from '../../../shared/api/auth';
import type { CountKey, ModuleKey } from '../../../shared/menu/types';
import { ICONS } from '../../components/icons';
import classes from './shell.module.css';

type Module = MenuResult['modules'][number];

/** Whether any badge entry of the module has something waiting. */
function waiting(m: Module, counts: Partial<Record<CountKey, number>> | undefined): boolean {
  const leaves = m.items.flatMap((i) => ('path' in i ? [i] : i.children));
  return leaves.some((l) => l.badge && (counts?.[l.badge as CountKey] ?? 0) > 0);
}

/**
 * The left rail: one button per module the user may open, in catalogue order. A red dot marks
 * a module with something waiting in its side menu's badges, so a folded panel still tells.
 */
export function Rail({
  modules,
  activeKey,
  onSelect,
  counts,
}: {
  modules: Module[];
  activeKey: ModuleKey | null;
  onSelect: (m: Module) => void;
  counts?: Partial<Record<CountKey, number>>;
}) {
  return (
    <Stack
      gap={4}
      py="sm"
      className={classes.rail}
      data-testid="module-rail"
      component="nav"
      aria-label="模块"
    >
      {modules.map((m) => {
        const Icon = ICONS[m.icon];
        return (
          <Tooltip key={m.key} label={m.title} position="right" openDelay={400}>
            <UnstyledButton
              className={classes.railButton}
              data-active={m.key === activeKey || undefined}
              data-module={m.key}
              aria-label={m.title}
              aria-current={m.key === activeKey ? 'page' : undefined}
              onClick={() => onSelect(m)}
            >
              <Indicator
                disabled={!waiting(m, counts)}
                size={8}
                color="red"
                offset={2}
                data-testid="rail-dot"
              >
                <Icon size={22} stroke={1.6} />
              </Indicator>
              <Text size="xs" lh={1.2} ta="center">
                {m.title}
              </Text>
            </UnstyledButton>
          </Tooltip>
        );
      })}
    </Stack>
  );
}
