import { randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import {
  UNZIP_RECENT_MAX,
  UNZIP_RECENT_MS,
  type UnzipBody,
  type UnzipJob,
  type UnzipStatus,
} from '../../../shared/api/unzip';
import { driveName } from '../../../shared/drive/archive-names';
import { isArchive } from '../../../shared/drive/file-types';
import { ROOT, folderPath, joinName } from '../../../shared/drive/names';
import type { Db } from '../../db/index';
import { AppError, invalid, notFound } from '../../errors';
import { createLocalLocks, type Locks } from '../../cluster/locks';
import type { BlobStore } from '../../storage/blob-store';
import { withLocalFile } from '../../storage/local-copy';
import type { Area } from '../drive/area';
import { type DriveService, TARGET_MISSING, type TreeItem } from '../drive/drive.service';
import { museumTime } from '../drive/time';
import type { ExtractResult, Progress } from './extract';
import { ExtractError } from './extract-error';
import { runExtract } from './run-extract';
import * as repo from './unzip.repo';

export const NOT_ARCHIVE = '只能解压 zip、rar、7z、tar、gz 格式的压缩包';
export const JOB_GONE = '解压任务不存在或已过期';
export const RESTARTED = '服务器在解压过程中重启，解压已中断，没有写入任何文件，请重新解压';
export const FAILED = '解压失败，请稍后重试';
export const DONE_MESSAGE = '解压成功';
export const QUEUED = '排队中，等待其他解压任务完成…';
/** At most this many unfinished jobs per person; more are refused. */
export const PER_USER = 3;
/** Extractions at the same time (each a worker thread with its own CPU). */
const PARALLEL = 2;
/** Uncompressed bytes below which no compression ratio is suspicious (a small file of zeros). */
const RATIO_FLOOR = 10 * 1024 * 1024;
/** How long the call waits for a job, so a small archive's answer is already final. */
const WAIT_MS = 2000;

export interface UnzipDeps {
  db: Db;
  drive: DriveService;
  store: BlobStore;
  limits: { maxEntries: number; maxBytes: number; maxRatio: number; timeoutMs: number; tmpDir: string };
  log?: (msg: string, detail: unknown) => void;
  /**
   * A running job holds its lock (`unzip:<id>`), so an instance can tell a job another
   * instance runs from one whose instance is gone. In-process unless given (Redis).
   */
  locks?: Locks;
}

/**
 * Unzip jobs (issue 6; README "Unzip"). A call checks the archive and the target, records a
 * job and starts it; the answer waits briefly so a small archive comes back finished. The job
 * reads the archive in a worker thread into DATA_DIR/unzip-tmp/<job>, then the drive imports
 * the tree in one transaction (drive.service addTree). Any failure leaves no rows and no
 * unreferenced bytes; the temporary folder always goes.
 */
export function createUnzipService({
  db,
  drive,
  store,
  limits,
  log = () => undefined,
  locks = createLocalLocks(),
}: UnzipDeps) {
  const live = new Map<string, Progress>();
  const waiters = new Map<string, Promise<void>>();
  let running = 0;
  const queue: (() => void)[] = [];

  async function slot<T>(fn: () => Promise<T>): Promise<T> {
    if (running >= PARALLEL) await new Promise<void>((r) => queue.push(r));
    running++;
    try {
      return await fn();
    } finally {
      running--;
      queue.shift()?.();
    }
  }

  function toJob(r: repo.JobRow): UnzipJob {
    const p = live.get(r.id);
    return {
      jobId: r.id,
      status: r.status as UnzipStatus,
      message: r.message,
      archiveName: r.archive_name,
      targetPath: r.target_path,
      unzipMode: r.unzip_mode,
      entriesDone: p?.entriesDone ?? r.entries_done,
      entriesTotal: p?.entriesTotal ?? r.entries_total,
      bytesDone: p?.bytesDone ?? Number(r.bytes_done),
      bytesTotal: p?.bytesTotal ?? Number(r.bytes_total),
      names: JSON.parse(r.names) as string[],
      createTime: museumTime(Number(r.created_at)),
      finishTime: r.finished_at === null ? null : museumTime(Number(r.finished_at)),
    };
  }

  /**
   * The tree as the drive names it: every segment through the drive's name rules (driveName).
   * `renamed` holds the entries whose own name changed, once each (a renamed folder counts
   * once, not once per file inside it), as the drive names them, so the result can say which.
   */
  function toTree(result: ExtractResult) {
    const renamed = new Map<string, string>();
    const items: TreeItem[] = result.items.map((it) => {
      const segs = it.segments.map((s, i) => {
        const n = driveName(s, it.isDir || i < it.segments.length - 1);
        if (n.replaced) renamed.set(it.segments.slice(0, i + 1).join('/'), n.name);
        return n.name;
      });
      return { dir: segs.slice(0, -1), name: segs[segs.length - 1]!, isDir: it.isDir, file: it.file };
    });
    return { items, renamed: [...renamed.values()] };
  }

  function doneMessage(skippedLinks: number, renamed: string[]) {
    const notes: string[] = [];
    if (skippedLinks) notes.push(`已跳过 ${skippedLinks} 个链接`);
    if (renamed.length) {
      // Naming a few lets the person find them; the rule says what became of the rest.
      const some = renamed.slice(0, 3).join('、') + (renamed.length > 3 ? ' 等' : '');
      notes.push(`${renamed.length} 个名称不符合网盘规则，已改为 ${some}`);
    }
    return notes.length ? `${DONE_MESSAGE}（${notes.join('，')}）` : DONE_MESSAGE;
  }

  async function run(
    jobId: string,
    area: Area,
    archive: { md5: string; size: number; name: string },
    target: { path: string; create: boolean },
  ) {
    const tmp = path.join(limits.tmpDir, jobId);
    let lastSaved = 0;
    const progress = (p: Progress) => {
      live.set(jobId, p);
      if (Date.now() - lastSaved < 1000) return;
      lastSaved = Date.now();
      void repo
        .updateJob(db, jobId, {
          entries_done: p.entriesDone,
          entries_total: p.entriesTotal,
          bytes_done: p.bytesDone,
          bytes_total: p.bytesTotal,
        })
        .catch(() => undefined);
    };
    try {
      const result = await slot(async () => {
        await repo.updateJob(db, jobId, { message: '' });
        await fsp.mkdir(tmp, { recursive: true });
        // The object store's archive is streamed to a temporary copy the worker reads (zip and
        // 7z are read from their end); the extracted files stream back into the store.
        return withLocalFile(store, archive.md5, tmp, async (file) =>
          runExtract(
            {
              archive: file,
              archiveSize: archive.size,
              gzName: archive.name.replace(/\.gz$/i, '') || archive.name,
              outDir: path.join(tmp, 'out'),
              limits: {
                maxEntries: limits.maxEntries,
                maxBytes: limits.maxBytes,
                maxRatio: limits.maxRatio,
                ratioFloor: RATIO_FLOOR,
                roomBytes: await drive.room(area),
              },
            },
            {
              timeoutMs: limits.timeoutMs,
              onProgress: progress,
              onCrash: (d) => log('unzip worker failed', d),
            },
          ),
        );
      });
      const { items, renamed } = toTree(result);
      const total = items.length;
      const bytesTotal = result.items.reduce((n, it) => n + it.size, 0);
      const placed = await drive.addTree({
        area,
        target: target.path,
        createTarget: target.create,
        items,
        onStaged: (files, bytes) =>
          progress({ entriesDone: files, entriesTotal: total, bytesDone: bytes, bytesTotal }),
      });
      live.delete(jobId);
      await repo.updateJob(db, jobId, {
        status: 'done',
        message: doneMessage(result.skippedLinks, renamed),
        target_path: placed.filePath,
        names: JSON.stringify(placed.names),
        entries_done: total,
        entries_total: total,
        bytes_done: bytesTotal,
        bytes_total: bytesTotal,
        finished_at: Date.now(),
      });
    } catch (err) {
      live.delete(jobId);
      const known = err instanceof ExtractError || err instanceof AppError;
      if (!known) log('unzip failed', err);
      await repo.updateJob(db, jobId, {
        status: 'failed',
        message: known ? (err as Error).message : FAILED,
        finished_at: Date.now(),
      });
    } finally {
      await fsp.rm(tmp, { recursive: true, force: true });
    }
  }

  /**
   * Fails the running jobs nobody runs any more: those whose lock no instance holds (at this
   * instance's start, alone, that is every running job: whatever ran was cut off).
   */
  async function failOrphans(now = Date.now()) {
    const orphans: string[] = [];
    for (const { id } of await repo.running(db)) if (!(await locks.held(`unzip:${id}`))) orphans.push(id);
    await repo.failRunning(db, orphans, RESTARTED, now);
  }

  return {
    /** At start: jobs cut off by a restart are failed, and this instance's temporary files removed. */
    async recover() {
      await failOrphans();
      await fsp.rm(limits.tmpDir, { recursive: true, force: true });
      await fsp.mkdir(limits.tmpDir, { recursive: true });
    },

    /** A background job with several instances: jobs of an instance that died are failed. */
    failOrphans,

    /** file/unzipfile: checks, records and starts a job; answers it (finished when quick). */
    async start(area: Area, userId: number, b: z.output<typeof UnzipBody>): Promise<UnzipJob> {
      const entry = await drive.detail(area, b.userFileId, false);
      const ext = entry.extendName.toLowerCase();
      if (entry.isDir || !isArchive(ext)) throw invalid(NOT_ARCHIVE);
      const plan = await drive.download(area, { userFileId: b.userFileId });
      if (plan.kind !== 'file') throw invalid(NOT_ARCHIVE);
      const busy = () => invalid(`您已有 ${PER_USER} 个解压任务正在进行，请等它们完成后再试`);
      if ((await repo.countRunning(db, userId)) >= PER_USER) throw busy();
      // Mode 1's folder is the archive's name without its extension (`a.tar.gz` → `a`).
      const base = entry.fileName.replace(/\.tar$/i, '') || entry.fileName;
      const target =
        b.unzipMode === 0
          ? { path: entry.filePath, create: false }
          : b.unzipMode === 1
            ? { path: folderPath(entry.filePath, base), create: true }
            : { path: b.filePath ?? ROOT, create: false };
      // A folder chosen in the tree may have gone meanwhile: said now, in the dialog, not later.
      if (!target.create && !(await drive.folderExists(area, target.path))) throw notFound(TARGET_MISSING);
      const jobId = randomUUID();
      const now = Date.now();
      // The job's lock is taken before its row exists and let go after its row says done or
      // failed: a running row whose lock nobody holds is an orphan (failOrphans).
      let inserted!: { ok: (recorded: boolean) => void; fail: (err: unknown) => void };
      const rowWritten = new Promise<boolean>((ok, fail) => (inserted = { ok, fail }));
      const done = locks
        .with(`unzip:${jobId}`, async () => {
          let recorded: boolean;
          try {
            recorded = await repo.insertJob(db, PER_USER, {
              id: jobId,
              user_id: userId,
              space: area.space,
              user_file_id: b.userFileId,
              archive_name: joinName(entry.fileName, entry.extendName),
              target_path: target.path,
              unzip_mode: b.unzipMode,
              status: 'running',
              message: running >= PARALLEL ? QUEUED : '',
              entries_done: 0,
              entries_total: 0,
              bytes_done: 0,
              bytes_total: 0,
              names: '[]',
              created_at: now,
            });
          } catch (err) {
            inserted.fail(err);
            return;
          }
          inserted.ok(recorded);
          if (recorded) await run(jobId, area, { md5: plan.md5, size: plan.size, name: plan.name }, target);
        })
        .catch((err: unknown) => inserted.fail(err))
        .finally(() => waiters.delete(jobId));
      waiters.set(jobId, done);
      // Counted again with the insert: parallel calls that all passed the first count.
      if (!(await rowWritten)) throw busy();
      await Promise.race([done, new Promise((r) => setTimeout(r, WAIT_MS))]);
      return this.job(userId, jobId);
    },

    /** file/unzipjob: one of the caller's own jobs. */
    async job(userId: number, jobId: string): Promise<UnzipJob> {
      const row = await repo.findOwn(db, userId, jobId);
      if (!row) throw notFound(JOB_GONE);
      return toJob(row);
    },

    /** file/unzipjobs: the caller's recent jobs, newest first. */
    async recent(userId: number): Promise<{ list: UnzipJob[] }> {
      const rows = await repo.recentOwn(db, userId, Date.now() - UNZIP_RECENT_MS, UNZIP_RECENT_MAX);
      return { list: rows.map(toJob) };
    },

    /** Waits for every job in flight (server close, tests). */
    async settle() {
      await Promise.allSettled([...waiters.values()]);
    },
  };
}
export type UnzipService = ReturnType<typeof createUnzipService>;
