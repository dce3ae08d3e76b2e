import { useId } from '@mantine/hooks';
import { useEffect, useEffectEvent } from 'react';

const DIALOGS = '[role="dialog"]';

/**
 * Escape closes the top-most dialog only, never the one under it.
 *
 * Every Mantine modal listens for Escape on the window, and the one mounted first hears it
 * first; a confirmation or picker opened from a dialog (the task dialog's delete confirmation,
 * its file picker) therefore took its parent down with the same key press. Mantine's
 * Modal.Stack fixes the order but hides the lower dialogs and cannot see @mantine/modals'
 * confirmations, so a dialog that opens others spreads these props instead: Mantine's own
 * Escape is off, and this listener closes the dialog only when no dialog opened after it is
 * still on the page (a confirmation, a picker, a date picker's dropdown: each closes itself
 * first). The dialogs already open when it opened lie beneath it and do not count. A key the
 * field keeps for itself (an open dropdown marks data-mantine-stop-propagation) closes nothing.
 */
export function useDialogEscape(onClose: () => void, enabled = true) {
  const id = useId();
  const close = useEffectEvent(onClose);
  useEffect(() => {
    if (!enabled) return;
    const beneath = new Set(document.querySelectorAll(DIALOGS));
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.isComposing) return;
      const root = document.getElementById(id);
      if (!root) return;
      const target = e.target instanceof Element ? e.target : null;
      if (target?.getAttribute('data-mantine-stop-propagation') === 'true') return;
      // A dialog above this one is closing on this key (its exit keeps it in the page a moment).
      const above = [...document.querySelectorAll(DIALOGS)].some((d) => !root.contains(d) && !beneath.has(d));
      if (!above) close();
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, [enabled, id]);
  return { id, closeOnEscape: false } as const;
}
