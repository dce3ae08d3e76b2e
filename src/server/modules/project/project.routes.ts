import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AddKidBody,
  AddRelevanceBody,
  AddTaskBody,
  AddUserBody,
  BoardDetailsQuery,
  BlockAddBody,
  BlockIdBody,
  BlockRenameBody,
  BlockSortBody,
  CheckFileBody,
  MoveFromDriveBody,
  CommentAddBody,
  CommentDeleteBody,
  CommentListBody,
  DeleteRelativeBody,
  DeleteUserBody,
  GetUserBody,
  HistoryBody,
  KidIdBody,
  MoveTaskBody,
  ParentTaskListBody,
  ProgressQuery,
  ProjectAddBody,
  ProjectArchiveBody,
  ProjectIdQuery,
  ProjectListQuery,
  ProjectUpdateBody,
  TaskFileListBody,
  TaskIdBody,
  UpdateKidBody,
  UpdateTaskBody,
  UploadRelativeBody,
  UserCooperationBody,
} from '../../../shared/api/project';
import { DONE } from '../../plugins/envelope';
import type { ProjectService } from './project.service';

/**
 * /singleMuseum/project*: project tasks (see src/shared/api/project.ts). Every signed-in member
 * of staff reaches these routes; which projects they see is the service's rule (collaborators
 * and project administrators), and a project they may not see answers as not found.
 */
