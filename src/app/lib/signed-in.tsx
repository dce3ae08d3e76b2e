import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { tCore } from './i18n-core';
import { startLive } from './live';
import { startOffline } from './offline';
import { startProjectSync } from './projects';
import { queryClient } from './query-client';
import { registerServiceWorker } from './sw-register';
import { startUploads } from './upload';

/**
 * What runs once someone is signed in (issue 25): the offline outbox's replays, the live stream,
 * the upload queue, and the service worker, whose install precaches every page of the app for
 * offline use. None of it is needed to show the sign-in form, so this is a chunk of its own that
 * the router's signed-in guard loads (router.tsx); each part follows the session by itself from
 * then on (sign-out, another person signing in), as it did when main.tsx started them.
 */
export function startSignedIn() {
  // Replays of the offline outbox (start, online, back to the app, Background Sync).
  // Before the first replay: our own queued task writes are rebased as they are sent.
  startProjectSync();
  startOffline(queryClient);
  startLive(queryClient);
  // The upload queue: resumes unfinished uploads of the signed-in person by itself.
  startUploads(queryClient);

  registerServiceWorker((activate) =>
    notifications.show({
      id: 'sw-update',
      autoClose: false,
      title: tCore.shell.updateReady,
      message: (
        <Group gap="xs" mt={4}>
          <Text size="sm">刷新后使用新版本。</Text>
          <Button size="xs" onClick={activate}>
            {tCore.shell.updateNow}
          </Button>
        </Group>
      ),
    }),
  );
}
