import {
  Chip,
  ActionIcon,
  Alert,
  Badge,
  Checkbox,
  Divider,
  Group,
  Modal,
  ScrollArea,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Button,
} from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconCircle, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouterState } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import {
  PROJECT_MSG,
  TASK_DONE,
  TASK_NAME_MAX,
  TASK_OPEN,
  TASK_PRIORITY_TEXT,
  type CommentRow,
  type TaskField,
} from '../../../shared/api/project';
import { CachedViewState } from '../../components/cached-state';
import { useDialogEscape } from '../../components/dialog-escape';
import { OfflineNote, syncTime } from '../../components/offline-note';
import { confirmAction, notifySuccess } from '../../components/page-states';
import { RichHtml } from '../../components/rich-html';
import { RichTextEditor } from '../../components/rich-text-editor';
import { UserAvatar } from '../../components/user-avatar';
import { ApiError, errorToast } from '../../lib/api';
import { useCachedQuery, type CachedView } from '../../lib/cached-query';
import { tCore } from '../../lib/i18n-core';
import { tOffline } from '../../lib/i18n/offline';
import { tProject } from '../../lib/i18n/project';
import { outbox, useOutbox } from '../../lib/offline';
import type { SubmitResult } from '../../lib/outbox';
import { projectRefusals, type OfflineField, type TaskView } from '../../lib/project-overlay';
import {
  projectWrites,
  taskOverlay,
  taskViewOf,
  type HistoryLine,
  type KeptList,
  type TaskRef,
} from '../../lib/projects';
import { projectCalls, projectKeys } from './project-data';
import { idParam, isBlankHtml } from './project-rules';
import { TaskDescription } from './task-description';
import { TaskFiles } from './task-files';

const T = tProject.task;
const OFF = tProject.offline;
const M = tProject.taskMore;
const OFFLINE_FIELDS: readonly TaskField[] = [
  'taskName',
  'deadline',
  'collectStatus',
] satisfies OfflineField[];

/** A write through the outbox (lib/projects.ts); `ok` is said only when the server took it. */
type Queued = (run: () => Promise<SubmitResult>, ok?: string) => Promise<SubmitResult>;

/**
 * The task detail dialog (spec §2: 900 px, titled project name / board name). Each change calls
 * updateProjectTask with `ext1` naming the field and the `version` the dialog saw; a refusal
 * (someone changed the task meanwhile, or any other) shows the server's words and reloads the
 * server's truth. The title, deadline, done, subtask ticks, new subtasks and comments also work
 * offline (lib/projects.ts): queued, drawn as 待同步 and replayed once; a replay the server
 * refused is listed here with its reason over the server's truth. The rest needs the network.
 * Subtasks show and edit their deadline and assignee (online; a completed one is locked, as
 * the server rules). Comments are written in the rich-text editor and shown sanitized. 删除任务
 * (online) confirms that the subtasks go too. In an archived project (`archived`) the dialog
 * is read-only: every control is disabled, the writing boxes are hidden, and a note says why.
 * Escape closes only the top-most dialog (components/dialog-escape.ts): a confirmation opened
 * from here closes alone.
 */
