import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AreaQuery,
  BatchDeleteBody,
  BatchDeleteRecoveryBody,
  BatchMoveBody,
  ByTypeQuery,
  RecentQuery,
  CopyMoveBody,
  CreateFolderBody,
  DeleteBody,
  DeleteRecoveryBody,
  DetailQuery,
  DownloadQuery,
  PreviewQuery,
  TEXT_EDIT_MAX,
  UpdateBody,
  GetFileListQuery,
  RenameBody,
  RestoreBody,
  SearchQuery,
  SetStorageBody,
  UserStorageQuery,
} from '../../../shared/api/drive';
import { notFound } from '../../errors';
import { DONE } from '../../plugins/envelope';
import type { BlobStore } from '../../storage/blob-store';
import type { Access } from '../auth/access';
import { type Areas, personalSpace } from './area';
import { FILE_ANSWER, sendDownload, sendPreview, sendThumbnail } from './download';
import type { DriveService } from './drive.service';
import type { MediaService } from './media.service';
import { readArea, type ShareGrants, visitorOf } from './share-grant';

/** The staff page whose grant lets an administrator change quotas. */
const PERSON = 'system.person';

/**
 * /wangpan calls (spec/drive.md §7; shapes in shared/api/drive.ts). HTTP only: each route
 * resolves the area and the caller's rights, then hands over to the service.
 */
