import { ActionIcon, Badge, Button, Group, Text, Tooltip } from '@mantine/core';
import { IconArrowLeft, IconDownload, IconEdit, IconInfoCircle } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useCanGoBack, useNavigate, useRouter, useRouterState } from '@tanstack/react-router';
import { Suspense, lazy, useCallback, useMemo, useState } from 'react';
import type { FileEntry } from '../../../shared/api/drive';
import { isBrowserEditable, type OfficeConfig } from '../../../shared/api/office';
import { CREATABLE_OFFICE_EXTS, formatSize } from '../../../shared/drive/file-types';
import { joinName } from '../../../shared/drive/names';
import { OutboxButton } from '../../components/outbox-panel';
import { drive } from '../../lib/api';
import { tPreview } from '../../lib/i18n/preview';
import { useOnline } from '../../lib/online';
import { useSession } from '../../lib/session';
import { downloadHref, driveFolder, loadBytes, mayEdit, readQuery, type LoadedBytes } from './office-source';
import classes from './office.module.css';
import { ViewerLoading, ViewerMessage } from './viewer-state';

/*
 * The /onlyoffice route (spec/office.md §2, spec/drive.md §5 "Opening files": office files
 * open here).
 *
 * - With an ONLYOFFICE Document Server configured: its editor (edit for ot=edit and ot=add,
 *   view for ot=detail), exactly as before; when it cannot be reached, the read-only viewer.
 * - Without one (the default): Word and Excel files open for editing in the browser for
 *   ot=edit and ot=add when the person may change the file (edit-session.tsx: docx with
 *   @eigenpal/docx-editor-react, xlsx with @fortune-sheet/react over ExcelJS), and save back
 *   through office/savefile. ot=detail, PowerPoint, files over 30 MB and anyone who may not
 *   change the file get the read-only viewer (docx-preview, ExcelJS, pptx-preview); 编辑 in the
 *   header switches to editing for whoever may. Legacy doc, xls and ppt say
 *   暂不支持在线查看，请下载后查看.
 *
 * Every viewer and editor is its own lazily loaded chunk. The header always offers 返回 and 下载.
 */

const DocxView = lazy(() => import('./docx-view'));
const XlsxView = lazy(() => import('./xlsx-view'));
const PptxView = lazy(() => import('./pptx-view'));
const OnlyOfficeEditor = lazy(() => import('./onlyoffice-editor'));
const EditSession = lazy(() => import('./edit-session'));

/** The most a tablet is asked to draw (or edit) in the browser; bigger files download. */
export const VIEW_MAX_BYTES = 30 * 1024 * 1024;

const tt = tPreview.office;
const has = (list: readonly string[], ext: string) => list.includes(ext);

function Viewer({ ext, bytes }: { ext: string; bytes: ArrayBuffer }) {
  if (ext === 'docx') return <DocxView bytes={bytes} />;
  if (ext === 'xlsx') return <XlsxView bytes={bytes} />;
  return <PptxView bytes={bytes} />;
}