export function TaskDialog(props: {
  taskId: number;
  projectId: number;
  /** The project is archived: everything is read-only. */
  archived?: boolean;
  onClose: () => void;
  onChanged: () => Promise<unknown>;
}) {
  const { taskId } = props;
  const escape = useDialogEscape(props.onClose);
  const archived = props.archived ?? false;
  const qc = useQueryClient();
  // Kept on the device like the board, so a task opened once reads offline (then read-only).
  const view = useCachedQuery<TaskView>({
    queryKey: projectKeys.task(taskId),
    fetch: async ({ signal }) => taskViewOf(await projectCalls.task(taskId, signal)),
    overlay: taskOverlay,
    toastErrors: false,
  });
  const refused = projectRefusals(useOutbox(), taskId);
  // The server's answer wins over a device copy: a deleted task is gone even if cached.
  const gone = view.error instanceof ApiError && view.error.message === PROJECT_MSG.taskGone;
  useEffect(() => {
    // Spec §8: a warning, as the notice centre shows for a collaboration item it knows is deleted.
    if (gone) notifications.show({ color: 'yellow', message: PROJECT_MSG.taskGone });
  }, [gone]);

  const d = gone ? undefined : view.data;
  const readOnly = view.offline;
  const reload = async () => {
    await Promise.all([
      qc.invalidateQueries({ queryKey: projectKeys.task(taskId) }),
      qc.invalidateQueries({ queryKey: ['project', 'history', taskId] }),
      props.onChanged(),
    ]);
  };
  /** Runs a write; on success or refusal the dialog and the board re-read the server. */
  const write = async (run: () => Promise<unknown>, ok?: string) => {
    try {
      await run();
      if (ok) notifySuccess(ok);
    } catch (e) {
      // The client toasted the server's words (a stale edit names who changed the task).
      await reload();
      throw e;
    }
    await reload();
  };
  const ref: TaskRef | undefined = d && {
    projectId: d.projectId,
    taskId: d.taskId,
    taskName: d.taskName,
    version: d.version,
  };
  const queued: Queued = async (run, ok) => {
    try {
      const r = await run();
      if (r.queued) notifications.show({ color: 'yellow', message: tOffline.queuedToast });
      else {
        if (ok) notifySuccess(ok);
        await reload();
      }
      return r;
    } catch (e) {
      // The server's words (a stale edit names who changed the task); then its truth.
      errorToast(e instanceof Error ? e.message : tCore.errors.server);
      await reload();
      throw e;
    }
  };
  const update = (field: TaskField, value: unknown) => {
    if (!d || !ref) return;
    if (OFFLINE_FIELDS.includes(field))
      void queued(() =>
        projectWrites.field(ref, field as OfflineField, value as string | number | null),
      ).catch(() => {});
    else void write(() => projectCalls.updateTask(d.taskId, field, value, d.version)).catch(() => {});
  };
  const deleteTask = () =>
    d &&
    confirmAction({
      title: M.deleteTask,
      message: M.deleteTaskConfirm(d.taskName, d.kidsTasks.length),
      confirmLabel: tCore.common.delete,
      danger: true,
      run: async () => {
        await projectCalls.deleteTask(d.taskId);
        notifySuccess(M.taskDeleted);
        props.onClose();
        // The device copy goes too, so the task never reopens from the cache.
        qc.removeQueries({ queryKey: projectKeys.task(taskId) });
        await props.onChanged();
      },
    });

  return (
    <Modal
      opened
      onClose={props.onClose}
      size={900}
      {...escape}
      closeOnClickOutside={false}
      title={d ? `${d.projectName} / ${d.blockName}` : ''}
      data-testid="task-dialog"
    >
      {refused.length > 0 && (
        <Alert
          color="red"
          icon={<IconAlertTriangle size={18} />}
          title={OFF.refusedTitle}
          mb="sm"
          data-testid="task-refused"
        >
          <Stack gap={4}>
            {refused.map((op) => (
              <Text key={op.id} size="sm">
                {op.label}：{op.error}
              </Text>
            ))}
            <Group justify="flex-end">
              <Button
                size="compact-xs"
                variant="light"
                onClick={() => refused.forEach((op) => void outbox.discard(op.id))}
              >
                {OFF.dismiss}
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
      {gone ? (
        <Alert color="yellow" icon={<IconAlertTriangle size={18} />} data-testid="task-gone">
          {PROJECT_MSG.taskGone}
        </Alert>
      ) : !d ? (
        <CachedViewState view={view} />
      ) : (
        // Offline the dialog shows the device copy and its 离线 mark; the changes that can wait
        // are queued, the others (assignee, priority, deletions) are disabled until the network returns.
        // An archived project's task: the disabled fieldset turns off every native control inside.
        <fieldset disabled={archived} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          {archived && (
            <Alert color="gray" mb="sm" data-testid="task-archived">
              {M.archivedNote}
            </Alert>
          )}
          <Group gap="xs" justify="space-between">
            <Group gap="xs">
              {/*
               * 已完成 asks nothing (it is undone the same way) but sits up here, a pill the
               * size of its word, apart from the fields: not under the title where a tap meant
               * to leave the title field, or aimed at 负责人, would land on it.
               */}
              <Chip
                checked={d.collectStatus === TASK_DONE}
                onChange={(checked) => update('collectStatus', checked ? TASK_DONE : TASK_OPEN)}
                color="green"
                variant="outline"
                data-testid="task-done"
              >
                {/* Unticked it shows an empty circle, so it reads as something to tick, not a tag. */}
                {d.collectStatus === TASK_DONE ? (
                  T.done
                ) : (
                  <Group gap={6} wrap="nowrap" component="span">
                    <IconCircle size={14} aria-hidden />
                    {T.done}
                  </Group>
                )}
              </Chip>
              <OfflineNote view={view} />
              {d.queued.syncPending && (
                <Badge color="yellow" variant="light" data-testid="sync-pending">
                  {OFF.pending}
                </Badge>
              )}
            </Group>
            {!archived && (
              <Button
                size="compact-sm"
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={14} />}
                disabled={readOnly}
                title={readOnly ? M.deleteOffline : undefined}
                onClick={deleteTask}
                data-testid="task-delete"
              >
                {M.deleteTask}
              </Button>
            )}
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            <Stack gap="sm">
              {/* Re-mounted on the server's version or a rolled-back title, so the field shows the truth. */}
              <TitleField
                key={`${d.taskId}-${d.version}-${d.taskName}`}
                detail={d}
                onSave={(v) => update('taskName', v)}
              />
              <AssigneeField
                detail={d}
                projectId={props.projectId}
                disabled={readOnly}
                onSave={(v) => update('assigner', v)}
              />
              <SimpleGrid cols={2} spacing="sm">
                <DatePickerInput
                  label={T.deadline}
                  valueFormat="YYYY-MM-DD"
                  clearable
                  value={d.deadline}
                  onChange={(v) => update('deadline', v ? String(v).slice(0, 10) : '')}
                />
                <Select
                  label={T.priority}
                  allowDeselect={false}
                  data={Object.entries(TASK_PRIORITY_TEXT).map(([v, l]) => ({ value: v, label: l }))}
                  value={String(d.priority)}
                  disabled={readOnly}
                  onChange={(v) => v && update('priority', Number(v))}
                />
              </SimpleGrid>
              <TaskDescription
                detail={d}
                onSave={(v) =>
                  write(() => projectCalls.updateTask(d.taskId, 'description', v, d.version), T.saved)
                }
              />
              <Subtasks
                detail={d}
                task={ref!}
                projectId={props.projectId}
                offline={readOnly}
                archived={archived}
                write={write}
                queued={queued}
              />
            </Stack>
            <Stack gap="sm">
              <TaskFiles detail={d} onChanged={reload} />
              <Comments
                task={ref!}
                offline={readOnly}
                archived={archived}
                waiting={d.queued.comments}
                queued={queued}
              />
              <History taskId={d.taskId} version={d.version} />
            </Stack>
          </SimpleGrid>
        </fieldset>
      )}
    </Modal>
  );
}

function TitleField({ detail, onSave }: { detail: TaskView; onSave: (v: string) => void }) {
  const [value, setValue] = useState(detail.taskName);
  const [error, setError] = useState<string | null>(null);
  const commit = () => {
    const v = value.trim();
    if (!v) return setError(PROJECT_MSG.taskNameEmpty);
    if (v !== detail.taskName) onSave(v);
  };
  return (
    <TextInput
      label={T.title}
      withAsterisk
      maxLength={TASK_NAME_MAX}
      value={value}
      error={error}
      onChange={(e) => {
        setValue(e.currentTarget.value);
        setError(null);
      }}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && !e.nativeEvent.isComposing) commit();
      }}
    />
  );
}

