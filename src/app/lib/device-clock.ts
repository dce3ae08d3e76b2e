import { measureOffset } from '../../shared/rules/clock-offset';
import { currentDb } from './offline';

/**
 * This device's clock offset from the server's (shared/rules/clock-offset.ts), kept on the
 * device so a write made offline carries the last one measured: the volunteer's phone and the
 * gate tablet both measure it on every read that answers the server's time (`timedRead`).
 */

/** One offset per user on this device: the last measured. (The key predates the gate: kept so phones keep theirs.) */
const CLOCK_KEY = JSON.stringify(['volunteer-checkin', 'clock']);

async function saveClock(offsetMs: number) {
  await currentDb()
    ?.cache.put({ key: CLOCK_KEY, data: { offsetMs }, syncedAt: Date.now() })
    .catch(() => undefined);
}

/** The last offset measured on this device, if any. */
export async function lastClockOffset(): Promise<number | undefined> {
  const row = await currentDb()
    ?.cache.get(CLOCK_KEY)
    .catch(() => undefined);
  return (row?.data as { offsetMs?: number } | undefined)?.offsetMs;
}

/** Runs a read that answers `serverTime`, measures the offset on the way and keeps it. */
export async function timedRead<T extends { serverTime: number }>(
  read: () => Promise<T>,
): Promise<T & { offsetMs: number }> {
  const sentAt = Date.now();
  const r = await read();
  const offsetMs = measureOffset(sentAt, Date.now(), r.serverTime);
  await saveClock(offsetMs);
  return { ...r, offsetMs };
}
