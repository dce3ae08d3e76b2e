import {
  ActionIcon,
  Anchor,
  Button,
  FileButton,
  Group,
  Image,
  Input,
  Progress,
  Stack,
  Text,
} from '@mantine/core';
import { IconCloud, IconPaperclip, IconPhoto, IconX } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import type { Attachment } from '../../../shared/api/attach';
import { formatSize } from '../../../shared/drive/file-types';
import type { Field } from '../../../shared/records/define';
import { DriveFilePicker, driveFileName } from '../../components/drive-file-picker';
import { attachFromDrive, deleteAttachment, uploadAttachment } from '../../lib/attach';
import { tCore } from '../../lib/i18n-core';
import { tRecords } from '../../lib/i18n/records';

const R = tRecords;

interface Uploading {
  key: string;
  name: string;
  percent: number;
  error: string | null;
  abort: AbortController;
}

const extOf = (name: string) =>
  name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';

/**
 * Why a chosen file cannot go into a file field, before any byte is sent: its type or its size
 * against the field's `accept` (the server checks both again from the stored upload), or null.
 */
export function fileProblem(fd: Field, name: string, size: number): string | null {
  const types = fd.accept?.types;
  if (types?.length && !types.includes(extOf(name))) return R.wrongType(name, types.join('、'));
  const max = fd.accept?.maxBytes;
  if (max && size > max) return R.tooBig(name, Math.round(max / 1024 / 1024));
  return null;
}

/**
 * A file or image field of a record's form: uploads with progress to the attachment service
 * under the record's name (bound to the row when it is saved), 从网盘选择 (the server copies the
 * drive file's bytes), removal (an upload not yet saved with the row is deleted at once), and
 * thumbnails for images. The value is the field's attachments; `onBusy` keeps the form from
 * saving while an upload runs.
 */