/**
 * The people list widget (spec §2): the project's collaborators, for the projectId of the
 * current route (the board's URL; `fallback` when the route has none). The one who holds the
 * field now stays listed even if they left the project, so the field still shows a name.
 */
function usePeopleOptions(fallback: number, current: { id: number | null; name: string }) {
  const routeId = useRouterState({
    select: (s) => idParam((s.location.search as Record<string, unknown>).projectId),
  });
  const projectId = routeId ?? fallback;
  const people = useQuery({
    queryKey: projectKeys.people(projectId),
    queryFn: ({ signal }) => projectCalls.people(projectId, signal),
  });
  const data = (people.data ?? []).map((p) => ({ value: String(p.userId), label: p.userName }));
  if (current.id !== null && !data.some((o) => o.value === String(current.id)))
    data.unshift({ value: String(current.id), label: current.name });
  return data;
}

/** The assignee, chosen among the project's collaborators only (the server refuses anyone else). */
function AssigneeField(props: {
  detail: TaskView;
  projectId: number;
  disabled: boolean;
  onSave: (v: number | null) => void;
}) {
  const { assigner, assignerName } = props.detail;
  const data = usePeopleOptions(props.projectId, { id: assigner, name: assignerName });
  return (
    <Select
      label={T.assignee}
      placeholder={T.assigneePlaceholder}
      data={data}
      value={assigner === null ? null : String(assigner)}
      onChange={(v) => props.onSave(v === null ? null : Number(v))}
      clearable
      searchable
      disabled={props.disabled}
      data-testid="task-assignee"
    />
  );
}

