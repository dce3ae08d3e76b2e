import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Group,
  Menu,
  Modal,
  Select,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft, IconDots, IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import {
  BLOCK_NAME_MAX,
  PROJECT_MSG,
  TASK_NAME_MAX,
  TASK_DONE,
  TASK_PRIORITY_TEXT,
  type ProjectBoard,
} from '../../../shared/api/project';
import { pathProblem } from '../../../shared/drive/names';
import { museumDate } from '../../../shared/rules/museum-time';
import { CachedViewState } from '../../components/cached-state';
import { FormActions } from '../../components/form-actions';
import { OfflineNote } from '../../components/offline-note';
import { EmptyBlock, confirmAction, notifySuccess } from '../../components/page-states';
import { UserAvatar } from '../../components/user-avatar';
import { ApiError, errorToast } from '../../lib/api';
import { useCachedQuery } from '../../lib/cached-query';
import { tCore } from '../../lib/i18n-core';
import { tOffline } from '../../lib/i18n/offline';
import { tProject } from '../../lib/i18n/project';
import { BoardDnd, ColumnDrop, DraggableCard, useOptimisticBlocks } from './board-dnd';
import { moveCard, shiftBoard } from './board-order';
import type { BoardCard as TaskCard, BoardView } from '../../lib/project-overlay';
import { boardOverlay, storeBoardDetails } from '../../lib/projects';
import { projectCalls, projectKeys } from './project-data';
import { ProjectDocs } from './project-docs';
import { ProjectEditDialog } from './project-form';
import { ProjectMembers } from './project-members';
import { deadlineState, idParam, moveTargets } from './project-rules';
import { TaskDialog } from './task-dialog';

const B = tProject.board;

/** The documents folder in the address, or the root for a missing or malformed one. */
function docsPathOf(raw: unknown): string {
  if (typeof raw !== 'string' || !raw.startsWith('/')) return '/';
  const path = raw.endsWith('/') ? raw : `${raw}/`;
  return pathProblem(path) ? '/' : path;
}
type Block = BoardView['blocks'][number];

/**
 * /project/sub?projectId=[&taskId=]: a project's boards as columns of task cards. taskId in the
 * URL opens that task's dialog (the notice centre's collaboration items link here). Kept on the
 * device for offline reading; moving a card works offline too (the outbox, shown as 待同步 on
 * the card until the server has it); the other board writes need the network.
 */
