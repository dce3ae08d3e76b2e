import { formatMuseumTime } from '../../../shared/rules/museum-time';

/**
 * Drive times are stored as epoch milliseconds and shown as 'yyyy-MM-dd HH:mm:ss' in museum
 * time (Asia/Shanghai), whatever zone the server runs in. China has had no daylight saving
 * since 1991, so a fixed UTC+8 offset is exact for every time this product stores and needs no
 * time-zone database.
 */

/** Epoch ms → 'yyyy-MM-dd HH:mm:ss' in Asia/Shanghai (the shared museum-time rule). */
export const museumTime = formatMuseumTime;

/** Epoch ms → 'yyyyMMddHHmmss' in Asia/Shanghai, for generated file names. */
export function museumStamp(ms: number): string {
  return museumTime(ms).replace(/[-: ]/g, '');
}
