import { z } from 'zod';
import { CREATABLE_OFFICE_EXTS } from '../drive/file-types';
import { AreaQuery, FileNameField, FolderPath } from './drive';
import { BoolFlag, Flag, Id, absentIfEmpty } from './fields';

/**
 * The office calls under /wangpan/office (spec/drive.md §3 "New office file", §7; the
 * ONLYOFFICE protocol of research/qiwen-drive.md §5.4, without its mistakes: no session token
 * ever goes into a URL, the Document Server's JWT is checked, and saves are only downloaded from
 * the configured Document Server).
 */

/** The extensions ONLYOFFICE may edit and save back; other office types open read-only. */
export const OFFICE_EDITABLE_EXTS = CREATABLE_OFFICE_EXTS;

/**
 * POST office/createofficefile: a blank document. `fileName` is the name without the
 * extension; a name already used in the folder gets name(1), name(2)… (the collision rule).
 */
export const CreateOfficeBody = AreaQuery.extend({
  extendName: z.enum(CREATABLE_OFFICE_EXTS, { error: '请选择文件类型：docx、xlsx 或 pptx' }),
  filePath: FolderPath,
  fileName: FileNameField,
});
export const CreatedOfficeFile = z.object({
  userFileId: z.number(),
  filePath: z.string(),
  /** The name it got (the collision rule may have added "(1)"). */
  fileName: z.string(),
  extendName: z.string(),
});
export type CreatedOfficeFile = z.infer<typeof CreatedOfficeFile>;

/** GET office/config: whether a Document Server is configured, and its api.js. */
export const OfficeConfig = z.object({
  onlyoffice: z.boolean(),
  docServiceApiUrl: z.string().nullable(),
});
export type OfficeConfig = z.infer<typeof OfficeConfig>;

/**
 * POST office/editofficefile (edit; needs the right to change the file) and
 * office/previewofficefile (view). `mobile` asks for the phone layout, which the signed config
 * must carry itself (the Document Server trusts the token, not the page).
 */
export const OfficeFileBody = AreaQuery.extend({
  userFileId: Id,
  mobile: BoolFlag().optional(),
});

/** A DocEditor config, signed: `token` is its HS256 JWT with the Document Server's secret. */
export const DocEditorConfig = z.object({
  type: z.enum(['desktop', 'mobile']),
  documentType: z.enum(['word', 'cell', 'slide']),
  document: z.object({
    title: z.string(),
    url: z.string(),
    fileType: z.string(),
    key: z.string(),
    permissions: z.record(z.string(), z.boolean()),
  }),
  editorConfig: z.object({
    mode: z.enum(['edit', 'view']),
    lang: z.string(),
    callbackUrl: z.string().optional(),
    user: z.object({ id: z.string(), name: z.string() }),
    customization: z.record(z.string(), z.unknown()),
  }),
  token: z.string(),
});
export type DocEditorConfig = z.infer<typeof DocEditorConfig>;

export const OfficeEditor = z.object({
  config: DocEditorConfig,
  docServiceApiUrl: z.string(),
});
export type OfficeEditor = z.infer<typeof OfficeEditor>;

/** GET office/document?t=… and POST office/callback?t=…: the signed URLs the Document Server calls. */
export const SignedQuery = z.object({ t: z.string().min(1).max(4096) });

/** The most bytes a save downloaded from the Document Server may have (the upload limit). */
export const OFFICE_SAVE_MAX = 500 * 1024 * 1024;

// ——————————————————————————————————————————————— editing in the browser (no Document Server)

/**
 * The types the browser's own editors open for editing and save back when no Document Server
 * is configured (docx with @eigenpal/docx-editor-react, xlsx with @fortune-sheet/react over
 * ExcelJS). pptx, and the legacy doc/xls/ppt, stay read-only there.
 */
export const BROWSER_EDITABLE_EXTS = ['docx', 'xlsx'] as const;
export type BrowserEditableExt = (typeof BROWSER_EDITABLE_EXTS)[number];
export const isBrowserEditable = (ext: string): ext is BrowserEditableExt =>
  (BROWSER_EDITABLE_EXTS as readonly string[]).includes(ext.toLowerCase());

/**
 * The most bytes one save from the browser may carry. The editors open files of up to 30 MB
 * (the viewer's limit); a save may grow past that by what the person adds (pictures), not by
 * twenty megabytes more.
 */
export const OFFICE_EDIT_SAVE_MAX = 50 * 1024 * 1024;

/**
 * POST office/savefile?… — the bytes of the edited document as the body
 * (`application/octet-stream`), everything else in the query:
 * - `userFileId` and the drive's area flags: the file and where it lives (the rights of
 *   file/update: the owner in their drive, a library's managers in the library);
 * - `baseMd5`: the MD5 of the content the editor opened (the download's ETag). When the file
 *   holds other content by the time the save arrives, somebody else saved meanwhile: the save
 *   never overwrites that, it becomes a conflict copy beside the file (`conflict: true`);
 * - `asCopy=1`: save as a new file beside the original and leave the original as it is (the
 *   choice offered when the editor would drop something the original holds).
 */
export const SaveOfficeQuery = AreaQuery.extend({
  userFileId: Id,
  baseMd5: z
    .string({ error: '缺少打开时的文件版本，请重新打开文档后再保存' })
    .regex(/^[0-9a-f]{32}$/i, '打开时的文件版本不正确，请重新打开文档后再保存')
    .transform((s) => s.toLowerCase()),
  asCopy: absentIfEmpty(Flag()),
});
export type SaveOfficeQuery = z.infer<typeof SaveOfficeQuery>;

/** What a save did, and the file that now holds the person's content. */
export const SavedOfficeFile = z.object({
  /** The file saved into: the one opened, or the new copy (conflict or asCopy). */
  userFileId: z.number(),
  fileName: z.string(),
  extendName: z.string(),
  filePath: z.string(),
  fileSize: z.number(),
  /** MD5 of the saved content: the next save's `baseMd5`. */
  md5: z.string(),
  /** False when the file already held exactly these bytes (nothing was written). */
  changed: z.boolean(),
  /** The file had changed since it was opened: the content went to a new conflict copy. */
  conflict: z.boolean(),
  /** Saved as a new file because `asCopy` asked for it. */
  copy: z.boolean(),
});
export type SavedOfficeFile = z.infer<typeof SavedOfficeFile>;

/** The main part's content type of each editable package (what a save must really be). */
export const OOXML_MAIN_TYPES: Record<BrowserEditableExt, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
};

/** Words for a save's refusals (server) and outcomes (the page says them). */
export const OFFICE_SAVE_MSG = {
  empty: '没有收到文档内容，请重新保存',
  tooLarge: `文档超过 ${OFFICE_EDIT_SAVE_MAX / 1024 / 1024} MB，无法在线保存；请下载后用 Office 或 WPS 编辑`,
  badType: '请以二进制内容（application/octet-stream）上传文档',
  notEditable: '该类型的文件不能在浏览器中编辑保存，请下载后编辑',
  project: '项目文档暂不支持在线编辑，请下载后编辑',
  gone: '文件已被删除或已不在原位置，修改未保存；请在编辑页点“下载修改稿”把修改保存到本机',
  notPackage: (kind: string) => `保存的内容不是有效的 ${kind}，未保存；请重新打开文档后再试`,
  wrongPackage: (found: string, kind: string) => `保存的内容是 ${found}，而该文件是 ${kind}，未保存`,
} as const;
