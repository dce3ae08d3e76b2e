import { Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBarrierBlock, IconLock, IconMapQuestion } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { tCore as t } from '../../lib/i18n-core';

function StatusPage({
  icon,
  title,
  hint,
  testId,
}: {
  icon: ReactNode;
  title: string;
  hint: string;
  testId: string;
}) {
  const navigate = useNavigate();
  return (
    <Center mih="60vh" data-testid={testId}>
      <Stack align="center" gap="sm" maw={420} px="md">
        <ThemeIcon size={72} radius={36} variant="light">
          {icon}
        </ThemeIcon>
        <Title order={3}>{title}</Title>
        <Text c="dimmed" ta="center">
          {hint}
        </Text>
        <Button variant="light" onClick={() => void navigate({ to: '/home/workbench' })}>
          {t.pages.backHome}
        </Button>
      </Stack>
    </Center>
  );
}

/** A page whose module is not built yet says so plainly and shows no invented data. */
export function BuildingPage({ moduleTitle, pageTitle }: { moduleTitle: string; pageTitle: string }) {
  return (
    <StatusPage
      testId="page-building"
      icon={<IconBarrierBlock size={40} />}
      title={`${pageTitle} · ${t.pages.building}`}
      hint={t.pages.buildingHint(moduleTitle)}
    />
  );
}

export function ForbiddenPage() {
  return (
    <StatusPage
      testId="page-forbidden"
      icon={<IconLock size={40} />}
      title={t.pages.forbidden}
      hint={t.pages.forbiddenHint}
    />
  );
}

export function NotFoundPage() {
  return (
    <StatusPage
      testId="page-not-found"
      icon={<IconMapQuestion size={40} />}
      title={t.pages.notFound}
      hint={t.pages.notFoundHint}
    />
  );
}
