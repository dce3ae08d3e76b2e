import { Drawer, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useCallback, useMemo, useState, type ComponentType } from 'react';
import type { RecordNames, RecordRow } from '../../../shared/records/api';
import { formFields, type RecordDef } from '../../../shared/records/define';
import { createSchema, updateSchema } from '../../../shared/records/schemas';
import type { DictOption } from '../../../shared/records/system/dictionary';
import { useDialogEscape } from '../../components/dialog-escape';
import { FormActions } from '../../components/form-actions';
import { errorToast } from '../../lib/api';
import { tRecords } from '../../lib/i18n/records';
import { fieldErrorsOf, writeRecord } from '../../lib/records';
import { FieldInput, initialValues, toBody, type FormValues } from './field-input';
import { emptyFieldsFilled } from './form-fill';

const R = tRecords;

/** The first message of each field, from a zod error (the same schema the server validates with). */
function zodErrors(def: RecordDef, body: Record<string, unknown>, editing: boolean): Record<string, string> {
  const result = (editing ? updateSchema(def) : createSchema(def)).safeParse(body);
  const errors: Record<string, string> = {};
  if (!result.success) for (const i of result.error.issues) errors[String(i.path[0] ?? '')] ??= i.message;
  return errors;
}

/**
 * A page's helper shown under one field of the form (the catalogue's 按ISBN填充): it reads the
 * form and fills fields that are still empty, never what the person typed. Values are given as
 * the API answers them (numbers for numbers and enums, text for text).
 */
export interface FieldAddonProps {
  def: RecordDef;
  /** The form's values as they stand, and the values the page fixes (not shown). */
  values: FormValues;
  fixed: Record<string, unknown> | undefined;
  /** Sets each given form field that is empty now; answers the keys it set. */
  fillEmpty: (patch: Record<string, unknown>) => string[];
}
export type FieldAddons = Readonly<Record<string, ComponentType<FieldAddonProps>>>;

/**
 * The form drawer of a record: one input per form field (its kind decides which), checked as you
 * submit with the record's own schema, so each field shows the very words the server would
 * answer; the server's own refusals (a slot taken, a shift that overlaps, a dictionary value
 * disabled) come back per field too. Writes go through the outbox: offline, the change waits
 * and says so.
 */
export function RecordForm({
  def,
  row,
  names,
  fixed,
  shape,
  options,
  opened,
  onClose,
  onSaved,
  addons,
}: {
  def: RecordDef;
  /** The row being edited, or null for a new one. */
  row: RecordRow | null;
  names: RecordNames;
  /** Values the page fixes (an item's dictionary): set and not shown. */
  fixed?: Record<string, unknown>;
  /**
   * The page's own cut of the form (one kind of a catalogue): fields left out, and fields marked
   * required whose rule is the record's `check` (图书's 责任者, 期刊's 年 and 期).
   */
  shape?: {
    hide?: readonly string[];
    required?: readonly string[];
    /** A new row's values other than the field's own default (出版物 are 可领用). */
    initial?: Record<string, unknown>;
    /** Hints of this cut ('' for none): "图书必填" says nothing on the books' own page. */
    help?: Record<string, string>;
  };
  options: Record<string, DictOption[]>;
  opened: boolean;
  onClose: () => void;
  onSaved?: () => void;
  /** Helpers under fields, by field key (RecordListPage's formAddons). */
  addons?: FieldAddons;
}) {
  const fields = useMemo(
    () =>
      Object.fromEntries(
        formFields(def)
          .filter(([k]) => (!fixed || !(k in fixed)) && !shape?.hide?.includes(k))
          .map(([k, fd]) => [
            k,
            {
              ...fd,
              ...(shape?.required?.includes(k) ? { required: true } : {}),
              ...(shape?.initial && k in shape.initial ? { initial: shape.initial[k] } : {}),
              ...(shape?.help && k in shape.help ? { help: shape.help[k] || undefined } : {}),
            },
          ]),
      ),
    [def, fixed, shape],
  );
  const [values, setValues] = useState<FormValues>(() => initialValues(fields, row, names));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  // File fields with an upload still running: the form waits for them.
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const saved = useMemo(
    () =>
      new Set(
        Object.entries(fields).flatMap(([k, fd]) =>
          fd.kind === 'file' || fd.kind === 'image' ? ((row?.[k] as number[] | undefined) ?? []) : [],
        ),
      ),
    [fields, row],
  );
  const markBusy = useCallback(
    (key: string, b: boolean) =>
      setBusy((prev) => {
        if (prev.has(key) === b) return prev;
        const next = new Set(prev);
        if (b) next.add(key);
        else next.delete(key);
        return next;
      }),
    [],
  );
  const escape = useDialogEscape(onClose, opened && !saving);
  function fillEmpty(patch: Record<string, unknown>): string[] {
    const set = emptyFieldsFilled(fields, values, patch);
    if (Object.keys(set).length) setValues((prev) => ({ ...prev, ...set }));
    return Object.keys(set);
  }
  const editing = row !== null;

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (busy.size) {
      errorToast(R.uploading);
      return;
    }
    const body = { ...toBody(fields, values), ...fixed, ...(editing ? { id: row.id } : {}) };
    const problems = zodErrors(def, body, editing);
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setSaving(true);
    try {
      const call = editing ? def.calls.update! : def.calls.create!;
      const label = `${editing ? R.edit : R.add}${def.title}：${def.describe(body)}`;
      const r = await writeRecord(def, call, body, {
        action: editing ? 'update' : 'create',
        id: row?.id,
        body,
        label,
      });
      notifications.show({
        color: r.queued ? 'yellow' : 'green',
        message: r.queued ? R.queued : editing ? R.saved : R.added,
      });
      onSaved?.();
      onClose();
    } catch (err) {
      const fields = fieldErrorsOf(err);
      if (fields) setErrors(fields);
      else errorToast(err instanceof Error ? err.message : String(err));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size={560}
      title={editing ? R.editTitle(def.title) : R.addTitle(def.title)}
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': R.closeForm }}
      {...escape}
    >
      <form onSubmit={(e) => void submit(e)} noValidate data-testid="record-form">
        <Stack gap="sm">
          {Object.entries(fields).map(([key, fd]) => {
            const Addon = addons?.[key];
            const input = (
              <FieldInput
                key={key}
                name={key}
                fd={fd}
                value={values[key]}
                onChange={(v) => {
                  setValues((prev) => ({ ...prev, [key]: v }));
                  if (errors[key]) setErrors((prev) => ({ ...prev, [key]: '' }));
                }}
                error={errors[key] || null}
                options={options}
                table={def.name}
                names={names}
                saved={saved}
                onBusy={(b) => markBusy(key, b)}
              />
            );
            return Addon ? (
              <Stack key={key} gap={4}>
                {input}
                <Addon def={def} values={values} fixed={fixed} fillEmpty={fillEmpty} />
              </Stack>
            ) : (
              input
            );
          })}
          <FormActions onCancel={onClose} saving={saving} mt="sm" />
        </Stack>
      </form>
    </Drawer>
  );
}
