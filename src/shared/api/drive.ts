import { z } from 'zod';
import { NAME_MAX, nameProblem, pathProblem } from '../drive/names';
import { Flag, Id, absentIfEmpty, idListField, rule } from './fields';

/**
 * The drive calls under /wangpan (spec/drive.md §7), as zod schemas: the server validates with
 * them and the app infers its types from them. Where the spec says "not shown", the shapes
 * follow research/qiwen-drive.md, minus its mistakes (ids are checked against the caller,
 * moves take ids rather than paths, names are validated on every write).
 */

export const FolderPath = z.string().max(4096, '路径过长').superRefine(rule(pathProblem));
// The cap only spares the name rules a megabyte of text; past it the answer is the same words
// nameProblem gives a name of 256 (it once had none, and 266+ answered the generic message).
export const FileNameField = z
  .string()
  .max(NAME_MAX + 10, `文件名称不能超过 ${NAME_MAX} 个字符`)
  .superRefine(rule((v) => nameProblem(v, '文件名称')));
export const FolderNameField = z
  .string()
  .max(NAME_MAX + 10, `文件夹名称不能超过 ${NAME_MAX} 个字符`)
  .superRefine(rule((v) => nameProblem(v, '文件夹名称')));
/** A small code (fileType 9, isFmt 1 or 2), not a yes/no: kept a number. */
const Code = absentIfEmpty(z.coerce.number().int().min(0).max(99));

/**
 * Which library a call works in. Personal by default; `fileType=9` is 其他资源 (the museum-wide
 * library), `isFmt=2` is 高清图片. `isAdmin=1` asks for the management rights there.
 * `projectId` is a project's documents (项目文档; rights from the project, server/drive/area.ts).
 */
export const AreaQuery = z.object({
  fileType: Code,
  isFmt: Code,
  isAdmin: absentIfEmpty(Flag()),
  projectId: absentIfEmpty(z.coerce.number({ error: '项目不正确' }).int('项目不正确').positive('项目不正确')),
});
export type AreaQuery = z.infer<typeof AreaQuery>;

export const SortField = z.enum(['name', 'size', 'time']);
export const SortOrder = z.enum(['asc', 'desc']);

/** A row of every list (§3 "File entry"). Folders have fileSize 0 and extendName ''. */
export const FileEntry = z.object({
  userFileId: z.number(),
  fileName: z.string(),
  extendName: z.string(),
  filePath: z.string(),
  isDir: z.union([z.literal(0), z.literal(1)]),
  fileSize: z.number(),
  uploadTime: z.string(),
  deleteFlag: z.number(),
  deleteTime: z.string().nullable(),
  deleteBatchNum: z.string().nullable(),
  imageWidth: z.number().nullable(),
  imageHeight: z.number().nullable(),
});
export type FileEntry = z.infer<typeof FileEntry>;

export const FileList = z.object({ list: z.array(FileEntry), total: z.number() });
export type FileList = z.infer<typeof FileList>;

export const PageFields = {
  currentPage: z.coerce.number().int().min(1).default(1),
  pageCount: z.coerce.number().int().min(1).max(1000).default(100),
};

/** GET file/getfilelist */
export const GetFileListQuery = AreaQuery.extend({
  filePath: FolderPath.default('/'),
  ...PageFields,
  sort: SortField.default('name'),
  order: SortOrder.default('asc'),
});

/** GET file/selectfilebyfiletype: 1 images, 2 documents, 3 video, 4 audio, 5 other. */
export const ByTypeQuery = z.object({
  fileType: z.coerce.number().int().min(1, '文件类型不正确').max(5, '文件类型不正确'),
  ...PageFields,
  sort: SortField.default('time'),
  order: SortOrder.default('desc'),
});

/** GET file/recent (ours; the workbench): the newest files of my own drive, wherever they are. */
export const RecentQuery = z.object({
  limit: z.coerce
    .number({ error: '数量不正确' })
    .int('数量不正确')
    .min(1, '数量不正确')
    .max(50, '数量不正确')
    .default(8),
});

/** GET file/getfiletree: the folders as a tree; the root is {id:0, label:'/', filePath:'/'}. */
export interface TreeNode {
  id: number;
  label: string;
  filePath: string;
  children: TreeNode[];
}
export const TreeNode: z.ZodType<TreeNode> = z.lazy(() =>
  z.object({ id: z.number(), label: z.string(), filePath: z.string(), children: z.array(TreeNode) }),
);

/** GET file/search: name substring, Chinese included. Hits carry highlightFields. */
export const SearchQuery = AreaQuery.extend({
  fileName: z.string().trim().min(1, '请输入搜索内容').max(NAME_MAX, '搜索内容过长'),
  ...PageFields,
});
export const SearchHit = FileEntry.extend({
  /** The name with hits wrapped as [[start,end)] offsets into fileName+ext, never HTML. */
  highlightFields: z.array(z.tuple([z.number(), z.number()])),
});
export const SearchResult = z.object({ list: z.array(SearchHit), total: z.number() });
export type SearchHit = z.infer<typeof SearchHit>;

/** POST file/createfile (folders: isDir 1) */
export const CreateFolderBody = AreaQuery.extend({
  fileName: FolderNameField,
  filePath: FolderPath,
  isDir: z.literal(1).default(1),
});

/** POST file/renamefile: the full new name (extension included). */
export const RenameBody = AreaQuery.extend({ userFileId: Id, fileName: FileNameField });