function Subtasks({
  detail,
  task,
  projectId,
  offline,
  archived,
  write,
  queued,
}: {
  detail: TaskView;
  task: TaskRef;
  projectId: number;
  offline: boolean;
  archived: boolean;
  write: (run: () => Promise<unknown>, ok?: string) => Promise<void>;
  queued: Queued;
}) {
  const [name, setName] = useState('');
  const { error, setError, saving, submit } = useFieldSubmit();
  const add = async () => {
    const n = name.trim();
    if (!n) return setError(PROJECT_MSG.kidNameEmpty);
    await submit(async () => {
      await queued(() => projectWrites.addKid(task, n), T.kidAdded);
      setName('');
    });
  };
  return (
    <Stack gap={6}>
      <Divider
        label={`${T.subtasks} ${detail.kidsTasks.filter((k) => k.collectStatus === TASK_DONE).length}/${detail.kidsTasks.length}`}
        labelPosition="left"
      />
      {detail.kidsTasks.map((k) => (
        <SubtaskRow
          key={k.kidId}
          kid={k}
          task={task}
          projectId={projectId}
          offline={offline}
          write={write}
          queued={queued}
        />
      ))}
      {!archived && (
        <TextInput
          size="sm"
          placeholder={T.kidPlaceholder}
          aria-label={T.kidPlaceholder}
          maxLength={TASK_NAME_MAX}
          value={name}
          error={error}
          disabled={saving}
          onChange={(e) => {
            setName(e.currentTarget.value);
            setError(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.nativeEvent.isComposing) void add();
          }}
        />
      )}
    </Stack>
  );
}

/**
 * One subtask: the tick (queued offline), its name, and below its deadline and assignee. Those
 * two go straight to updateKidTask with the version seen, so they need the network (disabled
 * offline with a note); a completed subtask is locked (spec §5) until it is reopened, and the
 * server refuses it too, in words the client toasts.
 */
