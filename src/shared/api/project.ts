import { z } from 'zod';
import { DATE_RE } from '../rules/museum-time';
import { Flag, Id, oneOrMany, visibleText } from './fields';

/**
 * Project tasks (issue 9; spec/office.md §3 "Project tasks", §4, §5, §7 "Project people and
 * tasks"), under /singleMuseum. The spec's calls keep its names and fields; the calls it does
 * not show (projects, boards, progress, adding people, deleting a comment) are ours, POST for
 * writes and GET for reads. Decisions:
 *
 * - Rights: a project is read and written by its collaborators and by project administrators
 *   (whoever holds the 项目进度 grant, `oa.project.progress`). Anyone else hears the same
 *   answer whether the id exists or not. An id of another project (a board, task, subtask,
 *   comment or file) is refused as not belonging to the project.
 * - Boards are the spec's "blocks" (`blockId`). In addProjectTask `blockId` is the board and
 *   `parentId` the board's project (checked to agree); in moveProjectTask and
 *   getParentTaskList `parentId` is a board (the task's parent). getParentTaskList answers the
 *   boards of the task's project as the spec's board list items {taskId, taskName}.
 * - Sort orders are dense (0..n-1) and stable: after every add, move or delete a board's tasks
 *   (and a task's subtasks) are renumbered in their shown order.
 * - A board that still holds tasks is not deleted (看板中还有任务…): tasks are never removed
 *   as a side effect; move or delete them first.
 * - updateProjectTask / updateKidTask change only the field named by `ext1` (the other fields
 *   of the body are ignored), so a replayed offline edit cannot overwrite a field it did not
 *   touch. `version` (optional) is the task's version the client saw: when the task changed
 *   since, the call is refused naming who changed it, and nothing is written.
 * - A completed subtask (collectStatus 2) cannot be edited; only reopening it is allowed. It
 *   may still be deleted (with the client's confirmation).
 * - Deadlines are museum dates 'yyyy-MM-dd'; a task is overdue when it is open and its deadline
 *   is before today (museum time).
 * - Every change writes a history line (time, who, a Chinese description); assignments,
 *   deadline changes, comments and subtask assignments create collaboration items for the
 *   people concerned, never for the person acting.
 */

export const PROJECT_TYPES = ['exhibition', 'conservation', 'event', 'other'] as const;
export type ProjectType = (typeof PROJECT_TYPES)[number];
export const PROJECT_TYPE_TEXT: Record<ProjectType, string> = {
  exhibition: '展览',
  conservation: '保护修复',
  event: '活动',
  other: '其他',
};
/** Priorities (spec §9): 1 普通 (default), 2 紧急, 3 非常紧急. */
export const TASK_PRIORITY_TEXT: Record<number, string> = { 1: '普通', 2: '紧急', 3: '非常紧急' };
// A task's state, without zod for the offline copy every signed-in page keeps: project-state.ts.
export { TASK_DONE, TASK_OPEN } from './project-state';

export const PROJECT_NAME_MAX = 100;
export const BLOCK_NAME_MAX = 30;
export const TASK_NAME_MAX = 100;
export const DESCRIPTION_MAX = 100_000;
export const COMMENT_MAX = 20_000;

/** The spec's messages (§5) and ours. */
export const PROJECT_MSG = {
  taskNameEmpty: '任务标题不能为空',
  kidNameEmpty: '请输入子任务名称',
  commentEmpty: '请输入评论内容',
  projectGone: '项目不存在或您不是项目成员',
  taskGone: '此任务已被删除',
  kidGone: '子任务不存在或已被删除',
  blockGone: '看板不存在或不属于该项目，请刷新后重试',
  blockNotEmpty: '看板中还有任务，请先移走或删除其中的任务',
  kidLocked: '已完成的子任务不能修改，请先取消完成',
  notMember: '负责人不是项目成员，请先把他添加到项目',
  archived: '项目已归档，不能修改；请先取消归档',
  commentGone: '评论不存在或已删除',
  notAuthor: '只能删除自己的评论',
  fileGone: '文件不存在或不属于该任务',
  ownerStays: '不能移除项目负责人',
  notOwner: '只有项目负责人或管理员可以移除其他成员',
  stale: (name: string, time: string) => `该任务已被${name}于${time}修改，请刷新后再试`,
} as const;

