import fsp from 'node:fs/promises';
import { parseFile } from 'music-metadata';
import type { Db } from '../../db/index';
import type { RecordService } from '../../records/records.service';
import type { BlobStore } from '../../storage/blob-store';
import { StoreReadError, withLocalFile } from '../../storage/local-copy';
import { findAttachment } from '../attach/attach.repo';
import { createLimiter, createOnce } from '../drive/limiter';

/**
 * Durations read from the files (README "Media: Range and durations"): when a content row is
 * saved with an audio or video upload, its seconds come from the file.
 *
 * | record                                  | file field  | seconds field     |
 * | --------------------------------------- | ----------- | ----------------- |
 * | 音视频 AudioVideo                       | mediaFile   | durationSeconds   |
 * | 电台节目 bsElecticWave                  | audioId     | durationSeconds   |
 * | 导览展厅 / 章节 / 单元 (bsGuide…)       | audioId     | audioSeconds      |
 *
 * **Decision: the file is the truth.** Left empty, the seconds are filled from the file; a typed
 * value more than 2 s away from the file's is replaced (within 2 s the editor's rounding stays).
 * A file that cannot be read (broken, not media, a read that takes over 15 s) changes nothing:
 * the row is saved with whatever was typed, empty when nothing was — never a refusal or a 500.
 * An outside address (AudioVideo's `url`) is never fetched: its seconds stay as typed.
 *
 * Read before the save's transaction (the engine's form fill), at most two at a time, once per
 * content (blobs never change under their MD5, so the answer is kept).
 */

const FIELDS: Record<string, { file: string; seconds: string; max: number }> = {
  AudioVideo: { file: 'mediaFile', seconds: 'durationSeconds', max: 360_000 },
  bsElecticWave: { file: 'audioId', seconds: 'durationSeconds', max: 36_000 },
  bsGuideShowroom: { file: 'audioId', seconds: 'audioSeconds', max: 36_000 },
  bsGuideChapter: { file: 'audioId', seconds: 'audioSeconds', max: 36_000 },
  bsGuideUnit: { file: 'audioId', seconds: 'audioSeconds', max: 36_000 },
};

/** A typed value this close to the file's is the editor's rounding and stays. */
export const DURATION_TOLERANCE_S = 2;
const READ_TIMEOUT_MS = 15_000;
/** Answers kept (by MD5); a museum's media library is hundreds of files. */
const KEPT_MAX = 2000;

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/**
 * An MP4/MOV's length from its movie header (moov › mvhd: duration / timescale), for a video
 * music-metadata gives none for (it reads the length of audio tracks only, so a silent video
 * has none). A fragmented recording whose header says 0 has no length here: null.
 */
export async function movieHeaderSeconds(file: string): Promise<number | null> {
  const fh = await fsp.open(file, 'r');
  try {
    const { size } = await fh.stat();
    const head = Buffer.alloc(32);
    /** The boxes between `from` and `to`: [type, content start, end]. */
    async function* boxes(from: number, to: number) {
      let at = from;
      for (let n = 0; n < 1000 && at + 8 <= to; n++) {
        await fh.read(head, 0, 16, at);
        let len = head.readUInt32BE(0);
        const type = head.toString('latin1', 4, 8);
        let body = at + 8;
        if (len === 1) {
          len = Number(head.readBigUInt64BE(8));
          body = at + 16;
        } else if (len === 0) len = to - at;
        if (len < body - at || at + len > to) return;
        yield [type, body, at + len] as const;
        at += len;
      }
    }
    for await (const [type, body, end] of boxes(0, size)) {
      if (type !== 'moov') continue;
      for await (const [inner, start] of boxes(body, end)) {
        if (inner !== 'mvhd') continue;
        await fh.read(head, 0, 32, start);
        const v1 = head[0] === 1;
        const scale = v1 ? head.readUInt32BE(20) : head.readUInt32BE(12);
        const units = v1 ? Number(head.readBigUInt64BE(24)) : head.readUInt32BE(16);
        return scale > 0 && units > 0 && units !== 0xffffffff ? units / scale : null;
      }
    }
    return null;
  } finally {
    await fh.close();
  }
}

/** The first id of a file field's value as a form sends it ([12], ['12'], 12), or null. */
function firstId(v: unknown): number | null {
  const first = Array.isArray(v) ? v[0] : v;
  const n = typeof first === 'string' && first.trim() !== '' ? Number(first) : first;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** A typed number of seconds, or null when left empty (or not a number: the checks say so). */
function typedSeconds(v: unknown): number | null {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

/** The seconds to store given the file's and the typed ones: undefined keeps the typed value. */
export function secondsToStore(
  fromFile: number | null,
  typed: number | null,
  max: number,
): number | undefined {
  if (fromFile === null || fromFile > max) return undefined;
  if (typed !== null && Math.abs(typed - fromFile) <= DURATION_TOLERANCE_S) return undefined;
  return fromFile;
}

export function registerContentDurations(deps: {
  db: Db;
  records: RecordService;
  /** The attachments' blob store. */
  store: BlobStore;
  /** Where a store without local files puts the temporary copy the reader reads. */
  tmpDir: string;
  /** Told when a file cannot be read (for the log). */
  onReadError?: (md5: string, err: unknown) => void;
}) {
  const { db, store } = deps;
  const limit = createLimiter(2);
  const once = createOnce<number | null>();
  const kept = new Map<string, number | null>();

  /** The whole seconds of a media blob, or null when it cannot be read. */
  async function secondsOfBlob(md5: string): Promise<number | null> {
    if (kept.has(md5)) return kept.get(md5)!;
    return once(md5, async () => {
      let seconds: number | null = null;
      try {
        const d = await limit(() =>
          withLocalFile(store, md5, deps.tmpDir, (file) =>
            // The blob has no extension: the format is found from its bytes.
            withTimeout(
              (async () => {
                const meta = await parseFile(file, { duration: true, skipCovers: true });
                const found = meta.format.duration;
                if (found !== undefined && Number.isFinite(found) && found > 0) return found;
                return meta.format.hasVideo || /isom|mp4|qt/i.test(meta.format.container ?? '')
                  ? movieHeaderSeconds(file)
                  : null;
              })(),
              READ_TIMEOUT_MS,
            ),
          ),
        );
        seconds = d !== null && Number.isFinite(d) && d > 0 ? Math.round(d) : null;
      } catch (err) {
        deps.onReadError?.(md5, err);
        // A store that failed to answer may answer next time; bytes that are not media stay so.
        if (err instanceof StoreReadError) return null;
      }
      if (kept.size >= KEPT_MAX) kept.clear();
      kept.set(md5, seconds);
      return seconds;
    });
  }

  for (const [record, f] of Object.entries(FIELDS))
    deps.records.registerFormFill(record, async (values) => {
      const id = firstId(values[f.file]);
      if (id === null) return {};
      // Only an upload for this record: another's file is refused by the save's own check.
      const att = await findAttachment(db, id);
      if (!att || att.table_name !== record) return {};
      const next = secondsToStore(await secondsOfBlob(att.md5), typedSeconds(values[f.seconds]), f.max);
      return next === undefined ? {} : { [f.seconds]: next };
    });
}