export function projectRoutes(app: FastifyInstance, deps: { projects: ProjectService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { projects: s } = deps;

  // Projects and boards (ours: the spec does not show them).
  r.get('/project/list', { schema: { querystring: ProjectListQuery } }, async (req) =>
    s.list(req.user, req.query),
  );
  r.post('/project/add', { schema: { body: ProjectAddBody } }, async (req) => s.create(req.user, req.body));
  r.post('/project/update', { schema: { body: ProjectUpdateBody } }, async (req) =>
    s.update(req.user, req.body),
  );
  r.post('/project/archive', { schema: { body: ProjectArchiveBody } }, async (req) =>
    s.archive(req.user, req.body.projectId, req.body.archived),
  );
  r.get('/project/board', { schema: { querystring: ProjectIdQuery } }, async (req) =>
    s.board(req.user, req.query.projectId),
  );
  r.get('/project/progress', { schema: { querystring: ProgressQuery } }, async (req) =>
    s.progress(req.user, req.query.projectId, req.query.archived),
  );
  r.post('/projectBlock/add', { schema: { body: BlockAddBody } }, async (req) =>
    s.addBlock(req.user, req.body.projectId, req.body.name),
  );
  r.post('/projectBlock/rename', { schema: { body: BlockRenameBody } }, async (req) => {
    await s.renameBlock(req.user, req.body.blockId, req.body.name);
    return DONE;
  });
  r.post('/projectBlock/sort', { schema: { body: BlockSortBody } }, async (req) => {
    await s.sortBlocks(req.user, req.body.projectId, req.body.blockIds);
    return DONE;
  });
  r.post('/projectBlock/delete', { schema: { body: BlockIdBody } }, async (req) => {
    await s.deleteBlock(req.user, req.body.blockId);
    return DONE;
  });

  // Tasks and subtasks (spec §7).
  r.post('/projectTask/getProjectTask', { schema: { body: TaskIdBody } }, async (req) =>
    s.task(req.user, req.body.taskId),
  );
  r.post('/projectTask/addProjectTask', { schema: { body: AddTaskBody } }, async (req) =>
    s.addTask(req.user, req.body),
  );
  r.post('/projectTask/updateProjectTask', { schema: { body: UpdateTaskBody } }, async (req) =>
    s.updateTask(req.user, req.body),
  );
  r.post('/projectTask/moveProjectTask', { schema: { body: MoveTaskBody } }, async (req) =>
    s.moveTask(req.user, req.body.taskId, req.body.parentId, req.body.sort),
  );
  r.post('/projectTask/deleteTask', { schema: { body: TaskIdBody } }, async (req) => {
    await s.deleteTask(req.user, req.body.taskId);
    return DONE;
  });
  // Ours: the open cards' details for the app's offline copy of a board (bounded; see the schema).
  r.get('/projectTask/boardDetails', { schema: { querystring: BoardDetailsQuery } }, async (req) =>
    s.boardDetails(req.user, req.query.projectId),
  );
  r.post('/projectTask/getParentTaskList', { schema: { body: ParentTaskListBody } }, async (req) =>
    s.parentTaskList(req.user, req.body.taskId, req.body.parentId),
  );
  r.post('/projectTask/addKidTask', { schema: { body: AddKidBody } }, async (req) =>
    s.addKid(req.user, req.body),
  );
  r.post('/projectTask/updateKidTask', { schema: { body: UpdateKidBody } }, async (req) =>
    s.updateKid(req.user, req.body),
  );
  r.post('/projectTask/deleteKidTask', { schema: { body: KidIdBody } }, async (req) => {
    await s.deleteKid(req.user, req.body.kidId);
    return DONE;
  });

  // History and comments.
  r.post('/projectTask/getProjectHistoryList', { schema: { body: HistoryBody } }, async (req) =>
    s.history(req.user, req.body.taskId),
  );
  r.post('/projectTask/getProjectConmentsList', { schema: { body: CommentListBody } }, async (req) =>
    s.comments(req.user, req.body.ownerId),
  );
  r.post('/projectTask/addProjectConmentsList', { schema: { body: CommentAddBody } }, async (req) =>
    s.addComment(req.user, req.body.ownerId, req.body.commentContent),
  );
  r.post('/projectTask/deleteProjectConments', { schema: { body: CommentDeleteBody } }, async (req) => {
    await s.deleteComment(req.user, req.body.commentId);
    return DONE;
  });

  // People.
  r.post('/projectUser/getUserCooperation', { schema: { body: UserCooperationBody } }, async (req) =>
    s.people(req.user, req.body.projectId, req.body.type),
  );
  r.post('/projectUser/getUser', { schema: { body: GetUserBody } }, async (req) =>
    s.searchPeople(req.user, req.body.projectId, req.body.userName),
  );
  r.post('/projectUser/addUser', { schema: { body: AddUserBody } }, async (req) =>
    s.addPeople(req.user, req.body.projectId, req.body.userIds),
  );
  r.post('/projectUser/deleteUser', { schema: { body: DeleteUserBody } }, async (req) =>
    s.removePerson(req.user, req.body.projectId, req.body.userId),
  );

  // Files.
  r.post('/projectTask/upload', { schema: { body: UploadRelativeBody } }, async (req) =>
    s.bindUpload(req.user, req.body.taskId, req.body.relativeId),
  );
  r.post('/projectTask/deleteRelative', { schema: { body: DeleteRelativeBody } }, async (req) => {
    await s.deleteFile(req.user, req.body.taskId, req.body.relativeId);
    return DONE;
  });
  r.post('/projectTask/addRelevanceFile', { schema: { body: AddRelevanceBody } }, async (req) =>
    s.addRelevance(req.user, req.body.taskId, req.body),
  );
  r.post('/projectTask/taskGetFileList', { schema: { body: TaskFileListBody } }, async (req) =>
    s.pickerItems(req.user, req.body.fileName, req.body.fileType),
  );
  r.post('/projectFile/checkFileInProject', { schema: { body: CheckFileBody } }, async (req) =>
    s.checkFileInProject(req.user, req.body.projectId, req.body.fileId, req.body.parentId),
  );
  r.post('/projectFile/moveFromDrive', { schema: { body: MoveFromDriveBody } }, async (req) =>
    s.moveFromDrive(req.user, req.body.projectId, req.body.fileIds, req.body.parentId),
  );
}
