import {
  ActionIcon,
  Anchor,
  Box,
  Breadcrumbs,
  Button,
  Center,
  EmptyState,
  Group,
  Loader,
  Menu,
  PinInput,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import {
  IconAlertTriangle,
  IconArrowLeft,
  IconBan,
  IconClockOff,
  IconCloudDownload,
  IconCloudOff,
  IconDeviceFloppy,
  IconDownload,
  IconEye,
  IconInbox,
  IconInfoCircle,
  IconLinkOff,
  IconLock,
} from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams, useRouterState } from '@tanstack/react-router';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { SESSION_EXPIRED_STATUS } from '../../../../shared/api/codes';
import type { ShareFileEntry, ShareInfo } from '../../../../shared/api/share';
import { batchActions, fileMenuItems, type FileMenuItem } from '../../../../shared/drive/menu-rules';
import {
  ROOT,
  breadcrumb,
  folderPath,
  joinName,
  parentPath,
  pathProblem,
} from '../../../../shared/drive/names';
import { CODE_LENGTH, SHARE_EXPIRED, SHARE_REVOKED, sharePath } from '../../../../shared/drive/share-rules';
import { sortEntries } from '../../../../shared/drive/sort';
import { ApiError, OfflineError } from '../../../lib/api';
import { tCore } from '../../../lib/i18n-core';
import { tDrive } from '../../../lib/i18n/drive';
import { tShare } from '../../../lib/i18n/share';
import { useOnline } from '../../../lib/online';
import { session, useSession } from '../../../lib/session';
import { DetailDialog } from '../dialogs/detail-dialog';
import { downloadUrl, type ReadArea } from '../drive-data';
import { FileBrowser, keyOf, type MenuTarget } from '../file-browser';
import type { DriveItem } from '../overlay';
import { usePreviewHost } from '../preview/preview-host';
import { SaveShareDialog } from './save-share-dialog';
import { shareCalls } from './share-data';
import classes from './share.module.css';
import driveClasses from '../drive.module.css';

const P = tShare.page;
const M = tDrive.menu;
const ICON = 16;
/** The share page's menu (spec §5): the Share route hides delete, copy, move, rename, share, unzip. */
const MENU = { fileType: 0, shareRoute: true } as const;

const visitKey = (b: string) => ['share', 'visit', b] as const;

/** A folder path inside the share from the address, '/' when absent or malformed. */
function folderOf(raw: string | undefined): string {
  if (!raw) return ROOT;
  const p = raw.endsWith('/') ? raw : `${raw}/`;
  return pathProblem(p) ? ROOT : p;
}

/** A listing row as the shared file browser and previewers take it (never deleted, no bin fields). */
function asItem(e: ShareFileEntry): DriveItem {
  return { ...e, filePath: e.shareFilePath, deleteFlag: 0, deleteTime: null, deleteBatchNum: null };
}

/** Sends the visitor to sign in and back here (SHARE_REQUIRE_LOGIN, or 保存到我的网盘). */
function useToLogin() {
  const href = useRouterState({ select: (s) => s.location.href });
  return () => {
    // A stale session would bounce straight off the login page; it has ended anyway.
    session.clear();
    // The sign-in page is its own document (login.html), not a route of this app.
    window.location.assign(`/login?redirect=${encodeURIComponent(href)}`);
  };
}

/**
 * The public share page `/share/:shareBatchNum` (spec §2, office.md §2), outside the layout and
 * open to anonymous visitors unless the server requires sign-in (HTTP 999: to /login and back).
 * It needs the network: nothing of someone else's share is kept on the device.
 *
 * sharetype -> (code prompt, with the attempts left) -> the shared tree: browse with a
 * breadcrumb inside the share, preview read-only, download, 保存到我的网盘.
 */
