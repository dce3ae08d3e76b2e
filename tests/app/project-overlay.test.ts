import { describe, expect, it } from 'vitest';
import type { OutboxOp } from '../../src/app/lib/outbox';
import { PROJECT_KINDS, overlayBoard, overlayTask, projectRefusals } from '../../src/app/lib/project-overlay';
import type { ProjectBoard, TaskCard, TaskDetail } from '../../src/shared/api/project';

type Op = Pick<OutboxOp, 'kind' | 'meta' | 'status'> & { id?: string };
const base = { projectId: 1, taskId: 10, taskName: '清洗青铜鼎', seen: 3 };
const op = (kind: string, meta: object, status: OutboxOp['status'] = 'pending'): Op => ({
  kind,
  meta: { ...base, ...meta },
  status,
});
const TODAY = '2026-11-22';

const card = (taskId: number, blockId: number, sort: number): TaskCard => ({
  taskId,
  taskName: `任务${taskId}`,
  blockId,
  sort,
  deadline: null,
  priority: 1,
  collectStatus: 1,
  assigner: null,
  assignerName: '',
  assignerImage: '',
  overdue: false,
  kidCount: 1,
  kidDone: 0,
  version: 3,
});
const board = (): ProjectBoard => ({
  project: {} as ProjectBoard['project'],
  blocks: [
    { blockId: 100, name: '待办', sort: 0, tasks: [card(10, 100, 0), card(11, 100, 1)] },
    { blockId: 200, name: '进行中', sort: 1, tasks: [card(12, 200, 0)] },
  ],
});
const detail = (): TaskDetail => ({
  ...card(10, 100, 0),
  description: '',
  projectId: 1,
  projectName: '秋季修复',
  blockName: '待办',
  parentId: 100,
  kidsTasks: [
    {
      kidId: 50,
      taskName: '除锈',
      collectStatus: 1,
      deadline: null,
      assigner: null,
      assignerName: '',
      assignerImage: '',
      sort: 0,
      version: 7,
    },
  ],
  fileList: [],
  updateTime: '',
  updaterName: '',
});

describe('project overlays', () => {
  it('draws queued field changes, ticks, new subtasks and moves on the board, marked 待同步', () => {
    const out = overlayBoard(
      board(),
      [
        op(PROJECT_KINDS.field, { field: 'taskName', value: '清洗并登记' }),
        op(PROJECT_KINDS.field, { field: 'deadline', value: '2020-01-01' }),
        op(PROJECT_KINDS.kid, { kidId: 50, kidName: '除锈', kidSeen: 7, to: 2 }),
        op(PROJECT_KINDS.addKid, { kidName: '封护' }),
        op(PROJECT_KINDS.move, { blockId: 200, blockName: '进行中', sort: 0 }),
      ],
      TODAY,
    );
    expect(out.blocks[0]!.tasks.map((t) => t.taskId)).toEqual([11]);
    const moved = out.blocks[1]!.tasks[0]!;
    expect(out.blocks[1]!.tasks.map((t) => t.taskId)).toEqual([10, 12]);
    expect(moved).toMatchObject({
      taskName: '清洗并登记',
      deadline: '2020-01-01',
      overdue: true,
      kidDone: 1,
      kidCount: 2,
      blockId: 200,
      syncPending: true,
    });
    expect(out.blocks[1]!.tasks[1]!.syncPending).toBeUndefined();
  });

  it('keeps a sent write drawn (no blink before the refresh) but no longer 待同步', () => {
    const out = overlayBoard(
      board(),
      [op(PROJECT_KINDS.field, { field: 'collectStatus', value: 2 }, 'done')],
      TODAY,
    );
    expect(out.blocks[0]!.tasks[0]).toMatchObject({ collectStatus: 2 });
    expect(out.blocks[0]!.tasks[0]!.syncPending).toBeUndefined();
  });

  it('draws nothing for refused writes, other features’ writes or vanished cards', () => {
    const b = board();
    for (const ops of [
      [op(PROJECT_KINDS.field, { field: 'taskName', value: 'x' }, 'failed')],
      [op('approvals.decide', { id: 10, action: 2 })],
      [op(PROJECT_KINDS.field, { taskId: 999, field: 'taskName', value: 'x' })],
    ])
      expect(overlayBoard(b, ops, TODAY)).toEqual(b);
    // A move to a board deleted meanwhile leaves the card where the server has it.
    const out = overlayBoard(b, [op(PROJECT_KINDS.move, { blockId: 999, blockName: 'x', sort: 0 })], TODAY);
    expect(out.blocks[0]!.tasks.map((t) => t.taskId)).toEqual([10, 11]);
  });

  it('draws the task: fields, the ticked subtask, queued subtasks and comments, the new board', () => {
    const out = overlayTask(
      detail(),
      [
        op(PROJECT_KINDS.field, { field: 'collectStatus', value: 2 }),
        op(PROJECT_KINDS.kid, { kidId: 50, kidName: '除锈', kidSeen: 7, to: 2 }),
        op(PROJECT_KINDS.addKid, { kidName: '封护' }),
        op(PROJECT_KINDS.addKid, { kidName: '拍照' }),
        op(PROJECT_KINDS.comment, { html: '<p>已完成</p>' }),
        op(PROJECT_KINDS.move, { blockId: 200, blockName: '进行中', sort: 0 }),
        op(PROJECT_KINDS.comment, { taskId: 11, html: '<p>别的任务</p>' }),
      ],
      TODAY,
    );
    expect(out.collectStatus).toBe(2);
    expect(out.version).toBe(3); // the server's: later writes carry what the user saw
    expect(out.blockName).toBe('进行中');
    expect(out.queued).toEqual({ syncPending: true, comments: ['<p>已完成</p>'] });
    expect(out.kidsTasks.map((k) => [k.taskName, k.collectStatus, k.syncPending, k.queued ?? false])).toEqual(
      [
        ['除锈', 2, true, false],
        ['封护', 1, true, true],
        ['拍照', 1, true, true],
      ],
    );
    // Ids of queued subtasks are negative and distinct (React keys; never sent).
    expect(new Set(out.kidsTasks.map((k) => k.kidId)).size).toBe(3);
    expect(out.kidsTasks[1]!.kidId).toBeLessThan(0);
  });

  it('stops listing a sent subtask or comment (the refreshed server lists have them)', () => {
    const out = overlayTask(
      detail(),
      [
        op(PROJECT_KINDS.addKid, { kidName: '封护' }, 'done'),
        op(PROJECT_KINDS.comment, { html: 'x' }, 'done'),
      ],
      TODAY,
    );
    expect(out.kidsTasks).toHaveLength(1);
    expect(out.queued).toEqual({ syncPending: false, comments: [] });
  });

  it('a refused write is not drawn: the view is the server’s, and projectRefusals names it', () => {
    const refused = {
      ...op(PROJECT_KINDS.field, { field: 'taskName', value: '我的标题' }, 'failed'),
      id: 'a',
    };
    const out = overlayTask(detail(), [refused], TODAY);
    expect(out.taskName).toBe('任务10');
    expect(out.queued.syncPending).toBe(false);
    expect(
      projectRefusals([refused, op(PROJECT_KINDS.field, { field: 'deadline', value: null })], 10),
    ).toEqual([refused]);
    expect(projectRefusals([refused], 11)).toEqual([]);
    expect(projectRefusals([{ ...refused, kind: 'approvals.decide' }], 10)).toEqual([]);
  });
});
