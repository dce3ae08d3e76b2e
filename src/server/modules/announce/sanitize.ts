import sanitizeHtml from 'sanitize-html';
import { IMAGE_PATH_RE } from '../../../shared/api/attach';

/**
 * The allowlist for announcement HTML (ARCHITECTURE.md §6: rich text sanitized on the server).
 * What the editor makes survives; everything else goes: scripts and styles with their
 * content, frames, event handlers, `style` and `class`, and links other than http, https,
 * mailto or relative. Images only from our own attach/image URLs, so an announcement never
 * loads anything from elsewhere (no tracking pixels, nothing a reader's browser fetches
 * cross-origin).
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
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
  ],
  allowedAttributes: {
    a: ['href', 'target', 'rel'],
    img: ['src', 'alt', 'title'],
    ol: ['start'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: [] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    // Every link opens apart from the app and cannot reach back into it (window.opener).
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer' },
    }),
  },
  exclusiveFilter: (frame) => frame.tag === 'img' && !IMAGE_PATH_RE.test(frame.attribs.src ?? ''),
};

export function sanitizeAnnouncement(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

/** The ids of our attach/image URLs an (already sanitized) HTML uses. */
export function imageIdsIn(html: string): number[] {
  const ids: number[] = [];
  sanitizeHtml(html, {
    allowedTags: ['img'],
    allowedAttributes: { img: ['src'] },
    allowedSchemesByTag: { img: [] },
    exclusiveFilter: (frame) => {
      const m = frame.tag === 'img' ? IMAGE_PATH_RE.exec(frame.attribs.src ?? '') : null;
      if (m) ids.push(Number(m[1]));
      return false;
    },
  });
  return [...new Set(ids)];
}

/** Whether the HTML shows anything: text, or an image. */
export function hasContent(html: string): boolean {
  const text = sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} })
    .replace(/&nbsp;/g, ' ')
    .trim();
  return text.length > 0 || /<img\s/i.test(html);
}
