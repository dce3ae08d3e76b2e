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

/**
 * Characters that make a name look like something it is not (issue 16 §3). A right-to-left
 * override turns `evil\u202Etxt.exe` into what reads as `evilexe.txt` in every list, share page
 * and download dialog; zero-width characters make two names that look identical, or hide a
 * word inside one. No person types these on purpose, so new names refuse them:
 *
 * - `\p{Cf}`, Unicode's format characters: the bidirectional controls (U+061C, U+200E, U+200F,
 *   U+202A–U+202E, U+2066–U+2069), the zero-width ones (U+200B–U+200D, U+2060–U+2064, U+FEFF),
 *   the soft hyphen U+00AD, interlinear annotation and tag characters. This includes U+200D
 *   (ZWJ), so emoji sequences joined by it (👨‍👩‍👧) are refused too; single emoji and their
 *   variation selectors (❤️, which are not Cf) stay fine. One exception: U+180E, the
 *   Mongolian vowel separator, is part of traditional Mongolian spelling (museums in Inner
 *   Mongolia name files in it) and cannot reorder text.
 * - C1 controls U+0080–U+009F and lone surrogates (`\p{Cs}`; a proper pair is one code point
 *   and never matches), which no keyboard produces.
 * - The line and paragraph separators U+2028 and U+2029, and the Hangul fillers U+115F,
 *   U+1160, U+3164, U+FFA0, which render as nothing.
 */
const SPOOF = /[\p{Cf}\p{Cs}\u0080-\u009f\u2028\u2029\u115f\u1160\u3164\uffa0]/u;
const SPOOF_ALL = new RegExp(SPOOF.source, 'gu');
const MONGOLIAN_VOWEL_SEPARATOR = '\u180e';

/** True when `text` holds a character of SPOOF (see above). */
export function hasSpoofingChars(text: string): boolean {
  return SPOOF.test(text.replaceAll(MONGOLIAN_VOWEL_SEPARATOR, ''));
}

/** `text` with every SPOOF character replaced by `by` (archives' entry names, see archive-names.ts). */
export function replaceSpoofingChars(text: string, by: string): string {
  return text.replace(SPOOF_ALL, (c) => (c === MONGOLIAN_VOWEL_SEPARATOR ? c : by));
}

/**
 * The words for a text that holds SPOOF characters, or null. Used for every name a person
 * gives (drive, archives, attachments) and for share remarks, which visitors read.
 */
export function spoofProblem(text: string, what: string): string | null {
  return hasSpoofingChars(text) ? `${what}不能包含不可见字符或文字方向控制字符，请删除后重试` : null;
}

/**
 * Windows cannot store these names (nor extract a zip holding them): the device names CON,
 * PRN, AUX, NUL, COM0–COM9, LPT0–LPT9 and COM¹²³/LPT¹²³, in any case and with any extension
 * (`aux.txt`, `NUL.tar.gz` are the device too), and names ending in a dot or a space.
 * Decision (README "The drive", names): new names refuse them, so what a person creates always
 * downloads and extracts on the museum's Windows PCs; rows from before this rule, and
 * archives, are made safe where they leave the drive (windowsSafeName, windowsSafePaths).
 */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])$/i;

/** The device-name part of a name: what comes before its first dot, without trailing spaces. */
function deviceStem(name: string): string {
  const dot = name.indexOf('.');
  return (dot < 0 ? name : name.slice(0, dot)).trimEnd();
}

/** Why Windows cannot store `name` (see WINDOWS_DEVICE), in the user's words, or null. */
export function windowsProblem(name: string, what: string): string | null {
  const stem = deviceStem(name);
  if (WINDOWS_DEVICE.test(stem)) {
    return `“${stem}”是 Windows 的保留名称（CON、PRN、AUX、NUL、COM0–COM9、LPT0–LPT9），Windows 电脑无法保存，请换一个${what}`;
  }
  if (/[. ]$/.test(name)) return `${what}不能以“.”或空格结尾（Windows 电脑无法保存），请修改`;
  return null;
}

/**
 * `name` as Windows can store it: trailing dots and spaces each become `_` (`a.` → `a_`), and a
 * device stem gets `_` after it (`CON` → `CON_`, `aux.txt` → `aux_.txt`). Anything else is
 * returned unchanged.
 */