export function SharePage() {
  const { shareBatchNum = '' } = useParams({ strict: false });
  const online = useOnline();
  const toLogin = useToLogin();
  const info = useQuery({
    queryKey: [...visitKey(shareBatchNum), 'info'],
    queryFn: () => shareCalls.info(shareBatchNum),
    enabled: shareBatchNum.length > 0,
  });
  const needLogin = info.error instanceof ApiError && info.error.status === SESSION_EXPIRED_STATUS;
  useEffect(() => {
    if (needLogin) toLogin();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [needLogin]);

  let body: ReactNode;
  if (!online && !info.data) body = <Offline onRetry={() => void info.refetch()} />;
  else if (info.isPending || needLogin) body = <Loading />;
  else if (info.error)
    body =
      info.error instanceof OfflineError ? (
        <Offline onRetry={() => void info.refetch()} />
      ) : (
        <Gone message={info.error.message} />
      );
  else if (info.data.needCode) body = <CodePrompt shareBatchNum={shareBatchNum} />;
  else body = <ShareBrowser shareBatchNum={shareBatchNum} info={info.data} />;

  return (
    <div className={classes.page} data-testid="share-page">
      <div className={classes.sheet}>
        <Header info={info.data} />
        {body}
      </div>
    </div>
  );
}

function Header({ info }: { info: ShareInfo | undefined }) {
  const signedIn = Boolean(useSession());
  const navigate = useNavigate();
  const toLogin = useToLogin();
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs">
      <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
        <Title order={3} size="h4">
          {tCore.appName} · {P.title}
        </Title>
        {info && (
          <Text size="sm" c="dimmed" data-testid="share-meta">
            {P.from(info.sharer)} · {P.validUntil(info.endTime)}
          </Text>
        )}
        {info?.remarks && (
          <Text size="sm" style={{ wordBreak: 'break-all' }} data-testid="share-remarks">
            {P.remarks}：{info.remarks}
          </Text>
        )}
      </Stack>
      {signedIn ? (
        <Button
          variant="subtle"
          size="compact-sm"
          style={{ flexShrink: 0 }}
          onClick={() => void navigate({ to: '/resources/net-disk', search: { fileType: '0' } })}
        >
          {P.goDrive}
        </Button>
      ) : (
        <Button variant="subtle" size="compact-sm" style={{ flexShrink: 0 }} onClick={toLogin}>
          {P.signIn}
        </Button>
      )}
    </Group>
  );
}

function Loading() {
  return (
    <Center py="xl" role="status" aria-label={P.loading}>
      <Loader size="sm" />
    </Center>
  );
}

function Offline({ onRetry }: { onRetry: () => void }) {
  return (
    <EmptyState py="xl" icon={<IconCloudOff size={28} />} title={P.offline} data-testid="share-offline">
      <EmptyState.Actions>
        <Button variant="light" onClick={onRetry}>
          {P.retry}
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  );
}

/** Expired, revoked or unknown: the server's words as the title (shared/drive/share-rules.ts). */
function Gone({ message }: { message: string }) {
  const icon =
    message === SHARE_EXPIRED ? (
      <IconClockOff size={32} />
    ) : message === SHARE_REVOKED ? (
      <IconBan size={32} />
    ) : (
      <IconLinkOff size={32} />
    );
  return <EmptyState py={48} icon={icon} title={message} description={P.goneHint} data-testid="share-gone" />;
}

