import type { FileDetail, FileEntry, MusicInfo } from '../../../shared/api/drive';
import type { PreviewKind } from '../../../shared/drive/file-types';
import type { Db } from '../../db/index';
import { invalid, notFound } from '../../errors';
import type { BlobStore } from '../../storage/blob-store';
import { HEAD_BYTES, imageSize } from '../../storage/image-size';
import { StoreReadError, withLocalFile } from '../../storage/local-copy';
import type { Area } from './area';
import { decodeText } from './download';
import * as driveRepo from './drive.repo';
import { NOT_FOUND, type StoredFile } from './drive.service';
import { createLimiter, createOnce } from './limiter';
import * as repo from './media.repo';
import { isMusic, lyricsFromLrc, readMusic } from './music';
import type { Thumb, Thumbs } from './thumbs';

/** Video files a poster may be set for: the ones the video previewer plays. */
export const POSTER_EXTS = new Set(['mp4', 'm4v', 'webm', 'mov']);
export const NOT_VIDEO = '只有视频文件可以设置封面';
/** Images whose width and height the details show (SVG has no pixel size). */
const SIZED_EXTS = new Set(['jpg', 'jpeg', 'png', 'gif', 'bmp', 'webp']);
/** A tag read that takes longer is given up (and remembered as failed). */
const PARSE_TIMEOUT_MS = 15_000;
/** Raise when the tag reading changes, so rows of the older reading are read again. */
const PARSER_VERSION = 1;
/** A lyrics file beside the audio larger than this is not lyrics. */
const LRC_MAX_BYTES = 1024 * 1024;

const NO_MUSIC: MusicInfo = {
  title: null,
  artist: null,
  album: null,
  albumImage: null,
  trackLength: null,
  lyrics: null,
};

