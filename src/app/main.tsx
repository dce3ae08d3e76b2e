import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/charts/styles.css';
import '@mantine/notifications/styles.css';
import 'dayjs/locale/zh-cn';
import { Button, Group, MantineProvider, Text } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { ModalsProvider } from '@mantine/modals';
import { Notifications, notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import dayjs from 'dayjs';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { t } from './lib/i18n';
import { startLive } from './lib/live';
import { startOffline } from './lib/offline';
import { startProjectSync } from './lib/projects';
import { registerServiceWorker } from './lib/sw-register';
import { startUploads } from './lib/upload';
import { router } from './router';
import { cssVariablesResolver, theme } from './theme';

dayjs.locale('zh-cn');

const queryClient = new QueryClient({
  defaultOptions: {
    // The API client already toasts failures; retrying a 4xx would only repeat the toast.
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 },
    mutations: { retry: false },
  },
});

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
    title: t.shell.updateReady,
    message: (
      <Group gap="xs" mt={4}>
        <Text size="sm">刷新后使用新版本。</Text>
        <Button size="xs" onClick={activate}>
          {t.shell.updateNow}
        </Button>
      </Group>
    ),
  }),
);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <DatesProvider settings={{ locale: 'zh-cn', firstDayOfWeek: 1 }}>
        <QueryClientProvider client={queryClient}>
          <ModalsProvider labels={{ confirm: t.common.confirm, cancel: t.common.cancel }}>
            <Notifications position="top-center" />
            <RouterProvider router={router} />
          </ModalsProvider>
        </QueryClientProvider>
      </DatesProvider>
    </MantineProvider>
  </StrictMode>,
);
