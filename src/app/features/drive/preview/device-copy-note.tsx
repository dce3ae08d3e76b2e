import { Text } from '@mantine/core';
import { tOffline } from '../../../lib/i18n/offline';

/**
 * Says that what a previewer shows is this device's copy (opened with no network), so that
 * nobody takes a photo or recording on the screen for the server's latest: the copy is the
 * version last opened here (lib/file-copies.ts). Nothing when the bytes came from the server.
 */
export function DeviceCopyNote({ shown, c = 'dimmed' }: { shown: boolean; c?: string }) {
  if (!shown) return null;
  return (
    <Text span size="xs" c={c} style={{ flexShrink: 0 }} data-testid="device-copy-note">
      {tOffline.device.fromDevice}
    </Text>
  );
}
