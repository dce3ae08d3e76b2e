import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_MSG } from '../../src/shared/api/project';
import { museumDate } from '../../src/shared/rules/museum-time';
import { driveUser } from './drive-util';
import { startServer, type TestServer } from './harness';
import { M, PNG_1X1 } from './util';

/*
 * Project tasks (issue 9), against a real server: projects, boards, tasks, subtasks, rights
 * (including another project's ids), the completed-subtask lock, history, collaboration items,
 * sort order after moves, sanitized comments, stale offline edits, idempotent replays, files.
 */

let s: TestServer;
const tok: Record<string, string> = {};
const uid: Record<string, number> = {};

beforeAll(async () => {
  s = await startServer();
  for (const a of ['admin', 'director', 'staff02', 'staff03', 'staff05', 'staff06']) {
    tok[a] = await s.login(a);
    uid[a] = (
      await s.db.selectFrom('user').select('id').where('account', '=', a).executeTakeFirstOrThrow()
    ).id;
  }
});
afterAll(() => s.close());

const post = async (who: string, p: string, body: unknown = {}, headers?: Record<string, string>) =>
  (await s.call('POST', `${M}${p}`, { token: tok[who], body, headers })).body;
const get = async (who: string, p: string) => (await s.call('GET', `${M}${p}`, { token: tok[who] })).body;
const okOf = (res: any) => {
  expect(res.success, JSON.stringify(res)).toBe(true);
  return res.result;
};

/** Collaboration items of a person, newest first. */
const items = async (who: string) => okOf(await post(who, '/sysCooperation/list')) as any[];
const clearItems = async (...who: string[]) => {
  for (const w of who) okOf(await post(w, '/sysCooperation/clear'));
};

async function newProject(who: string, name: string, userIds: number[] = []) {
  const p = okOf(await post(who, '/project/add', { name, type: 'exhibition', userIds }));
  const board = okOf(await get(who, `/project/board?projectId=${p.projectId}`));
  const blocks: Record<string, number> = {};
  for (const b of board.blocks) blocks[b.name] = b.blockId;
  return { projectId: p.projectId as number, blocks };
}
const addTask = async (who: string, blockId: number, taskName: string, extra: object = {}) =>
  okOf(await post(who, '/projectTask/addProjectTask', { taskName, blockId, ...extra }));
const boardOrder = async (who: string, projectId: number) => {
  const board = okOf(await get(who, `/project/board?projectId=${projectId}`));
  return Object.fromEntries(
    board.blocks.map((b: any) => [b.name, b.tasks.map((t: any) => `${t.taskName}:${t.sort}`)]),
  );
};
const historyOf = async (who: string, taskId: number) =>
  (okOf(await post(who, '/projectTask/getProjectHistoryList', { taskId })) as any[]).map(
    (h) => `${h.updater}:${h.actionDescription}`,
  );