export function ProjectBoardPage() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const search = useRouterState({ select: (s) => s.location.search as Record<string, unknown> });
  const projectId = idParam(search.projectId);
  const taskId = idParam(search.taskId);
  // The second-level menu (spec §2): 任务看板 | 项目文档 (view=docs, with the folder in `path`).
  const docsPath = search.view === 'docs' ? docsPathOf(search.path) : null;
  const showDocs = (path: string | null) =>
    void navigate({
      to: '/project/sub',
      search:
        path === null
          ? { projectId: String(projectId) }
          : { projectId: String(projectId), view: 'docs', path },
    });
  const view = useCachedQuery<BoardView>({
    queryKey: projectKeys.board(projectId ?? 0),
    fetch: ({ signal }): Promise<ProjectBoard> => projectCalls.board(projectId!, signal),
    overlay: boardOverlay,
    enabled: projectId !== null,
    toastErrors: false,
  });
  // Every open card kept on the device with the board, so each opens offline even if it was
  // never opened here (issue 17 §3). Its own cached view: offline it still says how many are kept.
  const copy = useCachedQuery<{ kept: number; open: number }>({
    queryKey: projectKeys.offlineCopy(projectId ?? 0),
    fetch: async ({ signal }) => storeBoardDetails(qc, await projectCalls.boardDetails(projectId!, signal)),
    enabled: projectId !== null,
    toastErrors: false,
  });
  // A card added or changed (by anyone) moves the board's open cards' versions: read the copy
  // again then, not on every board refresh.
  const openCards = (view.data?.blocks ?? [])
    .flatMap((b) => b.tasks)
    .filter((c) => c.collectStatus !== TASK_DONE && !c.syncPending)
    .map((c) => `${c.taskId}:${c.version}`)
    .join(',');
  const boardFresh = view.status === 'ready' && !view.offline && !view.refreshing;
  const copiedFor = useRef<string | null>(null);
  const copyRefetch = copy.refetch;
  useEffect(() => {
    if (!boardFresh) return;
    // The first fresh board: the copy's own first read is already running.
    if (copiedFor.current !== null && copiedFor.current !== openCards) copyRefetch();
    copiedFor.current = openCards;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the open cards change
  }, [openCards, boardFresh]);
  const [naming, setNaming] = useState<{ block: Block | null } | null>(null);
  const [moving, setMoving] = useState<TaskCard | null>(null);
  const [editing, setEditing] = useState(false);
  const refresh = () => qc.invalidateQueries({ queryKey: projectKeys.board(projectId ?? 0) });
  // Drops and board moves show at once; the server's order comes back when they settle.
  const ordered = useOptimisticBlocks(view.data?.blocks, refresh);
  const [today] = useState(() => museumDate(Date.now()));
  const openTask = (id: number | null) =>
    void navigate({
      to: '/project/sub',
      search:
        id === null ? { projectId: String(projectId) } : { projectId: String(projectId), taskId: String(id) },
      replace: id === null,
    });

  if (projectId === null)
    return (
      <EmptyBlock
        title={B.noProject}
        action={<Button onClick={() => void navigate({ to: '/project-list' })}>{B.back}</Button>}
      />
    );
  const board = view.data;
  const writable = !view.offline && board?.project.archived === 0;
  // Moving a card is queued when offline (lib/projects.ts); the other board writes need the network.
  const movable = board?.project.archived === 0;
  const blocks = ordered.blocks ?? [];
  const dropCard = (taskId: number, blockId: number, index: number) => {
    const from = blocks.flatMap((b) => b.tasks).find((x) => x.taskId === taskId);
    const to = blocks.find((b) => b.blockId === blockId);
    if (!from || !to) return;
    // With `seen`, like the 移动 dialog: offline it waits in the outbox as 待同步.
    const write = async () => {
      try {
        const r = await projectCalls.moveTask(taskId, blockId, index, {
          task: { ...from, projectId },
          blockName: to.name,
        });
        if ((r as { queued?: boolean }).queued)
          notifications.show({ color: 'yellow', message: tOffline.queuedToast });
      } catch (e) {
        // The outbox rejects with the server's words and does not toast them itself.
        errorToast(e instanceof Error ? e.message : tCore.errors.server);
        throw e;
      }
    };
    void ordered.apply(moveCard(blocks, taskId, blockId, index), write);
  };
  const shiftBlock = (b: Block, step: -1 | 1) => {
    const next = shiftBoard(blocks, b.blockId, step);
    if (next)
      void ordered.apply(next, () =>
        projectCalls.sortBlocks(
          projectId,
          next.map((x) => x.blockId),
        ),
      );
  };

  const deleteBlock = (b: Block) =>
    confirmAction({
      title: B.deleteBoard,
      message: B.deleteBoardConfirm(b.name),
      confirmLabel: tCore.common.delete,
      danger: true,
      run: async () => {
        await projectCalls.deleteBlock(b.blockId);
        notifySuccess(tCore.common.deleted);
        await refresh();
      },
    });

  return (
    // /project/sub is outside the main layout (spec §2, BARE_ROUTES): the page frames itself.
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }} data-testid="project-board-page" style={{ minWidth: 0 }}>
      <Group justify="space-between" wrap="wrap">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <ActionIcon
            variant="subtle"
            aria-label={B.back}
            onClick={() => void navigate({ to: '/project-list' })}
          >
            <IconArrowLeft size={18} />
          </ActionIcon>
          <Title order={3} lineClamp={1}>
            {board?.project.name ?? ''}
          </Title>
          <OfflineNote view={view} />
          {copy.data && copy.data.open > 0 && (
            <Text size="xs" c="dimmed" data-testid="cards-cached">
              {tProject.offline.cardsCached(copy.data.kept, copy.data.open)}
            </Text>
          )}
        </Group>
        <Group gap="xs">
          {board && (
            // 编辑项目 (pj-task2): the same dialog as the list's cards.
            <Button
              variant="default"
              disabled={!writable}
              onClick={() => setEditing(true)}
              data-testid="project-edit-open"
            >
              {tProject.edit.action}
            </Button>
          )}
          {board && (
            <ProjectMembers
              projectId={projectId}
              count={board.project.memberCount}
              readOnly={board.project.archived === 1}
              onChanged={refresh}
            />
          )}
          {docsPath === null && (
            // A board is added on the board tab; the documents tab has its own 新建文件夹.
            <Button
              leftSection={<IconPlus size={16} />}
              variant="light"
              disabled={!writable}
              onClick={() => setNaming({ block: null })}
              data-testid="board-add"
            >
              {B.addBoard}
            </Button>
          )}
        </Group>
      </Group>
      {board?.project.archived === 1 && (
        // An archived project reads only; its cards, boards and task dialog offer no edits.
        <Alert color="gray" data-testid="board-archived">
          {tProject.archive.boardNote}
        </Alert>
      )}
      <Tabs
        value={docsPath === null ? 'board' : 'docs'}
        onChange={(v) => showDocs(v === 'docs' ? '/' : null)}
      >
        <Tabs.List>
          <Tabs.Tab value="board">{tProject.docs.tabBoard}</Tabs.Tab>
          <Tabs.Tab value="docs">{tProject.docs.tabDocs}</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      {docsPath !== null ? (
        <ProjectDocs
          projectId={projectId}
          writable={board?.project.archived === 0}
          path={docsPath}
          onPath={(path) => showDocs(path)}
        />
      ) : view.status !== 'ready' || !board ? (
        <CachedViewState view={view} />
      ) : (
        // A plain scroller: the columns scroll sideways inside the work area, never the page.
        <BoardDnd
          blocks={blocks}
          onDrop={dropCard}
          renderOverlay={(task) => (
            <TaskCardView task={task} today={today} movable={false} onOpen={() => {}} onMove={() => {}} />
          )}
        >
          <Box style={{ overflowX: 'auto', maxWidth: '100%' }} data-testid="board-columns">
            <Group align="flex-start" wrap="nowrap" gap="md" pb="sm">
              {blocks.map((b, i) => (
                <Column
                  key={b.blockId}
                  block={b}
                  projectId={projectId}
                  writable={writable}
                  movable={movable}
                  today={today}
                  first={i === 0}
                  last={i === blocks.length - 1}
                  onOpen={(id) => openTask(id)}
                  onMove={setMoving}
                  onRename={() => setNaming({ block: b })}
                  onShift={(step) => shiftBlock(b, step)}
                  onDelete={() => deleteBlock(b)}
                  onAdded={refresh}
                />
              ))}
            </Group>
          </Box>
        </BoardDnd>
      )}
      <BoardNameDialog
        key={naming?.block?.blockId ?? 'new'}
        target={naming}
        projectId={projectId}
        onClose={() => setNaming(null)}
        onDone={refresh}
      />
      {editing && board && <ProjectEditDialog project={board.project} onClose={() => setEditing(false)} />}
      <MoveTaskDialog
        task={moving}
        projectId={projectId}
        blocks={blocks}
        onClose={() => setMoving(null)}
        onDone={refresh}
      />
      {taskId !== null && (
        <TaskDialog
          // A fresh dialog per task: typed-but-unsent text never follows into another task.
          key={taskId}
          taskId={taskId}
          projectId={projectId}
          archived={board?.project.archived === 1}
          onClose={() => openTask(null)}
          onChanged={refresh}
        />
      )}
    </Stack>
  );
}

