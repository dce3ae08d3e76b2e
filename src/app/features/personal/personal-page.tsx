import { useEffect, useRef, useState } from 'react';
import {
  Badge,
  Box,
  Button,
  Card,
  Center,
  Container,
  DataList,
  FileButton,
  Group,
  Loader,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { IconArrowLeft, IconCamera, IconKey } from '@tabler/icons-react';
import type { UserInfo } from '../../../shared/api/auth';
import { AVATAR_MAX_BYTES, AVATAR_TYPES, PasswordChange, ProfileUpdate } from '../../../shared/api/org';
import { errorToast, museum } from '../../lib/api';
import { zodValidate } from '../../lib/form';
import { UserAvatar } from '../../components/user-avatar';
import { tCore } from '../../lib/i18n-core';
import { tPersonal } from '../../lib/i18n/personal';
import { session, useSession } from '../../lib/session';
import { DavCard } from './dav-card';

const INFO_KEY = ['personal', 'info'] as const;
const AVATAR_ACCEPT = AVATAR_TYPES.join(',');
/** Long enough to read the notice before the page leaves for the login screen. */
const LOGOUT_DELAY_MS = 1500;
const DASH = '—';

function notifySuccess(message: string) {
  notifications.show({ color: 'green', message });
}

/**
 * /personal/base 个人中心, outside the main layout: one's own profile, avatar and password, and
 * 网盘挂载 (the WebDAV address and app passwords, dav-card.tsx).
 */
export function PersonalPage() {
  const navigate = useNavigate();
  const signedIn = useSession();
  const info = useQuery({
    queryKey: INFO_KEY,
    queryFn: async ({ signal }) => {
      const fresh = await museum.get<UserInfo>('/personal/info', { signal });
      // An admin may have changed the name, phone or roles since sign-in; the shell reads the session.
      session.patchUser(fresh);
      return fresh;
    },
  });
  // The session's copy shows at once (and offline); the server's answer replaces it when it arrives.
  const user = info.data ?? signedIn?.user;

  return (
    <Box mih="100dvh">
      <Box
        component="header"
        h={56}
        px={{ base: 'sm', sm: 'md' }}
        pos="sticky"
        top={0}
        bg="var(--mantine-color-body)"
        style={{ zIndex: 10, borderBottom: '1px solid var(--mantine-color-default-border)' }}
      >
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <Text fw={700} size="lg">
              {tCore.appName}
            </Text>
            <Text size="sm" c="dimmed" visibleFrom="xs">
              {tPersonal.title}
            </Text>
          </Group>
          <Button
            variant="subtle"
            leftSection={<IconArrowLeft size={18} />}
            onClick={() => void navigate({ to: '/' })}
          >
            {tPersonal.back}
          </Button>
        </Group>
      </Box>

      <Container size="md" py="lg" px={{ base: 'sm', sm: 'md' }}>
        <Stack gap="md">
          <Title order={3}>{tPersonal.title}</Title>
          {!user ? (
            <Center mih={200}>
              <Loader size="sm" />
            </Center>
          ) : (
            <>
              <ProfileCard user={user} />
              <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
                <ProfileForm key={user.userId} user={user} />
                <PasswordForm />
              </SimpleGrid>
              <DavCard account={user.account} />
            </>
          )}
        </Stack>
      </Container>
    </Box>
  );
}

function ProfileCard({ user }: { user: UserInfo }) {
  const p = tPersonal;
  const queryClient = useQueryClient();
  const resetRef = useRef<() => void>(null);
  const upload = useMutation({
    mutationFn: ({ file, key }: { file: File; key: string }) => {
      const body = new FormData();
      body.append('file', file);
      return museum.post<{ image: string }>('/personal/avatar', body, { idempotencyKey: key });
    },
    onSuccess: ({ image }) => {
      session.patchUser({ image });
      queryClient.setQueryData<UserInfo>(INFO_KEY, (old) => (old ? { ...old, image } : old));
      notifySuccess(p.avatarUpdated);
    },
  });

  const choose = (file: File | null) => {
    // Clears the input so picking the same file again (after a failure) still fires.
    resetRef.current?.();
    if (!file) return;
    // Checked here too so a wrong or oversized file fails at once instead of after a slow upload.
    if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) errorToast(p.avatarType);
    else if (file.size > AVATAR_MAX_BYTES) errorToast(p.avatarTooLarge);
    else upload.mutate({ file, key: crypto.randomUUID() });
  };

  return (
    <Card withBorder radius="md" padding="lg">
      <Group align="flex-start" gap="xl" wrap="wrap">
        <Stack align="center" gap="xs" w={{ base: '100%', xs: 'auto' }}>
          <UserAvatar name={user.userName} image={user.image} size={96} />
          <FileButton onChange={choose} accept={AVATAR_ACCEPT} resetRef={resetRef}>
            {(props) => (
              <Button
                {...props}
                variant="light"
                size="xs"
                leftSection={<IconCamera size={14} />}
                loading={upload.isPending}
              >
                {p.changeAvatar}
              </Button>
            )}
          </FileButton>
          <Text size="xs" c="dimmed" ta="center" maw={160}>
            {p.avatarHint}
          </Text>
        </Stack>
        <DataList flex={1} miw={240} labelWidth={72} withDivider>
          <DataList.Item>
            <DataList.ItemLabel>{p.account}</DataList.ItemLabel>
            <DataList.ItemValue>{user.account}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{p.userName}</DataList.ItemLabel>
            <DataList.ItemValue>{user.userName}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{p.phone}</DataList.ItemLabel>
            <DataList.ItemValue>{user.phone || DASH}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{p.departments}</DataList.ItemLabel>
            <DataList.ItemValue>{user.departments.map((d) => d.name).join('、') || DASH}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{p.roles}</DataList.ItemLabel>
            <DataList.ItemValue>
              {user.roles.length === 0 ? (
                DASH
              ) : (
                <Group gap={6}>
                  {user.roleNames.map((name) => (
                    <Badge key={name} variant="light">
                      {name}
                    </Badge>
                  ))}
                </Group>
              )}
            </DataList.ItemValue>
          </DataList.Item>
        </DataList>
      </Group>
    </Card>
  );
}

