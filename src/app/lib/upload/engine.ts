import type { UploadAnswer } from '../../../shared/api/upload';
import { UPLOAD_MAX_BYTES, UPLOAD_TOO_LARGE } from '../../../shared/api/upload-limits';
import { nameProblem } from '../../../shared/drive/names';
import { tCore } from '../i18n-core';
import { tUpload } from '../i18n/upload';
import type { UploadRow, UserDb } from '../offline-db';
import type { Keeper } from './keeper';
import { UploadFailure, type UploadQuery } from './transport';

/**
 * The upload queue (issue 4; spec/drive.md §3–§5, §7): every chosen file becomes a row in the
 * person's IndexedDB, is hashed (MD5, in the worker), tested against the server, and sent in
 * 1 MiB chunks, three in flight across the queue, each with three retries and back-off.
 *
 * What a user can rely on:
 * - Nothing lost. A row outlives reloads, app restarts and sign-in again. Bytes are kept on the
 *   device (Keeper) within a budget; an item whose bytes are gone says 请重新选择文件以继续 and
 *   resumes once the same file (name, size, then MD5) is picked again.
 * - Nothing sent twice. Every (re)start begins with the test request; the chunks the server
 *   lists are skipped, and content the caller already owns completes at once (instant upload).
 *   Another person's identical content needs a proof of possession: a hash over a byte range
 *   the server picks, computed in the worker.
 * - Flaky Wi-Fi. No network puts an item in 等待网络; `wake()` (on `online`, on becoming visible,
 *   on the service worker's sync, and on a timer) resumes it from the server's chunk list. A
 *   refusal (quota, a bad name, bytes that do not match their MD5) is 上传失败 with the server's
 *   reason; 重试 starts again from the test request.
 * - One sender per item. An item runs under a Web Lock when the browser has them, so two tabs
 *   of the same person never upload the same file at once.
 *
 * Decision, against spec §4's "a failed chunk check is treated as already uploaded": a failed
 * test request is retried, never taken as success. Taking it as success would show 上传成功 for
 * a file the server does not have, which is exactly the loss this queue exists to prevent.
 *
 * The engine is transport- and UI-free: lib/upload/index.ts gives it the database, keeper,
 * hasher and requests, and tests give it fakes.
 */

export type UploadState = UploadRow['state'];

/** One file to add: its bytes, its name and, inside a folder, its path below the chosen folder. */
export interface NewUpload {
  file: Blob;
  name: string;
  relativePath?: string;
  lastModified?: number;
}

export interface UploadTarget {
  filePath: string;
  area: Record<string, number>;
}

/** What the panel shows for one item. */
export interface UploadView {
  id: string;
  seq: number;
  name: string;
  relativePath: string;
  filePath: string;
  /** The area flags of the target (a project's documents carry projectId). */
  area: Record<string, number>;
  size: number;
  way: UploadRow['way'];
  state: UploadState;
  error?: string;
  /** 0–100: of the bytes hashed while hashing, of the bytes the server holds (and in flight) after. */
  percent: number;
  /** Bytes per second over the last few seconds while uploading, else null. */
  speed: number | null;
  /** Seconds left at that speed, else null. */
  eta: number | null;
  /** Bytes kept on this device for a resume after a reload. */
  kept: boolean;
  /** Another tab of this person is sending it. */
  elsewhere: boolean;
}

export type UploadEvent =
  /** A file could not be read: its item was cancelled (spec §5, a 2 s notification). */
  | { type: 'readError'; name: string }
  /** One item reached the server. */
  | { type: 'success'; view: UploadView }
  /**
   * Nothing is waiting, hashing or uploading any more. `finished` is true when every item is
   * done (none paused, failed or waiting for its file) and `lastSucceeded` when the item that
   * finished last succeeded: spec §4's 上传完成 toast and list refresh.
   */
  | { type: 'idle'; anySuccess: boolean; finished: boolean; lastSucceeded: boolean };

export interface AddResult {
  added: number;
  /** Files left out, with the reason (over 500 MB, a name the drive refuses). */
  rejected: { name: string; reason: string }[];
  /** Set when the whole batch was ignored (spec §5: larger than the remaining storage). */
  batchRefused?: string;
}

