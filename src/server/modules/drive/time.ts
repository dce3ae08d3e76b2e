/**
 * Drive times are stored as epoch milliseconds and shown as 'yyyy-MM-dd HH:mm:ss' in museum
 * time (Asia/Shanghai), whatever zone the server runs in. China has had no daylight saving
 * since 1991, so a fixed UTC+8 offset is exact for every time this product stores and needs no
 * time-zone database.
 */
const OFFSET_MS = 8 * 3600_000;

/** Epoch ms → 'yyyy-MM-dd HH:mm:ss' in Asia/Shanghai. */
export function museumTime(ms: number): string {
  const iso = new Date(ms + OFFSET_MS).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** Epoch ms → 'yyyyMMddHHmmss' in Asia/Shanghai, for generated file names. */
export function museumStamp(ms: number): string {
  return museumTime(ms).replace(/[-: ]/g, '');
}
