import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OFFLINE_COMMENTS_MAX,
  OFFLINE_HISTORY_MAX,
  OFFLINE_TASKS_MAX,
  PROJECT_MSG,
  TASK_DONE,
} from '../../src/shared/api/project';
import { startServer, type TestServer } from './harness';
import { M } from './util';

/*
 * GET /projectTask/boardDetails (issue 17 §3): the app's offline copy of a board. Every open
 * card with what its dialog shows (fields, subtasks, files, history, comments), exactly as the
 * per-task calls answer it; done cards left out; bounded; read only by those who read the board.
 */

let s: TestServer;
const tok: Record<string, string> = {};
const uid: Record<string, number> = {};

beforeAll(async () => {
  s = await startServer();
  for (const a of ['director', 'staff02', 'staff05', 'staff06']) {
    tok[a] = await s.login(a);
    uid[a] = (
      await s.db.selectFrom('user').select('id').where('account', '=', a).executeTakeFirstOrThrow()
    ).id;
  }
});
afterAll(() => s.close());

const post = async (who: string, p: string, body: unknown = {}) =>
  (await s.call('POST', `${M}${p}`, { token: tok[who], body })).body;
const get = async (who: string, p: string) => (await s.call('GET', `${M}${p}`, { token: tok[who] })).body;
const okOf = (res: any) => {
  expect(res.success, JSON.stringify(res)).toBe(true);
  return res.result;
};
const details = (who: string, projectId: number | string) =>
  get(who, `/projectTask/boardDetails?projectId=${projectId}`);

async function newProject(who: string, name: string, userIds: number[] = []) {
  const p = okOf(await post(who, '/project/add', { name, type: 'exhibition', userIds }));
  const board = okOf(await get(who, `/project/board?projectId=${p.projectId}`));
  const blocks: Record<string, number> = {};
  for (const b of board.blocks) blocks[b.name] = b.blockId;
  return { projectId: p.projectId as number, blocks };
}
const addTask = async (who: string, blockId: number, taskName: string) =>
  okOf(await post(who, '/projectTask/addProjectTask', { taskName, blockId }));

