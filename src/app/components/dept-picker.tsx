import { MultiSelect } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { DeptNode } from '../../shared/api/org';
import { museum } from '../lib/api';
import { tCore } from '../lib/i18n-core';
import { tAnnounce } from '../lib/i18n/announce';

/** Departments in tree order, each labelled by its full path (names are unique only among siblings). */
function options(nodes: readonly DeptNode[], parent = ''): { value: string; label: string }[] {
  return nodes.flatMap((n) => {
    const path = parent ? `${parent} / ${n.name}` : n.name;
    return [{ value: String(n.id), label: path }, ...options(n.children, path)];
  });
}

/** Chooses departments from the organisation tree (sysDept/tree). */
export function DeptPicker({
  value,
  onChange,
  label,
  withAsterisk,
  error,
  testId,
}: {
  value: number[];
  onChange: (ids: number[]) => void;
  label?: string;
  withAsterisk?: boolean;
  error?: string | null;
  testId?: string;
}) {
  const tree = useQuery({
    queryKey: ['dept-tree'],
    queryFn: ({ signal }) => museum.get<DeptNode[]>('/sysDept/tree', { signal }),
  });
  return (
    <MultiSelect
      label={label}
      withAsterisk={withAsterisk}
      error={error}
      placeholder={tree.isPending ? tCore.common.loading : tAnnounce.pickers.deptPlaceholder}
      data={options(tree.data ?? [])}
      value={value.map(String)}
      onChange={(ids) => onChange(ids.map(Number))}
      searchable
      clearable
      nothingFoundMessage={tAnnounce.pickers.none}
      data-testid={testId}
    />
  );
}
