import { ActionIcon, Button, FileButton, Group, Image, Input, Progress, Stack, Text } from '@mantine/core';
import { IconCloud, IconPaperclip, IconPhoto, IconX } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { ATTACH_HINT_TYPES, type Attachment } from '../../../shared/api/attach';
import { formatSize } from '../../../shared/drive/file-types';
import type { FormField } from '../../../shared/workflow/definition';
import { DriveFilePicker } from '../../components/drive-file-picker';
import { attachFromDrive, deleteAttachment, uploadAttachment } from '../../lib/attach';
import { tCore } from '../../lib/i18n-core';
import { tApprovalStart } from '../../lib/i18n/approval-start';

const S = tApprovalStart;
export const APPROVAL_TABLE = 'approval';

interface Uploading {
  key: string;
  name: string;
  percent: number;
  error: string | null;
  /** Cancelling aborts it; a chunked upload then tells the server (lib/attach). */
  abort: AbortController;
}

/**
 * An attachment or image field of the start form: uploads with progress (attach/upload, or
 * attach/uploadimage for images, tableName 'approval'), removal before submit (the unsent
 * upload is deleted on the server too), thumbnails for images, and 从网盘选择 for files.
 * `busy` tells the form whether an upload is still running, so it never submits without it.
 */
export function AttachmentField({
  field,
  value,
  update,
  error,
  onBusy,
}: {
  field: FormField;
  value: Attachment[];
  update: (fn: (prev: Attachment[]) => Attachment[]) => void;
  error?: string;
  onBusy: (fieldId: string, busy: boolean) => void;
}) {
  const image = field.type === 'image';
  const [uploading, setUploading] = useState<Uploading[]>([]);
  const [picker, setPicker] = useState(false);
  const aborts = useRef(new Set<AbortController>());

  // Leaving the page stops the uploads it started (the draft keeps only finished ones).
  useEffect(() => {
    const running = aborts.current;
    return () => running.forEach((a) => a.abort());
  }, []);
  const running = uploading.some((u) => !u.error);
  useEffect(() => onBusy(field.id, running), [field.id, running, onBusy]);

  const add = (files: File[]) => {
    for (const file of files) {
      const key = crypto.randomUUID();
      const abort = new AbortController();
      aborts.current.add(abort);
      setUploading((u) => [...u, { key, name: file.name, percent: 0, error: null, abort }]);
      const patch = (p: Partial<Uploading>) =>
        setUploading((u) => u.map((x) => (x.key === key ? { ...x, ...p } : x)));
      uploadAttachment(image ? 'image' : 'file', file, {
        tableName: APPROVAL_TABLE,
        onProgress: (percent) => patch({ percent }),
        signal: abort.signal,
      })
        .then(
          (att) => {
            update((prev) => [...prev, att]);
            setUploading((u) => u.filter((x) => x.key !== key));
          },
          (err: unknown) => {
            if (abort.signal.aborted) return;
            patch({ error: err instanceof Error ? err.message : tCore.errors.server });
          },
        )
        .finally(() => aborts.current.delete(abort));
    }
  };

  const remove = (att: Attachment) => {
    update((prev) => prev.filter((a) => a.attId !== att.attId));
    // Not yet part of a request: nothing else holds it.
    void deleteAttachment(att.attId).catch(() => {});
  };

  /** Stops an upload still running (its held room on the server goes too) or drops a failed one. */
  const dropUploading = (u: Uploading) => {
    u.abort.abort();
    setUploading((l) => l.filter((x) => x.key !== u.key));
  };

  const removeButton = (name: string, onClick: () => void, label = S.remove(name)) => (
    <ActionIcon variant="subtle" color="gray" aria-label={label} onClick={onClick}>
      <IconX size={14} />
    </ActionIcon>
  );

  return (
    <Input.Wrapper
      label={field.label}
      withAsterisk={field.required}
      error={error}
      description={image ? S.imageHint : S.uploadHint(ATTACH_HINT_TYPES.join('、'))}
      data-testid={`field-${field.id}`}
    >
      <Stack gap={6} mt={6}>
        <Group gap="xs">
          <FileButton
            onChange={add}
            multiple
            accept={image ? 'image/png,image/jpeg,image/gif,image/webp' : undefined}
          >
            {(props) => (
              <Button
                {...props}
                size="xs"
                variant="light"
                leftSection={image ? <IconPhoto size={14} /> : <IconPaperclip size={14} />}
              >
                {image ? S.uploadImage : S.upload}
              </Button>
            )}
          </FileButton>
          {/* Photos of objects usually already sit in the drive; the server refuses a non-image. */}
          <Button
            size="xs"
            variant="subtle"
            leftSection={<IconCloud size={14} />}
            onClick={() => setPicker(true)}
          >
            {S.fromDrive}
          </Button>
        </Group>
        {image
          ? value.length > 0 && (
              <Group gap="xs">
                {value.map((a) => (
                  <div key={a.attId} style={{ position: 'relative' }} data-testid="approval-image">
                    <Image src={a.attPath} alt={a.attName} w={88} h={88} fit="cover" radius="sm" />
                    <ActionIcon
                      size="sm"
                      variant="filled"
                      color="dark"
                      aria-label={S.remove(a.attName)}
                      onClick={() => remove(a)}
                      style={{ position: 'absolute', top: 2, right: 2 }}
                    >
                      <IconX size={12} />
                    </ActionIcon>
                  </div>
                ))}
              </Group>
            )
          : value.map((a) => (
              <Group key={a.attId} gap="xs" wrap="nowrap" data-testid="approval-attachment">
                <IconPaperclip size={16} style={{ flex: 'none' }} />
                <Text size="sm" truncate style={{ flex: 1 }}>
                  {a.attName}
                </Text>
                <Text size="xs" c="dimmed">
                  {formatSize(a.attSize)}
                </Text>
                {removeButton(a.attName, () => remove(a))}
              </Group>
            ))}
        {uploading.map((u) => (
          <Stack key={u.key} gap={2} data-testid="approval-uploading">
            <Group gap="xs" wrap="nowrap">
              <Text size="sm" truncate style={{ flex: 1 }}>
                {u.name}
              </Text>
              <Text size="xs" c={u.error ? 'red' : 'dimmed'}>
                {u.error ?? `${u.percent}%`}
              </Text>
              {u.error
                ? removeButton(u.name, () => dropUploading(u))
                : removeButton(u.name, () => dropUploading(u), S.cancelUpload(u.name))}
            </Group>
            {!u.error && <Progress value={u.percent} size="sm" aria-label={S.uploadProgress(u.name)} />}
          </Stack>
        ))}
      </Stack>
      <DriveFilePicker
        opened={picker}
        onClose={() => setPicker(false)}
        images={image}
        onPick={async (f) => {
          const att = await attachFromDrive('approval', f.userFileId, image);
          update((prev) => [...prev, att]);
        }}
      />
    </Input.Wrapper>
  );
}
