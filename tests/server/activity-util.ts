import type { Kysely } from 'kysely';
import { formatMuseumMinute } from '../../src/shared/rules/museum-time';
import type { TestServer } from './harness';
import { M } from './util';
import { jsonCalls } from './volunteer-util';

/** What the activity suites share: the module's calls as a given person, and a fresh activity. */
export function activityCalls(server: () => TestServer) {
  const { post, get, ok, refused } = jsonCalls(server);
  const base = `${M}/activity`;
  const q = (data: Record<string, unknown>) =>
    new URLSearchParams(Object.entries(data).map(([k, v]) => [k, String(v)])).toString();
  const minutes = (n: number) => formatMuseumMinute(Date.now() + n * 60_000);

  async function addType(token: string, name: string) {
    return ok(await post(`${base}/activityType/save`, token, { name, status: 1 })).id as number;
  }
  /** An activity starting `startIn` minutes from now (negative: started), two hours long. */
  async function addActivity(token: string, typeId: number, o: Record<string, unknown> = {}) {
    const { startIn = 120, ...rest } = o as { startIn?: number };
    return ok(
      await post(`${base}/activity/save`, token, {
        title: `拓片体验${Math.random().toString(36).slice(2, 7)}`,
        typeId,
        place: '学术报告厅',
        startTime: minutes(startIn),
        endTime: minutes(startIn + 120),
        total: 5,
        maxPersons: 3,
        ...rest,
      }),
    ).id as number;
  }
  const publish = async (token: string, id: number) =>
    ok(await post(`${base}/activity/publish`, token, { id }));
  const sign = (token: string, activityId: number, phone: string, persons = 1, name = '王小明') =>
    post(`${base}/activitySign/save`, token, { activityId, name, phone, persons });
  const act = (token: string, key: string, body: Record<string, unknown>) =>
    post(`${base}/activitySign/${key}`, token, body);
  const activityRow = async (token: string, id: number) =>
    ok(await get(`${base}/activity/detail?${q({ id })}`, token)).record as Record<string, unknown>;
  const stat = (token: string, month?: string) =>
    get(`${M}/activity/statistic${month ? `?month=${month}` : ''}`, token);
  return { post, get, ok, refused, base, q, addType, addActivity, publish, sign, act, activityRow, stat };
}

/** The activity tables, which the typed schema does not name (they come from definitions). */
export const tables = (s: TestServer) => s.db as unknown as Kysely<any>;
