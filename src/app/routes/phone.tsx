import type { FunctionComponent } from 'react';
import { Loaded, page } from './lazy';

/**
 * The volunteer's phone pages (issue 20; README "Volunteer service and check-in"): outside the
 * staff layout and outside the spec's route catalogue (they are ours, not spec §2's). Any
 * signed-in person may open them; the server answers each call only for the caller's own
 * sessions. Code loads on first visit; the service worker precaches it for offline use.
 */
const CheckinPage = page(
  () =>
    Promise.all([import('../features/volunteer-checkin/checkin-page'), import('./page-providers')]).then(
      ([m, p]) => ({ CheckinPage: p.withProviders(m.CheckinPage) }),
    ),
  'CheckinPage',
);

export const PHONE_PAGES: Readonly<Record<string, FunctionComponent>> = {
  '/m/session/$id': () => <Loaded page={CheckinPage} />,
};