describe('projects and boards', () => {
  it('creates a project with its boards; only collaborators and administrators see it', async () => {
    await clearItems('staff06');
    const { projectId, blocks } = await newProject('staff05', '青铜时代特展', [uid.staff06!]);
    expect(Object.keys(blocks)).toEqual(['待办', '进行中', '已完成']);
    const list = okOf(await get('staff06', '/project/list'));
    expect(list.map((p: any) => p.name)).toContain('青铜时代特展');
    expect((await items('staff06'))[0]).toMatchObject({
      cooperationTitle: '刘洋邀请您参与项目「青铜时代特展」',
    });
    const names = async (q: string) =>
      okOf(await get('staff05', `/project/list${q}`)).map((p: any) => p.name);
    expect(await names('?type=exhibition')).toEqual(['青铜时代特展', '「青铜时代」特展筹备']);
    expect(await names('?type=event')).toEqual([]);
    // Someone else: not listed, and a known id answers like an unknown one.
    expect(okOf(await get('staff02', '/project/list'))).toEqual([]);
    const foreign = await get('staff02', `/project/board?projectId=${projectId}`);
    const missing = await get('staff02', '/project/board?projectId=999999');
    expect(foreign).toMatchObject({ success: false, message: PROJECT_MSG.projectGone });
    expect(missing).toEqual(foreign);
    // The director holds 项目进度: a project administrator.
    expect(okOf(await get('director', `/project/board?projectId=${projectId}`)).project.name).toBe(
      '青铜时代特展',
    );
  });

  it('validates a project, edits and archives it', async () => {
    expect(await post('staff05', '/project/add', { name: ' ', type: 'exhibition' })).toMatchObject({
      success: false,
      message: '请输入项目名称',
    });
    expect(await post('staff05', '/project/add', { name: 'x', type: 'party' })).toMatchObject({
      message: '请选择项目类型',
    });
    expect(
      await post('staff05', '/project/add', {
        name: 'x',
        type: 'event',
        startDate: '2026-05-02',
        endDate: '2026-05-01',
      }),
    ).toMatchObject({ message: '结束日期不能早于开始日期' });
    const { projectId, blocks } = await newProject('staff05', '临时项目');
    const edited = okOf(
      await post('staff05', '/project/update', {
        projectId,
        name: '社教活动',
        type: 'event',
        startDate: '2026-05-01',
      }),
    );
    expect(edited).toMatchObject({ name: '社教活动', type: 'event', startDate: '2026-05-01', endDate: null });
    okOf(await post('staff05', '/project/archive', { projectId, archived: 1 }));
    expect(okOf(await get('staff05', '/project/list')).map((p: any) => p.projectId)).not.toContain(projectId);
    expect(okOf(await get('staff05', '/project/list?archived=1')).map((p: any) => p.projectId)).toContain(
      projectId,
    );
    expect(
      await post('staff05', '/projectTask/addProjectTask', { taskName: 't', blockId: blocks['待办'] }),
    ).toMatchObject({
      success: false,
      message: PROJECT_MSG.archived,
    });
  });

  it('adds, renames, reorders boards, and refuses to delete one that holds tasks', async () => {
    const { projectId, blocks } = await newProject('staff05', '看板测试');
    const added = okOf(await post('staff05', '/projectBlock/add', { projectId, name: '待验收' }));
    expect(added.sort).toBe(3);
    okOf(await post('staff05', '/projectBlock/rename', { blockId: added.blockId, name: '验收' }));
    const ids = [added.blockId, blocks['待办'], blocks['进行中'], blocks['已完成']];
    okOf(await post('staff05', '/projectBlock/sort', { projectId, blockIds: ids }));
    expect(Object.keys(await boardOrder('staff05', projectId))).toEqual(['验收', '待办', '进行中', '已完成']);
    expect(await post('staff05', '/projectBlock/sort', { projectId, blockIds: ids.slice(1) })).toMatchObject({
      message: '看板列表已变化，请刷新后重试',
    });
    await addTask('staff05', added.blockId, '验收任务');
    expect(await post('staff05', '/projectBlock/delete', { blockId: added.blockId })).toMatchObject({
      success: false,
      message: PROJECT_MSG.blockNotEmpty,
    });
    okOf(await post('staff05', '/projectBlock/delete', { blockId: blocks['已完成'] }));
    const board = okOf(await get('staff05', `/project/board?projectId=${projectId}`));
    expect(board.blocks.map((b: any) => `${b.name}:${b.sort}`)).toEqual(['验收:0', '待办:1', '进行中:2']);
    // Another person cannot touch the boards.
    expect(
      await post('staff02', '/projectBlock/rename', { blockId: added.blockId, name: 'x' }),
    ).toMatchObject({
      message: PROJECT_MSG.blockGone,
    });
  });
});

