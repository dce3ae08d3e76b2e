import { Alert, Box, Modal, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ROOT } from '../../../../shared/drive/names';
import { FormActions } from '../../../components/form-actions';
import { OfflineError } from '../../../lib/api';
import { tCore } from '../../../lib/i18n-core';
import { tDrive } from '../../../lib/i18n/drive';
import { tShare } from '../../../lib/i18n/share';
import { DIALOG_WIDTH, type DialogResult } from '../../../components/dialog-kit';
import { FolderTree } from '../dialogs/folder-tree';
import { driveKeys, useFolderTree } from '../drive-data';
import { shareCalls } from './share-data';

const P = tShare.page;
const OWN = { area: 'own', areaQuery: {} } as const;

export interface SaveShareDialogProps {
  opened: boolean;
  shareBatchNum: string;
  /** Ids from the share's listing, and how to name them in the question. */
  ids: number[];
  what: string;
  onClose: (result: DialogResult) => void;
}

/**
 * 保存到我的网盘 (the spec's save-shared-file dialog): the signed-in person's folder tree, the
 * target `/` until a folder is chosen, then share/savesharefile. The server checks the share,
 * its grant and the quota; a refusal stays in the dialog with its reason.
 */
export function SaveShareDialog({ opened, shareBatchNum, ids, what, onClose }: SaveShareDialogProps) {
  const queryClient = useQueryClient();
  const tree = useFolderTree(OWN, opened);
  const [target, setTarget] = useState(ROOT);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await shareCalls.save({
        shareBatchNum,
        files: ids.map((userFileId) => ({ userFileId })),
        filePath: target,
      });
      void queryClient.invalidateQueries({ queryKey: driveKeys.area('own') });
      void queryClient.invalidateQueries({ queryKey: driveKeys.storage });
      onClose('confirm');
    } catch (err) {
      setError(
        err instanceof OfflineError ? P.offline : err instanceof Error ? err.message : tCore.errors.server,
      );
      setBusy(false);
    }
  };
  const cancel = () => {
    if (!busy) onClose('cancel');
  };

  return (
    <Modal
      opened={opened}
      onClose={cancel}
      title={P.saveTitle}
      size={DIALOG_WIDTH.move}
      closeOnEscape={!busy}
      withCloseButton={!busy}
    >
      <Stack gap="sm" data-testid="save-share-dialog">
        <Text size="sm" c="dimmed" style={{ wordBreak: 'break-all' }}>
          {P.saveWhat(what)}
        </Text>
        <FolderTree tree={tree} target={target} onTarget={setTarget} openTo={ROOT} />
        <Box>
          <Text size="sm">
            {tDrive.copyMove.target}
            <Text span fw={600} data-testid="save-target">
              {target === ROOT ? tDrive.rootName : target}
            </Text>
          </Text>
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
          submitDisabled={tree.status !== 'ready'}
          submitLabel={P.saveHere}
        />
      </Stack>
    </Modal>
  );
}
