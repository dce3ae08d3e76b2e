import { useRouterState } from '@tanstack/react-router';
import { useMemo } from 'react';
import type { AreaQuery } from '../../../shared/api/drive';
import type { MenuContext } from '../../../shared/drive/menu-rules';
import { ROOT, pathProblem } from '../../../shared/drive/names';
import { tDrive } from '../../lib/i18n/drive';

/**
 * Which drive view a URL shows (spec/drive.md §2, office.md §2): the catalogue routes of the
 * 数字资源 module, read with their query (fileType, filePath, isAdmin, isFmt).
 *
 * | route                                     | area | list                      | rights          |
 * |-------------------------------------------|------|---------------------------|-----------------|
 * | /resources/net-disk?fileType=0..5         | own  | folder (0) or category    | owner           |
 * | /resources/collection-depot?fileType=6    | own  | recycle bin               | owner           |
 * | /resources/other-resource?fileType=9      | res  | folder                    | browse/download |
 * | /resources/other-resource-management      | res  | folder (isAdmin=1)        | manage, delete  |
 * | /resources/hd-picture-management?isFmt=2  | hd   | folder                    | manage, delete  |
 *
 * The shared libraries delete permanently (spec §4: deleteMode 2 in the fileType 9
 * administrator view; the 高清图 area purges its bin entries in the same step).
 */
export type AreaKey = 'own' | 'res' | 'hd';
export type ListKind = 'folder' | 'category' | 'recycle';

export interface DriveView {
  route: string;
  title: string;
  area: AreaKey;
  /** The flags every call of this view carries (the server resolves the area from them). */
  areaQuery: AreaQuery;
  kind: ListKind;
  /** The screen's fileType: 0 folder, 1–5 category, 6 bin, 9 library. */
  fileType: number;
  filePath: string;
  /** May create, rename, move, copy and delete here. */
  manage: boolean;
  /** Deletes go straight to permanent deletion (libraries). */
  deleteForever: boolean;
  menu: MenuContext;
  /** Category tabs are offered (the personal drive only). */
  categories: boolean;
}

export const DRIVE_ROUTES = {
  netDisk: '/resources/net-disk',
  recycle: '/resources/collection-depot',
  resource: '/resources/other-resource',
  resourceAdmin: '/resources/other-resource-management',
  hd: '/resources/hd-picture-management',
} as const;

function folderPathOf(raw: string | undefined): string {
  if (!raw) return ROOT;
  const path = raw.endsWith('/') ? raw : `${raw}/`;
  // A hand-edited or stale address falls back to the root instead of a failing call.
  return pathProblem(path) ? ROOT : path;
}

export function viewOf(pathname: string, search: Record<string, string | undefined>): DriveView {
  const filePath = folderPathOf(search.filePath);
  const titles = tDrive.titles;
  switch (pathname) {
    case DRIVE_ROUTES.recycle:
      return {
        route: pathname,
        title: titles.recycle,
        area: 'own',
        areaQuery: {},
        kind: 'recycle',
        fileType: 6,
        filePath: ROOT,
        manage: true,
        deleteForever: true,
        menu: { fileType: 6 },
        categories: false,
      };
    case DRIVE_ROUTES.resource:
      return {
        route: pathname,
        title: titles.resource,
        area: 'res',
        areaQuery: { fileType: 9 },
        kind: 'folder',
        fileType: 9,
        filePath,
        manage: false,
        deleteForever: true,
        menu: { fileType: 9, isAdmin: 0 },
        categories: false,
      };
    case DRIVE_ROUTES.resourceAdmin:
      return {
        route: pathname,
        title: titles.resourceAdmin,
        area: 'res',
        areaQuery: { fileType: 9, isAdmin: 1 },
        kind: 'folder',
        fileType: 9,
        filePath,
        manage: true,
        deleteForever: true,
        menu: { fileType: 9, isAdmin: 1 },
        categories: false,
      };
    case DRIVE_ROUTES.hd:
      return {
        route: pathname,
        title: titles.hd,
        area: 'hd',
        areaQuery: { isFmt: 2 },
        kind: 'folder',
        fileType: 9,
        filePath,
        manage: true,
        deleteForever: true,
        // The 高清图 area is a management page: the fileType 9 administrator menu.
        menu: { fileType: 9, isAdmin: 1 },
        categories: false,
      };
    default: {
      const n = Number(search.fileType ?? 0);
      const fileType = Number.isInteger(n) && n >= 0 && n <= 5 ? n : 0;
      return {
        route: DRIVE_ROUTES.netDisk,
        title: titles.netDisk,
        area: 'own',
        areaQuery: {},
        kind: fileType === 0 ? 'folder' : 'category',
        fileType,
        filePath: fileType === 0 ? filePath : ROOT,
        manage: true,
        deleteForever: false,
        menu: { fileType },
        categories: true,
      };
    }
  }
}

/** The search of a view's route with another folder (or category) chosen. */
export function searchFor(view: DriveView, change: { filePath?: string; fileType?: number }) {
  const base: Record<string, string> = {};
  if (view.route === DRIVE_ROUTES.netDisk) base.fileType = String(change.fileType ?? view.fileType);
  if (view.route === DRIVE_ROUTES.recycle) base.fileType = '6';
  if (view.route === DRIVE_ROUTES.resource) base.fileType = '9';
  if (view.route === DRIVE_ROUTES.resourceAdmin) base.isAdmin = '1';
  if (view.route === DRIVE_ROUTES.hd) base.isFmt = '2';
  const filePath = change.filePath ?? (change.fileType !== undefined ? ROOT : view.filePath);
  if (base.fileType === undefined || base.fileType === '0' || base.fileType === '9') base.filePath = filePath;
  return base;
}

/** The view of the current address; a stable object while the address stays the same. */
export function useDriveView(): DriveView {
  const href = useRouterState({ select: (s) => s.location.href });
  return useMemo(() => {
    const url = new URL(href, 'http://x');
    return viewOf(url.pathname.replace(/\/$/, ''), Object.fromEntries(url.searchParams));
  }, [href]);
}
