import {
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useState } from 'react';
import {
  PROJECT_NAME_MAX,
  PROJECT_TYPE_TEXT,
  PROJECT_TYPES,
  type ProjectRow,
  type ProjectType,
} from '../../../shared/api/project';
import { CachedViewState } from '../../components/cached-state';
import { FormActions } from '../../components/form-actions';
import { OfflineNote } from '../../components/offline-note';
import { EmptyBlock, confirmAction, notifySuccess } from '../../components/page-states';
import { useCachedQuery } from '../../lib/cached-query';
import { t } from '../../lib/i18n';
import { projectCalls, projectKeys } from './project-data';
import { dateRange, progressPercent } from './project-rules';

const L = t.project.list;
const F = t.project.form;

/**
 * /project-list: the projects I work on, as cards; create one, archive one. /exhibition (展览管理)
 * is the same page for exhibitions only. Kept on the device for offline reading.
 */
export function ProjectListPage() {
  const [creating, setCreating] = useState(false);
  const exhibitions = useRouterState({ select: (s) => s.location.pathname }) === '/exhibition';
  const view = useCachedQuery<ProjectRow[]>({
    queryKey: projectKeys.list(exhibitions ? 'exhibition' : 'all'),
    fetch: ({ signal }) => projectCalls.list(exhibitions ? 'exhibition' : undefined, signal),
    toastErrors: false,
  });
  const list = view.data ?? [];

  return (
    <Stack gap="md" data-testid="project-list-page">
      <Group justify="space-between" wrap="wrap">
        <Group gap="sm">
          <Title order={3}>{exhibitions ? L.exhibitionTitle : L.title}</Title>
          <OfflineNote view={view} />
        </Group>
        <Button onClick={() => setCreating(true)} disabled={view.offline} data-testid="project-create">
          {L.create}
        </Button>
      </Group>
      {view.status !== 'ready' ? (
        <CachedViewState view={view} />
      ) : list.length === 0 ? (
        <EmptyBlock title={L.empty} description={L.emptyHint} />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {list.map((p) => (
            <ProjectCard key={p.projectId} p={p} offline={view.offline} />
          ))}
        </SimpleGrid>
      )}
      <CreateProjectDialog opened={creating} onClose={() => setCreating(false)} />
    </Stack>
  );
}

function ProjectCard({ p, offline }: { p: ProjectRow; offline: boolean }) {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const pct = progressPercent(p.doneCount, p.taskCount);
  const archive = () =>
    confirmAction({
      title: L.archiveTitle,
      message: L.archiveConfirm(p.name),
      confirmLabel: L.archive,
      danger: true,
      run: async () => {
        await projectCalls.archive(p.projectId, 1);
        notifySuccess(L.archived);
        await qc.invalidateQueries({ queryKey: projectKeys.lists });
      },
    });
  return (
    <Card withBorder radius="md" p="md" data-testid="project-card">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600} lineClamp={2}>
            {p.name}
          </Text>
          <Badge variant="light" style={{ flex: 'none' }}>
            {PROJECT_TYPE_TEXT[p.type]}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          {dateRange(p.startDate, p.endDate, L.noDates)}
        </Text>
        <Text size="sm">
          {L.owner}：{p.ownerName} · {L.members(p.memberCount)}
        </Text>
        <Group gap="xs" wrap="nowrap">
          <Progress value={pct} style={{ flex: 1 }} aria-label={L.progress(p.doneCount, p.taskCount)} />
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {L.progress(p.doneCount, p.taskCount)}
          </Text>
        </Group>
        <Group justify="flex-end" gap="xs">
          <Button variant="subtle" color="red" size="compact-sm" onClick={archive} disabled={offline}>
            {L.archive}
          </Button>
          <Button
            size="compact-sm"
            onClick={() => void navigate({ to: '/project/sub', search: { projectId: String(p.projectId) } })}
          >
            {L.open}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** The date pickers hand 'YYYY-MM-DD' strings (Mantine dates 8+); '' when cleared. */
const ymd = (d: string | null) => (d ? d.slice(0, 10) : null);

function CreateProjectDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [saving, setSaving] = useState(false);
  const form = useForm<{
    name: string;
    type: ProjectType | null;
    startDate: string | null;
    endDate: string | null;
  }>({
    initialValues: { name: '', type: 'exhibition', startDate: null, endDate: null },
    validate: {
      name: (v) => (v.trim() ? null : F.nameEmpty),
      type: (v) => (v ? null : F.typeEmpty),
      endDate: (v, all) => (v && all.startDate && ymd(v)! < ymd(all.startDate)! ? F.datesOrder : null),
    },
  });
  const close = () => {
    form.reset();
    onClose();
  };
  const submit = form.onSubmit(async (v) => {
    setSaving(true);
    try {
      const row = await projectCalls.create({
        name: v.name.trim(),
        type: v.type!,
        startDate: ymd(v.startDate) ?? '',
        endDate: ymd(v.endDate) ?? '',
      });
      notifySuccess(F.created);
      await qc.invalidateQueries({ queryKey: projectKeys.lists });
      close();
      void navigate({ to: '/project/sub', search: { projectId: String(row.projectId) } });
    } catch {
      // The client toasted the server's words; the form keeps what was typed.
    } finally {
      setSaving(false);
    }
  });
  return (
    <Modal opened={opened} onClose={close} title={F.title} closeOnClickOutside={false}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label={F.name}
            placeholder={F.namePlaceholder}
            withAsterisk
            maxLength={PROJECT_NAME_MAX}
            data-autofocus
            {...form.getInputProps('name')}
          />
          <Select
            label={F.type}
            withAsterisk
            allowDeselect={false}
            data={PROJECT_TYPES.map((k) => ({ value: k, label: PROJECT_TYPE_TEXT[k] }))}
            {...form.getInputProps('type')}
          />
          <SimpleGrid cols={2} spacing="sm">
            <DatePickerInput
              label={F.startDate}
              valueFormat="YYYY-MM-DD"
              clearable
              {...form.getInputProps('startDate')}
            />
            <DatePickerInput
              label={F.endDate}
              valueFormat="YYYY-MM-DD"
              clearable
              {...form.getInputProps('endDate')}
            />
          </SimpleGrid>
          <FormActions onCancel={close} saving={saving} mt="sm" />
        </Stack>
      </form>
    </Modal>
  );
}
