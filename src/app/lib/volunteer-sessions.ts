import type { QueryClient } from '@tanstack/react-query';
import type { MySession } from '../../shared/api/volunteer-service';
import { sessionCheckIn } from '../../shared/records/volunteer/exhibition-service';
import { museum } from './api';
import { storeViews } from './cached-query';
import { timedRead } from './device-clock';

/**
 * The volunteer's sessions on the device (records-design §10; README "Volunteer service and
 * check-in"): the check-in page's read, shared so the phone's home can read the week's sessions
 * ahead (`prefetchMySessions`) and each opens with no signal. Every read also measures the
 * phone's clock offset from the server's time and keeps the last one on the device
 * (lib/device-clock.ts).
 */

export type SessionView = MySession & { offsetMs: number };

/** The device-cache and query key of one session's page. */
export const mySessionKey = (id: number) => ['volunteer-checkin', 'session', id] as const;

/** The last offset measured on this device (lib/device-clock.ts), as the check-in page reads it. */
export { lastClockOffset } from './device-clock';

/** Reads one session for the phone and measures the clock on the way. */
export function readMySession(id: number, signal?: AbortSignal): Promise<SessionView> {
  return timedRead(() =>
    museum.get<MySession>(`${sessionCheckIn.base}/mySession`, { query: { id }, signal, silent: true }),
  );
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
