import { Indicator, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import type { MenuResult } from '../../../shared/api/auth';
import type { CountKey, ModuleKey } from '../../../shared/menu/types';
import { ICONS } from '../../components/icons';
import { tCore } from '../../lib/i18n-core';
import classes from './shell.module.css';

type Module = MenuResult['modules'][number];

/** Whether any badge entry of the module has something waiting. */
function waiting(m: Module, counts: Partial<Record<CountKey, number>> | undefined): boolean {
  const leaves = m.items.flatMap((i) => ('path' in i ? [i] : i.children));
  return leaves.some((l) => l.badge && (counts?.[l.badge as CountKey] ?? 0) > 0);
}

/** Which ends of the rail have modules scrolled out of view; `count` re-measures when modules change. */
function useOverflow(ref: React.RefObject<HTMLElement | null>, count: number) {
  const [more, setMore] = useState({ up: false, down: false });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      // 2 px of slack: zoomed layouts leave fractions that are not a hidden module.
      const next = {
        up: el.scrollTop > 2,
        down: el.scrollTop + el.clientHeight < el.scrollHeight - 2,
      };
      setMore((m) => (m.up === next.up && m.down === next.down ? m : next));
    };
    measure();
    el.addEventListener('scroll', measure, { passive: true });
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    for (const child of el.children) observer.observe(child);
    return () => {
      el.removeEventListener('scroll', measure);
      observer.disconnect();
    };
  }, [ref, count]);
  return more;
}

/**
 * The left rail: one button per module the user may open, in catalogue order, each with its
 * name under the icon. A red dot marks a module with something waiting in its side menu's
 * badges, so a folded panel still tells. The buttons are sized so that all 13 modules fit a
 * 768 px tall tablet; on a shorter screen the rail scrolls, and a fade with an arrow at the
 * cut edge says so (a tap on it scrolls one screen on).
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
  const scroller = useRef<HTMLDivElement>(null);
  const more = useOverflow(scroller, modules.length);
  const page = (direction: 1 | -1) => {
    const el = scroller.current;
    el?.scrollBy({ top: direction * (el.clientHeight - 60), behavior: 'smooth' });
  };
  return (
    <nav className={classes.rail} data-testid="module-rail" aria-label={tCore.shell.modules}>
      <div ref={scroller} className={classes.railScroll}>
        {modules.map((m) => {
          const Icon = ICONS[m.icon];
          return (
            <UnstyledButton
              key={m.key}
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
                <Icon size={22} stroke={1.6} aria-hidden />
              </Indicator>
              <Text size="xs" lh={1.2} ta="center">
                {m.title}
              </Text>
            </UnstyledButton>
          );
        })}
      </div>
      {more.up && (
        <button
          type="button"
          className={classes.railMore}
          data-edge="top"
          tabIndex={-1}
          aria-label={tCore.shell.railMoreUp}
          data-testid="rail-more-up"
          onClick={() => page(-1)}
        >
          <IconChevronUp size={16} aria-hidden />
        </button>
      )}
      {more.down && (
        <button
          type="button"
          className={classes.railMore}
          data-edge="bottom"
          tabIndex={-1}
          aria-label={tCore.shell.railMoreDown}
          data-testid="rail-more-down"
          onClick={() => page(1)}
        >
          <IconChevronDown size={16} aria-hidden />
        </button>
      )}
    </nav>
  );
}
