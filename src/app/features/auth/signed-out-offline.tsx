import { Alert, Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { IconWifiOff } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { tCore as t } from '../../lib/i18n-core';
import { openSignInPage, signInPageOpens } from '../../lib/sign-in-page';

/** How often the page asks whether the sign-in page can be loaded again. */
const RETRY_MS = 5000;

/**
 * What /login shows when its own document (login.html) cannot be loaded: the person signed out
 * (or the session ended) with the server out of reach, on a device whose service worker has not
 * kept the sign-in page yet (the first minutes of a first visit). Loading the document then would
 * leave the browser's "no connection" error page, with no way back into the app; this says 当前离线
 * in the app's words, and opens the sign-in page by itself as soon as the server answers again.
 */
export function SignedOutOffline() {
  const [checking, setChecking] = useState(false);

  const retry = async () => {
    setChecking(true);
    if (await signInPageOpens()) openSignInPage();
    else setChecking(false);
  };

  useEffect(() => {
    const again = () => void retry();
    window.addEventListener('online', again);
    const timer = window.setInterval(again, RETRY_MS);
    return () => {
      window.removeEventListener('online', again);
      window.clearInterval(timer);
    };
  }, []);

  return (
    <Center mih="100dvh" p="md" data-testid="signed-out-offline">
      <Paper withBorder radius="md" p="xl" w={380} maw="100%">
        <Stack>
          <Title order={3}>{t.appName}</Title>
          <Text fw={500}>{t.login.title}</Text>
          <Alert color="yellow" icon={<IconWifiOff size={18} />} role="status">
            {t.login.offline}
          </Alert>
          <Text size="sm" c="dimmed">
            {t.login.offlineWait}
          </Text>
          <Button variant="light" loading={checking} onClick={() => void retry()}>
            {t.common.retry}
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
