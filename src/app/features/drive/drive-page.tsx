import {
  ActionIcon,
  Anchor,
  Breadcrumbs,
  Button,
  Center,
  CloseButton,
  EmptyState,
  Group,
  Menu,
  SegmentedControl,
  Text,
  TextInput,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue, useElementSize, useLocalStorage } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import {
  IconArrowLeft,
  IconArrowsMove,
  IconFolderShare,
  IconCheck,
  IconCloudUpload,
  IconCopy,
  IconDownload,
  IconEye,
  IconFilePlus,
  IconFileZip,
  IconFolderPlus,
  IconInbox,
  IconInfoCircle,
  IconGridDots,
  IconLayoutGrid,
  IconLink,
  IconList,
  IconPencil,
  IconRefresh,
  IconRestore,
  IconSearch,
  IconShare,
  IconSortAscending,
  IconTrash,
} from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { Suspense, useCallback, useMemo, useState, type ReactNode } from 'react';
import type { FileEntry, RecoveryEntry } from '../../../shared/api/drive';
import {
  batchActions,
  blankMenuItems,
  fileMenuItems,
  type BatchAction,
  type FileMenuItem,
} from '../../../shared/drive/menu-rules';
import { NAME_MAX, ROOT, breadcrumb, folderPath, joinName, parentPath } from '../../../shared/drive/names';
import { sortEntries, type SortBy, type SortOrder } from '../../../shared/drive/sort';
import { OutboxButton } from '../../components/outbox-panel';
import { useUnzip } from './unzip';
import { tDrive } from '../../lib/i18n/drive';
import { tPreview } from '../../lib/i18n/preview';
import { useOnline } from '../../lib/online';
import { ConfirmDialog } from './dialogs/confirm-dialog';
import { DetailDialog } from './dialogs/detail-dialog';
import { notifyDone } from './dialogs/dialog-kit';
import { type DialogResult } from '../../components/dialog-kit';
import { MoveCopyDialog } from './dialogs/move-copy-dialog';
import { NameDialog } from '../../components/name-dialog';
import { useNewFile } from './dialogs/new-file-dialog';
import { BATCH_MAX, downloadUrl, driveWrites, useDriveList, useSearch, useStorage } from './drive-data';
import { DRIVE_ROUTES, searchFor, useDriveView, type DriveView } from './drive-view';
import { FileBrowser, keyOf, type GridSize, type MenuTarget, type ViewMode } from './file-browser';
import { CachedViewState } from '../../components/cached-state';
import { OfflineNote } from '../../components/offline-note';
import type { DriveItem } from './overlay';
import { usePreviewHost } from './preview/preview-host';
import { dragHasFiles, fromDrop } from './upload/pick';
import { UploadDock, openUploadPanel, useAddUploads } from './upload/upload-dock';
import classes from './drive.module.css';
import { page } from '../../routes/lazy';
import { useLaunchSnapshot } from '../../lib/launch-snapshot';

/*
 * The two heavy dialogs load when first opened, not with the listing (issue 25): 分享 brings the
 * date pickers and the people search, 添加到项目 the project picker, and on a slowed tablet their
 * code was evaluated before the cached listing could show. The service worker precaches them
 * after sign-in, so they open offline too; a failed load shows the page's 重试.
 */
const ShareDialog = page(() => import('./share/share-dialog'), 'ShareDialog');
const ToProjectDialog = page(() => import('./to-project'), 'ToProjectDialog');

type Dialog =
  | { kind: 'newFolder' }
  | { kind: 'rename'; item: DriveItem }
  | { kind: 'delete'; items: DriveItem[] }
  | { kind: 'restore'; items: DriveItem[] }
  | { kind: 'moveCopy'; mode: 'move' | 'copy'; items: DriveItem[] }
  | { kind: 'detail'; item: DriveItem }
  | { kind: 'share'; items: DriveItem[] }
  | { kind: 'toProject'; items: DriveItem[] };

const m = tDrive.menu;
const ICON = 16;

