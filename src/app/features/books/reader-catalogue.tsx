import {
  Alert,
  Button,
  Card,
  Collapse,
  Drawer,
  EmptyState,
  Group,
  NumberInput,
  Pagination,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useLocalStorage, useMediaQuery } from '@mantine/hooks';
import { IconBooks, IconFilter, IconLayoutGrid, IconList, IconWifiOff } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import type { RecordNames, RecordPage, RecordRow } from '../../../shared/records/api';
import { bsBookInfo, LEND_MODES } from '../../../shared/records/book/books';
import { CLC_CLASSES } from '../../../shared/records/validators';
import { CachedViewState } from '../../components/cached-state';
import { useDialogEscape } from '../../components/dialog-escape';
import { OfflineNote } from '../../components/offline-note';
import { SearchField } from '../../components/search-field';
import { tBooksReader } from '../../lib/i18n/books-reader';
import { useOnline } from '../../lib/online';
import { useRecordPage } from '../../lib/records';
import { ApplyDialog } from './reader-apply-dialog';
import { AskButton, Availability, BookCover, EbookLink, issueLine, titleOf } from './reader-book-parts';
import { bookFactsOf } from './reader-rules';
import classes from './reader.module.css';

const B = tBooksReader;
const EMPTY_NAMES: RecordNames = { users: {}, depts: {} };
const PAGE_SIZE = 24;
const filterWidth = { flex: '1 1 160px', minWidth: 150, maxWidth: 280 };

type Kind = 1 | 2 | 3;

/**
 * A reader's catalogue (图书查阅 /books/book, 期刊查阅 /books/periodical, 出版物查阅
 * /books/publication): one kind of the catalogue as covers (a grid on a tablet, a list with
 * thumbnails on request and always on a phone ≤ 768 px), searched by title, author or ISBN and
 * filtered by class, publisher, year (periodicals), location, 流通方式 and 状态 (在架 by
 * default; weeded rows are never shown). Each row says 可借 n / 馆藏 m and carries its 借阅 or
 * 领用 button; a tap opens its detail. Every page read is kept on the device and opens offline
 * with its sync time; asking needs the network and says so.
 */
