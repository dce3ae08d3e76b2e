import { Burger, Group, Menu, Text, UnstyledButton, Badge } from '@mantine/core';
import { IconChevronDown, IconHeartHandshake, IconLogout, IconUser, IconWifiOff } from '@tabler/icons-react';
import type { UserInfo } from '../../../shared/api/auth';
import { avatarText } from '../../components/user-avatar';
import classes from './shell.module.css';
import { tCore } from '../../lib/i18n-core';
import type { Counts } from '../../lib/notices';
import { NoticeCentre } from './notice-centre';

/** The top bar: menu button on narrow screens, the app name, the notice centre and the user menu. */
export function TopBar(props: {
  user: UserInfo;
  online: boolean;
  narrow: boolean;
  drawerOpened: boolean;
  onToggleDrawer: () => void;
  onProfile: () => void;
  /** Opens the volunteer's phone view; given only to someone who also holds the volunteer role. */
  onVolunteer?: () => void;
  onLogout: () => void;
  counts: Counts | undefined;
}) {
  const { user } = props;
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        {props.narrow && (
          <Burger
            opened={props.drawerOpened}
            onClick={props.onToggleDrawer}
            size="sm"
            aria-label={tCore.shell.menu}
          />
        )}
        <img src="/favicon.svg" alt="" width={28} height={28} />
        <Text fw={700} size="lg" c="museum.9">
          {tCore.appName}
        </Text>
        {!props.online && (
          <Badge
            color="yellow"
            variant="light"
            leftSection={<IconWifiOff size={12} />}
            data-testid="offline-badge"
          >
            {tCore.shell.offline}
          </Badge>
        )}
      </Group>
      <Group gap="xs" wrap="nowrap">
        <NoticeCentre counts={props.counts} />
        <Menu position="bottom-end" width={160} shadow="md">
          <Menu.Target>
            <UnstyledButton data-testid="user-menu" aria-label={user.userName}>
              <Group gap={6} wrap="nowrap">
                {/*
                 * The button's name is the person's name. The avatar's characters are drawn by
                 * CSS (not text), so what the button shows is what it is called: a speech user
                 * says the name they see (axe: label-content-name-mismatch).
                 */}
                {user.image ? (
                  <img src={user.image} alt="" className={classes.meAvatar} />
                ) : (
                  <span className={classes.meAvatar} data-initials={avatarText(user.userName)} aria-hidden />
                )}
                <Text size="sm" fw={500} visibleFrom="xs" data-testid="current-user-name">
                  {user.userName}
                </Text>
                <IconChevronDown size={14} />
              </Group>
            </UnstyledButton>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item leftSection={<IconUser size={16} />} onClick={props.onProfile}>
              {tCore.shell.profile}
            </Menu.Item>
            {props.onVolunteer && (
              <Menu.Item leftSection={<IconHeartHandshake size={16} />} onClick={props.onVolunteer}>
                {tCore.shell.volunteer}
              </Menu.Item>
            )}
            <Menu.Item leftSection={<IconLogout size={16} />} color="red" onClick={props.onLogout}>
              {tCore.shell.logout}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Group>
  );
}
