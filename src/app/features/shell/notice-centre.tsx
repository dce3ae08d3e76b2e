import { ActionIcon, Indicator, Popover, Tabs, Text, Center, Stack } from '@mantine/core';
import { IconBell, IconInbox } from '@tabler/icons-react';
import { badgeText } from '../../../shared/menu/badge';
import { t } from '../../lib/i18n';

const TABS = ['notice', 'cooperation', 'approval'] as const;

/**
 * The notice centre popup with its three tabs (spec/office.md §1, §2). The notices issue fills
 * the lists; until then each tab shows an honest empty state, never sample data.
 */
export function NoticeCentre({ unread = 0 }: { unread?: number }) {
  return (
    <Popover width={360} position="bottom-end" shadow="md" withArrow>
      <Popover.Target>
        <Indicator disabled={unread === 0} label={badgeText(unread)} size={16} color="red" offset={4}>
          <ActionIcon
            variant="subtle"
            size="lg"
            aria-label={t.shell.noticeCentre}
            data-testid="notice-centre"
          >
            <IconBell size={22} />
          </ActionIcon>
        </Indicator>
      </Popover.Target>
      <Popover.Dropdown p={0}>
        <Tabs defaultValue="notice">
          <Tabs.List grow>
            {TABS.map((k) => (
              <Tabs.Tab key={k} value={k}>
                {t.shell.noticeTabs[k]}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {TABS.map((k) => (
            <Tabs.Panel key={k} value={k}>
              <Center h={200}>
                <Stack align="center" gap={4}>
                  <IconInbox size={36} color="var(--mantine-color-gray-5)" />
                  <Text c="dimmed" size="sm">
                    {t.shell.noticeEmpty[k]}
                  </Text>
                </Stack>
              </Center>
            </Tabs.Panel>
          ))}
        </Tabs>
      </Popover.Dropdown>
    </Popover>
  );
}