function Column(props: {
  block: Block;
  projectId: number;
  writable: boolean;
  movable: boolean;
  today: string;
  first: boolean;
  last: boolean;
  onOpen: (taskId: number) => void;
  onMove: (task: TaskCard) => void;
  onRename: () => void;
  onShift: (step: -1 | 1) => void;
  onDelete: () => void;
  onAdded: () => Promise<unknown>;
}) {
  const { block, writable } = props;
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const add = async () => {
    const name = title.trim();
    if (!name) {
      setError(PROJECT_MSG.taskNameEmpty);
      return;
    }
    setSaving(true);
    try {
      await projectCalls.addTask({ taskName: name, blockId: block.blockId, parentId: props.projectId });
      setTitle('');
      setError(null);
      await props.onAdded();
    } catch (e) {
      if (e instanceof ApiError) setError(e.message);
    } finally {
      setSaving(false);
    }
  };
  return (
    <ColumnDrop block={block} disabled={!props.movable}>
      {(drop) => (
        <Card
          ref={drop.ref}
          withBorder
          radius="md"
          p="sm"
          bg="var(--mantine-color-default-hover)"
          // The column a card is carried over is outlined, so the drop's landing board is plain.
          style={{
            width: 280,
            flex: 'none',
            borderColor: drop.isOver ? 'var(--mantine-primary-color-filled)' : undefined,
          }}
          data-testid="board-column"
          aria-label={block.name}
        >
          <Stack gap="xs">
            <Group justify="space-between" wrap="nowrap">
              <Text fw={600} lineClamp={1}>
                {block.name}{' '}
                <Text span c="dimmed" size="sm">
                  {block.tasks.length}
                </Text>
              </Text>
              <Menu position="bottom-end" withinPortal>
                <Menu.Target>
                  <ActionIcon variant="subtle" aria-label={B.boardMenu} disabled={!writable}>
                    <IconDots size={16} />
                  </ActionIcon>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item onClick={props.onRename}>{B.rename}</Menu.Item>
                  <Menu.Item disabled={props.first} onClick={() => props.onShift(-1)}>
                    {tProject.dnd.moveLeft}
                  </Menu.Item>
                  <Menu.Item disabled={props.last} onClick={() => props.onShift(1)}>
                    {tProject.dnd.moveRight}
                  </Menu.Item>
                  <Menu.Item color="red" onClick={props.onDelete}>
                    {B.deleteBoard}
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
            </Group>
            {block.tasks.length === 0 && (
              <Text size="sm" c="dimmed" ta="center" py="xs">
                {B.emptyBoard}
              </Text>
            )}
            {block.tasks.map((task) => (
              <DraggableCard key={task.taskId} task={task} disabled={!props.movable}>
                {(handle) => (
                  <TaskCardView
                    task={task}
                    today={props.today}
                    movable={props.movable}
                    handle={handle}
                    onOpen={() => props.onOpen(task.taskId)}
                    onMove={() => props.onMove(task)}
                  />
                )}
              </DraggableCard>
            ))}
            {writable && (
              <TextInput
                size="sm"
                placeholder={B.taskTitlePlaceholder}
                aria-label={`${B.addTask}（${block.name}）`}
                maxLength={TASK_NAME_MAX}
                value={title}
                error={error}
                disabled={saving}
                onChange={(e) => {
                  setTitle(e.currentTarget.value);
                  setError(null);
                }}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && !e.nativeEvent.isComposing) void add();
                }}
                rightSection={
                  <ActionIcon
                    variant="subtle"
                    aria-label={B.addTask}
                    onClick={() => void add()}
                    loading={saving}
                  >
                    <IconPlus size={16} />
                  </ActionIcon>
                }
              />
            )}
          </Stack>
        </Card>
      )}
    </ColumnDrop>
  );
}

