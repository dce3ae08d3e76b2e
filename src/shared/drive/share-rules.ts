import { formatMuseumTime } from '../rules/museum-time';

/**
 * Sharing rules both sides use (spec/drive.md §4 "Share dialog", §5 "Share"): the expiry
 * shortcuts, when a link has expired, the extraction code's alphabet, and the text a person
 * copies to pass a link on.
 */

/**
 * Why a link does not open, word for word as the server says it (the share page picks its
 * screen by them): unknown or malformed, revoked by its owner, past its end time.
 */
export const SHARE_GONE = '分享链接不存在或已失效';
export const SHARE_REVOKED = '该分享已被取消';
export const SHARE_EXPIRED = '分享已过期';

/** Museum time (moved to rules/museum-time.ts; the schedule uses it too). */
export { END_TIME_RE, formatMuseumTime, parseMuseumTime } from '../rules/museum-time';

/** A share link is expired when its end time is not in the future (spec §4). */
export function isExpired(endTimeMs: number, nowMs: number): boolean {
  return endTimeMs <= nowMs;
}

/** The expiry shortcuts of the share dialog: 今天 is the end of today, the others count days. */
export type ExpiryShortcut = 'today' | 'd1' | 'd7' | 'd30';
export const EXPIRY_SHORTCUTS: readonly ExpiryShortcut[] = ['today', 'd1', 'd7', 'd30'];
const SHORTCUT_DAYS: Record<Exclude<ExpiryShortcut, 'today'>, number> = { d1: 1, d7: 7, d30: 30 };

/** The end time a shortcut picks, as 'yyyy-MM-dd HH:mm:ss', seen from `nowMs`. */
export function shortcutEndTime(shortcut: ExpiryShortcut, nowMs: number): string {
  if (shortcut === 'today') return `${formatMuseumTime(nowMs).slice(0, 10)} 23:59:59`;
  return formatMuseumTime(nowMs + SHORTCUT_DAYS[shortcut] * 86_400_000);
}

/** The longest a link may live (the form's date picker allows far dates; a year is plenty). */
export const SHARE_MAX_DAYS = 366;

/**
 * Extraction codes: 6 characters from 31 letters and digits without the look-alikes
 * (0/o, 1/l/i), read aloud or typed on a tablet without confusion: 31⁶ ≈ 8.9 × 10⁸
 * possibilities. Typed codes are compared case-insensitively.
 */
export const CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const CODE_LENGTH = 6;

/** A typed code as the server compares it. */
export function normaliseCode(code: string): string {
  return code.trim().toLowerCase();
}

/** The path of the share page for a batch (the app's router uses history URLs). */
export function sharePath(shareBatchNum: string): string {
  return `/share/${encodeURIComponent(shareBatchNum)}`;
}

/**
 * The text copied to pass a share on (spec §4): the link, the code if any, and how to use them.
 */
export function shareText(link: string, extractionCode: string | null): string {
  const lines = [`分享链接：${link}`];
  if (extractionCode) lines.push(`提取码：${extractionCode}`);
  lines.push(
    extractionCode ? '复制链接到浏览器中打开，输入提取码即可查看文件' : '复制链接到浏览器中打开即可查看文件',
  );
  return lines.join('\n');
}
