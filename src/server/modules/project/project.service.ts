import { downloadPath } from '../../../shared/api/attach';
import {
  PROJECT_MSG as MSG,
  OFFLINE_COMMENTS_MAX,
  OFFLINE_HISTORY_MAX,
  OFFLINE_TASKS_MAX,
  TASK_DONE,
  type BoardDetails,
  type OfflineTask,
  TASK_PRIORITY_TEXT,
  type AddKidBody,
  type AddTaskBody,
  type CommentRow,
  type PickerItem,
  type PickerUser,
  type ProjectAddBody,
  type ProjectBoard,
  type ProjectListQuery,
  type ProjectProgress,
  type ProjectRow,
  type ProjectType,
  type TaskCard,
  type TaskDetail,
  type TaskFile,
  type UpdateKidBody,
  type UpdateTaskBody,
  type ProjectUpdateBody,
} from '../../../shared/api/project';
import { formatMuseumTime, museumDate } from '../../../shared/rules/museum-time';
import type { Db } from '../../db/index';
import { conflict, forbidden, invalid, notFound } from '../../errors';
import type { AttachService } from '../attach/attach.service';
import { personalSpace, projectArea, projectSpace, areaOf } from '../drive/area';
import type { DriveService } from '../drive/drive.service';
import { grantedKeys, type SessionUser } from '../auth/auth.service';
import { hasContent, imageIdsIn, sanitizeRichHtml } from '../attach/rich-html';
import type { NoticeService } from '../notice/notice.service';
import { avatarUrl } from '../org/avatar';
import { enabledUserIds } from '../org/org.repo';
import * as repo from './project.repo';

/** The attachment table of task files (attach/upload with tableName 'project'). */
export const PROJECT_TABLE = 'project';
/** Whoever may open 项目进度 oversees every project (reads and writes them as a collaborator would). */
export const PROJECT_ADMIN = 'oa.project.progress';
/** The boards a new project starts with. */
export const DEFAULT_BLOCKS = ['待办', '进行中', '已完成'];

const IMAGE_EXT = new Set(['jpg', 'jpeg', 'png', 'gif', 'bmp', 'webp']);

/** A collaboration item to send once the transaction committed. */
interface Cooperation {
  receivers: (number | null)[];
  title: string;
  content: string;
  type: 1 | 2;
  projectId: number;
  taskId: number | null;
}

function extOf(name: string) {
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  return /^[a-z0-9]{1,10}$/.test(ext) ? ext : '';
}

