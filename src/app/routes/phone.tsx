import { Center, Loader } from '@mantine/core';
import { Suspense, lazy, type ComponentType, type FunctionComponent } from 'react';

/**
 * The volunteer's phone pages (issue 20; README "Volunteer service and check-in"): outside the
 * staff layout and outside the spec's route catalogue (they are ours, not spec §2's). Any
 * signed-in person may open them; the server answers each call only for the caller's own
 * sessions. Code loads on first visit; the service worker precaches it for offline use.
 */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): FunctionComponent {
  const Page = lazy(async () => ({ default: (await load())[name] as ComponentType }));
  return function PhonePage() {
    return (
      <Suspense
        fallback={
          <Center mih="40vh">
            <Loader />
          </Center>
        }
      >
        <Page />
      </Suspense>
    );
  };
}

export const PHONE_PAGES: Readonly<Record<string, FunctionComponent>> = {
  '/m/session/$id': page(() => import('../features/volunteer-checkin/checkin-page'), 'CheckinPage'),
};