function SubtaskRow({
  kid: k,
  task,
  projectId,
  offline,
  write,
  queued,
}: {
  kid: TaskView['kidsTasks'][number];
  task: TaskRef;
  projectId: number;
  offline: boolean;
  write: (run: () => Promise<unknown>, ok?: string) => Promise<void>;
  queued: Queued;
}) {
  const done = k.collectStatus === TASK_DONE;
  const people = usePeopleOptions(projectId, { id: k.assigner, name: k.assignerName });
  // Locked: done (the rule), not yet on the server, or no network.
  const locked = done || k.queued || offline;
  const hint = done ? T.kidLocked : offline ? M.kidOffline : undefined;
  const save = (field: 'deadline' | 'assigner', value: string | number | null) =>
    void write(() => projectCalls.updateKid(k.kidId, field, value, k.version), T.saved).catch(() => {});
  return (
    <Stack gap={4} data-testid="subtask">
      <Group gap="xs" wrap="nowrap">
        <Checkbox
          checked={done}
          aria-label={k.taskName}
          // A subtask added offline has no id until the server has it.
          disabled={k.queued}
          onChange={() =>
            void queued(() => projectWrites.toggleKid(task, k, done ? TASK_OPEN : TASK_DONE)).catch(() => {})
          }
        />
        <Text
          size="sm"
          style={{ flex: 1 }}
          td={done ? 'line-through' : undefined}
          c={done ? 'dimmed' : undefined}
          title={done ? T.kidLocked : undefined}
        >
          {k.taskName}
        </Text>
        {k.syncPending && (
          <Badge size="xs" color="yellow" variant="light">
            {OFF.pending}
          </Badge>
        )}
        {k.assigner !== null && <UserAvatar name={k.assignerName} image={k.assignerImage} size="xs" />}
        <ActionIcon
          variant="subtle"
          color="red"
          size="sm"
          disabled={offline || k.queued}
          aria-label={`${T.deleteKid}：${k.taskName}`}
          onClick={() =>
            confirmAction({
              title: T.deleteKid,
              message: T.deleteKidConfirm(k.taskName),
              confirmLabel: tCore.common.delete,
              danger: true,
              run: () => write(() => projectCalls.deleteKid(k.kidId), T.kidDeleted),
            })
          }
        >
          <IconTrash size={14} />
        </ActionIcon>
      </Group>
      <Group gap="xs" wrap="nowrap" pl={28} title={hint}>
        <DatePickerInput
          size="xs"
          valueFormat="YYYY-MM-DD"
          placeholder={T.deadline}
          aria-label={M.kidDeadline(k.taskName)}
          clearable
          value={k.deadline}
          disabled={locked}
          onChange={(v) => save('deadline', v ? String(v).slice(0, 10) : null)}
          style={{ flex: 1 }}
        />
        <Select
          size="xs"
          placeholder={M.kidAssigneePlaceholder}
          aria-label={M.kidAssignee(k.taskName)}
          data={people}
          value={k.assigner === null ? null : String(k.assigner)}
          clearable
          searchable
          disabled={locked}
          onChange={(v) => save('assigner', v === null ? null : Number(v))}
          comboboxProps={{ withinPortal: true }}
          style={{ flex: 1 }}
        />
      </Group>
    </Stack>
  );
}

