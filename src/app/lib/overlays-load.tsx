import { useEffect, useState, type ComponentType } from 'react';

/**
 * The dialogs' and toasts' hosts (overlays.tsx), fetched at start beside the first screen.
 * Should the fetch fail (offline before the app was ever cached), the app runs without them
 * rather than not at all; the signed-in guard, which waits for this, would fail as well then.
 */
const loaded = import('./overlays');
let host: ComponentType | null = null;
export const overlaysReady: Promise<void> = loaded.then(
  (m) => {
    host = m.Overlays;
  },
  () => undefined,
);

/**
 * Draws the hosts once their code is here: a state set when it arrives, not React.lazy in a
 * Suspense boundary, whose reveal React holds back up to 300 ms after the code has arrived.
 * Meanwhile the signed-in page beside it could draw and take a tap, and a dialog asked for
 * then waited for the host (lib/dialogs.ts) instead of opening at once.
 */
export function Overlays() {
  const [Host, setHost] = useState<ComponentType | null>(() => host);
  useEffect(() => {
    if (!Host) void overlaysReady.then(() => setHost(() => host));
  }, [Host]);
  return Host ? <Host /> : null;
}