describe('tasks', () => {
  let projectId: number;
  let blocks: Record<string, number>;
  let other: { projectId: number; blocks: Record<string, number> };
  beforeAll(async () => {
    ({ projectId, blocks } = await newProject('staff05', '任务测试', [uid.staff06!]));
    other = await newProject('staff03', '别的项目');
  });

  it('adds a task: title required, default priority 1, the assignee is told, the actor is not', async () => {
    await clearItems('staff05', 'staff06');
    expect(
      await post('staff05', '/projectTask/addProjectTask', { taskName: '  ', blockId: blocks['待办'] }),
    ).toMatchObject({
      success: false,
      message: PROJECT_MSG.taskNameEmpty,
    });
    const t = await addTask('staff05', blocks['待办']!, '撰写展陈大纲', {
      assigner: uid.staff06,
      deadline: '2026-06-01',
      parentId: projectId,
    });
    expect(t).toMatchObject({
      taskName: '撰写展陈大纲',
      priority: 1,
      collectStatus: 1,
      assigner: uid.staff06,
      assignerName: '孙悦',
      blockName: '待办',
      projectName: '任务测试',
      kidsTasks: [],
      fileList: [],
    });
    const got = await items('staff06');
    expect(got[0]).toMatchObject({
      cooperationTitle: '刘洋把任务「撰写展陈大纲」指派给了您',
      cooperationType: '1',
      projectId,
      taskId: t.taskId,
      userName: '刘洋',
    });
    expect(await items('staff05')).toEqual([]);
    // Assigning yourself tells nobody.
    await addTask('staff05', blocks['待办']!, '自己的任务', { assigner: uid.staff05 });
    expect(await items('staff05')).toEqual([]);
  });

  it('refuses ids of another project, and an assignee who is not a collaborator', async () => {
    // staff06 is a collaborator here, not there, and no project administrator.
    expect(
      await post('staff06', '/projectTask/addProjectTask', { taskName: 'x', blockId: other.blocks['待办'] }),
    ).toMatchObject({
      message: PROJECT_MSG.blockGone,
    });
    expect(
      await post('staff06', '/projectTask/addProjectTask', {
        taskName: 'x',
        blockId: blocks['待办'],
        parentId: other.projectId,
      }),
    ).toMatchObject({ message: PROJECT_MSG.projectGone });
    // A project administrator (staff05, 部门主任) sees both, and still may not mix them.
    expect(
      await post('staff05', '/projectTask/addProjectTask', {
        taskName: 'x',
        blockId: blocks['待办'],
        parentId: other.projectId,
      }),
    ).toMatchObject({ message: PROJECT_MSG.blockGone });
    expect(
      await post('staff05', '/projectTask/addProjectTask', { taskName: 'x', blockId: 999999 }),
    ).toMatchObject({
      message: PROJECT_MSG.blockGone,
    });
    expect(
      await post('staff05', '/projectTask/addProjectTask', {
        taskName: 'x',
        blockId: blocks['待办'],
        assigner: uid.staff02,
      }),
    ).toMatchObject({ message: PROJECT_MSG.notMember });
    const t = await addTask('staff05', blocks['待办']!, '移动测试');
    // Moving into another project's board, even for an administrator.
    expect(
      await post('staff05', '/projectTask/moveProjectTask', {
        taskId: t.taskId,
        parentId: other.blocks['进行中'],
        sort: 0,
      }),
    ).toMatchObject({ message: PROJECT_MSG.blockGone });
    // Someone outside: the same answer for an existing task and a missing one.
    const foreign = await post('staff02', '/projectTask/getProjectTask', { taskId: t.taskId });
    expect(foreign).toMatchObject({ success: false, message: PROJECT_MSG.taskGone });
    expect(await post('staff02', '/projectTask/getProjectTask', { taskId: 999999 })).toEqual(foreign);
    for (const [p, body] of [
      ['/projectTask/updateProjectTask', { taskId: t.taskId, ext1: 'taskName', taskName: 'x' }],
      ['/projectTask/deleteTask', { taskId: t.taskId }],
      ['/projectTask/addKidTask', { parentId: t.taskId, taskName: 'x' }],
      ['/projectTask/addProjectConmentsList', { ownerId: t.taskId, commentContent: 'x' }],
      ['/projectTask/getProjectHistoryList', { taskId: t.taskId }],
    ] as const)
      expect(await post('staff02', p, body), p).toMatchObject({
        success: false,
        message: PROJECT_MSG.taskGone,
      });
    expect(okOf(await post('staff05', '/projectTask/getProjectTask', { taskId: t.taskId })).taskName).toBe(
      '移动测试',
    );
  });

  it('keeps sort orders dense and stable after moves', async () => {
    const p = await newProject('staff05', '排序测试');
    const a = await addTask('staff05', p.blocks['待办']!, 'A');
    const b = await addTask('staff05', p.blocks['待办']!, 'B');
    const c = await addTask('staff05', p.blocks['待办']!, 'C');
    await addTask('staff05', p.blocks['待办']!, 'D', { sort: 1 });
    expect((await boardOrder('staff05', p.projectId))['待办']).toEqual(['A:0', 'D:1', 'B:2', 'C:3']);
    okOf(
      await post('staff05', '/projectTask/moveProjectTask', {
        taskId: c.taskId,
        parentId: p.blocks['待办'],
        sort: 0,
      }),
    );
    expect((await boardOrder('staff05', p.projectId))['待办']).toEqual(['C:0', 'A:1', 'D:2', 'B:3']);
    okOf(
      await post('staff05', '/projectTask/moveProjectTask', {
        taskId: a.taskId,
        parentId: p.blocks['进行中'],
        sort: 9,
      }),
    );
    okOf(
      await post('staff05', '/projectTask/moveProjectTask', {
        taskId: b.taskId,
        parentId: p.blocks['进行中'],
        sort: 0,
      }),
    );
    expect(await boardOrder('staff05', p.projectId)).toEqual({
      待办: ['C:0', 'D:1'],
      进行中: ['B:0', 'A:1'],
      已完成: [],
    });
    okOf(await post('staff05', '/projectTask/deleteTask', { taskId: c.taskId }));
    expect((await boardOrder('staff05', p.projectId))['待办']).toEqual(['D:0']);
    expect(await historyOf('staff05', a.taskId)).toEqual([
      '刘洋:将任务移动到看板「进行中」',
      '刘洋:在看板「待办」创建了任务「A」',
    ]);
    const boards = okOf(await post('staff05', '/projectTask/getParentTaskList', { taskId: a.taskId }));
    expect(boards.map((x: any) => x.taskName)).toEqual(['待办', '进行中', '已完成']);
    expect(boards[0]).toEqual({ taskId: p.blocks['待办'], taskName: '待办' });
  });

  it('updates one field named by ext1, writes history, tells the assignee of a new deadline', async () => {
    const t = await addTask('staff05', blocks['进行中']!, '布展', { assigner: uid.staff06 });
    await clearItems('staff06');
    const up = (body: object) =>
      post('staff05', '/projectTask/updateProjectTask', { taskId: t.taskId, ...body });
    // Fields not named by ext1 are ignored.
    expect(okOf(await up({ ext1: 'deadline', deadline: '2026-07-01', taskName: '不改' }))).toMatchObject({
      taskName: '布展',
      deadline: '2026-07-01',
    });
    expect((await items('staff06'))[0]).toMatchObject({
      cooperationTitle: '任务「布展」的截止日期改为 2026-07-01',
      taskId: t.taskId,
    });
    okOf(await up({ ext1: 'priority', priority: 3 }));
    okOf(await up({ ext1: 'taskName', taskName: '展厅布展' }));
    okOf(await up({ ext1: 'collectStatus', collectStatus: 2 }));
    okOf(await up({ ext1: 'description', description: '<p>灯光<script>alert(1)</script></p>' }));
    expect(okOf(await post('staff05', '/projectTask/getProjectTask', { taskId: t.taskId })).description).toBe(
      '<p>灯光</p>',
    );
    expect(await up({ ext1: 'taskName', taskName: '' })).toMatchObject({
      message: PROJECT_MSG.taskNameEmpty,
    });
    expect(await up({ ext1: 'deadline', deadline: '2026/07/01' })).toMatchObject({
      message: '截止日期格式应为 yyyy-MM-dd',
    });
    expect(await up({ ext1: 'priority', priority: 4 })).toMatchObject({ message: '优先级不正确' });
    expect(await up({ ext1: 'owner', owner: 1 })).toMatchObject({ message: '要修改的字段（ext1）不正确' });
    expect(await up({ ext1: 'assigner', assigner: uid.staff02 })).toMatchObject({
      message: PROJECT_MSG.notMember,
    });
    const h = okOf(await post('staff06', '/projectTask/getProjectHistoryList', { taskId: t.taskId }));
    expect(h[0]).toMatchObject({ updater: '刘洋', actionDescription: '修改了任务描述' });
    expect(h[0].ext1).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(h.map((x: any) => x.actionDescription)).toEqual([
      '修改了任务描述',
      '完成了任务',
      '将任务标题改为「展厅布展」',
      '将优先级改为非常紧急',
      '将截止日期改为 2026-07-01',
      '将负责人设为孙悦',
      '在看板「进行中」创建了任务「布展」',
    ]);
  });

  it('refuses a stale offline edit, naming who changed the task', async () => {
    const t = await addTask('staff05', blocks['待办']!, '撰写展签');
    okOf(
      await post('staff06', '/projectTask/updateProjectTask', {
        taskId: t.taskId,
        ext1: 'taskName',
        taskName: '撰写展签与说明牌',
        version: t.version,
      }),
    );
    const stale = await post('staff05', '/projectTask/updateProjectTask', {
      taskId: t.taskId,
      ext1: 'deadline',
      deadline: '2026-08-01',
      version: t.version,
    });
    expect(stale).toMatchObject({ success: false, code: 1007 });
    expect(stale.message).toMatch(/^该任务已被孙悦于\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}修改，请刷新后再试$/);
    const now = okOf(await post('staff05', '/projectTask/getProjectTask', { taskId: t.taskId }));
    expect(now).toMatchObject({ deadline: null, version: t.version + 1, updaterName: '孙悦' });
  });

  it('subtasks: a checklist item for the assignee, the completed lock, deleting a task deletes its subtasks', async () => {
    const t = await addTask('staff05', blocks['待办']!, '文物点交');
    await clearItems('staff06');
    expect(
      await post('staff05', '/projectTask/addKidTask', { parentId: t.taskId, taskName: '' }),
    ).toMatchObject({
      message: PROJECT_MSG.kidNameEmpty,
    });
    const { kidId } = okOf(
      await post('staff05', '/projectTask/addKidTask', {
        parentId: t.taskId,
        taskName: '核对清单',
        assigner: uid.staff06,
      }),
    );
    okOf(await post('staff05', '/projectTask/addKidTask', { parentId: t.taskId, taskName: '拍照' }));
    expect((await items('staff06'))[0]).toMatchObject({
      cooperationTitle: '刘洋给您分配了子任务「核对清单」',
      cooperationType: '2',
      taskId: t.taskId,
    });
    const kid = (body: object, who = 'staff06') =>
      post(who, '/projectTask/updateKidTask', { kidId, ...body });
    const done = okOf(await kid({ ext1: 'collectStatus', collectStatus: 2 }));
    expect(done.kidsTasks.map((k: any) => `${k.taskName}:${k.collectStatus}:${k.sort}`)).toEqual([
      '核对清单:2:0',
      '拍照:1:1',
    ]);
    expect(done).toMatchObject({ kidCount: 2, kidDone: 1 });
    // Locked while done: name, deadline and assignee.
    for (const body of [
      { ext1: 'taskName', taskName: '改名' },
      { ext1: 'deadline', deadline: '2026-01-01' },
      { ext1: 'assigner', assigner: uid.staff05 },
    ])
      expect(await kid(body)).toMatchObject({ success: false, message: PROJECT_MSG.kidLocked });
    okOf(await kid({ ext1: 'collectStatus', collectStatus: 1 }));
    okOf(await kid({ ext1: 'taskName', taskName: '核对点交清单' }));
    expect(await historyOf('staff05', t.taskId)).toEqual([
      '孙悦:将子任务「核对清单」改名为「核对点交清单」',
      '孙悦:重新打开了子任务「核对清单」',
      '孙悦:完成了子任务「核对清单」',
      '刘洋:添加了子任务「拍照」',
      '刘洋:添加了子任务「核对清单」',
      '刘洋:在看板「待办」创建了任务「文物点交」',
    ]);
    // Outsiders: the same answer as a missing subtask.
    expect(await kid({ ext1: 'collectStatus', collectStatus: 2 }, 'staff02')).toMatchObject({
      message: PROJECT_MSG.kidGone,
    });
    okOf(await post('staff05', '/projectTask/deleteTask', { taskId: t.taskId }));
    expect(await post('staff05', '/projectTask/getProjectTask', { taskId: t.taskId })).toMatchObject({
      message: PROJECT_MSG.taskGone,
    });
    expect(
      await s.db.selectFrom('project_task').select('id').where('parent_task_id', '=', t.taskId).execute(),
    ).toEqual([]);
    // The collaboration item now warns 此任务已被删除.
    expect((await items('staff06')).find((i) => i.taskId === t.taskId)).toMatchObject({ isDelete: 1 });
  });

  it('replays an idempotent write once', async () => {
    const t = await addTask('staff05', blocks['待办']!, '离线任务');
    const key = { 'Idempotency-Key': 'kid-offline-0001' };
    const body = { parentId: t.taskId, taskName: '离线子任务' };
    const first = await post('staff06', '/projectTask/addKidTask', body, key);
    const again = await post('staff06', '/projectTask/addKidTask', body, key);
    expect(again).toEqual(first);
    expect(
      okOf(await post('staff06', '/projectTask/getProjectTask', { taskId: t.taskId })).kidsTasks,
    ).toHaveLength(1);
  });

  it('comments: sanitized, the assignee is told, only the author deletes', async () => {
    const t = await addTask('staff05', blocks['待办']!, '讲解词', { assigner: uid.staff06 });
    await clearItems('staff06', 'staff05');
    expect(
      await post('staff05', '/projectTask/addProjectConmentsList', {
        ownerId: t.taskId,
        commentContent: ' ',
      }),
    ).toMatchObject({
      message: PROJECT_MSG.commentEmpty,
    });
    expect(
      await post('staff05', '/projectTask/addProjectConmentsList', {
        ownerId: t.taskId,
        commentContent: '<script>x</script>',
      }),
    ).toMatchObject({ message: PROJECT_MSG.commentEmpty });
    const list = okOf(
      await post('staff05', '/projectTask/addProjectConmentsList', {
        ownerId: t.taskId,
        commentContent:
          '<p onclick="x()">请<b>周五</b>前完成<img src="https://evil.example/p.png"><a href="javascript:alert(1)">链接</a></p>',
      }),
    );
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      ext1: '刘洋',
      canDelete: true,
      commentContent: '<p>请周五前完成<a target="_blank" rel="noopener noreferrer">链接</a></p>',
    });
    expect((await items('staff06'))[0]).toMatchObject({
      cooperationTitle: '刘洋评论了任务「讲解词」',
      cooperationContent: '请周五前完成 链接',
    });
    expect(await items('staff05')).toEqual([]);
    const seen = okOf(await post('staff06', '/projectTask/getProjectConmentsList', { ownerId: t.taskId }));
    expect(seen[0].canDelete).toBe(false);
    expect(
      await post('staff06', '/projectTask/deleteProjectConments', { commentId: seen[0].commentId }),
    ).toMatchObject({
      success: false,
      message: PROJECT_MSG.notAuthor,
    });
    expect(
      await post('staff02', '/projectTask/deleteProjectConments', { commentId: seen[0].commentId }),
    ).toMatchObject({
      message: PROJECT_MSG.commentGone,
    });
    okOf(await post('staff05', '/projectTask/deleteProjectConments', { commentId: seen[0].commentId }));
    expect(okOf(await post('staff06', '/projectTask/getProjectConmentsList', { ownerId: t.taskId }))).toEqual(
      [],
    );
    expect((await historyOf('staff05', t.taskId)).slice(0, 2)).toEqual([
      '刘洋:删除了评论',
      '刘洋:发表了评论',
    ]);
  });
});

