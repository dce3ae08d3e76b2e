import type { AreaQuery } from '../../../shared/api/drive';
import { PROJECT_MSG } from '../../../shared/api/project';
import { forbidden, invalid } from '../../errors';
import type { Access } from '../auth/access';
import type { SessionUser } from '../auth/auth.service';

/*
 * Areas of the drive and who may do what in each (README copies this text).
 *
 * - 个人网盘 — space 'u:<userId>', the default. Only its owner sees or changes it. Every id and
 *   path is looked up inside the caller's own space, so another person's item answers exactly
 *   like one that does not exist. The quota applies here and only here.
 * - 其他资源 — space 'res', chosen by fileType=9, isAdmin=1 or isFmt=1 (the spec's download flag
 *   for fileType 9). A museum-wide library: every signed-in member of staff may browse it, search
 *   it, see details and download. Managing it — create folders, rename, move and copy within it,
 *   delete, see and empty its recycle bin, restore, and upload (the upload issue) — needs the
 *   menu grant of the 其他资源管理 page ('resources.otherResourceManagement'). Deleting also needs
 *   isAdmin=1 on the request (spec §5: delete requires isAdmin 1), i.e. it is done from the
 *   management page.
 * - 高清图片 — space 'hd', chosen by isFmt=2. A second museum-wide library with the same reading
 *   rights; managing it (the same list, upload included) needs the grant of the 高清图管理 page
 *   ('resources.hdPicture'). Permanent deletion (deleteMode 2) there deletes and clears the
 *   resulting recycle-bin entry in one step (spec §4).
 * - The shared areas have no quota: their bytes are the museum's, not a person's. Their recycle
 *   bins are listed, restored and emptied by their managers with the same area flags.
 * - 项目文档 — space 'p:<projectId>', chosen by projectId=<id> on the drive's own /wangpan calls
 *   (list, search, details, download, preview, create folder, rename, move and copy within it,
 *   delete, and the chunked upload), so names, paths, conflicts and messages are the drive's.
 *   Rights come from the project (project.service `docRights`): its collaborators and the
 *   project administrators read; changing also needs the project not archived (PROJECT_MSG.archived).
 *   Anyone else hears PROJECT_MSG.projectGone, whether the project exists or not. No quota: the
 *   bytes are the museum's, like 其他资源. Deleting there is permanent (deleteMode 2, the UI asks
 *   first and says it cannot be undone): a project has no recycle bin page, and a bin nobody can
 *   see would keep bytes forever, so deleteMode 1 is refused. Online editing (office) is not
 *   offered there (its signed links name only the personal and library areas).
 * - Nothing crosses areas: copy and move stay inside the area of the request. The one crossing
 *   is POST /singleMuseum/projectFile/moveFromDrive (project.service), which moves items of the
 *   caller's own drive into a project folder and so frees the caller's quota.
 */

export type AreaKind = 'personal' | 'res' | 'hd' | 'project';
/** The areas that need no id beyond the caller's (a project's area is `projectArea`). */
export type FixedAreaKind = Exclude<AreaKind, 'project'>;

/**
 * Whether the caller may see a project's documents: answers whether the project is archived,
 * or throws the project's own "not found" for anyone who is not a collaborator or administrator.
 */
export type ProjectDocRights = (user: SessionUser, projectId: number) => Promise<{ archived: boolean }>;

/** A resolved area: the space every query of the call is scoped by, and whose quota it uses. */
export interface Area {
  space: string;
  kind: AreaKind;
  /** The caller: recorded as creator or deleter of rows. */
  userId: number;
  /** The person whose quota bytes added here count against; null in the shared areas. */
  quotaUserId: number | null;
}

const MANAGE_KEY = { res: 'resources.otherResourceManagement', hd: 'resources.hdPicture' } as const;
const PROJECT_DELETE_FOREVER = '项目文档删除后不可恢复，请确认后彻底删除';
const AREA_NAME = { res: '其他资源', hd: '高清图片' } as const;

/** The space of a person's own drive. */
export function personalSpace(userId: number): string {
  return `u:${userId}`;
}

/** The space of a project's documents. */
export function projectSpace(projectId: number): string {
  return `p:${projectId}`;
}

/** A project's document area as `userId` acts in it, rights aside (the caller checked them). */
export function projectArea(userId: number, projectId: number): Area {
  return { space: projectSpace(projectId), kind: 'project', userId, quotaUserId: null };
}

function kindOf(q: AreaQuery | undefined): AreaKind {
  if (q?.projectId !== undefined) return 'project';
  if (q?.isFmt === 2) return 'hd';
  if (q?.fileType === 9 || q?.isAdmin === 1 || q?.isFmt === 1) return 'res';
  return 'personal';
}

/** The area of `kind` as `userId` acts in it, rights aside (internal callers and tests). */
export function areaOf(userId: number, kind: FixedAreaKind = 'personal'): Area {
  if (kind === 'personal') return { space: personalSpace(userId), kind, userId, quotaUserId: userId };
  return { space: kind, kind, userId, quotaUserId: null };
}

function toArea(user: SessionUser, kind: FixedAreaKind): Area {
  return areaOf(user.id, kind);
}

/** Resolves a request's area flags against the caller's rights. */
export function createAreas(access: Access, projectDocs?: ProjectDocRights) {
  /** A project's documents: read by its people; `write` also needs it not archived. */
  async function project(user: SessionUser, projectId: number, write: boolean): Promise<Area> {
    if (!projectDocs) throw invalid('暂不支持项目文档');
    const { archived } = await projectDocs(user, projectId);
    if (write && archived) throw invalid(PROJECT_MSG.archived);
    return projectArea(user.id, projectId);
  }

  async function manage(user: SessionUser, q: AreaQuery | undefined): Promise<Area> {
    const kind = kindOf(q);
    if (kind === 'project') return project(user, q!.projectId!, true);
    if (kind !== 'personal' && !(await access.can(user, MANAGE_KEY[kind]))) {
      throw forbidden(`无权限管理${AREA_NAME[kind]}，请联系管理员开通`);
    }
    return toArea(user, kind);
  }

  return {
    /** For browsing, search, details and download: any signed-in person, in any area but a project's. */
    async read(user: SessionUser, q: AreaQuery | undefined): Promise<Area> {
      const kind = kindOf(q);
      if (kind === 'project') return project(user, q!.projectId!, false);
      return toArea(user, kind);
    },
    /** For changes: the owner in the personal drive, the page's grant in a shared area. */
    manage,
    /** Whether the caller manages the area (and so may see its recycle bin). */
    async mayManage(user: SessionUser, q: AreaQuery | undefined): Promise<boolean> {
      const kind = kindOf(q);
      if (kind === 'project') return false; // no recycle bin there (deletes are permanent)
      return kind === 'personal' || (await access.can(user, MANAGE_KEY[kind]));
    },
    /**
     * For deleting: as `manage`, in 其他资源 only from the management view (isAdmin=1), and in
     * a project only permanently (`deleteMode` 2; bin calls name no mode and are refused there).
     */
    async remove(user: SessionUser, q: (AreaQuery & { deleteMode?: number }) | undefined): Promise<Area> {
      const area = await manage(user, q);
      if (area.kind === 'project' && q?.deleteMode !== 2) throw invalid(PROJECT_DELETE_FOREVER);
      if (area.kind === 'res' && q?.isAdmin !== 1) {
        throw forbidden('删除其他资源需在其他资源管理页面操作');
      }
      return area;
    },
  };
}
export type Areas = ReturnType<typeof createAreas>;
