import { ActionIcon, Badge, Button, Divider, FileButton, Group, Progress, Stack, Text } from '@mantine/core';
import { IconDownload, IconFile, IconLink, IconPaperclip, IconTrash, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import type { TaskDetail } from '../../../shared/api/project';
import { formatSize } from '../../../shared/drive/file-types';
import { DriveFilePicker } from '../../components/drive-file-picker';
import { confirmAction, notifySuccess } from '../../components/page-states';
import { ProjectFilePicker } from '../../components/project-file-picker';
import { errorToast } from '../../lib/api';
import { uploadAttachment } from '../../lib/attach';
import { tCore } from '../../lib/i18n-core';
import { tProject } from '../../lib/i18n/project';
import { useOnline } from '../../lib/online';
import { filesCalls } from './files-data';

const F = tProject.files;

/**
 * A task's files (spec §2, §5): upload (attach/upload, or attach/chunk for files over one
 * chunk, with tableName 'project'; then projectTask/upload binds it), associate a file of my
 * drive (copied; it keeps source 'drive') or a document of the project's document space
 * (copied; source 'project'; the picker offers the projects I am in), download
 * (attach/downloadFile, the token cookie authorizes it) and delete after a confirmation. All
 * of it needs the network: the bytes are not queued in the outbox.
 */
export function TaskFiles(props: { detail: TaskDetail; onChanged: () => Promise<unknown> }) {
  const { detail } = props;
  const online = useOnline();
  const [progress, setProgress] = useState<{ name: string; pct: number } | null>(null);
  const [picker, setPicker] = useState<'drive' | 'project' | null>(null);

  const upload = async (file: File | null) => {
    if (!file) return;
    setProgress({ name: file.name, pct: 0 });
    try {
      const att = await uploadAttachment('file', file, {
        tableName: 'project',
        onProgress: (pct) => setProgress({ name: file.name, pct }),
      });
      await filesCalls.bindUpload(detail.taskId, att.attId);
      notifySuccess(F.uploaded);
      await props.onChanged();
    } catch (e) {
      // Silent calls: the server's words (too large, no right, a deleted task) as one toast.
      errorToast(e instanceof Error ? e.message : tCore.errors.server);
    } finally {
      setProgress(null);
    }
  };
  const associated = async () => {
    notifySuccess(F.associated);
    await props.onChanged();
  };

  return (
    <Stack gap={6} data-testid="task-files">
      <Divider label={F.title} labelPosition="left" />
      {detail.fileList.length === 0 && (
        <Text size="sm" c="dimmed">
          {F.empty}
        </Text>
      )}
      {detail.fileList.map((f) => (
        <Group key={f.attachmentId} gap="xs" wrap="nowrap" data-testid="task-file">
          <IconFile size={16} style={{ flex: 'none' }} />
          <Text size="sm" truncate style={{ flex: 1 }} title={`${f.addedBy} · ${formatSize(f.attSize)}`}>
            {f.attName}
          </Text>
          <Badge size="xs" variant="light" color={f.source === 'upload' ? 'gray' : 'blue'}>
            {F.source[f.source]}
          </Badge>
          <ActionIcon
            component="a"
            href={f.attPath}
            download={f.attName}
            variant="subtle"
            size="sm"
            aria-label={`${F.download}：${f.attName}`}
          >
            <IconDownload size={14} />
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            color="red"
            size="sm"
            disabled={!online}
            aria-label={`${F.deleteFile}：${f.attName}`}
            onClick={() =>
              confirmAction({
                title: F.deleteFile,
                message: F.deleteConfirm(f.attName),
                confirmLabel: tCore.common.delete,
                danger: true,
                run: async () => {
                  await filesCalls.deleteFile(detail.taskId, f.attachmentId);
                  notifySuccess(F.deleted);
                  await props.onChanged();
                },
              })
            }
          >
            <IconTrash size={14} />
          </ActionIcon>
        </Group>
      ))}
      {progress && (
        <Stack gap={2}>
          <Text size="xs" c="dimmed">
            {F.uploading(progress.name, progress.pct)}
          </Text>
          <Progress value={progress.pct} size="sm" />
        </Stack>
      )}
      <Group gap="xs">
        <FileButton onChange={(f) => void upload(f)} disabled={!online || progress !== null}>
          {(p) => (
            <Button {...p} size="compact-sm" variant="light" leftSection={<IconUpload size={14} />}>
              {F.upload}
            </Button>
          )}
        </FileButton>
        <Button
          size="compact-sm"
          variant="light"
          leftSection={<IconPaperclip size={14} />}
          disabled={!online}
          onClick={() => setPicker('drive')}
        >
          {F.fromDrive}
        </Button>
        <Button
          size="compact-sm"
          variant="light"
          leftSection={<IconLink size={14} />}
          disabled={!online}
          onClick={() => setPicker('project')}
        >
          {tProject.docs.fromDocs}
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        {online ? F.uploadHint : F.offline}
      </Text>
      {picker === 'drive' && (
        <DriveFilePicker
          opened
          onClose={() => setPicker(null)}
          onPick={async (file) => {
            await filesCalls.associate(detail.taskId, { fileId: file.userFileId });
            await associated();
          }}
        />
      )}
      {picker === 'project' && (
        <ProjectFilePicker
          mode="associate"
          opened
          onClose={() => setPicker(null)}
          onPick={async (item) => {
            await filesCalls.associate(detail.taskId, { fileId: item.fileId!, projectId: item.projectId! });
            await associated();
          }}
        />
      )}
    </Stack>
  );
}
