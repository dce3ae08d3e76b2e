/**
 * The rich text allowlist (announcements now, task comments later), one list for the server's
 * sanitizer and the browser's second pass: the editor's formats (p, h1–h3, pre, code, bold,
 * italic, underline, strike, quotes, lists, links, images, rules) and simple tables. Nothing
 * else survives, so no script, style, frame, form, event handler or `style` attribute.
 */
export const RICH_TEXT_TAGS = [
  'p',
  'h1',
  'h2',
  'h3',
  'pre',
  'code',
  'strong',
  'em',
  'u',
  's',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'img',
  'br',
  'hr',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
] as const;

/** Attributes kept, per tag; links and images are further limited by where they point. */
export const RICH_TEXT_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'target', 'rel'],
  img: ['src', 'alt', 'title'],
  ol: ['start'],
  th: ['colspan', 'rowspan'],
  td: ['colspan', 'rowspan'],
};

/** Link targets kept: http, https, mailto, or a path on our own site (not `//host`). */
export const RICH_TEXT_HREF_RE = /^(https?:|mailto:|\/(?!\/))/i;
