import {
  Badge,
  Button,
  Checkbox,
  CloseButton,
  Group,
  Modal,
  ScrollArea,
  Stack,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Target } from '../../../shared/workflow/definition';
import { LoadFailed } from '../../components/load-failed';
import { LoadingBlock } from '../../components/page-states';
import { tCore } from '../../lib/i18n-core';
import { tDesigner } from '../../lib/i18n/designer';
import { designerCalls, designerKeys } from './designer-data';

const P = tDesigner.picker;
type Kind = 1 | 2 | 3;
const TAB: Record<Kind, string> = { 1: P.people, 2: P.roles, 3: P.depts };

/** The picker data (people, departments, roles) of POST /workflowConfig/copytoUserList, cached. */
export function usePickerData() {
  return useQuery({
    queryKey: designerKeys.picker,
    queryFn: ({ signal }) => designerCalls.picker(signal),
    staleTime: 60_000,
  });
}

/**
 * The designer's person picker: people (with their departments), departments and roles, as the
 * drawer asks (`kinds`). The search filters names by the typed key (spec §5). What is picked
 * comes back in pick order as definition Targets.
 */
export function DesignerPicker({
  opened,
  title,
  kinds,
  value,
  onClose,
  onPick,
}: {
  opened: boolean;
  title: string;
  kinds: readonly Kind[];
  value: readonly Target[];
  onClose: () => void;
  onPick: (targets: Target[]) => void;
}) {
  const data = usePickerData();
  const [picked, setPicked] = useState<Target[]>([...value]);
  const [key, setKey] = useState('');
  const [tab, setTab] = useState<string>(String(kinds[0] ?? 1));
  const [openedFor, setOpenedFor] = useState(false);
  // Each opening starts from the drawer's current list.
  if (opened !== openedFor) {
    setOpenedFor(opened);
    if (opened) {
      setPicked([...value]);
      setKey('');
    }
  }

  const rows = (kind: Kind): { id: number; name: string; note?: string }[] => {
    const d = data.data;
    if (!d) return [];
    if (kind === 1) return d.userlist.map((u) => ({ id: u.userId, name: u.name, note: u.departmentNames }));
    if (kind === 3) return d.deptlist.map((x) => ({ id: x.deptId, name: x.deptName }));
    return d.deptrolelist.map((r) => ({ id: r.roleid, name: r.roleName }));
  };
  const isPicked = (kind: Kind, id: number) => picked.some((p) => p.type === kind && p.targetId === id);
  const toggle = (kind: Kind, id: number, name: string) =>
    setPicked((list) =>
      isPicked(kind, id)
        ? list.filter((p) => !(p.type === kind && p.targetId === id))
        : [...list, { targetId: id, type: kind, name }],
    );
  const needle = key.trim().toLowerCase();

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size={480}
      closeOnClickOutside={false}
      zIndex={400}
    >
      {data.isPending ? (
        <LoadingBlock />
      ) : data.isError ? (
        <LoadFailed error={data.error} onRetry={() => void data.refetch()} retrying={data.isFetching} />
      ) : (
        <Stack gap="sm" data-testid="designer-picker">
          <Group gap={6} mih={28}>
            {picked.map((p) => (
              <Badge
                key={`${p.type}-${p.targetId}`}
                variant="light"
                rightSection={
                  <CloseButton
                    size="xs"
                    aria-label={`${tCore.common.delete} ${p.name}`}
                    onClick={() => toggle(p.type, p.targetId, p.name)}
                  />
                }
              >
                {p.name}
              </Badge>
            ))}
            {picked.length === 0 && (
              <Text size="sm" c="dimmed">
                {P.selected(0)}
              </Text>
            )}
          </Group>
          <TextInput
            placeholder={P.search}
            aria-label={P.search}
            value={key}
            onChange={(e) => setKey(e.currentTarget.value)}
          />
          <Tabs value={tab} onChange={(v) => setTab(v ?? tab)}>
            {kinds.length > 1 && (
              <Tabs.List>
                {kinds.map((k) => (
                  <Tabs.Tab key={k} value={String(k)}>
                    {TAB[k]}
                  </Tabs.Tab>
                ))}
              </Tabs.List>
            )}
            {kinds.map((k) => {
              const list = rows(k).filter((r) => !needle || r.name.toLowerCase().includes(needle));
              return (
                <Tabs.Panel key={k} value={String(k)} pt="xs">
                  <ScrollArea.Autosize mah={320}>
                    <Stack gap={4}>
                      {list.map((r) => (
                        <Checkbox
                          key={r.id}
                          checked={isPicked(k, r.id)}
                          onChange={() => toggle(k, r.id, r.name)}
                          label={r.note ? `${r.name}（${r.note}）` : r.name}
                          py={6}
                        />
                      ))}
                      {list.length === 0 && (
                        <Text size="sm" c="dimmed" ta="center" py="md">
                          {P.none}
                        </Text>
                      )}
                    </Stack>
                  </ScrollArea.Autosize>
                </Tabs.Panel>
              );
            })}
          </Tabs>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {P.selected(picked.length)}
            </Text>
            <Group gap="xs">
              <Button variant="default" onClick={() => setPicked([])}>
                {P.clear}
              </Button>
              <Button
                onClick={() => {
                  onPick(picked);
                  onClose();
                }}
              >
                {P.ok}
              </Button>
            </Group>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** The chosen targets as removable badges with a button that opens the picker. */
export function TargetField({
  label,
  description,
  buttonLabel,
  value,
  kinds,
  error,
  onChange,
  testId,
}: {
  label: string;
  description?: string;
  buttonLabel: string;
  value: readonly Target[];
  kinds: readonly Kind[];
  error?: string | null;
  onChange: (targets: Target[]) => void;
  testId?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Stack gap={6} data-testid={testId}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      {description && (
        <Text size="xs" c="dimmed">
          {description}
        </Text>
      )}
      <Group gap={6}>
        {value.map((p) => (
          <Badge
            key={`${p.type}-${p.targetId}`}
            variant="light"
            color={p.type === 1 ? 'blue' : p.type === 3 ? 'teal' : 'grape'}
            rightSection={
              <CloseButton
                size="xs"
                aria-label={`${tCore.common.delete} ${p.name}`}
                onClick={() => onChange(value.filter((x) => x !== p))}
              />
            }
          >
            {p.name}
          </Badge>
        ))}
        <Button size="xs" variant="light" onClick={() => setOpen(true)}>
          {buttonLabel}
        </Button>
      </Group>
      {error && (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      )}
      <DesignerPicker
        opened={open}
        title={buttonLabel}
        kinds={kinds}
        value={value}
        onClose={() => setOpen(false)}
        onPick={onChange}
      />
    </Stack>
  );
}
