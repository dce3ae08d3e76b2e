import {
  IconFile,
  IconFileCode,
  IconFileMusic,
  IconFileSpreadsheet,
  IconFileText,
  IconFileTypeCsv,
  IconFileTypeDoc,
  IconFileTypePdf,
  IconFileTypePpt,
  IconFileTypeXls,
  IconFileZip,
  IconFolderFilled,
  IconMarkdown,
  IconMovie,
  IconPhoto,
  type Icon,
} from '@tabler/icons-react';
import type { FileEntry } from '../../../shared/api/drive';
import type { ReadArea } from './drive-data';
import { ARCHIVE_EXTS, AUDIO_EXTS, IMAGE_EXTS, VIDEO_EXTS } from '../../../shared/drive/file-types';
import { useThumbnail } from './preview/source';

/**
 * The icon of an entry by its extension (spec §9: "the extension-to-icon mapping covers many
 * types (office, images, code, archives, media)"). Colours follow the desktop conventions
 * people know: Word blue, Excel green, PowerPoint orange, PDF red, folders amber.
 */
interface Look {
  icon: Icon;
  color: string;
}

const FOLDER: Look = { icon: IconFolderFilled, color: '#e0a526' };
const GENERIC: Look = { icon: IconFile, color: '#868e96' };

const BY_EXT: Record<string, Look> = {
  doc: { icon: IconFileTypeDoc, color: '#2b6cb0' },
  docx: { icon: IconFileTypeDoc, color: '#2b6cb0' },
  wps: { icon: IconFileTypeDoc, color: '#2b6cb0' },
  xls: { icon: IconFileTypeXls, color: '#2f855a' },
  xlsx: { icon: IconFileTypeXls, color: '#2f855a' },
  ods: { icon: IconFileSpreadsheet, color: '#2f855a' },
  csv: { icon: IconFileTypeCsv, color: '#2f855a' },
  ppt: { icon: IconFileTypePpt, color: '#dd6b20' },
  pptx: { icon: IconFileTypePpt, color: '#dd6b20' },
  pdf: { icon: IconFileTypePdf, color: '#c53030' },
  txt: { icon: IconFileText, color: '#4a5568' },
  md: { icon: IconMarkdown, color: '#4a5568' },
  markdown: { icon: IconMarkdown, color: '#4a5568' },
};
const CODE = [
  'js',
  'ts',
  'tsx',
  'jsx',
  'json',
  'html',
  'htm',
  'css',
  'xml',
  'java',
  'py',
  'c',
  'cpp',
  'h',
  'sql',
  'sh',
  'yml',
  'yaml',
  'vue',
  'go',
  'php',
];
for (const ext of CODE) BY_EXT[ext] = { icon: IconFileCode, color: '#6b46c1' };
for (const ext of IMAGE_EXTS) BY_EXT[ext] = { icon: IconPhoto, color: '#3182ce' };
for (const ext of VIDEO_EXTS) BY_EXT[ext] = { icon: IconMovie, color: '#805ad5' };
for (const ext of AUDIO_EXTS) BY_EXT[ext] = { icon: IconFileMusic, color: '#d53f8c' };
for (const ext of ARCHIVE_EXTS) BY_EXT[ext] = { icon: IconFileZip, color: '#975a16' };

export function lookOf(isDir: 0 | 1, extendName: string): Look {
  if (isDir) return FOLDER;
  return BY_EXT[extendName.toLowerCase()] ?? GENERIC;
}

export function FileIcon({ isDir, extendName, size }: { isDir: 0 | 1; extendName: string; size: number }) {
  const { icon: I, color } = lookOf(isDir, extendName);
  return (
    <I
      size={size}
      color={color}
      stroke={1.5}
      aria-hidden
      data-testid="file-icon"
      style={{ flex: `0 0 ${size}px` }}
    />
  );
}

/**
 * The entry's thumbnail where it has one (jpg, png, jpeg, gif, mp4; spec §9), else its icon.
 * `area` undefined means no thumbnails (the recycle bin). Rows mount only when scrolled into
 * view (the list is virtualised), which is what makes the loading lazy.
 */
export function FileThumb({
  area,
  item,
  size,
}: {
  area: ReadArea | undefined;
  item: FileEntry;
  size: number;
}) {
  const src = useThumbnail(area, item);
  if (!src) return <FileIcon isDir={item.isDir} extendName={item.extendName} size={size} />;
  return (
    <img
      src={src}
      alt=""
      width={size}
      height={size}
      draggable={false}
      data-testid="file-thumb"
      style={{ flex: `0 0 ${size}px`, objectFit: 'cover', borderRadius: 4, background: '#f1f3f5' }}
    />
  );
}
