import { ActionIcon, Button, Card, Group, Input, MultiSelect, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { RecordPage } from '../../../shared/records/api';
import type { Field } from '../../../shared/records/define';
import { recordByName } from '../../../shared/records/index';
import { museum } from '../../lib/api';
import { tRecords } from '../../lib/i18n/records';
import { callPath } from '../../lib/records';

const R = tRecords;

/**
 * A ref field: a searchable choice among the rows of the record it points to that the person may
 * read, named by that record's `by` field (the list call with its keyword, the first 50). The
 * value is the chosen row's id as a string; `known` names the stored one before any search.
 */
export function RefInput({
  name,
  fd,
  value,
  onChange,
  error,
  known,
}: {
  name: string;
  fd: Field;
  value: string | null;
  onChange: (v: string | null) => void;
  error?: string | null;
  known: Record<string, string>;
}) {
  const [search, setSearch] = useState('');
  const data = useRefRows(fd, search, known);
  return (
    <Select
      label={fd.label}
      withAsterisk={fd.required}
      error={error ?? undefined}
      description={fd.help}
      data-testid={`field-${name}`}
      value={value}
      onChange={onChange}
      data={data}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      clearable={!fd.required}
      nothingFoundMessage={R.empty}
      placeholder={R.refSearch(fd.label)}
    />
  );
}

/**
 * The rows a ref or refs field may choose, as options: the list call of the record it points to
 * (what the person may read), with its keyword when it has one, the first 50; with `active`, only
 * active rows are offered (an enabled group), while `known` still names the stored ones. A list's
 * filter passes `onlyActive` false: a disabled group still has its applications.
 */
export function useRefRows(fd: Field, search: string, known: Record<string, string>, onlyActive = true) {
  const def = fd.ref ? recordByName(fd.ref.record) : undefined;
  const [keyword] = useDebouncedValue(search, 250);
  const searchable = def ? Object.values(def.fields).some((x) => x.keyword) : false;
  const active = onlyActive ? fd.ref?.active : undefined;
  const rows = useQuery({
    queryKey: ['records', fd.ref?.record, 'ref', searchable ? keyword : '', active?.field ?? ''],
    enabled: Boolean(def),
    staleTime: 30_000,
    queryFn: ({ signal }) => {
      const { path } = callPath(def!, def!.calls.list);
      const query = {
        pageCount: 50,
        ...(searchable && keyword ? { keyword } : {}),
        ...(active ? { [active.field]: active.value } : {}),
      };
      return museum.get<RecordPage>(path, { query, signal, silent: true });
    },
  });
  const by = fd.ref?.by ?? 'id';
  const data = new Map<string, string>(Object.entries(known));
  for (const r of rows.data?.list ?? []) data.set(String(r.id), String(r[by] ?? `#${r.id}`));
  return [...data].map(([value, label]) => ({ value, label }));
}

/**
 * A refs field (意向服务组): several rows of the record it points to, chosen as chips in the order
 * picked. The value is the chosen ids as strings.
 */
export function RefsInput({
  name,
  fd,
  value,
  onChange,
  error,
  known,
}: {
  name: string;
  fd: Field;
  value: string[];
  onChange: (v: string[]) => void;
  error?: string | null;
  known: Record<string, string>;
}) {
  const [search, setSearch] = useState('');
  const data = useRefRows(fd, search, known);
  return (
    <MultiSelect
      label={fd.label}
      withAsterisk={fd.required}
      error={error ?? undefined}
      description={fd.help}
      data-testid={`field-${name}`}
      value={value}
      onChange={onChange}
      data={data}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      maxValues={fd.max}
      nothingFoundMessage={R.empty}
      placeholder={value.length ? undefined : R.refSearch(fd.label)}
    />
  );
}

/**
 * A list field: its rows as small cards, each with the sub-fields' inputs (`renderSub`, the form's
 * own inputs), a button to add a row and one to delete each. Errors arrive for the whole field in
 * the server's words, which name the row (业务指标第 2 行：数值不能为负数).
 */
export function ListInput({
  name,
  fd,
  value,
  onChange,
  error,
  blank,
  renderSub,
}: {
  name: string;
  fd: Field;
  value: Record<string, unknown>[];
  onChange: (v: Record<string, unknown>[]) => void;
  error?: string | null;
  /** A new row's starting values. */
  blank: () => Record<string, unknown>;
  renderSub: (key: string, sub: Field, v: unknown, set: (v: unknown) => void, row: number) => React.ReactNode;
}) {
  const max = fd.max ?? 50;
  const set = (i: number, key: string, v: unknown) =>
    onChange(value.map((r, j) => (j === i ? { ...r, [key]: v } : r)));
  return (
    <Input.Wrapper
      label={fd.label}
      withAsterisk={fd.required}
      error={error ?? undefined}
      description={fd.help}
      data-testid={`field-${name}`}
    >
      <Stack gap="xs" mt={6}>
        {value.map((row, i) => (
          <Card key={i} withBorder padding="xs" data-testid={`${name}-row`}>
            <Group justify="space-between" mb={4}>
              <Text size="xs" c="dimmed">
                {R.rowNo(i + 1)}
              </Text>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={R.removeRow(fd.label, i + 1)}
                onClick={() => onChange(value.filter((_, j) => j !== i))}
              >
                <IconTrash size={14} />
              </ActionIcon>
            </Group>
            <Group gap="xs" align="flex-start" grow wrap="wrap">
              {Object.entries(fd.sub ?? {}).map(([key, sub]) => (
                <div key={key} style={{ minWidth: 120 }}>
                  {renderSub(key, sub, row[key], (v) => set(i, key, v), i)}
                </div>
              ))}
            </Group>
          </Card>
        ))}
        <Group>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPlus size={14} />}
            onClick={() => onChange([...value, blank()])}
            disabled={value.length >= max}
          >
            {R.addRow}
          </Button>
        </Group>
      </Stack>
    </Input.Wrapper>
  );
}

/** A list's filter on a ref or refs field: one row of the record it points to (refs: "has it"). */
export function RefFilter({
  name,
  fd,
  value,
  onChange,
  style,
}: {
  name: string;
  fd: Field;
  value: string | null;
  onChange: (v: string | null) => void;
  style?: React.CSSProperties;
}) {
  const [search, setSearch] = useState('');
  const data = useRefRows(fd, search, {}, false);
  return (
    <Select
      aria-label={fd.label}
      placeholder={fd.label}
      data={data}
      value={value}
      onChange={onChange}
      clearable
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      style={style}
      data-testid={`filter-${name}`}
    />
  );
}
