import type { QueryClient } from '@tanstack/react-query';
import type { MySession } from '../../shared/api/volunteer-service';
import { measureOffset } from '../../shared/rules/clock-offset';
import { sessionCheckIn } from '../../shared/records/volunteer/exhibition-service';
import { museum } from './api';
import { storeViews } from './cached-query';
import { currentDb } from './offline';

/**
 * The volunteer's sessions on the device (records-design §10; README "Volunteer service and
 * check-in"): the check-in page's read, shared so the phone's home can read the week's sessions
 * ahead (`prefetchMySessions`) and each opens with no signal. Every read also measures the
 * phone's clock offset from the server's time and keeps the last one on the device.
 */

/** The one offset per user on this device: the last measured. */
const CLOCK_KEY = JSON.stringify(['volunteer-checkin', 'clock']);

export type SessionView = MySession & { offsetMs: number };

/** The device-cache and query key of one session's page. */
export const mySessionKey = (id: number) => ['volunteer-checkin', 'session', id] as const;

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

/** Reads one session for the phone and measures the clock on the way. */
export async function readMySession(id: number, signal?: AbortSignal): Promise<SessionView> {
  const sentAt = Date.now();
  const r = await museum.get<MySession>(`${sessionCheckIn.base}/mySession`, {
    query: { id },
    signal,
    silent: true,
  });
  const offsetMs = measureOffset(sentAt, Date.now(), r.serverTime);
  await saveClock(offsetMs);
  return { ...r, offsetMs };
}

/**
 * Puts the given sessions on the device as if each page had been opened online (the home's
 * next 7 days). A session that cannot be read (cancelled off the list, not assigned) is skipped.
 */
export async function prefetchMySessions(qc: QueryClient, ids: readonly number[]): Promise<number> {
  const views: { queryKey: readonly unknown[]; data: unknown }[] = [];
  for (const id of ids) {
    try {
      views.push({ queryKey: mySessionKey(id), data: await readMySession(id) });
    } catch {
      /* skipped: the page says so if it is opened */
    }
  }
  if (views.length) await storeViews(qc, views);
  return views.length;
}