export interface Hasher {
  md5Of(blob: Blob, opts: { onProgress?: (done: number) => void; signal?: AbortSignal }): Promise<string>;
  proofOf(blob: Blob, nonce: string, start: number, end: number): Promise<string>;
}

export interface Transport {
  testUpload(query: UploadQuery, signal?: AbortSignal): Promise<UploadAnswer>;
  sendChunk(
    query: UploadQuery,
    bytes: Blob,
    onProgress: (loaded: number) => void,
    signal: AbortSignal,
  ): Promise<UploadAnswer>;
  /**
   * Drops the server's unfinished session of this upload (its chunks and the quota they hold),
   * when a person cancels. Best effort: a failure only leaves it to the server's sweep.
   */
  cancelUpload?(query: UploadQuery): Promise<void>;
}

export interface EngineDeps {
  db: UserDb;
  /** Where bytes are kept on the device; null keeps nothing (every reload asks for the files). */
  keeper: Keeper | null;
  /** Bytes that may be kept now (the setting, capped by free space). */
  keepBudget: () => Promise<number>;
  hasher: Hasher;
  transport: Transport;
  isOnline: () => boolean;
  /** Runs `fn` only if no other tab holds the item's lock; resolves false when one does. */
  lockItem?: (id: string, fn: () => Promise<void>) => Promise<boolean>;
  newId?: () => string;
  now?: () => number;
  /** Test knobs; the defaults are the spec's (1 MiB chunks, 3 in flight, 3 retries). */
  chunkSize?: number;
  inFlight?: number;
  retryDelaysMs?: readonly number[];
  /** How often items waiting for the network try again when nothing else wakes them. */
  probeMs?: number;
}

/** spec §7/§9: 1 MB chunks in the drive, three retries; ours back off 1 s, 2 s, 4 s (±25 %). */
export const CHUNK_BYTES = 1024 * 1024;
const RETRY_DELAYS_MS = [1000, 2000, 4000] as const;
/** Items hashing or uploading at once: the next file hashes while the last one's chunks go. */
const ACTIVE_ITEMS = 3;
/** Progress is written to IndexedDB at most this often (state changes at once). */
const SAVE_EVERY_MS = 500;
/** The speed is measured over this window. */
const SPEED_WINDOW_MS = 5000;

interface Item {
  row: UploadRow & { seq: number };
  /** The bytes, when this tab has them (the chosen File, or the kept copy once read). */
  file?: Blob;
  /** The file was picked again after its bytes were lost: its MD5 must match before sending. */
  verify?: boolean;
  running: boolean;
  elsewhere: boolean;
  ctl?: AbortController;
  /** The running attempt (start), to wait for before telling the server of a cancel. */
  work?: Promise<void>;
  /** Bytes of chunks in flight, by chunk number, for a smooth percent and the speed. */
  inflight: Map<number, number>;
  samples: { at: number; bytes: number }[];
  /** The view last handed to the panel: kept while nothing in it changed (see viewOf). */
  view?: UploadView;
}

/** The bytes could not be read (the file was moved, deleted or is unreadable). */
export class FileReadFailure extends Error {
  constructor() {
    super('read error');
  }
}

const ACTIVE: ReadonlySet<UploadState> = new Set(['waiting', 'hashing', 'uploading', 'offline']);

/** Whether the browser can still read these bytes (the file was not moved or deleted). */
function readable(blob: Blob): Promise<boolean> {
  return blob
    .slice(0, 1)
    .arrayBuffer()
    .then(
      () => true,
      () => false,
    );
}