function TaskCardView(props: {
  task: TaskCard;
  today: string;
  movable: boolean;
  /** The drag grip (keyboard dragging starts there). */
  handle?: ReactNode;
  onOpen: () => void;
  onMove: () => void;
}) {
  const { task } = props;
  const due = deadlineState(task.deadline, task.collectStatus, props.today);
  const done = task.collectStatus === 2;
  return (
    <Card withBorder radius="sm" p="xs" data-testid="task-card">
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <UnstyledButton onClick={props.onOpen} style={{ flex: 1, minWidth: 0 }}>
          <Stack gap={4}>
            <Text
              size="sm"
              fw={500}
              lineClamp={2}
              td={done ? 'line-through' : undefined}
              c={done ? 'dimmed' : undefined}
            >
              {task.taskName}
            </Text>
            <Group gap={6}>
              {task.syncPending && (
                <Badge size="xs" color="yellow" variant="light" data-testid="sync-pending">
                  {tProject.offline.pending}
                </Badge>
              )}
              {task.priority > 1 && (
                <Badge size="xs" color={task.priority === 3 ? 'red' : 'orange'} variant="light">
                  {TASK_PRIORITY_TEXT[task.priority]}
                </Badge>
              )}
              {task.deadline && (
                <Text
                  size="xs"
                  c={due === 'overdue' ? 'red' : 'dimmed'}
                  data-overdue={due === 'overdue' || undefined}
                >
                  {task.deadline}
                  {due === 'overdue' ? ` ${B.overdue}` : ''}
                </Text>
              )}
              {task.kidCount > 0 && (
                <Text size="xs" c="dimmed">
                  {B.subtasks(task.kidDone, task.kidCount)}
                </Text>
              )}
            </Group>
          </Stack>
        </UnstyledButton>
        <Stack gap={4} align="center">
          {task.assigner !== null ? (
            <UserAvatar name={task.assignerName} image={task.assignerImage} size="sm" />
          ) : null}
          {props.handle}
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon
                variant="subtle"
                size="sm"
                aria-label={`${B.move}：${task.taskName}`}
                disabled={!props.movable}
              >
                <IconDots size={14} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={props.onMove}>{B.move}</Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Stack>
      </Group>
    </Card>
  );
}