/** POST file/copyfile, file/movefile: one item into a target folder. */
export const CopyMoveBody = AreaQuery.extend({ userFileId: Id, filePath: FolderPath });

/** `files`: JSON text of [{userFileId}] as the spec sends it, or a plain array. */
const FilesField = idListField('userFileId');

/** POST file/batchmovefile, and batch copy. */
export const BatchMoveBody = AreaQuery.extend({ files: FilesField, filePath: FolderPath });

/** POST file/deletefile: deleteMode 1 to the bin (default), 2 permanently. */
export const DeleteBody = AreaQuery.extend({
  userFileId: Id,
  deleteMode: z.coerce.number().int().min(1).max(2).default(1),
});
export const BatchDeleteBody = AreaQuery.extend({
  files: FilesField,
  deleteMode: z.coerce.number().int().min(1).max(2).default(1),
});

/** A recycle-bin row (§3 "Recovery entry" plus the top item's fields). */
export const RecoveryEntry = FileEntry.extend({ recoveryFileId: z.number() });
export type RecoveryEntry = z.infer<typeof RecoveryEntry>;
export const RecoveryList = z.object({ list: z.array(RecoveryEntry), total: z.number() });

export const DeleteRecoveryBody = AreaQuery.extend({ recoveryFileId: Id });
export const BatchDeleteRecoveryBody = AreaQuery.extend({
  recoveryFileIds: idListField('recoveryFileId'),
});
/** POST recoveryfile/restorefile: the batch, and the top item's original folder. */
export const RestoreBody = AreaQuery.extend({
  deleteBatchNum: z.string().uuid(),
  filePath: FolderPath,
});

/** A read through a share link instead of the caller's own drive (see shared/api/share.ts). */
const ShareReadFields = {
  // An empty shareBatchNum stays a (refused) share read: media-preview.test.ts pins that.
  shareBatchNum: z.string().max(64).optional(),
  /** Accepted as a one-off check; the share page uses the grant its code bought instead. */
  extractionCode: z.string().max(16).optional(),
};

/** GET file/detail; through a share with `shareBatchNum` (the sharer's paths withheld). */
export const DetailQuery = AreaQuery.extend({ userFileId: Id, ...ShareReadFields });

/**
 * GET filetransfer/downloadfile: one item, or several as one zip (`userFileIds` comma-separated).
 * With `shareBatchNum`, through that share (a folder's zip holds what the share holds).
 */
export const DownloadQuery = AreaQuery.extend({
  userFileId: Id.optional(),
  userFileIds: z
    .string()
    .regex(/^\d+(,\d+){0,999}$/, '文件编号列表应为以逗号分隔的编号，例如 5,6')
    .optional(),
  ...ShareReadFields,
});

/** The most text `file/update` saves (characters); the code dialog opens at most 5 MB. */
export const TEXT_EDIT_MAX = 5 * 1024 * 1024;

/** POST file/update: the edited text of a text or code file. */
export const UpdateBody = AreaQuery.extend({
  userFileId: Id,
  fileContent: z.string().max(TEXT_EDIT_MAX, '文件内容过大，无法在线保存'),
});

/**
 * GET filetransfer/preview: one file's bytes for the previewers. `isMin=1` asks for the small
 * thumbnail (images: made by the server; mp4: the poster frame a browser stored, 404 until one
 * exists). `shareBatchNum` reads through a share instead of the caller's own drive: the share's
 * expiry and code are checked on the server (the code once per share, see the sharing issue).
 */
export const PreviewQuery = AreaQuery.extend({
  userFileId: Id,
  isMin: absentIfEmpty(Flag()),
  ...ShareReadFields,
});

/** The largest poster frame a browser may store for a video (bytes, before re-encoding). */
export const POSTER_MAX = 512 * 1024;

/**
 * POST filetransfer/poster?userFileId=…: the body is one JPEG, PNG or WebP frame the browser
 * captured from the video (on upload or first play). The server re-encodes it as the file's
 * thumbnail; only the owner (or a manager of the area) may set it.
 */
export const PosterQuery = AreaQuery.extend({ userFileId: Id });

/**
 * Music details (spec §3 "Music details"), read from the tags with music-metadata. `albumImage`
 * is a `data:` URL (base64); `trackLength` is in seconds; `lyrics` is LRC text, one
 * `[mm:ss.xx]line` per line, from USLT/SYLT or a same-named .lrc beside the file.
 */
export const MusicInfo = z.object({
  title: z.string().nullable(),
  artist: z.string().nullable(),
  album: z.string().nullable(),
  albumImage: z.string().nullable(),
  trackLength: z.number().nullable(),
  lyrics: z.string().nullable(),
});
export type MusicInfo = z.infer<typeof MusicInfo>;

/** GET file/detail: the entry (images carry imageWidth/imageHeight) plus `music` for audio. */
export const FileDetail = FileEntry.extend({ music: MusicInfo.nullable() });
export type FileDetail = z.infer<typeof FileDetail>;

/** GET filetransfer/getstorage: bytes used (live and binned) and the quota. */
export const StorageInfo = z.object({ storageSize: z.number(), totalStorageSize: z.number() });
export type StorageInfo = z.infer<typeof StorageInfo>;

/** GET admin/getstorage: one person's use and quota, for an administrator. */
export const UserStorageQuery = z.object({ userId: Id });

/** POST admin/setstorage: an administrator changes one user's quota (bytes). */
export const SetStorageBody = z.object({
  userId: Id,
  totalStorageSize: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 50),
});
