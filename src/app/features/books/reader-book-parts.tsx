import { Anchor, Badge, Button, Group, Text, Tooltip } from '@mantine/core';
import { IconBook2, IconDownload, IconGift, IconWifiOff } from '@tabler/icons-react';
import { useState } from 'react';
import type { RecordNames, RecordRow } from '../../../shared/records/api';
import { tBooksReader } from '../../lib/i18n/books-reader';
import { ebookHref } from './reader-api';
import { askStateOf, copiesOf } from './reader-rules';
import classes from './reader.module.css';

const B = tBooksReader;
/** Spine colours at shade 9: white text on each meets WCAG AA (4.5 : 1). */
const SPINES = ['teal', 'indigo', 'grape', 'blue', 'cyan', 'red', 'violet', 'pink'];

/** A periodical's issue after its title (2024年第3期); nothing for a book. */
export function titleOf(row: RecordRow): string {
  return String(row.title ?? '');
}
export function issueLine(row: RecordRow): string {
  return Number(row.type) === 2 && row.issue ? B.issueOf(row.year ?? '', row.issue) : '';
}

/**
 * A row's cover: its image when it has one and the image loads, else a spine-coloured card with
 * the title (the colour follows the title, so a book keeps its colour from visit to visit).
 */
export function BookCover({ row, names }: { row: RecordRow; names: RecordNames }) {
  const [failed, setFailed] = useState(false);
  const id = (row.cover as number[] | undefined)?.[0];
  const file = id ? names.files?.[String(id)] : undefined;
  const title = titleOf(row);
  if (file && !failed)
    return (
      <div className={classes.cover}>
        <img src={file.attPath} alt={B.coverOf(title)} loading="lazy" onError={() => setFailed(true)} />
      </div>
    );
  let hash = 0;
  for (const ch of title) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const color = SPINES[hash % SPINES.length]!;
  return (
    <div className={classes.cover} style={{ background: `var(--mantine-color-${color}-9)` }} aria-hidden>
      <div className={classes.blank}>
        <span className={classes.blankTitle}>{title}</span>
        <span>{issueLine(row) || String(row.author ?? '')}</span>
      </div>
    </div>
  );
}

/** 可借 n / 馆藏 m (可领 for a 领用 row), 仅供阅览, or 已停借: what the reader can expect at the desk. */
export function Availability({ row }: { row: RecordRow }) {
  if (Number(row.lendMode) === 3)
    return (
      <Badge color="gray" variant="light" radius="sm">
        {B.readOnly}
      </Badge>
    );
  if (Number(row.status ?? 1) !== 1)
    return (
      <Badge color="orange" variant="light" radius="sm">
        {B.stopped}
      </Badge>
    );
  const { free, total } = copiesOf(row);
  return (
    <Badge color={free > 0 ? 'green' : 'red'} variant="light" radius="sm" data-testid="book-copies">
      {Number(row.lendMode) === 2 ? B.copiesGift(free, total) : B.copies(free, total)}
    </Badge>
  );
}

/**
 * The 借阅 / 领用 button of a row. Offline it says the request needs the network and does
 * nothing (no request is queued); a row read in the room or out of circulation has none.
 * Its accessible name names the book (借阅《…》).
 */
export function AskButton({
  row,
  online,
  onAsk,
  fullWidth,
}: {
  row: RecordRow;
  online: boolean;
  onAsk: (applyType: 1 | 2) => void;
  fullWidth?: boolean;
}) {
  const state = askStateOf(row, online);
  if (state.kind === 'readOnly' || state.kind === 'stopped') return null;
  const title = titleOf(row);
  if (state.kind === 'offline')
    return (
      <Button
        size="xs"
        variant="default"
        disabled
        fullWidth={fullWidth}
        leftSection={<IconWifiOff size={14} />}
        data-testid="ask-offline"
      >
        {B.needsNetwork[state.applyType]}
      </Button>
    );
  const borrowing = state.applyType === 1;
  return (
    <Button
      size="xs"
      fullWidth={fullWidth}
      leftSection={borrowing ? <IconBook2 size={14} /> : <IconGift size={14} />}
      aria-label={borrowing ? B.borrowOf(title) : B.receiveOf(title)}
      onClick={(e) => {
        e.stopPropagation();
        onAsk(state.applyType);
      }}
    >
      {borrowing ? B.borrow : B.receive}
    </Button>
  );
}

/** 下载电子版 for a row with an e-book: a link the browser follows (offline it says so). */
export function EbookLink({ row, online }: { row: RecordRow; online: boolean }) {
  if (!(row.ebookFileId as number[] | undefined)?.length) return null;
  const title = titleOf(row);
  if (!online)
    return (
      <Tooltip label={B.ebookOffline}>
        <Text size="xs" c="dimmed" span>
          {B.ebook}
        </Text>
      </Tooltip>
    );
  return (
    <Anchor
      href={ebookHref(row.id)}
      download=""
      rel="noopener"
      size="sm"
      aria-label={B.ebookOf(title)}
      onClick={(e) => e.stopPropagation()}
    >
      <Group gap={4} wrap="nowrap" component="span">
        <IconDownload size={14} />
        {B.ebook}
      </Group>
    </Anchor>
  );
}
