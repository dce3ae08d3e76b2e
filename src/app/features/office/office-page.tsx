import { ActionIcon, Badge, Button, Group, Text, Tooltip } from '@mantine/core';
import { IconArrowLeft, IconDownload, IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useCanGoBack, useNavigate, useRouter, useRouterState } from '@tanstack/react-router';
import { Suspense, lazy, useCallback, useMemo, useState } from 'react';
import type { FileEntry } from '../../../shared/api/drive';
import type { OfficeConfig } from '../../../shared/api/office';
import { CREATABLE_OFFICE_EXTS, formatSize } from '../../../shared/drive/file-types';
import { joinName } from '../../../shared/drive/names';
import { drive } from '../../lib/api';
import { t } from '../../lib/i18n';
import { useOnline } from '../../lib/online';
import { downloadHref, driveFolder, loadBytes, readQuery } from './office-source';
import classes from './office.module.css';
import { ViewerLoading, ViewerMessage } from './viewer-state';

/*
 * The /onlyoffice route (spec/office.md §2, spec/drive.md §5 "Opening files": office files
 * open here). With an ONLYOFFICE Document Server configured, its editor (edit for ot=edit and
 * ot=add, view for ot=detail). Without one — or when it cannot be reached — a read-only viewer
 * in the browser: Word with docx-preview, Excel with ExcelJS, PowerPoint with pptx-preview,
 * each loaded only when such a file is opened. Legacy doc, xls and ppt have no viewer: the page
 * says 暂不支持在线查看，请下载后查看. The header always offers 返回 and 下载.
 */

const DocxView = lazy(() => import('./docx-view'));
const XlsxView = lazy(() => import('./xlsx-view'));
const PptxView = lazy(() => import('./pptx-view'));
const OnlyOfficeEditor = lazy(() => import('./onlyoffice-editor'));

/** The most a tablet is asked to draw in the browser; bigger files download. */
export const VIEW_MAX_BYTES = 30 * 1024 * 1024;

const tt = t.preview.office;
const has = (list: readonly string[], ext: string) => list.includes(ext);

function Viewer({ ext, bytes }: { ext: string; bytes: ArrayBuffer }) {
  if (ext === 'docx') return <DocxView bytes={bytes} />;
  if (ext === 'xlsx') return <XlsxView bytes={bytes} />;
  return <PptxView bytes={bytes} />;
}

/** The read-only viewer: the entry (for its real name and size), then the bytes. */
function ReadOnly({ q, entry }: { q: ReturnType<typeof readQuery>; entry: FileEntry }) {
  const ext = entry.extendName.toLowerCase();
  const viewable = has(CREATABLE_OFFICE_EXTS, ext) && entry.fileSize <= VIEW_MAX_BYTES;
  const bytes = useQuery({
    queryKey: ['office', 'bytes', JSON.stringify(q.area), entry.userFileId, entry.uploadTime],
    queryFn: ({ signal }) => loadBytes(q.area, entry.userFileId, signal),
    enabled: viewable,
    retry: false,
    // Tens of megabytes: not kept once the page is left.
    gcTime: 0,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  // doc, xls and ppt (and anything else that reached this route) have no viewer.
  if (!has(CREATABLE_OFFICE_EXTS, ext)) return <ViewerMessage message={tt.legacy} />;
  if (entry.fileSize > VIEW_MAX_BYTES)
    return <ViewerMessage message={tt.tooLarge(formatSize(entry.fileSize))} />;
  if (bytes.error) return <ViewerMessage message={bytes.error.message} />;
  if (!bytes.data) return <ViewerLoading />;
  return (
    <Suspense fallback={<ViewerLoading />}>
      <Viewer ext={ext} bytes={bytes.data} />
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
  const [editorDown, setEditorDown] = useState(false);
  const onUnavailable = useCallback(() => setEditorDown(true), []);

  const id = q.userFileId;
  const entry = useQuery({
    queryKey: ['office', 'entry', JSON.stringify(q.area), id],
    enabled: id !== null,
    retry: false,
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
  const useEditor = Boolean(office.data?.onlyoffice) && online && !editorDown;
  const edit = q.ot !== 'detail';

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
  else body = <ReadOnly q={q} entry={entry.data} />;

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
          {!useEditor && id !== null && (
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
          {id !== null && (
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
          )}
        </Group>
      </Group>
      {editorDown && (
        <Text size="sm" c="orange.8" px="md" py={6} className={classes.note}>
          {tt.editorFailed}
        </Text>
      )}
      <div className={classes.body}>{body}</div>
    </div>
  );
}
