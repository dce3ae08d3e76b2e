import type { FileEntry } from '../../../../shared/api/drive';
import type { ReadArea } from '../drive-data';

/**
 * What every previewer is given (spec/drive.md §4). A previewer is a dialog or overlay drawn
 * by the preview host; opening another one replaces it (the host keeps one at a time).
 */
export interface PreviewProps {
  /** The files it can page through (images, videos or songs of the open folder), or just one. */
  files: FileEntry[];
  /** Which of `files` opens first. */
  index: number;
  /** The library (or share link) the files live in, for their preview and download URLs. */
  area: ReadArea;
  /** Code and markdown: whether saving is offered (spec §6: read-only unless allowed). */
  editable: boolean;
  /**
   * Every dialog reports its outcome (spec §2): 'confirm' after a save changed the file, so the
   * list refreshes; 'cancel' on closing.
   */
  onClose: (result: 'confirm' | 'cancel') => void;
}