/** A placeholder row exists only in the outbox (a folder created offline): no id to act on yet. */
const isPlaceholder = (item: DriveItem) => item.userFileId < 0;

const NONE: ReadonlySet<number> = new Set();
const viewIdOf = (route: string, fileType: number, filePath: string) => `${route}|${fileType}|${filePath}`;

/**
 * The drive's file list screen (spec/drive.md §2) for every drive route of the catalogue: the
 * personal drive and its categories, the recycle bin, 其他资源 (browse, and manage at
 * isAdmin=1) and 高清图 management. The URL holds fileType and filePath; the view mode, grid
 * size and sort order are remembered on the device.
 */
export function DrivePage() {
  const view = useDriveView();
  const navigate = useNavigate();
  const online = useOnline();
  // Layout follows the room the page has, not the screen: a portrait tablet with the side
  // menu open leaves the list as little width as a phone.
  const { ref: pageRef, width: pageWidth } = useElementSize<HTMLDivElement>();
  const narrow = pageWidth > 0 && pageWidth < 600;

  const [mode, setMode] = useLocalStorage<ViewMode>({
    key: 'gwy.drive.viewMode',
    defaultValue: 'list',
    getInitialValueInEffect: false,
  });
  const [gridSize, setGridSize] = useLocalStorage<GridSize>({
    key: 'gwy.drive.gridSize',
    defaultValue: 80,
    getInitialValueInEffect: false,
  });
  const [sort, setSort] = useLocalStorage<{ by: SortBy; order: SortOrder }>({
    key: 'gwy.drive.sort',
    defaultValue: { by: 'name', order: 'asc' },
    getInitialValueInEffect: false,
  });

  // Selection and search belong to the view they were made in: a new folder or route starts
  // with nothing selected and no search (state keyed by the view, not reset by an effect).
  const [searchState, setSearchState] = useState({ route: view.route, text: '' });
  const searchInput = searchState.route === view.route ? searchState.text : '';
  const setSearchInput = (text: string) => setSearchState({ route: view.route, text });
  const [debounced] = useDebouncedValue(searchInput.trim(), 300);
  const searchText = searchInput.trim() ? debounced : '';
  const searching = searchText.length > 0 && view.kind !== 'recycle';
  const viewId = searching
    ? `search|${view.route}|${searchText}`
    : viewIdOf(view.route, view.fileType, view.filePath);
  const [selectionState, setSelectionState] = useState({ viewId, keys: new Set<number>() });
  const selection = selectionState.viewId === viewId ? selectionState.keys : NONE;
  const setSelection = (keys: Set<number>) => setSelectionState({ viewId, keys });
  const [focusKey, setFocusKey] = useState<number | null>(null);
  const clearFocusKey = useCallback(() => setFocusKey(null), []);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [dialogNonce, setDialogNonce] = useState(0);

  const listing = useDriveList(view, !searching);
  const search = useSearch(view, searching ? searchText : '');
  const shown = searching ? search : listing;
  // The folder as drawn is what the next launch shows first (lib/launch-snapshot.ts).
  useLaunchSnapshot('drive', shown.status, `${view.route}:${view.filePath}:${shown.data?.list.length}`, {
    keep: !searching,
  });

  const items: DriveItem[] = useMemo(
    () => sortEntries((shown.data?.list ?? []) as DriveItem[], sort.by, sort.order),
    [shown.data, sort.by, sort.order],
  );
  const highlights = useMemo(
    () =>
      searching
        ? new Map((search.data?.list ?? []).map((h) => [h.userFileId, h.highlightFields] as const))
        : undefined,
    [searching, search.data],
  );
  const selected = useMemo(() => items.filter((i) => selection.has(keyOf(i))), [items, selection]);

  const go = (change: { filePath?: string; fileType?: number }, target: DriveView = view) =>
    void navigate({ to: target.route, search: searchFor(target, change) });

  /**
   * Opens a folder with one item focused and scrolled into view (search hits, the details
   * path). Focused, not selected: the breadcrumb stays in sight to say where it lives.
   */
  const revealIn = (target: DriveView, filePath: string, userFileId: number) => {
    setSearchInput('');
    setFocusKey(userFileId);
    go({ filePath, fileType: 0 }, target);
  };

  const openDialog = (d: Dialog) => {
    setDialog(d);
    setDialogOpen(true);
    setDialogNonce((n) => n + 1);
  };
  const closeDialog = () => setDialogOpen(false);
  const finished = (message: string) => (result: DialogResult, queued?: boolean) => {
    closeDialog();
    if (result === 'confirm') {
      setSelection(new Set());
      notifyDone(message, Boolean(queued));
    }
  };

  const download = (list: DriveItem[]) => {
    if (!online) {
      notifications.show({ color: 'yellow', message: tDrive.open.offlineDownload });
      return;
    }
    const ids = list.filter((i) => !isPlaceholder(i)).map((i) => i.userFileId);
    if (ids.length === 0) return;
    if (ids.length > BATCH_MAX) {
      notifications.show({ color: 'yellow', message: tDrive.open.tooMany(BATCH_MAX) });
      return;
    }
    // A navigation, not fetch+blob: the browser streams big files to disk with the cookie.
    const a = document.createElement('a');
    a.href = downloadUrl(view.areaQuery, ids);
    a.download = '';
    a.rel = 'noopener';
    document.body.appendChild(a);
    a.click();
    a.remove();
  };

  const refetchShown = useCallback(() => void shown.refetch(), [shown]);
  const preview = usePreviewHost(view, () => void shown.refetch());
  const newFile = useNewFile(view);
  const unzip = useUnzip(view, refetchShown);

  const open = (item: DriveItem) => {
    if (searching) {
      // A search hit opens its folder, with the hit selected (in the folder view of its area).
      const target = view.kind === 'folder' ? view : { ...view, route: DRIVE_ROUTES.netDisk, fileType: 0 };
      revealIn(target, item.filePath, item.userFileId);
      return;
    }
    if (view.kind === 'recycle') {
      notifications.show({ color: 'yellow', message: tDrive.open.deleted });
      return;
    }
    if (item.isDir) {
      go({ filePath: folderPath(item.filePath, item.fileName) });
      return;
    }
    if (isPlaceholder(item)) return;
    // Files without a previewer download (spec §5 "Opening files").
    if (!preview.open(item, items)) download([item]);
  };

  const canCreate = view.kind === 'folder' && blankMenuItems(view.menu).includes('newFolder');
  const canUpload = canCreate && !searching;
  const addUploads = useAddUploads(view, useStorage());
  const [dropping, setDropping] = useState(false);

  const runFileAction = (action: FileMenuItem | BatchAction, targets: DriveItem[]) => {
    const first = targets[0];
    if (!first) return;
    switch (action) {
      case 'view':
        return open(first);
      case 'download':
        return download(targets);
      case 'share':
        return openDialog({ kind: 'share', items: targets });
      case 'copyLink':
        // Only 我的分享 (fileType 8) offers it, and that is its own page (share/my-shares-page).
        return;
      case 'unzip':
        return unzip.start(first);
      case 'copy':
      case 'move':
        return openDialog({ kind: 'moveCopy', mode: action, items: targets });
      case 'toProject':
        return openDialog({ kind: 'toProject', items: targets });
      case 'rename':
        return openDialog({ kind: 'rename', item: first });
      case 'delete':
        return openDialog({ kind: 'delete', items: targets });
      case 'restore':
        return openDialog({ kind: 'restore', items: targets });
      case 'detail':
        return openDialog({ kind: 'detail', item: first });
    }
  };

  const actionLook: Record<FileMenuItem, { label: string; icon: ReactNode; color?: string }> = {
    view: { label: m.view, icon: <IconEye size={ICON} /> },
    download: { label: m.download, icon: <IconDownload size={ICON} /> },
    share: { label: m.share, icon: <IconShare size={ICON} /> },
    copyLink: { label: m.copyLink, icon: <IconLink size={ICON} /> },
    copy: { label: m.copy, icon: <IconCopy size={ICON} /> },
    move: { label: m.move, icon: <IconArrowsMove size={ICON} /> },
    toProject: { label: tDrive.toProject.menu, icon: <IconFolderShare size={ICON} /> },
    rename: { label: m.rename, icon: <IconPencil size={ICON} /> },
    unzip: { label: m.unzip, icon: <IconFileZip size={ICON} /> },
    restore: { label: m.restore, icon: <IconRestore size={ICON} /> },
    delete: {
      label: view.deleteForever ? m.deleteForever : m.delete,
      icon: <IconTrash size={ICON} />,
      color: 'red',
    },
    detail: { label: m.detail, icon: <IconInfoCircle size={ICON} /> },
  };

  const menuItem = (
    key: string,
    look: { label: string; icon: ReactNode; color?: string },
    onClick: () => void,
  ) => (
    <Menu.Item
      key={key}
      className={classes.menuItem}
      leftSection={look.icon}
      color={look.color}
      onClick={onClick}
      data-menu-action={key}
    >
      {look.label}
    </Menu.Item>
  );

  const renderMenu = (target: MenuTarget): ReactNode => {
    if (target.kind === 'blank') {
      const refresh = menuItem('refresh', { label: m.refresh, icon: <IconRefresh size={ICON} /> }, () =>
        shown.refetch(),
      );
      if (searching) return refresh;
      return blankMenuItems(view.menu)
        .filter((b) => b === 'refresh' || canCreate)
        .map((b) =>
          b === 'newFolder'
            ? menuItem(b, { label: m.newFolder, icon: <IconFolderPlus size={ICON} /> }, () =>
                openDialog({ kind: 'newFolder' }),
              )
            : b === 'upload'
              ? menuItem(b, { label: m.upload, icon: <IconCloudUpload size={ICON} /> }, openUploadPanel)
              : b === 'newFile'
                ? menuItem(
                    b,
                    { label: tPreview.office.newFile, icon: <IconFilePlus size={ICON} /> },
                    newFile.open,
                  )
                : refresh,
        );
    }
    if (target.kind !== 'item') return null;
    const { item } = target;
    if (isPlaceholder(item)) {
      return (
        <>
          {item.isDir === 1 && menuItem('view', actionLook.view, () => open(item))}
          <Menu.Label style={{ whiteSpace: 'normal' }}>{tDrive.pendingLocked}</Menu.Label>
        </>
      );
    }
    const many = selected.length > 1 && selection.has(keyOf(item));
    if (many) {
      const actions = batchActions(view.menu, selected).filter(
        (a) => !selected.some(isPlaceholder) || a === 'download',
      );
      return (
        <>
          <Menu.Label>{tDrive.selection.count(selected.length)}</Menu.Label>
          {actions.map((a) => menuItem(a, actionLook[a], () => runFileAction(a, selected)))}
        </>
      );
    }
    return fileMenuItems(view.menu, item).map((a) =>
      menuItem(a, actionLook[a], () => runFileAction(a, [item])),
    );
  };

  // ——— header pieces ———

  const crumbs = breadcrumb(view.filePath);
  const shownCrumbs =
    crumbs.length > 4 && narrow ? [crumbs[0]!, { name: '…', path: '' }, ...crumbs.slice(-2)] : crumbs;
  const pathBar =
    view.kind === 'folder' && !searching ? (
      <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
        {view.filePath !== ROOT && (
          <Tooltip label={tDrive.toolbar.back}>
            <ActionIcon
              variant="subtle"
              color="gray"
              size={32}
              aria-label={tDrive.toolbar.back}
              onClick={() => go({ filePath: parentPath(view.filePath) })}
            >
              <IconArrowLeft size={18} />
            </ActionIcon>
          </Tooltip>
        )}
        <Breadcrumbs separatorMargin={4} data-testid="breadcrumb" style={{ minWidth: 0, flexWrap: 'wrap' }}>
          {shownCrumbs.map((c, i) =>
            i === shownCrumbs.length - 1 || !c.path ? (
              <Text key={c.path || i} size="sm" fw={i === shownCrumbs.length - 1 ? 600 : undefined} truncate>
                {c.path === ROOT ? tDrive.root : c.name}
              </Text>
            ) : (
              <Anchor
                key={c.path}
                component="button"
                type="button"
                size="sm"
                onClick={() => go({ filePath: c.path })}
              >
                {c.path === ROOT ? tDrive.root : c.name}
              </Anchor>
            ),
          )}
        </Breadcrumbs>
      </Group>
    ) : searching ? (
      <Group gap={6} wrap="nowrap">
        <Text size="sm" fw={600} data-testid="search-summary">
          {tDrive.search.results(search.data?.total ?? 0, searchText)}
        </Text>
      </Group>
    ) : (
      <Text size="sm" fw={600}>
        {view.kind === 'recycle' ? tDrive.titles.recycle : tDrive.categories[view.fileType]}
      </Text>
    );

  const toolButton = (key: string, label: string, icon: ReactNode, onClick: () => void, color?: string) =>
    narrow ? (
      <Tooltip key={key} label={label}>
        <ActionIcon
          variant="light"
          color={color}
          size={36}
          aria-label={label}
          onClick={onClick}
          data-action={key}
        >
          {icon}
        </ActionIcon>
      </Tooltip>
    ) : (
      <Button key={key} variant="light" color={color} leftSection={icon} onClick={onClick} data-action={key}>
        {label}
      </Button>
    );

  const batch = batchActions(view.menu, selected).filter(
    (a) => !selected.some(isPlaceholder) || a === 'download',
  );
  const batchLabel = (a: BatchAction) =>
    a === 'delete'
      ? actionLook.delete.label
      : a === 'copy'
        ? m.copy
        : a === 'move'
          ? m.move
          : actionLook[a].label;

  const selectionBar = (
    <Group gap={6} wrap="nowrap" data-testid="selection-bar" style={{ minWidth: 0 }}>
      <Tooltip label={tDrive.selection.clear}>
        <CloseButton size="md" aria-label={tDrive.selection.clear} onClick={() => setSelection(new Set())} />
      </Tooltip>
      <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
        {tDrive.selection.count(selected.length)}
      </Text>
      <Group gap={4} wrap="nowrap" ml="xs">
        {batch.map((a) => {
          const look = actionLook[a];
          const label = batchLabel(a);
          return narrow ? (
            <Tooltip key={a} label={label}>
              <ActionIcon
                variant="subtle"
                color={look.color ?? 'gray'}
                size={36}
                aria-label={label}
                onClick={() => runFileAction(a, selected)}
                data-action={`batch-${a}`}
              >
                {look.icon}
              </ActionIcon>
            </Tooltip>
          ) : (
            <Button
              key={a}
              size="compact-sm"
              variant="subtle"
              color={look.color ?? 'dark'}
              leftSection={look.icon}
              onClick={() => runFileAction(a, selected)}
              data-action={`batch-${a}`}
            >
              {label}
            </Button>
          );
        })}
      </Group>
    </Group>
  );

  const leftTools = (
    <Group gap="xs" wrap="nowrap">
      {canCreate &&
        toolButton('newFolder', tDrive.toolbar.newFolder, <IconFolderPlus size={18} />, () =>
          openDialog({ kind: 'newFolder' }),
        )}
      {canCreate && toolButton('newFile', tPreview.office.newFile, <IconFilePlus size={18} />, newFile.open)}
      {canCreate &&
        toolButton('upload', tDrive.toolbar.upload, <IconCloudUpload size={18} />, openUploadPanel)}
    </Group>
  );

  const sortMenu = (
    <Menu position="bottom-end" width={160}>
      <Menu.Target>
        <Tooltip label={tDrive.toolbar.sort}>
          <ActionIcon variant="default" size={36} aria-label={tDrive.toolbar.sort} data-testid="sort-button">
            <IconSortAscending size={18} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        {(['name', 'size', 'time'] as const).map((by) => (
          <Menu.Item
            key={by}
            className={classes.menuItem}
            onClick={() => setSort({ ...sort, by })}
            rightSection={sort.by === by ? <IconCheck size={14} /> : null}
          >
            {by === 'time' && view.kind === 'recycle' ? tDrive.columns.deleteTime : tDrive.toolbar.sortBy[by]}
          </Menu.Item>
        ))}
        <Menu.Divider />
        {(['asc', 'desc'] as const).map((order) => (
          <Menu.Item
            key={order}
            className={classes.menuItem}
            onClick={() => setSort({ ...sort, order })}
            rightSection={sort.order === order ? <IconCheck size={14} /> : null}
          >
            {tDrive.toolbar[order]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );

  // One control for the spec's three looks: list, grid 50 and grid 80 (spec §2, §9).
  const look = mode === 'list' ? 'list' : `grid-${gridSize}`;
  const viewControl = (
    <SegmentedControl
      size="sm"
      value={look}
      onChange={(v) => {
        if (v === 'list') setMode('list');
        else {
          setMode('grid');
          setGridSize(v === 'grid-50' ? 50 : 80);
        }
      }}
      aria-label={tDrive.toolbar.viewMode}
      data-testid="view-mode"
      data={[
        { value: 'list', icon: IconList, label: tDrive.toolbar.listView, id: 'view-list' },
        { value: 'grid-50', icon: IconGridDots, label: tDrive.toolbar.gridSmall, id: 'view-grid-50' },
        { value: 'grid-80', icon: IconLayoutGrid, label: tDrive.toolbar.gridLarge, id: 'view-grid-80' },
      ].map((o) => ({
        value: o.value,
        // The radio's name is the label's text: the icon is drawn, the words are read out.
        label: (
          <Tooltip label={o.label}>
            <Center data-testid={o.id} h={20}>
              <o.icon size={16} aria-hidden />
              <VisuallyHidden>{o.label}</VisuallyHidden>
            </Center>
          </Tooltip>
        ),
      }))}
    />
  );

  const searchBox =
    view.kind !== 'recycle' ? (
      <TextInput
        value={searchInput}
        onChange={(e) => setSearchInput(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setSearchInput('');
        }}
        placeholder={tDrive.search.placeholder}
        aria-label={tDrive.search.label}
        leftSection={<IconSearch size={16} />}
        rightSection={
          searchInput ? (
            <CloseButton size="sm" aria-label={tDrive.search.clear} onClick={() => setSearchInput('')} />
          ) : null
        }
        maxLength={NAME_MAX}
        style={narrow ? undefined : { flex: '0 1 220px', minWidth: 110 }}
        data-testid="drive-search"
      />
    ) : null;

  const rightTools = (
    <Group gap="xs" wrap="nowrap" justify="flex-end" style={{ flex: 1, minWidth: 0 }}>
      {!narrow && searchBox}
      {sortMenu}
      {viewControl}
      <Tooltip label={tDrive.toolbar.refresh}>
        <ActionIcon
          variant="default"
          size={36}
          aria-label={tDrive.toolbar.refresh}
          onClick={() => shown.refetch()}
        >
          <IconRefresh size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );

  // ——— body ———

  const emptyText =
    view.kind === 'recycle'
      ? { title: tDrive.empty.recycle, hint: tDrive.empty.recycleHint }
      : view.kind === 'category'
        ? { title: tDrive.empty.category, hint: undefined }
        : searching
          ? { title: tDrive.search.none, hint: tDrive.search.noneHint }
          : view.fileType === 9 && !view.manage
            ? { title: tDrive.empty.resource, hint: undefined }
            : { title: tDrive.empty.folder, hint: canCreate ? tDrive.empty.folderHint : undefined };

  let body: ReactNode;
  if (shown.status !== 'ready') {
    body = <CachedViewState view={shown} fill />;
  } else {
    body = (
      <FileBrowser
        label={view.title}
        items={items}
        mode={mode}
        gridSize={gridSize}
        narrow={narrow}
        recycle={view.kind === 'recycle'}
        thumbArea={view.kind === 'recycle' ? undefined : view.areaQuery}
        highlights={highlights}
        selection={selection}
        onSelectionChange={setSelection}
        sort={sort}
        onSort={(by) => setSort({ by, order: sort.by === by && sort.order === 'asc' ? 'desc' : 'asc' })}
        onOpen={open}
        onDeleteKey={() => {
          if (batch.includes('delete')) runFileAction('delete', selected);
        }}
        onRenameKey={(item) => {
          if (!isPlaceholder(item) && fileMenuItems(view.menu, item).includes('rename'))
            runFileAction('rename', [item]);
        }}
        renderMenu={renderMenu}
        focusKey={focusKey}
        onFocusDone={clearFocusKey}
        empty={
          <EmptyState
            py="xl"
            icon={<IconInbox size={28} />}
            title={emptyText.title}
            description={emptyText.hint}
          />
        }
      />
    );
  }

  const total = shown.data?.total ?? 0;
  const loaded = shown.data?.list.length ?? 0;

  return (
    <div ref={pageRef} className={classes.page} data-testid="drive-page" data-route={view.route}>
      <Group justify="space-between" gap="sm" wrap="nowrap">
        <Title order={3} size="h4" style={{ whiteSpace: 'nowrap' }}>
          {view.title}
        </Title>
        <OutboxButton />
      </Group>

      {view.categories && (
        <SegmentedControl
          value={String(view.fileType)}
          onChange={(v) => go({ fileType: Number(v) })}
          aria-label={tDrive.categoryLabel}
          data-testid="category-tabs"
          fullWidth={narrow}
          style={{ alignSelf: narrow ? 'stretch' : 'flex-start' }}
          data={[0, 1, 2, 3, 4, 5].map((n) => ({ value: String(n), label: tDrive.categories[n]! }))}
        />
      )}

      <Group justify="space-between" gap="xs" wrap="wrap">
        {leftTools}
        {rightTools}
      </Group>
      {/* Phones: the search box gets a row of its own, full width. */}
      {narrow && searchBox}

      <div
        className={classes.panel}
        data-dropping={dropping || undefined}
        // Files dropped on the list go to the open folder (spec §4: upload way 3).
        onDragOver={(e) => {
          if (!canUpload || !dragHasFiles(e.dataTransfer)) return;
          e.preventDefault();
          setDropping(true);
        }}
        onDragLeave={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDropping(false);
        }}
        onDrop={(e) => {
          if (!canUpload || !dragHasFiles(e.dataTransfer)) return;
          e.preventDefault();
          setDropping(false);
          void fromDrop(e.dataTransfer).then((files) => addUploads(files, 3));
        }}
        data-testid="drive-drop"
      >
        <Group
          justify="space-between"
          px="sm"
          gap="xs"
          wrap="nowrap"
          mih={44}
          className={selected.length > 0 ? classes.barSelected : classes.bar}
        >
          {/* While items are selected, their actions take the path's place: nothing else moves. */}
          {selected.length > 0 ? selectionBar : pathBar}
          {selected.length === 0 && <OfflineNote view={shown} />}
        </Group>
        {body}
        {shown.status === 'ready' && (
          <div className={classes.footer} data-testid="drive-footer">
            <span>{shown.complete ? tDrive.count(total) : tDrive.loadedOf(loaded, total)}</span>
            {selected.length > 0 && <span>{tDrive.selection.count(selected.length)}</span>}
          </div>
        )}
      </div>

      <UploadDock view={view} canUpload={canUpload} />
      {preview.host}
      {newFile.dialog}
      {unzip.element}

      {dialog?.kind === 'newFolder' && (
        <NameDialog
          key={dialogNonce}
          opened={dialogOpen}
          title={tDrive.newFolder.title}
          label={tDrive.newFolder.label}
          placeholder={tDrive.newFolder.placeholder}
          what="文件夹名称"
          onSubmit={(name) => driveWrites.createFolder(view, view.filePath, name)}
          onClose={finished(tDrive.newFolder.done)}
        />
      )}
      {dialog?.kind === 'rename' && (
        <NameDialog
          key={dialogNonce}
          opened={dialogOpen}
          title={tDrive.rename.title}
          label={tDrive.rename.label}
          placeholder={tDrive.rename.placeholder}
          what="文件名称"
          initial={joinName(dialog.item.fileName, dialog.item.extendName)}
          selectBaseName={dialog.item.isDir === 0}
          validateOnBlur
          onSubmit={async (name) =>
            name === joinName(dialog.item.fileName, dialog.item.extendName)
              ? 'unchanged'
              : driveWrites.rename(view, dialog.item, name)
          }
          onClose={finished(tDrive.rename.done)}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          key={dialogNonce}
          opened={dialogOpen}
          title={view.deleteForever ? tDrive.remove.titleForever : tDrive.remove.title}
          message={(view.deleteForever ? tDrive.remove.forever : tDrive.remove.toBin)(
            dialog.items.length === 1
              ? tDrive.remove.one(joinName(dialog.items[0]!.fileName, dialog.items[0]!.extendName))
              : tDrive.remove.many(dialog.items.length),
          )}
          note={
            dialog.items.some((i) => i.isDir) && view.kind !== 'recycle'
              ? tDrive.remove.folderNote
              : undefined
          }
          confirmLabel={view.deleteForever ? m.deleteForever : m.delete}
          danger
          refusal={tDrive.remove.failed}
          run={async () => {
            const r =
              view.kind === 'recycle'
                ? await driveWrites.purge(view, dialog.items as RecoveryEntry[])
                : await driveWrites.remove(view, dialog.items);
            return r.queued;
          }}
          onClose={finished(tDrive.remove.done)}
        />
      )}
      {dialog?.kind === 'restore' && (
        <ConfirmDialog
          key={dialogNonce}
          opened={dialogOpen}
          title={tDrive.restore.title}
          message={tDrive.restore.confirm(
            dialog.items.length === 1
              ? tDrive.remove.one(joinName(dialog.items[0]!.fileName, dialog.items[0]!.extendName))
              : tDrive.remove.many(dialog.items.length),
          )}
          note={tDrive.restore.note}
          confirmLabel={tDrive.restore.submit}
          busyText={tDrive.restore.loading}
          run={async () => {
            const results = await driveWrites.restore(view, dialog.items as RecoveryEntry[]);
            return results.some((r) => r.queued);
          }}
          onClose={finished(tDrive.restore.done)}
        />
      )}
      {dialog?.kind === 'moveCopy' && (
        <MoveCopyDialog
          key={dialogNonce}
          opened={dialogOpen}
          mode={dialog.mode}
          view={view}
          items={dialog.items as FileEntry[]}
          onSubmit={(to) => driveWrites.moveOrCopy(view, dialog.mode, dialog.items, to)}
          onClose={finished(dialog.mode === 'move' ? tDrive.copyMove.moved : tDrive.copyMove.copied)}
        />
      )}
      {/* One boundary for the dialogs whose code loads on first open (see ShareDialog above). */}
      <Suspense fallback={null}>
        {dialog?.kind === 'toProject' && (
          <ToProjectDialog
            key={dialogNonce}
            opened={dialogOpen}
            items={dialog.items}
            onClose={(moved) => {
              closeDialog();
              if (moved) setSelection(new Set());
            }}
          />
        )}
        {dialog?.kind === 'share' && (
          <ShareDialog
            key={dialogNonce}
            opened={dialogOpen}
            items={dialog.items}
            onClose={(result) => {
              closeDialog();
              if (result === 'confirm') setSelection(new Set());
            }}
          />
        )}
      </Suspense>
      {dialog?.kind === 'detail' && (
        <DetailDialog
          key={dialogNonce}
          opened={dialogOpen}
          view={view}
          item={dialog.item}
          fileType={searching ? 1 : view.fileType}
          onOpenPath={(path) => {
            // The path opens in the folder view of the item's area (spec: fileType 0, filePath set).
            const target =
              view.kind === 'folder' ? view : { ...view, route: DRIVE_ROUTES.netDisk, fileType: 0 };
            revealIn(target, path, dialog.item.userFileId);
          }}
          onClose={closeDialog}
        />
      )}
    </div>
  );
}
