import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { z } from 'zod';
import { ErrorCode } from '../../../shared/api/envelope';
import {
  OFFICE_EDITABLE_EXTS,
  OFFICE_EDIT_SAVE_MAX,
  OFFICE_SAVE_MAX,
  OFFICE_SAVE_MSG,
  isBrowserEditable,
  type CreatedOfficeFile,
  type DocEditorConfig,
  type OfficeConfig,
  type OfficeEditor,
  type SaveOfficeQuery,
  type SavedOfficeFile,
} from '../../../shared/api/office';
import { OFFICE_EXTS } from '../../../shared/drive/file-types';
import { NAME_MAX, joinName, splitName } from '../../../shared/drive/names';
import type { Config } from '../../config';
import { AppError, invalid, notFound } from '../../errors';
import type { SessionUser } from '../auth/auth.service';
import { type Area, type FixedAreaKind, areaOf } from '../drive/area';
import { ContentChanged, type DriveService } from '../drive/drive.service';
import { museumTime } from '../drive/time';
import { type BlankType, blankDocument } from './blank';
import { type Claims, signJwt, verifyJwt } from './jwt';
import { assertOoxml } from './ooxml';

/*
 * Office files (spec/drive.md §3, §7; research/qiwen-drive.md §2.5, §5.4).
 *
 * 新建文件 stores a blank document through the drive's addFile (the collision rule, the quota,
 * content dedup). With an ONLYOFFICE Document Server configured (ONLYOFFICE_URL and its JWT
 * secret), opening an office file gives the page a DocEditor config signed with that secret.
 * The Document Server then calls us twice, never with a session:
 *
 * - GET office/document?t=… fetches the bytes. `t` is our own short-lived signed token naming
 *   the file, its area and the exact content (MD5) the config's key stands for. It fails closed:
 *   expired, tampered, the file gone or changed since — no bytes.
 * - POST office/callback?t=… reports the editing status. `t` (ours) names the file, the person
 *   and the document key it was issued for; the request itself must carry the Document Server's
 *   JWT (in the body's `token`, or the Authorization header), and only the signed claims are
 *   believed. On status 2 (all editors closed with changes) or 6 (force save) the new bytes are
 *   downloaded — only from the Document Server's own origin, size-capped, no redirects — and
 *   stored copy-on-write with the quota charged (drive.replaceContent). Every other status is
 *   acknowledged and changes nothing.
 *
 * Our tokens are signed with a key of this installation alone (Storage.secret: DATA_DIR/
 * office-url.key, or one object in the bucket shared by every instance, made on first start),
 * not the shared Document Server secret: whoever holds that secret still cannot mint
 * our URLs. The document key changes with the content (id, MD5, modification time), so the
 * Document Server never serves an old version from its cache.
 */

/** How long the document URL in a config works: the Document Server fetches it on opening. */
export const DOCUMENT_URL_TTL_S = 10 * 60;
/** How long a callback URL works: as long as anyone may keep an editor open (a session's life). */
export const CALLBACK_URL_TTL_S = 7 * 24 * 3600;
/** How long a signed config may be used to open the editor. */
const CONFIG_TTL_S = 24 * 3600;
/** Clock difference tolerated on the Document Server's own tokens (another machine). */
const DS_LEEWAY_S = 120;
/** How long a save's download from the Document Server may take. */
const SAVE_TIMEOUT_MS = 120_000;

export const NOT_CONFIGURED = '未配置在线文档服务，请下载后查看或编辑';
export const LINK_INVALID = '文档链接无效或已过期，请重新打开文档';
export const NOT_OFFICE = '该文件不是 Office 文档，不能在线打开';

const DOC_TYPE: Record<string, DocEditorConfig['documentType']> = {
  doc: 'word',
  docx: 'word',
  xls: 'cell',
  xlsx: 'cell',
  ppt: 'slide',
  pptx: 'slide',
};

const isEditable = (ext: string) => (OFFICE_EDITABLE_EXTS as readonly string[]).includes(ext.toLowerCase());
const isOffice = (ext: string) => (OFFICE_EXTS as readonly string[]).includes(ext.toLowerCase());

/** The Document Server's callback body (only the fields we act on); only the signed copy counts. */
const CallbackClaims = z.object({
  key: z.string().min(1).max(128),
  status: z.number().int(),
  url: z.string().max(8192).optional(),
  filetype: z.string().max(16).optional(),
});