/** 新建看板 (target.block null) or 重命名 one. */
function BoardNameDialog(props: {
  target: { block: Block | null } | null;
  projectId: number;
  onClose: () => void;
  onDone: () => Promise<unknown>;
}) {
  const block = props.target?.block ?? null;
  const [name, setName] = useState(block?.name ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const close = () => {
    setName(block?.name ?? '');
    setError(null);
    props.onClose();
  };
  const save = async () => {
    const n = name.trim();
    if (!n) return setError(B.boardNameEmpty);
    setSaving(true);
    try {
      if (block) await projectCalls.renameBlock(block.blockId, n);
      else await projectCalls.addBlock(props.projectId, n);
      notifySuccess(block ? B.renamed : tCore.common.added);
      await props.onDone();
      setName('');
      props.onClose();
    } catch (e) {
      if (e instanceof ApiError) setError(e.message);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      opened={props.target !== null}
      onClose={close}
      title={block ? B.rename : B.addBoard}
      closeOnClickOutside={false}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        noValidate
      >
        <Stack gap="sm">
          <TextInput
            label={B.boardName}
            placeholder={B.boardNamePlaceholder}
            withAsterisk
            maxLength={BLOCK_NAME_MAX}
            value={name}
            error={error}
            data-autofocus
            onChange={(e) => {
              setName(e.currentTarget.value);
              setError(null);
            }}
          />
          <FormActions onCancel={close} saving={saving} />
        </Stack>
      </form>
    </Modal>
  );
}

/** The move-task dialog (spec §2): choose a board; the card goes to its end. */
function MoveTaskDialog(props: {
  task: TaskCard | null;
  projectId: number;
  blocks: Block[];
  onClose: () => void;
  onDone: () => Promise<unknown>;
}) {
  const [target, setTarget] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const options = props.task ? moveTargets(props.blocks, props.task.blockId) : [];
  const close = () => {
    setTarget(null);
    props.onClose();
  };
  const save = async () => {
    const block = options.find((b) => String(b.blockId) === target);
    if (!props.task || !block) return;
    setSaving(true);
    const { task } = props;
    try {
      const r = await projectCalls.moveTask(task.taskId, block.blockId, block.tasks.length, {
        task: { ...task, projectId: props.projectId },
        blockName: block.name,
      });
      const queued = 'queued' in (r as object) && (r as { queued: boolean }).queued;
      notifications.show({
        color: queued ? 'yellow' : 'green',
        message: queued ? tOffline.queuedToast : B.moved,
      });
      await props.onDone();
      close();
    } catch (e) {
      // The server's words; the dialog stays open for another choice.
      errorToast(e instanceof Error ? e.message : tCore.errors.server);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal opened={props.task !== null} onClose={close} title={B.moveTitle} closeOnClickOutside={false}>
      <Stack gap="sm">
        {options.length === 0 ? (
          <Text size="sm">{B.moveNone}</Text>
        ) : (
          <Select
            label={B.moveTo}
            data={options.map((b) => ({ value: String(b.blockId), label: b.name }))}
            value={target}
            onChange={setTarget}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
        )}
        <FormActions
          onCancel={close}
          saving={saving}
          onSubmit={() => void save()}
          submitDisabled={!target}
          submitLabel={tCore.common.confirm}
        />
      </Stack>
    </Modal>
  );
}