function Comments({
  task,
  offline,
  archived,
  waiting,
  queued,
}: {
  task: TaskRef;
  offline: boolean;
  archived: boolean;
  /** Comments written on this device, not yet sent (their HTML). */
  waiting: string[];
  queued: Queued;
}) {
  const qc = useQueryClient();
  const { taskId } = task;
  const key = projectKeys.comments(taskId);
  // Kept on the device (also read ahead with the board, lib/projects.ts storeBoardDetails).
  const list = useCachedQuery<KeptList<CommentRow>>({
    queryKey: key,
    fetch: async ({ signal }) => {
      const rows = await projectCalls.comments(taskId, signal);
      return { rows, total: rows.length };
    },
    toastErrors: false,
  });
  const rows = list.data?.rows ?? [];
  const [html, setHtml] = useState('');
  const { error, setError, saving, submit } = useFieldSubmit();
  const send = async () => {
    if (isBlankHtml(html)) return setError(PROJECT_MSG.commentEmpty);
    // Offline the HTML waits in the outbox; the server sanitizes it when it arrives.
    await submit(async () => {
      await queued(() => projectWrites.comment(task, html), T.commented);
      setHtml('');
    });
  };
  return (
    <Stack gap={6}>
      <Divider label={listLabel(T.comments, list)} labelPosition="left" />
      <ScrollArea.Autosize mah={260}>
        <Stack gap={8}>
          <ListState
            view={list}
            empty={rows.length === 0 && waiting.length === 0 ? T.noComments : undefined}
            notCached={OFF.commentsNotCached}
            cut={OFF.commentsCut}
            testId="comments-state"
          />
          {rows.map((c) => (
            <Group key={c.commentId} gap="xs" wrap="nowrap" align="flex-start" data-testid="comment">
              <UserAvatar name={c.ext1} image={c.ext2} size="sm" />
              <Stack gap={2} style={{ flex: 1, minWidth: 0, wordBreak: 'break-word' }}>
                <Text size="xs" c="dimmed">
                  {c.ext1} · {c.ext3}
                </Text>
                <RichHtml html={c.commentContent} />
              </Stack>
              {c.canDelete && !archived && (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size="sm"
                  aria-label={T.deleteComment}
                  disabled={offline}
                  onClick={() =>
                    confirmAction({
                      title: T.deleteComment,
                      message: T.deleteCommentConfirm,
                      confirmLabel: tCore.common.delete,
                      danger: true,
                      run: async () => {
                        await projectCalls.deleteComment(c.commentId);
                        notifySuccess(T.commentDeleted);
                        await qc.invalidateQueries({ queryKey: key });
                      },
                    })
                  }
                >
                  <IconTrash size={14} />
                </ActionIcon>
              )}
            </Group>
          ))}
          {waiting.map((w, i) => (
            <Group key={i} gap="xs" wrap="nowrap" data-testid="comment">
              <div style={{ flex: 1, minWidth: 0, wordBreak: 'break-word' }}>
                <RichHtml html={w} />
              </div>
              <Badge size="xs" color="yellow" variant="light">
                {OFF.pending}
              </Badge>
            </Group>
          ))}
        </Stack>
      </ScrollArea.Autosize>
      {!archived && (
        <>
          <RichTextEditor
            value={html}
            onChange={(v) => {
              setHtml(v);
              setError(null);
            }}
            tableName="project"
            minHeight={80}
            placeholder={M.commentPlaceholder}
            ariaLabel={T.comments}
            error={error}
            testId="comment-editor"
          />
          <Group justify="flex-end">
            <Button size="compact-sm" onClick={() => void send()} loading={saving}>
              {T.send}
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}

/** The task's history, re-read whenever the task's version moves; kept on the device like the task. */
function History({ taskId, version }: { taskId: number; version: number }) {
  const list = useCachedQuery<KeptList<HistoryLine>>({
    queryKey: [...projectKeys.history(taskId), version],
    fetch: async ({ signal }) => {
      const rows = await projectCalls.history(taskId, signal);
      return { rows, total: rows.length };
    },
    toastErrors: false,
  });
  const rows = list.data?.rows ?? [];
  return (
    <Stack gap={6}>
      <Divider label={listLabel(T.history, list)} labelPosition="left" />
      <ScrollArea.Autosize mah={240}>
        <Stack gap={4} data-testid="task-history">
          <ListState
            view={list}
            empty={rows.length === 0 ? T.noHistory : undefined}
            notCached={OFF.historyNotCached}
            cut={OFF.historyCut}
            testId="history-state"
          />
          {rows.map((h, i) => (
            <Text key={i} size="xs">
              <Text span c="dimmed">
                {h.ext1}
              </Text>{' '}
              {h.updater} {h.actionDescription}
            </Text>
          ))}
        </Stack>
      </ScrollArea.Autosize>
    </Stack>
  );
}

/** A list's heading; offline it adds when the shown copy was synced, like the other cached views. */
const listLabel = (title: string, v: CachedView<unknown>) =>
  v.offline && v.status === 'ready' ? `${title} · ${tOffline.lastSync(syncTime(v.syncedAt))}` : title;

/**
 * What a comment or history list says besides its rows. Offline it never claims 暂无 for a list
 * the device does not hold: it says the list is not here and comes back with the network; a
 * device copy cut to the newest rows says so.
 */
function ListState({
  view,
  empty,
  notCached,
  cut,
  testId,
}: {
  view: CachedView<KeptList<unknown>>;
  empty: string | undefined;
  notCached: string;
  cut: (n: number, total: number) => string;
  testId: string;
}) {
  let text: string | undefined;
  if (view.status === 'not-cached') text = notCached;
  else if (view.status === 'ready' && view.data) {
    if (view.offline && view.data.total > view.data.rows.length)
      text = cut(view.data.rows.length, view.data.total);
    else text = empty;
  }
  if (!text) return null;
  return (
    <Text size="sm" c="dimmed" data-testid={testId}>
      {text}
    </Text>
  );
}

/**
 * The add boxes of the dialog (subtask, comment): one write at a time, and a refusal shown in
 * the server's words beside the field, with what was typed kept for another try.
 */
function useFieldSubmit() {
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const submit = async (run: () => Promise<void>) => {
    setSaving(true);
    try {
      await run();
    } catch (e) {
      if (e instanceof Error) setError(e.message);
    } finally {
      setSaving(false);
    }
  };
  return { error, setError, saving, submit };
}
