import DOMPurify, { type Config, type DOMPurify as Purifier } from 'dompurify';
import { Marked } from 'marked';

/**
 * Markdown to safe HTML for the markdown overlay (ARCHITECTURE.md §6; research
 * drive-peers-security.md §2: Cloudreve, Filebrowser and AList all had stored XSS through
 * markdown preview). `marked` turns the text into HTML, raw HTML in the file included, and
 * DOMPurify then keeps only inert markup:
 *
 * - no script, iframe, object, embed, form, style, base, meta or link elements; no SVG or MathML;
 * - no on* handler attributes and no style attributes (a fixed-position block could cover the
 *   app's own buttons and fake them);
 * - no javascript:, vbscript: or data: addresses, except data:image/… as an <img> source;
 * - every link opens in a new tab with rel="noopener noreferrer", so the file cannot reach or
 *   replace this page; names and ids are prefixed (no DOM clobbering of the app).
 *
 * Relative addresses (`![](images/a.png)`, `[x](other.md)`) are left as written: they would
 * resolve against the app's URL, not the file's folder, so such images show as broken and such
 * links open nothing useful. Remote images do not load either: the app's CSP allows images from
 * our own origin and data: only (which also stops tracking pixels).
 */

const markdown = new Marked({ gfm: true, async: false });

const CONFIG: Config = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'iframe', 'frame', 'frameset', 'object', 'embed', 'base', 'link', 'meta'],
  FORBID_ATTR: ['style', 'srcset', 'action', 'formaction'],
  ALLOW_DATA_ATTR: false,
  SANITIZE_NAMED_PROPS: true,
};

const URL_ATTRS = ['href', 'src', 'xlink:href', 'poster', 'background', 'cite'];

/** The address's scheme as a browser reads it: control characters and spaces ignored. */
function schemeOf(value: string): string {
  // eslint-disable-next-line no-control-regex
  const plain = value.replace(/[\u0000-\u0020\u007f]/g, '').toLowerCase();
  const m = /^([a-z][a-z0-9+.-]*):/.exec(plain);
  return m ? m[1]! : '';
}

let purifier: Purifier | null = null;
/** Our own DOMPurify instance, so the hook below never changes anyone else's sanitising. */
function purify(): Purifier {
  if (purifier) return purifier;
  const p = DOMPurify(window);
  p.addHook('afterSanitizeAttributes', (node) => {
    if (!(node instanceof Element)) return;
    for (const attr of URL_ATTRS) {
      const value = node.getAttribute(attr);
      if (value === null) continue;
      const scheme = schemeOf(value);
      const imageData = node.tagName === 'IMG' && attr === 'src' && /^data:image\//i.test(value.trimStart());
      if (scheme === 'javascript' || scheme === 'vbscript' || (scheme === 'data' && !imageData)) {
        node.removeAttribute(attr);
      }
    }
    if (node.tagName === 'A' && node.hasAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
  purifier = p;
  return p;
}

export function renderMarkdown(text: string): string {
  const html = markdown.parse(text) as string;
  return purify().sanitize(html, CONFIG);
}
