import {
  Alert,
  Anchor,
  Box,
  Button,
  Center,
  Group,
  Paper,
  PasswordInput,
  Select,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconCircleCheck, IconWifiOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { PASSWORD_MISMATCH, RegisterBody, type RegisterDept } from '../../../shared/api/registration';
import { ApiError, museum } from '../../lib/api';
import { zodValidate } from '../../lib/form';
import { tCore } from '../../lib/i18n-core';
import { tRegister } from '../../lib/i18n/register';
import { useOnline } from '../../lib/online';

const T = tRegister;

/**
 * Departments as a newcomer chooses them: each by its path, without the museum's own name
 * when the tree has a single root (every path would start with it).
 */
function deptOptions(list: readonly RegisterDept[]) {
  const byId = new Map(list.map((d) => [d.id, d]));
  const roots = list.filter((d) => d.parentId === null);
  const pathOf = (d: RegisterDept): string[] => {
    const parent = d.parentId === null ? undefined : byId.get(d.parentId);
    return parent ? [...pathOf(parent), d.name] : [d.name];
  };
  return list.map((d) => {
    const path = pathOf(d);
    const shown = roots.length === 1 && path.length > 1 ? path.slice(1) : path;
    return { value: String(d.id), label: shown.join(' / ') };
  });
}

/**
 * /register (outside the layout, no session; README "Self-registration and pending staff"): a
 * newcomer gives their name, mobile, department and a password, checked with the server's own
 * schema as they type, and is told what happens next. Usable on a phone: one column, large
 * inputs, the keyboard each field wants.
 */
export function RegisterPage() {
  const online = useOnline();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const depts = useQuery({
    queryKey: ['register', 'depts'],
    queryFn: ({ signal }) => museum.get<RegisterDept[]>('/register/depts', { signal, silent: true }),
    staleTime: 60_000,
  });
  const options = useMemo(() => deptOptions(depts.data ?? []), [depts.data]);
  const form = useForm({
    initialValues: { userName: '', phone: '', deptId: '', password: '', confirmPassword: '', remark: '' },
    // The schema's own words; the two passwords are compared as soon as both are typed (the
    // schema compares them only once every field is valid).
    validate: (values) => ({
      ...zodValidate(RegisterBody)(values),
      ...(values.confirmPassword && values.password !== values.confirmPassword
        ? { confirmPassword: PASSWORD_MISMATCH }
        : {}),
    }),
    validateInputOnBlur: true,
  });

  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    setError(null);
    try {
      await museum.post('/register/apply', RegisterBody.parse(values), { silent: true });
      setDone(true);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : tCore.errors.server);
    } finally {
      setBusy(false);
    }
  });

  const body = done ? (
    <Stack gap="md" align="center" ta="center" data-testid="register-done">
      <IconCircleCheck size={48} color="var(--mantine-color-green-6)" />
      <Title order={3}>{T.doneTitle}</Title>
      <Text size="sm" c="dimmed">
        {T.doneText}
      </Text>
      <Button component="a" href="/login" size="md" fullWidth>
        {T.toLogin}
      </Button>
    </Stack>
  ) : (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={3}>{T.title}</Title>
        <Text size="sm" c="dimmed">
          {T.intro}
        </Text>
      </Stack>
      {!online && (
        <Alert color="yellow" icon={<IconWifiOff size={18} />}>
          {T.offline}
        </Alert>
      )}
      {depts.isError && <Alert color="red">{T.deptsFailed}</Alert>}
      {error && (
        <Alert color="red" icon={<IconAlertCircle size={18} />} data-testid="register-error">
          {error}
        </Alert>
      )}
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label={T.userName}
            placeholder={T.userNamePlaceholder}
            autoComplete="name"
            size="md"
            withAsterisk
            maxLength={30}
            {...form.getInputProps('userName')}
          />
          <TextInput
            label={T.phone}
            placeholder={T.phonePlaceholder}
            autoComplete="tel"
            inputMode="numeric"
            size="md"
            withAsterisk
            maxLength={11}
            {...form.getInputProps('phone')}
          />
          <Select
            label={T.dept}
            placeholder={T.deptPlaceholder}
            data={options}
            searchable
            size="md"
            withAsterisk
            comboboxProps={{ withinPortal: true }}
            data-testid="register-dept"
            {...form.getInputProps('deptId')}
          />
          <PasswordInput
            label={T.password}
            description={T.passwordHint}
            autoComplete="new-password"
            size="md"
            withAsterisk
            {...form.getInputProps('password')}
          />
          <PasswordInput
            label={T.confirmPassword}
            autoComplete="new-password"
            size="md"
            withAsterisk
            {...form.getInputProps('confirmPassword')}
          />
          <Textarea
            label={T.remark}
            placeholder={T.remarkPlaceholder}
            autosize
            minRows={2}
            maxRows={4}
            maxLength={200}
            {...form.getInputProps('remark')}
          />
          <Button type="submit" size="md" loading={busy} disabled={!online} mt="xs">
            {T.submit}
          </Button>
        </Stack>
      </form>
      <Group gap={4} justify="center">
        <Text size="sm" c="dimmed">
          {T.haveAccount}
        </Text>
        <Anchor href="/login" size="sm">
          {T.login}
        </Anchor>
      </Group>
    </Stack>
  );

  return (
    <Box
      mih="100dvh"
      style={{ background: 'linear-gradient(160deg, #7a2e1d 0%, #5f2214 45%, #f7f3ee 45.1%)' }}
      data-testid="register-page"
    >
      <Center mih="100dvh" p="md">
        <Paper shadow="lg" radius="lg" p={{ base: 'lg', sm: 'xl' }} w="100%" maw={440}>
          {body}
        </Paper>
      </Center>
    </Box>
  );
}
