import {
  ActionIcon,
  Anchor,
  Breadcrumbs,
  Button,
  FileButton,
  Group,
  Menu,
  Progress,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import {
  IconArrowLeft,
  IconDots,
  IconDownload,
  IconFile,
  IconFolder,
  IconFolderPlus,
  IconPencil,
  IconTrash,
  IconUpload,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { FileEntry } from '../../../shared/api/drive';
import { formatSize } from '../../../shared/drive/file-types';
import { ROOT, breadcrumb, folderPath, joinName, parentPath } from '../../../shared/drive/names';
import { CachedViewState } from '../../components/cached-state';
import { NameDialog } from '../../components/name-dialog';
import { OfflineNote } from '../../components/offline-note';
import { EmptyBlock, confirmAction, notifySuccess } from '../../components/page-states';
import { errorToast } from '../../lib/api';
import { useCachedQuery } from '../../lib/cached-query';
import { tDrive } from '../../lib/i18n/drive';
import { tProject } from '../../lib/i18n/project';
import { tUpload } from '../../lib/i18n/upload';
import { useOnline } from '../../lib/online';
import { docCalls, docKeys } from '../../lib/project-docs';
import { readyEngine, useUploads } from '../../lib/upload';

const D = tProject.docs;
const fullNameOf = (f: FileEntry) => (f.isDir ? f.fileName : joinName(f.fileName, f.extendName));

/**
 * 项目文档 (the /project/sub tab view=docs): the project's document space, which is a drive
 * area of its own (space p:<projectId>; server/drive/area.ts), so these are the drive's calls
 * with projectId: list (cached for offline reading like the board), new folder, upload (the
 * drive's resumable MD5 upload queue, lib/upload, with the project as its area), download,
 * rename and a permanent delete after a confirmation. `writable`: the project is not archived.
 */
export function ProjectDocs(props: {
  projectId: number;
  writable: boolean;
  path: string;
  onPath: (path: string) => void;
}) {
  const { projectId, path } = props;
  const qc = useQueryClient();
  const online = useOnline();
  const view = useCachedQuery<FileEntry[]>({
    queryKey: docKeys.folder(projectId, path),
    fetch: ({ signal }) => docCalls.list(projectId, path, signal),
    toastErrors: false,
  });
  const canWrite = props.writable && online && !view.offline;
  const [naming, setNaming] = useState<{ item: FileEntry | null } | null>(null);
  const uploads = useUploads().filter(
    (u) => u.area.projectId === projectId && u.filePath === path && u.state !== 'success',
  );
  const refresh = () => qc.invalidateQueries({ queryKey: ['drive', 'project', projectId] });

  const upload = async (files: File[]) => {
    const engine = await readyEngine();
    if (!engine || !files.length) return;
    const r = await engine.add(
      files.map((file) => ({ file, name: file.name, lastModified: file.lastModified })),
      { filePath: path, area: { projectId } },
      1,
      null, // no quota here: the museum's bytes
    );
    if (r.batchRefused) errorToast(r.batchRefused);
    for (const x of r.rejected) errorToast(tUpload.rejected(x.name, x.reason));
  };

  const remove = (f: FileEntry) =>
    confirmAction({
      title: D.deleteTitle,
      message: D.deleteConfirm(fullNameOf(f)),
      confirmLabel: D.delete,
      danger: true,
      run: async () => {
        await docCalls.remove(projectId, f.userFileId);
        notifySuccess(D.deleted);
        await refresh();
      },
    });

  const crumbs = breadcrumb(path);
  const rows = view.data ?? [];
  return (
    <Stack gap="sm" data-testid="project-docs">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
          {path !== ROOT && (
            <ActionIcon variant="subtle" aria-label={D.back} onClick={() => props.onPath(parentPath(path))}>
              <IconArrowLeft size={18} />
            </ActionIcon>
          )}
          <Breadcrumbs separatorMargin={4} data-testid="docs-breadcrumb">
            {crumbs.map((c, i) =>
              i === crumbs.length - 1 ? (
                <Text key={c.path} size="sm" fw={600}>
                  {c.path === ROOT ? D.root : c.name}
                </Text>
              ) : (
                <Anchor key={c.path} component="button" size="sm" onClick={() => props.onPath(c.path)}>
                  {c.path === ROOT ? D.root : c.name}
                </Anchor>
              ),
            )}
          </Breadcrumbs>
          <OfflineNote view={view} />
        </Group>
        <Group gap="xs">
          <Button
            variant="light"
            leftSection={<IconFolderPlus size={16} />}
            disabled={!canWrite}
            onClick={() => setNaming({ item: null })}
            data-testid="docs-new-folder"
          >
            {D.newFolder}
          </Button>
          <FileButton multiple onChange={(f) => void upload(f)} disabled={!canWrite}>
            {(p) => (
              <Button {...p} leftSection={<IconUpload size={16} />} data-testid="docs-upload">
                {D.upload}
              </Button>
            )}
          </FileButton>
        </Group>
      </Group>
      {!props.writable && (
        <Text size="sm" c="dimmed">
          {D.readOnlyArchived}
        </Text>
      )}
      {props.writable && !online && (
        <Text size="sm" c="dimmed">
          {D.offline}
        </Text>
      )}
      {uploads.map((u) => (
        <Stack key={u.id} gap={2} data-testid="docs-uploading">
          <Text size="xs" c={u.state === 'error' ? 'red' : 'dimmed'}>
            {u.state === 'error' ? D.uploadFailed(u.name, u.error ?? '') : D.uploading(u.name, u.percent)}
          </Text>
          <Progress value={u.percent} size="sm" color={u.state === 'error' ? 'red' : undefined} />
        </Stack>
      ))}
      {view.status !== 'ready' ? (
        <CachedViewState view={view} />
      ) : rows.length === 0 ? (
        <EmptyBlock title={D.empty} description={props.writable ? D.emptyHint : undefined} />
      ) : (
        <Table.ScrollContainer minWidth={480}>
          <Table highlightOnHover verticalSpacing={6}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{D.name}</Table.Th>
                <Table.Th w={100}>{D.size}</Table.Th>
                <Table.Th w={170}>{D.time}</Table.Th>
                <Table.Th w={60}>{D.actions}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {/* The server answers folders first (the drive's list order). */}
              {rows.map((f) => {
                const name = fullNameOf(f);
                return (
                  <Table.Tr key={f.userFileId} data-testid="docs-row">
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        {f.isDir ? <IconFolder size={18} /> : <IconFile size={18} />}
                        {f.isDir ? (
                          <Anchor
                            component="button"
                            size="sm"
                            onClick={() => props.onPath(folderPath(f.filePath, f.fileName))}
                          >
                            {name}
                          </Anchor>
                        ) : (
                          <Anchor
                            size="sm"
                            href={docCalls.downloadUrl(projectId, f.userFileId)}
                            download={name}
                          >
                            {name}
                          </Anchor>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{f.isDir ? '—' : formatSize(f.fileSize)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{f.uploadTime}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Menu position="bottom-end" withinPortal>
                        <Menu.Target>
                          <ActionIcon variant="subtle" aria-label={`${D.actions}：${name}`}>
                            <IconDots size={16} />
                          </ActionIcon>
                        </Menu.Target>
                        <Menu.Dropdown>
                          {!f.isDir && (
                            <Menu.Item
                              component="a"
                              href={docCalls.downloadUrl(projectId, f.userFileId)}
                              download={name}
                              leftSection={<IconDownload size={14} />}
                            >
                              {D.download}
                            </Menu.Item>
                          )}
                          <Menu.Item
                            leftSection={<IconPencil size={14} />}
                            disabled={!canWrite}
                            onClick={() => setNaming({ item: f })}
                          >
                            {D.rename}
                          </Menu.Item>
                          <Menu.Item
                            color="red"
                            leftSection={<IconTrash size={14} />}
                            disabled={!canWrite}
                            onClick={() => remove(f)}
                          >
                            {D.delete}
                          </Menu.Item>
                        </Menu.Dropdown>
                      </Menu>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {naming && (
        // The drive's own name dialog: its rules, the n/255 counter, the server's words in place.
        <NameDialog
          key={naming.item?.userFileId ?? 'new'}
          opened
          title={naming.item ? tDrive.rename.title : tDrive.newFolder.title}
          label={naming.item ? tDrive.rename.label : tDrive.newFolder.label}
          placeholder={naming.item ? tDrive.rename.placeholder : tDrive.newFolder.placeholder}
          what={naming.item ? '文件名称' : '文件夹名称'}
          initial={naming.item ? fullNameOf(naming.item) : ''}
          selectBaseName={naming.item?.isDir === 0}
          onSubmit={async (name) => {
            const item = naming.item;
            if (item && name === fullNameOf(item)) return 'unchanged';
            if (item) await docCalls.rename(projectId, item.userFileId, name);
            else await docCalls.createFolder(projectId, path, name);
            notifySuccess(item ? D.renamed : D.created);
            return { queued: false };
          }}
          onClose={(result) => {
            setNaming(null);
            if (result === 'confirm') void refresh();
          }}
        />
      )}
    </Stack>
  );
}
