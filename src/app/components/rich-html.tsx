import { Typography } from '@mantine/core';
import DOMPurify, { type DOMPurify as Purifier } from 'dompurify';
import { useMemo } from 'react';
import { IMAGE_PATH_RE } from '../../shared/api/attach';
import { RICH_TEXT_ATTRIBUTES, RICH_TEXT_HREF_RE, RICH_TEXT_TAGS } from '../../shared/rules/rich-text';

/**
 * Renders rich text saved through the shared allowlist (announcements, task descriptions). The
 * server sanitized it when it was saved; this cleans it
 * again in the browser (defence in depth: an old row, a bug in one sanitizer) with the same
 * allowlist (src/shared/rules/rich-text.ts): links open apart with rel="noopener noreferrer",
 * images only from our attach/image URLs.
 */
const ATTRS = [...new Set(Object.values(RICH_TEXT_ATTRIBUTES).flat())];

let purifier: Purifier | null = null;
function purify(): Purifier {
  if (purifier) return purifier;
  const p = DOMPurify(window);
  p.addHook('afterSanitizeAttributes', (node) => {
    if (!(node instanceof Element)) return;
    if (node.tagName === 'IMG' && !IMAGE_PATH_RE.test(node.getAttribute('src') ?? ''))
      node.removeAttribute('src');
    if (node.tagName === 'A') {
      const href = node.getAttribute('href') ?? '';
      if (href && !RICH_TEXT_HREF_RE.test(href.trim())) node.removeAttribute('href');
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
  purifier = p;
  return p;
}

export function cleanRichHtml(html: string): string {
  return purify().sanitize(html, {
    ALLOWED_TAGS: [...RICH_TEXT_TAGS],
    ALLOWED_ATTR: ATTRS,
    ALLOW_DATA_ATTR: false,
  });
}

export function RichHtml({ html, testId }: { html: string; testId?: string }) {
  const clean = useMemo(() => cleanRichHtml(html), [html]);
  return (
    <Typography data-testid={testId}>
      <div dangerouslySetInnerHTML={{ __html: clean }} />
    </Typography>
  );
}
