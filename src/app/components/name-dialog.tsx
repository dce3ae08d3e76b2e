import { Modal } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { nameProblem } from '../../shared/drive/names';
import { FormActions } from './form-actions';
import { tCore } from '../lib/i18n-core';
import { OutboxRefusal } from '../lib/outbox';
import { DIALOG_WIDTH, type DialogResult } from './dialog-kit';
import { NameField } from './name-field';

export interface NameDialogProps {
  opened: boolean;
  title: string;
  label: string;
  placeholder: string;
  /** Which words the validation messages use (spec §5: 请输入文件夹名称 / 请输入文件名称). */
  what: '文件夹名称' | '文件名称';
  initial?: string;
  /** Select only the part before the extension when the dialog opens (rename of a file). */
  selectBaseName?: boolean;
  /** Validate on blur as well as on submit (the rename dialog, spec §5). */
  validateOnBlur?: boolean;
  /**
   * Does the write (a drive write answers the outbox's SubmitResult; `queued` is true when it
   * waits offline); any refusal keeps the dialog open with the server's message.
   */
  onSubmit: (name: string) => Promise<{ queued: boolean } | 'unchanged'>;
  onClose: (result: DialogResult, queued?: boolean) => void;
}

/**
 * The one-field name dialogs of the drive and the project documents (新建文件夹, 重命名文件): the spec's title and width, a counter
 * n/255, validation with the server's own rule (shared nameProblem), Enter submits, a loading
 * state while the write runs. On success it closes with 'confirm'; on a refusal it stays open
 * showing the server's message under the field; cancel closes with 'cancel'. Mounted afresh
 * for each opening (the opener keys it), so cancel "resets and closes" (spec §4).
 */
export function NameDialog(props: NameDialogProps) {
  const { opened, initial = '' } = props;
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const check = (v: string) => {
    const problem = nameProblem(v, props.what);
    setError(problem);
    return problem === null;
  };

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (saving || !check(value)) return;
    setSaving(true);
    try {
      const result = await props.onSubmit(value);
      props.onClose('confirm', result !== 'unchanged' && result.queued);
    } catch (err) {
      // The server said no (name taken, folder gone…): its message, in place, dialog kept open.
      if (err instanceof OutboxRefusal) setError(err.message);
      else setError(err instanceof Error ? err.message : tCore.errors.server);
      setSaving(false);
    }
  };

  const cancel = () => {
    if (!saving) props.onClose('cancel');
  };

  return (
    <Modal
      opened={opened}
      onClose={cancel}
      title={props.title}
      size={DIALOG_WIDTH.standard}
      closeOnEscape={!saving}
      withCloseButton={!saving}
    >
      <form onSubmit={(e) => void submit(e)} noValidate>
        <NameField
          label={props.label}
          placeholder={props.placeholder}
          value={value}
          data-autofocus
          // A file's rename selects `notes` of notes.txt; a folder's name, all of it.
          select={props.selectBaseName ? 'base' : 'all'}
          onChange={(e) => {
            setValue(e.currentTarget.value);
            if (error) setError(null);
          }}
          onBlur={() => {
            if (props.validateOnBlur && !saving) check(value);
          }}
          error={error}
          disabled={saving}
        />
        <FormActions onCancel={cancel} saving={saving} mt="lg" submitLabel={tCore.common.confirm} />
      </form>
    </Modal>
  );
}
