import type { ClaimAnswer, MyRecords, VolunteerMe } from '../../../shared/api/volunteer-me';
import type { z } from 'zod';
import { museum } from '../../lib/api';
import { tVolunteerPhone } from '../../lib/i18n/volunteer-phone';
import { submitWrite } from '../../lib/offline';

/**
 * The volunteer's own calls (shared/api/volunteer-me.ts) and the query keys of their views.
 * `me` is cached on the device like every offline listing (useCachedQuery); claims and
 * withdrawals go straight to the server (they need it); a sign-up goes through the outbox, so
 * one made offline waits on the phone and is settled by the server's quota when it is sent.
 */

export const volunteerKeys = {
  all: ['volunteer-me'] as const,
  me: () => ['volunteer-me', 'home'] as const,
  records: (page: number) => ['volunteer-me', 'records', page] as const,
};

/** The outbox kind of an offline sign-up, and what its meta holds. */
export const SIGN_UP_KIND = 'volunteer.signUp';
export interface SignUpMeta {
  recruitId: number;
}

export const volunteerCalls = {
  me: (signal?: AbortSignal) => museum.get<VolunteerMe>('/v2/volunteer/me', { signal, silent: true }),
  records: (page: number, signal?: AbortSignal) =>
    museum.get<MyRecords>('/v2/volunteer/me/records', {
      query: { currentPage: page, pageCount: 20 },
      signal,
      silent: true,
    }),
  claim: (sessionId: number) =>
    museum.post<z.infer<typeof ClaimAnswer>>(
      '/v2/volunteer/me/claim',
      { sessionId },
      { idempotencyKey: crypto.randomUUID(), silent: true },
    ),
  cancelSign: (signId: number) =>
    museum.post<unknown>(
      '/v2/volunteer/me/cancelSign',
      { signId },
      { idempotencyKey: crypto.randomUUID(), silent: true },
    ),
  /** Sent now when online; queued (and later settled by the server's quota) when not. */
  signUp: (recruitId: number, title: string) =>
    submitWrite({
      client: 'museum',
      path: '/v2/bsVolunteerV2Recruit/signUp',
      body: { recruitId },
      label: tVolunteerPhone.signLabel(title),
      kind: SIGN_UP_KIND,
      scope: [[...volunteerKeys.all]],
      meta: { recruitId } satisfies SignUpMeta,
    }),
};
