import { session } from '../../../lib/session';

/**
 * Unsaved edits kept on this device when a save could not reach the server (offline), so
 * closing the dialog or reloading the page does not lose them: the editor offers the draft the
 * next time the same file opens in this tab. sessionStorage, so they go with the tab, and keyed
 * by person and file, so nobody else signed in on the tablet is offered them.
 */
export interface Draft {
  /** The edited text (lines joined with \n, as the editor holds it). */
  text: string;
  /** The file's text the edits started from, to reopen them when the file cannot load. */
  base: string;
  /** The file's line ending, for saving the draft as the file was written. */
  eol: '\n' | '\r\n';
  /** When it was kept (ms since epoch). */
  at: number;
}

function keyOf(userFileId: number): string | null {
  const userId = session.get()?.user.userId;
  return userId === undefined ? null : `gwy.editor.draft.${userId}.${userFileId}`;
}

export const drafts = {
  read(userFileId: number): Draft | null {
    const key = keyOf(userFileId);
    if (!key) return null;
    try {
      const d = JSON.parse(sessionStorage.getItem(key) ?? 'null') as Draft | null;
      return d && typeof d.text === 'string' && typeof d.base === 'string'
        ? { ...d, eol: d.eol === '\r\n' ? '\r\n' : '\n' }
        : null;
    } catch {
      return null;
    }
  },
  keep(userFileId: number, draft: Draft) {
    const key = keyOf(userFileId);
    if (!key) return;
    try {
      sessionStorage.setItem(key, JSON.stringify(draft));
    } catch {
      // Storage full: the text is still in the open editor; nothing more we can do.
    }
  },
  drop(userFileId: number) {
    const key = keyOf(userFileId);
    if (key) sessionStorage.removeItem(key);
  },
};
