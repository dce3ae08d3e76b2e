import { Alert, Box, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { FileEntry } from '../../../../shared/api/drive';
import { ROOT } from '../../../../shared/drive/names';
import { FormActions } from '../../../components/form-actions';
import { tCore } from '../../../lib/i18n-core';
import { tDrive } from '../../../lib/i18n/drive';
import { OutboxRefusal, type SubmitResult } from '../../../lib/outbox';
import { useFolderTree } from '../drive-data';
import type { DriveView } from '../drive-view';
import { targetProblem } from '../overlay';
import { DIALOG_WIDTH, type DialogResult } from '../../../components/dialog-kit';
import { FolderTree } from './folder-tree';
import { OfflineNote } from '../../../components/offline-note';

export interface MoveCopyDialogProps {
  opened: boolean;
  mode: 'move' | 'copy';
  view: DriveView;
  items: FileEntry[];
  onSubmit: (target: string) => Promise<SubmitResult>;
  onClose: (result: DialogResult, queued?: boolean) => void;
  /** Other uses of the tree (unzip's target): their own title, text, button and starting folder. */
  title?: string;
  whatText?: string;
  submitLabel?: string;
  initialTarget?: string;
}

/**
 * 移动到 / 复制到 (700 px, spec §2 and §9): the area's folder tree (file/getfiletree, cached for
 * offline), the chosen target shown in words, and the self-containment rule checked before
 * asking the server (原路径与目标路径冲突，不能移动/复制). Folders created offline appear in
 * the tree at once and may be chosen: queued writes replay in order.
 */
export function MoveCopyDialog({
  opened,
  mode,
  view,
  items,
  onSubmit,
  onClose,
  ...custom
}: MoveCopyDialogProps) {
  const tree = useFolderTree(view, opened);
  const [target, setTarget] = useState<string>(custom.initialTarget ?? view.filePath);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const c = tDrive.copyMove;
  const problem = targetProblem(items, target, mode);
  // Into itself is an error (the server's words); "already there" is only a hint to pick another.
  const problemText = problem === 'self' ? (mode === 'move' ? c.selfConflictMove : c.selfConflictCopy) : null;
  const hintText = problem === 'same' ? c.sameFolder : null;

  const confirm = async () => {
    if (problem) return;
    setBusy(true);
    setError(null);
    try {
      const result = await onSubmit(target);
      onClose('confirm', result.queued);
    } catch (err) {
      setError(err instanceof OutboxRefusal || err instanceof Error ? err.message : tCore.errors.server);
      setBusy(false);
    }
  };
  const cancel = () => {
    if (!busy) onClose('cancel');
  };

  const first = items[0];
  const what = first
    ? c.what(items.length, first.extendName ? `${first.fileName}.${first.extendName}` : first.fileName)
    : '';
  const whatText = custom.whatText ?? (mode === 'move' ? c.moveWhat(what) : c.copyWhat(what));

  return (
    <Modal
      opened={opened}
      onClose={cancel}
      title={custom.title ?? (mode === 'move' ? c.moveTitle : c.copyTitle)}
      size={DIALOG_WIDTH.move}
      closeOnEscape={!busy}
      withCloseButton={!busy}
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {whatText}
        </Text>
        <OfflineNote view={tree} />
        <FolderTree tree={tree} target={target} onTarget={setTarget} openTo={view.filePath} />
        <Box>
          <Text size="sm">
            {c.target}
            <Text span fw={600} data-testid="move-target">
              {target === ROOT ? tDrive.rootName : target}
            </Text>
          </Text>
          {problemText && (
            <Text size="sm" c="red" mt={4} role="alert">
              {problemText}
            </Text>
          )}
          {hintText && (
            <Text size="sm" c="dimmed" mt={4}>
              {hintText}
            </Text>
          )}
        </Box>
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <FormActions
          onCancel={cancel}
          saving={busy}
          onSubmit={() => void confirm()}
          submitDisabled={Boolean(problem) || tree.status !== 'ready'}
          submitLabel={custom.submitLabel ?? (mode === 'move' ? c.moveHere : c.copyHere)}
        />
      </Stack>
    </Modal>
  );
}
