import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/charts/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { watchSnapshot } from './lib/launch-snapshot';
import { Overlays } from './lib/overlays-load';
import { router } from './router';
import { cssVariablesResolver, theme } from './theme';

// The outbox, live stream, upload queue and service worker start once someone is signed in
// (lib/signed-in.tsx, loaded by the router's guard): the sign-in page carries none of them.
// The query cache and the date locale wrap the lazily loaded pages (routes/page-providers.tsx).

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <RouterProvider router={router} />
      {/* Dialogs and toasts: loaded just after the first screen (lib/overlays.tsx). */}
      <Overlays />
    </MantineProvider>
  </StrictMode>,
);

// The last screen shown by public/launch-snapshot.js goes when the app is somewhere else.
watchSnapshot((onChange) => router.subscribe('onResolved', onChange));
