import { Badge, Button, Card, Group, Stack, Switch, Text, Title, UnstyledButton } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { TemplateRow } from '../../../shared/api/workflow';
import { EmptyBlock, ErrorBlock, LoadingBlock, notifySuccess } from '../../components/page-states';
import { tCore } from '../../lib/i18n-core';
import { tDesigner } from '../../lib/i18n/designer';
import { designerCalls, designerKeys } from './designer-data';
import { TemplateEditor } from './template-editor';
import { TemplateIcon } from './template-icon';

const P = tDesigner;

/** Rows by group, groups in first-seen order (the server sorts), 未分组 last. */
function byGroup(rows: readonly TemplateRow[]): [string, TemplateRow[]][] {
  const groups = new Map<string, TemplateRow[]>();
  for (const r of rows) {
    const g = r.groupName || '';
    groups.set(g, [...(groups.get(g) ?? []), r]);
  }
  return [...groups].sort(([a], [b]) => (a === '' ? 1 : 0) - (b === '' ? 1 : 0));
}

/**
 * /approve/dispose 审批设置 (administrators, grant oa.approve.setting): the templates by group,
 * each enabled or not, opening into the editor; 新建审批 starts an empty one.
 */
export function ApprovalSettingPage() {
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  if (editing !== null) return <EditorLoader id={editing} onClose={() => setEditing(null)} />;
  return <TemplateList onOpen={setEditing} />;
}

function EditorLoader({ id, onClose }: { id: number | 'new'; onClose: () => void }) {
  const detail = useQuery({
    queryKey: designerKeys.detail(id === 'new' ? 0 : id),
    queryFn: ({ signal }) => designerCalls.detail(id as number, signal),
    enabled: id !== 'new',
    // The editor starts from what the server has now, never from an older cached draft.
    gcTime: 0,
  });
  if (id === 'new') return <TemplateEditor initial={null} onClose={onClose} />;
  if (detail.isPending) return <LoadingBlock />;
  if (detail.isError)
    return <ErrorBlock onRetry={() => void detail.refetch()} retrying={detail.isFetching} />;
  return <TemplateEditor key={detail.data.id} initial={detail.data} onClose={onClose} />;
}

function TemplateList({ onOpen }: { onOpen: (id: number | 'new') => void }) {
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: designerKeys.list(),
    queryFn: ({ signal }) => designerCalls.list(signal),
  });
  const [switching, setSwitching] = useState<number | null>(null);

  const toggle = async (row: TemplateRow, on: boolean) => {
    setSwitching(row.id);
    try {
      await designerCalls.enable(row.id, on ? 1 : 0);
      notifySuccess(on ? P.enabledOn(row.name) : P.enabledOff(row.name));
      await queryClient.invalidateQueries({ queryKey: designerKeys.list() });
    } catch {
      // toasted by the client; the switch shows the server's state
    } finally {
      setSwitching(null);
    }
  };

  let body;
  if (list.isPending) body = <LoadingBlock />;
  else if (list.isError) body = <ErrorBlock onRetry={() => void list.refetch()} retrying={list.isFetching} />;
  else if (list.data.length === 0) body = <EmptyBlock title={P.empty} description={P.emptyHint} />;
  else
    body = byGroup(list.data).map(([group, rows]) => (
      <Stack key={group} gap="xs">
        <Text fw={600} size="sm" c="dimmed">
          {group || P.noGroup}
        </Text>
        {rows.map((row) => (
          <Card key={row.id} withBorder radius="md" p="sm" data-testid="template-row">
            <Group justify="space-between" wrap="nowrap" gap="sm">
              <UnstyledButton
                onClick={() => onOpen(row.id)}
                style={{ flex: 1, minWidth: 0 }}
                aria-label={`${tCore.common.edit} ${row.name}`}
              >
                <Group gap="sm" wrap="nowrap">
                  <TemplateIcon name={row.icon} />
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Group gap={6}>
                      <Text fw={500} truncate>
                        {row.name}
                      </Text>
                      <Badge size="sm" variant="light" color={row.category === 'gongwen' ? 'grape' : 'blue'}>
                        {P.category[row.category]}
                      </Badge>
                      <Badge size="sm" variant="outline" color={row.version === null ? 'gray' : 'green'}>
                        {P.version(row.version)}
                      </Badge>
                      {row.draftChanged && row.version !== null && (
                        <Badge size="sm" variant="light" color="orange">
                          {P.draftChanged}
                        </Badge>
                      )}
                    </Group>
                    <Text size="xs" c="dimmed">
                      {P.updated(row.updateTime)}
                    </Text>
                  </Stack>
                </Group>
              </UnstyledButton>
              <Switch
                label={P.enabled}
                checked={row.enabled === 1}
                disabled={switching === row.id}
                onChange={(e) => void toggle(row, e.currentTarget.checked)}
                aria-label={`${P.enabled} ${row.name}`}
              />
            </Group>
          </Card>
        ))}
      </Stack>
    ));

  return (
    <Stack gap="md" data-testid="approval-setting-page">
      <Group justify="space-between">
        <Title order={3}>{P.title}</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => onOpen('new')}>
          {P.create}
        </Button>
      </Group>
      {body}
    </Stack>
  );
}
