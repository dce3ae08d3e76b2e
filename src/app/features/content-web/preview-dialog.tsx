import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconExternalLink, IconShieldLock } from '@tabler/icons-react';
import { tContentWeb } from '../../lib/i18n/content-web';
import { previewUrl } from './rules';

const W = tContentWeb;

/**
 * 预览 of a digital exhibition: the address and a link that opens it in a new tab with
 * `noopener noreferrer` (no window.opener, no referrer), never a frame on our origin. Why not
 * a sandboxed frame: the app's CSP allows frames from our own origin only (src/server/app.ts),
 * and the hosts are the administrator's allow-list, a dictionary that changes at run time; a
 * policy widened to every https host would let any frame in (README "Website and English
 * website pages").
 */
export function PreviewDialog({
  title,
  url,
  onClose,
}: {
  title: string;
  url: string | null;
  onClose: () => void;
}) {
  const href = previewUrl(url);
  return (
    <Modal opened={url !== null} onClose={onClose} title={W.previewTitle(title)} size="lg">
      <Stack>
        <div>
          <Text size="sm" c="dimmed">
            {W.previewAddress}
          </Text>
          <Text size="sm" style={{ wordBreak: 'break-all' }} data-testid="preview-url">
            {url}
          </Text>
        </div>
        <Alert variant="light" icon={<IconShieldLock size={18} />}>
          {W.previewWhy}
        </Alert>
        <Group justify="flex-end">
          {href && (
            <Button
              component="a"
              href={href}
              target="_blank"
              rel="noopener noreferrer"
              referrerPolicy="no-referrer"
              leftSection={<IconExternalLink size={16} />}
              data-testid="preview-open"
            >
              {W.previewOpen}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
