import { HASH_BITS, HASHES_PER_IMAGE, fromHex, popcount32 } from './phash';

/*
 * The hashes of every image, in memory, for picture search (README "Image search"). One slot
 * per content (MD5) holds its HASHES_PER_IMAGE hashes in a flat Uint32Array (hi, lo pairs), so
 * a search is one pass of XOR and popcount: 100,000 images are 1,000,000 hashes, 8 MB, a few
 * milliseconds (tests/bench/photo-search.ts).
 *
 * Several instances (ARCHITECTURE §10): each keeps its own copy, filled from the image_hash
 * table and caught up before every search with the rows added since (by any instance). The
 * table is append-only per content, so "added since" is enough; rows of removed content stay
 * until the hourly prune and are harmless meanwhile, as every hit is resolved against the
 * files and records the caller may see.
 */

export interface IndexRow {
  md5: string;
  hashes: string;
}

export interface Match {
  md5: string;
  distance: number;
}

const STRIDE = HASHES_PER_IMAGE * 2;

export function createPhotoIndex() {
  let words = new Uint32Array(1024 * STRIDE);
  /** How many hashes each slot really has (rows of an older method may have fewer). */
  let counts = new Uint8Array(1024);
  const md5s: string[] = [];
  const slotOf = new Map<string, number>();

  function grow() {
    const w = new Uint32Array(words.length * 2);
    w.set(words);
    words = w;
    const c = new Uint8Array(counts.length * 2);
    c.set(counts);
    counts = c;
  }

  return {
    get size() {
      return md5s.length;
    },
    /** Adds or replaces the hashes of a content. */
    put(row: IndexRow) {
      const n = Math.min(HASHES_PER_IMAGE, Math.floor(row.hashes.length / 16));
      if (n === 0) return;
      let slot = slotOf.get(row.md5);
      if (slot === undefined) {
        slot = md5s.length;
        if ((slot + 1) * STRIDE > words.length) grow();
        md5s.push(row.md5);
        slotOf.set(row.md5, slot);
      }
      for (let i = 0; i < n; i++) {
        const [hi, lo] = fromHex(row.hashes.slice(i * 16, i * 16 + 16));
        words[slot * STRIDE + i * 2] = hi;
        words[slot * STRIDE + i * 2 + 1] = lo;
      }
      counts[slot] = n;
    },
    has(md5: string) {
      return slotOf.has(md5);
    },
    /**
     * Every content within `maxDistance` bits of `q` (its best hash counting), best first, at
     * most `limit`.
     */
    nearest(q: readonly [number, number], maxDistance: number, limit: number): Match[] {
      const [qh, ql] = q;
      const hits: Match[] = [];
      const n = md5s.length;
      for (let s = 0; s < n; s++) {
        const base = s * STRIDE;
        const c = counts[s]!;
        let best = HASH_BITS + 1;
        for (let i = 0; i < c; i++) {
          const d =
            popcount32((words[base + i * 2]! ^ qh) >>> 0) + popcount32((words[base + i * 2 + 1]! ^ ql) >>> 0);
          if (d < best) best = d;
        }
        if (best <= maxDistance) hits.push({ md5: md5s[s]!, distance: best });
      }
      hits.sort((a, b) => a.distance - b.distance || (a.md5 < b.md5 ? -1 : 1));
      return hits.slice(0, limit);
    },
  };
}
export type PhotoIndex = ReturnType<typeof createPhotoIndex>;
