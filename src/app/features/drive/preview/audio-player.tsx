import type { PreviewProps } from './types';

// Scaffold: replaced by the real previewer in this work.
export default function AudioPlayer(props: PreviewProps) {
  props.onClose('cancel');
  return null;
}