function CodePrompt({ shareBatchNum }: { shareBatchNum: string }) {
  const queryClient = useQueryClient();
  const toLogin = useToLogin();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (value: string) => {
    if (!value.trim()) {
      setError(tShare.page.codeTitle);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await shareCalls.checkCode(shareBatchNum, value);
      await queryClient.invalidateQueries({ queryKey: visitKey(shareBatchNum) });
    } catch (err) {
      if (err instanceof ApiError && err.status === SESSION_EXPIRED_STATUS) return toLogin();
      setError(
        err instanceof OfflineError ? P.offline : err instanceof Error ? err.message : tCore.errors.server,
      );
      setCode('');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Center py="xl">
      <Stack
        component="form"
        gap="md"
        align="center"
        maw={360}
        w="100%"
        onSubmit={(e) => {
          e.preventDefault();
          void submit(code);
        }}
        data-testid="share-code-prompt"
      >
        <IconLock size={36} color="var(--mantine-color-blue-6)" />
        <Title order={4}>{P.codeTitle}</Title>
        <Text size="sm" c="dimmed" ta="center">
          {P.codeHint}
        </Text>
        <PinInput
          length={CODE_LENGTH}
          type="alphanumeric"
          value={code}
          onChange={(v) => {
            setCode(v);
            setError(null);
          }}
          onComplete={(v) => void submit(v)}
          aria-label={P.codeLabel}
          oneTimeCode={false}
          autoFocus
          error={Boolean(error)}
          disabled={busy}
          data-testid="share-code-input"
        />
        {error && (
          <Text size="sm" c="red" role="alert" ta="center" data-testid="share-code-error">
            {error}
          </Text>
        )}
        <Button type="submit" loading={busy} fullWidth>
          {P.codeSubmit}
        </Button>
      </Stack>
    </Center>
  );
}

function ShareBrowser({ shareBatchNum, info }: { shareBatchNum: string; info: ShareInfo }) {
  const navigate = useNavigate();
  const toLogin = useToLogin();
  const signedIn = Boolean(useSession());
  const search = useRouterState({ select: (s) => s.location.search as Record<string, string | undefined> });
  const path = folderOf(search.path);
  const area: ReadArea = useMemo(() => ({ shareBatchNum }), [shareBatchNum]);
  const { ref, width } = useElementSize<HTMLDivElement>();
  const narrow = width > 0 && width < 600;
  const [selectionState, setSelectionState] = useState({ path, keys: new Set<number>() });
  const selection = selectionState.path === path ? selectionState.keys : new Set<number>();
  const setSelection = (keys: Set<number>) => setSelectionState({ path, keys });
  const [sort, setSort] = useState<{ by: 'name' | 'size' | 'time'; order: 'asc' | 'desc' }>({
    by: 'name',
    order: 'asc',
  });
  const [detail, setDetail] = useState<DriveItem | null>(null);
  const [saving, setSaving] = useState<DriveItem[] | null>(null);

  const listing = useQuery({
    queryKey: [...visitKey(shareBatchNum), 'list', path],
    queryFn: ({ signal }) => shareCalls.list(shareBatchNum, path, signal),
  });
  useEffect(() => {
    if (listing.error instanceof ApiError && listing.error.status === SESSION_EXPIRED_STATUS) toLogin();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [listing.error]);
  const items = useMemo(
    () => sortEntries((listing.data?.list ?? []).map(asItem), sort.by, sort.order),
    [listing.data, sort.by, sort.order],
  );
  const selected = items.filter((i) => selection.has(keyOf(i)));
  const preview = usePreviewHost({ areaQuery: area, menu: MENU }, () => undefined);

  const go = (p: string) =>
    void navigate({ to: sharePath(shareBatchNum), search: p === ROOT ? {} : { path: p } });
  const download = (list: DriveItem[]) => {
    if (list.length === 0) return;
    const a = document.createElement('a');
    a.href = downloadUrl(
      area,
      list.map((i) => i.userFileId),
    );
    a.download = '';
    a.rel = 'noopener';
    document.body.appendChild(a);
    a.click();
    a.remove();
  };
  const open = (item: DriveItem) => {
    if (item.isDir) return go(folderPath(path, item.fileName));
    if (!preview.open(item, items)) download([item]);
  };
  const save = (list: DriveItem[]) => {
    if (!signedIn) {
      notifications.show({ color: 'blue', message: P.saveSignIn });
      return toLogin();
    }
    setSaving(list);
  };

  const look: Record<'view' | 'download' | 'detail', { label: string; icon: ReactNode }> = {
    view: { label: M.view, icon: <IconEye size={ICON} /> },
    download: { label: M.download, icon: <IconDownload size={ICON} /> },
    detail: { label: M.detail, icon: <IconInfoCircle size={ICON} /> },
  };
  const run = (a: FileMenuItem, item: DriveItem) => {
    if (a === 'view') open(item);
    else if (a === 'download') download([item]);
    else if (a === 'detail') setDetail(item);
  };
  const renderMenu = (target: MenuTarget): ReactNode => {
    if (target.kind !== 'item') return null;
    const { item } = target;
    const many = selected.length > 1 && selection.has(keyOf(item));
    if (many)
      return (
        <>
          <Menu.Label>{tDrive.selection.count(selected.length)}</Menu.Label>
          {batchActions(MENU, selected).map((a) => (
            <Menu.Item
              key={a}
              className={driveClasses.menuItem}
              leftSection={look.download.icon}
              onClick={() => download(selected)}
              data-menu-action={a}
            >
              {look.download.label}
            </Menu.Item>
          ))}
          <Menu.Item
            className={driveClasses.menuItem}
            leftSection={<IconDeviceFloppy size={ICON} />}
            onClick={() => save(selected)}
            data-menu-action="save"
          >
            {P.save}
          </Menu.Item>
        </>
      );
    return (
      <>
        {fileMenuItems(MENU, item).map((a) => {
          const l = look[a as keyof typeof look];
          return l ? (
            <Menu.Item
              key={a}
              className={driveClasses.menuItem}
              leftSection={l.icon}
              onClick={() => run(a, item)}
              data-menu-action={a}
            >
              {l.label}
            </Menu.Item>
          ) : null;
        })}
        <Menu.Item
          className={driveClasses.menuItem}
          leftSection={<IconDeviceFloppy size={ICON} />}
          onClick={() => save([item])}
          data-menu-action="save"
        >
          {P.save}
        </Menu.Item>
      </>
    );
  };

  const crumbs = breadcrumb(path);
  const saveTargets = selected.length > 0 ? selected : items;
  const nameOf = (i: DriveItem) => joinName(i.fileName, i.extendName);
  const what = (list: DriveItem[]) =>
    list.length === 1 ? tDrive.remove.one(nameOf(list[0]!)) : tDrive.remove.many(list.length);

  let body: ReactNode;
  if (listing.isPending) body = <Loading />;
  else if (listing.error)
    body =
      listing.error instanceof OfflineError ? (
        <Offline onRetry={() => void listing.refetch()} />
      ) : (
        <EmptyState
          py="xl"
          icon={<IconAlertTriangle size={28} />}
          title={listing.error.message}
          data-testid="share-list-error"
        />
      );
  else
    body = (
      <FileBrowser
        label={P.title}
        items={items}
        mode="list"
        gridSize={80}
        narrow={narrow}
        recycle={false}
        thumbArea={area}
        selection={selection}
        onSelectionChange={setSelection}
        sort={sort}
        onSort={(by) => setSort({ by, order: sort.by === by && sort.order === 'asc' ? 'desc' : 'asc' })}
        onOpen={open}
        onDeleteKey={() => undefined}
        onRenameKey={() => undefined}
        renderMenu={renderMenu}
        empty={<EmptyState py="xl" icon={<IconInbox size={28} />} title={P.empty} />}
      />
    );

  return (
    <>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" c="dimmed">
          {tShare.mine.items(info.fileCount)}
        </Text>
        <Group gap="xs" wrap="nowrap">
          <Button
            variant="light"
            leftSection={<IconCloudDownload size={18} />}
            disabled={selected.length === 0}
            onClick={() => download(selected)}
            data-action="share-download"
          >
            {P.download}
          </Button>
          <Button
            leftSection={<IconDeviceFloppy size={18} />}
            disabled={saveTargets.length === 0}
            onClick={() => save(saveTargets)}
            data-action="share-save"
          >
            {selected.length > 0 ? P.saveSelected(selected.length) : P.save}
          </Button>
        </Group>
      </Group>
      <div ref={ref} className={classes.panel} data-testid="share-panel">
        <Group px="sm" gap={6} wrap="nowrap" mih={44} className={driveClasses.bar}>
          {path !== ROOT && (
            <Tooltip label={tDrive.toolbar.back}>
              <ActionIcon
                variant="subtle"
                color="gray"
                size={32}
                aria-label={tDrive.toolbar.back}
                onClick={() => go(parentPath(path))}
              >
                <IconArrowLeft size={18} />
              </ActionIcon>
            </Tooltip>
          )}
          <Breadcrumbs separatorMargin={4} data-testid="breadcrumb" style={{ minWidth: 0, flexWrap: 'wrap' }}>
            {crumbs.map((c, i) =>
              i === crumbs.length - 1 ? (
                <Text key={c.path} size="sm" fw={600} truncate>
                  {c.path === ROOT ? P.root : c.name}
                </Text>
              ) : (
                <Anchor key={c.path} component="button" type="button" size="sm" onClick={() => go(c.path)}>
                  {c.path === ROOT ? P.root : c.name}
                </Anchor>
              ),
            )}
          </Breadcrumbs>
        </Group>
        <Box style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>{body}</Box>
      </div>
      {preview.host}
      <DetailDialog
        opened={detail !== null}
        view={{ area: 'own', areaQuery: { shareBatchNum } }}
        item={detail}
        fileType={0}
        onOpenPath={() => undefined}
        onClose={() => setDetail(null)}
      />
      {saving && (
        <SaveShareDialog
          opened
          shareBatchNum={shareBatchNum}
          ids={saving.map((i) => i.userFileId)}
          what={what(saving)}
          onClose={(result) => {
            setSaving(null);
            if (result === 'confirm') {
              setSelection(new Set());
              notifications.show({ color: 'green', message: P.saved });
            }
          }}
        />
      )}
    </>
  );
}
