import { Alert, Button, Center, Group, Image, Modal, Stack, Text } from '@mantine/core';
import { IconClipboard } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { nameProblem } from '../../../../shared/drive/names';
import { NameField } from '../../../components/name-field';
import { tUpload } from '../../../lib/i18n/upload';
import { imageFromClipboard, pastedName } from './pick';

const p = tUpload.pasteDialog;

/**
 * Paste image (spec §4): paste → a preview with the generated name → upload or discard. A
 * paste is taken from Ctrl/⌘+V anywhere while the dialog is open, or from 读取剪贴板 (tablets
 * have no keyboard; the Clipboard API asks for permission). Text or files that are not images
 * say 粘贴内容不是图片; a browser without clipboard reading says 当前浏览器不支持.
 */
export function PasteDialog({
  opened,
  onClose,
  onUpload,
}: {
  opened: boolean;
  onClose: () => void;
  onUpload: (file: Blob, name: string) => void;
}) {
  const [image, setImage] = useState<{ file: Blob; name: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const preview = useMemo(() => (image ? URL.createObjectURL(image.file) : null), [image]);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  const take = (file: Blob & { name?: string }) => {
    setError(null);
    setImage({ file, name: pastedName(file) });
  };

  useEffect(() => {
    if (!opened) return;
    const onPaste = (e: ClipboardEvent) => {
      // Typing into the name field pastes text there, as anywhere else.
      if (e.target instanceof HTMLInputElement) return;
      e.preventDefault();
      const got = imageFromClipboard(e.clipboardData);
      if (got === 'notImage') setError(p.notImage);
      else take(got);
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, [opened]);

  const readClipboard = async () => {
    if (!navigator.clipboard?.read) {
      setError(p.unsupported);
      return;
    }
    try {
      for (const item of await navigator.clipboard.read()) {
        const type = item.types.find((x) => x.startsWith('image/'));
        if (type) {
          take(await item.getType(type));
          return;
        }
      }
      setError(p.notImage);
    } catch {
      // Refused permission or an empty clipboard: nothing image-like could be read.
      setError(p.notImage);
    }
  };

  const nameError = image ? nameProblem(image.name, '文件名称') : null;
  const close = () => {
    setImage(null);
    setError(null);
    onClose();
  };

  return (
    <Modal opened={opened} onClose={close} title={p.title} size={550} centered>
      <Stack gap="sm" data-testid="paste-dialog">
        {error && (
          <Alert color="red" variant="light" data-testid="paste-error">
            {error}
          </Alert>
        )}
        {image && preview ? (
          <>
            <Center bg="gray.0" p="xs" style={{ borderRadius: 8 }}>
              <Image src={preview} alt={image.name} mah={280} fit="contain" data-testid="paste-preview" />
            </Center>
            <NameField
              label={p.name}
              value={image.name}
              select="base"
              error={nameError}
              onChange={(e) => setImage({ ...image, name: e.currentTarget.value })}
              data-testid="paste-name"
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setImage(null)}>
                {p.discard}
              </Button>
              <Button
                disabled={Boolean(nameError)}
                onClick={() => {
                  onUpload(image.file, image.name.trim());
                  close();
                }}
              >
                {p.upload}
              </Button>
            </Group>
          </>
        ) : (
          <Center py="lg">
            <Stack align="center" gap="xs">
              <Text c="dimmed">{p.hint}</Text>
              <Text size="sm" c="dimmed">
                {p.waiting}
              </Text>
              <Button
                variant="light"
                leftSection={<IconClipboard size={16} />}
                onClick={() => void readClipboard()}
              >
                {p.read}
              </Button>
            </Stack>
          </Center>
        )}
      </Stack>
    </Modal>
  );
}
