import { Badge, Card, Group, Stack, Text } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type ReactNode } from 'react';
import type { RecordRow } from '../../../shared/records/api';
import type { Field, RecordDef } from '../../../shared/records/define';
import { tRecords } from '../../lib/i18n/records';
import { FieldView, type ViewContext } from './field-view';
import classes from './records.module.css';

/**
 * The two faces of a record list: a virtualized table on tablets and desktops (only the rows in
 * view are in the page, so a long page scrolls smoothly on a gallery tablet), and a card per row
 * on phones (≤ 768 px). Both open the detail on a tap and carry the row's actions.
 */

export interface RowMark {
  /** 待同步 / 待同步删除: a queued write waits for this row; or a page's own (已逾期). */
  label: string;
  color: string;
}

interface ViewProps {
  def: RecordDef;
  rows: readonly RecordRow[];
  columns: readonly [string, Field][];
  ctx: ViewContext;
  onOpen: (row: RecordRow) => void;
  actions: (row: RecordRow) => ReactNode;
  mark: (row: RecordRow) => readonly RowMark[];
  /** How a card names its row (the record's `describe` unless the page says otherwise). */
  describe?: (row: RecordRow) => string;
}

const ROW_HEIGHT = 52;
const ACTIONS_WIDTH = 210;
/** A log's rows have one action, 查看 (a tap on the row opens it too): room for the columns. */
const LOG_ACTIONS_WIDTH = 96;

export function RecordTable({ def, rows, columns, ctx, onOpen, actions, mark }: ViewProps) {
  const scroller = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const actionsWidth = def.shape === 'log' ? LOG_ACTIONS_WIDTH : ACTIONS_WIDTH;
  const template = [
    ...columns.map(([, fd]) => (fd.width ? `${fd.width}px` : 'minmax(140px, 1fr)')),
    `${actionsWidth}px`,
  ].join(' ');
  const minWidth = columns.reduce((n, [, fd]) => n + (fd.width ?? 140), actionsWidth);
  return (
    <div
      ref={scroller}
      className={classes.scroller}
      role="table"
      aria-label={def.title}
      aria-rowcount={rows.length + 1}
    >
      <div className={classes.head} role="row" style={{ gridTemplateColumns: template, minWidth }}>
        {columns.map(([key, fd]) => (
          <div key={key} role="columnheader" className={classes.cell}>
            {fd.label}
          </div>
        ))}
        <div role="columnheader" className={`${classes.cell} ${classes.actions}`}>
          {tRecords.actions}
        </div>
      </div>
      <div style={{ height: virtual.getTotalSize(), position: 'relative', minWidth }}>
        {virtual.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          const marks = mark(row);
          return (
            <div
              key={row.id}
              role="row"
              aria-rowindex={item.index + 2}
              data-testid="record-row"
              data-index={item.index}
              ref={virtual.measureElement}
              className={classes.row}
              style={{ gridTemplateColumns: template, transform: `translateY(${item.start}px)` }}
              tabIndex={0}
              onClick={() => onOpen(row)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && e.target === e.currentTarget) onOpen(row);
              }}
            >
              {columns.map(([key, fd], i) => (
                <div key={key} role="cell" className={classes.cell}>
                  <FieldView fd={fd} value={row[key]} ctx={ctx} />
                  {i === 0 &&
                    marks.map((m) => (
                      <Badge key={m.label} size="xs" variant="light" color={m.color} ml={6}>
                        {m.label}
                      </Badge>
                    ))}
                </div>
              ))}
              <div
                role="cell"
                className={`${classes.cell} ${classes.actions}`}
                onClick={(e) => e.stopPropagation()}
              >
                <Group gap={2} wrap="wrap">
                  {actions(row)}
                </Group>
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}

export function RecordCards({ def, rows, columns, ctx, onOpen, actions, mark, describe }: ViewProps) {
  return (
    <Stack gap="sm" role="list" aria-label={def.title}>
      {rows.map((row) => {
        const marks = mark(row);
        return (
          <Card key={row.id} withBorder radius="md" padding="sm" role="listitem" data-testid="record-card">
            <Stack gap={6} onClick={() => onOpen(row)} style={{ cursor: 'pointer' }}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text fw={600} size="sm" style={{ wordBreak: 'break-word' }}>
                  {describe ? describe(row) : def.describe(row)}
                </Text>
                {marks.map((m) => (
                  <Badge key={m.label} size="xs" variant="light" color={m.color} style={{ flex: 'none' }}>
                    {m.label}
                  </Badge>
                ))}
              </Group>
              {columns.map(([key, fd]) => (
                <Group key={key} gap="xs" wrap="nowrap" align="flex-start">
                  <Text size="xs" c="dimmed" w={72} style={{ flex: 'none' }}>
                    {fd.label}
                  </Text>
                  <div style={{ minWidth: 0 }}>
                    <FieldView fd={fd} value={row[key]} ctx={ctx} />
                  </div>
                </Group>
              ))}
            </Stack>
            <Group gap={4} mt="xs" wrap="wrap">
              {actions(row)}
            </Group>
          </Card>
        );
      })}
    </Stack>
  );
}
