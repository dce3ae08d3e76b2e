import type { NewUpload } from '../../../lib/upload/engine';

/**
 * Turning what the user chose into upload items: picked files, a picked folder (its files
 * carry `webkitRelativePath`) and dropped files or folders (walked through the entries API),
 * so a folder's structure reaches the server as `relativePath`.
 */

/** Files from an <input type=file>, with their folder paths when a folder was picked. */
export function fromInput(list: FileList | null): NewUpload[] {
  return Array.from(list ?? [], (file) => ({
    file,
    name: file.name,
    relativePath: file.webkitRelativePath || '',
    lastModified: file.lastModified,
  }));
}

type Entry = FileSystemEntry;

function readAll(dir: FileSystemDirectoryEntry): Promise<Entry[]> {
  const reader = dir.createReader();
  const out: Entry[] = [];
  // readEntries answers at most 100 entries per call: read until it answers none.
  return new Promise((resolve, reject) => {
    const next = () =>
      reader.readEntries((batch) => {
        if (batch.length === 0) resolve(out);
        else {
          out.push(...batch);
          next();
        }
      }, reject);
    next();
  });
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

async function walk(entry: Entry, prefix: string, out: NewUpload[]) {
  if (entry.isFile) {
    const file = await fileOf(entry as FileSystemFileEntry);
    out.push({
      file,
      name: file.name,
      relativePath: prefix ? `${prefix}/${file.name}` : '',
      lastModified: file.lastModified,
    });
  } else if (entry.isDirectory) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    for (const child of await readAll(entry as FileSystemDirectoryEntry)) await walk(child, path, out);
  }
}

/** Files (and folders, with their structure) dropped on the page. */
export async function fromDrop(dt: DataTransfer): Promise<NewUpload[]> {
  const entries = Array.from(dt.items ?? [])
    .filter((i) => i.kind === 'file')
    .map((i) => i.webkitGetAsEntry?.() ?? null);
  if (entries.length && entries.every((e) => e !== null)) {
    const out: NewUpload[] = [];
    for (const e of entries) await walk(e!, '', out);
    return out;
  }
  // No entries API (or a synthetic drop): the plain file list, without folders.
  return fromInput(dt.files);
}

/** Whether a drag carries files (not text or a link being dragged around the page). */
export function dragHasFiles(dt: DataTransfer | null): boolean {
  return Boolean(dt && Array.from(dt.types).includes('Files'));
}

const IMAGE_EXT: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/bmp': 'bmp',
  'image/svg+xml': 'svg',
};

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A pasted image's name (spec §4): the fixed prefix 截图_ and the time, keeping the image's own
 * extension (from its name when it has one, else from its type).
 */
export function pastedName(file: Blob & { name?: string }, at = new Date()): string {
  const own = /\.([A-Za-z0-9]{1,8})$/.exec(file.name ?? '')?.[1]?.toLowerCase();
  const ext = own ?? IMAGE_EXT[file.type] ?? 'png';
  const stamp =
    `${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}` +
    `${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}`;
  return `截图_${stamp}.${ext}`;
}

/** The first image of a paste, or why there is none. */
export function imageFromClipboard(data: DataTransfer | null): File | 'notImage' {
  const files = Array.from(data?.files ?? []);
  const image = files.find((f) => f.type.startsWith('image/'));
  return image ?? 'notImage';
}
