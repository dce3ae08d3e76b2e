import { expect } from 'vitest';
import type { TestServer } from './harness';

/**
 * What the volunteer suites (volunteers, volunteer-service, volunteer-staff, volunteer-me,
 * volunteer-groups) share: a valid resident ID, a seeded service group's id, and the JSON calls
 * with their success/refusal checks. The server is passed as a getter because each suite starts
 * its own in beforeAll, after these helpers are made.
 */

/** A valid resident ID for a birth date and a serial (GB 11643 check digit computed). */
export function idFor(birth: string, serial: number): string {
  const body = `110105${birth.replaceAll('-', '')}${String(serial % 1000).padStart(3, '0')}`;
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...body].reduce((a, c, i) => a + Number(c) * w[i]!, 0);
  return `${body}${'10X98765432'[sum % 11]}`;
}

/** The id of a seeded service group (DB51/T 2990-2023's posts), 讲解组 by default. */
export async function groupIdOf(s: TestServer, name = '讲解组'): Promise<number> {
  const row = await s.db
    .selectFrom('volunteer_group')
    .select('id')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** POST with a JSON body, GET with the token header (the spec's GET writes need it), and checks. */
export function jsonCalls(server: () => TestServer) {
  return {
    post: (
      path: string,
      token: string,
      body: Record<string, unknown> = {},
      headers: Record<string, string> = {},
    ) => server().call('POST', path, { token, body, headers }),
    get: (path: string, token: string) => server().call('GET', path, { token, headers: { token } }),
    /** The answer's result, after expecting success (the body is shown when it is not). */
    ok: (res: { body: any }) => {
      expect(res.body.success, JSON.stringify(res.body)).toBe(true);
      return res.body.result;
    },
    /** The refusal's message, after expecting a refusal. */
    refused: (res: { body: any }) => {
      expect(res.body.success, JSON.stringify(res.body)).toBe(false);
      return res.body.message as string;
    },
  };
}
