/** Every dialog of the drive (and the project documents) reports its outcome to its opener (spec §2 "Dialogs and overlays"). */
export type DialogResult = 'confirm' | 'cancel';

/** Dialog widths (spec §9): 550 standard, 700 the move (and copy) dialog. */
export const DIALOG_WIDTH = { standard: 550, move: 700 } as const;
