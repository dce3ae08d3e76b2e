import type { PreviewProps } from './types';

// Scaffold: replaced by the real previewer in this work.
export default function VideoPreview(props: PreviewProps) {
  props.onClose('cancel');
  return null;
}
