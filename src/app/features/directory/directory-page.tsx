import {
  Anchor,
  Badge,
  Box,
  Card,
  Chip,
  EmptyState,
  Group,
  NavLink,
  ScrollArea,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  IconAddressBook,
  IconMail,
  IconPhone,
  IconPhoneCall,
  IconSearch,
  IconUsers,
} from '@tabler/icons-react';
import { useMemo, useState, type ReactNode } from 'react';
import type { AddressBookEntry } from '../../../shared/api/directory';
import { filterDirectory } from '../../../shared/rules/directory';
import { CachedViewState } from '../../components/cached-state';
import { OfflineNote } from '../../components/offline-note';
import { UserAvatar } from '../../components/user-avatar';
import { tDirectory } from '../../lib/i18n/directory';
import { groupByDept, visibleDepts } from './directory-groups';
import { useDirectory } from './directory-data';
import { SearchBox } from './search-box';
import classes from './directory.module.css';

const D = tDirectory;

/**
 * A number or address to tap: `tel:` opens the phone app on a phone (a softphone or FaceTime on
 * a tablet), `mailto:` the mail app.
 */
function ContactLink(props: { icon: ReactNode; title: string; href: string; text: string; label?: string }) {
  return (
    <Anchor href={props.href} className={classes.contact} aria-label={props.label} title={props.title}>
      {props.icon}
      <span>{props.text}</span>
    </Anchor>
  );
}

const tel = (number: string) => `tel:${number.replace(/[^\d+]/g, '')}`;

function EntryCard({ entry }: { entry: AddressBookEntry }) {
  return (
    <Card withBorder radius="md" padding="sm" data-testid="directory-entry">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <UserAvatar name={entry.name} image={entry.image} size={44} />
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          <Group gap={6} wrap="nowrap">
            <Text fw={600} truncate data-testid="directory-name">
              {entry.name}
            </Text>
            {entry.userId === null && (
              <Badge size="xs" variant="light" color="gray">
                {D.external}
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed" truncate>
            {[entry.position, entry.deptNames.join('、')].filter(Boolean).join(' · ') || D.noDept}
          </Text>
          {(
            [
              [entry.mobile, D.mobile, <IconPhone size={16} />],
              [entry.officePhone, D.officePhone, <IconPhoneCall size={16} />],
            ] as const
          ).map(
            ([number, title, icon]) =>
              number && (
                <ContactLink
                  key={title}
                  icon={icon}
                  title={title}
                  href={tel(number)}
                  text={number}
                  label={D.call(entry.name, number)}
                />
              ),
          )}
          {entry.email && (
            <ContactLink
              icon={<IconMail size={16} />}
              title={D.email}
              href={`mailto:${entry.email}`}
              text={entry.email}
            />
          )}
          {entry.remark && (
            <Text size="xs" c="dimmed" lineClamp={2}>
              {entry.remark}
            </Text>
          )}
        </Stack>
      </Group>
    </Card>
  );
}

/**
 * /home/address-book 通讯录: everyone's numbers by department, for every member of staff.
 * Departments on the left (chips on narrow screens), a search over names, numbers and
 * positions, and cards whose numbers dial. The list is kept on the device and searched there,
 * so it opens and searches offline, saying when it was last synced.
 */
export function DirectoryPage() {
  const view = useDirectory();
  const [keyword, setKeyword] = useState('');
  const [deptId, setDeptId] = useState<number | null>(null);
  const data = view.data;
  const departments = useMemo(() => data?.departments ?? [], [data]);
  // A department removed since it was picked falls back to 全部 instead of an empty page.
  const selected = deptId !== null && departments.some((d) => d.id === deptId) ? deptId : null;
  const rows = useMemo(
    () => (data ? filterDirectory(data.list, departments, { keyword, deptId: selected }) : []),
    [data, departments, keyword, selected],
  );
  const groups = useMemo(() => groupByDept(rows, departments, selected), [rows, departments, selected]);
  const navDepts = visibleDepts(departments, selected);
  const total = data?.list.length ?? 0;

  const deptNav = (
    <Card withBorder radius="md" padding="xs" visibleFrom="sm" className={classes.nav}>
      <Text size="sm" fw={600} px="xs" py={6}>
        {D.depts}
      </Text>
      <ScrollArea.Autosize mah="calc(100dvh - 220px)" type="auto">
        <NavLink
          label={D.all}
          rightSection={<Text size="xs">{total}</Text>}
          active={selected === null}
          onClick={() => setDeptId(null)}
          leftSection={<IconUsers size={16} />}
        />
        {navDepts.map((d) => (
          <NavLink
            key={d.id}
            label={d.name}
            rightSection={<Text size="xs">{d.count}</Text>}
            active={selected === d.id}
            onClick={() => setDeptId(d.id)}
            pl={12 + d.depth * 14}
            data-testid="directory-dept"
          />
        ))}
      </ScrollArea.Autosize>
    </Card>
  );

  const deptChips = (
    <ScrollArea type="never" hiddenFrom="sm" offsetScrollbars={false}>
      <Chip.Group
        multiple={false}
        value={selected === null ? 'all' : String(selected)}
        onChange={(v) => setDeptId(v === 'all' ? null : Number(v))}
      >
        <Group gap={6} wrap="nowrap" pb={4}>
          <Chip value="all" size="sm">
            {D.all}
          </Chip>
          {navDepts.map((d) => (
            <Chip key={d.id} value={String(d.id)} size="sm">
              {d.name}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
    </ScrollArea>
  );

  let body;
  if (view.status !== 'ready') body = <CachedViewState view={view} />;
  else if (rows.length === 0)
    body = (
      <EmptyState
        py="xl"
        icon={<IconSearch size={28} />}
        title={total === 0 ? D.empty : D.noMatch}
        description={total === 0 ? undefined : D.noMatchHint}
      />
    );
  else
    body = (
      <Stack gap="md" data-testid="directory-list">
        {groups.map((g) => (
          <Stack key={g.key} gap="xs">
            <Text size="sm" fw={600} c="dimmed">
              {g.title}（{g.rows.length}）
            </Text>
            <SimpleGrid cols={{ base: 1, xs: 2, lg: 3 }} spacing="sm">
              {g.rows.map((r) => (
                <EntryCard key={`${r.userId ?? 'x'}-${r.id ?? 'u'}`} entry={r} />
              ))}
            </SimpleGrid>
          </Stack>
        ))}
      </Stack>
    );

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }} data-testid="directory-page">
      <Group justify="space-between" gap="sm">
        <Group gap="xs">
          <IconAddressBook size={24} stroke={1.6} />
          <Title order={3}>{D.title}</Title>
          {data && (
            <Text size="sm" c="dimmed">
              {D.total(total)}
            </Text>
          )}
        </Group>
        <OfflineNote view={view} />
      </Group>
      <SearchBox value={keyword} onChange={setKeyword} size="md" />
      {deptChips}
      <Group align="flex-start" gap="md" wrap="nowrap">
        {deptNav}
        <Box style={{ flex: 1, minWidth: 0 }}>{body}</Box>
      </Group>
    </Stack>
  );
}
