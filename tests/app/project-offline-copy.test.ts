import { describe, expect, it } from 'vitest';
import { PROJECT_KINDS, overlayTask, type TaskView } from '../../src/app/lib/project-overlay';
import { boardDetailViews, projectKeys } from '../../src/app/lib/project-overlay';
import type { BoardDetails, TaskDetail } from '../../src/shared/api/project';

/*
 * The board's offline copy (lib/projects.ts boardDetailViews): each open card becomes the device
 * rows the task dialog reads — under the very keys it uses — so a card never opened online opens
 * offline, with a queued tick drawn over it.
 */

const detail = (taskId: number, version: number): TaskDetail => ({
  taskId,
  taskName: `任务${taskId}`,
  blockId: 100,
  sort: 0,
  deadline: null,
  priority: 1,
  collectStatus: 1,
  assigner: null,
  assignerName: '',
  assignerImage: '',
  overdue: false,
  kidCount: 1,
  kidDone: 0,
  version,
  description: '',
  projectId: 1,
  projectName: '库房盘点',
  blockName: '待办',
  parentId: 100,
  kidsTasks: [
    {
      kidId: 50 + taskId,
      taskName: '第一柜',
      collectStatus: 1,
      deadline: null,
      assigner: null,
      assignerName: '',
      assignerImage: '',
      sort: 0,
      version: 2,
    },
  ],
  fileList: [],
  updateTime: '',
  updaterName: '',
});

const copy: BoardDetails = {
  projectId: 1,
  openTotal: 3,
  tasks: [
    {
      task: detail(10, 4),
      history: [{ ext1: '2026-11-20 10:00:00', updater: '刘洋', actionDescription: '创建了任务' }],
      historyTotal: 40,
      comments: [],
      commentsTotal: 0,
    },
    { task: detail(11, 1), history: [], historyTotal: 0, comments: [], commentsTotal: 0 },
  ],
};

describe('board offline copy', () => {
  it('keys every card, its history (at its version) and its comments as the task dialog reads them', () => {
    const views = boardDetailViews(copy);
    const keys = views.map((v) => JSON.stringify(v.queryKey));
    expect(keys).toEqual(
      [
        projectKeys.task(10),
        [...projectKeys.history(10), 4],
        projectKeys.comments(10),
        projectKeys.task(11),
        [...projectKeys.history(11), 1],
        projectKeys.comments(11),
      ].map((k) => JSON.stringify(k)),
    );
    // A cut list keeps its total, so the dialog can say only the newest are shown offline.
    expect(views[1]!.data).toEqual({ rows: copy.tasks[0]!.history, total: 40 });
    expect(views[2]!.data).toEqual({ rows: [], total: 0 });
  });

  it('gives the dialog a view over which a queued tick is drawn as 待同步', () => {
    const view = boardDetailViews(copy)[0]!.data as TaskView;
    expect(view.queued).toEqual({ syncPending: false, comments: [] });
    const ticked = overlayTask(
      view,
      [
        {
          kind: PROJECT_KINDS.kid,
          status: 'pending',
          meta: {
            projectId: 1,
            taskId: 10,
            taskName: '任务10',
            seen: 4,
            kidId: 60,
            kidName: '第一柜',
            kidSeen: 2,
            to: 2,
          },
        },
      ],
      '2026-11-25',
    );
    expect(ticked.kidsTasks[0]).toMatchObject({ kidId: 60, collectStatus: 2, syncPending: true });
    expect(ticked.queued.syncPending).toBe(true);
  });
});
