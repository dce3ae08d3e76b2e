/**
 * Names and paths in the drive (spec/drive.md §2, §5, §9; ARCHITECTURE.md §6).
 *
 * A folder path always starts and ends with '/', the root is '/'. An item's `filePath` is the
 * path of the folder that holds it. A folder's own path is `filePath + fileName + '/'`.
 * Names live only in the database; no name ever becomes a disk path.
 */

export const ROOT = '/';
export const NAME_MAX = 255;
export const FORBIDDEN_CHARS = ['\\', '/', ':', '*', '?', '"', '<', '>', '|'] as const;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Why a file or folder name is not acceptable, in the user's words, or null when it is fine. */
export function nameProblem(name: string, what: '文件夹名称' | '文件名称' = '文件名称'): string | null {
  if (name.trim() === '') return what === '文件夹名称' ? '请输入文件夹名称' : '请输入文件名称';
  if (name.length > NAME_MAX) return `${what}不能超过 ${NAME_MAX} 个字符`;
  if (FORBIDDEN_CHARS.some((c) => name.includes(c))) return `${what}不能包含以下字符：\\ / : * ? " < > |`;
  if (CONTROL.test(name)) return `${what}不能包含控制字符`;
  if (name.trim() === '.' || name.trim() === '..') return `${what}不能是 . 或 ..`;
  if (name !== name.trim()) return `${what}首尾不能有空格`;
  return null;
}

/** Why a folder path is not acceptable, or null. Every segment must be a valid name. */
export function pathProblem(path: string): string | null {
  if (!path.startsWith('/') || !path.endsWith('/')) return '路径格式不正确';
  if (path === ROOT) return null;
  if (path.length > 4096) return '路径过长';
  for (const seg of path.slice(1, -1).split('/')) {
    if (nameProblem(seg, '文件夹名称')) return '路径包含不合法的文件夹名称';
  }
  return null;
}

/** Splits a full name into the spec's fileName and extendName: `a.tar.gz` → `a.tar` + `gz`; `.env` has none. */
export function splitName(full: string): { fileName: string; extendName: string } {
  const dot = full.lastIndexOf('.');
  if (dot <= 0 || dot === full.length - 1) return { fileName: full, extendName: '' };
  return { fileName: full.slice(0, dot), extendName: full.slice(dot + 1) };
}

export function joinName(fileName: string, extendName: string): string {
  return extendName ? `${fileName}.${extendName}` : fileName;
}

/** The path of a folder item: its parent path plus its name and a slash. */
export function folderPath(filePath: string, fileName: string): string {
  return `${filePath}${fileName}/`;
}

/** The parent path of a folder path: `/a/b/` → `/a/`; the root's parent is the root. */
export function parentPath(path: string): string {
  if (path === ROOT) return ROOT;
  const i = path.lastIndexOf('/', path.length - 2);
  return path.slice(0, i + 1);
}

/** The breadcrumb of a folder path: [{name:'全部文件', path:'/'}, {name:'a', path:'/a/'}, …]. */
export function breadcrumb(path: string): { name: string; path: string }[] {
  const crumbs = [{ name: '全部文件', path: ROOT }];
  let acc = ROOT;
  for (const seg of path.split('/').filter(Boolean)) {
    acc += `${seg}/`;
    crumbs.push({ name: seg, path: acc });
  }
  return crumbs;
}

/**
 * The first free name under the collision rule: `name`, then `name(1)`, `name(2)`… keeping the
 * extension. `taken` holds the full names already used in the target folder.
 */
export function freeName(fileName: string, extendName: string, taken: ReadonlySet<string>): string {
  if (!taken.has(joinName(fileName, extendName))) return fileName;
  for (let i = 1; ; i++) {
    const candidate = `${fileName}(${i})`;
    if (!taken.has(joinName(candidate, extendName))) return candidate;
  }
}

/** True when `target` is `folder` itself or lies inside it (moving a folder there would nest it in itself). */
export function isSelfOrInside(folder: string, target: string): boolean {
  return target.startsWith(folder);
}

/**
 * The items of a selection that are not inside another selected folder: those travel with
 * their folder (move, copy, delete, share and save all treat them so). `folderOf` is an item's
 * own path when it is a folder (ending in '/'), else null; `parentOf` is the folder it is in.
 */
export function topLevel<T>(
  items: readonly T[],
  folderOf: (item: T) => string | null,
  parentOf: (item: T) => string,
): T[] {
  const folders = items.map(folderOf).filter((f): f is string => f !== null);
  return items.filter((item) => !folders.some((f) => isSelfOrInside(f, parentOf(item))));
}