export function ReaderCataloguePage({ type }: { type: Kind }) {
  const narrow = useMediaQuery('(max-width: 768px)');
  const online = useOnline();
  const [mode, setMode] = useLocalStorage<'grid' | 'list'>({
    key: 'books-reader-view',
    defaultValue: 'grid',
  });
  const [query, setQuery] = useState<Record<string, unknown>>({
    currentPage: 1,
    pageCount: PAGE_SIZE,
    status: 1,
  });
  const full = useMemo(() => ({ ...query, type }), [query, type]);
  const view = useRecordPage(bsBookInfo, full);
  const [open, setOpen] = useState<RecordRow | null>(null);
  const [asking, setAsking] = useState<{ row: RecordRow; applyType: 1 | 2 } | null>(null);

  // While a new search or filter loads, the covers already shown stay (a tablet's grid does not
  // blink to a spinner at each key); offline, a search never made shows 尚未离线缓存 instead.
  const [shown, setShown] = useState<RecordPage | undefined>(undefined);
  if (view.data && view.data !== shown) setShown(view.data);
  const page = view.data ?? (view.status === 'loading' ? shown : undefined);
  const names = page?.names ?? EMPTY_NAMES;
  const rows = page?.list ?? [];
  const set = (patch: Record<string, unknown>) => setQuery((q) => ({ ...q, ...patch, currentPage: 1 }));
  const ask = (row: RecordRow) => (applyType: 1 | 2) => setAsking({ row, applyType });
  const asList = narrow || mode === 'list';
  const [filtersOpen, setFiltersOpen] = useState(false);
  const activeFilters =
    ['clcClass', 'publisher', 'year', 'location', 'lendMode'].filter((k) => query[k] !== undefined).length +
    (query.status === 1 ? 0 : 1);
  // The detail follows the list: after a request its copies are the fresh ones.
  const openRow = open ? (rows.find((r) => r.id === open.id) ?? open) : null;

  let body;
  if (!page) body = <CachedViewState view={view} />;
  else if (!rows.length)
    body = (
      <EmptyState
        py="xl"
        icon={<IconBooks size={28} />}
        title={B.empty}
        description={B.emptyHint}
        data-testid="books-empty"
      />
    );
  else if (asList)
    body = (
      <Stack gap="sm" data-testid="books-list">
        {rows.map((row) => (
          <BookLine
            key={row.id}
            row={row}
            names={names}
            online={online}
            onOpen={() => setOpen(row)}
            onAsk={ask(row)}
          />
        ))}
      </Stack>
    );
  else
    body = (
      <SimpleGrid cols={{ base: 2, sm: 3, md: 4, xl: 6 }} spacing="md" data-testid="books-grid">
        {rows.map((row) => (
          <BookTile
            key={row.id}
            row={row}
            names={names}
            online={online}
            onOpen={() => setOpen(row)}
            onAsk={ask(row)}
          />
        ))}
      </SimpleGrid>
    );

  const pages = page ? Math.max(1, Math.ceil(page.total / PAGE_SIZE)) : 1;
  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }} data-testid={`books-reader-${type}`}>
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Group gap="xs" wrap="nowrap">
          <Title order={3}>{B.titles[type]}</Title>
          {page && (
            <Text size="sm" c="dimmed" data-testid="books-total">
              {B.total(page.total)}
            </Text>
          )}
          <OfflineNote view={view} />
        </Group>
        {!narrow && (
          <SegmentedControl
            aria-label={B.viewMode}
            value={mode}
            onChange={(v) => setMode(v as 'grid' | 'list')}
            data={[
              {
                value: 'grid',
                label: (
                  <Group gap={4} wrap="nowrap">
                    <IconLayoutGrid size={16} />
                    {B.grid}
                  </Group>
                ),
              },
              {
                value: 'list',
                label: (
                  <Group gap={4} wrap="nowrap">
                    <IconList size={16} />
                    {B.list}
                  </Group>
                ),
              },
            ]}
          />
        )}
      </Group>
      <Text size="sm" c="dimmed">
        {B.intros[type]}
      </Text>
      {!online && (
        <Alert color="yellow" variant="light" icon={<IconWifiOff size={18} />} data-testid="books-offline">
          {B.offlineBanner}
        </Alert>
      )}
      <Card withBorder radius="md" padding="sm">
        <Stack gap="sm">
          <Group gap="sm" wrap="nowrap">
            <SearchField
              placeholder={B.search}
              onSearch={(keyword) => set({ keyword: keyword || undefined })}
              style={{ flex: 1 }}
            />
            {narrow && (
              <Button
                variant={filtersOpen ? 'light' : 'default'}
                leftSection={<IconFilter size={16} />}
                onClick={() => setFiltersOpen((o) => !o)}
                aria-expanded={filtersOpen}
                style={{ flex: 'none' }}
              >
                {B.filters(activeFilters)}
              </Button>
            )}
          </Group>
          {/* On a phone the filters fold away under 筛选 (kept mounted, so typed words stay). */}
          <Collapse expanded={!narrow || filtersOpen}>
            <Group gap="sm" wrap="wrap">
              <Select
                aria-label={B.clcClass}
                placeholder={B.clcClass}
                data={CLC_CLASSES.map((c) => ({ value: c.value, label: `${c.value} ${c.label}` }))}
                value={(query.clcClass as string | undefined) ?? null}
                onChange={(v) => set({ clcClass: v ?? undefined })}
                clearable
                searchable
                style={filterWidth}
              />
              <SearchField
                placeholder={B.publisher}
                onSearch={(v) => set({ publisher: v || undefined })}
                style={filterWidth}
              />
              {type === 2 && (
                <NumberInput
                  aria-label={B.year}
                  placeholder={B.year}
                  min={1800}
                  max={2200}
                  allowDecimal={false}
                  value={(query.year as number | undefined) ?? ''}
                  onChange={(v) => set({ year: v === '' ? undefined : Number(v) })}
                  style={{ flex: '0 1 120px', minWidth: 100 }}
                />
              )}
              <SearchField
                placeholder={B.location}
                onSearch={(v) => set({ location: v || undefined })}
                style={filterWidth}
              />
              <Select
                aria-label={B.lendMode}
                placeholder={B.lendMode}
                data={LEND_MODES.map((o) => ({ value: String(o.value), label: o.label }))}
                value={query.lendMode === undefined ? null : String(query.lendMode)}
                onChange={(v) => set({ lendMode: v ? Number(v) : undefined })}
                clearable
                style={filterWidth}
              />
              <Select
                aria-label={B.state}
                data={[
                  { value: '1', label: B.shelved },
                  { value: '2', label: B.stopped },
                ]}
                value={String(query.status)}
                onChange={(v) => set({ status: Number(v ?? 1) })}
                allowDeselect={false}
                style={{ flex: '0 1 110px', minWidth: 100 }}
              />
            </Group>
          </Collapse>
          {body}
          {page && pages > 1 && (
            <Group justify="center">
              <Pagination
                total={pages}
                value={query.currentPage as number}
                onChange={(p) => setQuery((q) => ({ ...q, currentPage: p }))}
                size="sm"
              />
            </Group>
          )}
        </Stack>
      </Card>
      <BookDetail
        row={openRow}
        names={names}
        online={online}
        onClose={() => setOpen(null)}
        onAsk={(applyType) => openRow && setAsking({ row: openRow, applyType })}
      />
      {asking && (
        <ApplyDialog
          book={{ id: asking.row.id, title: titleOf(asking.row) }}
          applyType={asking.applyType}
          onClose={() => setAsking(null)}
        />
      )}
    </Stack>
  );
}