/** The bytes of the file's current version; never kept once the page is left. */
function useBytes(q: ReturnType<typeof readQuery>, entry: FileEntry, enabled: boolean) {
  return useQuery<LoadedBytes>({
    queryKey: ['office', 'bytes', JSON.stringify(q.area), entry.userFileId, entry.uploadTime],
    queryFn: ({ signal }) => loadBytes(q.area, entry.userFileId, signal),
    enabled,
    retry: false,
    // Tens of megabytes: not kept once the page is left.
    gcTime: 0,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

/** The file, read-only or editable; the header's 保存 lives in `slot`. */
function Document(props: {
  q: ReturnType<typeof readQuery>;
  entry: FileEntry;
  editing: boolean;
  slot: HTMLElement | null;
  search: Record<string, unknown>;
  author: string;
  onEditFailed: (message: string) => void;
}) {
  const { q, entry, editing } = props;
  const ext = entry.extendName.toLowerCase();
  const viewable = has(CREATABLE_OFFICE_EXTS, ext) && entry.fileSize <= VIEW_MAX_BYTES;
  const bytes = useBytes(q, entry, viewable);
  // doc, xls and ppt (and anything else that reached this route) have no viewer.
  if (!has(CREATABLE_OFFICE_EXTS, ext)) return <ViewerMessage message={tt.legacy} />;
  if (entry.fileSize > VIEW_MAX_BYTES)
    return <ViewerMessage message={tt.tooLarge(formatSize(entry.fileSize))} />;
  if (bytes.error) return <ViewerMessage message={bytes.error.message} />;
  if (!bytes.data) return <ViewerLoading />;
  if (editing && isBrowserEditable(ext)) {
    return (
      <Suspense fallback={<ViewerLoading />}>
        <EditSession
          key={entry.userFileId}
          ext={ext}
          bytes={bytes.data.bytes}
          md5={bytes.data.md5}
          entry={entry}
          area={q.area}
          author={props.author}
          slot={props.slot}
          search={props.search}
          onFail={props.onEditFailed}
        />
      </Suspense>
    );
  }
  return (
    <Suspense fallback={<ViewerLoading />}>
      <Viewer ext={ext} bytes={bytes.data.bytes} />
    </Suspense>
  );
}

export function OfficePage() {
  const search = useRouterState({ select: (s) => s.location.search as Record<string, string | undefined> });
  const q = useMemo(() => readQuery(search), [search]);
  const navigate = useNavigate();
  const router = useRouter();
  const canGoBack = useCanGoBack();
  const online = useOnline();
  const session = useSession();
  const phone = useMediaQuery('(max-width: 575.98px)') ?? false;
  const [editorDown, setEditorDown] = useState(false);
  const onUnavailable = useCallback(() => setEditorDown(true), []);
  const [slot, setSlot] = useState<HTMLDivElement | null>(null);
  // Why the in-browser editor gave up on this file (it is then shown read-only).
  const [editFailed, setEditFailed] = useState<{ id: number; message: string } | null>(null);

  const id = q.userFileId;
  const entry = useQuery({
    queryKey: ['office', 'entry', JSON.stringify(q.area), id],
    enabled: id !== null,
    retry: false,
    // Read once per opening: a refetch after a save would bring a new version and reload the
    // document under the person's cursor (their later edits with it).
    staleTime: Infinity,
    // …and read afresh at the next opening.
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    queryFn: ({ signal }) =>
      drive.get<FileEntry>('/file/detail', { query: { ...q.area, userFileId: id! }, signal, silent: true }),
  });
  const office = useQuery({
    queryKey: ['office', 'config'],
    retry: false,
    staleTime: 60_000,
    queryFn: ({ signal }) => drive.get<OfficeConfig>('/office/config', { signal, silent: true }),
  });

  const name = entry.data
    ? joinName(entry.data.fileName, entry.data.extendName)
    : joinName(q.fileName, q.extendName) || tt.title;
  const onlyOffice = Boolean(office.data?.onlyoffice);
  const useEditor = onlyOffice && online && !editorDown;
  const edit = q.ot !== 'detail';

  // Editing in the browser: no Document Server, a docx or xlsx the person may change, not too big.
  const ext = (entry.data?.extendName ?? q.extendName).toLowerCase();
  const canEditHere =
    !office.isPending &&
    !onlyOffice &&
    isBrowserEditable(ext) &&
    mayEdit(q.area, session?.menu.grantedKeys ?? []) &&
    (entry.data?.fileSize ?? 0) <= VIEW_MAX_BYTES &&
    editFailed?.id !== id;
  const editingHere = canEditHere && edit && Boolean(entry.data);

  const back = () => {
    if (canGoBack) router.history.back();
    else void navigate(driveFolder(q.area, q.filePath));
  };

  let body;
  if (id === null) body = <ViewerMessage message={tt.missingFile} />;
  else if (office.isPending) body = <ViewerLoading />;
  else if (useEditor)
    body = (
      <Suspense fallback={<ViewerLoading />}>
        <OnlyOfficeEditor area={q.area} userFileId={id} edit={edit} onUnavailable={onUnavailable} />
      </Suspense>
    );
  else if (entry.error) body = <ViewerMessage message={online ? entry.error.message : tt.offline} />;
  else if (!entry.data) body = <ViewerLoading />;
  else
    body = (
      <Document
        q={q}
        entry={entry.data}
        editing={editingHere}
        slot={slot}
        search={search}
        author={session?.user.userName ?? ''}
        onEditFailed={(message) => setEditFailed({ id: id, message })}
      />
    );

  return (
    <div className={classes.page} data-testid="office-page">
      <Group className={classes.header} gap="xs" wrap="nowrap" justify="space-between">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          <Tooltip label={tt.back}>
            <ActionIcon variant="subtle" color="gray" size={36} aria-label={tt.back} onClick={back}>
              <IconArrowLeft size={20} />
            </ActionIcon>
          </Tooltip>
          <Text fw={600} truncate="end" title={name} data-testid="office-title">
            {name}
          </Text>
          {!useEditor && !editingHere && id !== null && (
            <Badge variant="light" color="gray" style={{ flexShrink: 0 }}>
              {tt.readOnly}
            </Badge>
          )}
        </Group>
        <Group gap="xs" wrap="nowrap">
          {useEditor && edit && (
            <Tooltip label={tt.editorHint}>
              <IconInfoCircle size={18} color="var(--mantine-color-gray-6)" aria-label={tt.editorHint} />
            </Tooltip>
          )}
          <OutboxButton />
          {/* The editing session's 保存 and its state (edit-session.tsx). */}
          <div ref={setSlot} className={classes.slot} />
          {canEditHere && !editingHere && entry.data && (
            <Tooltip label={tt.editHint}>
              <Button
                variant="light"
                leftSection={<IconEdit size={18} />}
                data-testid="office-edit"
                onClick={() =>
                  void navigate({ to: '/onlyoffice', search: { ...search, ot: 'edit' }, replace: true })
                }
              >
                {tt.edit}
              </Button>
            </Tooltip>
          )}
          {id !== null &&
            (phone ? (
              // A phone's header also holds 保存 (and 待同步): 下载 keeps only its icon there.
              <ActionIcon
                component="a"
                href={downloadHref(q.area, id)}
                download=""
                variant="light"
                size={36}
                aria-label={tt.download}
                data-testid="office-download"
                aria-disabled={!online || undefined}
                onClick={(e) => {
                  if (!online) e.preventDefault();
                }}
              >
                <IconDownload size={18} />
              </ActionIcon>
            ) : (
              <Button
                component="a"
                href={downloadHref(q.area, id)}
                download=""
                variant="light"
                leftSection={<IconDownload size={18} />}
                data-testid="office-download"
                aria-disabled={!online || undefined}
                onClick={(e) => {
                  if (!online) e.preventDefault();
                }}
              >
                {tt.download}
              </Button>
            ))}
        </Group>
      </Group>
      {editorDown && (
        <Text size="sm" c="orange.8" px="md" py={6} className={classes.note}>
          {tt.editorFailed}
        </Text>
      )}
      {editFailed?.id === id && edit && (
        <Text size="sm" c="orange.8" px="md" py={6} className={classes.note} data-testid="office-edit-failed">
          {editFailed.message}
        </Text>
      )}
      {!onlyOffice && !office.isPending && edit && ext === 'pptx' && (
        <Text size="sm" c="dimmed" px="md" py={6} className={classes.note}>
          {tt.notEditable}
        </Text>
      )}
      <div className={classes.body}>{body}</div>
    </div>
  );
}
