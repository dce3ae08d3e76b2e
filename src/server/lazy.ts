/**
 * Heavy libraries loaded on their first use instead of at start (issue 25): together they were
 * about half of the server's start time and a good part of its memory at rest, yet most
 * installations use them rarely (an Excel export, an S3 bucket, Redis) or never. Each loader
 * imports once; later calls get the same module.
 */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () =>
    (p ??= load().catch((err: unknown) => {
      p = undefined; // a failed load (a missing optional package) is tried again next time
      throw err;
    }));
}

/** exceljs (≈1 s to load, ≈30 MB): the Excel exports and imports. */
export const loadExcel = once(() => import('exceljs').then((m) => m.default));

/**
 * sharp and libvips (≈0.4 s to load, and the native library's pages): thumbnails, posters,
 * covers, image search. libvips' operation cache is off: a server makes each thumbnail once and
 * keeps it on the shelf, so cached decodes would only hold memory after a burst (up to 50 MB
 * by default) and files open after their content was removed.
 */
export const loadSharp = once(async () => {
  const sharp = (await import('sharp')).default;
  sharp.cache(false);
  return sharp;
});
