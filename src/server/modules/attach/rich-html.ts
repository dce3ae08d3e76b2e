import sanitizeHtml from 'sanitize-html';
import { IMAGE_PATH_RE } from '../../../shared/api/attach';
import { RICH_TEXT_ATTRIBUTES, RICH_TEXT_TAGS } from '../../../shared/rules/rich-text';

/**
 * Rich text (announcements, task descriptions and comments) through the shared allowlist
 * (src/shared/rules/rich-text.ts; ARCHITECTURE.md §6: rich text sanitized on the server):
 * scripts and styles go with their content, and links other than http, https, mailto or
 * relative lose their target. Images only from our own attach/image URLs, so a page never
 * loads anything from elsewhere (no tracking pixels, nothing a reader's browser fetches
 * cross-origin). It lives with the attachments because those images are attachments.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...RICH_TEXT_TAGS],
  allowedAttributes: Object.fromEntries(Object.entries(RICH_TEXT_ATTRIBUTES).map(([k, v]) => [k, [...v]])),
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

export function sanitizeRichHtml(html: string): string {
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

/** The link targets (`<a href>`) an (already sanitized) HTML holds, in order, once each. */
export function linkHrefsIn(html: string): string[] {
  const hrefs: string[] = [];
  sanitizeHtml(html, {
    allowedTags: ['a'],
    allowedAttributes: { a: ['href'] },
    exclusiveFilter: (frame) => {
      const href = frame.tag === 'a' ? frame.attribs.href : undefined;
      if (href) hrefs.push(href);
      return false;
    },
  });
  return [...new Set(hrefs)];
}

/** Whether the HTML shows anything: text, or an image. */
export function hasContent(html: string): boolean {
  const text = sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} })
    .replace(/&nbsp;/g, ' ')
    .trim();
  return text.length > 0 || /<img\s/i.test(html);
}
