import { ActionIcon, Badge, Checkbox, Menu, UnstyledButton } from '@mantine/core';
import { useElementSize, useMergedRef } from '@mantine/hooks';
import { IconArrowDown, IconArrowUp, IconDotsVertical } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { formatSize } from '../../../shared/drive/file-types';
import { joinName } from '../../../shared/drive/names';
import type { SortBy, SortOrder } from '../../../shared/drive/sort';
import { tDrive } from '../../lib/i18n/drive';
import { FileThumb } from './file-icon';
import type { ReadArea } from './drive-data';
import type { DriveItem } from './overlay';
import classes from './drive.module.css';

/** A row's identity: bin rows by recycle id (one file may be binned twice), others by file id. */
export function keyOf(item: DriveItem): number {
  return item.recoveryFileId ?? item.userFileId;
}

export type ViewMode = 'list' | 'grid';
export type GridSize = 50 | 80;

/** What a right-click or long-press landed on. */
export type MenuTarget = { kind: 'blank' } | { kind: 'item'; item: DriveItem };

export interface FileBrowserProps {
  label: string;
  /** Sorted, folders first. */
  items: DriveItem[];
  mode: ViewMode;
  gridSize: GridSize;
  narrow: boolean;
  /** The recycle bin: a 删除时间 column instead of 修改时间. */
  recycle: boolean;
  /** The area whose thumbnails the rows show; undefined for none (the recycle bin). */
  thumbArea?: ReadArea;
  /** Search results: a 位置 column and highlighted names. */
  highlights?: ReadonlyMap<number, readonly (readonly [number, number])[]>;
  selection: ReadonlySet<number>;
  onSelectionChange: (next: Set<number>) => void;
  sort: { by: SortBy; order: SortOrder };
  onSort: (by: SortBy) => void;
  onOpen: (item: DriveItem) => void;
  /** Delete (Delete key) and rename (F2) from the keyboard. */
  onDeleteKey: () => void;
  onRenameKey: (item: DriveItem) => void;
  /** The entries of the context menu for a target (Menu.Item elements). */
  renderMenu: (target: MenuTarget) => ReactNode;
  /** Scroll this row into view and focus it (e.g. after opening a search hit's folder). */
  focusKey?: number | null;
  onFocusDone?: () => void;
  empty: ReactNode;
}

const LIST_ROW = 52;
const LIST_ROW_NARROW = 60;
const HEAD = 40;
/** Grid cell widths and heights by icon size (spec §9: grid size 50 or 80). */
const GRID = { 50: { w: 108, h: 124 }, 80: { w: 136, h: 158 } } as const;
const GAP = 8;

function highlighted(name: string, ranges: readonly (readonly [number, number])[] | undefined): ReactNode {
  if (!ranges || ranges.length === 0) return name;
  // Offsets from the server, drawn as <mark> elements: never HTML from the server.
  const parts: ReactNode[] = [];
  let at = 0;
  [...ranges]
    .sort((a, b) => a[0] - b[0])
    .forEach(([s, e], i) => {
      const start = Math.max(at, Math.min(s, name.length));
      const end = Math.max(start, Math.min(e, name.length));
      if (start > at) parts.push(name.slice(at, start));
      if (end > start)
        parts.push(
          <mark key={i} className={classes.hit}>
            {name.slice(start, end)}
          </mark>,
        );
      at = end;
    });
  if (at < name.length) parts.push(name.slice(at));
  return parts;
}

function typeText(item: DriveItem) {
  return item.isDir ? tDrive.folderType : item.extendName || tDrive.noExt;
}

/**
 * The file list: list view (the spec's columns) or grid view (icons of 50 or 80), virtualised
 * so a folder of 10,000 entries scrolls smoothly (only the visible rows exist in the page).
 *
 * Pointer model, as people know it from desktop and tablet file managers:
 * - mouse: click selects (Ctrl/⌘ adds, Shift extends), double-click opens, right-click menus;
 * - touch: tap opens (or toggles while a selection is in progress), long-press (500 ms) menus,
 *   the ⋮ button menus too (narrow rows);
 * - keyboard: ↑/↓ move, Shift extends, Space toggles, Enter opens, F2 renames, Delete deletes,
 *   Ctrl+A selects all, Esc clears.
 */
