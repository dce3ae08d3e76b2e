/**
 * File categories, extensions and size display (spec/drive.md §2, §5, §9).
 */

/** The list screen's fileType values. */
export const FileType = {
  all: 0,
  image: 1,
  document: 2,
  video: 3,
  audio: 4,
  other: 5,
  recycle: 6,
  share: 8,
  resource: 9,
} as const;

export const IMAGE_EXTS = ['jpg', 'png', 'jpeg', 'bmp', 'gif', 'webp', 'svg'] as const;
export const VIDEO_EXTS = ['mp4', 'avi', 'mpg', 'mpeg', 'mov', 'wmv', 'mkv', 'webm', 'flv', 'm4v'] as const;
export const AUDIO_EXTS = ['mp3', 'wav', 'flac', 'm4a', 'aac', 'ogg', 'wma', 'amr', 'aif'] as const;
export const OFFICE_EXTS = ['ppt', 'pptx', 'doc', 'docx', 'xls', 'xlsx'] as const;
export const DOCUMENT_EXTS = [
  ...OFFICE_EXTS,
  'pdf',
  'txt',
  'md',
  'markdown',
  'csv',
  'wps',
  'odt',
  'ods',
  'odp',
  'rtf',
  'html',
  'htm',
  'xml',
  'json',
  'epub',
] as const;
/**
 * Archives the drive unzips: the spec's zip, rar, 7z, tar and gz (§9), plus tgz, which is a
 * tar.gz under a shorter name (the sharing-and-unzip issue lists it; hiding 解压缩 for it would
 * only puzzle people).
 */
export const ARCHIVE_EXTS = ['zip', 'rar', '7z', 'tar', 'gz', 'tgz'] as const;

/** Extensions of each category 1–4 (5 "other" is everything else). Lower-case, no dot. */
export const CATEGORY_EXTS: Record<1 | 2 | 3 | 4, readonly string[]> = {
  1: IMAGE_EXTS,
  2: DOCUMENT_EXTS,
  3: VIDEO_EXTS,
  4: AUDIO_EXTS,
};

export function categoryOf(extendName: string): 1 | 2 | 3 | 4 | 5 {
  const ext = extendName.toLowerCase();
  for (const k of [1, 2, 3, 4] as const) if (CATEGORY_EXTS[k].includes(ext)) return k;
  return 5;
}

/** pdf and office files cannot be viewed online yet (§5 "Opening files"). */
export function needsDownloadToView(extendName: string): boolean {
  const ext = extendName.toLowerCase();
  return ext === 'pdf' || (OFFICE_EXTS as readonly string[]).includes(ext);
}

export function isArchive(extendName: string): boolean {
  return (ARCHIVE_EXTS as readonly string[]).includes(extendName.toLowerCase());
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;
/** Decimals per unit in the normal form: B and KB 0, MB 1, GB 2, TB 3 (§9). */
const DECIMALS = [0, 0, 1, 2, 3] as const;

/** Sizes in base 1024, with the spec's decimals. */
export function formatSize(bytes: number): string {
  let v = Math.max(0, bytes);
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(DECIMALS[u])} ${UNITS[u]}`;
}

/** Text and code the code dialog opens (spec §5: "code and text types"), markdown included. */
export const TEXT_EXTS = [
  ...['txt', 'md', 'markdown', 'csv', 'log', 'json', 'xml', 'html', 'htm', 'css', 'scss', 'less'],
  ...['js', 'mjs', 'cjs', 'ts', 'tsx', 'jsx', 'vue', 'java', 'py', 'c', 'h', 'cpp', 'hpp', 'cs'],
  ...['go', 'rs', 'php', 'rb', 'sh', 'bat', 'sql', 'yaml', 'yml', 'ini', 'conf', 'properties'],
  ...['kt', 'swift', 'lua', 'pl', 'r', 'lrc', 'srt', 'svg'],
] as const;

export type PreviewKind = 'image' | 'svg' | 'audio' | 'video' | 'text';

/**
 * How `filetransfer/preview` serves a file, by extension: images, audio and video inline (with
 * Range), SVG as a sandboxed image, text as UTF-8 plain text; null when there is no preview.
 */
export function previewKind(extendName: string): PreviewKind | null {
  const ext = extendName.toLowerCase();
  if (ext === 'svg') return 'svg';
  if ((IMAGE_EXTS as readonly string[]).includes(ext)) return 'image';
  if ((VIDEO_EXTS as readonly string[]).includes(ext)) return 'video';
  if ((AUDIO_EXTS as readonly string[]).includes(ext)) return 'audio';
  if ((TEXT_EXTS as readonly string[]).includes(ext)) return 'text';
  return null;
}

/** Thumbnails in the list and grid (spec §9); never in the recycle bin. */
export const THUMB_EXTS = ['jpg', 'png', 'jpeg', 'gif', 'mp4'] as const;
export const MARKDOWN_EXTS = ['md', 'markdown'] as const;
/** The office types 新建文件 creates (spec §9 "Creatable office types"). */
export const CREATABLE_OFFICE_EXTS = ['docx', 'xlsx', 'pptx'] as const;
/**
 * Audio and video the previewers play. The spec names mp3 and mp4; we also open what every
 * current browser plays natively (Chromium, Safari on iPad). Other media (avi, wmv, amr...)
 * download, because a player that shows 此视频暂无法播放 for most of them helps nobody.
 */
export const PLAYABLE_AUDIO_EXTS = ['mp3', 'm4a', 'aac', 'flac', 'wav', 'ogg'] as const;
export const PLAYABLE_VIDEO_EXTS = ['mp4', 'm4v', 'webm', 'mov'] as const;

export type OpenWith = 'image' | 'audio' | 'video' | 'markdown' | 'code' | 'office' | 'pdf' | 'download';

const has = (list: readonly string[], ext: string) => list.includes(ext);

/**
 * What opening a file does (spec §5 "Opening files"): images, text and code, markdown, video and
 * audio open their previewer; office files open the /onlyoffice route; pdf warns that it must be
 * downloaded; everything else downloads.
 */
export function openWith(extendName: string): OpenWith {
  const ext = extendName.toLowerCase();
  if (has(IMAGE_EXTS, ext)) return 'image';
  if (has(MARKDOWN_EXTS, ext)) return 'markdown';
  if (has(TEXT_EXTS, ext)) return 'code';
  if (has(PLAYABLE_VIDEO_EXTS, ext)) return 'video';
  if (has(PLAYABLE_AUDIO_EXTS, ext)) return 'audio';
  if (has(OFFICE_EXTS, ext)) return 'office';
  if (ext === 'pdf') return 'pdf';
  return 'download';
}

export function hasThumbnail(extendName: string): boolean {
  return has(THUMB_EXTS, extendName.toLowerCase());
}
