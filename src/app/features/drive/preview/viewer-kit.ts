import { useEffect, useEffectEvent, useState } from 'react';
import type { AreaQuery, FileEntry } from '../../../../shared/api/drive';
import type { ReadArea } from '../drive-data';
import { joinName } from '../../../../shared/drive/names';
import { usePreviewSrc } from './source';
import type { AreaKey } from '../drive-view';

/** Helpers the image viewer, audio player and video preview share. */

/** m:ss, or h:mm:ss from an hour on; '0:00' for unknown times. */
export function formatTime(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '0:00';
  const s = Math.floor(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The cache key of a library (drive-view.ts), from the flags a previewer is given. */
export function areaKeyOf(area: AreaQuery): AreaKey {
  if (area.isFmt === 2) return 'hd';
  if (area.fileType === 9) return 'res';
  return 'own';
}

/**
 * Whether a key belongs to the focused control rather than to the previewer: a text field keeps
 * every key (Escape excepted, which the caller checks first), a slider keeps its arrows.
 */
export function ownsKeys(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  )
    return true;
  return key.startsWith('Arrow') && Boolean(target.closest('[role="slider"]'));
}

/**
 * Listens to keys on the whole window while a previewer is open (its dialog holds the focus,
 * but a click on the stage or a list may move it anywhere inside). The handler answers true
 * when it used the key, which then does nothing else (Space neither scrolls nor presses the
 * focused button a second time).
 */
export function useWindowKeys(handler: (e: KeyboardEvent) => boolean) {
  const onKey = useEffectEvent(handler);
  useEffect(() => {
    let swallowUp: string | null = null;
    const down = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing || e.altKey || e.ctrlKey || e.metaKey) return;
      if (onKey(e)) {
        e.preventDefault();
        e.stopPropagation();
        swallowUp = e.key;
      }
    };
    // A focused button clicks on Space's keyup: that key was ours already.
    const up = (e: KeyboardEvent) => {
      if (swallowUp !== null && e.key === swallowUp) {
        e.preventDefault();
        swallowUp = null;
      }
    };
    window.addEventListener('keydown', down, true);
    window.addEventListener('keyup', up, true);
    return () => {
      window.removeEventListener('keydown', down, true);
      window.removeEventListener('keyup', up, true);
    };
  }, []);
}

/** Which index comes `step` places away from `index` in a list of `n`, wrapping round. */
export function wrapIndex(index: number, step: number, n: number): number {
  if (n <= 0) return 0;
  return (((index + step) % n) + n) % n;
}

/**
 * The paging state the image, audio and video previewers share: which of `files` is shown
 * (starting at `start`, clamped), its full name and its bytes.
 */
export function usePaged(files: FileEntry[], start: number, area: ReadArea) {
  const n = files.length;
  const [index, setIndex] = useState(() => Math.min(Math.max(0, start), n - 1));
  const file = files[index]!;
  const name = joinName(file.fileName, file.extendName);
  const source = usePreviewSrc(area, file);
  return { n, index, setIndex, file, name, source };
}