describe('demo seed', () => {
  it('has the exhibition project with its boards, an overdue task and a checklist', async () => {
    const [demo] = okOf(await get('staff06', '/project/list?keyword=青铜时代」'));
    expect(demo).toMatchObject({
      name: '「青铜时代」特展筹备',
      ownerName: '刘洋',
      taskCount: 4,
      doneCount: 1,
      memberCount: 3,
    });
    const board = okOf(await get('staff06', `/project/board?projectId=${demo.projectId}`));
    expect(board.blocks.map((b: any) => `${b.name}:${b.tasks.length}`)).toEqual([
      '待办:2',
      '进行中:1',
      '已完成:1',
    ]);
    expect(board.blocks[1].tasks[0]).toMatchObject({ taskName: '展厅灯光设计', overdue: true, priority: 3 });
    expect(board.blocks[0].tasks[0]).toMatchObject({ kidCount: 3, kidDone: 1 });
    expect(
      okOf(
        await post('director', '/projectUser/getUserCooperation', { projectId: demo.projectId, type: 1 }),
      ).map((u: any) => u.name),
    ).toEqual(['刘洋', '张国华', '孙悦']);
    expect(await get('staff02', `/project/board?projectId=${demo.projectId}`)).toMatchObject({
      message: PROJECT_MSG.projectGone,
    });
  });
});