/** Plain text of a comment for a collaboration item (items are shown as text). */
function plain(html: string, max = 60) {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max)}…` : text || '[图片]';
}

/**
 * Project tasks (issue 9): projects, collaborators, boards, tasks, subtasks, history, comments,
 * files and progress. Rules (shared/api/project.ts): collaborators and project administrators
 * only; every id is looked up inside the project the caller may see; every multi-row write is
 * one transaction that also writes its history lines; collaboration items are sent after the
 * commit, never to the person acting.
 */
export function createProjectService(deps: {
  db: Db;
  notices: NoticeService;
  attach: AttachService;
  drive: DriveService;
  now?: () => number;
}) {
  const { db, notices, attach, drive } = deps;
  const now = deps.now ?? Date.now;
  const today = () => museumDate(now());
  /**
   * Whether the caller holds the project administrator grant. Read on `q`: inside a
   * transaction the single SQLite connection is the transaction's, so `db` would wait forever.
   */
  const isAdmin = async (user: SessionUser, q: Db) => {
    const granted = await grantedKeys(q, user.roles);
    return granted === 'all' || granted.has(PROJECT_ADMIN);
  };

  async function send(user: SessionUser, items: Cooperation[]) {
    for (const c of items) {
      const wanted = [...new Set(c.receivers.filter((id): id is number => id !== null && id !== user.id))];
      const receivers = await enabledUserIds(db, wanted);
      if (!receivers.length) continue;
      await notices.cooperate({ ...c, receivers, from: user.id });
    }
  }

  /** The project when the caller may see it; anyone else hears the same whether it exists or not. */
  async function projectFor(q: Db, user: SessionUser, projectId: number, admin?: boolean) {
    // In a transaction: the project's changes run one at a time (repo.lockProject).
    if (q.isTransaction) await repo.lockProject(q, projectId);
    const p = await repo.projectById(q, projectId);
    if (!p) throw notFound(MSG.projectGone);
    if (!(await repo.isMember(q, p.id, user.id)) && !(admin ?? (await isAdmin(user, q))))
      throw notFound(MSG.projectGone);
    return p;
  }
  const writable = (p: repo.ProjectRecord) => {
    if (p.archived) throw invalid(MSG.archived);
    return p;
  };

  /** A task (not a subtask) the caller may see, and its project. */
  /**
   * A task's row read again once its project is locked (inside a transaction), so the version
   * and sort a change checks are the latest committed ones, not a read from before the lock.
   */
  async function lockedTask(q: Db, user: SessionUser, taskId: number, gone: string) {
    const first = await repo.taskById(q, taskId);
    if (!first) throw notFound(gone);
    const p = await projectFor(q, user, first.project_id).catch(() => {
      throw notFound(gone);
    });
    const t = q.isTransaction ? await repo.taskById(q, taskId) : first;
    if (!t || t.project_id !== first.project_id) throw notFound(gone);
    return { t, p };
  }
  async function taskFor(q: Db, user: SessionUser, taskId: number, write = true) {
    const { t, p } = await lockedTask(q, user, taskId, MSG.taskGone);
    if (t.parent_task_id !== null) throw notFound(MSG.taskGone);
    return { t, p: write ? writable(p) : p };
  }
  async function kidFor(q: Db, user: SessionUser, kidId: number) {
    const { t: k, p } = await lockedTask(q, user, kidId, MSG.kidGone);
    if (k.parent_task_id === null) throw notFound(MSG.kidGone);
    return { k, p: writable(p) };
  }
  async function blockIn(q: Db, projectId: number, blockId: number) {
    const b = await repo.blockById(q, blockId);
    if (!b || b.project_id !== projectId) throw invalid(MSG.blockGone);
    return b;
  }
  async function assigneeIn(q: Db, projectId: number, userId: number | null) {
    if (userId !== null && !(await repo.isMember(q, projectId, userId))) throw invalid(MSG.notMember);
  }
  async function nameOf(q: Db, userId: number | null) {
    if (userId === null) return '无';
    const u = await q.selectFrom('user').select('user_name').where('id', '=', userId).executeTakeFirst();
    return u?.user_name ?? '';
  }
  const history = (
    q: Db,
    user: SessionUser,
    projectId: number,
    taskId: number | null,
    ...actions: string[]
  ) =>
    repo.insertHistory(
      q,
      actions.map((action) => ({ project_id: projectId, task_id: taskId, user_id: user.id, action })),
      now(),
    );
  /** Refuses a stale offline edit, naming who changed the row since. */
  /**
   * The attachments a task's record keeps: its files and the editor images of `description`.
   * bindInTx deletes whatever it is not told to keep, so every bind names both; an image of
   * another record or person (a pasted URL) is left alone, neither bound nor refused.
   */
  async function keptOf(trx: Db, user: SessionUser, taskId: number, description: string) {
    const files = (await repo.filesOf(trx, taskId)).map((x) => x.id);
    const images = (await attach.rowsOf(trx, imageIdsIn(description)))
      .filter(
        (r) =>
          r.table_name === PROJECT_TABLE &&
          (r.record_id === taskId || (r.record_id === null && r.uploaded_by === user.id)),
      )
      .map((r) => r.id);
    return [...files, ...images];
  }

  function checkVersion(row: repo.TaskRecord, version: number | undefined) {
    if (version !== undefined && version !== row.version)
      throw conflict(MSG.stale(row.updater_name ?? '他人', formatMuseumTime(row.updated_at)));
  }

  function toRow(p: Awaited<ReturnType<typeof repo.listProjects>>[number]): ProjectRow {
    return {
      projectId: p.id,
      name: p.name,
      type: p.type as ProjectType,
      startDate: p.start_date,
      endDate: p.end_date,
      description: p.description,
      ownerId: p.owner_id,
      ownerName: p.owner_name,
      archived: p.archived,
      taskCount: Number(p.task_count ?? 0),
      doneCount: Number(p.done_count ?? 0),
      memberCount: Number(p.member_count ?? 0),
      updateTime: formatMuseumTime(p.updated_at),
    };
  }
  function toCard(t: Awaited<ReturnType<typeof repo.tasksOfProject>>[number], day: string): TaskCard {
    return {
      taskId: t.id,
      taskName: t.name,
      blockId: t.block_id ?? 0,
      sort: t.sort,
      deadline: t.deadline,
      priority: t.priority,
      collectStatus: t.collect_status,
      assigner: t.assigner,
      assignerName: t.assigner_name ?? '',
      assignerImage: t.assigner ? avatarUrl(t.assigner, t.assigner_avatar) : '',
      overdue: t.collect_status !== TASK_DONE && t.deadline !== null && t.deadline < day,
      kidCount: Number(t.kid_count ?? 0),
      kidDone: Number(t.kid_done ?? 0),
      version: t.version,
    };
  }
  /** A task's detail (getProjectTask), from its row, its card and its board's name. */
  async function detailOf(
    t: NonNullable<Awaited<ReturnType<typeof repo.taskById>>>,
    p: repo.ProjectRecord,
    blockName: string,
    cardRow: Awaited<ReturnType<typeof repo.tasksOfProject>>[number],
    day: string,
  ): Promise<TaskDetail> {
    const [kids, files] = await Promise.all([repo.kidsOf(db, t.id), repo.filesOf(db, t.id)]);
    const card = toCard(cardRow, day);
    return {
      ...card,
      description: t.description,
      projectId: p.id,
      projectName: p.name,
      blockName,
      parentId: t.block_id!,
      kidsTasks: kids.map((k) => ({
        kidId: k.id,
        taskName: k.name,
        collectStatus: k.collect_status,
        deadline: k.deadline,
        assigner: k.assigner,
        assignerName: k.assigner_name ?? '',
        assignerImage: k.assigner ? avatarUrl(k.assigner, k.assigner_avatar) : '',
        sort: k.sort,
        version: k.version,
      })),
      fileList: files.map((f): TaskFile => ({
        attachmentId: f.id,
        attName: f.name,
        attPath: downloadPath(f.id),
        attFileType: IMAGE_EXT.has(extOf(f.name)) ? 1 : 0,
        attFileTypeStr: extOf(f.name),
        attSize: Number(f.size),
        source: f.source as TaskFile['source'],
        addedBy: f.added_by_name ?? '',
      })),
      updateTime: formatMuseumTime(t.updated_at),
      updaterName: t.updater_name ?? '',
    };
  }
  const historyRow = (h: Awaited<ReturnType<typeof repo.historyOf>>[number]) => ({
    ext1: formatMuseumTime(h.created_at),
    updater: h.user_name ?? '',
    actionDescription: h.action,
  });
  const commentRow = (
    c: Awaited<ReturnType<typeof repo.commentsOf>>[number],
    user: SessionUser,
  ): CommentRow => ({
    commentId: c.id,
    ext1: c.user_name ?? '',
    ext2: c.user_id ? avatarUrl(c.user_id, c.avatar) : '',
    ext3: formatMuseumTime(c.created_at),
    commentContent: c.content,
    canDelete: c.user_id === user.id,
  });

  async function oneRow(q: Db, user: SessionUser, projectId: number) {
    const [row] = await repo.listProjects(q, {
      userId: user.id,
      all: true,
      archived: (await repo.projectById(q, projectId))!.archived,
      keyword: '',
      id: projectId,
    });
    return toRow(row!);
  }

  const service = {
    // ——— projects ———
    async list(user: SessionUser, q: ProjectListQuery): Promise<ProjectRow[]> {
      const rows = await repo.listProjects(db, { ...q, userId: user.id, all: await isAdmin(user, db) });
      return rows.map(toRow);
    },

    async create(user: SessionUser, body: ProjectAddBody): Promise<ProjectRow> {
      const others = [...new Set(body.userIds.filter((id) => id !== user.id))];
      if ((await enabledUserIds(db, others)).length !== others.length)
        throw invalid('所选人员不存在或已停用，请重新选择');
      const id = await db.transaction().execute(async (trx) => {
        const t = now();
        const id = await repo.insertProject(
          trx,
          {
            name: body.name,
            type: body.type,
            start_date: body.startDate,
            end_date: body.endDate,
            description: body.description,
            owner_id: user.id,
            created_by: user.id,
          },
          t,
        );
        await repo.addMembers(trx, id, [user.id, ...others], user.id, t);
        for (const [i, name] of DEFAULT_BLOCKS.entries()) await repo.insertBlock(trx, id, name, i, t);
        await history(trx, user, id, null, `创建了项目「${body.name}」`);
        return id;
      });
      await notifyJoined(user, { id, name: body.name }, others);
      return oneRow(db, user, id);
    },

    async update(user: SessionUser, body: ProjectUpdateBody): Promise<ProjectRow> {
      await db.transaction().execute(async (trx) => {
        const p = writable(await projectFor(trx, user, body.projectId));
        const ownerId = body.ownerId ?? p.owner_id;
        if (!(await repo.isMember(trx, p.id, ownerId))) throw invalid('项目负责人必须是项目成员');
        await repo.updateProject(
          trx,
          p.id,
          {
            name: body.name,
            type: body.type,
            start_date: body.startDate,
            end_date: body.endDate,
            description: body.description,
            owner_id: ownerId,
          },
          now(),
        );
        await history(trx, user, p.id, null, `修改了项目信息`);
      });
      return oneRow(db, user, body.projectId);
    },

    async archive(user: SessionUser, projectId: number, archived: number): Promise<ProjectRow> {
      await db.transaction().execute(async (trx) => {
        const p = await projectFor(trx, user, projectId);
        if (p.owner_id !== user.id && !(await isAdmin(user, trx)))
          throw forbidden('只有项目负责人或管理员可以归档项目');
        await repo.updateProject(trx, p.id, { archived }, now());
        await history(trx, user, p.id, null, archived ? '归档了项目' : '取消了项目归档');
      });
      return oneRow(db, user, projectId);
    },

    async board(user: SessionUser, projectId: number): Promise<ProjectBoard> {
      const p = await projectFor(db, user, projectId);
      const [blocks, tasks] = await Promise.all([repo.blocksOf(db, p.id), repo.tasksOfProject(db, p.id)]);
      const day = today();
      return {
        project: await oneRow(db, user, p.id),
        blocks: blocks.map((b) => ({
          blockId: b.id,
          name: b.name,
          sort: b.sort,
          tasks: tasks.filter((t) => t.block_id === b.id).map((t) => toCard(t, day)),
        })),
      };
    },

    // ——— boards ———
    async addBlock(user: SessionUser, projectId: number, name: string) {
      return db.transaction().execute(async (trx) => {
        const p = writable(await projectFor(trx, user, projectId));
        const n = (await repo.blocksOf(trx, p.id)).length;
        if (n >= 100) throw invalid('一个项目最多 100 个看板');
        const id = await repo.insertBlock(trx, p.id, name, n, now());
        await history(trx, user, p.id, null, `新建了看板「${name}」`);
        return { blockId: id, name, sort: n };
      });
    },
    async renameBlock(user: SessionUser, blockId: number, name: string) {
      await db.transaction().execute(async (trx) => {
        const b = await repo.blockById(trx, blockId);
        if (!b) throw notFound(MSG.blockGone);
        const p = writable(
          await projectFor(trx, user, b.project_id).catch(() => {
            throw notFound(MSG.blockGone);
          }),
        );
        await repo.renameBlock(trx, b.id, name);
        await history(trx, user, p.id, null, `将看板「${b.name}」重命名为「${name}」`);
      });
    },
    async sortBlocks(user: SessionUser, projectId: number, blockIds: number[]) {
      await db.transaction().execute(async (trx) => {
        const p = writable(await projectFor(trx, user, projectId));
        const have = (await repo.blocksOf(trx, p.id)).map((b) => b.id);
        const want = [...new Set(blockIds)];
        if (want.length !== have.length || want.some((id) => !have.includes(id)))
          throw invalid('看板列表已变化，请刷新后重试');
        for (const [i, id] of want.entries()) await repo.setBlockSort(trx, id, i);
        await history(trx, user, p.id, null, '调整了看板顺序');
      });
    },
    async deleteBlock(user: SessionUser, blockId: number) {
      await db.transaction().execute(async (trx) => {
        const b = await repo.blockById(trx, blockId);
        if (!b) throw notFound(MSG.blockGone);
        const p = writable(
          await projectFor(trx, user, b.project_id).catch(() => {
            throw notFound(MSG.blockGone);
          }),
        );
        if ((await repo.siblingIds(trx, { blockId: b.id })).length) throw invalid(MSG.blockNotEmpty);
        await repo.deleteBlock(trx, b.id);
        const rest = (await repo.blocksOf(trx, p.id)).map((x) => x.id);
        for (const [i, id] of rest.entries()) await repo.setBlockSort(trx, id, i);
        await history(trx, user, p.id, null, `删除了看板「${b.name}」`);
      });
    },

    // ——— tasks ———
    async task(user: SessionUser, taskId: number): Promise<TaskDetail> {
      const { t, p } = await taskFor(db, user, taskId, false);
      const [block, cards] = await Promise.all([
        repo.blockById(db, t.block_id!),
        repo.tasksOfProject(db, p.id),
      ]);
      return detailOf(
        t,
        p,
        block?.name ?? '',
        cards.find((c) => c.id === t.id)!,
        today(),
      );
    },

    /**
     * The open tasks of a board with their subtasks, files, newest history and comments: the
     * app's offline copy (BoardDetails in shared/api/project.ts, bounded there). Read like the
     * board: collaborators and administrators, archived projects too (they stay readable).
     */
    async boardDetails(user: SessionUser, projectId: number): Promise<BoardDetails> {
      const p = await projectFor(db, user, projectId);
      const [blocks, cards] = await Promise.all([repo.blocksOf(db, p.id), repo.tasksOfProject(db, p.id)]);
      const day = today();
      const blockName = new Map(blocks.map((b) => [b.id, b.name]));
      // Board order: board by board, cards in their sort (tasksOfProject already orders them).
      const order = new Map(blocks.map((b, i) => [b.id, i]));
      const open = cards
        .filter((c) => c.collect_status !== TASK_DONE)
        .sort((a, b) => (order.get(a.block_id!) ?? 0) - (order.get(b.block_id!) ?? 0));
      const tasks: OfflineTask[] = [];
      for (const c of open.slice(0, OFFLINE_TASKS_MAX)) {
        const t = await repo.taskById(db, c.id);
        if (!t) continue;
        const [task, lines, notes] = await Promise.all([
          detailOf(t, p, blockName.get(c.block_id!) ?? '', c, day),
          repo.historyOf(db, t.id),
          repo.commentsOf(db, t.id),
        ]);
        tasks.push({
          task,
          history: lines.slice(0, OFFLINE_HISTORY_MAX).map(historyRow),
          historyTotal: lines.length,
          comments: notes.slice(-OFFLINE_COMMENTS_MAX).map((n) => commentRow(n, user)),
          commentsTotal: notes.length,
        });
      }
      return { projectId: p.id, tasks, openTotal: open.length };
    },

    async addTask(user: SessionUser, body: AddTaskBody): Promise<TaskDetail> {
      const out: Cooperation[] = [];
      const id = await db.transaction().execute(async (trx) => {
        const b = await repo.blockById(trx, body.blockId);
        if (!b || (body.parentId !== undefined && b.project_id !== body.parentId)) {
          if (body.parentId !== undefined) await projectFor(trx, user, body.parentId);
          throw invalid(MSG.blockGone);
        }
        const p = writable(
          await projectFor(trx, user, b.project_id).catch(() => {
            throw invalid(MSG.blockGone);
          }),
        );
        await assigneeIn(trx, p.id, body.assigner);
        const siblings = await repo.siblingIds(trx, { blockId: b.id });
        const at = Math.min(body.sort ?? siblings.length, siblings.length);
        const id = await repo.insertTask(
          trx,
          {
            project_id: p.id,
            block_id: b.id,
            parent_task_id: null,
            name: body.taskName,
            deadline: body.deadline,
            priority: body.priority,
            assigner: body.assigner,
            sort: at,
            created_by: user.id,
          },
          now(),
        );
        siblings.splice(at, 0, id);
        await repo.renumber(trx, siblings);
        await history(trx, user, p.id, id, `在看板「${b.name}」创建了任务「${body.taskName}」`);
        if (body.assigner !== null) {
          await history(trx, user, p.id, id, `将负责人设为${await nameOf(trx, body.assigner)}`);
          out.push(assigned(user, p, id, body.taskName, body.assigner));
        }
        return id;
      });
      await send(user, out);
      return service.task(user, id);
    },

    async updateTask(user: SessionUser, body: UpdateTaskBody): Promise<TaskDetail> {
      const out: Cooperation[] = [];
      // Bytes of editor images a new description no longer shows, dropped after the commit.
      let md5s: string[] = [];
      await db.transaction().execute(async (trx) => {
        const { t, p } = await taskFor(trx, user, body.taskId);
        checkVersion(t, body.version);
        const v = body.value;
        let action: string;
        switch (body.field) {
          case 'taskName':
            if (v === t.name) return;
            await repo.updateTask(trx, t.id, { name: v as string }, user.id, now());
            action = `将任务标题改为「${v as string}」`;
            break;
          case 'deadline':
            if (v === t.deadline) return;
            await repo.updateTask(trx, t.id, { deadline: v as string | null }, user.id, now());
            action = v ? `将截止日期改为 ${v as string}` : '清除了截止日期';
            out.push({
              receivers: [t.assigner],
              title: `任务「${t.name}」的截止日期${v ? `改为 ${v as string}` : '已清除'}`,
              content: `${user.userName}修改了项目「${p.name}」中的任务截止日期`,
              type: 1,
              projectId: p.id,
              taskId: t.id,
            });
            break;
          case 'priority':
            if (v === t.priority) return;
            await repo.updateTask(trx, t.id, { priority: v as number }, user.id, now());
            action = `将优先级改为${TASK_PRIORITY_TEXT[v as number]}`;
            break;
          case 'assigner':
            if (v === t.assigner) return;
            await assigneeIn(trx, p.id, v as number | null);
            await repo.updateTask(trx, t.id, { assigner: v as number | null }, user.id, now());
            action = v === null ? '移除了负责人' : `将负责人改为${await nameOf(trx, v as number)}`;
            if (v !== null) out.push(assigned(user, p, t.id, t.name, v as number));
            break;
          case 'description': {
            const html = sanitizeRichHtml(v as string);
            const clean = hasContent(html) ? html : '';
            if (clean === t.description) return;
            // Its editor images now belong to the task: read by the project, never swept.
            md5s = await attach.bindInTx(trx, {
              user,
              table: PROJECT_TABLE,
              recordId: t.id,
              ids: await keptOf(trx, user, t.id, clean),
            });
            await repo.updateTask(trx, t.id, { description: clean }, user.id, now());
            action = '修改了任务描述';
            break;
          }
          case 'collectStatus':
            if (v === t.collect_status) return;
            await repo.updateTask(trx, t.id, { collect_status: v as number }, user.id, now());
            action = v === TASK_DONE ? '完成了任务' : '重新打开了任务';
            break;
        }
        await history(trx, user, p.id, t.id, action);
      });
      await attach.dropBytes(md5s);
      await send(user, out);
      return service.task(user, body.taskId);
    },

    async moveTask(user: SessionUser, taskId: number, blockId: number, sort: number): Promise<TaskDetail> {
      await db.transaction().execute(async (trx) => {
        const { t, p } = await taskFor(trx, user, taskId);
        const to = await blockIn(trx, p.id, blockId);
        const from = t.block_id!;
        const source = (await repo.siblingIds(trx, { blockId: from })).filter((id) => id !== t.id);
        const target = from === to.id ? source : await repo.siblingIds(trx, { blockId: to.id });
        const at = Math.min(sort, target.length);
        if (from === to.id && at === t.sort) return;
        target.splice(at, 0, t.id);
        if (from !== to.id) await repo.renumber(trx, source);
        await repo.renumber(trx, target, to.id);
        await repo.touchTask(trx, t.id, user.id, now());
        if (from !== to.id) await history(trx, user, p.id, t.id, `将任务移动到看板「${to.name}」`);
        else await history(trx, user, p.id, t.id, '调整了任务顺序');
      });
      return service.task(user, taskId);
    },

    async deleteTask(user: SessionUser, taskId: number) {
      let md5s: string[] = [];
      let gone: number[] = [];
      await db.transaction().execute(async (trx) => {
        const { t, p } = await taskFor(trx, user, taskId);
        md5s = await attach.deleteOfRecordInTx(trx, PROJECT_TABLE, t.id);
        gone = await repo.deleteTaskTree(trx, t.id);
        await repo.renumber(trx, await repo.siblingIds(trx, { blockId: t.block_id! }));
        await history(trx, user, p.id, t.id, `删除了任务「${t.name}」及其子任务`);
      });
      await attach.dropBytes(md5s);
      await notices.tasksDeleted(gone);
    },

    /** The boards of the task's project, for the move-task dialog (spec: board list items). */
    async parentTaskList(user: SessionUser, taskId: number, parentId: number | undefined) {
      const { t, p } = await taskFor(db, user, taskId, false);
      if (parentId !== undefined && parentId !== t.block_id) throw invalid(MSG.blockGone);
      return (await repo.blocksOf(db, p.id)).map((b) => ({ taskId: b.id, taskName: b.name }));
    },

    // ——— subtasks ———
    async addKid(user: SessionUser, body: AddKidBody) {
      const out: Cooperation[] = [];
      const id = await db.transaction().execute(async (trx) => {
        const { t, p } = await taskFor(trx, user, body.parentId);
        await assigneeIn(trx, p.id, body.assigner);
        const siblings = await repo.siblingIds(trx, { parentTaskId: t.id });
        const id = await repo.insertTask(
          trx,
          {
            project_id: p.id,
            block_id: null,
            parent_task_id: t.id,
            name: body.taskName,
            deadline: body.deadline,
            priority: 1,
            assigner: body.assigner,
            sort: siblings.length,
            created_by: user.id,
          },
          now(),
        );
        await repo.touchTask(trx, t.id, user.id, now());
        await history(trx, user, p.id, t.id, `添加了子任务「${body.taskName}」`);
        if (body.assigner !== null) out.push(checklist(user, p, t, body.taskName, body.assigner));
        return id;
      });
      await send(user, out);
      return { kidId: id };
    },

    async updateKid(user: SessionUser, body: UpdateKidBody) {
      const out: Cooperation[] = [];
      const parentId = await db.transaction().execute(async (trx) => {
        const { k, p } = await kidFor(trx, user, body.kidId);
        checkVersion(k, body.version);
        if (k.collect_status === TASK_DONE && body.field !== 'collectStatus') throw invalid(MSG.kidLocked);
        const parent = (await repo.taskById(trx, k.parent_task_id!))!;
        const v = body.value;
        let action: string;
        switch (body.field) {
          case 'taskName':
            if (v === k.name) return parent.id;
            await repo.updateTask(trx, k.id, { name: v as string }, user.id, now());
            action = `将子任务「${k.name}」改名为「${v as string}」`;
            break;
          case 'deadline':
            if (v === k.deadline) return parent.id;
            await repo.updateTask(trx, k.id, { deadline: v as string | null }, user.id, now());
            action = v
              ? `将子任务「${k.name}」的截止日期改为 ${v as string}`
              : `清除了子任务「${k.name}」的截止日期`;
            out.push({
              receivers: [k.assigner],
              title: `子任务「${k.name}」的截止日期${v ? `改为 ${v as string}` : '已清除'}`,
              content: `任务「${parent.name}」`,
              type: 2,
              projectId: p.id,
              taskId: parent.id,
            });
            break;
          case 'assigner':
            if (v === k.assigner) return parent.id;
            await assigneeIn(trx, p.id, v as number | null);
            await repo.updateTask(trx, k.id, { assigner: v as number | null }, user.id, now());
            action =
              v === null
                ? `移除了子任务「${k.name}」的负责人`
                : `将子任务「${k.name}」的负责人改为${await nameOf(trx, v as number)}`;
            if (v !== null) out.push(checklist(user, p, parent, k.name, v as number));
            break;
          case 'collectStatus':
            if (v === k.collect_status) return parent.id;
            await repo.updateTask(trx, k.id, { collect_status: v as number }, user.id, now());
            action = v === TASK_DONE ? `完成了子任务「${k.name}」` : `重新打开了子任务「${k.name}」`;
            break;
        }
        await repo.touchTask(trx, parent.id, user.id, now());
        await history(trx, user, p.id, parent.id, action);
        return parent.id;
      });
      await send(user, out);
      return service.task(user, parentId);
    },

    async deleteKid(user: SessionUser, kidId: number) {
      await db.transaction().execute(async (trx) => {
        const { k, p } = await kidFor(trx, user, kidId);
        await repo.deleteTask(trx, k.id);
        await repo.renumber(trx, await repo.siblingIds(trx, { parentTaskId: k.parent_task_id! }));
        await repo.touchTask(trx, k.parent_task_id!, user.id, now());
        await history(trx, user, p.id, k.parent_task_id, `删除了子任务「${k.name}」`);
      });
    },

    // ——— history and comments ———
    async history(user: SessionUser, taskId: number) {
      await taskFor(db, user, taskId, false);
      return (await repo.historyOf(db, taskId)).map(historyRow);
    },
    async comments(user: SessionUser, taskId: number): Promise<CommentRow[]> {
      await taskFor(db, user, taskId, false);
      return (await repo.commentsOf(db, taskId)).map((c) => commentRow(c, user));
    },
    async addComment(user: SessionUser, taskId: number, content: string): Promise<CommentRow[]> {
      const html = sanitizeRichHtml(content);
      if (!hasContent(html)) throw invalid(MSG.commentEmpty);
      const out: Cooperation[] = [];
      await db.transaction().execute(async (trx) => {
        const { t, p } = await taskFor(trx, user, taskId);
        await repo.insertComment(trx, t.id, user.id, html, now());
        await history(trx, user, p.id, t.id, '发表了评论');
        out.push({
          receivers: [t.assigner, t.created_by],
          title: `${user.userName}评论了任务「${t.name}」`,
          content: plain(html),
          type: 1,
          projectId: p.id,
          taskId: t.id,
        });
      });
      await send(user, out);
      return service.comments(user, taskId);
    },
    async deleteComment(user: SessionUser, commentId: number) {
      await db.transaction().execute(async (trx) => {
        const c = await repo.commentById(trx, commentId);
        if (!c) throw notFound(MSG.commentGone);
        const { p } = await taskFor(trx, user, c.task_id).catch(() => {
          throw notFound(MSG.commentGone);
        });
        if (c.user_id !== user.id) throw forbidden(MSG.notAuthor);
        await repo.deleteComment(trx, c.id);
        await history(trx, user, p.id, c.task_id, '删除了评论');
      });
    },

    // ——— people ———
    async people(user: SessionUser, projectId: number | undefined, type: number): Promise<PickerUser[]> {
      if (type === 2) {
        return (await repo.coworkersOf(db, user.id)).map((u) => ({
          userId: u.id,
          userName: u.user_name,
          name: u.user_name,
          userImage: avatarUrl(u.id, u.avatar),
          status: 0,
          isOwner: false,
        }));
      }
      const p = await projectFor(db, user, projectId!);
      // The owner first, then in the order people joined.
      const members = await repo.membersOf(db, p.id);
      members.sort((a, b) => Number(b.id === p.owner_id) - Number(a.id === p.owner_id));
      return members.map((u) => ({
        userId: u.id,
        userName: u.user_name,
        name: u.user_name,
        userImage: avatarUrl(u.id, u.avatar),
        status: 1,
        isOwner: u.id === p.owner_id,
      }));
    },
    async searchPeople(user: SessionUser, projectId: number, userName: string): Promise<PickerUser[]> {
      const p = await projectFor(db, user, projectId);
      const members = new Set((await repo.membersOf(db, p.id)).map((m) => m.id));
      return (await repo.searchUsers(db, userName, 50)).map((u) => ({
        userId: u.id,
        userName: u.user_name,
        name: u.user_name,
        userImage: avatarUrl(u.id, u.avatar),
        status: members.has(u.id) ? 1 : 0,
        isOwner: u.id === p.owner_id,
      }));
    },
    async addPeople(user: SessionUser, projectId: number, userIds: number[]) {
      const wanted = [...new Set(userIds)];
      if ((await enabledUserIds(db, wanted)).length !== wanted.length)
        throw invalid('所选人员不存在或已停用，请重新选择');
      let fresh: number[] = [];
      const p = await db.transaction().execute(async (trx) => {
        const p = writable(await projectFor(trx, user, projectId));
        const members = new Set((await repo.membersOf(trx, p.id)).map((m) => m.id));
        fresh = wanted.filter((id) => !members.has(id));
        if (!fresh.length) return p;
        await repo.addMembers(trx, p.id, fresh, user.id, now());
        const names = await Promise.all(fresh.map((id) => nameOf(trx, id)));
        await history(trx, user, p.id, null, `添加了项目成员${names.join('、')}`);
        return p;
      });
      await notifyJoined(user, p, fresh);
      return service.people(user, projectId, 1);
    },
    async removePerson(user: SessionUser, projectId: number, userId: number) {
      await db.transaction().execute(async (trx) => {
        const p = writable(await projectFor(trx, user, projectId));
        if (userId === p.owner_id) throw invalid(MSG.ownerStays);
        if (userId !== user.id && p.owner_id !== user.id && !(await isAdmin(user, trx)))
          throw forbidden(MSG.notOwner);
        if (!(await repo.removeMember(trx, p.id, userId))) throw notFound('该人员不是项目成员');
        await history(trx, user, p.id, null, `移除了项目成员${await nameOf(trx, userId)}`);
      });
      return service.people(user, projectId, 1).catch(() => []);
    },

    // ——— files ———
    async bindUpload(user: SessionUser, taskId: number, attachmentId: number) {
      await db.transaction().execute(async (trx) => {
        const { t, p } = await taskFor(trx, user, taskId);
        const problem = await attach.unboundProblem(trx, {
          user,
          table: PROJECT_TABLE,
          ids: [attachmentId],
          image: false,
        });
        if (problem) throw invalid('附件不存在或已失效，请重新上传');
        // bindInTx deletes the record's attachments not named: name the task's files too.
        const kept = await keptOf(trx, user, t.id, t.description);
        await attach.bindInTx(trx, {
          user,
          table: PROJECT_TABLE,
          recordId: t.id,
          ids: [...kept, attachmentId],
        });
        await repo.insertFile(
          trx,
          {
            attachment_id: attachmentId,
            task_id: t.id,
            source: 'upload',
            drive_file_id: null,
            added_by: user.id,
          },
          now(),
        );
        const [row] = await attach.rowsOf(trx, [attachmentId]);
        await repo.touchTask(trx, t.id, user.id, now());
        await history(trx, user, p.id, t.id, `上传了文件「${row!.name}」`);
      });
      return service.task(user, taskId);
    },
    async deleteFile(user: SessionUser, taskId: number, attachmentId: number) {
      let md5s: string[] = [];
      await db.transaction().execute(async (trx) => {
        const { t, p } = await taskFor(trx, user, taskId);
        const f = await repo.fileOfTask(trx, attachmentId);
        if (!f || f.task_id !== t.id) throw notFound(MSG.fileGone);
        const [row] = await attach.rowsOf(trx, [attachmentId]);
        const keep = (await keptOf(trx, user, t.id, t.description)).filter((id) => id !== attachmentId);
        md5s = await attach.bindInTx(trx, { user, table: PROJECT_TABLE, recordId: t.id, ids: keep });
        await repo.touchTask(trx, t.id, user.id, now());
        await history(trx, user, p.id, t.id, `删除了文件「${row?.name ?? ''}」`);
      });
      await attach.dropBytes(md5s);
    },
    async addRelevance(
      user: SessionUser,
      taskId: number,
      input: { attachmentId?: number; fileId?: number; projectId?: number },
    ) {
      // A drive file or a project document is copied into the attachment store first. The
      // space it is looked up in is the caller's own drive, or a project the caller may read.
      const fromDrive =
        input.fileId !== undefined
          ? await (async () => {
              await taskFor(db, user, taskId);
              const space =
                input.projectId !== undefined
                  ? projectSpace((await projectFor(db, user, input.projectId)).id)
                  : personalSpace(user.id);
              return attach.fromDrive(user, {
                table: PROJECT_TABLE,
                userFileId: input.fileId!,
                image: false,
                space,
              });
            })()
          : null;
      const fromDocs = input.projectId !== undefined;
      try {
        await db.transaction().execute(async (trx) => {
          const { t, p } = await taskFor(trx, user, taskId);
          let id: number;
          let name: string;
          if (fromDrive) {
            await attach.bindInTx(trx, {
              user,
              table: PROJECT_TABLE,
              recordId: t.id,
              ids: [...(await keptOf(trx, user, t.id, t.description)), fromDrive.attId],
            });
            id = fromDrive.attId;
            name = fromDrive.attName;
          } else {
            const f = await repo.fileOfTask(trx, input.attachmentId!);
            if (!f || f.project_id !== p.id) throw invalid('请选择本项目中的文件');
            const [row] = await attach.rowsOf(trx, [f.attachment_id]);
            id = await attach.copyInTx(trx, { user, from: row!, table: PROJECT_TABLE, recordId: t.id });
            name = row!.name;
          }
          await repo.insertFile(
            trx,
            {
              attachment_id: id,
              task_id: t.id,
              source: fromDrive && !fromDocs ? 'drive' : 'project',
              drive_file_id: input.fileId ?? null,
              added_by: user.id,
            },
            now(),
          );
          await repo.touchTask(trx, t.id, user.id, now());
          await history(
            trx,
            user,
            p.id,
            t.id,
            `关联了${fromDrive && !fromDocs ? '网盘' : '项目'}文件「${name}」`,
          );
        });
      } catch (err) {
        if (fromDrive) await attach.remove(user, fromDrive.attId).catch(() => undefined);
        throw err;
      }
      return service.task(user, taskId);
    },
    /**
     * The picker (shared/api/project.ts TaskFileListBody): my open projects, their document
     * folders and, to associate ('0'), their files; a search keeps the matches and their folders.
     */
    async pickerItems(user: SessionUser, fileName: string, fileType: '0' | '1'): Promise<PickerItem[]> {
      const projects = await repo.listProjects(db, {
        userId: user.id,
        all: false,
        archived: 0,
        keyword: fileType === '1' ? fileName : '',
      });
      const files = fileType === '0';
      const rows = await drive.liveTreeOf(
        projects.map((p) => projectSpace(p.id)),
        { files, name: files ? fileName : '' },
      );
      // Grouped once by space and folder, so building the trees reads each row once.
      const byFolder = new Map<string, typeof rows>();
      for (const r of rows) {
        const k = `${r.space}\u0000${r.file_path}`;
        const group = byFolder.get(k);
        if (group) group.push(r);
        else byFolder.set(k, [r]);
      }
      return projects.flatMap((p) => {
        const space = projectSpace(p.id);
        const node = (r: (typeof rows)[number], level: number): PickerItem | null => {
          const list = r.is_dir ? children(`${r.file_path}${r.file_name}/`, level + 1) : [];
          // Searching: a folder stays only on the way to a matching file.
          if (r.is_dir && files && fileName && !list.length) return null;
          return {
            fileId: r.id,
            attachmentId: null,
            projectId: p.id,
            projectName: p.name,
            attName: r.extend_name ? `${r.file_name}.${r.extend_name}` : r.file_name,
            type: r.is_dir ? 1 : 0,
            level,
            list,
          };
        };
        const children = (path: string, level: number): PickerItem[] =>
          (byFolder.get(`${space}\u0000${path}`) ?? [])
            .map((r) => node(r, level))
            .filter((i): i is PickerItem => i !== null);
        const list = children('/', 1);
        if (files && fileName && !list.length) return [];
        return [
          {
            fileId: null,
            attachmentId: null,
            projectId: p.id,
            projectName: p.name,
            attName: p.name,
            type: 2 as const,
            level: 0,
            list,
          },
        ];
      });
    },

    /** Rights of a project's documents for the drive's areas (server/drive/area.ts). */
    async docRights(user: SessionUser, projectId: number): Promise<{ archived: boolean }> {
      const p = await projectFor(db, user, projectId);
      return { archived: p.archived !== 0 };
    },

    /** Whether the name of my drive item `fileId` is taken in the project folder (before a move). */
    async checkFileInProject(user: SessionUser, projectId: number, fileId: number, parentId: number) {
      const p = writable(await projectFor(db, user, projectId));
      const exists = await drive.clashAcross(areaOf(user.id), projectArea(user.id, p.id), fileId, parentId);
      return { exists };
    },

    /** Moves items of my own drive into a project folder (shared/api/project.ts MoveFromDriveBody). */
    async moveFromDrive(user: SessionUser, projectId: number, fileIds: number[], parentId: number) {
      const p = writable(await projectFor(db, user, projectId));
      const names = await drive.moveAcross(
        areaOf(user.id),
        projectArea(user.id, p.id),
        fileIds,
        parentId,
        (trx, moved) => history(trx, user, p.id, null, `从网盘移入了项目文档「${moved.join('」「')}」`),
      );
      return { names };
    },

    // ——— progress ———
    async progress(
      user: SessionUser,
      projectId: number | undefined,
      archived: number,
    ): Promise<ProjectProgress[]> {
      if (projectId !== undefined) await projectFor(db, user, projectId);
      const projects = await repo.listProjects(db, {
        userId: user.id,
        all: await isAdmin(user, db),
        archived: projectId !== undefined ? (await repo.projectById(db, projectId))!.archived : archived,
        keyword: '',
        id: projectId,
      });
      const rows = await repo.progressRows(
        db,
        projects.map((p) => p.id),
      );
      const day = today();
      return projects.map((p) => {
        const mine = rows.filter((r) => r.project_id === p.id);
        const by = new Map<number | null, ProjectProgress['byAssignee'][number]>();
        const sum = { total: 0, done: 0, open: 0, overdue: 0 };
        for (const r of mine) {
          const done = r.collect_status === TASK_DONE;
          const late = !done && r.deadline !== null && r.deadline < day;
          let a = by.get(r.assigner);
          if (!a) {
            a = { userId: r.assigner, userName: r.assigner_name ?? '未指派', done: 0, open: 0, overdue: 0 };
            by.set(r.assigner, a);
          }
          sum.total++;
          if (done) {
            sum.done++;
            a.done++;
          } else {
            sum.open++;
            a.open++;
          }
          if (late) {
            sum.overdue++;
            a.overdue++;
          }
        }
        return {
          projectId: p.id,
          name: p.name,
          type: p.type as ProjectType,
          archived: p.archived,
          ...sum,
          byAssignee: [...by.values()].sort((x, y) => y.open + y.done - (x.open + x.done)),
        };
      });
    },

    /** attach: who may read a task's files (the collaborators and administrators). */
    async canReadTask(user: SessionUser, taskId: number) {
      const t = await repo.taskById(db, taskId);
      if (!t) return false;
      return projectFor(db, user, t.project_id).then(
        () => true,
        () => false,
      );
    },
  };

  async function notifyJoined(user: SessionUser, p: { id: number; name: string }, ids: number[]) {
    await send(user, [
      {
        receivers: ids,
        title: `${user.userName}邀请您参与项目「${p.name}」`,
        content: '',
        type: 1,
        projectId: p.id,
        taskId: null,
      },
    ]);
  }
  function assigned(
    user: SessionUser,
    p: { id: number; name: string },
    taskId: number,
    name: string,
    to: number,
  ) {
    return {
      receivers: [to],
      title: `${user.userName}把任务「${name}」指派给了您`,
      content: `项目「${p.name}」`,
      type: 1 as const,
      projectId: p.id,
      taskId,
    };
  }
  function checklist(
    user: SessionUser,
    p: { id: number; name: string },
    t: { id: number; name: string },
    kidName: string,
    to: number,
  ) {
    return {
      receivers: [to],
      title: `${user.userName}给您分配了子任务「${kidName}」`,
      content: `项目「${p.name}」任务「${t.name}」`,
      type: 2 as const,
      projectId: p.id,
      taskId: t.id,
    };
  }

  return service;
}
export type ProjectService = ReturnType<typeof createProjectService>;
