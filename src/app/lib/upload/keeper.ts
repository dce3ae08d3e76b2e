import type { UserDb } from '../offline-db';

/**
 * Where a queued upload's bytes wait on the device until the server holds the whole file
 * (ARCHITECTURE.md §5): the origin-private file system where the browser has it (no
 * structured-clone copies, no size trouble), otherwise IndexedDB blobs. One OPFS folder per
 * person (`uploads-<userId>`), one file per queue item, so a shared tablet's next user never
 * reads them and sign-out can remove them in one call.
 *
 * Copying costs time and quota, so it is done only within a budget the user sees and can
 * change (本机暂存上限); beyond it an item uploads from memory and, after a reload, asks for the
 * file again (请重新选择文件以继续).
 */
export type KeptIn = 'opfs' | 'idb';

export interface Keeper {
  readonly kind: KeptIn;
  /** Copies the bytes; resolves once they are durable (the row may then say `kept`). */
  put(id: string, blob: Blob): Promise<void>;
  /** The kept bytes, or null when they are gone (evicted, or never finished copying). */
  get(id: string, size: number): Promise<Blob | null>;
  remove(id: string): Promise<void>;
  /** Every id with bytes kept, to find leftovers no row owns. */
  ids(): Promise<string[]>;
}

const folderName = (userId: number | string) => `uploads-${userId}`;

function hasOpfs(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.storage?.getDirectory === 'function';
}

type WritableHandle = FileSystemFileHandle & {
  createWritable?: () => Promise<WritableStream<BlobPart>>;
  move?: (name: string) => Promise<void>;
};

async function opfsKeeper(userId: number | string): Promise<Keeper | null> {
  let dir: FileSystemDirectoryHandle;
  try {
    const root = await navigator.storage.getDirectory();
    dir = await root.getDirectoryHandle(folderName(userId), { create: true });
    // Safari had OPFS long before createWritable and move on the main thread: without them,
    // use IndexedDB.
    const probe = (await dir.getFileHandle('.probe', { create: true })) as WritableHandle;
    if (typeof probe.createWritable !== 'function' || typeof probe.move !== 'function') return null;
  } catch {
    return null;
  }
  // A copy is written under a temporary name and renamed when complete, so a reload in the
  // middle of a copy leaves no file that looks whole.
  const partName = (id: string) => `${id}.part`;
  return {
    kind: 'opfs',
    async put(id, blob) {
      const part = (await dir.getFileHandle(partName(id), { create: true })) as WritableHandle;
      await blob.stream().pipeTo(await part.createWritable!());
      await part.move!(id);
    },
    async get(id, size) {
      try {
        const file = await (await dir.getFileHandle(id)).getFile();
        return file.size === size ? file : null;
      } catch {
        return null;
      }
    },
    async remove(id) {
      for (const name of [id, partName(id)]) await dir.removeEntry(name).catch(() => undefined);
    },
    async ids() {
      const out: string[] = [];
      for await (const name of (dir as unknown as { keys(): AsyncIterable<string> }).keys()) {
        if (!name.startsWith('.')) out.push(name.replace(/\.part$/, ''));
      }
      return out;
    },
  };
}

function idbKeeper(db: UserDb): Keeper {
  return {
    kind: 'idb',
    async put(id, blob) {
      await db.uploadBytes.put({ id, blob });
    },
    async get(id, size) {
      try {
        const row = await db.uploadBytes.get(id);
        return row && row.blob.size === size ? row.blob : null;
      } catch {
        return null;
      }
    },
    async remove(id) {
      await db.uploadBytes.delete(id);
    },
    async ids() {
      return (await db.uploadBytes.toCollection().primaryKeys()) as string[];
    },
  };
}

/** The person's keeper: OPFS when usable, else IndexedDB. */
export async function openKeeper(userId: number | string, db: UserDb): Promise<Keeper> {
  return (hasOpfs() && (await opfsKeeper(userId))) || idbKeeper(db);
}

/** Removes a person's kept upload bytes from OPFS (their IndexedDB goes with the database). */
export async function forgetKeptBytes(userId: number | string): Promise<void> {
  if (!hasOpfs()) return;
  try {
    const root = await navigator.storage.getDirectory();
    await root.removeEntry(folderName(userId), { recursive: true });
  } catch {
    // Nothing kept, or no OPFS: nothing to remove.
  }
}

/** The budget choices of the panel (bytes); the effective budget is also capped by free space. */
export const KEEP_BUDGETS = [0, 256 * 1024 ** 2, 1024 ** 3, 2 * 1024 ** 3] as const;
export const DEFAULT_KEEP_BUDGET = 1024 ** 3;
const BUDGET_KEY = 'gwy.upload.keepBudget';

export function keepBudgetSetting(): number {
  const v = Number(localStorage.getItem(BUDGET_KEY));
  return (KEEP_BUDGETS as readonly number[]).includes(v) && localStorage.getItem(BUDGET_KEY) !== null
    ? v
    : DEFAULT_KEEP_BUDGET;
}

export function setKeepBudget(bytes: number) {
  localStorage.setItem(BUDGET_KEY, String(bytes));
}

/**
 * What may be kept now: the setting, but never more than half of the space the browser says
 * is still free for this origin, so kept uploads cannot crowd out the offline listings.
 */
export async function effectiveBudget(): Promise<number> {
  const setting = keepBudgetSetting();
  try {
    const est = await navigator.storage?.estimate?.();
    if (est?.quota !== undefined) return Math.min(setting, Math.max(0, (est.quota - (est.usage ?? 0)) / 2));
  } catch {
    // No estimate: the setting alone.
  }
  return setting;
}