describe('people', () => {
  it('lists, searches, adds and removes collaborators', async () => {
    const { projectId } = await newProject('staff05', '人员测试', [uid.staff06!]);
    const people = okOf(await post('staff05', '/projectUser/getUserCooperation', { projectId, type: 1 }));
    expect(people.map((p: any) => `${p.name}:${p.isOwner}`)).toEqual(['刘洋:true', '孙悦:false']);
    const frequent = okOf(await post('staff05', '/projectUser/getUserCooperation', { type: 2 }));
    expect(frequent[0]).toMatchObject({ name: '孙悦' });
    const found = okOf(await post('staff05', '/projectUser/getUser', { projectId, userName: '孙' }));
    expect(found).toEqual([expect.objectContaining({ name: '孙悦', status: 1 })]);
    expect(
      okOf(await post('staff05', '/projectUser/getUser', { projectId, userName: '王芳' }))[0],
    ).toMatchObject({ status: 0 });
    await clearItems('staff02');
    okOf(await post('staff06', '/projectUser/addUser', { projectId, userIds: [uid.staff02] }));
    expect((await items('staff02'))[0]).toMatchObject({ cooperationTitle: '孙悦邀请您参与项目「人员测试」' });
    expect(
      await post('staff06', '/projectUser/deleteUser', { projectId, userId: uid.staff05 }),
    ).toMatchObject({
      message: PROJECT_MSG.ownerStays,
    });
    expect(
      await post('staff06', '/projectUser/deleteUser', { projectId, userId: uid.staff02 }),
    ).toMatchObject({
      message: PROJECT_MSG.notOwner,
    });
    // Anyone may leave; the owner removes others.
    okOf(await post('staff02', '/projectUser/deleteUser', { projectId, userId: uid.staff02 }));
    okOf(await post('staff05', '/projectUser/deleteUser', { projectId, userId: uid.staff06 }));
    expect(await get('staff06', `/project/board?projectId=${projectId}`)).toMatchObject({
      message: PROJECT_MSG.projectGone,
    });
    expect(await post('staff02', '/projectUser/getUserCooperation', { projectId, type: 1 })).toMatchObject({
      message: PROJECT_MSG.projectGone,
    });
  });
});