function fromRow(r: repo.MediaRow): MusicInfo {
  return {
    title: r.title,
    artist: r.artist,
    album: r.album,
    albumImage: r.album_image,
    trackLength: r.track_length === null ? null : Number(r.track_length),
    lyrics: r.lyrics,
  };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/**
 * Media details over the drive (issue 5): thumbnails and posters for previews, music tags and
 * lyrics and image sizes for file/detail. Tags are read once per content blob — when an upload
 * completes, or at the first detail call for files stored before — and kept in media_info,
 * failures included.
 */
export function createMediaService(deps: {
  db: Db;
  store: BlobStore;
  thumbs: Thumbs;
  /** Where a store without local files puts the temporary copy the tag reader reads. */
  tmpDir: string;
  /** Told when a tag read fails (for the log). */
  onParseError?: (md5: string, err: unknown) => void;
}) {
  const { db, store, thumbs } = deps;
  const limit = createLimiter(2);
  const once = createOnce<MusicInfo | null>();

  /** The tags, null when the content has none readable; throws StoreReadError when the store failed. */
  async function parse(md5: string): Promise<MusicInfo | null> {
    try {
      // music-metadata seeks (tags at both ends): it reads a file, the object store's blob as
      // a temporary copy (once per content; the result is kept).
      return await limit(() =>
        withLocalFile(store, md5, deps.tmpDir, (file) =>
          withTimeout(readMusic(file, thumbs.cover), PARSE_TIMEOUT_MS),
        ),
      );
    } catch (err) {
      if (err instanceof StoreReadError) throw err;
      deps.onParseError?.(md5, err);
      return null;
    }
  }

  /** The tags of a blob: stored, or read now and stored (a failed read as a failure). */
  function tagsOf(blob: { id: number; md5: string }): Promise<MusicInfo | null> {
    return once(blob.md5, async () => {
      const row = await repo.findMedia(db, blob.id);
      if (row && row.version === PARSER_VERSION) return row.ok ? fromRow(row) : null;
      let tags: MusicInfo | null;
      try {
        tags = await parse(blob.md5);
      } catch (err) {
        // The store could not be read: not the content's fault, so nothing is remembered.
        deps.onParseError?.(blob.md5, err);
        return null;
      }
      const next: repo.MediaRow = {
        blob_id: blob.id,
        ok: tags ? 1 : 0,
        version: PARSER_VERSION,
        title: tags?.title ?? null,
        artist: tags?.artist ?? null,
        album: tags?.album ?? null,
        album_image: tags?.albumImage ?? null,
        track_length: tags?.trackLength ?? null,
        lyrics: tags?.lyrics ?? null,
        created_at: Date.now(),
      };
      try {
        await (row ? repo.replaceMedia(db, next) : repo.saveMedia(db, next));
      } catch {
        // The content was removed meanwhile (its row is gone): nothing to keep the tags for.
      }
      return tags;
    });
  }

  /** Lyrics from a same-named `.lrc` in the same folder of the same area, read each time. */
  async function lrcLyrics(space: string, filePath: string, fileName: string): Promise<string | null> {
    const lrc = await repo.lrcBeside(db, space, filePath, fileName);
    if (!lrc || Number(lrc.size) > LRC_MAX_BYTES) return null;
    try {
      const parts: Buffer[] = [];
      for await (const c of store.open(lrc.md5)) parts.push(c as Buffer);
      return lyricsFromLrc(decodeText(Buffer.concat(parts)));
    } catch {
      return null;
    }
  }

  async function sizeOf(md5: string, size: number) {
    if (size === 0) return null;
    const parts: Buffer[] = [];
    try {
      for await (const c of store.open(md5, { start: 0, end: Math.min(size, HEAD_BYTES) - 1 })) {
        parts.push(c as Buffer);
      }
    } catch {
      return null;
    }
    return imageSize(Buffer.concat(parts));
  }

  return {
    /**
     * After a file is stored (upload completion, addFile): starts reading an audio file's tags
     * in the background, so the upload's answer does not wait for it and the first details
     * call usually finds them ready (a details call during the read joins it).
     */
    onStored(file: StoredFile): void {
      if (!isMusic(file.extendName)) return;
      void (async () => {
        const id = await repo.blobIdOf(db, file.md5);
        if (id !== undefined) await tagsOf({ id, md5: file.md5 });
      })().catch((err: unknown) => deps.onParseError?.(file.md5, err));
    },

    /**
     * file/detail: the entry with its image size (read now when it was not recorded at upload)
     * and, for audio, the music details: the tags' fields (null when unknown or unreadable) and
     * lyrics from the tags or, failing that, from `<same name>.lrc` beside it (not for share
     * visitors: that file may not be part of the share).
     */
    async detail(area: Area, entry: FileEntry, opts: { lyricsBeside?: boolean } = {}): Promise<FileDetail> {
      const out: FileDetail = { ...entry, music: null };
      if (entry.isDir) return out;
      const ext = entry.extendName.toLowerCase();
      const needsSize = SIZED_EXTS.has(ext) && (entry.imageWidth === null || entry.imageHeight === null);
      const music = isMusic(ext);
      if (!needsSize && !music) return out;
      const blob = await repo.blobOfAny(db, area.space, entry.userFileId);
      if (!blob) return out;
      if (needsSize) {
        const dims = await sizeOf(blob.md5, Number(blob.size));
        if (dims) {
          out.imageWidth = dims.width;
          out.imageHeight = dims.height;
          await repo.setImageSize(db, area.space, entry.userFileId, dims.width, dims.height);
        }
      }
      if (music) {
        const tags = (await tagsOf(blob)) ?? NO_MUSIC;
        const lyrics =
          tags.lyrics ??
          (opts.lyricsBeside === false ? null : await lrcLyrics(area.space, entry.filePath, entry.fileName));
        out.music = { ...tags, lyrics };
      }
      return out;
    },

    /**
     * The small image `filetransfer/preview?isMin=1` answers: an image's thumbnail, a video's
     * poster in this area, or null (no thumbnail: the list shows the file's icon). Audio, text
     * and the rest have none; they never get their full bytes sent to a thumbnail slot.
     */
    async thumbnail(
      area: Area,
      file: { md5: string; name: string },
      kind: PreviewKind,
    ): Promise<Thumb | null> {
      if (kind === 'image' || kind === 'svg') return thumbs.image(file.md5);
      if (kind === 'video') return thumbs.poster(file.md5, area.space);
      return null;
    },

    /** Sets a video's poster in the area (the caller already holds the right to manage it). */
    async setPoster(area: Area, userFileId: number, body: Buffer) {
      const row = await driveRepo.findLive(db, area.space, userFileId);
      if (!row) throw notFound(NOT_FOUND);
      if (row.is_dir || !POSTER_EXTS.has(row.extend_name.toLowerCase())) throw invalid(NOT_VIDEO);
      const blob = await driveRepo.blobOf(db, area.space, row.id);
      if (!blob) throw notFound(NOT_FOUND);
      await thumbs.setPoster(blob.md5, area.space, body);
    },
  };
}
export type MediaService = ReturnType<typeof createMediaService>;
