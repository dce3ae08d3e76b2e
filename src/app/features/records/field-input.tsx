import {
  Chip,
  Group,
  Input,
  MultiSelect,
  NumberInput,
  Select,
  Switch,
  TextInput,
  Textarea,
} from '@mantine/core';
import { DatePickerInput, DateTimePicker, TimeInput } from '@mantine/dates';
import { useQuery } from '@tanstack/react-query';
import type { Attachment } from '../../../shared/api/attach';
import type { DeptNode, RoleRow } from '../../../shared/api/org';
import type { RecordNames, RecordRow } from '../../../shared/records/api';
import type { Field, Fields } from '../../../shared/records/define';
import type { DictOption } from '../../../shared/records/system/dictionary';
import { formatMuseumMinute } from '../../../shared/rules/museum-time';
import { PeoplePicker, type PickedPerson } from '../../components/people-picker';
import { RichTextEditor } from '../../components/rich-text-editor';
import { museum } from '../../lib/api';
import { tRecords } from '../../lib/i18n/records';
import { ListInput, RefInput, RefsInput } from './compound-input';
import { FileInput } from './file-input';

/**
 * One input per field kind, for the form drawer and a transition's own inputs. Values in the form
 * are what the inputs hold (people as {id, name}, numbers possibly ''); `toBody` turns them into
 * what the record's schema takes, so the form checks with the very schema the server uses.
 */

export type FormValues = Record<string, unknown>;

/** The form's starting values: a stored row's, or each field's empty. */
export function initialValues(fields: Fields, row: RecordRow | null, names: RecordNames): FormValues {
  const out: FormValues = {};
  for (const [key, fd] of Object.entries(fields)) {
    const v = row?.[key];
    switch (fd.kind) {
      case 'user':
        out[key] = typeof v === 'number' ? [{ id: v, name: names.users[String(v)] ?? `#${v}` }] : [];
        break;
      case 'users':
        out[key] = ((v as number[] | undefined) ?? []).map((id) => ({
          id,
          name: names.users[String(id)] ?? `#${id}`,
        }));
        break;
      case 'int':
      case 'money':
        out[key] = typeof v === 'number' ? v : '';
        break;
      case 'datetime':
        out[key] = typeof v === 'number' ? `${formatMuseumMinute(v)}:00` : null;
        break;
      case 'dept':
        out[key] = typeof v === 'number' ? String(v) : null;
        break;
      case 'status':
        out[key] = String(v ?? fd.initial ?? '');
        break;
      case 'bool':
        out[key] = v === true;
        break;
      case 'roles':
        out[key] = ((v as number[] | undefined) ?? []).map(String);
        break;
      case 'file':
      case 'image':
        // Attachments as the list named them; one it did not name is shown by its id.
        out[key] = ((v as number[] | undefined) ?? []).map(
          (id): Attachment =>
            names.files?.[String(id)] ?? {
              attId: id,
              attName: `#${id}`,
              attPath: '',
              attFileTypeStr: '',
              attSize: 0,
            },
        );
        break;
      case 'ref':
        out[key] = typeof v === 'number' ? String(v) : null;
        break;
      case 'refs':
        out[key] = ((v as number[] | undefined) ?? []).map(String);
        break;
      case 'list':
        out[key] = ((v as RecordRow[] | undefined) ?? []).map((r) => initialValues(fd.sub ?? {}, r, names));
        break;
      default:
        out[key] = typeof v === 'string' ? v : '';
    }
  }
  return out;
}

/** The form's values as the call's body (the schema reads empty strings as "not given"). */
export function toBody(fields: Fields, values: FormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, fd] of Object.entries(fields)) {
    const v = values[key];
    switch (fd.kind) {
      case 'user':
        out[key] = (v as PickedPerson[])[0]?.id ?? '';
        break;
      case 'users':
        out[key] = (v as PickedPerson[]).map((p) => p.id);
        break;
      case 'datetime':
        out[key] = typeof v === 'string' && v ? v.slice(0, 16) : '';
        break;
      case 'dept':
        out[key] = v ? Number(v) : '';
        break;
      case 'status':
        out[key] = v === '' ? '' : Number(v);
        break;
      case 'roles':
        out[key] = (v as string[]).map(Number);
        break;
      case 'file':
      case 'image':
        out[key] = (v as Attachment[]).map((a) => a.attId);
        break;
      case 'ref':
        out[key] = v ? Number(v) : '';
        break;
      case 'refs':
        out[key] = (v as string[]).map(Number);
        break;
      case 'list':
        out[key] = (v as FormValues[]).map((r) => toBody(fd.sub ?? {}, r));
        break;
      default:
        out[key] = v;
    }
  }
  return out;
}

