import type { StatusOption } from '../../../shared/records/define';
import { PUBLISHED } from '../../../shared/records/content/common';

/**
 * Pure rules of the website's and English website's staff pages (README "Website and English
 * website pages"): where a carousel row stands in its display window, and which digital
 * exhibition addresses the 预览 button may open.
 */

/** 展示情况 of a carousel row: what a visitor sees of it now. */
export const WINDOW_STATES: readonly StatusOption[] = [
  { value: 1, label: '展示中', color: 'green' },
  { value: 2, label: '未到展示时间', color: 'blue' },
  { value: 3, label: '已过展示期', color: 'gray' },
  { value: 0, label: '未发布', color: 'gray' },
];

/**
 * 1 展示中 (published, start ≤ now < end), 2 not yet (published, before its start), 3 over
 * (published, at or after its end), 0 not published (a draft or taken down). The same window
 * as the server's `isShowing` (shared/records/content/carousel.ts): either end may be open.
 */
export function windowState(row: Record<string, unknown>, now: number): 0 | 1 | 2 | 3 {
  if (Number(row.status) !== PUBLISHED) return 0;
  const start = row.startTime === null || row.startTime === undefined ? null : Number(row.startTime);
  const end = row.endTime === null || row.endTime === undefined ? null : Number(row.endTime);
  if (start !== null && now < start) return 2;
  if (end !== null && now >= end) return 3;
  return 1;
}

/**
 * The address 预览 may open: an https URL without credentials, as the server stored it (it
 * checked the allow-list on save), else null (the button is then not offered). It is opened in a
 * new tab with `noopener noreferrer`, never framed: the app's CSP allows frames from our own
 * origin only, and the allow-list is a dictionary the administrator changes at any time (README).
 */
export function previewUrl(url: unknown): string | null {
  if (typeof url !== 'string' || !url.trim()) return null;
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return null;
  }
  if (u.protocol !== 'https:' || u.username || u.password) return null;
  return u.href;
}

/** 中文 / English: which language's row a two-language page shows. */
export type Lang = 'zh' | 'en';