describe('progress', () => {
  it('counts done, open and overdue tasks per project and per assignee', async () => {
    const { projectId, blocks } = await newProject('staff05', '进度测试', [uid.staff06!]);
    const yesterday = museumDate(Date.now() - 86_400_000);
    await addTask('staff05', blocks['待办']!, '逾期', { assigner: uid.staff06, deadline: yesterday });
    await addTask('staff05', blocks['待办']!, '未到期', { assigner: uid.staff06, deadline: '2099-01-01' });
    const done = await addTask('staff05', blocks['待办']!, '已完成', { deadline: yesterday });
    okOf(
      await post('staff05', '/projectTask/updateProjectTask', {
        taskId: done.taskId,
        ext1: 'collectStatus',
        collectStatus: 2,
      }),
    );
    const [p] = okOf(await get('staff05', `/project/progress?projectId=${projectId}`));
    expect(p).toMatchObject({ name: '进度测试', total: 3, done: 1, open: 2, overdue: 1 });
    expect(p.byAssignee).toEqual([
      { userId: uid.staff06, userName: '孙悦', done: 0, open: 2, overdue: 1 },
      { userId: null, userName: '未指派', done: 1, open: 0, overdue: 0 },
    ]);
    const card = okOf(await get('staff05', `/project/board?projectId=${projectId}`)).blocks[0].tasks[0];
    expect(card).toMatchObject({ taskName: '逾期', overdue: true });
    expect(await get('staff02', `/project/progress?projectId=${projectId}`)).toMatchObject({
      message: PROJECT_MSG.projectGone,
    });
    expect(okOf(await get('staff02', '/project/progress'))).toEqual([]);
    expect(okOf(await get('director', '/project/progress')).map((x: any) => x.name)).toContain('进度测试');
  });
});

