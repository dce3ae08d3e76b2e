import { type IAudioMetadata, type ILyricsTag, parseFile } from 'music-metadata';
import type { MusicInfo } from '../../../shared/api/drive';

/*
 * Music details from the tags (spec/drive.md §3 "Music details"; research/qiwen-drive.md §5.3),
 * read with music-metadata: title, artist, album, the cover, the length and the lyrics.
 */

/** Audio whose tags are read: the spec's audio list. */
export const MUSIC_EXTS = ['mp3', 'flac', 'm4a', 'aac', 'wav', 'ogg', 'wma', 'ape'] as const;

export function isMusic(extendName: string): boolean {
  return (MUSIC_EXTS as readonly string[]).includes(extendName.toLowerCase());
}

/** Tag text beyond this is cut: a title is a line, not a document. */
const TEXT_MAX = 500;
/** Lyrics beyond this are cut (a long song's LRC is a few KB). */
export const LYRICS_MAX = 64 * 1024;

const pad = (n: number) => String(n).padStart(2, '0');

/** An LRC time tag, `[mm:ss.xx]` (minutes may pass 99). */
export function lrcTime(ms: number): string {
  const cs = Math.max(0, Math.round(ms / 10));
  return `[${pad(Math.floor(cs / 6000))}:${pad(Math.floor(cs / 100) % 60)}.${pad(cs % 100)}]`;
}

/** Line ends as `\n`, no NUL, trimmed, at most `max` characters; empty is null. */
function clean(s: string | undefined, max = TEXT_MAX): string | null {
  const t = s?.replace(/\0/g, '').replace(/\r\n?/g, '\n').trim();
  return t ? t.slice(0, max) : null;
}

/** MPEG samples per frame, for SYLT timestamps counted in frames. */
function samplesPerFrame(codec: string | undefined): number {
  if (codec?.includes('Layer 1')) return 384;
  if (codec?.includes('Layer 3') && /MPEG 2(\.5)?\b/.test(codec)) return 576;
  return 1152;
}

/**
 * Lyrics as text the player can follow: synchronised lyrics (ID3 SYLT, or LRC stored in a
 * lyrics tag) become `[mm:ss.xx]line` lines; unsynchronised lyrics (ID3 USLT) are kept as they
 * are — LRC when their author wrote LRC, plain lines otherwise. Synchronised ones win.
 */
export function lyricsFromTags(
  tags: readonly ILyricsTag[] | undefined,
  format: Pick<IAudioMetadata['format'], 'sampleRate' | 'codec'> = {},
): string | null {
  if (!tags?.length) return null;
  for (const t of tags) {
    const lines = t.syncText?.filter((l) => typeof l.timestamp === 'number') ?? [];
    if (!lines.length) continue;
    // TimestampFormat: 1 counts MPEG frames, 2 milliseconds.
    let toMs = (x: number) => x;
    if (t.timeStampFormat === 1) {
      if (!format.sampleRate) continue;
      const frame = (samplesPerFrame(format.codec) / format.sampleRate) * 1000;
      toMs = (x) => x * frame;
    } else if (t.timeStampFormat !== 2) {
      continue;
    }
    const text = lines.map((l) => `${lrcTime(toMs(l.timestamp!))}${clean(l.text) ?? ''}`).join('\n');
    return clean(text, LYRICS_MAX);
  }
  for (const t of tags) {
    const text = clean(t.text, LYRICS_MAX);
    if (text) return text;
  }
  return null;
}

/** Text of an `.lrc` file beside the audio, cleaned like tag lyrics. */
export function lyricsFromLrc(text: string): string | null {
  return clean(text.replace(/^\uFEFF/, ''), LYRICS_MAX);
}

/**
 * Reads the tags of an audio file. `cover` turns the embedded picture into the small data URL
 * the details carry. Throws when the file is not audio music-metadata can read.
 */
export async function readMusic(
  file: string,
  cover: (picture: Uint8Array) => Promise<string | null>,
): Promise<MusicInfo> {
  // The stored blob has no extension: the format is found from the content.
  const m = await parseFile(file, { duration: false });
  const c = m.common;
  const pic = c.picture?.find((p) => /front/i.test(p.type ?? '')) ?? c.picture?.[0];
  const seconds = m.format.duration;
  return {
    title: clean(c.title),
    artist: clean(c.artist ?? c.artists?.join('/')),
    album: clean(c.album),
    albumImage: pic ? await cover(pic.data) : null,
    trackLength: seconds !== undefined && Number.isFinite(seconds) ? Math.round(seconds * 1000) / 1000 : null,
    lyrics: lyricsFromTags(c.lyrics, m.format),
  };
}
