import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Progress,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useState } from 'react';
import { PROJECT_TYPE_TEXT, type ProjectRow } from '../../../shared/api/project';
import { CachedViewState } from '../../components/cached-state';
import { FormActions } from '../../components/form-actions';
import { OfflineNote } from '../../components/offline-note';
import { EmptyBlock, confirmAction, notifySuccess } from '../../components/page-states';
import { useCachedQuery } from '../../lib/cached-query';
import { tProject } from '../../lib/i18n/project';
import { projectCalls, projectKeys } from './project-data';
import { ProjectEditDialog, ProjectFormFields, useProjectForm, ymd } from './project-form';
import { dateRange, progressPercent } from './project-rules';

const L = tProject.list;
const F = tProject.form;
const A = tProject.archive;

/**
 * /project-list: the projects I work on, as cards; create, edit (编辑: name, type, dates, owner)
 * and archive one. The 已归档 tab lists the archived projects, read-only, each with 取消归档.
 * /exhibition (展览管理) is the same page for exhibitions only. Kept on the device for offline
 * reading (each tab its own copy).
 */
export function ProjectListPage() {
  const [creating, setCreating] = useState(false);
  const [tab, setTab] = useState<'working' | 'archived'>('working');
  const [editing, setEditing] = useState<ProjectRow | null>(null);
  const exhibitions = useRouterState({ select: (s) => s.location.pathname }) === '/exhibition';
  const archived = tab === 'archived' ? 1 : 0;
  const view = useCachedQuery<ProjectRow[]>({
    // Under projectKeys.lists, so every write that invalidates the lists reaches both tabs.
    queryKey: [...projectKeys.list(exhibitions ? 'exhibition' : 'all'), tab],
    fetch: ({ signal }) => projectCalls.list(exhibitions ? 'exhibition' : undefined, signal, archived),
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
        <SegmentedControl
          value={tab}
          onChange={(v) => setTab(v as typeof tab)}
          data={[
            { value: 'working', label: A.working },
            { value: 'archived', label: A.archived },
          ]}
          data-testid="project-tabs"
        />
        <Button onClick={() => setCreating(true)} disabled={view.offline} data-testid="project-create">
          {L.create}
        </Button>
      </Group>
      {view.status !== 'ready' ? (
        <CachedViewState view={view} />
      ) : list.length === 0 ? (
        <EmptyBlock title={archived ? A.empty : L.empty} description={archived ? undefined : L.emptyHint} />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {list.map((p) => (
            <ProjectCard key={p.projectId} p={p} offline={view.offline} onEdit={() => setEditing(p)} />
          ))}
        </SimpleGrid>
      )}
      <CreateProjectDialog opened={creating} onClose={() => setCreating(false)} />
      {editing && <ProjectEditDialog project={editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}

function ProjectCard({ p, offline, onEdit }: { p: ProjectRow; offline: boolean; onEdit: () => void }) {
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
  const restore = () =>
    confirmAction({
      title: A.restoreTitle,
      message: A.restoreConfirm(p.name),
      confirmLabel: A.restore,
      run: async () => {
        await projectCalls.archive(p.projectId, 0);
        notifySuccess(A.restored);
        await qc.invalidateQueries({ queryKey: projectKeys.all });
      },
    });
  const open = () => void navigate({ to: '/project/sub', search: { projectId: String(p.projectId) } });
  return (
    <Card withBorder radius="md" p="md" data-testid="project-card">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          {/* The name is a link to the board too: the first thing a person taps on a card. */}
          <Anchor
            href={`/project/sub?projectId=${p.projectId}`}
            onClick={(e) => {
              e.preventDefault();
              open();
            }}
            fw={600}
            c="var(--mantine-color-text)"
            lineClamp={2}
          >
            {p.name}
          </Anchor>
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
          {p.archived ? (
            <Button variant="subtle" size="compact-sm" onClick={restore} disabled={offline}>
              {A.restore}
            </Button>
          ) : (
            <>
              <Button variant="subtle" size="compact-sm" onClick={onEdit} disabled={offline}>
                {tProject.edit.action}
              </Button>
              <Button variant="subtle" color="red" size="compact-sm" onClick={archive} disabled={offline}>
                {L.archive}
              </Button>
            </>
          )}
          <Button size="compact-sm" onClick={open}>
            {L.open}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function CreateProjectDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [saving, setSaving] = useState(false);
  const form = useProjectForm({
    name: '',
    type: 'exhibition',
    startDate: null,
    endDate: null,
    ownerId: null,
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
          <ProjectFormFields form={form} />
          <FormActions onCancel={close} saving={saving} mt="sm" />
        </Stack>
      </form>
    </Modal>
  );
}