/** What the callback answers, and why (for the log) when it refuses. */
export interface CallbackAnswer {
  httpStatus: number;
  error: 0 | 1;
  reason?: string;
}

/** Longest base name that still leaves room for a copy's suffix within the 255-character rule. */
function withSuffix(fileName: string, suffix: string, ext: string): string {
  const room = NAME_MAX - suffix.length - ext.length - 1;
  let base = '';
  for (const ch of fileName) {
    if (base.length + ch.length > room) break;
    base += ch;
  }
  return joinName(base + suffix, ext);
}

/**
 * The name of a conflict copy: `报告（张三的冲突副本 2026-05-01 14时30分）.docx`, in museum time, so
 * whoever finds it beside the file sees whose work it is and when it was saved.
 */
export function conflictName(fileName: string, ext: string, userName: string, now: number): string {
  const [day, time] = museumTime(now).split(' ');
  const [h, m] = time!.split(':');
  // A person's name may hold characters a file name may not (\ / : * ? " < > |).
  const who = userName.replace(/[\\/:*?"<>|\p{Cc}]/gu, '_').slice(0, 40);
  return withSuffix(fileName, `（${who}的冲突副本 ${day} ${h}时${m}分）`, ext);
}

/** The name of a copy the person chose to save instead of replacing: `报告（修改稿）.docx`. */
export function editCopyName(fileName: string, ext: string): string {
  return withSuffix(fileName, '（修改稿）', ext);
}

/** The document key of one version of a file: changes whenever its content does. */
export function documentKey(userFileId: number, md5: string, mtime: number): string {
  return createHash('sha256').update(`${userFileId}:${md5}:${mtime}`).digest('base64url').slice(0, 32);
}

export interface OfficeServiceDeps {
  drive: DriveService;
  config: Pick<Config, 'onlyoffice' | 'publicUrl'>;
  /**
   * The key the document and callback links are signed with: the installation's, the same on
   * every instance (Storage.secret), so a link one instance signed opens on any other.
   */
  urlKey: Buffer;
  /** The Document Server download (tests pass nothing: the real fetch). */
  fetch?: typeof fetch;
}

export function createOfficeService({ drive, config, urlKey, fetch: fetchImpl = fetch }: OfficeServiceDeps) {
  const office = config.onlyoffice;

  function requireOffice() {
    if (!office) throw invalid(NOT_CONFIGURED);
    return office;
  }

  /** The file's current version as a download plan, refusing anything but office documents. */
  async function officeFile(area: Area, userFileId: number) {
    const plan = await drive.download(area, { userFileId });
    if (plan.kind !== 'file') throw invalid(NOT_OFFICE);
    const ext = splitName(plan.name).extendName.toLowerCase();
    if (!isOffice(ext)) throw invalid(NOT_OFFICE);
    return { plan, ext };
  }

  /** Our signed URL claims, or null (wrong purpose, tampered, expired). */
  function ours(t: string, purpose: 'doc' | 'cb'): Claims | null {
    const claims = verifyJwt(t, urlKey, { requireExp: true });
    return claims && claims.p === purpose ? claims : null;
  }

  function areaFrom(claims: Claims): Area | null {
    const { u, a } = claims;
    if (typeof u !== 'number' || !['personal', 'res', 'hd'].includes(a as string)) return null;
    return areaOf(u, a as FixedAreaKind);
  }

  /** Refuses with HTTP 403 and a message that tells the person what to do. */
  const refused = () => new AppError(ErrorCode.forbidden, LINK_INVALID, 403);

  /** Downloads a save from the Document Server: its origin only, no redirects, capped. */
  async function fetchSave(url: string): Promise<Readable> {
    const ds = requireOffice();
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new Error('save url is not a URL');
    }
    if (target.origin !== ds.origin)
      throw new Error(`save url outside the Document Server: ${target.origin}`);
    const res = await fetchImpl(target, { redirect: 'error', signal: AbortSignal.timeout(SAVE_TIMEOUT_MS) });
    if (!res.ok || !res.body) throw new Error(`save download answered HTTP ${res.status}`);
    const length = Number(res.headers.get('content-length') ?? NaN);
    if (length > OFFICE_SAVE_MAX) throw new Error(`save of ${length} bytes exceeds the limit`);
    return Readable.fromWeb(res.body as WebReadableStream<Uint8Array>);
  }

  return {
    /** Whether the page should open the Document Server's editor, and from where. */
    info(): OfficeConfig {
      return { onlyoffice: Boolean(office), docServiceApiUrl: office?.apiJs ?? null };
    },

    /** A blank docx, xlsx or pptx in an existing folder (spec §3 "New office file"). */
    async create(
      area: Area,
      b: { extendName: BlankType; filePath: string; fileName: string },
    ): Promise<CreatedOfficeFile> {
      const placed = await drive.addFile({
        area,
        filePath: b.filePath,
        fullName: joinName(b.fileName, b.extendName),
        content: await blankDocument(b.extendName),
        requireFolder: true,
      });
      return {
        userFileId: placed.userFileId,
        filePath: placed.filePath,
        fileName: placed.fileName,
        extendName: placed.extendName,
      };
    },

    /**
     * A signed DocEditor config for one file: edit mode when asked and the type can be saved
     * back (docx, xlsx, pptx), else view. Edit mode carries the callback URL.
     */
    async editor(
      area: Area,
      user: Pick<SessionUser, 'id' | 'userName'>,
      userFileId: number,
      want: 'edit' | 'view',
      mobile = false,
    ): Promise<OfficeEditor> {
      const ds = requireOffice();
      // Signed links name only the personal and library areas (areaFrom): not offered in a project.
      if (area.kind === 'project') throw invalid('项目文档暂不支持在线打开，请下载后查看或编辑');
      const { plan, ext } = await officeFile(area, userFileId);
      const mode = want === 'edit' && isEditable(ext) ? 'edit' : 'view';
      const key = documentKey(userFileId, plan.md5, plan.mtime);
      const who = { u: area.userId, a: area.kind, id: userFileId };
      const docToken = signJwt({ p: 'doc', ...who, m: plan.md5 }, urlKey, DOCUMENT_URL_TTL_S);
      const base = `${config.publicUrl}/wangpan/office`;
      const edit = mode === 'edit';
      const unsigned: Omit<DocEditorConfig, 'token'> = {
        type: mobile ? 'mobile' : 'desktop',
        documentType: DOC_TYPE[ext]!,
        document: {
          title: plan.name,
          url: `${base}/document?t=${docToken}`,
          fileType: ext,
          key,
          permissions: {
            edit,
            download: true,
            print: true,
            copy: true,
            comment: edit,
            review: edit,
            fillForms: edit,
            modifyFilter: true,
            modifyContentControl: edit,
          },
        },
        editorConfig: {
          mode,
          lang: 'zh',
          ...(edit
            ? {
                callbackUrl: `${base}/callback?t=${signJwt(
                  { p: 'cb', ...who, k: key, x: ext },
                  urlKey,
                  CALLBACK_URL_TTL_S,
                )}`,
              }
            : {}),
          user: { id: String(user.id), name: user.userName },
          customization: { forcesave: false, zoom: 100, compactHeader: mobile },
        },
      };
      return {
        config: { ...unsigned, token: signJwt(unsigned, ds.jwtSecret, CONFIG_TTL_S) },
        docServiceApiUrl: ds.apiJs,
      };
    },

    /**
     * A save from the browser's own editors (office/savefile; see shared/api/office.ts):
     * OOXML of the file's own type only, through the drive's copy-on-write replace with the
     * quota charged on the difference. The save names the content it was opened from; when the
     * file holds something else by now, the other person's work stays and these bytes become a
     * conflict copy beside it. `asCopy` always makes a new file and leaves the original alone.
     */
    async save(
      area: Area,
      user: Pick<SessionUser, 'id' | 'userName'>,
      q: SaveOfficeQuery,
      bytes: Buffer,
    ): Promise<SavedOfficeFile> {
      if (area.kind === 'project') throw invalid(OFFICE_SAVE_MSG.project);
      if (bytes.length === 0) throw invalid(OFFICE_SAVE_MSG.empty);
      let entry;
      try {
        entry = await drive.detail(area, q.userFileId, false);
      } catch (err) {
        if (err instanceof AppError && err.code === ErrorCode.notFound) throw notFound(OFFICE_SAVE_MSG.gone);
        throw err;
      }
      if (entry.isDir === 1) throw notFound(OFFICE_SAVE_MSG.gone);
      const ext = entry.extendName.toLowerCase();
      if (!isBrowserEditable(ext)) throw invalid(OFFICE_SAVE_MSG.notEditable);
      await assertOoxml(ext, bytes);
      const md5 = createHash('md5').update(bytes).digest('hex');

      const copy = async (fullName: string, conflict: boolean): Promise<SavedOfficeFile> => {
        const placed = await drive.addFile({
          area,
          filePath: entry.filePath,
          fullName,
          content: bytes,
          maxBytes: OFFICE_EDIT_SAVE_MAX,
          requireFolder: true,
        });
        return {
          userFileId: placed.userFileId,
          fileName: placed.fileName,
          extendName: placed.extendName,
          filePath: placed.filePath,
          fileSize: bytes.length,
          md5,
          changed: true,
          conflict,
          copy: !conflict,
        };
      };

      if (q.asCopy === 1) return copy(editCopyName(entry.fileName, entry.extendName), false);
      try {
        const r = await drive.replaceContent(area, entry.userFileId, bytes, {
          editable: isBrowserEditable,
          unchanged: 'ignore',
          maxBytes: OFFICE_EDIT_SAVE_MAX,
          expectMd5: q.baseMd5,
        });
        return {
          userFileId: entry.userFileId,
          fileName: entry.fileName,
          extendName: entry.extendName,
          filePath: entry.filePath,
          fileSize: r.fileSize,
          md5,
          changed: r.changed,
          conflict: false,
          copy: false,
        };
      } catch (err) {
        if (!(err instanceof ContentChanged)) throw err;
        return copy(conflictName(err.file.fileName, err.file.extendName, user.userName, Date.now()), true);
      }
    },

    /** The bytes behind a document URL: the exact version it was signed for, or a refusal. */
    async document(t: string) {
      requireOffice();
      const claims = ours(t, 'doc');
      const area = claims && areaFrom(claims);
      if (!claims || !area || typeof claims.id !== 'number') throw refused();
      let file;
      try {
        file = await officeFile(area, claims.id);
      } catch {
        throw refused();
      }
      // The config's key names this content; anything else would be a different document.
      if (file.plan.md5 !== claims.m) throw refused();
      return file.plan;
    },

    /** One Document Server callback (see the comment at the top of this file). */
    async callback(t: string, body: unknown, authorization: string | undefined): Promise<CallbackAnswer> {
      if (!office) return { httpStatus: 404, error: 1, reason: 'no Document Server configured' };
      const claims = ours(t, 'cb');
      const area = claims && areaFrom(claims);
      if (!claims || !area || typeof claims.id !== 'number') {
        return { httpStatus: 403, error: 1, reason: 'callback url token invalid or expired' };
      }
      const bodyToken =
        body && typeof body === 'object' && typeof (body as { token?: unknown }).token === 'string'
          ? (body as { token: string }).token
          : undefined;
      const headerToken = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
      let signed: unknown;
      if (bodyToken) {
        signed = verifyJwt(bodyToken, office.jwtSecret, { leewaySeconds: DS_LEEWAY_S });
      } else if (headerToken) {
        // The header token wraps the body in `payload` (ONLYOFFICE "token in header").
        signed = verifyJwt(headerToken, office.jwtSecret, { leewaySeconds: DS_LEEWAY_S })?.payload;
      }
      if (!signed) return { httpStatus: 403, error: 1, reason: 'Document Server JWT missing or invalid' };
      const parsed = CallbackClaims.safeParse(signed);
      if (!parsed.success) return { httpStatus: 400, error: 1, reason: 'callback claims malformed' };
      const cb = parsed.data;
      if (cb.key !== claims.k)
        return { httpStatus: 403, error: 1, reason: 'callback for another document key' };
      if (cb.status !== 2 && cb.status !== 6) return { httpStatus: 200, error: 0 };

      if (!cb.url) return { httpStatus: 200, error: 1, reason: 'save without a url' };
      if (cb.filetype && cb.filetype.toLowerCase() !== claims.x) {
        return { httpStatus: 200, error: 1, reason: `save as ${cb.filetype}, file is ${String(claims.x)}` };
      }
      try {
        const bytes = await fetchSave(cb.url);
        await drive.replaceContent(area, claims.id, bytes, {
          editable: isEditable,
          unchanged: 'ignore',
          maxBytes: OFFICE_SAVE_MAX,
        });
        return { httpStatus: 200, error: 0 };
      } catch (err) {
        return { httpStatus: 200, error: 1, reason: err instanceof Error ? err.message : String(err) };
      }
    },
  };
}
export type OfficeService = ReturnType<typeof createOfficeService>;
