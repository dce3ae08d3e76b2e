import { useId } from '@mantine/hooks';
import { useEffect, useEffectEvent } from 'react';

/**
 * Escape closes the dialog the user is in, never the one under it.
 *
 * Every Mantine modal listens for Escape on the window, and the one mounted first hears it
 * first; a confirmation or picker opened from a dialog (the task dialog's delete confirm, its
 * file picker) therefore took its parent down with the same key press. Mantine's Modal.Stack
 * fixes the order but hides the lower dialogs and cannot see @mantine/modals' confirmations,
 * so a dialog that opens others spreads these props instead: Mantine's own Escape is off, and
 * this listener closes it only when the key came from inside it (the focus trap keeps focus in
 * the top-most dialog), or, with focus nowhere, when no other dialog is open. A key the field
 * keeps for itself (an open dropdown marks data-mantine-stop-propagation) closes nothing.
 */
export function useDialogEscape(onClose: () => void, enabled = true) {
  const id = useId();
  const close = useEffectEvent(onClose);
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.isComposing) return;
      const root = document.getElementById(id);
      if (!root) return;
      const target = e.target instanceof Element ? e.target : null;
      if (target?.getAttribute('data-mantine-stop-propagation') === 'true') return;
      const host = target?.closest('[role="dialog"]');
      const mine = host
        ? root.contains(host)
        : [...document.querySelectorAll('[role="dialog"]')].every((d) => root.contains(d));
      if (mine) close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled, id]);
  return { id, closeOnEscape: false } as const;
}
