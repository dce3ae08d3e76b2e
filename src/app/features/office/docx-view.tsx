import { renderAsync } from 'docx-preview';
import classes from './office.module.css';
import { HostRendered } from './viewer-state';

/**
 * A Word document, read-only, drawn as pages by docx-preview. Embedded HTML parts (altChunks)
 * are not rendered, and links are kept only when they go to http(s), mail or a place in the
 * document: the page's CSP already refuses `javascript:` URLs, this keeps them from showing.
 */
export default function DocxView({ bytes }: { bytes: ArrayBuffer }) {
  return (
    <HostRendered
      bytes={bytes}
      className={classes.docx}
      testId="docx-view"
      render={(host, _box, data) => ({
        done: renderAsync(data, host, undefined, {
          className: 'docx',
          inWrapper: true,
          breakPages: true,
          ignoreLastRenderedPageBreak: true,
          renderAltChunks: false,
          useBase64URL: false,
          experimental: false,
        }).then(() => tidyLinks(host)),
      })}
    />
  );
}

function tidyLinks(root: HTMLElement) {
  for (const a of root.querySelectorAll('a[href]')) {
    const href = a.getAttribute('href') ?? '';
    if (href.startsWith('#')) continue;
    if (!/^(https?:|mailto:)/i.test(href)) {
      a.removeAttribute('href');
      continue;
    }
    a.setAttribute('target', '_blank');
    a.setAttribute('rel', 'noopener noreferrer');
  }
}
