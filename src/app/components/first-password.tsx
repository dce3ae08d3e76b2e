import { Button, Card, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { PasswordChange } from '../../shared/api/org';
import { errorToast, museum } from '../lib/api';
import { zodValidate } from '../lib/form';
import { tCore } from '../lib/i18n-core';
import { tFirstPassword } from '../lib/i18n/first-password';
import { tPersonal } from '../lib/i18n/personal';
import { session } from '../lib/session';

/**
 * The first sign-in with a password someone else chose (a volunteer's initial password, or one
 * an administrator set in 人员管理 → 重置密码; the account's `must_change_password`): a new one
 * first, then sign in again with it. Shown by the phone view (/m) and by the staff shell in place
 * of the page (README "Volunteer accounts and the phone view").
 */
interface FirstPasswordValues {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}
const checkPasswordChange = zodValidate(PasswordChange);

export function FirstPassword() {
  const P = tPersonal;
  const F = tFirstPassword;
  const [leaving, setLeaving] = useState(false);
  const form = useForm<FirstPasswordValues>({
    initialValues: { oldPassword: '', newPassword: '', confirmPassword: '' },
    validate: (values) => {
      const errors: Record<string, string> = checkPasswordChange(values);
      if (!values.confirmPassword) errors.confirmPassword = P.confirmRequired;
      else if (values.confirmPassword !== values.newPassword) errors.confirmPassword = P.confirmMismatch;
      return errors;
    },
  });
  const change = useMutation({
    mutationFn: (v: { oldPassword: string; newPassword: string }) =>
      museum.post<unknown>(
        '/personal/password',
        { oldPassword: v.oldPassword, newPassword: v.newPassword },
        { idempotencyKey: crypto.randomUUID(), silent: true },
      ),
    onSuccess: () => {
      // The server ended every session of this account: sign in again with the new password.
      setLeaving(true);
      session.clear();
      notifications.show({ color: 'green', message: tCore.session.passwordChanged });
      window.setTimeout(() => window.location.assign('/login'), 1200);
    },
    onError: (e) => errorToast(e instanceof Error ? e.message : String(e)),
  });
  return (
    <Card radius="md" p="md" withBorder data-testid="first-password">
      <form
        noValidate
        onSubmit={form.onSubmit(({ oldPassword, newPassword }) =>
          change.mutate({ oldPassword, newPassword }),
        )}
      >
        <Stack gap="sm">
          <Title order={2} size="h4">
            {F.changeTitle}
          </Title>
          <Text size="sm" c="dimmed">
            {F.changeHint}
          </Text>
          <PasswordInput
            label={F.initialPassword}
            withAsterisk
            autoComplete="current-password"
            {...form.getInputProps('oldPassword')}
          />
          <PasswordInput
            label={P.newPassword}
            description={P.passwordRule}
            withAsterisk
            autoComplete="new-password"
            {...form.getInputProps('newPassword')}
          />
          <PasswordInput
            label={P.confirmPassword}
            withAsterisk
            autoComplete="new-password"
            {...form.getInputProps('confirmPassword')}
          />
          <Button type="submit" loading={change.isPending || leaving}>
            {F.changeSubmit}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
