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
import { IconAlertCircle, IconHourglass, IconWifiOff } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useEffect, useState, type ChangeEvent, type FormEvent } from 'react';
import { tCore as t } from '../../lib/i18n-core';
import { useOnline } from '../../lib/online';

/**
 * The API client, the session's store and the schema load after the form is on screen (issue 25:
 * ≤ 120 KB gzip before sign-in is usable): fetched as soon as the form is idle, awaited on submit.
 */
const loadSignIn = () => import('./sign-in');

/**
 * The sign-in page. Failures (wrong password, locked, disabled) are shown in place, in the
 * server's own words, so the person sees how many tries remain or how long to wait. A
 * newcomer who registered reads here where their registration stands (账号正在审核中, or
 * 注册申请未通过：<理由>): there is no SMS, so the sign-in answer is how they are told. 注册
 * links to the public /register.
 */
export function LoginPage({ onSignedIn }: { onSignedIn: (firstUrl: string) => void }) {
  const online = useOnline();
  const [error, setError] = useState<{ message: string; pending: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  // Two fields, checked on submit, a field's error cleared as it is typed in: what @mantine/form
  // did here, without its 9 KB gzip on the first screen (issue 25).
  const [values, setValues] = useState({ username: '', password: '' });
  const [invalid, setInvalid] = useState<{ username?: string; password?: string }>({});
  const field = (name: 'username' | 'password') => ({
    value: values[name],
    error: invalid[name],
    onChange: (e: ChangeEvent<HTMLInputElement>) => {
      const value = e.currentTarget.value;
      setValues((v) => ({ ...v, [name]: value }));
      setInvalid((i) => ({ ...i, [name]: undefined }));
    },
  });

  useEffect(() => {
    const id = setTimeout(() => void loadSignIn().catch(() => undefined), 0);
    return () => clearTimeout(id);
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const check = {
      username: values.username.trim() ? undefined : '请输入账号或手机号',
      password: values.password ? undefined : '请输入密码',
    };
    setInvalid(check);
    if (check.username || check.password) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await (await loadSignIn()).signInWith(values);
      if ('firstUrl' in answer) onSignedIn(answer.firstUrl);
      else setError(answer);
    } catch {
      // The sign-in code itself did not load (the network went away before it arrived).
      setError({ message: t.errors.network, pending: false });
    } finally {
      setBusy(false);
    }
  };

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
                color={error.pending ? 'blue' : 'red'}
                icon={error.pending ? <IconHourglass size={18} /> : <IconAlertCircle size={18} />}
                data-testid="login-error"
              >
                {error.message}
              </Alert>
            )}
            <form onSubmit={(e) => void submit(e)} noValidate>
              <Stack gap="sm">
                <TextInput
                  label={t.login.username}
                  placeholder={t.login.usernamePlaceholder}
                  autoComplete="username"
                  size="md"
                  {...field('username')}
                />
                <PasswordInput
                  label={t.login.password}
                  placeholder={t.login.passwordPlaceholder}
                  autoComplete="current-password"
                  size="md"
                  {...field('password')}
                />
                <Button type="submit" size="md" loading={busy} disabled={!online} mt="xs">
                  {t.login.submit}
                </Button>
              </Stack>
            </form>
            <Group gap={4} justify="center">
              <Text size="sm" c="dimmed">
                {t.login.noAccount}
              </Text>
              <Anchor component={Link} to="/register" size="sm" data-testid="register-link">
                {t.login.registerLink}
              </Anchor>
            </Group>
          </Stack>
        </Paper>
      </Center>
    </Box>
  );
}
