import { init } from 'pptx-preview';
import classes from './office.module.css';
import { HostRendered } from './viewer-state';

/** Slides at most this wide (px); narrower screens get slides as wide as they are. */
const MAX_WIDTH = 960;

/** A presentation, read-only: every slide one below the other (pptx-preview's list mode). */
export default function PptxView({ bytes }: { bytes: ArrayBuffer }) {
  return (
    <HostRendered
      bytes={bytes}
      className={classes.pptx}
      testId="pptx-view"
      render={(host, box, data) => {
        const width = Math.max(280, Math.min(MAX_WIDTH, box.clientWidth - 32));
        const previewer = init(host, { width, height: Math.round((width * 9) / 16), mode: 'list' });
        return { done: previewer.preview(data), destroy: () => previewer.destroy() };
      }}
    />
  );
}
