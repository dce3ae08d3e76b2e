import {
  Alert,
  Anchor,
  Box,
  Button,
  Center,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconHourglass, IconWifiOff } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { LoginBody } from '../../../shared/api/auth';
import { ErrorCode } from '../../../shared/api/envelope';
import { ApiError } from '../../lib/api';
import { signIn } from '../../lib/auth';
import { t } from '../../lib/i18n';
import { useOnline } from '../../lib/online';

/**
 * The sign-in page. Failures (wrong password, locked, disabled) are shown in place, in the
 * server's own words, so the person sees how many tries remain or how long to wait. A
 * newcomer who registered reads here where their registration stands (账号正在审核中, or
 * 注册申请未通过：<理由>): there is no SMS, so the sign-in answer is how they are told. 注册
 * links to the public /register.
 */
export function LoginPage({ onSignedIn }: { onSignedIn: (firstUrl: string) => void }) {
  const online = useOnline();
  const [error, setError] = useState<{ message: string; code: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useForm({
    initialValues: { username: '', password: '' },
    validate: {
      username: (v) => (v.trim() ? null : '请输入账号或手机号'),
      password: (v) => (v ? null : '请输入密码'),
    },
  });

  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await signIn(LoginBody.parse(values)));
    } catch (e) {
      setError(
        e instanceof ApiError ? { message: e.message, code: e.code } : { message: t.errors.server, code: 0 },
      );
    } finally {
      setBusy(false);
    }
  });

  return (
    <Box
      mih="100dvh"
      style={{ background: 'linear-gradient(160deg, #7a2e1d 0%, #5f2214 45%, #f7f3ee 45.1%)' }}
      data-testid="login-page"
    >
      <Center mih="100dvh" p="md">
        <Paper shadow="lg" radius="lg" p="xl" w="100%" maw={400}>
          <Stack gap="md">
            <Stack gap={4} align="center">
              <img src="/icons/icon-192.png" alt="" width={64} height={64} style={{ borderRadius: 14 }} />
              <Title order={2}>{t.appName}</Title>
              <Text c="dimmed" size="sm">
                {t.appTagline}
              </Text>
            </Stack>
            <Text fw={600}>{t.login.title}</Text>
            {!online && (
              <Alert color="yellow" icon={<IconWifiOff size={18} />}>
                {t.login.offline}
              </Alert>
            )}
            {error && (
              <Alert
                color={error.code === ErrorCode.registrationPending ? 'blue' : 'red'}
                icon={
                  error.code === ErrorCode.registrationPending ? (
                    <IconHourglass size={18} />
                  ) : (
                    <IconAlertCircle size={18} />
                  )
                }
                data-testid="login-error"
              >
                {error.message}
              </Alert>
            )}
            <form onSubmit={submit} noValidate>
              <Stack gap="sm">
                <TextInput
                  label={t.login.username}
                  placeholder={t.login.usernamePlaceholder}
                  autoComplete="username"
                  size="md"
                  {...form.getInputProps('username')}
                />
                <PasswordInput
                  label={t.login.password}
                  placeholder={t.login.passwordPlaceholder}
                  autoComplete="current-password"
                  size="md"
                  {...form.getInputProps('password')}
                />
                <Button type="submit" size="md" loading={busy} disabled={!online} mt="xs">
                  {t.login.submit}
                </Button>
              </Stack>
            </form>
            <Group gap={4} justify="center">
              <Text size="sm" c="dimmed">
                {t.register.noAccount}
              </Text>
              <Anchor component={Link} to="/register" size="sm" data-testid="register-link">
                {t.register.registerLink}
              </Anchor>
            </Group>
          </Stack>
        </Paper>
      </Center>
    </Box>
  );
}
