import { isArchive } from './file-types';

/**
 * Which entries the drive's right-click menus show (spec/drive.md §5 "Context-menu rules",
 * §2 "Right-click menu on blank space", §6 roles), as pure functions so the table is tested
 * once here and the UI only draws what they answer.
 *
 * | Item                         | Shown when                                            |
 * |------------------------------|-------------------------------------------------------|
 * | view                         | hidden for fileType 6                                 |
 * | delete                       | hidden for fileType 8 and on the Share route          |
 * | restore                      | only fileType 6, not on Share                         |
 * | copy, move, rename, share    | hidden for fileType 6 and 8 and on Share              |
 * | toProject (移动到项目)        | only the personal drive (fileType 0–5), not on Share  |
 * | download                     | hidden for fileType 6 and 8                           |
 * | unzip                        | only zip, rar, 7z, tar, gz (+tgz); not 6, 8 or Share  |
 * | copy link                    | only fileType 8                                       |
 * | file detail                  | always                                                |
 *
 * For fileType 9 (其他资源 / 高清图片) most actions are hidden, leaving download and delete;
 * delete there requires isAdmin = 1.
 */

export type FileMenuItem =
  | 'view'
  | 'download'
  | 'copy'
  | 'move'
  | 'toProject'
  | 'rename'
  | 'share'
  | 'unzip'
  | 'delete'
  | 'restore'
  | 'copyLink'
  | 'detail';

/** The order the items appear in, top to bottom. */
export const FILE_MENU_ORDER: readonly FileMenuItem[] = [
  'view',
  'download',
  'share',
  'copyLink',
  'copy',
  'move',
  'toProject',
  'rename',
  'unzip',
  'restore',
  'delete',
  'detail',
];

export interface MenuContext {
  /** The list screen's fileType (0 or absent: all files; 1–5 categories; 6 bin; 8 shares; 9 libraries). */
  fileType: number;
  /** 1 in the administrator view of a shared library. */
  isAdmin?: number;
  /** True on the public share page (/share/:shareBatchNum). */
  shareRoute?: boolean;
}

export interface MenuTarget {
  extendName: string;
  isDir: 0 | 1;
}

const RECYCLE = 6;
const SHARES = 8;
const LIBRARY = 9;

/** Whether one entry of the file menu shows for this item in this view. */
export function showsFileItem(item: FileMenuItem, ctx: MenuContext, target: MenuTarget): boolean {
  const { fileType, shareRoute = false } = ctx;
  const admin = ctx.isAdmin === 1;
  if (fileType === LIBRARY) {
    // "Most actions are hidden, leaving download and delete; delete requires isAdmin 1."
    if (item === 'download' || item === 'detail') return true;
    if (item === 'delete') return admin && !shareRoute;
    return false;
  }
  switch (item) {
    case 'view':
      return fileType !== RECYCLE;
    case 'delete':
      return fileType !== SHARES && !shareRoute;
    case 'restore':
      return fileType === RECYCLE && !shareRoute;
    case 'copy':
    case 'move':
    case 'rename':
    case 'share':
      return fileType !== RECYCLE && fileType !== SHARES && !shareRoute;
    case 'download':
      return fileType !== RECYCLE && fileType !== SHARES;
    case 'unzip':
      return (
        target.isDir === 0 &&
        isArchive(target.extendName) &&
        fileType !== RECYCLE &&
        fileType !== SHARES &&
        !shareRoute
      );
    case 'toProject':
      // Out of my own drive into a project's documents (the libraries' bytes are not mine to move).
      return fileType >= 0 && fileType <= 5 && !shareRoute;
    case 'copyLink':
      return fileType === SHARES;
    case 'detail':
      return true;
  }
}

/** The file menu's entries for this item in this view, in display order. */
export function fileMenuItems(ctx: MenuContext, target: MenuTarget): FileMenuItem[] {
  return FILE_MENU_ORDER.filter((item) => showsFileItem(item, ctx, target));
}

export type BlankMenuItem = 'newFolder' | 'newFile' | 'upload' | 'refresh';

/**
 * The blank-space menu: creating (新建文件夹, and 新建文件 for office documents) and uploading
 * where there is a folder the user may add to (their own drive's folder view, a library's
 * administrator view), and refreshing everywhere.
 * The category views (1–5) have no folder to add to; the bin, the shares list, the share page
 * and a library's read-only view only refresh.
 */
export function blankMenuItems(ctx: MenuContext): BlankMenuItem[] {
  const canAdd = !ctx.shareRoute && (ctx.fileType === 0 || (ctx.fileType === LIBRARY && ctx.isAdmin === 1));
  return canAdd ? ['newFolder', 'newFile', 'upload', 'refresh'] : ['refresh'];
}

/**
 * The batch actions offered for a multi-selection: the menu's batchable entries that every
 * selected item allows (batch move, delete and download; restore in the bin; one share link
 * for several items).
 */
export type BatchAction = 'download' | 'share' | 'copy' | 'move' | 'toProject' | 'delete' | 'restore';
const BATCHABLE: readonly BatchAction[] = [
  'download',
  'share',
  'copy',
  'move',
  'toProject',
  'restore',
  'delete',
];

export function batchActions(ctx: MenuContext, targets: readonly MenuTarget[]): BatchAction[] {
  if (targets.length === 0) return [];
  return BATCHABLE.filter((a) => targets.every((t) => showsFileItem(a, ctx, t)));
}
