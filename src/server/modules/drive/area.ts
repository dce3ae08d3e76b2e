import type { AreaQuery } from '../../../shared/api/drive';
import { forbidden } from '../../errors';
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
 * - Nothing crosses areas: copy and move stay inside the area of the request.
 */

export type AreaKind = 'personal' | 'res' | 'hd';

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
const AREA_NAME = { res: '其他资源', hd: '高清图片' } as const;

/** The space of a person's own drive. */
export function personalSpace(userId: number): string {
  return `u:${userId}`;
}

function kindOf(q: AreaQuery | undefined): AreaKind {
  if (q?.isFmt === 2) return 'hd';
  if (q?.fileType === 9 || q?.isAdmin === 1 || q?.isFmt === 1) return 'res';
  return 'personal';
}

/** The area of `kind` as `userId` acts in it, rights aside (internal callers and tests). */
export function areaOf(userId: number, kind: AreaKind = 'personal'): Area {
  if (kind === 'personal') return { space: personalSpace(userId), kind, userId, quotaUserId: userId };
  return { space: kind, kind, userId, quotaUserId: null };
}

function toArea(user: SessionUser, kind: AreaKind): Area {
  return areaOf(user.id, kind);
}

/** Resolves a request's area flags against the caller's rights. */
export function createAreas(access: Access) {
  async function manage(user: SessionUser, q: AreaQuery | undefined): Promise<Area> {
    const kind = kindOf(q);
    if (kind !== 'personal' && !(await access.can(user, MANAGE_KEY[kind]))) {
      throw forbidden(`无权限管理${AREA_NAME[kind]}，请联系管理员开通`);
    }
    return toArea(user, kind);
  }

  return {
    /** For browsing, search, details and download: any signed-in person, in any area. */
    read(user: SessionUser, q: AreaQuery | undefined): Area {
      return toArea(user, kindOf(q));
    },
    /** For changes: the owner in the personal drive, the page's grant in a shared area. */
    manage,
    /** Whether the caller manages the area (and so may see its recycle bin). */
    async mayManage(user: SessionUser, q: AreaQuery | undefined): Promise<boolean> {
      const kind = kindOf(q);
      return kind === 'personal' || (await access.can(user, MANAGE_KEY[kind]));
    },
    /** For deleting: as `manage`, and in 其他资源 only from the management view (isAdmin=1). */
    async remove(user: SessionUser, q: AreaQuery | undefined): Promise<Area> {
      const area = await manage(user, q);
      if (area.kind === 'res' && q?.isAdmin !== 1) {
        throw forbidden('删除其他资源需在其他资源管理页面操作');
      }
      return area;
    },
  };
}
export type Areas = ReturnType<typeof createAreas>;