describe('boardDetails', () => {
  it('answers every open card as getProjectTask, its history and comments do; done cards are left out', async () => {
    const { projectId, blocks } = await newProject('staff05', '库房盘点', [uid.staff06!]);
    const a = await addTask('staff05', blocks['进行中']!, '核对账册');
    const b = await addTask('staff06', blocks['待办']!, '清点青铜器');
    const done = await addTask('staff05', blocks['待办']!, '已做完的');
    okOf(await post('staff05', '/projectTask/addKidTask', { parentId: b.taskId, taskName: '第一柜' }));
    okOf(
      await post('staff05', '/projectTask/addProjectConmentsList', {
        ownerId: b.taskId,
        commentContent: '<p>带手套</p>',
      }),
    );
    const v = okOf(await post('staff05', '/projectTask/getProjectTask', { taskId: done.taskId })).version;
    okOf(
      await post('staff05', '/projectTask/updateProjectTask', {
        taskId: done.taskId,
        ext1: 'collectStatus',
        collectStatus: TASK_DONE,
        version: v,
      }),
    );

    const r = okOf(await details('staff06', projectId));
    expect(r.projectId).toBe(projectId);
    expect(r.openTotal).toBe(2);
    // Board order: 待办 before 进行中; the done card is not there.
    expect(r.tasks.map((x: any) => x.task.taskName)).toEqual(['清点青铜器', '核对账册']);
    for (const x of r.tasks) {
      const id = x.task.taskId;
      // The same words the dialog reads online, for the same person (canDelete is per reader).
      expect(x.task).toEqual(okOf(await post('staff06', '/projectTask/getProjectTask', { taskId: id })));
      expect(x.history).toEqual(
        okOf(await post('staff06', '/projectTask/getProjectHistoryList', { taskId: id })),
      );
      expect(x.comments).toEqual(
        okOf(await post('staff06', '/projectTask/getProjectConmentsList', { ownerId: id })),
      );
      expect(x.historyTotal).toBe(x.history.length);
      expect(x.commentsTotal).toBe(x.comments.length);
    }
    const bb = r.tasks[0];
    expect(bb.task.kidsTasks.map((k: any) => k.taskName)).toEqual(['第一柜']);
    expect(bb.comments).toMatchObject([{ ext1: '刘洋', commentContent: '<p>带手套</p>', canDelete: false }]);
    expect(bb.history.length).toBeGreaterThan(0);
    expect(a.taskId).toBe(r.tasks[1].task.taskId);
  });

  it('is refused to anyone who may not read the board, alike for a known and an unknown id', async () => {
    const { projectId } = await newProject('staff05', '外人不可见');
    const foreign = await details('staff02', projectId);
    expect(foreign).toMatchObject({ success: false, message: PROJECT_MSG.projectGone });
    expect(await details('staff02', 999999)).toEqual(foreign);
    // A project administrator (项目进度) reads it, like the board.
    expect(okOf(await details('director', projectId)).projectId).toBe(projectId);
    // A missing or malformed id is a clear 400 naming the field, never a crash.
    for (const q of ['', 'abc', '-1']) {
      const res = await s.call('GET', `${M}/projectTask/boardDetails?projectId=${q}`, { token: tok.staff05 });
      expect(res.status, q).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toMatch(/[\u4e00-\u9fa5]/);
    }
    // Without a session: the spec's session timeout.
    expect((await s.call('GET', `${M}/projectTask/boardDetails?projectId=${projectId}`)).status).toBe(999);
  });

  it('still reads an archived project (read-only, but cards open offline)', async () => {
    const { projectId, blocks } = await newProject('staff05', '归档的项目');
    await addTask('staff05', blocks['待办']!, '旧任务');
    okOf(await post('staff05', '/project/archive', { projectId, archived: 1 }));
    expect(okOf(await details('staff05', projectId)).tasks.map((x: any) => x.task.taskName)).toEqual([
      '旧任务',
    ]);
  });

  it('is bounded: at most OFFLINE_TASKS_MAX cards, the newest history lines and comments, with totals', async () => {
    const { projectId, blocks } = await newProject('staff05', '大项目');
    const first = await addTask('staff05', blocks['待办']!, '任务0');
    for (let i = 1; i <= OFFLINE_TASKS_MAX; i++) await addTask('staff05', blocks['待办']!, `任务${i}`);
    const extra = OFFLINE_COMMENTS_MAX + 2;
    for (let i = 0; i < extra; i++)
      okOf(
        await post('staff05', '/projectTask/addProjectConmentsList', {
          ownerId: first.taskId,
          commentContent: `<p>评论${i}</p>`,
        }),
      );
    let version = first.version as number;
    for (let i = 0; i < OFFLINE_HISTORY_MAX; i++) {
      const t = okOf(
        await post('staff05', '/projectTask/updateProjectTask', {
          taskId: first.taskId,
          ext1: 'taskName',
          taskName: `任务0-${i}`,
          version,
        }),
      );
      version = t.version;
    }
    const r = okOf(await details('staff05', projectId));
    expect(r.openTotal).toBe(OFFLINE_TASKS_MAX + 1);
    expect(r.tasks).toHaveLength(OFFLINE_TASKS_MAX);
    const x = r.tasks.find((t: any) => t.task.taskId === first.taskId);
    const allComments = okOf(
      await post('staff05', '/projectTask/getProjectConmentsList', { ownerId: first.taskId }),
    );
    const allHistory = okOf(
      await post('staff05', '/projectTask/getProjectHistoryList', { taskId: first.taskId }),
    );
    expect(allComments).toHaveLength(extra);
    expect(allHistory.length).toBeGreaterThan(OFFLINE_HISTORY_MAX);
    expect(x.commentsTotal).toBe(extra);
    expect(x.comments).toEqual(allComments.slice(-OFFLINE_COMMENTS_MAX));
    expect(x.comments.at(-1).commentContent).toBe(`<p>评论${extra - 1}</p>`);
    expect(x.historyTotal).toBe(allHistory.length);
    expect(x.history).toEqual(allHistory.slice(0, OFFLINE_HISTORY_MAX));
  });
});
