import { Center, Loader, Stack, Text } from '@mantine/core';
import { IconFileAlert } from '@tabler/icons-react';
import { t } from '../../lib/i18n';

/** What a viewer shows while it renders, and when the file cannot be shown. */
export function ViewerLoading() {
  return (
    <Center py="xl" data-testid="office-loading">
      <Stack align="center" gap="xs">
        <Loader size="sm" />
        <Text size="sm" c="dimmed">
          {t.preview.office.opening}
        </Text>
      </Stack>
    </Center>
  );
}

export function ViewerMessage({ message }: { message: string }) {
  return (
    <Center py="xl" px="md" data-testid="office-message">
      <Stack align="center" gap="xs" maw={440}>
        <IconFileAlert size={40} color="var(--mantine-color-gray-6)" />
        <Text ta="center">{message}</Text>
      </Stack>
    </Center>
  );
}
