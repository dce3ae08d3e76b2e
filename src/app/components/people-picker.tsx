import { MultiSelect } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { UserLookupRow } from '../../shared/api/share';
import { museum } from '../lib/api';
import { tAnnounce } from '../lib/i18n/announce';

const P = tAnnounce.pickers;

export interface PickedPerson {
  id: number;
  name: string;
}

/**
 * Chooses colleagues by name or whole phone number (sysUser/lookup). The chosen stay listed
 * with their names while a search shows others, so an edited record shows whom it names.
 */
export function PeoplePicker({
  value,
  onChange,
  label,
  withAsterisk,
  error,
  max = 1000,
  testId,
}: {
  value: PickedPerson[];
  onChange: (people: PickedPerson[]) => void;
  label?: string;
  withAsterisk?: boolean;
  error?: string | null;
  max?: number;
  testId?: string;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [known, setKnown] = useState<Map<number, string>>(() => new Map());
  const found = useQuery({
    queryKey: ['people-picker', debounced],
    enabled: debounced.length > 0,
    queryFn: ({ signal }) =>
      museum.get<UserLookupRow[]>('/sysUser/lookup', {
        query: { nameOrPhone: debounced },
        silent: true,
        signal,
      }),
  });
  const label_ = (u: UserLookupRow) => `${u.userName}（${[u.deptName, u.phone].filter(Boolean).join(' ')}）`;
  const data = new Map<string, string>(value.map((p) => [String(p.id), p.name]));
  for (const u of found.data ?? []) if (!data.has(String(u.userId))) data.set(String(u.userId), label_(u));

  return (
    <MultiSelect
      label={label}
      withAsterisk={withAsterisk}
      error={error}
      placeholder={P.peoplePlaceholder}
      data={[...data].map(([v, l]) => ({ value: v, label: l }))}
      value={value.map((p) => String(p.id))}
      onChange={(ids) => {
        const names = new Map([...known, ...(found.data ?? []).map((u) => [u.userId, u.userName] as const)]);
        for (const p of value) names.set(p.id, p.name);
        setKnown(names);
        onChange(ids.map((id) => ({ id: Number(id), name: names.get(Number(id)) ?? id })));
      }}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server already matched name or phone: show every row it answered.
      filter={({ options }) => options}
      nothingFoundMessage={debounced.length === 0 ? P.typeToSearch : found.isFetching ? P.searching : P.none}
      maxValues={max}
      clearable
      data-testid={testId}
    />
  );
}