export function windowsSafeName(name: string): string {
  let safe = name.replace(/[. ]+$/, (m) => '_'.repeat(m.length));
  const stem = deviceStem(safe);
  if (WINDOWS_DEVICE.test(stem)) safe = `${stem}_${safe.slice(stem.length)}`;
  return safe;
}

/**
 * The entry paths of a zip (`a/b/c.txt`, folders ending in `/`) with every segment made
 * Windows-safe (windowsSafeName), for the drive's zip downloads: rows made before the rule
 * above may hold `CON` or `aux.txt`, and Windows' extractor stops at them. A renamed folder
 * renames every entry under it the same way. A renamed segment never takes a path another
 * entry has (compared without case, as Windows does): `CON_` when free, else `CON_(1)`,
 * `CON_(2)`… keeping a file's extension. Other segments are left exactly as they are.
 */
export function windowsSafePaths(paths: readonly string[]): string[] {
  const key = (p: string) => p.toLowerCase();
  const used = new Set(paths.map((p) => key(p.replace(/\/$/, ''))));
  const renamed = new Map<string, string>();
  return paths.map((p) => {
    const isDir = p.endsWith('/');
    const segs = (isDir ? p.slice(0, -1) : p).split('/');
    let orig = '';
    let safe = '';
    segs.forEach((seg, i) => {
      // Clashes are looked up under the original parent: all its entries share one safe parent.
      const origParent = orig ? `${orig}/` : '';
      const parent = safe ? `${safe}/` : '';
      orig = origParent + seg;
      const known = renamed.get(orig);
      if (known !== undefined) {
        safe = known;
        return;
      }
      const want = windowsSafeName(seg);
      let name = want;
      if (want !== seg) {
        const leafFile = i === segs.length - 1 && !isDir;
        const { fileName, extendName } = leafFile ? splitName(want) : { fileName: want, extendName: '' };
        for (let n = 1; used.has(key(origParent + name)); n++)
          name = joinName(`${fileName}(${n})`, extendName);
        used.add(key(origParent + name));
      }
      safe = parent + name;
      renamed.set(orig, safe);
    });
    return isDir ? `${safe}/` : safe;
  });
}

/**
 * The structural rule every stored name meets: not empty, at most 255 characters, none of the
 * forbidden characters or C0 controls, not `.` or `..`, no spaces around it. Paths of existing
 * folders are checked with this alone (pathProblem), so a folder made before the stricter
 * rules of nameProblem still opens, lists and takes uploads.
 */
function shapeProblem(name: string, what: string): string | null {
  if (name.trim() === '') return what === '文件夹名称' ? '请输入文件夹名称' : '请输入文件名称';
  if (name.length > NAME_MAX) return `${what}不能超过 ${NAME_MAX} 个字符`;
  if (FORBIDDEN_CHARS.some((c) => name.includes(c))) return `${what}不能包含以下字符：\\ / : * ? " < > |`;
  if (CONTROL.test(name)) return `${what}不能包含控制字符`;
  if (name.trim() === '.' || name.trim() === '..') return `${what}不能是 . 或 ..`;
  if (name !== name.trim()) return `${what}首尾不能有空格`;
  return null;
}

/**
 * Why a new file or folder name is not acceptable, in the user's words, or null when it is
 * fine: no spoofing characters (spoofProblem; first, because `trim` takes U+FEFF and U+2028 for
 * spaces and would give a misleading reason), the structural rule, then nothing Windows cannot
 * store (windowsProblem). Client and server call this same function.
 */
export function nameProblem(name: string, what: '文件夹名称' | '文件名称' = '文件名称'): string | null {
  return spoofProblem(name, what) ?? shapeProblem(name, what) ?? windowsProblem(name, what);
}

/**
 * Why a path of existing folders is not acceptable, or null. Every segment must meet the
 * structural rule (shapeProblem); new folders made from a path are checked with nameProblem
 * where they are made (upload's relativePath, the drive's ensureFolders).
 */
export function pathProblem(path: string): string | null {
  if (!path.startsWith('/') || !path.endsWith('/')) return '路径格式不正确';
  if (path === ROOT) return null;
  if (path.length > 4096) return '路径过长';
  for (const seg of path.slice(1, -1).split('/')) {
    if (shapeProblem(seg, '文件夹名称')) return '路径包含不合法的文件夹名称';
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