function isAbort(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'AbortError';
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new DOMException('aborted', 'AbortError'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new DOMException('aborted', 'AbortError'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A counting semaphore whose waiters are served by priority (earlier queue items first). */
function createSlots(n: number) {
  let free = n;
  const waiters: { prio: number; go: () => void }[] = [];
  const release = () => {
    const next = waiters.shift();
    if (next) next.go();
    else free++;
  };
  return async function take(prio: number, signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) throw new DOMException('aborted', 'AbortError');
    if (free > 0) {
      free--;
      return release;
    }
    return new Promise((resolve, reject) => {
      const w = {
        prio,
        go: () => {
          signal.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      const onAbort = () => {
        const i = waiters.indexOf(w);
        if (i >= 0) waiters.splice(i, 1);
        reject(new DOMException('aborted', 'AbortError'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const at = waiters.findIndex((x) => x.prio > prio);
      if (at < 0) waiters.push(w);
      else waiters.splice(at, 0, w);
    });
  };
}

export function chunkCount(size: number, chunkSize: number) {
  return Math.max(1, Math.ceil(size / chunkSize));
}

export function createUploadEngine(deps: EngineDeps) {
  const { db, keeper, hasher, transport } = deps;
  const chunkSize = deps.chunkSize ?? CHUNK_BYTES;
  const slotsTake = createSlots(deps.inFlight ?? 3);
  const retryDelays = deps.retryDelaysMs ?? RETRY_DELAYS_MS;
  const now = deps.now ?? (() => Date.now());
  const newId = deps.newId ?? (() => crypto.randomUUID());
  const probeMs = deps.probeMs ?? 10_000;

  const items = new Map<string, Item>();
  const listeners = new Set<() => void>();
  const eventListeners = new Set<(e: UploadEvent) => void>();
  let snapshot: UploadView[] = [];
  let stopped = false;
  let anySuccessSinceIdle = false;
  let lastFinished: UploadState | null = null;
  let hashChain: Promise<unknown> = Promise.resolve();
  let keepChain: Promise<unknown> = Promise.resolve();
  let probe: ReturnType<typeof setTimeout> | undefined;

  // ——— views ———

  const ordered = () => [...items.values()].sort((a, b) => a.row.seq - b.row.seq);

  /**
   * The item's view; the same object as last time when no field changed, so the panel's rows of
   * items that did not move are not drawn again at each update (issue 25: during a 500 MiB
   * upload, redrawing every row ten times a second took a tablet's main thread from sending).
   */
  function viewOf(it: Item): UploadView {
    const next = freshView(it);
    const prev = it.view;
    if (prev && (Object.keys(next) as (keyof UploadView)[]).every((k) => prev[k] === next[k])) return prev;
    it.view = next;
    return next;
  }

  function freshView(it: Item): UploadView {
    const r = it.row;
    const inflight = [...it.inflight.values()].reduce((a, b) => a + b, 0);
    const bytes = Math.min(r.size, r.done + inflight);
    let percent: number;
    if (r.state === 'success') percent = 100;
    else if (r.state === 'hashing') percent = r.size ? Math.floor((r.hashed / r.size) * 100) : 100;
    else percent = r.size ? Math.floor((bytes / r.size) * 100) : 0;
    let speed: number | null = null;
    let eta: number | null = null;
    if (r.state === 'uploading' && it.samples.length > 1) {
      const first = it.samples[0]!;
      const last = it.samples[it.samples.length - 1]!;
      const ms = last.at - first.at;
      if (ms > 0) {
        speed = ((last.bytes - first.bytes) / ms) * 1000;
        eta = speed > 0 ? Math.ceil((r.size - bytes) / speed) : null;
      }
    }
    return {
      id: r.id,
      seq: r.seq,
      name: r.name,
      relativePath: r.relativePath,
      filePath: r.filePath,
      area: r.area,
      size: r.size,
      way: r.way,
      state: r.state,
      error: r.error,
      percent,
      speed,
      eta,
      kept: r.kept !== null,
      elsewhere: it.elsewhere,
    };
  }

  let viewTimer: ReturnType<typeof setTimeout> | undefined;
  /** Rebuilds the views for the panel, at most ten times a second. */
  function changed(immediate = false) {
    const run = () => {
      viewTimer = undefined;
      snapshot = ordered().map(viewOf);
      listeners.forEach((l) => l());
    };
    if (immediate) {
      clearTimeout(viewTimer);
      run();
    } else viewTimer ??= setTimeout(run, 100);
  }

  function emit(e: UploadEvent) {
    eventListeners.forEach((l) => l(e));
  }

  // ——— persistence ———

  const dirty = new Set<Item>();
  let saveTimer: ReturnType<typeof setTimeout> | undefined;
  async function flush() {
    saveTimer = undefined;
    const rows = [...dirty].filter((it) => items.get(it.row.id) === it).map((it) => ({ ...it.row }));
    dirty.clear();
    if (rows.length) await db.uploads.bulkPut(rows).catch(() => undefined);
  }

  /** Applies a change to the row; state changes are written at once, progress in batches. */
  async function save(it: Item, patch: Partial<UploadRow>, now_ = false) {
    Object.assign(it.row, patch, { updatedAt: now() });
    dirty.add(it);
    changed(now_);
    if (now_) {
      clearTimeout(saveTimer);
      await flush();
    } else saveTimer ??= setTimeout(() => void flush(), SAVE_EVERY_MS);
  }

  // ——— the queue ———

  function activeCount() {
    let n = 0;
    for (const it of items.values()) if (it.running) n++;
    return n;
  }

  function pump() {
    if (stopped) return;
    let active = activeCount();
    for (const it of ordered()) {
      if (active >= ACTIVE_ITEMS) break;
      if (it.row.state === 'waiting' && !it.running && !it.elsewhere) {
        active++;
        it.work = start(it);
      }
    }
    checkIdle();
  }

  function checkIdle() {
    const rows = [...items.values()];
    if (rows.some((it) => it.running || ACTIVE.has(it.row.state))) return;
    if (lastFinished === null && !anySuccessSinceIdle) return;
    const finished = rows.every((it) => it.row.state === 'success');
    emit({
      type: 'idle',
      anySuccess: anySuccessSinceIdle,
      finished,
      lastSucceeded: lastFinished === 'success',
    });
    anySuccessSinceIdle = false;
    lastFinished = null;
  }

  function scheduleProbe() {
    if (probe || stopped) return;
    probe = setTimeout(() => {
      probe = undefined;
      wake();
    }, probeMs);
  }

  /**
   * Tells the server a cancelled upload is not coming back, so its chunks and the room they
   * hold go now rather than at the sweep (issue 16 §1). After the item's own attempt settles,
   * so no chunk of it is still being sent; never awaited by cancel, and offline it is skipped:
   * cancelling never waits for the network.
   */
  async function dropOnServer(it: Item, query: UploadQuery) {
    if (!transport.cancelUpload) return;
    await it.work?.catch(() => undefined);
    if (!deps.isOnline()) return;
    await transport.cancelUpload(query).catch(() => undefined);
  }

  async function start(it: Item) {
    it.running = true;
    const ctl = new AbortController();
    it.ctl = ctl;
    try {
      const ran = deps.lockItem
        ? await deps.lockItem(it.row.id, () => work(it, ctl.signal))
        : (await work(it, ctl.signal), true);
      if (!ran) {
        // Another tab of this person holds it: look again later (that tab may close).
        it.elsewhere = true;
        changed();
        scheduleProbe();
      }
    } catch (err) {
      await settleFailure(it, err, ctl.signal);
    } finally {
      it.running = false;
      it.inflight.clear();
      if (it.ctl === ctl) it.ctl = undefined;
      pump();
    }
  }

  async function settleFailure(it: Item, err: unknown, signal: AbortSignal) {
    if (!items.has(it.row.id)) return; // cancelled
    if (signal.aborted || isAbort(err)) return; // paused: the pause already saved its state
    if (err instanceof FileReadFailure) {
      emit({ type: 'readError', name: it.row.name });
      await removeItem(it);
      lastFinished = 'error';
      return;
    }
    if (err instanceof UploadFailure && err.kind === 'network') {
      await save(it, { state: 'offline', error: undefined }, true);
      scheduleProbe();
      return;
    }
    const message = err instanceof Error && err.message ? err.message : tUpload.failed;
    await save(it, { state: 'error', error: message }, true);
    lastFinished = 'error';
  }

  /** Runs `fn` with network retries: three, backing off; offline gives up at once. */
  async function attempt<T>(fn: () => Promise<T>, signal: AbortSignal): Promise<T> {
    for (let i = 0; ; i++) {
      if (!deps.isOnline()) throw new UploadFailure(tCore.errors.network, 'network');
      try {
        return await fn();
      } catch (err) {
        if (signal.aborted || isAbort(err)) throw err;
        const retryable = err instanceof UploadFailure && err.kind === 'network';
        if (!retryable || i >= retryDelays.length) throw err;
        await sleep(retryDelays[i]! * (0.75 + Math.random() * 0.5), signal);
      }
    }
  }

  function queryOf(r: UploadRow, chunkNumber: number): UploadQuery {
    const total = chunkCount(r.size, chunkSize);
    const current = chunkNumber < total ? chunkSize : r.size - (total - 1) * chunkSize;
    return {
      ...r.area,
      chunkNumber,
      chunkSize,
      currentChunkSize: current,
      totalSize: r.size,
      identifier: r.md5!,
      filename: r.name,
      // simple-uploader sends the name itself for a file outside any folder.
      relativePath: r.relativePath || r.name,
      totalChunks: total,
      filePath: r.filePath,
    };
  }

  /** Bytes of the held chunks: every chunk is chunkSize but the last (called once per chunk). */
  function heldBytes(r: UploadRow, held: ReadonlySet<number>) {
    const total = chunkCount(r.size, chunkSize);
    const last = r.size - (total - 1) * chunkSize;
    return Math.min(r.size, held.size * chunkSize - (held.has(total) ? chunkSize - last : 0));
  }

  function sample(it: Item) {
    const at = now();
    const bytes = it.row.done + [...it.inflight.values()].reduce((a, b) => a + b, 0);
    it.samples.push({ at, bytes });
    while (it.samples.length > 2 && at - it.samples[0]!.at > SPEED_WINDOW_MS) it.samples.shift();
  }

  async function hashOf(it: Item, blob: Blob, signal: AbortSignal): Promise<string> {
    const run = async () => {
      signal.throwIfAborted();
      await save(it, { state: 'hashing', hashed: 0 }, true);
      try {
        return await hasher.md5Of(blob, {
          signal,
          onProgress: (done) => void save(it, { hashed: done }),
        });
      } catch (err) {
        if (signal.aborted || isAbort(err)) throw err;
        throw new FileReadFailure();
      }
    };
    // One file hashes at a time: the worker is single-threaded anyway, and the first file
    // should finish first.
    const p = hashChain.then(run, run);
    hashChain = p.catch(() => undefined);
    return p;
  }

  async function work(it: Item, signal: AbortSignal): Promise<void> {
    it.elsewhere = false;
    const r = it.row;
    let blob = it.file;
    if (!blob && r.kept && keeper) blob = (await keeper.get(r.id, r.size)) ?? undefined;
    if (!blob) {
      await save(it, { state: 'needsFile', kept: null, error: undefined }, true);
      lastFinished = 'needsFile';
      return;
    }
    it.file = blob;

    if (!r.md5 || it.verify) {
      const md5 = await hashOf(it, blob, signal);
      if (it.verify && r.md5 && md5 !== r.md5) {
        it.file = undefined;
        it.verify = false;
        await save(it, { state: 'needsFile', error: tUpload.notSameFile }, true);
        lastFinished = 'needsFile';
        return;
      }
      it.verify = false;
      await save(it, { md5, hashed: r.size, hashedAt: now() }, true);
    }

    // Paused or cancelled while hashing finished: the pause's state stands.
    signal.throwIfAborted();
    await save(it, { state: 'uploading', error: undefined }, true);
    it.samples = [];
    let answer = await attempt(() => transport.testUpload(queryOf(r, 1), signal), signal);
    if (!answer.skipUpload && !answer.done && answer.challenge) {
      const c = answer.challenge;
      const proof = await hasher.proofOf(blob, c.nonce, c.start, c.end).catch(() => null);
      if (proof) {
        answer = await attempt(() => transport.testUpload({ ...queryOf(r, 1), proof }, signal), signal);
      }
    }
    // Three rounds: a chunk the server lost (e.g. a session swept meanwhile) is sent again.
    for (let round = 0; round < 3; round++) {
      if (answer.skipUpload || answer.done) return succeed(it, answer.userFileId);
      const held = new Set(answer.uploaded);
      await save(it, { done: heldBytes(r, held) });
      const total = chunkCount(r.size, chunkSize);
      const missing: number[] = [];
      for (let n = 1; n <= total; n++) if (!held.has(n)) missing.push(n);
      // The server holds every chunk but has not built the file (it stopped in between): any
      // chunk sent again completes it, so send the smallest, the last.
      if (missing.length === 0) missing.push(total);
      const last = await sendChunks(it, blob, missing, held, signal);
      if (last) {
        answer = last;
        if (last.done) continue;
      }
      answer = await attempt(() => transport.testUpload(queryOf(r, 1), signal), signal);
    }
    if (answer.skipUpload || answer.done) return succeed(it, answer.userFileId);
    throw new UploadFailure(tUpload.failed, 'refused');
  }

  /** Sends the missing chunks, three in flight across the queue; answers the last answer. */
  async function sendChunks(
    it: Item,
    blob: Blob,
    missing: number[],
    held: Set<number>,
    outer: AbortSignal,
  ): Promise<UploadAnswer | null> {
    const r = it.row;
    const ctl = new AbortController();
    const signal = AbortSignal.any([outer, ctl.signal]);
    // An object, not a `let`: TypeScript does not see the lanes assign it.
    const out: { last: UploadAnswer | null } = { last: null };
    let next = 0;
    const lane = async () => {
      while (next < missing.length && !signal.aborted && !out.last?.done) {
        const n = missing[next++]!;
        const release = await slotsTake(r.seq, signal);
        let chunkBytes: Blob | undefined;
        try {
          const q = queryOf(r, n);
          const start = (n - 1) * chunkSize;
          // A slice, not a copy: copying each MiB into the page cost a quarter of the upload
          // time (tests/bench/upload.ts). Unreadable bytes are caught when a send fails.
          const bytes = blob.slice(start, start + Number(q.currentChunkSize));
          chunkBytes = bytes;
          const answer = await attempt(() => {
            it.inflight.set(n, 0);
            void save(it, { sent: r.sent + bytes.size });
            return transport.sendChunk(
              q,
              bytes,
              (loaded) => {
                it.inflight.set(n, loaded);
                sample(it);
                changed();
              },
              signal,
            );
          }, signal);
          it.inflight.delete(n);
          for (const h of answer.uploaded) held.add(h);
          held.add(n);
          out.last = answer;
          sample(it);
          await save(it, { done: heldBytes(r, held) });
        } catch (err) {
          it.inflight.delete(n);
          // A file moved or deleted after it was picked fails its sends like a dropped
          // network would: tell them apart by reading, so it says so (readError) rather than
          // wait for a network that is fine.
          const refused = err instanceof UploadFailure && err.kind !== 'network';
          if (!isAbort(err) && !refused && chunkBytes && !(await readable(chunkBytes))) {
            ctl.abort();
            throw new FileReadFailure();
          }
          // One chunk's failure settles the file: stop its other chunks.
          ctl.abort();
          throw err;
        } finally {
          release();
        }
      }
    };
    const lanes = Math.min(deps.inFlight ?? 3, Math.max(1, missing.length));
    const results = await Promise.allSettled(Array.from({ length: lanes }, lane));
    const failure = results.find((x): x is PromiseRejectedResult => x.status === 'rejected');
    if (failure) {
      // The first real reason, not the aborts it caused in the other lanes.
      const real = results.find(
        (x): x is PromiseRejectedResult => x.status === 'rejected' && !isAbort(x.reason),
      );
      throw (real ?? failure).reason;
    }
    return out.last;
  }

  async function succeed(it: Item, userFileId?: number) {
    const r = it.row;
    it.file = undefined;
    if (r.kept && keeper) await keeper.remove(r.id).catch(() => undefined);
    await save(
      it,
      { state: 'success', done: r.size, kept: null, error: undefined, userFileId, finishedAt: now() },
      true,
    );
    anySuccessSinceIdle = true;
    lastFinished = 'success';
    emit({ type: 'success', view: viewOf(it) });
  }

  async function removeItem(it: Item) {
    items.delete(it.row.id);
    dirty.delete(it);
    it.file = undefined;
    await db.uploads.delete(it.row.seq).catch(() => undefined);
    if (keeper) await keeper.remove(it.row.id).catch(() => undefined);
    changed(true);
  }

  /** Copies new items' bytes to the device, in order, while the budget lasts. */
  function keepCopies(added: Item[]) {
    if (!keeper) return;
    keepChain = keepChain.then(async () => {
      let budget = await deps.keepBudget();
      for (const it of items.values()) if (it.row.kept && !added.includes(it)) budget -= it.row.size;
      for (const it of added) {
        if (stopped || !items.has(it.row.id) || it.row.state === 'success' || !it.file) continue;
        if (it.row.size > budget) continue;
        try {
          await keeper.put(it.row.id, it.file);
        } catch {
          await keeper.remove(it.row.id).catch(() => undefined);
          continue;
        }
        budget -= it.row.size;
        // Signed out while copying: the rows belong to the next engine now.
        if (stopped) return;
        // Finished or cancelled while copying: the copy is not needed. (TypeScript narrowed
        // the state before the await; it may have changed since.)
        if (!items.has(it.row.id) || (it.row.state as UploadState) === 'success') {
          await keeper.remove(it.row.id).catch(() => undefined);
          continue;
        }
        await save(it, { kept: keeper.kind }, true);
      }
    });
  }

  function newItem(row: UploadRow & { seq: number }, file?: Blob): Item {
    return { row, file, running: false, elsewhere: false, inflight: new Map(), samples: [] };
  }

  // ——— what the app calls ———

  function wake() {
    clearTimeout(probe);
    probe = undefined;
    for (const it of items.values()) {
      // Also while `running`: an item is 'offline' and still running only between its failure
      // being saved and start()'s finally, whose pump() then starts it again. Skipping it lost
      // a wake() (an `online` event) in that window until the next probe.
      if (it.row.state === 'offline') {
        it.row.state = 'waiting';
        dirty.add(it);
      }
      it.elsewhere = false;
    }
    changed();
    pump();
  }

  return {
    /** Reads the queue left by an earlier visit and resumes what was running. */
    async load() {
      const rows = (await db.uploads.orderBy('seq').toArray()) as (UploadRow & { seq: number })[];
      const dayAgo = now() - 24 * 3600 * 1000;
      const gone: number[] = [];
      for (const row of rows) {
        if (items.has(row.id)) continue;
        if (row.state === 'success' && (row.finishedAt ?? 0) < dayAgo) {
          gone.push(row.seq);
          continue;
        }
        // It was running when the page went away: run it again (from the server's list).
        if (ACTIVE.has(row.state)) row.state = 'waiting';
        if (!row.md5) row.hashed = 0;
        items.set(row.id, newItem(row));
      }
      if (gone.length) await db.uploads.bulkDelete(gone);
      // Bytes no row owns any more (an item removed while its copy was being written).
      if (keeper) {
        for (const id of await keeper.ids().catch(() => [])) {
          if (!items.has(id)) await keeper.remove(id).catch(() => undefined);
        }
      }
      changed(true);
      pump();
    },

    /**
     * Adds a batch (spec §5): files over 500 MB and names the drive refuses are left out with
     * their reason; when `remaining` (free storage, or null when unknown) cannot hold the batch
     * plus what is already queued, the whole batch is ignored.
     */
    async add(
      files: NewUpload[],
      target: UploadTarget,
      way: UploadRow['way'],
      remaining: number | null,
    ): Promise<AddResult> {
      const rejected: AddResult['rejected'] = [];
      const ok: NewUpload[] = [];
      for (const f of files) {
        if (f.file.size > UPLOAD_MAX_BYTES) {
          rejected.push({ name: f.name, reason: UPLOAD_TOO_LARGE });
          continue;
        }
        const segments = (f.relativePath ?? '').split('/').filter(Boolean).slice(0, -1);
        const problem =
          nameProblem(f.name, '文件名称') ??
          segments.map((s) => nameProblem(s, '文件夹名称')).find((p) => p !== null) ??
          null;
        if (problem) {
          rejected.push({ name: f.name, reason: problem });
          continue;
        }
        ok.push(f);
      }
      if (remaining !== null && ok.length) {
        let queued = 0;
        for (const it of items.values()) if (it.row.state !== 'success') queued += it.row.size - it.row.done;
        const batch = ok.reduce((a, f) => a + f.file.size, 0);
        if (batch + queued > remaining) return { added: 0, rejected, batchRefused: tUpload.noRoom };
      }
      if (!ok.length) return { added: 0, rejected };
      const batchId = newId();
      const at = now();
      const rows: UploadRow[] = ok.map((f) => ({
        id: newId(),
        batchId,
        way,
        name: f.name,
        relativePath: f.relativePath ?? '',
        filePath: target.filePath,
        area: target.area,
        size: f.file.size,
        lastModified: f.lastModified ?? at,
        mime: f.file.type,
        state: 'waiting',
        hashed: 0,
        done: 0,
        kept: null,
        createdAt: at,
        updatedAt: at,
        sent: 0,
      }));
      // One transaction for the batch: a folder of a thousand files is one write, not a thousand.
      const seqs = await db.transaction('rw', db.uploads, () => db.uploads.bulkAdd(rows, { allKeys: true }));
      const added = rows.map((row, i) => {
        const it = newItem({ ...row, seq: seqs[i] as number }, ok[i]!.file);
        items.set(row.id, it);
        return it;
      });
      changed(true);
      pump();
      keepCopies(added);
      return { added: added.length, rejected };
    },

    pause(id: string) {
      const it = items.get(id);
      if (!it || !ACTIVE.has(it.row.state)) return;
      void save(it, { state: 'paused' }, true);
      it.ctl?.abort();
      pump();
    },

    resume(id: string) {
      const it = items.get(id);
      if (!it || (it.row.state !== 'paused' && it.row.state !== 'error')) return;
      void save(it, { state: 'waiting', error: undefined }, true).then(pump);
    },

    async cancel(id: string) {
      const it = items.get(id);
      if (!it) return;
      // The server's key of the upload, while its row still says it (hashed, not finished).
      const query = it.row.md5 && it.row.state !== 'success' ? queryOf(it.row, 1) : null;
      it.ctl?.abort();
      await removeItem(it);
      pump();
      if (query) void dropOnServer(it, query);
    },

    /**
     * The item's file picked again (its bytes were not kept). Answers why it cannot be used, or
     * null when it was taken: the name and size must match now, the MD5 once it is hashed.
     */
    reselect(id: string, file: File): string | null {
      const it = items.get(id);
      if (!it || it.row.state !== 'needsFile') return null;
      if (file.name !== it.row.name || file.size !== it.row.size) return tUpload.notSameFile;
      it.file = file;
      it.verify = Boolean(it.row.md5);
      void save(it, { state: 'waiting', error: undefined }, true).then(() => {
        pump();
        keepCopies([it]);
      });
      return null;
    },

    pauseAll() {
      for (const it of items.values()) if (ACTIVE.has(it.row.state)) this.pause(it.row.id);
    },
    resumeAll() {
      for (const it of items.values())
        if (it.row.state === 'paused' || it.row.state === 'error') this.resume(it.row.id);
    },
    /** Removes the finished items from the list. */
    async clearFinished() {
      for (const it of [...items.values()]) if (it.row.state === 'success') await removeItem(it);
    },
    async cancelAll() {
      for (const it of [...items.values()]) await this.cancel(it.row.id);
    },

    wake,

    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    on(listener: (e: UploadEvent) => void) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    /** Items that still need the server (not finished), for the quota check and sign-out. */
    pendingCount: () => [...items.values()].filter((it) => it.row.state !== 'success').length,

    /** Stops everything this tab runs (sign-out, another user); rows stay for next time. */
    async stop() {
      stopped = true;
      clearTimeout(probe);
      for (const it of items.values()) it.ctl?.abort();
      clearTimeout(saveTimer);
      await flush();
    },
  };
}
export type UploadEngine = ReturnType<typeof createUploadEngine>;