export function FileBrowser(props: FileBrowserProps) {
  const { items, mode, gridSize, narrow, selection, onSelectionChange } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const { ref: sizeRef, width } = useElementSize<HTMLDivElement>();
  const mergedRef = useMergedRef(scroller, sizeRef);
  const [target, setTarget] = useState<MenuTarget>({ kind: 'blank' });
  const [focused, setFocused] = useState<number>(-1);
  const anchor = useRef<number>(-1);
  const withPath = Boolean(props.highlights);
  const list = mode === 'list';

  const rowHeight = narrow ? LIST_ROW_NARROW : LIST_ROW;
  const cell = GRID[gridSize];
  const columns = list ? 1 : Math.max(2, Math.floor((Math.max(width, 200) - 16 + GAP) / (cell.w + GAP)));
  const rowCount = list ? items.length : Math.ceil(items.length / columns);

  // The virtualizer's functions change as it scrolls; this component is not compiler-memoised.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scroller.current,
    estimateSize: () => (list ? rowHeight : cell.h + GAP),
    overscan: 8,
    // List rows start below the sticky header inside the scroller; grid rows after a gap.
    scrollMargin: list ? HEAD : 0,
    paddingStart: list ? 0 : GAP,
    paddingEnd: list ? 0 : GAP,
  });
  // Row heights change with the mode and width; re-measure rather than keep stale offsets.
  useEffect(() => {
    virtualizer.measure();
  }, [virtualizer, list, rowHeight, cell.h, columns]);

  // Keep the focus index inside the list as it changes (deletions, refreshes).
  const focusIndex = focused >= items.length ? items.length - 1 : focused;

  const scrollToIndex = useCallback(
    (index: number) => {
      if (index < 0) return;
      virtualizer.scrollToIndex(list ? index : Math.floor(index / columns), { align: 'auto' });
    },
    [virtualizer, list, columns],
  );

  const { focusKey, onFocusDone } = props;
  useEffect(() => {
    if (focusKey == null) return;
    const index = items.findIndex((i) => keyOf(i) === focusKey);
    if (index < 0) return;
    // Moving the keyboard focus to a row the caller asked for is syncing with an outside
    // request (a search hit opened), done once: the caller then forgets the key.
    setFocused(index);
    anchor.current = index;
    scrollToIndex(index);
    onFocusDone?.();
  }, [focusKey, items, scrollToIndex, onFocusDone]);

  const itemAt = (el: EventTarget | null): DriveItem | undefined => {
    const row = (el as HTMLElement | null)?.closest?.('[data-index]');
    const index = row ? Number(row.getAttribute('data-index')) : -1;
    return index >= 0 ? items[index] : undefined;
  };

  /**
   * Right-click / long-press: remembers the row under the pointer. A touch may still turn
   * into a scroll, so the selection changes only when the menu really opens (onMenuOpen).
   */
  const aimed = useRef<DriveItem | undefined>(undefined);
  const aimMenu = (el: EventTarget | null) => {
    const item = itemAt(el);
    aimed.current = item;
    setTarget(item ? { kind: 'item', item } : { kind: 'blank' });
  };

  /** The menu acts on the row it opened on: selected alone, unless already in the selection. */
  const onMenuOpen = () => {
    // Read from the ref: the menu opens in the same event that aimed it, before a re-render.
    const item = aimed.current;
    if (!item) return;
    const key = keyOf(item);
    if (!selection.has(key)) onSelectionChange(new Set([key]));
    const index = items.indexOf(item);
    setFocused(index);
    anchor.current = index;
  };

  const select = (index: number, e: { ctrlKey: boolean; metaKey: boolean; shiftKey: boolean }) => {
    const item = items[index];
    if (!item) return;
    const key = keyOf(item);
    if (e.shiftKey && anchor.current >= 0) {
      const [a, b] = [Math.min(anchor.current, index), Math.max(anchor.current, index)];
      const next = e.ctrlKey || e.metaKey ? new Set(selection) : new Set<number>();
      for (let i = a; i <= b; i++) next.add(keyOf(items[i]!));
      onSelectionChange(next);
    } else if (e.ctrlKey || e.metaKey) {
      const next = new Set(selection);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      onSelectionChange(next);
      anchor.current = index;
    } else {
      onSelectionChange(new Set([key]));
      anchor.current = index;
    }
    setFocused(index);
  };

  const toggle = (index: number) => {
    const item = items[index];
    if (!item) return;
    const next = new Set(selection);
    const key = keyOf(item);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    onSelectionChange(next);
    anchor.current = index;
    setFocused(index);
  };

  const onItemClick = (index: number, e: MouseEvent) => {
    const touch = (e.nativeEvent as PointerEvent).pointerType === 'touch';
    if (touch) {
      // Tablets: a tap opens, as in every touch file manager; with a selection going, it toggles.
      if (selection.size > 0) toggle(index);
      else {
        const item = items[index];
        if (item) props.onOpen(item);
      }
      return;
    }
    select(index, e);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if ((e.target as HTMLElement).closest('input, button, [role="menu"]') && e.target !== e.currentTarget) {
      if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    }
    const step = list ? 1 : columns;
    const move = (to: number) => {
      const i = Math.max(0, Math.min(items.length - 1, to));
      if (e.shiftKey) select(i, { ctrlKey: false, metaKey: false, shiftKey: true });
      else select(i, { ctrlKey: false, metaKey: false, shiftKey: false });
      scrollToIndex(i);
    };
    const current = items[focusIndex];
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault();
        move(focusIndex < 0 ? 0 : focusIndex + step);
        break;
      case 'ArrowUp':
        e.preventDefault();
        move(focusIndex < 0 ? 0 : focusIndex - step);
        break;
      case 'ArrowRight':
        if (!list) {
          e.preventDefault();
          move(focusIndex + 1);
        }
        break;
      case 'ArrowLeft':
        if (!list) {
          e.preventDefault();
          move(focusIndex - 1);
        }
        break;
      case 'Home':
        e.preventDefault();
        move(0);
        break;
      case 'End':
        e.preventDefault();
        move(items.length - 1);
        break;
      case 'Enter':
        if (current) {
          e.preventDefault();
          props.onOpen(current);
        }
        break;
      case ' ':
        if (focusIndex >= 0) {
          e.preventDefault();
          toggle(focusIndex);
        }
        break;
      case 'F2':
        if (current) {
          e.preventDefault();
          props.onRenameKey(current);
        }
        break;
      case 'Delete':
        if (selection.size > 0) {
          e.preventDefault();
          props.onDeleteKey();
        }
        break;
      case 'Escape':
        if (selection.size > 0) {
          e.preventDefault();
          onSelectionChange(new Set());
        }
        break;
      case 'a':
      case 'A':
        if (e.ctrlKey || e.metaKey) {
          e.preventDefault();
          onSelectionChange(new Set(items.map(keyOf)));
        }
        break;
    }
  };

  /** The ⋮ button: the same menu, anchored where the button is (touch and keyboard friendly). */
  const openMenuFrom = (el: HTMLElement) => {
    const r = el.getBoundingClientRect();
    el.dispatchEvent(
      new globalThis.MouseEvent('contextmenu', {
        bubbles: true,
        cancelable: true,
        clientX: r.left,
        clientY: r.bottom,
      }),
    );
  };

  const allSelected = items.length > 0 && items.every((i) => selection.has(keyOf(i)));
  const someSelected = !allSelected && items.some((i) => selection.has(keyOf(i)));
  const sortIcon = (by: SortBy) =>
    props.sort.by === by ? (
      props.sort.order === 'asc' ? (
        <IconArrowUp size={12} aria-hidden />
      ) : (
        <IconArrowDown size={12} aria-hidden />
      )
    ) : null;
  const sortHeader = (by: SortBy, label: string) => (
    <UnstyledButton
      className={classes.sortButton}
      onClick={() => props.onSort(by)}
      aria-label={`${tDrive.toolbar.sort}：${label}`}
    >
      {label}
      {sortIcon(by)}
    </UnstyledButton>
  );

  const rowsHeight = virtualizer.getTotalSize();
  const virtualRows = virtualizer.getVirtualItems();

  const renderRow = (index: number, offset: number) => {
    const item = items[index];
    if (!item) return null;
    const key = keyOf(item);
    const selected = selection.has(key);
    const name = joinName(item.fileName, item.extendName);
    const time = props.recycle ? item.deleteTime : item.uploadTime;
    return (
      <div
        key={key}
        role="row"
        aria-rowindex={index + 2}
        aria-selected={selected}
        className={classes.row}
        data-index={index}
        data-testid="file-row"
        data-name={name}
        data-selected={selected || undefined}
        data-focused={index === focusIndex || undefined}
        data-pending={item.pending || undefined}
        style={{ transform: `translateY(${offset}px)`, top: 0 }}
        onClick={(e) => onItemClick(index, e)}
        onDoubleClick={() => props.onOpen(item)}
        title={name}
      >
        <div role="gridcell" className={classes.check} onClick={(e) => e.stopPropagation()}>
          <Checkbox
            size="sm"
            checked={selected}
            onChange={() => toggle(index)}
            aria-label={tDrive.selection.select(name)}
          />
        </div>
        <div role="gridcell" className={classes.nameCell}>
          <FileThumb area={props.thumbArea} item={item} size={narrow ? 30 : 26} />
          <div style={{ minWidth: 0 }}>
            <div className={classes.name} data-testid="file-name">
              {highlighted(name, props.highlights?.get(item.userFileId))}
            </div>
            <div className={classes.subline}>
              {[
                item.isDir ? null : formatSize(item.fileSize),
                time,
                withPath ? (item.filePath === '/' ? tDrive.rootName : item.filePath) : null,
              ]
                .filter(Boolean)
                .join(' · ')}
            </div>
          </div>
          {item.pending && (
            <Badge
              size="xs"
              color="yellow"
              variant="light"
              data-testid="pending-badge"
              style={{ flex: 'none' }}
            >
              {tDrive.pendingBadge}
            </Badge>
          )}
        </div>
        {withPath ? (
          <div role="gridcell" className={classes.meta} title={item.filePath}>
            {item.filePath === '/' ? tDrive.rootName : item.filePath}
          </div>
        ) : (
          <div role="gridcell" className={classes.meta}>
            {typeText(item)}
          </div>
        )}
        <div role="gridcell" className={classes.meta}>
          {item.isDir ? '—' : formatSize(item.fileSize)}
        </div>
        <div role="gridcell" className={classes.meta}>
          {time ?? '—'}
        </div>
        <div role="gridcell" className={classes.moreCell}>
          <ActionIcon
            variant="subtle"
            color="gray"
            size={36}
            aria-label={tDrive.toolbar.more}
            onClick={(e) => {
              e.stopPropagation();
              openMenuFrom(e.currentTarget);
            }}
          >
            <IconDotsVertical size={18} />
          </ActionIcon>
        </div>
      </div>
    );
  };

  const renderGridRow = (rowIndex: number, offset: number) => {
    const cells = [];
    for (let c = 0; c < columns; c++) {
      const index = rowIndex * columns + c;
      const item = items[index];
      if (!item) break;
      const key = keyOf(item);
      const selected = selection.has(key);
      const name = joinName(item.fileName, item.extendName);
      cells.push(
        <div
          key={key}
          role="gridcell"
          aria-selected={selected}
          className={classes.cell}
          data-index={index}
          data-testid="file-cell"
          data-name={name}
          data-selected={selected || undefined}
          data-focused={index === focusIndex || undefined}
          style={{ height: cell.h }}
          onClick={(e) => onItemClick(index, e)}
          onDoubleClick={() => props.onOpen(item)}
          title={name}
        >
          <div className={classes.cellCheck} onClick={(e) => e.stopPropagation()}>
            <Checkbox
              size="xs"
              checked={selected}
              onChange={() => toggle(index)}
              aria-label={tDrive.selection.select(name)}
            />
          </div>
          {item.pending && (
            <Badge
              size="xs"
              color="yellow"
              variant="light"
              className={classes.cellBadge}
              data-testid="pending-badge"
            >
              {tDrive.pendingBadge}
            </Badge>
          )}
          <FileThumb area={props.thumbArea} item={item} size={gridSize} />
          <div className={classes.cellName} data-testid="file-name">
            {highlighted(name, props.highlights?.get(item.userFileId))}
          </div>
        </div>,
      );
    }
    return (
      <div
        key={rowIndex}
        role="row"
        className={classes.gridRow}
        style={{
          transform: `translateY(${offset}px)`,
          top: 0,
          gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
        }}
      >
        {cells}
      </div>
    );
  };

  const timeLabel = props.recycle ? tDrive.columns.deleteTime : tDrive.columns.uploadTime;

  return (
    <Menu shadow="md" width={168} position="bottom-start" withinPortal onOpen={onMenuOpen}>
      <Menu.ContextMenu>
        <div
          ref={mergedRef}
          className={`${classes.scroller} ${narrow ? classes.narrow : ''} ${withPath ? classes.withPath : ''}`}
          role="grid"
          aria-label={props.label}
          aria-multiselectable
          aria-rowcount={items.length + 1}
          tabIndex={0}
          data-testid="file-browser"
          data-mode={mode}
          onKeyDown={onKeyDown}
          onContextMenu={(e) => aimMenu(e.target)}
          onTouchStart={(e) => aimMenu(e.target)}
          onClick={(e) => {
            // A click on empty space clears the selection, as on a desktop.
            if (!itemAt(e.target) && e.target === e.currentTarget) onSelectionChange(new Set());
          }}
        >
          {list && (
            <div role="row" className={classes.listHead} style={{ position: 'sticky', top: 0, zIndex: 2 }}>
              <div role="columnheader" className={classes.check}>
                <Checkbox
                  size="sm"
                  checked={allSelected}
                  indeterminate={someSelected}
                  disabled={items.length === 0}
                  onChange={() => onSelectionChange(allSelected ? new Set() : new Set(items.map(keyOf)))}
                  aria-label={tDrive.selection.selectAll}
                />
              </div>
              <div role="columnheader" className={classes.headCell}>
                {sortHeader('name', tDrive.columns.name)}
              </div>
              <div role="columnheader" className={`${classes.headCell} ${classes.meta}`}>
                {withPath ? tDrive.columns.path : tDrive.columns.type}
              </div>
              <div role="columnheader" className={`${classes.headCell} ${classes.meta}`}>
                {sortHeader('size', tDrive.columns.size)}
              </div>
              <div role="columnheader" className={`${classes.headCell} ${classes.meta}`}>
                {sortHeader('time', timeLabel)}
              </div>
              <div role="columnheader" className={classes.moreCell} />
            </div>
          )}
          {items.length === 0 ? (
            props.empty
          ) : (
            <div style={{ height: rowsHeight, position: 'relative' }}>
              {virtualRows.map((v) =>
                list ? renderRow(v.index, v.start - HEAD) : renderGridRow(v.index, v.start),
              )}
            </div>
          )}
        </div>
      </Menu.ContextMenu>
      <Menu.Dropdown data-testid="context-menu" aria-label={tDrive.menu.label}>
        {props.renderMenu(target)}
      </Menu.Dropdown>
    </Menu>
  );
}