const date = (what: string) =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || DATE_RE.test(v), `${what}格式应为 yyyy-MM-dd`)
    .transform((v) => (v === '' ? null : v))
    .nullable();
const taskName = (empty: string) =>
  z
    .string(empty)
    .trim()
    .min(1, empty)
    .max(TASK_NAME_MAX, `任务名称最多 ${TASK_NAME_MAX} 个字`)
    .superRefine(visibleText('任务名称'));
const priority = z.coerce
  .number()
  .refine((n) => n === 1 || n === 2 || n === 3, '优先级不正确')
  .default(1);
/** An assignee: a user id, or null / '' / 0 for nobody. */
const assigner = z
  .union([z.coerce.number().int().nonnegative('负责人不正确'), z.literal(''), z.null()])
  .transform((v) => (v === '' || v === null || v === 0 ? null : v));
const version = z.coerce.number().int().positive('版本号不正确').optional();
const collectStatus = z.coerce.number().refine((n) => n === 1 || n === 2, '完成状态不正确');

// ——— Projects (ours) ———

const ProjectFields = z.object({
  name: z
    .string('请输入项目名称')
    .trim()
    .min(1, '请输入项目名称')
    .max(PROJECT_NAME_MAX, '项目名称最多 100 个字')
    .superRefine(visibleText('项目名称')),
  type: z.enum(PROJECT_TYPES, { message: '请选择项目类型' }),
  startDate: date('开始日期').default(null),
  endDate: date('结束日期').default(null),
  description: z.string().trim().max(2000, '项目说明最多 2000 个字').default(''),
});
const datesInOrder = (b: { startDate: string | null; endDate: string | null }) =>
  !b.startDate || !b.endDate || b.startDate <= b.endDate;
/** POST /project/add: the caller becomes owner and first collaborator; `userIds` are added too; boards 待办/进行中/已完成 are created. */
export const ProjectAddBody = ProjectFields.extend({
  userIds: oneOrMany(z.array(Id).max(200, '一次最多添加 200 人')).default([]),
}).refine(datesInOrder, { message: '结束日期不能早于开始日期', path: ['endDate'] });
export type ProjectAddBody = z.output<typeof ProjectAddBody>;
/** POST /project/update: every field; `ownerId` must be a collaborator. */
export const ProjectUpdateBody = ProjectFields.extend({ projectId: Id, ownerId: Id.optional() }).refine(
  datesInOrder,
  { message: '结束日期不能早于开始日期', path: ['endDate'] },
);
export type ProjectUpdateBody = z.output<typeof ProjectUpdateBody>;
/** POST /project/archive: archived 1 archives, 0 restores. */
export const ProjectArchiveBody = z.object({
  projectId: Id,
  archived: Flag(),
});
export const ProjectIdBody = z.object({ projectId: Id });
export const ProjectIdQuery = z.object({ projectId: Id });
/**
 * GET /project/list: the projects the caller sees (/project-list: every type; /exhibition:
 * type=exhibition). `archived` 0 working (default), 1 archived.
 */
export const ProjectListQuery = z.object({
  type: z.enum(PROJECT_TYPES, { message: '项目类型不正确' }).optional(),
  archived: Flag().default(0),
  keyword: z.string().trim().max(50, '关键词最多 50 个字').default(''),
});
export type ProjectListQuery = z.output<typeof ProjectListQuery>;
export const ProjectRow = z.object({
  projectId: z.number(),
  name: z.string(),
  type: z.enum(PROJECT_TYPES),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  description: z.string(),
  ownerId: z.number(),
  ownerName: z.string(),
  archived: z.number(),
  taskCount: z.number(),
  doneCount: z.number(),
  /** Collaborators, the owner included (the list's cards show it). */
  memberCount: z.number(),
  updateTime: z.string(),
});
export type ProjectRow = z.infer<typeof ProjectRow>;

// ——— Boards (ours) ———