function ProfileForm({ user }: { user: UserInfo }) {
  const p = tPersonal;
  const queryClient = useQueryClient();
  const form = useForm({
    initialValues: { userName: user.userName, phone: user.phone },
    validate: zodValidate(ProfileUpdate),
  });
  // The form opens on the session's copy, so it can be typed in at once (and offline). When the
  // server's copy arrives, or a later refetch brings an admin's change, it takes the new values
  // for the fields the person has not changed and keeps what they typed in the others. It was
  // rebuilt instead, which wiped a name typed before the server answered and left 保存 disabled.
  const { userName, phone } = user;
  useEffect(() => {
    const typed = form.getValues();
    form.setValues({
      userName: form.isDirty('userName') ? typed.userName : userName,
      phone: form.isDirty('phone') ? typed.phone : phone,
    });
    form.resetDirty({ userName, phone });
    // `form` is a new object on every render; only the server's values should re-run this.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [userName, phone]);
  const update = useMutation({
    mutationFn: ({ body, key }: { body: { userName: string; phone: string }; key: string }) =>
      museum.post<UserInfo>('/personal/update', body, { idempotencyKey: key }),
    onSuccess: (next) => {
      session.patchUser(next);
      queryClient.setQueryData(INFO_KEY, next);
      const saved = { userName: next.userName, phone: next.phone };
      form.setValues(saved);
      form.resetDirty(saved);
      notifySuccess(p.profileSaved);
    },
  });
  const submit = form.onSubmit((values) =>
    update.mutate({ body: ProfileUpdate.parse(values), key: crypto.randomUUID() }),
  );

  return (
    <Card withBorder radius="md" padding="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text fw={600}>{p.profileTitle}</Text>
          <TextInput label={p.userName} withAsterisk maxLength={30} {...form.getInputProps('userName')} />
          <TextInput
            label={p.phone}
            placeholder={p.phonePlaceholder}
            inputMode="tel"
            maxLength={11}
            {...form.getInputProps('phone')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={update.isPending} disabled={!form.isDirty()}>
              {tCore.common.save}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

interface PasswordValues {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

const checkPasswordChange = zodValidate(PasswordChange);

function PasswordForm() {
  const p = tPersonal;
  const [leaving, setLeaving] = useState(false);
  const form = useForm<PasswordValues>({
    initialValues: { oldPassword: '', newPassword: '', confirmPassword: '' },
    validate: (values) => {
      const errors: Record<string, string> = checkPasswordChange(values);
      if (!values.confirmPassword) errors.confirmPassword = p.confirmRequired;
      else if (values.confirmPassword !== values.newPassword) errors.confirmPassword = p.confirmMismatch;
      return errors;
    },
  });
  const change = useMutation({
    mutationFn: ({ body, key }: { body: { oldPassword: string; newPassword: string }; key: string }) =>
      museum.post<unknown>('/personal/password', body, { idempotencyKey: key }),
    onSuccess: () => {
      // The server has ended every session of this user, this one included.
      setLeaving(true);
      session.clear();
      notifications.show({ color: 'green', message: tCore.session.passwordChanged });
      window.setTimeout(() => window.location.assign('/login'), LOGOUT_DELAY_MS);
    },
  });
  const submit = form.onSubmit(({ oldPassword, newPassword }) =>
    change.mutate({ body: PasswordChange.parse({ oldPassword, newPassword }), key: crypto.randomUUID() }),
  );

  return (
    <Card withBorder radius="md" padding="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text fw={600}>{p.passwordTitle}</Text>
          <PasswordInput
            label={p.oldPassword}
            withAsterisk
            autoComplete="current-password"
            {...form.getInputProps('oldPassword')}
          />
          <PasswordInput
            label={p.newPassword}
            description={p.passwordRule}
            withAsterisk
            autoComplete="new-password"
            {...form.getInputProps('newPassword')}
          />
          <PasswordInput
            label={p.confirmPassword}
            withAsterisk
            autoComplete="new-password"
            {...form.getInputProps('confirmPassword')}
          />
          <Text size="xs" c="dimmed">
            {p.passwordHint}
          </Text>
          <Group justify="flex-end">
            <Button type="submit" leftSection={<IconKey size={16} />} loading={change.isPending || leaving}>
              {p.changePassword}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