interface RowProps {
  row: RecordRow;
  names: RecordNames;
  online: boolean;
  onOpen: () => void;
  onAsk: (applyType: 1 | 2) => void;
}

/** A cover in the grid: the cover, title, author or issue, copies, and the button. */
function BookTile({ row, names, online, onOpen, onAsk }: RowProps) {
  const title = titleOf(row);
  return (
    <Card withBorder radius="md" padding="xs" data-testid="book-tile">
      <Stack gap={6} h="100%">
        {/* The cover opens the detail for a tap; the title is the button (its name says the book). */}
        <div className={classes.card} onClick={onOpen} aria-hidden>
          <BookCover row={row} names={names} />
        </div>
        <UnstyledButton onClick={onOpen} aria-label={B.detailOf(title)} className={classes.card}>
          <Text fw={600} size="sm" lineClamp={2}>
            {title}
          </Text>
        </UnstyledButton>
        <Text size="xs" c="dimmed" lineClamp={1}>
          {issueLine(row) || String(row.author ?? '') || String(row.publisher ?? '')}
        </Text>
        <Group gap={6} justify="space-between" wrap="wrap" mt="auto">
          <Availability row={row} />
          <EbookLink row={row} online={online} />
        </Group>
        <AskButton row={row} online={online} onAsk={onAsk} fullWidth />
      </Stack>
    </Card>
  );
}

/** A line of the list (and every row on a phone): a thumbnail, the facts, the button. */
function BookLine({ row, names, online, onOpen, onAsk }: RowProps) {
  const title = titleOf(row);
  const sub = [
    issueLine(row),
    String(row.author ?? ''),
    [row.publisher, row.publishDate].filter(Boolean).join(' '),
  ].filter(Boolean);
  return (
    <Card withBorder radius="md" padding="sm" data-testid="book-line">
      <Group gap="sm" align="flex-start" wrap="nowrap">
        <div className={`${classes.thumb} ${classes.card}`} onClick={onOpen} aria-hidden>
          <BookCover row={row} names={names} />
        </div>
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <UnstyledButton onClick={onOpen} aria-label={B.detailOf(title)}>
            <Text fw={600} size="sm" lineClamp={2}>
              {title}
            </Text>
          </UnstyledButton>
          {sub.length > 0 && (
            <Text size="xs" c="dimmed" lineClamp={2}>
              {sub.join(' · ')}
            </Text>
          )}
          <Text size="xs" c="dimmed" lineClamp={1}>
            {[row.isbn ? `ISBN ${String(row.isbn)}` : '', row.callNo, row.location]
              .filter(Boolean)
              .join(' · ')}
          </Text>
          <Group gap="xs" justify="space-between" wrap="wrap" mt={2}>
            <Group gap="xs" wrap="wrap">
              <Availability row={row} />
              <EbookLink row={row} online={online} />
            </Group>
            <AskButton row={row} online={online} onAsk={onAsk} />
          </Group>
        </Stack>
      </Group>
    </Card>
  );
}

/**
 * A row's detail: the cover, every fact that is filled in, the summary, copies and the button.
 * It reads the row the list already holds, so it opens offline like the list.
 */
function BookDetail({
  row,
  names,
  online,
  onClose,
  onAsk,
}: {
  row: RecordRow | null;
  names: RecordNames;
  online: boolean;
  onClose: () => void;
  onAsk: (applyType: 1 | 2) => void;
}) {
  const escape = useDialogEscape(onClose, row !== null);
  return (
    <Drawer
      opened={row !== null}
      onClose={onClose}
      position="right"
      size={520}
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': B.closeDetail }}
      title={B.detailTitle}
      {...escape}
    >
      {row && (
        <Stack gap="md" data-testid="book-detail">
          <Group align="flex-start" gap="md" wrap="nowrap">
            <div style={{ width: 120, flex: 'none' }}>
              <BookCover row={row} names={names} />
            </div>
            <Stack gap={6} style={{ minWidth: 0 }}>
              <Title order={4} style={{ wordBreak: 'break-word' }}>
                {titleOf(row)}
              </Title>
              {issueLine(row) && <Text size="sm">{issueLine(row)}</Text>}
              <Availability row={row} />
              <Group gap="sm">
                <AskButton row={row} online={online} onAsk={onAsk} />
                <EbookLink row={row} online={online} />
              </Group>
            </Stack>
          </Group>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="xs">
            {bookFactsOf(row).map((f) => (
              <div key={f.label}>
                <Text size="xs" c="dimmed">
                  {f.label}
                </Text>
                <Text size="sm" style={{ wordBreak: 'break-word' }}>
                  {f.value}
                </Text>
              </div>
            ))}
          </SimpleGrid>
          {typeof row.summary === 'string' && row.summary && (
            <div>
              <Text size="xs" c="dimmed" mb={4}>
                {B.summary}
              </Text>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {row.summary}
              </Text>
            </div>
          )}
        </Stack>
      )}
    </Drawer>
  );
}