export const BlockAddBody = z.object({
  projectId: Id,
  name: z
    .string('请输入看板名称')
    .trim()
    .min(1, '请输入看板名称')
    .max(BLOCK_NAME_MAX, '看板名称最多 30 个字')
    .superRefine(visibleText('看板名称')),
});
export const BlockRenameBody = z.object({ blockId: Id, name: BlockAddBody.shape.name });
/** POST /projectBlock/sort: every board of the project, in the new order. */
export const BlockSortBody = z.object({
  projectId: Id,
  blockIds: oneOrMany(z.array(Id).min(1, '请选择看板').max(100)),
});
export const BlockIdBody = z.object({ blockId: Id });

/** A card on a board. */
export const TaskCard = z.object({
  taskId: z.number(),
  taskName: z.string(),
  blockId: z.number(),
  sort: z.number(),
  deadline: z.string().nullable(),
  priority: z.number(),
  collectStatus: z.number(),
  assigner: z.number().nullable(),
  assignerName: z.string(),
  assignerImage: z.string(),
  overdue: z.boolean(),
  kidCount: z.number(),
  kidDone: z.number(),
  version: z.number(),
});
export type TaskCard = z.infer<typeof TaskCard>;
export const Block = z.object({
  blockId: z.number(),
  name: z.string(),
  sort: z.number(),
  tasks: z.array(TaskCard),
});
/** GET /project/board?projectId: the project and its boards with their cards, in order. */
export const ProjectBoard = z.object({ project: ProjectRow, blocks: z.array(Block) });
export type ProjectBoard = z.infer<typeof ProjectBoard>;

// ——— Tasks (spec §7) ———

/** POST /projectTask/addProjectTask: `parentId` the project (optional; must be the board's). `sort` default: last. */
export const AddTaskBody = z.object({
  taskName: taskName(PROJECT_MSG.taskNameEmpty),
  blockId: Id,
  parentId: Id.optional(),
  deadline: date('截止日期').default(null),
  assigner: assigner.default(null),
  priority,
  sort: z.coerce.number().int().nonnegative('排序不正确').optional(),
});
export type AddTaskBody = z.output<typeof AddTaskBody>;

export const TASK_FIELDS = [
  'taskName',
  'deadline',
  'priority',
  'assigner',
  'description',
  'collectStatus',
] as const;
export type TaskField = (typeof TASK_FIELDS)[number];
/**
 * Checks the one field `ext1` names, reporting a problem at that field's path (so the answer
 * names it: 截止时间…) rather than as a message of the whole request.
 */
function fieldValue(schema: z.ZodType, key: string, value: unknown, ctx: z.RefinementCtx) {
  const parsed = z.object({ [key]: schema }).safeParse({ [key]: value });
  if (!parsed.success) {
    for (const iss of parsed.error.issues) {
      ctx.addIssue({ code: 'custom', message: iss.message, path: iss.path, input: value });
    }
    return { success: false as const };
  }
  return { success: true as const, data: parsed.data[key] };
}
/** POST /projectTask/updateProjectTask: `ext1` names the one field to change; its value is read from the body. */
export const UpdateTaskBody = z
  .object({
    taskId: Id,
    ext1: z.enum(TASK_FIELDS, { message: '要修改的字段（ext1）不正确' }),
    taskName: z.unknown().optional(),
    deadline: z.unknown().optional(),
    priority: z.unknown().optional(),
    assigner: z.unknown().optional(),
    description: z.unknown().optional(),
    collectStatus: z.unknown().optional(),
    version,
  })
  .transform((b, ctx) => {
    const schema = {
      taskName: taskName(PROJECT_MSG.taskNameEmpty),
      deadline: date('截止日期'),
      priority: priority.unwrap(),
      assigner,
      description: z.string('任务描述不正确').max(DESCRIPTION_MAX, '任务描述过长'),
      collectStatus,
    }[b.ext1];
    const parsed = fieldValue(schema as z.ZodType, b.ext1, b[b.ext1], ctx);
    if (!parsed.success) return z.NEVER;
    return {
      taskId: b.taskId,
      field: b.ext1,
      value: parsed.data as string | number | null,
      version: b.version,
    };
  });