/** Departments in tree order, each as its path (names repeat under different parents). */
function deptOptions(nodes: readonly DeptNode[], parent = ''): { value: string; label: string }[] {
  return nodes.flatMap((n) => {
    const path = parent ? `${parent} / ${n.name}` : n.name;
    return [{ value: String(n.id), label: path }, ...deptOptions(n.children, path)];
  });
}

export function useDeptOptions(enabled = true) {
  const tree = useQuery({
    queryKey: ['dept-tree'],
    queryFn: ({ signal }) => museum.get<DeptNode[]>('/sysDept/tree', { signal, silent: true }),
    enabled,
    staleTime: 60_000,
  });
  return deptOptions(tree.data ?? []);
}

/** The roles of the organisation, for a transition that grants them (人员审核's 通过). */
function useRoleOptions(enabled: boolean) {
  const roles = useQuery({
    queryKey: ['role-list'],
    queryFn: ({ signal }) => museum.get<RoleRow[]>('/sysRole/list', { signal, silent: true }),
    enabled,
    staleTime: 60_000,
  });
  return (roles.data ?? []).map((r) => ({ value: String(r.roleId), label: r.name }));
}

interface InputProps {
  name: string;
  fd: Field;
  value: unknown;
  onChange: (v: unknown) => void;
  error?: string | null;
  options: Record<string, DictOption[]>;
  /** The attach table of rich text images and file fields (the record's name). */
  table: string;
  /** The names of the row's stored people, files and refs. */
  names?: RecordNames;
  /** Attachment ids saved with the row (a file field's removal of one waits for the save). */
  saved?: ReadonlySet<number>;
  /** A file field says whether an upload is running (the form waits for it). */
  onBusy?: (busy: boolean) => void;
}

const NO_IDS: ReadonlySet<number> = new Set();

