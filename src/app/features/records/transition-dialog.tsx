import { Modal, Stack, Text } from '@mantine/core';
import { dialogs } from '../../lib/dialogs';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { RecordRow } from '../../../shared/records/api';
import { transitionRequest, type RecordDef, type Transition } from '../../../shared/records/define';
import { transitionSchema } from '../../../shared/records/schemas';
import type { DictOption } from '../../../shared/records/system/dictionary';
import { useDialogEscape } from '../../components/dialog-escape';
import { FormActions } from '../../components/form-actions';
import { errorToast } from '../../lib/api';
import { tRecords } from '../../lib/i18n/records';
import { fieldErrorsOf, writeRecord } from '../../lib/records';
import { FieldInput, initialValues, toBody, type FormValues } from './field-input';

const R = tRecords;

/**
 * A transition that takes input (a reason, a time): its fields, checked with its own schema, then
 * the call. Transitions without input are a plain confirmation (the list's confirmAction).
 */
export function TransitionDialog({
  def,
  name,
  transition,
  row,
  preset,
  rowName,
  options,
  onClose,
}: {
  def: RecordDef;
  name: string;
  transition: Transition;
  row: RecordRow;
  /** Input the button fixes (同意续借 sends agree: true), sent without being asked. */
  preset?: Record<string, unknown>;
  /** The row's name as the page gives it (the record's `describe` by default). */
  rowName?: string;
  options: Record<string, DictOption[]>;
  onClose: () => void;
}) {
  const fields = transition.input ?? {};
  const named = rowName ?? def.describe(row);
  const [values, setValues] = useState<FormValues>(() =>
    initialValues(fields, null, { users: {}, depts: {} }),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const escape = useDialogEscape(onClose, !saving);

  async function submit() {
    const body = { ...toBody(fields, values), ...preset, id: row.id };
    const parsed = transitionSchema(transition).safeParse(body);
    if (!parsed.success) {
      const e: Record<string, string> = {};
      for (const i of parsed.error.issues) e[String(i.path[0])] ??= i.message;
      return setErrors(e);
    }
    setSaving(true);
    try {
      const req = transitionRequest(def, name, row, body);
      const r = await writeRecord(def, req.call, req.body, {
        action: 'transition',
        id: row.id,
        label: `${transition.label}${def.title}：${named}`,
      });
      notifications.show({
        color: r.queued ? 'yellow' : 'green',
        message: r.queued ? R.queued : R.done(transition.label),
      });
      // What the server says only this once (a new volunteer's initial password): a window
      // that stays until the operator closes it, not a toast that fades.
      const note = r.queued ? null : (r.data as { operatorNote?: unknown } | null)?.operatorNote;
      if (typeof note === 'string' && note)
        dialogs.open({
          title: R.operatorNoteTitle,
          closeOnClickOutside: false,
          children: (
            <Text
              size="sm"
              style={{ whiteSpace: 'pre-wrap', userSelect: 'text' }}
              data-testid="operator-note"
            >
              {note}
            </Text>
          ),
        });
      onClose();
    } catch (err) {
      const f = fieldErrorsOf(err);
      if (f) setErrors(f);
      else errorToast(err instanceof Error ? err.message : String(err));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      opened
      onClose={onClose}
      title={R.confirmTitle(transition.label)}
      size={420}
      closeOnClickOutside={false}
      {...escape}
    >
      <Stack gap="sm">
        <Text size="sm">{transition.confirm ?? R.transitionConfirm(transition.label, named)}</Text>
        {Object.entries(fields).map(([key, fd]) => (
          <FieldInput
            key={key}
            name={key}
            fd={fd}
            value={values[key]}
            onChange={(v) => setValues((p) => ({ ...p, [key]: v }))}
            error={errors[key] || null}
            options={options}
            table={def.name}
          />
        ))}
        <FormActions
          onCancel={onClose}
          saving={saving}
          onSubmit={() => void submit()}
          submitLabel={transition.label}
          submitColor={transition.danger ? 'red' : undefined}
        />
      </Stack>
    </Modal>
  );
}