export type UpdateTaskBody = z.output<typeof UpdateTaskBody>;
/** POST /projectTask/moveProjectTask: `parentId` the target board, `sort` the index there (clamped). */
export const MoveTaskBody = z.object({
  taskId: Id,
  parentId: Id,
  sort: z.coerce.number().int().nonnegative('排序不正确'),
});
export const TaskIdBody = z.object({ taskId: Id });
/** POST /projectTask/getParentTaskList: the boards of the task's project; `parentId` (its board) optional. */
export const ParentTaskListBody = z.object({ taskId: Id, parentId: Id.optional() });
export const BoardItem = z.object({ taskId: z.number(), taskName: z.string() });

export const KidTask = z.object({
  kidId: z.number(),
  taskName: z.string(),
  collectStatus: z.number(),
  deadline: z.string().nullable(),
  assigner: z.number().nullable(),
  assignerName: z.string(),
  assignerImage: z.string(),
  sort: z.number(),
  version: z.number(),
});
export type KidTask = z.infer<typeof KidTask>;
export const FILE_SOURCES = ['upload', 'drive', 'project'] as const;
export const TaskFile = z.object({
  attachmentId: z.number(),
  attName: z.string(),
  /** The download URL (attach/downloadFile). */
  attPath: z.string(),
  /** 1 an image (by extension), 0 another file. */
  attFileType: z.number(),
  attFileTypeStr: z.string(),
  attSize: z.number(),
  /** Where it came from: upload, drive (the uploader's 个人网盘) or project (another task's file). */
  source: z.enum(FILE_SOURCES),
  addedBy: z.string(),
});
export type TaskFile = z.infer<typeof TaskFile>;
/** POST /projectTask/getProjectTask: the detail (spec §3 "Task"). */
export const TaskDetail = TaskCard.extend({
  description: z.string(),
  projectId: z.number(),
  projectName: z.string(),
  blockName: z.string(),
  parentId: z.number(),
  kidsTasks: z.array(KidTask),
  fileList: z.array(TaskFile),
  updateTime: z.string(),
  updaterName: z.string(),
});
export type TaskDetail = z.infer<typeof TaskDetail>;

// ——— Subtasks ———

export const AddKidBody = z.object({
  taskName: taskName(PROJECT_MSG.kidNameEmpty),
  /** The task the subtask belongs to. */
  parentId: Id,
  deadline: date('截止日期').default(null),
  assigner: assigner.default(null),
});
export type AddKidBody = z.output<typeof AddKidBody>;
export const KID_FIELDS = ['taskName', 'collectStatus', 'deadline', 'assigner'] as const;
/** POST /projectTask/updateKidTask: `ext1` names the one field to change. */
export const UpdateKidBody = z
  .object({
    kidId: Id,
    ext1: z.enum(KID_FIELDS, { message: '要修改的字段（ext1）不正确' }),
    taskName: z.unknown().optional(),
    collectStatus: z.unknown().optional(),
    deadline: z.unknown().optional(),
    assigner: z.unknown().optional(),
    version,
  })
  .transform((b, ctx) => {
    const schema = {
      taskName: taskName(PROJECT_MSG.kidNameEmpty),
      deadline: date('截止日期'),
      assigner,
      collectStatus,
    }[b.ext1];
    const parsed = fieldValue(schema as z.ZodType, b.ext1, b[b.ext1], ctx);
    if (!parsed.success) return z.NEVER;
    return {
      kidId: b.kidId,
      field: b.ext1,
      value: parsed.data as string | number | null,
      version: b.version,
    };
  });
export type UpdateKidBody = z.output<typeof UpdateKidBody>;
export const KidIdBody = z.object({ kidId: Id });

// ——— History and comments ———

