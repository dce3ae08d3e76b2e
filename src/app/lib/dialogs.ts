import { randomId } from '@mantine/hooks';
import { modals } from '@mantine/modals';

/**
 * Mantine's `modals`, as the app calls it: a dialog asked for before its host has mounted is
 * opened when the host mounts, not lost.
 *
 * `modals.*` dispatches a window event that ModalsProvider listens for, and nothing keeps an
 * event nobody heard. The host (lib/overlays.tsx) is loaded beside the first screen and is drawn
 * in a render of its own, which can land after the page beside it has drawn and become
 * tappable. A CI run caught it while the host was drawn through Suspense (React held its reveal
 * up to 300 ms): on 个人中心, a 撤销 tapped in that window opened nothing. The same loss would
 * swallow the 初始密码 shown once after a volunteer is approved. Calls now wait here until the
 * host says it is listening.
 *
 * ESLint refuses `modals` from '@mantine/modals' anywhere else in the app.
 */

let listening = false;
const waiting: Array<() => void> = [];

function whenHost(run: () => void) {
  if (listening) run();
  else waiting.push(run);
}

/**
 * Called by the host after ModalsProvider's listeners are attached (a parent's effects run after
 * its children's), and with `false` when it unmounts (StrictMode remounts it once in development).
 */
export function dialogHostListening(now: boolean) {
  listening = now;
  if (now) for (const run of waiting.splice(0)) run();
}

type ConfirmPayload = Parameters<typeof modals.openConfirmModal>[0];
type OpenPayload = Parameters<typeof modals.open>[0];

export const dialogs = {
  /** Returns the dialog's id at once (chosen here), so callers can update or close it later. */
  openConfirmModal(payload: ConfirmPayload): string {
    const modalId = payload.modalId ?? randomId();
    whenHost(() => modals.openConfirmModal({ ...payload, modalId }));
    return modalId;
  },
  open(payload: OpenPayload): string {
    const modalId = payload.modalId ?? randomId();
    whenHost(() => modals.open({ ...payload, modalId }));
    return modalId;
  },
  updateModal(payload: Parameters<typeof modals.updateModal>[0]) {
    whenHost(() => modals.updateModal(payload));
  },
  close(modalId: string) {
    whenHost(() => modals.close(modalId));
  },
};
