import { describe, expect, it } from 'vitest';
import {
  batchActions,
  blankMenuItems,
  fileMenuItems,
  showsFileItem,
  type FileMenuItem,
  type MenuContext,
  type MenuTarget,
} from './menu-rules';

/**
 * spec/drive.md §5 "Context-menu rules (file menu)", row by row, for every fileType the list
 * screen knows, on the drive routes and on the Share route.
 */
const FILE_TYPES = [0, 1, 2, 3, 4, 5, 6, 7, 8] as const;
const file: MenuTarget = { extendName: 'txt', isDir: 0 };
const zip: MenuTarget = { extendName: 'zip', isDir: 0 };
const folder: MenuTarget = { extendName: '', isDir: 1 };

function shown(item: FileMenuItem, ctx: MenuContext, target: MenuTarget = file) {
  return showsFileItem(item, ctx, target);
}

describe('file menu: the spec table', () => {
  it.each(FILE_TYPES)('view is hidden only for fileType 6 (fileType %i)', (fileType) => {
    expect(shown('view', { fileType })).toBe(fileType !== 6);
  });

  it.each(FILE_TYPES)('delete is hidden for fileType 8 and on Share (fileType %i)', (fileType) => {
    expect(shown('delete', { fileType })).toBe(fileType !== 8);
    expect(shown('delete', { fileType, shareRoute: true })).toBe(false);
  });

  it.each(FILE_TYPES)('restore only for fileType 6, not on Share (fileType %i)', (fileType) => {
    expect(shown('restore', { fileType })).toBe(fileType === 6);
    expect(shown('restore', { fileType, shareRoute: true })).toBe(false);
  });

  it.each(FILE_TYPES)('copy, move, rename, share hidden for 6, 8 and Share (fileType %i)', (fileType) => {
    for (const item of ['copy', 'move', 'rename', 'share'] as const) {
      expect(shown(item, { fileType })).toBe(fileType !== 6 && fileType !== 8);
      expect(shown(item, { fileType, shareRoute: true })).toBe(false);
    }
  });

  it.each(FILE_TYPES)('download hidden for 6 and 8 only, Share included (fileType %i)', (fileType) => {
    expect(shown('download', { fileType })).toBe(fileType !== 6 && fileType !== 8);
    expect(shown('download', { fileType, shareRoute: true })).toBe(fileType !== 6 && fileType !== 8);
  });

  it.each(FILE_TYPES)('unzip only for archives, not for 6, 8 or Share (fileType %i)', (fileType) => {
    for (const ext of ['zip', 'rar', '7z', 'tar', 'gz', 'tgz', 'ZIP']) {
      expect(shown('unzip', { fileType }, { extendName: ext, isDir: 0 })).toBe(
        fileType !== 6 && fileType !== 8,
      );
      expect(shown('unzip', { fileType, shareRoute: true }, { extendName: ext, isDir: 0 })).toBe(false);
    }
    for (const ext of ['txt', 'docx', 'bz2', '']) {
      expect(shown('unzip', { fileType }, { extendName: ext, isDir: 0 })).toBe(false);
    }
    expect(shown('unzip', { fileType }, folder)).toBe(false);
  });

  it.each(FILE_TYPES)('copy link only for fileType 8 (fileType %i)', (fileType) => {
    expect(shown('copyLink', { fileType })).toBe(fileType === 8);
  });

  it.each(FILE_TYPES)('file detail always (fileType %i)', (fileType) => {
    expect(shown('detail', { fileType })).toBe(true);
    expect(shown('detail', { fileType, shareRoute: true })).toBe(true);
  });
});

describe('file menu: fileType 9 (shared libraries)', () => {
  it('leaves download and detail for everyone', () => {
    expect(fileMenuItems({ fileType: 9 }, file)).toEqual(['download', 'detail']);
    expect(fileMenuItems({ fileType: 9, isAdmin: 0 }, folder)).toEqual(['download', 'detail']);
  });

  it('adds delete for isAdmin 1 only', () => {
    expect(fileMenuItems({ fileType: 9, isAdmin: 1 }, file)).toEqual(['download', 'delete', 'detail']);
    expect(fileMenuItems({ fileType: 9, isAdmin: 1 }, zip)).toEqual(['download', 'delete', 'detail']);
  });
});

describe('file menu: whole menus in display order', () => {
  it('all files (0) for a file, an archive and a folder', () => {
    expect(fileMenuItems({ fileType: 0 }, file)).toEqual([
      'view',
      'download',
      'share',
      'copy',
      'move',
      'toProject',
      'rename',
      'delete',
      'detail',
    ]);
    expect(fileMenuItems({ fileType: 0 }, zip)).toContain('unzip');
    expect(fileMenuItems({ fileType: 0 }, folder)).not.toContain('unzip');
  });

  it('recycle bin (6)', () => {
    expect(fileMenuItems({ fileType: 6 }, file)).toEqual(['restore', 'delete', 'detail']);
  });

  it('my shares (8)', () => {
    expect(fileMenuItems({ fileType: 8 }, file)).toEqual(['view', 'copyLink', 'detail']);
  });

  it('share route', () => {
    expect(fileMenuItems({ fileType: 0, shareRoute: true }, zip)).toEqual(['view', 'download', 'detail']);
  });
});

describe('blank-space menu', () => {
  it('creates and uploads in the folder view and a library admin view', () => {
    expect(blankMenuItems({ fileType: 0 })).toEqual(['newFolder', 'newFile', 'upload', 'refresh']);
    expect(blankMenuItems({ fileType: 9, isAdmin: 1 })).toEqual([
      'newFolder',
      'newFile',
      'upload',
      'refresh',
    ]);
  });

  it('only refreshes elsewhere', () => {
    for (const ctx of [
      { fileType: 1 },
      { fileType: 3 },
      { fileType: 6 },
      { fileType: 8 },
      { fileType: 9 },
      { fileType: 9, isAdmin: 0 },
      { fileType: 0, shareRoute: true },
    ])
      expect(blankMenuItems(ctx)).toEqual(['refresh']);
  });
});

describe('移动到项目 (toProject)', () => {
  it('is offered in my own drive only, never in the bin, shares, libraries or a share page', () => {
    for (const fileType of [0, 1, 2, 3, 4, 5])
      expect(showsFileItem('toProject', { fileType }, file)).toBe(true);
    for (const fileType of [6, 8, 9]) expect(showsFileItem('toProject', { fileType }, file)).toBe(false);
    expect(showsFileItem('toProject', { fileType: 9, isAdmin: 1 }, folder)).toBe(false);
    expect(showsFileItem('toProject', { fileType: 0, shareRoute: true }, file)).toBe(false);
  });
});

describe('batch actions', () => {
  it('offers what every selected item allows', () => {
    expect(batchActions({ fileType: 0 }, [file, folder])).toEqual([
      'download',
      'share',
      'copy',
      'move',
      'toProject',
      'delete',
    ]);
    expect(batchActions({ fileType: 8 }, [file, folder])).toEqual([]);
    expect(batchActions({ fileType: 0, shareRoute: true }, [file, folder])).toEqual(['download']);
    expect(batchActions({ fileType: 6 }, [file, folder])).toEqual(['restore', 'delete']);
    expect(batchActions({ fileType: 9 }, [file])).toEqual(['download']);
    expect(batchActions({ fileType: 9, isAdmin: 1 }, [file])).toEqual(['download', 'delete']);
    expect(batchActions({ fileType: 0 }, [])).toEqual([]);
  });
});