export const HistoryBody = z.object({ taskId: Id });
/** The spec's history line: ext1 the time. */
export const HistoryRow = z.object({ ext1: z.string(), updater: z.string(), actionDescription: z.string() });
export const CommentListBody = z.object({ ownerId: Id });
export const CommentAddBody = z.object({
  ownerId: Id,
  commentContent: z
    .string(PROJECT_MSG.commentEmpty)
    .trim()
    .min(1, PROJECT_MSG.commentEmpty)
    .max(COMMENT_MAX, '评论内容过长'),
});
/** POST /projectTask/deleteProjectConments (ours): only the author. */
export const CommentDeleteBody = z.object({ commentId: Id });
/** The spec's comment: ext1 author name, ext2 author image, ext3 time; `canDelete` for the author. */
export const CommentRow = z.object({
  commentId: z.number(),
  ext1: z.string(),
  ext2: z.string(),
  ext3: z.string(),
  commentContent: z.string(),
  canDelete: z.boolean(),
});
export type CommentRow = z.infer<typeof CommentRow>;

// ——— Offline copy of a board (ours) ———

/**
 * GET /projectTask/boardDetails?projectId= (ours): what the app keeps on the device when a board
 * is read online, so every open card opens offline (issue 17 §3). One call per board rather than
 * three per card: on the storeroom's Wi-Fi one round trip either lands or not, and the server
 * reads it in-process. Bounded so a big project cannot fill a tablet: only open tasks (a done
 * card is rarely ticked in the storeroom), at most OFFLINE_TASKS_MAX of them (the board's order),
 * the newest OFFLINE_HISTORY_MAX history lines and the newest OFFLINE_COMMENTS_MAX comments of
 * each; the totals say when a list was cut. Same rights as the board (archived projects read).
 */
export const OFFLINE_TASKS_MAX = 100;
export const OFFLINE_HISTORY_MAX = 30;
export const OFFLINE_COMMENTS_MAX = 30;
export const BoardDetailsQuery = ProjectIdQuery;
export const OfflineTask = z.object({
  task: TaskDetail,
  /** Newest first, as getProjectHistoryList. */
  history: z.array(HistoryRow),
  historyTotal: z.number(),
  /** Oldest first, as getProjectConmentsList (the newest ones when cut). */
  comments: z.array(CommentRow),
  commentsTotal: z.number(),
});
export type OfflineTask = z.infer<typeof OfflineTask>;
export const BoardDetails = z.object({
  projectId: z.number(),
  tasks: z.array(OfflineTask),
  /** Open tasks of the project; more than `tasks.length` when cut at OFFLINE_TASKS_MAX. */
  openTotal: z.number(),
});
export type BoardDetails = z.infer<typeof BoardDetails>;

// ——— People (spec §7 /projectUser/*) ———

/** type 1: the people of this project; 2: everyone I work with in any of my projects (the frequent list). */
export const UserCooperationBody = z
  .object({
    projectId: Id.optional(),
    type: z.coerce.number().refine((n) => n === 1 || n === 2, '类型不正确'),
  })
  .refine((b) => b.type === 2 || b.projectId !== undefined, { message: '请选择项目', path: ['projectId'] });
/** Search staff by name to add; `status` 1 already a collaborator of the project. */
export const GetUserBody = z.object({
  projectId: Id,
  type: z.coerce.number().optional(),
  userName: z.string().trim().max(30, '姓名最多 30 个字').default(''),
});
export const DeleteUserBody = z.object({ projectId: Id, userId: Id });
/** POST /projectUser/addUser (ours): adds collaborators (already present ones are kept). */
export const AddUserBody = z.object({
  projectId: Id,
  userIds: oneOrMany(z.array(Id).min(1, '请选择人员').max(200)),
});
export const PickerUser = z.object({
  userId: z.number(),
  userName: z.string(),
  name: z.string(),
  userImage: z.string(),
  /** 1 a collaborator of the project (type 1 always; getUser: already added), 0 not. */
  status: z.number(),
  isOwner: z.boolean(),
});
export type PickerUser = z.infer<typeof PickerUser>;

// ——— Files ———

/** POST /projectTask/upload: binds an attachment (attach/upload or attach/chunk with tableName 'project') to the task. */
export const UploadRelativeBody = z.object({ relativeId: Id, taskId: Id });
export const DeleteRelativeBody = z.object({ relativeId: Id, taskId: Id });
/**
 * POST /projectTask/addRelevanceFile: links a file to the task as a copy in the attachment store
 * (the task keeps its file whatever happens to the source later). One of:
 * - `fileId`: a file of the caller's own drive (source 'drive', the id kept as its origin);
 * - `fileId` with `projectId`: a document of that project (source 'project'; the caller must be
 *   one of that project's people; any project the caller sees, not only the task's);
 * - `attachmentId`: a file of another task of the same project (source 'project'; kept for
 *   callers of the first version: the picker now offers the document space instead).
 */
