/**
 * LRC lyrics (the `lyrics` of file/detail's music details): `[mm:ss.xx]text` lines, where one
 * line may carry several stamps (a chorus sung twice) and the fraction may have 1–3 digits.
 * Tag lines such as `[ar:…]` or `[offset:+500]` are skipped; offsets are deliberately ignored
 * (players disagree on their sign, and the server's lyrics are already timed to the file).
 */
export interface LrcLine {
  /** Seconds from the start of the song. */
  time: number;
  text: string;
}

const STAMP = /\[(\d{1,3}):(\d{1,2})(?:[.:](\d{1,3}))?\]/g;
const LEADING_STAMPS = /^\s*(?:\[\d{1,3}:\d{1,2}(?:[.:]\d{1,3})?\]\s*)+/;

/** The timed lines in time order (lines of equal time keep their order); [] when none. */
export function parseLrc(text: string | null | undefined): LrcLine[] {
  if (!text) return [];
  const out: LrcLine[] = [];
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const head = LEADING_STAMPS.exec(raw);
    if (!head) continue;
    const body = raw.slice(head[0].length).trim();
    for (const m of head[0].matchAll(STAMP)) {
      const frac = m[3] ? Number(`0.${m[3]}`) : 0;
      out.push({ time: Number(m[1]) * 60 + Number(m[2]) + frac, text: body });
    }
  }
  // Array.prototype.sort is stable, so same-time lines keep the file's order.
  return out.sort((a, b) => a.time - b.time);
}

/** The index of the line being sung at `seconds` (the last one started), or -1 before the first. */
export function activeLine(lines: readonly LrcLine[], seconds: number): number {
  let lo = 0;
  let hi = lines.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (lines[mid]!.time <= seconds + 1e-3) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Lyrics without any stamp (plain USLT text): shown as they are, without following playback. */
export function plainLyrics(text: string | null | undefined): string[] {
  if (!text) return [];
  return text
    .split(/\r\n|\r|\n/)
    .filter((l) => !/^\s*\[[a-z]+:.*\]\s*$/i.test(l))
    .map((l) => l.trim());
}
