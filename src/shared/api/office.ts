import { z } from 'zod';
import { CREATABLE_OFFICE_EXTS } from '../drive/file-types';
import { AreaQuery, FileNameField, FolderPath } from './drive';
import { BoolFlag, Id } from './fields';

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
