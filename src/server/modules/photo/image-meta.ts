/*
 * The date taken and the keywords of a photo, from the metadata sharp hands over raw: EXIF
 * (DateTimeOriginal, else DateTime) and XMP (dc:subject, the keywords Lightroom, Bridge and
 * the museum's cataloguing tools write). Small readers of our own: bounded, never throw.
 */

const MAX_TAGS = 40;
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f]/g;
const MAX_TAG_CHARS = 50;

/** 'YYYY:MM:DD HH:MM:SS' (EXIF, camera local time, read as China time) as epoch ms, or null. */
function exifDate(s: string): number | null {
  const m = /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(s);
  if (!m) return null;
  const [y, mo, d, h, mi, se] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  if (y < 1900 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60) return null;
  // The camera's clock has no zone; the museum's is UTC+8.
  return Date.UTC(y, mo - 1, d, h - 8, mi, se);
}

/**
 * The date taken from an EXIF block (as sharp's metadata().exif gives it: "Exif\0\0" and a
 * TIFF header, or the TIFF header alone).
 */
export function exifTakenAt(exif: Buffer | undefined): number | null {
  if (!exif || exif.length < 14) return null;
  try {
    const t = exif.toString('latin1', 0, 6) === 'Exif\0\0' ? 6 : 0;
    const order = exif.toString('latin1', t, t + 2);
    if (order !== 'II' && order !== 'MM') return null;
    const le = order === 'II';
    const u16 = (o: number) => (le ? exif.readUInt16LE(t + o) : exif.readUInt16BE(t + o));
    const u32 = (o: number) => (le ? exif.readUInt32LE(t + o) : exif.readUInt32BE(t + o));
    const ascii = (count: number, at: number) => {
      const o = count <= 4 ? at : u32(at);
      if (t + o + count > exif.length) return '';
      return exif.toString('latin1', t + o, t + o + count).replace(/\0.*$/s, '');
    };
    /** The entries of the IFD at `ifd`: tag → [type, count, value offset]. */
    const entries = (ifd: number) => {
      const out = new Map<number, [number, number, number]>();
      if (ifd <= 0 || t + ifd + 2 > exif.length) return out;
      const n = Math.min(u16(ifd), 512);
      for (let i = 0; i < n; i++) {
        const e = ifd + 2 + i * 12;
        if (t + e + 12 > exif.length) break;
        out.set(u16(e), [u16(e + 2), u32(e + 4), e + 8]);
      }
      return out;
    };
    const ifd0 = entries(u32(4));
    const exifIfd = ifd0.get(0x8769);
    const sub = exifIfd ? entries(u32(exifIfd[2])) : new Map<number, [number, number, number]>();
    for (const [dir, tag] of [
      [sub, 0x9003],
      [sub, 0x9004],
      [ifd0, 0x0132],
    ] as const) {
      const e = dir.get(tag);
      if (e && e[0] === 2) {
        const at = exifDate(ascii(e[1], e[2]));
        if (at !== null) return at;
      }
    }
    return null;
  } catch {
    return null;
  }
}

function unescapeXml(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Math.min(Number(n), 0x10ffff)))
    .replace(/&amp;/g, '&');
}

/** The keywords (dc:subject) of an XMP packet, trimmed, without duplicates. */
export function xmpTags(xmp: Buffer | undefined): string[] {
  if (!xmp || xmp.length === 0) return [];
  const text = xmp.toString('utf8', 0, Math.min(xmp.length, 256 * 1024));
  const subject = /<dc:subject\b[^>]*>([\s\S]*?)<\/dc:subject>/.exec(text);
  if (!subject) return [];
  const out = new Set<string>();
  for (const m of subject[1]!.matchAll(/<rdf:li\b[^>]*>([\s\S]*?)<\/rdf:li>/g)) {
    const tag = unescapeXml(m[1]!).replace(CONTROLS, '').trim().slice(0, MAX_TAG_CHARS);
    if (tag) out.add(tag);
    if (out.size >= MAX_TAGS) break;
  }
  return [...out];
}
