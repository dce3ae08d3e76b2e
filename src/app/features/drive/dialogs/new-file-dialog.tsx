import { Alert, Group, Modal, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCloudOff, IconFileSpreadsheet, IconFileTypeDocx, IconPresentation } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { z } from 'zod';
import type { CreateOfficeBody, CreatedOfficeFile } from '../../../../shared/api/office';
import { CREATABLE_OFFICE_EXTS } from '../../../../shared/drive/file-types';
import { joinName, nameProblem } from '../../../../shared/drive/names';
import { FormActions } from '../../../components/form-actions';
import { drive } from '../../../lib/api';
import { tCore } from '../../../lib/i18n-core';
import { tPreview } from '../../../lib/i18n/preview';
import { useOnline } from '../../../lib/online';
import { driveKeys } from '../drive-data';
import type { DriveView } from '../drive-view';
import { DIALOG_WIDTH } from '../../../components/dialog-kit';
import { NameField } from '../../../components/name-field';

type Ext = (typeof CREATABLE_OFFICE_EXTS)[number];
const tt = tPreview.office;

const ICONS: Record<Ext, ReactNode> = {
  docx: <IconFileTypeDocx size={22} color="var(--mantine-color-blue-7)" />,
  xlsx: <IconFileSpreadsheet size={22} color="var(--mantine-color-green-7)" />,
  pptx: <IconPresentation size={22} color="var(--mantine-color-orange-7)" />,
};

/** "报告.docx" typed with Word chosen means "报告": the extension is the type's, never doubled. */
function baseName(value: string, ext: Ext): string {
  return value.toLowerCase().endsWith(`.${ext}`) ? value.slice(0, -(ext.length + 1)) : value;
}

/**
 * The 新建文件 dialog (spec/drive.md §2 dialog 3, §3 "New office file", §5): a type — Word,
 * Excel or PowerPoint — and one name field (required 请输入文件名称, at most 255 characters with
 * a counter, the drive's name rules). office/createofficefile makes a blank document in the open
 * folder; a name already taken gets "(1)" (the collision rule), which the toast then names.
 * Creating needs the server (the blank document is made there), so offline it says so instead
 * of queueing. A new Word or Excel file then opens at once for typing (/onlyoffice, ot=add), as
 * a person who chose 新建 → Word expects; a new presentation stays in the list, since without a
 * Document Server slides can only be viewed.
 */
function NewFileDialog(props: { opened: boolean; view: DriveView; onClose: () => void }) {
  const { view } = props;
  const online = useOnline();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [ext, setExt] = useState<Ext>('docx');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const problem = (v: string) => {
    const base = baseName(v, ext);
    return nameProblem(base, '文件名称') ?? nameProblem(joinName(base, ext), '文件名称');
  };

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (saving) return;
    const p = problem(value);
    if (p) return setError(p);
    if (!online) return setError(tt.needsNetwork);
    setSaving(true);
    const wanted = baseName(value, ext);
    const body: z.input<typeof CreateOfficeBody> = {
      ...view.areaQuery,
      extendName: ext,
      filePath: view.filePath,
      fileName: wanted,
    };
    try {
      const made = await drive.post<CreatedOfficeFile>('/office/createofficefile', body, { silent: true });
      void queryClient.invalidateQueries({ queryKey: driveKeys.area(view.area) });
      void queryClient.invalidateQueries({ queryKey: driveKeys.storage });
      notifications.show({
        color: 'green',
        message:
          made.fileName === wanted ? tt.created : tt.createdAs(joinName(made.fileName, made.extendName)),
      });
      props.onClose();
      if (made.extendName === 'docx' || made.extendName === 'xlsx')
        void navigate({
          to: '/onlyoffice',
          search: {
            ...view.areaQuery,
            userFileId: made.userFileId,
            fileName: made.fileName,
            extendName: made.extendName,
            filePath: made.filePath,
            ot: 'add',
          },
        });
    } catch (err) {
      // The server's refusal (folder gone, storage full…) in place; the dialog stays open.
      setError(err instanceof Error ? err.message : tCore.errors.server);
      setSaving(false);
    }
  };

  const cancel = () => {
    if (!saving) props.onClose();
  };

  return (
    <Modal
      opened={props.opened}
      onClose={cancel}
      title={tt.newFile}
      size={DIALOG_WIDTH.standard}
      closeOnEscape={!saving}
      withCloseButton={!saving}
      onEnterTransitionEnd={() => input.current?.focus()}
    >
      <form onSubmit={(e) => void submit(e)} noValidate data-testid="new-file-dialog">
        <Stack gap="md">
          {!online && (
            <Alert color="yellow" icon={<IconCloudOff size={18} />} py="xs">
              {tt.needsNetwork}
            </Alert>
          )}
          <Radio.Group
            label={tt.typeLabel}
            value={ext}
            onChange={(v) => {
              setExt(v as Ext);
              if (error) setError(null);
            }}
          >
            <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs" mt={6}>
              {CREATABLE_OFFICE_EXTS.map((x) => (
                <Radio.Card
                  key={x}
                  value={x}
                  radius="md"
                  p="sm"
                  disabled={saving}
                  data-testid={`new-file-type-${x}`}
                  aria-label={tt.types[x]}
                >
                  <Group gap="xs" wrap="nowrap">
                    <Radio.Indicator size="xs" />
                    {ICONS[x]}
                    <div>
                      <Text size="sm" fw={500} lh={1.3}>
                        {tt.types[x]}
                      </Text>
                      <Text size="xs" c="dimmed">
                        .{x}
                      </Text>
                    </div>
                  </Group>
                </Radio.Card>
              ))}
            </SimpleGrid>
          </Radio.Group>
          <NameField
            ref={input}
            label={tt.nameLabel}
            placeholder={tt.namePlaceholder}
            value={value}
            onChange={(e) => {
              setValue(e.currentTarget.value);
              if (error) setError(null);
            }}
            error={error}
            disabled={saving}
          />
        </Stack>
        <FormActions onCancel={cancel} saving={saving} mt="lg" submitLabel={tCore.common.confirm} />
      </form>
    </Modal>
  );
}

/** Opens the 新建文件 dialog for the drive view; `dialog` goes into the page once. */
export function useNewFile(view: DriveView) {
  const [state, setState] = useState({ opened: false, nonce: 0 });
  const open = () => setState((s) => ({ opened: true, nonce: s.nonce + 1 }));
  // Mounted afresh for each opening, so a cancelled dialog starts empty next time.
  const dialog =
    state.nonce > 0 ? (
      <NewFileDialog
        key={state.nonce}
        opened={state.opened}
        view={view}
        onClose={() => setState((s) => ({ ...s, opened: false }))}
      />
    ) : null;
  return { open, dialog };
}