export function FieldInput(props: InputProps) {
  const { name, fd, value, onChange, error, options, table, names, saved, onBusy } = props;
  const common = {
    label: fd.label,
    withAsterisk: fd.required,
    error: error ?? undefined,
    description: fd.help,
    'data-testid': `field-${name}`,
  };
  const depts = useDeptOptions(fd.kind === 'dept');
  const roles = useRoleOptions(fd.kind === 'roles');
  if (fd.kind === 'text' && fd.choices) {
    // A multiple choice kept as text: the chosen words joined by 、 (see f.text's choices).
    const picked = String(value ?? '')
      .split(/[、,，]/)
      .map((w) => w.trim())
      .filter(Boolean);
    return (
      <Chip.Group
        multiple
        value={picked}
        onChange={(v) => onChange(fd.choices!.filter((c) => v.includes(c)).join('、'))}
      >
        <Input.Wrapper {...common} role="group">
          <Group gap="xs" mt={4}>
            {fd.choices.map((c) => (
              <Chip key={c} value={c} size="sm">
                {c}
              </Chip>
            ))}
          </Group>
        </Input.Wrapper>
      </Chip.Group>
    );
  }
  switch (fd.kind) {
    case 'textarea':
      return (
        <Textarea
          {...common}
          value={value as string}
          onChange={(e) => onChange(e.currentTarget.value)}
          autosize
          minRows={2}
          maxRows={8}
          maxLength={fd.max}
          placeholder={fd.placeholder}
        />
      );
    case 'rich':
      return (
        <RichTextEditor
          label={fd.label}
          required={fd.required}
          error={error}
          value={value as string}
          onChange={onChange}
          tableName={table}
          testId={`field-${name}`}
        />
      );
    case 'int':
    case 'money':
      return (
        <NumberInput
          {...common}
          value={value as number | string}
          onChange={onChange}
          decimalScale={fd.kind === 'money' ? 2 : 0}
          allowNegative={false}
          placeholder={fd.placeholder}
        />
      );
    case 'date':
      return (
        <DatePickerInput
          {...common}
          value={(value as string) || null}
          onChange={(v) => onChange(v ?? '')}
          valueFormat="YYYY-MM-DD"
          clearable={!fd.required}
          placeholder={fd.placeholder ?? tRecords.choose(fd.label)}
        />
      );
    case 'time':
      return (
        <TimeInput {...common} value={value as string} onChange={(e) => onChange(e.currentTarget.value)} />
      );
    case 'datetime':
      return (
        <DateTimePicker
          {...common}
          value={(value as string | null) ?? null}
          onChange={onChange}
          valueFormat="YYYY-MM-DD HH:mm"
          clearable={!fd.required}
        />
      );
    case 'dict':
      return (
        <Select
          {...common}
          value={(value as string) || null}
          onChange={(v) => onChange(v ?? '')}
          data={(options[fd.dict!] ?? []).map((o) => ({ value: o.value, label: o.label }))}
          searchable
          clearable={!fd.required}
          placeholder={tRecords.choose(fd.label)}
        />
      );
    case 'status':
      return (
        <Select
          {...common}
          value={(value as string) || null}
          onChange={(v) => onChange(v ?? '')}
          data={(fd.options ?? []).map((o) => ({ value: String(o.value), label: o.label }))}
          allowDeselect={false}
        />
      );
    case 'bool':
      return (
        <Switch
          label={fd.label}
          checked={value as boolean}
          onChange={(e) => onChange(e.currentTarget.checked)}
          description={fd.help}
          error={error ?? undefined}
          data-testid={`field-${name}`}
        />
      );
    case 'user':
    case 'users':
      return (
        <PeoplePicker
          label={fd.label}
          withAsterisk={fd.required}
          error={error}
          value={value as PickedPerson[]}
          onChange={onChange}
          max={fd.kind === 'user' ? 1 : 50}
          testId={`field-${name}`}
        />
      );
    case 'roles':
      return (
        <MultiSelect
          {...common}
          value={value as string[]}
          onChange={onChange}
          data={roles}
          searchable
          placeholder={tRecords.choose(fd.label)}
          comboboxProps={{ withinPortal: true }}
        />
      );
    case 'file':
    case 'image':
      return (
        <FileInput
          name={name}
          fd={fd}
          value={value as Attachment[]}
          onChange={onChange}
          error={error}
          table={table}
          saved={saved ?? NO_IDS}
          onBusy={onBusy}
        />
      );
    case 'ref':
      return (
        <RefInput
          name={name}
          fd={fd}
          value={(value as string | null) ?? null}
          onChange={onChange}
          error={error}
          known={names?.refs?.[fd.ref!.record] ?? {}}
        />
      );
    case 'refs':
      return (
        <RefsInput
          name={name}
          fd={fd}
          value={(value as string[] | null) ?? []}
          onChange={onChange}
          error={error}
          known={names?.refs?.[fd.ref!.record] ?? {}}
        />
      );
    case 'list':
      return (
        <ListInput
          name={name}
          fd={fd}
          value={value as FormValues[]}
          onChange={onChange}
          error={error}
          blank={() => initialValues(fd.sub ?? {}, null, names ?? { users: {}, depts: {} })}
          renderSub={(key, sub, v, set, row) => (
            <FieldInput
              name={`${name}-${row + 1}-${key}`}
              fd={sub}
              value={v}
              onChange={set}
              options={options}
              table={table}
              names={names}
            />
          )}
        />
      );
    case 'dept':
      return (
        <Select
          {...common}
          value={(value as string | null) ?? null}
          onChange={onChange}
          data={depts}
          searchable
          clearable={!fd.required}
          placeholder={tRecords.choose(fd.label)}
        />
      );
    default:
      return (
        <TextInput
          {...common}
          value={value as string}
          onChange={(e) => onChange(e.currentTarget.value)}
          maxLength={fd.max}
          placeholder={fd.placeholder}
        />
      );
  }
}
