import {
  ActionIcon,
  Alert,
  Button,
  Menu,
  Card,
  EmptyState,
  Group,
  NumberInput,
  Pagination,
  Select,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import {
  IconArrowDown,
  IconArrowUp,
  IconDots,
  IconDownload,
  IconEye,
  IconInbox,
  IconPencil,
  IconPlus,
  IconRefresh,
  IconTrash,
  IconUpload,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import type { RecordNames, RecordRow } from '../../../shared/records/api';
import {
  dictKeysOf,
  filterFields,
  holdsGrant,
  statusOptions,
  transitionRequest,
  type Field,
  type Grant,
  type RecordDef,
  type Transition,
} from '../../../shared/records/define';
import { CachedViewState } from '../../components/cached-state';
import { confirmAction } from '../../components/confirm-action';
import { OfflineNote } from '../../components/offline-note';
import { PeoplePicker } from '../../components/people-picker';
import { RowAction } from '../../components/row-action';
import { SearchField } from '../../components/search-field';
import { errorToast } from '../../lib/api';
import { tRecords } from '../../lib/i18n/records';
import { useOutbox } from '../../lib/offline';
import {
  exportRecord,
  pendingFor,
  recordKeys,
  useDictionaries,
  useFilterChoices,
  useRecordPage,
  writeRecord,
} from '../../lib/records';
import { useSession } from '../../lib/session';
import { RefFilter } from './compound-input';
import type { ViewContext } from './field-view';
import { useDeptOptions } from './field-input';
import { ImportDialog } from '../../components/import-dialog';
import { RecordDetailDrawer } from './record-detail';
import { RecordForm, type FieldAddons } from './record-form';
import { RecordCards, RecordTable, type RowMark } from './record-views';
import { TransitionDialog } from './transition-dialog';

const R = tRecords;
const EMPTY_NAMES: RecordNames = { users: {}, depts: {} };
const PAGE_SIZES = [20, 50, 100];

/** Whether the signed-in person holds a menu grant (the server checks again on every call). */
export function useGrant(key: Grant | null): boolean {
  const state = useSession();
  return holdsGrant(new Set(state?.menu.grantedKeys ?? []), key);
}

/** One filter of the list, drawn from its field (the status is a row of tabs instead). */
function FilterInput({
  name,
  fd,
  query,
  set,
  options,
  choices,
}: {
  name: string;
  fd: Field;
  query: Record<string, unknown>;
  set: (patch: Record<string, unknown>) => void;
  options: Record<string, { label: string; value: string }[]>;
  /** The values a text filter may take, when the record's calls offer them (a log's modules). */
  choices?: readonly { value: string; label: string }[];
}) {
  const depts = useDeptOptions(fd.kind === 'dept');
  const [people, setPeople] = useState<{ id: number; name: string }[]>([]);
  // Filters share a row on a tablet and take a line each, full width, on a phone.
  const width = { flex: '1 1 180px', minWidth: 160, maxWidth: 320 };
  if (fd.filter === 'range') {
    if (fd.kind === 'date' || fd.kind === 'datetime') {
      const from = query[`${name}From`] as string | undefined;
      const to = query[`${name}To`] as string | undefined;
      const day = (v: string | undefined) => (v ? v.slice(0, 10) : null);
      return (
        <DatePickerInput
          type="range"
          aria-label={R.range(fd.label)}
          placeholder={R.range(fd.label)}
          valueFormat="YYYY-MM-DD"
          clearable
          allowSingleDateInRange
          value={[day(from), day(to)]}
          onChange={([a, b]) =>
            set({
              [`${name}From`]: a ? (fd.kind === 'datetime' ? `${a} 00:00` : a) : undefined,
              [`${name}To`]: b ? (fd.kind === 'datetime' ? `${b} 23:59` : b) : undefined,
            })
          }
          style={{ flex: '1 1 240px', minWidth: 220, maxWidth: 340 }}
          data-testid={`filter-${name}`}
        />
      );
    }
    return (
      <Group gap={4} wrap="nowrap" style={width}>
        <NumberInput
          aria-label={`${fd.label}${R.from}`}
          placeholder={`${fd.label}≥`}
          value={(query[`${name}From`] as number | undefined) ?? ''}
          onChange={(v) => set({ [`${name}From`]: v === '' ? undefined : v })}
        />
        <NumberInput
          aria-label={`${fd.label}${R.to}`}
          placeholder="≤"
          value={(query[`${name}To`] as number | undefined) ?? ''}
          onChange={(v) => set({ [`${name}To`]: v === '' ? undefined : v })}
        />
      </Group>
    );
  }
  if (fd.kind === 'user' || fd.kind === 'users')
    return (
      <div style={{ flex: '1 1 200px', minWidth: 180, maxWidth: 320 }}>
        <PeoplePicker
          value={people}
          onChange={(p) => {
            setPeople(p.slice(-1));
            set({ [name]: p.at(-1)?.id });
          }}
          max={1}
          testId={`filter-${name}`}
        />
      </div>
    );
  if ((fd.kind === 'text' || fd.kind === 'textarea') && choices)
    return (
      <Select
        aria-label={fd.label}
        placeholder={fd.label}
        data={[...choices]}
        value={query[name] === undefined ? null : String(query[name])}
        onChange={(v) => set({ [name]: v ?? undefined })}
        clearable
        searchable
        style={width}
        data-testid={`filter-${name}`}
      />
    );
  if (fd.kind === 'ref' || fd.kind === 'refs')
    return (
      <RefFilter
        name={name}
        fd={fd}
        value={query[name] === undefined ? null : String(query[name])}
        onChange={(v) => set({ [name]: v ? Number(v) : undefined })}
        style={width}
      />
    );
  // A text or number filtered by equality (a log's address, a code): typed, sent as it is.
  if (fd.kind === 'text' || fd.kind === 'textarea')
    return (
      <SearchField
        placeholder={fd.placeholder ?? fd.label}
        aria-label={fd.label}
        onSearch={(v) => set({ [name]: v || undefined })}
        style={width}
        data-testid={`filter-${name}`}
      />
    );
  if (fd.kind === 'int' || fd.kind === 'money')
    return (
      <NumberInput
        aria-label={fd.label}
        placeholder={fd.label}
        value={(query[name] as number | undefined) ?? ''}
        onChange={(v) => set({ [name]: v === '' ? undefined : v })}
        style={width}
        data-testid={`filter-${name}`}
      />
    );
  const data =
    fd.kind === 'dict'
      ? (options[fd.dict!] ?? [])
      : fd.kind === 'dept'
        ? depts
        : fd.kind === 'bool'
          ? [
              { value: 'true', label: R.yes },
              { value: 'false', label: R.no },
            ]
          : (fd.options ?? []).map((o) => ({ value: String(o.value), label: o.label }));
  return (
    <Select
      aria-label={fd.label}
      placeholder={fd.label}
      data={data}
      value={query[name] === undefined ? null : String(query[name])}
      onChange={(v) => set({ [name]: v ?? undefined })}
      clearable
      searchable={data.length > 8}
      style={width}
      data-testid={`filter-${name}`}
    />
  );
}

export interface RecordListPageProps {
  def: RecordDef;
  /** The page heading; the record's title by default. */
  title?: string;
  intro?: ReactNode;
  /** Filters the page fixes (an item list under its dictionary): sent, set on new rows, not shown. */
  fixed?: Record<string, unknown>;
  /** More buttons in the header. */
  extra?: ReactNode;
  /** Inside another page (no page padding, a smaller heading). */
  embedded?: boolean;
  /** The filters the page opens with, which the person may change (人员审核 opens on 待审核). */
  initial?: Record<string, unknown>;
  /** A page's own row actions (下载中心's 下载), shown first, to readers and writers alike. */
  rowActions?: (row: RecordRow) => RowActionDef[];
  /** A page's own helpers beside form fields (the catalogue's 按ISBN填充), by field key. */
  formAddons?: FieldAddons;
  /**
   * The grant that shows the write buttons and row actions (the record's write grant by
   * default): a librarian's queue of other people's applications acts by its decision grant.
   */
  grant?: Grant | null;
  /**
   * Which generic actions a row offers (`edit`, a transition's name, `delete`); all by default.
   * The server refuses the others anyway; a page hides what its people never do (an applicant's
   * 重新申请 on the librarian's queue).
   */
  allow?: (action: string, row: RecordRow) => boolean;
  /** A transition offered as several buttons, each fixing part of its input (同意续借 / 不同意). */
  variants?: Record<string, readonly TransitionVariant[]>;
  /** The status tabs shown (every status by default). */
  statuses?: readonly number[];
  /** Tabs after the status tabs that set other filters (已逾期), each with its count. */
  quickTabs?: readonly QuickTab[];
  /** The columns, in order (the fields marked `list` by default); names of `computed` allowed. */
  columns?: readonly string[];
  /** Columns the client computes from a row (可借 = 馆藏 − 待领取 − 在借). */
  computed?: Record<string, { field: Field; value: (row: RecordRow) => unknown }>;
  /** Filters this page does not offer (a 领用 queue has no 应还日期). */
  hideFilters?: readonly string[];
  /**
   * How a row is named in confirmations, the outbox and cards, with the page's names (赵磊借阅《…》
   * rather than 借阅申请 #4); the record's own `describe` by default.
   */
  describe?: (row: RecordRow, names: RecordNames) => string;
  /** A page's own mark on a row (已逾期), beside the outbox's 待同步. */
  badge?: (row: RecordRow) => RowMark | null;
  /** The form of this page: fields it leaves out and fields it requires (a kind's own fields). */
  form?: {
    hide?: readonly string[];
    required?: readonly string[];
    initial?: Record<string, unknown>;
    help?: Record<string, string>;
  };
}

/** One button of a transition with part of its input fixed; `input` replaces the fields asked. */
export interface TransitionVariant {
  key: string;
  label: string;
  preset: Record<string, unknown>;
  input?: Record<string, Field>;
  danger?: boolean;
}

/** A tab that sets filters (`{ overdue: true }`), active while the query holds them. */
export interface QuickTab {
  key: string;
  label: string;
  query: Record<string, unknown>;
  count?: number;
}

/** A row action a page adds to the generic ones. */
export interface RowActionDef {
  key: string;
  label: string;
  icon: typeof IconEye;
  color?: string;
  run: () => void;
}

/**
 * The records engine's list page, for any record (ARCHITECTURE.md §9): the filters its fields
 * declare, quick-count tabs per status, paging, a virtualized table on tablets and a card list on
 * phones; the detail drawer with the status timeline, the form drawer, confirmations, import and
 * export. Writers see the write buttons; readers read. The page is kept on the device and opens
 * offline with its last sync time; writes queue in the outbox without a network.
 */
export function RecordListPage({
  def,
  title,
  intro,
  fixed,
  extra,
  embedded,
  initial,
  rowActions,
  formAddons,
  grant,
  allow,
  variants,
  statuses,
  quickTabs,
  columns: columnNames,
  computed,
  hideFilters,
  badge,
  describe,
  form: formShape,
}: RecordListPageProps) {
  const narrow = useMediaQuery('(max-width: 768px)');
  const writer = useGrant(grant === undefined ? def.access.write : grant);
  const queryClient = useQueryClient();
  const [query, setQuery] = useState<Record<string, unknown>>({ currentPage: 1, pageCount: 20, ...initial });
  const choices = useFilterChoices(def);
  const fullQuery = useMemo(() => ({ ...query, ...fixed }), [query, fixed]);
  const view = useRecordPage(def, fullQuery);
  const dicts = useDictionaries(dictKeysOf(def));
  const ops = useOutbox();
  const pending = useMemo(() => pendingFor(def, ops), [def, ops]);
  const [openId, setOpenId] = useState<number | null>(null);
  const [form, setForm] = useState<{ row: RecordRow | null; names: RecordNames; nonce: number } | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [importing, setImporting] = useState(false);
  const [transition, setTransition] = useState<{
    key: string;
    t: Transition;
    row: RecordRow;
    preset?: Record<string, unknown>;
  } | null>(null);

  const page = view.data;
  const names = page?.names ?? EMPTY_NAMES;
  const ctx: ViewContext = { names, dictLabel: dicts.labelOf };
  const nameOf = (row: RecordRow) => (describe ? describe(row, names) : def.describe(row));
  const statusField = def.status?.field;
  const columns = useMemo((): [string, Field][] => {
    if (!columnNames)
      return Object.entries(def.fields).filter(([k, fd]) => fd.list && !(fixed && k in fixed));
    return columnNames.flatMap((k): [string, Field][] => {
      const fd = computed?.[k]?.field ?? def.fields[k];
      return fd ? [[k, fd]] : [];
    });
  }, [def, fixed, columnNames, computed]);
  const filters = Object.entries(filterFields(def)).filter(
    ([k, fd]) => fd.filter && k !== statusField && !(fixed && k in fixed) && !hideFilters?.includes(k),
  );
  const keywordLabels = Object.values(def.fields)
    .filter((fd) => fd.keyword)
    .map((fd) => fd.label);

  const set = (patch: Record<string, unknown>) => setQuery((q) => ({ ...q, ...patch, currentPage: 1 }));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: recordKeys.all(def) });

  const openForm = (row: RecordRow | null, rowNames: RecordNames = names) => {
    setForm((prev) => ({ row, names: rowNames, nonce: (prev?.nonce ?? 0) + 1 }));
    setFormOpen(true);
  };

  const remove = (row: RecordRow) =>
    confirmAction({
      title: R.deleteTitle,
      message: R.deleteConfirm(nameOf(row)),
      confirmLabel: R.delete,
      danger: true,
      run: async () => {
        try {
          const r = await writeRecord(
            def,
            def.calls.remove!,
            { id: row.id },
            {
              action: 'remove',
              id: row.id,
              label: `${R.delete}${def.title}：${nameOf(row)}`,
            },
          );
          notifications.show({
            color: r.queued ? 'yellow' : 'green',
            message: r.queued ? R.queued : R.deleted,
          });
          if (openId === row.id) setOpenId(null);
        } catch (err) {
          errorToast(err instanceof Error ? err.message : String(err));
          throw err;
        }
      },
    });

  const move = async (row: RecordRow, dir: 'up' | 'down') => {
    try {
      await writeRecord(
        def,
        def.calls[dir]!,
        { id: row.id },
        { action: 'move', id: row.id, label: `${dir === 'up' ? R.up : R.down}：${def.describe(row)}` },
      );
    } catch (err) {
      errorToast(err instanceof Error ? err.message : String(err));
    }
  };

  const runTransition = (key: string, tr: Transition, row: RecordRow, preset?: Record<string, unknown>) => {
    if (tr.input && Object.keys(tr.input).length) return setTransition({ key, t: tr, row, preset });
    const go = async () => {
      const req = transitionRequest(def, key, row, { id: row.id });
      const r = await writeRecord(def, req.call, req.body, {
        action: 'transition',
        id: row.id,
        label: `${tr.label}${def.title}：${nameOf(row)}`,
      });
      notifications.show({
        color: r.queued ? 'yellow' : 'green',
        message: r.queued ? R.queued : R.done(tr.label),
      });
    };
    confirmAction({
      title: R.confirmTitle(tr.label),
      message: tr.confirm ?? R.transitionConfirm(tr.label, nameOf(row)),
      confirmLabel: tr.label,
      danger: tr.danger,
      run: () =>
        go().catch((err: unknown) => {
          errorToast(err instanceof Error ? err.message : String(err));
          throw err;
        }),
    });
  };

  /**
   * A row's buttons: 编辑 and the first transition its status allows stay in the row; other
   * transitions, the sort moves and 删除 sit in its 更多 menu (a row stays one line high). In the
   * detail drawer every action is a button.
   */
  const actions = (row: RecordRow, rowNames: RecordNames = names, inDetail = false): ReactNode => {
    type Act = RowActionDef;
    const own = rowActions?.(row) ?? [];
    const all: Act[] = [...own];
    // A log has no write call: its readers and its "writers" (who may export) only view.
    if (!inDetail && (!writer || def.shape === 'log'))
      all.push({ key: 'view', label: R.view, icon: IconEye, run: () => setOpenId(row.id) });
    if (!writer)
      return inDetail && !own.length
        ? null
        : all.map((a) => (
            <RowAction key={a.key} icon={a.icon} onClick={a.run}>
              {a.label}
            </RowAction>
          ));
    const allowed = (key: string) => !allow || allow(key, row);
    if (def.calls.update && allowed('edit'))
      all.push({ key: 'edit', label: R.edit, icon: IconPencil, run: () => openForm(row, rowNames) });
    for (const [key, tr] of Object.entries(def.transitions ?? {}))
      if (statusField && tr.from.includes(row[statusField] as number) && allowed(key)) {
        const ways = variants?.[key];
        if (ways)
          for (const v of ways)
            all.push({
              key: v.key,
              label: v.label,
              icon: IconRefresh,
              color: v.danger ? 'orange' : undefined,
              run: () =>
                runTransition(
                  key,
                  { ...tr, label: v.label, input: v.input ?? tr.input, danger: v.danger },
                  row,
                  v.preset,
                ),
            });
        else
          all.push({
            key,
            label: tr.label,
            icon: IconRefresh,
            color: tr.danger ? 'orange' : undefined,
            run: () => runTransition(key, tr, row),
          });
      }
    if (def.sortable && def.calls.up && def.calls.down)
      all.push(
        { key: 'up', label: R.up, icon: IconArrowUp, run: () => void move(row, 'up') },
        { key: 'down', label: R.down, icon: IconArrowDown, run: () => void move(row, 'down') },
      );
    if (def.calls.remove && allowed('delete'))
      all.push({ key: 'delete', label: R.delete, icon: IconTrash, color: 'red', run: () => remove(row) });
    const inline = inDetail
      ? all
      : all.filter(
          (a, i) =>
            own.includes(a) ||
            a.key === 'edit' ||
            (i - own.length <= 1 && a.key !== 'delete' && a.key !== 'up' && a.key !== 'down'),
        );
    const rest = all.filter((a) => !inline.includes(a));
    return (
      <>
        {inline.map((a) => (
          <RowAction key={a.key} icon={a.icon} color={a.color} onClick={a.run}>
            {a.label}
          </RowAction>
        ))}
        {rest.length > 0 && (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" aria-label={R.more} data-testid="row-more">
                <IconDots size={16} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              {rest.map((a) => (
                <Menu.Item key={a.key} leftSection={<a.icon size={14} />} color={a.color} onClick={a.run}>
                  {a.label}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        )}
      </>
    );
  };

  const mark = (row: RecordRow): RowMark[] => {
    const own = badge?.(row);
    const op = pending.byId.get(row.id);
    const queued: RowMark | null = !op
      ? null
      : (op.meta as { action?: string }).action === 'remove'
        ? { label: R.pendingDelete, color: 'red' }
        : { label: R.pending, color: 'yellow' };
    return [own, queued].filter((m): m is RowMark => Boolean(m));
  };

  // Quick-count tabs: every status with its count under the other filters.
  const counts = new Map((page?.counts ?? []).map((c) => [c.value, c.count]));
  // A page that fixes the status (续借审批: 延期审批中) counts that status only.
  const fixedStatus = statusField && fixed && statusField in fixed ? Number(fixed[statusField]) : null;
  const allCount =
    fixedStatus === null ? [...counts.values()].reduce((a, b) => a + b, 0) : (counts.get(fixedStatus) ?? 0);
  // A quick tab is active while the query holds its filters; choosing another tab clears them.
  const quickOn = quickTabs?.find((q) => Object.entries(q.query).every(([k, v]) => query[k] === v));
  const clearQuick = Object.fromEntries(
    (quickTabs ?? []).flatMap((q) => Object.keys(q.query)).map((k) => [k, undefined]),
  );
  const tabs =
    statusField && def.fields[statusField]!.filter && (fixedStatus === null || quickTabs?.length) ? (
      <Tabs
        value={
          quickOn
            ? `quick-${quickOn.key}`
            : query[statusField] === undefined
              ? 'all'
              : String(query[statusField])
        }
        onChange={(v) => {
          const quick = quickTabs?.find((q) => `quick-${q.key}` === v);
          if (quick) return set({ ...clearQuick, [statusField]: undefined, ...quick.query });
          set({ ...clearQuick, [statusField]: v === 'all' || v === null ? undefined : Number(v) });
        }}
      >
        <Tabs.List>
          <Tabs.Tab value="all" data-testid="status-tab-all">
            {R.all} {page ? allCount : ''}
          </Tabs.Tab>
          {statusOptions(def)
            .filter((o) => fixedStatus === null && (!statuses || statuses.includes(o.value)))
            .map((o) => (
              <Tabs.Tab key={o.value} value={String(o.value)} data-testid={`status-tab-${o.value}`}>
                {o.label} {page ? (counts.get(o.value) ?? 0) : ''}
              </Tabs.Tab>
            ))}
          {quickTabs?.map((q) => (
            <Tabs.Tab key={q.key} value={`quick-${q.key}`} color="red" data-testid={`quick-tab-${q.key}`}>
              {q.label} {q.count ?? ''}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
    ) : null;

  const rows = useMemo(() => {
    const list = page?.list ?? [];
    if (!computed) return list;
    return list.map((r) => ({
      ...r,
      ...Object.fromEntries(Object.entries(computed).map(([k, c]) => [k, c.value(r)])),
    }));
  }, [page, computed]);
  let body: ReactNode;
  if (!page) body = <CachedViewState view={view} />;
  else if (!rows.length)
    body = (
      <EmptyState
        py="xl"
        icon={<IconInbox size={28} />}
        title={R.empty}
        description={
          writer && !Object.keys(query).some((k) => !['currentPage', 'pageCount'].includes(k))
            ? R.emptyWriter
            : R.emptyHint
        }
        data-testid="records-empty"
      />
    );
  else {
    const props = {
      def,
      rows,
      columns,
      ctx,
      onOpen: (r: RecordRow) => setOpenId(r.id),
      actions: (r: RecordRow) => actions(r),
      mark,
      describe: nameOf,
    };
    body = narrow ? <RecordCards {...props} /> : <RecordTable {...props} />;
  }
  const pages = page ? Math.max(1, Math.ceil(page.total / (query.pageCount as number))) : 1;

  return (
    <Stack gap="md" p={embedded ? 0 : { base: 'sm', sm: 'md' }} data-testid={`records-${def.name}`}>
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Group gap="xs" wrap="nowrap">
          <Title order={embedded ? 4 : 3}>{title ?? def.title}</Title>
          {page && (
            <Text size="sm" c="dimmed" data-testid="records-total">
              {R.total(page.total)}
            </Text>
          )}
          <OfflineNote view={view} />
        </Group>
        <Group gap="xs" wrap="wrap">
          {extra}
          {writer &&
            def.calls.export &&
            (Object.values(def.fields).some((fd) => fd.mask && fd.mask !== 'writersOnly') ? (
              // Masked personal data: 含证件号 is a second, deliberate choice (the server logs it).
              <Menu position="bottom-end">
                <Menu.Target>
                  <Button
                    variant="default"
                    leftSection={<IconDownload size={16} />}
                    data-testid="records-export"
                  >
                    {R.export}
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item onClick={() => void exportRecord(def, fullQuery)}>{R.exportMasked}</Menu.Item>
                  <Menu.Item onClick={() => void exportRecord(def, { ...fullQuery, whole: 1 })}>
                    {R.exportWhole}
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
            ) : (
              <Button
                variant="default"
                leftSection={<IconDownload size={16} />}
                onClick={() => void exportRecord(def, fullQuery)}
              >
                {R.export}
              </Button>
            ))}
          {writer && def.importable && (
            <Button
              variant="light"
              leftSection={<IconUpload size={16} />}
              onClick={() => setImporting(true)}
              data-testid="records-import"
            >
              {R.import}
            </Button>
          )}
          {writer && def.calls.create && (
            <Button
              leftSection={<IconPlus size={18} />}
              onClick={() => openForm(null)}
              data-testid="records-add"
            >
              {R.add}
            </Button>
          )}
        </Group>
      </Group>
      {intro && (
        <Text size="sm" c="dimmed">
          {intro}
        </Text>
      )}
      {pending.created.length > 0 && (
        <Alert color="yellow" variant="light">
          {pending.created.map((o) => o.label).join('；')}（{R.pending}）
        </Alert>
      )}
      <Card withBorder radius="md" padding="sm">
        <Stack gap="sm">
          {(keywordLabels.length > 0 || filters.length > 0) && (
            <Group gap="sm" wrap="wrap">
              {keywordLabels.length > 0 && (
                <SearchField
                  placeholder={R.keyword(keywordLabels.join('、'))}
                  onSearch={(keyword) => set({ keyword: keyword || undefined })}
                  style={{ flex: '1 1 220px' }}
                />
              )}
              {filters.map(([key, fd]) => (
                <FilterInput
                  key={key}
                  name={key}
                  fd={fd}
                  query={query}
                  set={set}
                  options={dicts.options}
                  choices={choices[key]}
                />
              ))}
            </Group>
          )}
          {tabs}
          {body}
          {page && page.total > 0 && (
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Select
                aria-label={R.pageSize(query.pageCount as number)}
                data={PAGE_SIZES.map((n) => ({ value: String(n), label: R.pageSize(n) }))}
                value={String(query.pageCount)}
                onChange={(v) => set({ pageCount: Number(v ?? 20) })}
                allowDeselect={false}
                w={120}
              />
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

      <RecordDetailDrawer
        def={def}
        id={openId}
        dictLabel={dicts.labelOf}
        onClose={() => setOpenId(null)}
        actions={writer || rowActions ? (d) => actions(d.record, d.names, true) : undefined}
      />
      {form && (
        <RecordForm
          key={form.nonce}
          def={def}
          row={form.row}
          names={form.names}
          fixed={fixed}
          shape={formShape}
          options={dicts.options}
          opened={formOpen}
          onClose={() => setFormOpen(false)}
          addons={formAddons}
        />
      )}
      {def.importable && (
        <ImportDialog
          schemeId={def.name}
          title={def.title}
          replaceable={Boolean(def.unique?.length)}
          opened={importing}
          onClose={() => setImporting(false)}
          onImported={refresh}
        />
      )}
      {transition && (
        <TransitionDialog
          def={def}
          name={transition.key}
          transition={transition.t}
          row={transition.row}
          preset={transition.preset}
          rowName={nameOf(transition.row)}
          options={dicts.options}
          onClose={() => setTransition(null)}
        />
      )}
    </Stack>
  );
}
