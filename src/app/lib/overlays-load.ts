import { lazy, type ComponentType } from 'react';

/**
 * The dialogs' and toasts' hosts (overlays.tsx), fetched at start beside the first screen.
 * Should the fetch fail (offline before the app was ever cached), the app runs without them
 * rather than not at all; the signed-in guard, which waits for this, would fail as well then.
 */
const loaded = import('./overlays');
export const overlaysReady: Promise<void> = loaded.then(
  () => undefined,
  () => undefined,
);
type Module = { default: ComponentType };
export const Overlays = lazy(() =>
  loaded.then(
    (m): Module => ({ default: m.Overlays }),
    (): Module => ({ default: () => null }),
  ),
);