export const AddRelevanceBody = z
  .object({ taskId: Id, attachmentId: Id.optional(), fileId: Id.optional(), projectId: Id.optional() })
  .refine((b) => (b.attachmentId === undefined) !== (b.fileId === undefined), {
    message: '请选择要关联的文件（文件编号 fileId 或附件编号 attachmentId，二选一）',
  });
/**
 * POST /projectTask/taskGetFileList: the picker (spec §3 "Picker items"), over the projects I am
 * a collaborator of that are not archived. '1' (move): projects (type 2) and their document
 * folders (type 1); `fileName` filters project names. '0' (associate): projects, folders and
 * files (type 0) of the document space; `fileName` keeps the files whose name contains it, with
 * the folders above them, and only the projects where something matched.
 * A folder or file carries `fileId` = its id in the project's document space (the drive's
 * userFileId there, with `projectId`); `attachmentId` is null. `level`: 0 project, 1 its root's
 * items, and so on down.
 */
export const TaskFileListBody = z.object({
  fileName: z.string().trim().max(100).default(''),
  fileType: z.enum(['0', '1'], { message: '选择类型不正确' }),
});
export type PickerItem = {
  fileId: number | null;
  attachmentId: number | null;
  projectId: number | null;
  projectName: string;
  attName: string;
  /** 2 project, 1 folder, 0 attachment. */
  type: 0 | 1 | 2;
  level: number;
  list: PickerItem[];
};
export const PickerItem: z.ZodType<PickerItem> = z.lazy(() =>
  z.object({
    fileId: z.number().nullable(),
    attachmentId: z.number().nullable(),
    projectId: z.number().nullable(),
    projectName: z.string(),
    attName: z.string(),
    type: z.union([z.literal(0), z.literal(1), z.literal(2)]),
    level: z.number(),
    list: z.array(PickerItem),
  }),
);
/**
 * POST /projectFile/checkFileInProject: whether an item of the same name as `fileId` (a file or
 * folder of my own drive) is already in folder `parentId` (-1: the root) of the project's
 * documents; asked before moveFromDrive. Needs the right to change the project's documents.
 */
export const CheckFileBody = z.object({
  projectId: Id,
  fileId: Id,
  parentId: z.coerce.number().int().default(-1),
});
export const CheckFileAnswer = z.object({ exists: z.boolean() });
/**
 * POST /projectFile/moveFromDrive (ours): moves files and folders of my own drive into folder
 * `parentId` (-1: the root) of the project's documents, all or nothing; a taken name gets the
 * first free one (「名称(1)」, as the drive's own move). My quota is freed by their size.
 */
export const MoveFromDriveBody = z.object({
  projectId: Id,
  fileIds: oneOrMany(z.array(Id).min(1, '请选择要移动的文件').max(1000, '一次最多操作 1000 项')),
  parentId: z.coerce.number().int().default(-1),
});
export const MoveFromDriveAnswer = z.object({ names: z.array(z.string()) });

// ——— Progress (/approve/project-progress, ours) ———

export const AssigneeProgress = z.object({
  userId: z.number().nullable(),
  userName: z.string(),
  done: z.number(),
  open: z.number(),
  overdue: z.number(),
});
export const ProjectProgress = z.object({
  projectId: z.number(),
  name: z.string(),
  type: z.enum(PROJECT_TYPES),
  archived: z.number(),
  total: z.number(),
  done: z.number(),
  open: z.number(),
  overdue: z.number(),
  byAssignee: z.array(AssigneeProgress),
});
export type ProjectProgress = z.infer<typeof ProjectProgress>;
/** GET /project/progress: every project the caller sees (administrators: all), or one. */
export const ProgressQuery = z.object({
  projectId: Id.optional(),
  archived: ProjectListQuery.shape.archived,
});
