import { Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import type { MenuResult } from '../../../shared/api/auth';
import type { ModuleKey } from '../../../shared/menu/types';
import { ICONS } from '../../components/icons';
import classes from './shell.module.css';

type Module = MenuResult['modules'][number];

/** The left rail: one button per module the user may open, in catalogue order. */
export function Rail({
  modules,
  activeKey,
  onSelect,
}: {
  modules: Module[];
  activeKey: ModuleKey | null;
  onSelect: (m: Module) => void;
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
              <Icon size={22} stroke={1.6} />
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
