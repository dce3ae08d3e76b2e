import {
  Checkbox,
  Group,
  Input,
  Radio,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import type { Attachment } from '../../../shared/api/attach';
import type { FormField } from '../../../shared/workflow/definition';
import { HALF_TEXT, HALVES, type Half } from '../../../shared/workflow/duration';
import { TEXTAREA_MAX, TEXT_MAX } from '../../../shared/workflow/form';
import { keepNumber } from '../../../shared/workflow/numbers';
import { DeptPicker } from '../../components/dept-picker';
import { PeoplePicker } from '../../components/people-picker';
import {
  fromLocalInput,
  rangeDuration,
  toLocalInput,
  withHalves,
  type DraftPerson,
  type DraftRange,
  type DraftValue,
} from '../../lib/approval-start';
import { tApprovalStart } from '../../lib/i18n/approval-start';
import { AttachmentField } from './form-attachments';

const S = tApprovalStart;

export type SetValue = (id: string, fn: (prev: DraftValue | undefined) => DraftValue) => void;

/**
 * A template's form, drawn from its fields (shared/workflow/definition.ts FormField). Values are
 * the draft's (lib/approval-start); each field shows its own problem in checkForm's words.
 * Dates use the device's own date inputs: a tablet shows its native picker, and the value is
 * already 'yyyy-MM-dd'.
 */
export function ApprovalFormFields({
  fields,
  values,
  setValue,
  errors,
  onBusy,
}: {
  fields: readonly FormField[];
  values: Record<string, DraftValue>;
  setValue: SetValue;
  errors: Record<string, string>;
  onBusy: (fieldId: string, busy: boolean) => void;
}) {
  return (
    <Stack gap="md">
      {fields.map((f) => (
        <FieldInput
          key={f.id}
          field={f}
          value={values[f.id]}
          setValue={setValue}
          error={errors[f.id]}
          onBusy={onBusy}
        />
      ))}
    </Stack>
  );
}

function FieldInput({
  field: f,
  value,
  setValue,
  error,
  onBusy,
}: {
  field: FormField;
  value: DraftValue | undefined;
  setValue: SetValue;
  error?: string;
  onBusy: (fieldId: string, busy: boolean) => void;
}) {
  const set = (v: DraftValue) => setValue(f.id, () => v);
  const common = {
    label: f.label,
    withAsterisk: f.required,
    error,
    'data-testid': `field-${f.id}`,
  };
  const placeholder = f.placeholder ?? S.placeholder;
  switch (f.type) {
    case 'text':
      return (
        <TextInput
          {...common}
          placeholder={placeholder}
          maxLength={TEXT_MAX}
          value={(value as string) ?? ''}
          onChange={(e) => set(e.currentTarget.value)}
        />
      );
    case 'textarea':
      return (
        <Textarea
          {...common}
          placeholder={placeholder}
          maxLength={TEXTAREA_MAX}
          autosize
          minRows={3}
          maxRows={8}
          value={(value as string) ?? ''}
          onChange={(e) => set(e.currentTarget.value)}
        />
      );
    case 'number':
    case 'amount':
      return (
        <TextInput
          {...common}
          placeholder={placeholder}
          inputMode="decimal"
          value={(value as string) ?? ''}
          onChange={(e) => set(keepNumber(e.currentTarget.value))}
          rightSection={
            f.type === 'amount' ? (
              <Text size="sm" c="dimmed">
                {S.amountUnit}
              </Text>
            ) : undefined
          }
        />
      );
    case 'date':
      return (
        <TextInput
          {...common}
          type="date"
          value={(value as string) ?? ''}
          onChange={(e) => set(e.currentTarget.value)}
        />
      );
    case 'dateRange':
      return <RangeInput field={f} value={value as DraftRange | undefined} set={set} error={error} />;
    case 'radio':
      return (
        <Radio.Group {...common} value={(value as string) ?? null} onChange={set}>
          <Group gap="md" mt={6}>
            {(f.options ?? []).map((o) => (
              <Radio key={o.key} value={o.key} label={o.value} />
            ))}
          </Group>
        </Radio.Group>
      );
    case 'checkbox':
      return (
        <Checkbox.Group {...common} value={(value as string[]) ?? []} onChange={set}>
          <Group gap="md" mt={6}>
            {(f.options ?? []).map((o) => (
              <Checkbox key={o.key} value={o.key} label={o.value} />
            ))}
          </Group>
        </Checkbox.Group>
      );
    case 'person':
      return (
        <PeoplePicker
          label={f.label}
          withAsterisk={f.required}
          error={error}
          value={(value as DraftPerson[]) ?? []}
          onChange={(people) => set(people)}
          testId={`field-${f.id}`}
        />
      );
    case 'dept':
      return (
        <DeptPicker
          label={f.label}
          withAsterisk={f.required}
          error={error}
          value={(value as number[]) ?? []}
          onChange={set}
          testId={`field-${f.id}`}
        />
      );
    case 'attachment':
    case 'image':
      return (
        <AttachmentField
          field={f}
          value={(value as Attachment[]) ?? []}
          update={(fn) => setValue(f.id, (prev) => fn((prev as Attachment[] | undefined) ?? []))}
          error={error}
          onBusy={onBusy}
        />
      );
  }
}

/**
 * Start and end, and the duration computed live in the field's unit (museum time). A range in
 * days takes a half at each end, 上午 or 下午 (the start's morning and the end's afternoon
 * unless chosen): a museum's staff take half days off.
 */
function RangeInput({
  field: f,
  value,
  set,
  error,
}: {
  field: FormField;
  value: DraftRange | undefined;
  set: (v: DraftRange) => void;
  error?: string;
}) {
  const hours = f.unit === 0;
  const r = hours ? (value ?? { start: '', end: '' }) : withHalves(value ?? { start: '', end: '' });
  const type = hours ? 'datetime-local' : 'date';
  const shown = (v: string) => (hours ? toLocalInput(v) : v);
  const stored = (v: string) => (hours ? fromLocalInput(v) : v);
  const duration = rangeDuration(r, f.unit);
  const both = r.start !== '' && r.end !== '';
  const side = (which: 'start' | 'end') => {
    const label = which === 'start' ? S.rangeStart : S.rangeEnd;
    const halfKey = which === 'start' ? 'startHalf' : 'endHalf';
    return (
      <Group gap={6} wrap="nowrap" align="flex-start">
        <TextInput
          type={type}
          aria-label={`${f.label}${label}`}
          leftSection={<Text size="xs">{label}</Text>}
          leftSectionWidth={44}
          value={shown(r[which])}
          min={which === 'end' && !hours ? r.start || undefined : undefined}
          onChange={(e) => set({ ...r, [which]: stored(e.currentTarget.value) })}
          error={Boolean(error)}
          style={{ flex: 1, minWidth: 0 }}
        />
        {!hours && (
          <SegmentedControl
            aria-label={S.rangeHalf(f.label, label)}
            data-testid={`half-${f.id}-${which}`}
            value={r[halfKey]!}
            onChange={(v) => set({ ...r, [halfKey]: v as Half })}
            data={HALVES.map((h) => ({ value: h, label: HALF_TEXT[h] }))}
          />
        )}
      </Group>
    );
  };
  return (
    <Input.Wrapper label={f.label} withAsterisk={f.required} error={error} data-testid={`field-${f.id}`}>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" mt={4}>
        {side('start')}
        {side('end')}
      </SimpleGrid>
      <Text
        size="sm"
        mt={4}
        c={both && duration === null ? 'red' : 'dimmed'}
        data-testid={`duration-${f.id}`}
        aria-live="polite"
      >
        {duration !== null ? S.duration(duration, f.unit) : both ? S.durationBad : S.durationPending}
      </Text>
    </Input.Wrapper>
  );
}