export function FileInput({
  name,
  fd,
  value,
  onChange,
  error,
  table,
  saved,
  onBusy,
}: {
  name: string;
  fd: Field;
  value: Attachment[];
  onChange: (v: Attachment[]) => void;
  error?: string | null;
  table: string;
  /** Attachment ids already saved with the row: removing one waits for the save. */
  saved: ReadonlySet<number>;
  onBusy?: (busy: boolean) => void;
}) {
  const image = fd.kind === 'image';
  const max = fd.max ?? 1;
  const [uploading, setUploading] = useState<Uploading[]>([]);
  const [picker, setPicker] = useState(false);
  const aborts = useRef(new Set<AbortController>());
  // The latest value for uploads finishing later (several at once append in turn).
  const current = useRef(value);
  useEffect(() => {
    current.current = value;
  }, [value]);

  useEffect(() => {
    const running = aborts.current;
    return () => running.forEach((a) => a.abort());
  }, []);
  const running = uploading.some((u) => !u.error);
  useEffect(() => onBusy?.(running), [running, onBusy]);

  const room = max - value.length - uploading.filter((u) => !u.error).length;
  const add = (files: File[]) => {
    for (const [i, file] of files.entries()) {
      const key = crypto.randomUUID();
      const abort = new AbortController();
      const problem = i >= room ? R.tooMany(fd.label, max) : fileProblem(fd, file.name, file.size);
      setUploading((u) => [...u, { key, name: file.name, percent: 0, error: problem, abort }]);
      if (problem) continue;
      aborts.current.add(abort);
      const patch = (p: Partial<Uploading>) =>
        setUploading((u) => u.map((x) => (x.key === key ? { ...x, ...p } : x)));
      uploadAttachment(image ? 'image' : 'file', file, {
        tableName: table,
        onProgress: (percent) => patch({ percent }),
        signal: abort.signal,
      })
        .then(
          (att) => {
            onChange([...current.current, att]);
            setUploading((u) => u.filter((x) => x.key !== key));
          },
          (err: unknown) => {
            if (!abort.signal.aborted)
              patch({ error: err instanceof Error ? err.message : tCore.errors.server });
          },
        )
        .finally(() => aborts.current.delete(abort));
    }
  };

  const remove = (att: Attachment) => {
    onChange(value.filter((a) => a.attId !== att.attId));
    // An upload of this form only: one saved with the row goes when the row is saved without it.
    if (!saved.has(att.attId)) void deleteAttachment(att.attId).catch(() => {});
  };
  const drop = (u: Uploading) => {
    u.abort.abort();
    setUploading((l) => l.filter((x) => x.key !== u.key));
  };
  const x = (label: string, onClick: () => void) => (
    <ActionIcon variant="subtle" color="gray" aria-label={label} onClick={onClick}>
      <IconX size={14} />
    </ActionIcon>
  );
  const types = fd.accept?.types?.join('、') ?? '';
  const mb = fd.accept?.maxBytes ? Math.round(fd.accept.maxBytes / 1024 / 1024) : null;

  return (
    <Input.Wrapper
      label={fd.label}
      withAsterisk={fd.required}
      error={error ?? undefined}
      description={fd.help ?? (image ? R.imageHint(max) : R.fileHint(types, mb, max))}
      data-testid={`field-${name}`}
    >
      <Stack gap={6} mt={6}>
        <Group gap="xs">
          <FileButton
            onChange={add}
            multiple
            accept={
              image
                ? 'image/png,image/jpeg,image/gif,image/webp'
                : fd.accept?.types?.map((e) => `.${e}`).join(',')
            }
            disabled={room <= 0}
          >
            {(props) => (
              <Button
                {...props}
                size="xs"
                variant="light"
                leftSection={image ? <IconPhoto size={14} /> : <IconPaperclip size={14} />}
              >
                {image ? R.uploadImage : R.upload}
              </Button>
            )}
          </FileButton>
          <Button
            size="xs"
            variant="subtle"
            leftSection={<IconCloud size={14} />}
            onClick={() => setPicker(true)}
            disabled={room <= 0}
          >
            {R.fromDrive}
          </Button>
        </Group>
        {image
          ? value.length > 0 && (
              <Group gap="xs">
                {value.map((a) => (
                  <div key={a.attId} style={{ position: 'relative' }} data-testid="record-image">
                    <Image src={a.attPath} alt={a.attName} w={88} h={88} fit="cover" radius="sm" />
                    <ActionIcon
                      size="sm"
                      variant="filled"
                      color="dark"
                      aria-label={R.removeFile(a.attName)}
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
              <Group key={a.attId} gap="xs" wrap="nowrap" data-testid="record-file">
                <IconPaperclip size={16} style={{ flex: 'none' }} />
                <Anchor href={a.attPath} size="sm" style={{ flex: 1, minWidth: 0 }} truncate>
                  {a.attName}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {formatSize(a.attSize)}
                </Text>
                {x(R.removeFile(a.attName), () => remove(a))}
              </Group>
            ))}
        {uploading.map((u) => (
          <Stack key={u.key} gap={2} data-testid="record-uploading">
            <Group gap="xs" wrap="nowrap">
              <Text size="sm" truncate style={{ flex: 1 }}>
                {u.name}
              </Text>
              <Text size="xs" c={u.error ? 'red' : 'dimmed'}>
                {u.error ?? `${u.percent}%`}
              </Text>
              {x(u.error ? R.removeFile(u.name) : R.cancelUpload(u.name), () => drop(u))}
            </Group>
            {!u.error && <Progress value={u.percent} size="sm" aria-label={R.uploadProgress(u.name)} />}
          </Stack>
        ))}
      </Stack>
      <DriveFilePicker
        opened={picker}
        onClose={() => setPicker(false)}
        images={image}
        onPick={async (f) => {
          const problem = fileProblem(fd, driveFileName(f), f.fileSize);
          if (problem) throw new Error(problem);
          const att = await attachFromDrive(table, f.userFileId, image);
          onChange([...current.current, att]);
        }}
      />
    </Input.Wrapper>
  );
}
