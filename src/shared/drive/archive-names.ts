import {
  FORBIDDEN_CHARS,
  NAME_MAX,
  joinName,
  replaceSpoofingChars,
  splitName,
  windowsSafeName,
} from './names';

/**
 * Entry names inside archives (issue 6 "Safety"; ARCHITECTURE.md §6). Entries never become
 * disk paths in the drive: they become rows. Still, an entry that tries to leave its target is
 * a sign of a malicious archive, so the whole archive is refused rather than silently
 * "repaired": `..` segments, absolute paths (`/x`), drive letters (`C:`), backslashes and NUL.
 * `.` and empty segments (`a//b`, `./a`) are harmless and dropped.
 */

export type EntryPath = { ok: true; segments: string[] } | { ok: false };

// eslint-disable-next-line no-control-regex
const NUL = /\u0000/;

/** The segments of an entry path, or `ok: false` when it is unsafe (see above). */
export function entrySegments(raw: string): EntryPath {
  if (NUL.test(raw) || raw.includes('\\')) return { ok: false };
  if (raw.startsWith('/') || /^[a-zA-Z]:/.test(raw)) return { ok: false };
  const segments = raw.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..')) return { ok: false };
  return { ok: true, segments };
}

/** True for macOS resource-fork litter (`__MACOSX/…`), which the drive does not import. */
export function isMacLitter(segments: string[]): boolean {
  return segments[0] === '__MACOSX';
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;

/**
 * A segment made to follow the drive's name rules (shared/drive/names.ts, nameProblem), so an
 * archive imports whole rather than being refused for one odd name, and nothing is lost
 * silently (`replaced` tells the job, which says how many names it changed):
 * - the forbidden characters `: * ? " < > |`, control characters, and the invisible and
 *   text-direction characters of spoofProblem become `_` (`evil\u202Etxt.exe` →
 *   `evil_txt.exe`, which shows what it is);
 * - leading and trailing spaces go; an over-long name is cut to 255 characters keeping its
 *   extension; a name left empty (or `.`/`..` after trimming) becomes `_`;
 * - what Windows cannot store follows windowsSafeName: trailing dots become `_`, and a device
 *   name gets `_` after its stem (`CON` → `CON_`, `aux.txt` → `aux_.txt`).
 */
export function driveName(segment: string, isDir: boolean): { name: string; replaced: boolean } {
  let name = replaceSpoofingChars(segment.replace(CONTROL, '_'), '_');
  for (const c of FORBIDDEN_CHARS) name = name.split(c).join('_');
  name = name.trim();
  if (name === '' || name === '.' || name === '..') name = '_';
  name = windowsSafeName(name);
  if (name.length > NAME_MAX) {
    const { fileName, extendName } = isDir ? { fileName: name, extendName: '' } : splitName(name);
    const keep = extendName && extendName.length < 20 ? extendName : '';
    name = keep
      ? joinName(fileName.slice(0, NAME_MAX - keep.length - 1).trimEnd(), keep)
      : name.slice(0, NAME_MAX).trimEnd();
    // The cut may end on a dot (`a.` + …); Windows cannot store that either.
    name = windowsSafeName(name);
  }
  return { name, replaced: name !== segment };
}
