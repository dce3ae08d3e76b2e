import { Group, Text } from '@mantine/core';
import { IconChevronLeft } from '@tabler/icons-react';
import { useRouterState } from '@tanstack/react-router';
import { PageLink } from './attendance-bits';
import { tAttendance } from '../../lib/i18n/attendance';
import { useMonthParam } from './attendance-data';
import { PersonView } from './person-view';

const P = tAttendance.person;

/** /approve/view-person 个人考勤: my own month. */
export function PersonAttendancePage() {
  return <PersonView title={() => P.title} />;
}

/** /approve/view-person-detail?userId=&month= 个人考勤详情: one person's month, from 考勤统计. */
export function PersonDetailPage() {
  const raw = useRouterState({ select: (s) => (s.location.search as { userId?: unknown }).userId });
  const [month] = useMonthParam();
  const userId = Number(raw);
  const back = (
    <Group gap={4}>
      <IconChevronLeft size={16} />
      <PageLink to="/approve/view" search={{ month }}>
        {P.back}
      </PageLink>
    </Group>
  );
  if (raw !== undefined && !(Number.isInteger(userId) && userId > 0))
    return (
      <>
        {back}
        <Text c="dimmed" mt="md">
          {P.badLink}
        </Text>
      </>
    );
  return (
    <PersonView
      userId={raw === undefined ? undefined : userId}
      title={(name) => (name ? P.detailTitle(name) : P.title)}
      back={back}
    />
  );
}
