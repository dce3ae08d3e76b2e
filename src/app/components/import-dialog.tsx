import { Alert, Button, Checkbox, FileInput, List, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconDownload, IconFileSpreadsheet, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { IMPORT_MAX_BYTES, type ImportRefusal } from '../../shared/records/api';
import { useDialogEscape } from './dialog-escape';
import { ApiError, OfflineError, errorToast } from '../lib/api';
import { tRecords } from '../lib/i18n/records';
import { useOnline } from '../lib/online';
import { downloadTemplate, importRecords } from '../lib/records';

const I = tRecords.importDialog;

/**
 * 批量导入 (spec §3 "Batch import form: file, schemeId, type"; §2 "Batch-import error dialog:
 * lists each error line"; §8 code 1004 titled with the server's message). Download the template,
 * pick the filled file, import. A file with any bad row is refused whole: the error dialog lists
 * every bad row and field, in the server's words; fix the file and import it again here.
 */
export function ImportDialog({
  schemeId,
  title,
  replaceable,
  opened,
  onClose,
  onImported,
}: {
  schemeId: string;
  title: string;
  /** The scheme can replace rows with the same key (type 2). */
  replaceable: boolean;
  opened: boolean;
  onClose: () => void;
  onImported: () => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [replace, setReplace] = useState(false);
  const [busy, setBusy] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<{ message: string; lines: string[] } | null>(null);
  const online = useOnline();
  const escape = useDialogEscape(onClose, opened && !busy && !refusal);

  async function run() {
    if (!file) return setFileError(I.pickFile);
    if (!/\.xlsx$/i.test(file.name)) return setFileError(I.wrongType);
    if (file.size > IMPORT_MAX_BYTES) return setFileError(I.tooLarge);
    setBusy(true);
    try {
      const done = await importRecords(schemeId, file, replace ? 2 : 1, crypto.randomUUID());
      notifications.show({ color: 'green', message: I.done(done.imported) });
      setFile(null);
      onImported();
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.code === 1004) {
        const extra = err.extra as ImportRefusal | null;
        setRefusal({ message: err.message, lines: extra?.lines ?? [] });
      } else if (err instanceof OfflineError) errorToast(I.offline);
      else if (err instanceof Error) setFileError(err.message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Modal
        opened={opened}
        onClose={onClose}
        title={I.title(title)}
        size={520}
        closeOnClickOutside={false}
        closeButtonProps={{ 'aria-label': I.close }}
        {...escape}
      >
        <Stack gap="md" data-testid="import-dialog">
          <Text size="sm">{I.step1}</Text>
          <Button
            variant="light"
            leftSection={<IconDownload size={16} />}
            onClick={() => void downloadTemplate(schemeId, title)}
            disabled={!online}
            style={{ alignSelf: 'flex-start' }}
            data-testid="import-template"
          >
            {I.template}
          </Button>
          <Text size="sm">{I.step2}</Text>
          <FileInput
            label={I.file}
            placeholder={I.filePlaceholder}
            description={I.fileHint}
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            leftSection={<IconFileSpreadsheet size={16} />}
            value={file}
            onChange={(f) => {
              setFile(f);
              setFileError(null);
            }}
            error={fileError}
            clearable
            data-testid="import-file"
          />
          {replaceable && (
            <Checkbox
              label={I.replace}
              checked={replace}
              onChange={(e) => setReplace(e.currentTarget.checked)}
            />
          )}
          {!online && (
            <Alert color="yellow" icon={<IconAlertTriangle size={16} />}>
              {I.offline}
            </Alert>
          )}
          <Button
            leftSection={<IconUpload size={16} />}
            onClick={() => void run()}
            loading={busy}
            disabled={!online}
            data-testid="import-submit"
          >
            {I.submit}
          </Button>
        </Stack>
      </Modal>
      <Modal
        opened={refusal !== null}
        onClose={() => setRefusal(null)}
        title={refusal?.message}
        size={560}
        closeOnClickOutside={false}
        closeButtonProps={{ 'aria-label': I.errorsClose }}
        zIndex={310}
      >
        <Stack gap="sm" data-testid="import-errors">
          <ScrollArea.Autosize mah="50vh">
            <List
              size="sm"
              spacing={6}
              icon={<IconAlertTriangle size={14} color="var(--mantine-color-red-6)" />}
            >
              {refusal?.lines.map((line, i) => (
                <List.Item key={i} data-testid="import-error-line">
                  {line}
                </List.Item>
              ))}
            </List>
          </ScrollArea.Autosize>
          <Text size="sm" c="dimmed">
            {I.errorsHint}
          </Text>
          <Button onClick={() => setRefusal(null)} style={{ alignSelf: 'flex-end' }}>
            {I.fix}
          </Button>
        </Stack>
      </Modal>
    </>
  );
}