describe('task files', () => {
  async function upload(who: string, content: string | Buffer, name: string, path = '/attach/upload') {
    const fd = new FormData();
    fd.append('tableName', 'project');
    fd.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name);
    const res = await fetch(`${s.url}${M}${path}`, {
      method: 'POST',
      headers: { token: tok[who]! },
      body: fd,
    });
    return okOf(await res.json()).attId as number;
  }
  const download = async (who: string, path: string) => {
    const res = await fetch(`${s.url}${path}`, { headers: { token: tok[who]! } });
    return res.text();
  };
  /** Whether `who` is served the image (a refusal is the JSON envelope). */
  const seesImage = async (who: string, path: string) => {
    const res = await fetch(`${s.url}${path}`, { headers: { token: tok[who]! } });
    await res.arrayBuffer(); // read to the end so the connection is free again
    return res.status === 200 && res.headers.get('content-type') === 'image/png';
  };

  it("binds the description's editor images to the task, keeps them through file changes, drops removed ones", async () => {
    const { blocks } = await newProject('staff05', '描述图片', [uid.staff06!]);
    const t = await addTask('staff05', blocks['待办']!, '展柜布置');
    const img = await upload('staff05', PNG_1X1, '展柜.png', '/attach/uploadimage');
    const src = `${M}/attach/image?attachmentId=${img}`;
    // Unbound, only the uploader reads it.
    expect(await seesImage('staff06', src)).toBe(false);
    // Someone else's image pasted into the description is neither refused nor taken over.
    const foreign = await upload('staff06', PNG_1X1, '别人.png', '/attach/uploadimage');
    const fsrc = `${M}/attach/image?attachmentId=${foreign}`;
    const described = okOf(
      await post('staff05', '/projectTask/updateProjectTask', {
        taskId: t.taskId,
        ext1: 'description',
        description: `<h2>布置</h2><p><img src="${src}"></p><p><img src="${fsrc}"></p>`,
      }),
    );
    expect(described.description).toContain(src);
    expect(await seesImage('staff06', src)).toBe(true);
    expect(await seesImage('staff02', src)).toBe(false);
    expect(await seesImage('staff05', fsrc)).toBe(false);
    expect(await seesImage('staff06', fsrc)).toBe(true);

    // Uploading and deleting a task file keeps the image (bindInTx names it too).
    const file = await upload('staff05', '内容', '清单.txt');
    okOf(await post('staff05', '/projectTask/upload', { relativeId: file, taskId: t.taskId }));
    okOf(await post('staff05', '/projectTask/deleteRelative', { relativeId: file, taskId: t.taskId }));
    expect(await seesImage('staff06', src)).toBe(true);
    // A file is not shown as an image and the image is not listed as a file.
    const detail = okOf(await post('staff05', '/projectTask/getProjectTask', { taskId: t.taskId }));
    expect(detail.fileList).toEqual([]);

    // A description without the image drops it.
    okOf(
      await post('staff05', '/projectTask/updateProjectTask', {
        taskId: t.taskId,
        ext1: 'description',
        description: '<p>改为文字说明</p>',
      }),
    );
    expect(await seesImage('staff05', src)).toBe(false);
    expect(await seesImage('staff06', fsrc)).toBe(true);
  });

  it('binds uploads, links drive and project files, keeps the source, reads only for collaborators', async () => {
    const { blocks } = await newProject('staff05', '文件测试', [uid.staff06!]);
    const t = await addTask('staff05', blocks['待办']!, '展陈方案');
    const t2 = await addTask('staff05', blocks['待办']!, '施工图');
    const attId = await upload('staff05', '方案内容', '方案.pdf');
    // Someone else's upload cannot be bound.
    expect(
      await post('staff06', '/projectTask/upload', { relativeId: attId, taskId: t.taskId }),
    ).toMatchObject({
      message: '附件不存在或已失效，请重新上传',
    });
    const withFile = okOf(
      await post('staff05', '/projectTask/upload', { relativeId: attId, taskId: t.taskId }),
    );
    expect(withFile.fileList).toEqual([
      expect.objectContaining({
        attachmentId: attId,
        attName: '方案.pdf',
        attFileTypeStr: 'pdf',
        source: 'upload',
      }),
    ]);
    expect(await download('staff06', withFile.fileList[0].attPath)).toBe('方案内容');
    expect(await download('staff02', withFile.fileList[0].attPath)).toContain('附件不存在或无权查看');

    // From my drive: ownership checked, the source kept.
    const me = await driveUser(s, 'staff06');
    const fileId = await me.put('/', '平面图.dwg', '平面图');
    const other = await driveUser(s, 'staff03');
    const foreignId = await other.put('/', '别人.txt', '别人');
    expect(
      await post('staff06', '/projectTask/addRelevanceFile', { taskId: t.taskId, fileId: foreignId }),
    ).toMatchObject({
      message: '网盘中找不到该文件，请重新选择',
    });
    const linked = okOf(await post('staff06', '/projectTask/addRelevanceFile', { taskId: t.taskId, fileId }));
    expect(linked.fileList.map((f: any) => `${f.attName}:${f.source}`)).toEqual([
      '方案.pdf:upload',
      '平面图.dwg:drive',
    ]);
    // (The picker and checkFileInProject work on the document space: project-docs.test.ts.)

    // Another task of the same project reuses the file; another project's file is refused.
    const reused = okOf(
      await post('staff06', '/projectTask/addRelevanceFile', { taskId: t2.taskId, attachmentId: attId }),
    );
    expect(reused.fileList).toEqual([expect.objectContaining({ attName: '方案.pdf', source: 'project' })]);
    const elsewhere = await newProject('staff06', '别处');
    const t3 = await addTask('staff06', elsewhere.blocks['待办']!, '别处任务');
    expect(
      await post('staff06', '/projectTask/addRelevanceFile', { taskId: t3.taskId, attachmentId: attId }),
    ).toMatchObject({
      message: '请选择本项目中的文件',
    });

    // Deleting a file; a file of another task is refused.
    expect(
      await post('staff05', '/projectTask/deleteRelative', { relativeId: attId, taskId: t2.taskId }),
    ).toMatchObject({
      message: PROJECT_MSG.fileGone,
    });
    okOf(await post('staff05', '/projectTask/deleteRelative', { relativeId: attId, taskId: t.taskId }));
    const after = okOf(await post('staff05', '/projectTask/getProjectTask', { taskId: t.taskId }));
    expect(after.fileList.map((f: any) => f.attName)).toEqual(['平面图.dwg']);
    // The copy on the other task keeps its bytes.
    expect(await download('staff05', reused.fileList[0].attPath)).toBe('方案内容');
    expect((await historyOf('staff05', t.taskId)).slice(0, 3)).toEqual([
      '刘洋:删除了文件「方案.pdf」',
      '孙悦:关联了网盘文件「平面图.dwg」',
      '刘洋:上传了文件「方案.pdf」',
    ]);
  });
});
