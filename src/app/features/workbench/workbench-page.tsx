import { Card, SimpleGrid, Stack, Text, ThemeIcon, Title, UnstyledButton, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { useNavigate } from '@tanstack/react-router';
import dayjs from 'dayjs';
import { ICONS } from '../../components/icons';
import { useSession } from '../../lib/session';

function greeting(hour: number): string {
  if (hour < 6) return '夜深了';
  if (hour < 11) return '上午好';
  if (hour < 13) return '中午好';
  if (hour < 18) return '下午好';
  return '晚上好';
}

/**
 * The workbench: a greeting and shortcuts to the modules this person may open. The notices
 * issue adds to-dos and announcements here; nothing is shown that the server did not send.
 * Other features' cards come in as props (features do not import each other; routes compose).
 */
export function WorkbenchPage({ today }: { today?: ReactNode }) {
  const state = useSession();
  const navigate = useNavigate();
  if (!state) return null;
  const now = dayjs();
  const modules = state.menu.modules.filter((m) => m.key !== 'home');
  return (
    <Stack gap="lg" data-testid="workbench">
      <Card radius="lg" p="lg">
        <Title order={3}>
          {greeting(now.hour())}，{state.user.userName}
        </Title>
        <Text c="dimmed" mt={4}>
          {now.format('YYYY年M月D日 dddd')}
          {state.user.departments.length > 0 && ` · ${state.user.departments.map((d) => d.name).join('、')}`}
        </Text>
      </Card>
      <Stack gap="sm">
        <Text fw={600}>常用模块</Text>
        <SimpleGrid cols={{ base: 2, xs: 3, md: 4, lg: 6 }} spacing="sm">
          {modules.map((m) => {
            const Icon = ICONS[m.icon];
            const first = m.items[0];
            const leaf = first && ('path' in first ? first : first.children[0]);
            return (
              <UnstyledButton
                key={m.key}
                onClick={() => leaf && void navigate({ to: leaf.path, search: leaf.search ?? {} })}
              >
                <Card radius="md" p="md" withBorder>
                  <Group gap="sm" wrap="nowrap">
                    <ThemeIcon size={40} radius="md" variant="light">
                      <Icon size={22} />
                    </ThemeIcon>
                    <Text fw={500}>{m.title}</Text>
                  </Group>
                </Card>
              </UnstyledButton>
            );
          })}
        </SimpleGrid>
      </Stack>
      {today}
    </Stack>
  );
}