export function driveRoutes(
  app: FastifyInstance,
  deps: {
    drive: DriveService;
    areas: Areas;
    access: Access;
    store: BlobStore;
    media: MediaService;
    shares: ShareGrants;
  },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { drive, areas } = deps;

  // ---- reading: any signed-in person, in their own drive or a shared library. Details, preview
  // and download also read through a share when shareBatchNum is given (share-grant.ts;
  // anonymous visitors too).
  const shareRead = { shareVisitor: 'withBatch' as const };
  r.get('/file/getfilelist', { schema: { querystring: GetFileListQuery } }, async (req) =>
    drive.list(await areas.read(req.user, req.query), req.query),
  );
  r.get('/file/selectfilebyfiletype', { schema: { querystring: ByTypeQuery } }, async (req) =>
    drive.byType(await areas.read(req.user, undefined), req.query),
  );
  r.get('/file/recent', { schema: { querystring: RecentQuery } }, async (req) =>
    drive.recent(await areas.read(req.user, undefined), req.query.limit),
  );
  r.get('/file/getfiletree', { schema: { querystring: AreaQuery } }, async (req) =>
    drive.tree(await areas.read(req.user, req.query)),
  );
  // The entry plus image size and music details (FileDetail).
  r.get('/file/detail', { schema: { querystring: DetailQuery }, config: shareRead }, async (req) => {
    if (req.query.shareBatchNum !== undefined) {
      // A visitor of a share: the item as the share shows it, nothing about the sharer's drive.
      const area = await readArea(areas, deps.shares, req, req.query);
      const entry = await drive.detail(area, req.query.userFileId, false);
      const detail = await deps.media.detail(area, entry, { lyricsBeside: false });
      return { ...detail, filePath: '/', deleteBatchNum: null };
    }
    const withBinned = await areas.mayManage(req.user, req.query);
    const area = await areas.read(req.user, req.query);
    return deps.media.detail(area, await drive.detail(area, req.query.userFileId, withBinned));
  });
  r.get('/file/search', { schema: { querystring: SearchQuery } }, async (req) =>
    drive.search(await areas.read(req.user, req.query), req.query),
  );
  r.get(
    '/filetransfer/downloadfile',
    { ...FILE_ANSWER, schema: { querystring: DownloadQuery }, config: shareRead },
    async (req, reply) => {
      const q = req.query;
      const plan =
        q.shareBatchNum !== undefined
          ? await deps.shares.download(visitorOf(req), {
              shareBatchNum: q.shareBatchNum,
              extractionCode: q.extractionCode,
              ids: q.userFileIds ? q.userFileIds.split(',').map(Number) : q.userFileId ? [q.userFileId] : [],
            })
          : await drive.download(await areas.read(req.user, q), q);
      return sendDownload(req, reply, plan, deps.store);
    },
  );
  // isMin=1 answers the thumbnail (images) or poster (video) under the same authorisation.
  r.get(
    '/filetransfer/preview',
    { ...FILE_ANSWER, schema: { querystring: PreviewQuery }, config: shareRead },
    async (req, reply) => {
      const area = await readArea(areas, deps.shares, req, req.query);
      const { plan, kind } = await drive.preview(area, req.query.userFileId);
      if (req.query.isMin) return sendThumbnail(req, reply, await deps.media.thumbnail(area, plan, kind));
      return sendPreview(req, reply, plan, kind, deps.store);
    },
  );
  r.get('/filetransfer/getstorage', async (req) => drive.storage(req.user.id, personalSpace(req.user.id)));

  // ---- changing: the owner, or a shared library's managers
  r.post('/file/createfile', { schema: { body: CreateFolderBody } }, async (req) =>
    drive.createFolder(await areas.manage(req.user, req.body), req.body),
  );
  r.post(
    '/file/update',
    // UTF-8 text of up to TEXT_EDIT_MAX characters, in JSON.
    { schema: { body: UpdateBody }, bodyLimit: 4 * TEXT_EDIT_MAX },
    async (req) => drive.updateContent(await areas.manage(req.user, req.body), req.body),
  );
  r.post('/file/renamefile', { schema: { body: RenameBody } }, async (req) => {
    await drive.rename(await areas.manage(req.user, req.body), req.body);
    return DONE;
  });
  r.post('/file/copyfile', { schema: { body: CopyMoveBody } }, async (req) => {
    await drive.copy(await areas.manage(req.user, req.body), [req.body.userFileId], req.body.filePath);
    return DONE;
  });
  r.post('/file/batchcopyfile', { schema: { body: BatchMoveBody } }, async (req) => {
    await drive.copy(await areas.manage(req.user, req.body), req.body.files, req.body.filePath);
    return DONE;
  });
  r.post('/file/movefile', { schema: { body: CopyMoveBody } }, async (req) => {
    await drive.move(await areas.manage(req.user, req.body), [req.body.userFileId], req.body.filePath);
    return DONE;
  });
  r.post('/file/batchmovefile', { schema: { body: BatchMoveBody } }, async (req) => {
    await drive.move(await areas.manage(req.user, req.body), req.body.files, req.body.filePath);
    return DONE;
  });
  // Mode 1 answers the bin entry's id (spec §7); mode 2 has nothing to report.
  r.post('/file/deletefile', { schema: { body: DeleteBody } }, async (req) => {
    const area = await areas.remove(req.user, req.body);
    const [recoveryFileId] = await drive.remove(area, [req.body.userFileId], req.body.deleteMode);
    return recoveryFileId ?? DONE;
  });
  r.post('/file/batchdeletefile', { schema: { body: BatchDeleteBody } }, async (req) => {
    const area = await areas.remove(req.user, req.body);
    return drive.remove(area, req.body.files, req.body.deleteMode);
  });

  // ---- the recycle bin (POST per spec; GET too, as qiwen's later versions call it)
  r.post('/recoveryfile/list', { schema: { body: AreaQuery.nullish() } }, async (req) =>
    drive.recoveryList(await areas.manage(req.user, req.body ?? undefined)),
  );
  r.get('/recoveryfile/list', { schema: { querystring: AreaQuery } }, async (req) =>
    drive.recoveryList(await areas.manage(req.user, req.query)),
  );
  r.post('/recoveryfile/deleterecoveryfile', { schema: { body: DeleteRecoveryBody } }, async (req) => {
    await drive.purge(await areas.remove(req.user, req.body), [req.body.recoveryFileId]);
    return DONE;
  });
  r.post('/recoveryfile/batchdelete', { schema: { body: BatchDeleteRecoveryBody } }, async (req) => {
    await drive.purge(await areas.remove(req.user, req.body), req.body.recoveryFileIds);
    return DONE;
  });
  r.post('/recoveryfile/restorefile', { schema: { body: RestoreBody } }, async (req) => {
    await drive.restore(await areas.manage(req.user, req.body), req.body);
    return DONE;
  });

  // ---- administration
  r.get('/admin/getstorage', { schema: { querystring: UserStorageQuery } }, async (req) => {
    await deps.access.require(req.user, PERSON);
    if (!(await drive.userExists(req.query.userId))) throw notFound('该员工不存在，请刷新后重试');
    return drive.storage(req.query.userId, personalSpace(req.query.userId));
  });
  r.post('/admin/setstorage', { schema: { body: SetStorageBody } }, async (req) => {
    await deps.access.require(req.user, PERSON);
    await drive.setQuota(req.body.userId, req.body.totalStorageSize);
    return DONE;
  });
}
