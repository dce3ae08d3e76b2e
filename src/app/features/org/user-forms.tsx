import { useMemo } from 'react';
import {
  Button,
  Group,
  Modal,
  MultiSelect,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { UserCreate, UserResetPassword, UserUpdate, type UserRow } from '../../../shared/api/org';
import { zodValidate } from '../../lib/form';
import { FormActions } from '../../components/form-actions';
import { tCore } from '../../lib/i18n-core';
import { tOrg } from '../../lib/i18n/org';
import { deptOptions } from './dept-utils';
import { deptTreeQuery, newKey, orgApi, rolesQuery, useOrgMutation, userOptionsQuery } from './org-queries';
import { notifySuccess } from '../../components/page-states';

/** Phones get full-screen dialogs: a 375 px wide modal leaves no room for multi-selects. */
const PHONE_QUERY = '(max-width: 36em)';

interface UserFormValues {
  /** 0 while creating; the update schema needs the id, the create schema ignores it. */
  userId: number;
  account: string;
  password: string;
  userName: string;
  phone: string;
  deptIds: number[];
  roleIds: number[];
  superiorId: number | null;
}

interface UserFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** null opens the 新增人员 form; a row opens its edit form. */
  user: UserRow | null;
  /** Changes on every opening, so the form starts from the row's current values each time. */
  formKey: number;
}

export function UserFormModal({ opened, onClose, user, formKey }: UserFormModalProps) {
  const phone = useMediaQuery(PHONE_QUERY);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={user ? tOrg.person.editTitle : tOrg.person.add}
      size="lg"
      fullScreen={phone}
      closeOnClickOutside={false}
    >
      <UserForm key={formKey} user={user} onDone={onClose} />
    </Modal>
  );
}

function UserForm({ user, onDone }: { user: UserRow | null; onDone: () => void }) {
  const f = tOrg.person.fields;
  const form = useForm<UserFormValues>({
    initialValues: {
      userId: user?.userId ?? 0,
      account: user?.account ?? '',
      password: '',
      userName: user?.userName ?? '',
      phone: user?.phone ?? '',
      deptIds: user?.deptIds ?? [],
      roleIds: user?.roleIds ?? [],
      superiorId: user?.superiorId ?? null,
    },
    validate: zodValidate(user ? UserUpdate : UserCreate),
  });
  const depts = useQuery(deptTreeQuery());
  const roles = useQuery(rolesQuery());
  const users = useQuery(userOptionsQuery());
  const create = useOrgMutation(orgApi.createUser);
  const update = useOrgMutation(orgApi.updateUser);
  const saving = create.isPending || update.isPending;

  const deptData = useMemo(() => deptOptions(depts.data ?? []), [depts.data]);
  const roleData = useMemo(
    () => (roles.data ?? []).map((role) => ({ value: role.roleId, label: role.name })),
    [roles.data],
  );
  const superiorData = useMemo(() => {
    // Oneself is never a valid superior; the server would refuse it anyway.
    const options = (users.data?.list ?? [])
      .filter((u) => u.userId !== user?.userId)
      .map((u) => ({
        value: u.userId,
        label: `${u.userName}（${u.account}）${u.enabled ? '' : tOrg.person.disabledSuffix}`,
      }));
    // The picker loads one page of users; keep the current superior selectable even beyond it.
    if (user?.superiorId && !options.some((o) => o.value === user.superiorId)) {
      options.unshift({ value: user.superiorId, label: user.superiorName });
    }
    return options;
  }, [users.data, user]);

  const submit = form.onSubmit((values) => {
    const done = (message: string) => () => {
      notifySuccess(message);
      onDone();
    };
    const key = newKey();
    if (user)
      update.mutate({ vars: UserUpdate.parse(values), key }, { onSuccess: done(tOrg.person.updated) });
    else create.mutate({ vars: UserCreate.parse(values), key }, { onSuccess: done(tOrg.person.created) });
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
          {user ? (
            <TextInput label={f.account} value={user.account} readOnly disabled />
          ) : (
            <TextInput
              label={f.account}
              placeholder={f.accountPlaceholder}
              withAsterisk
              autoComplete="off"
              maxLength={30}
              {...form.getInputProps('account')}
            />
          )}
          <TextInput
            label={f.userName}
            placeholder={f.userNamePlaceholder}
            withAsterisk
            maxLength={30}
            {...form.getInputProps('userName')}
          />
          <TextInput
            label={f.phone}
            placeholder={f.phonePlaceholder}
            inputMode="tel"
            maxLength={11}
            {...form.getInputProps('phone')}
          />
          {!user && (
            <PasswordInput
              label={f.password}
              placeholder={f.passwordPlaceholder}
              description={tOrg.passwordRule}
              withAsterisk
              autoComplete="new-password"
              {...form.getInputProps('password')}
            />
          )}
        </SimpleGrid>
        <MultiSelect
          label={f.depts}
          placeholder={deptData.length ? f.deptsPlaceholder : undefined}
          data={deptData}
          searchable
          clearable
          nothingFoundMessage={depts.isPending ? tCore.common.loading : tOrg.dept.none}
          {...form.getInputProps('deptIds')}
        />
        <MultiSelect
          label={f.roles}
          placeholder={roleData.length ? f.rolesPlaceholder : undefined}
          description={f.rolesHint}
          data={roleData}
          searchable
          clearable
          nothingFoundMessage={roles.isPending ? tCore.common.loading : tOrg.role.none}
          {...form.getInputProps('roleIds')}
        />
        <Select
          label={f.superior}
          placeholder={f.superiorPlaceholder}
          data={superiorData}
          searchable
          clearable
          nothingFoundMessage={users.isPending ? tCore.common.loading : tOrg.person.noMatch}
          {...form.getInputProps('superiorId')}
        />
        <FormActions onCancel={onDone} saving={saving} mt="xs" />
      </Stack>
    </form>
  );
}

interface ResetPasswordModalProps {
  opened: boolean;
  onClose: () => void;
  user: UserRow | null;
  formKey: number;
}

export function ResetPasswordModal({ opened, onClose, user, formKey }: ResetPasswordModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={user ? tOrg.person.resetPasswordTitle(user.userName) : tOrg.person.resetPassword}
      size="sm"
      closeOnClickOutside={false}
    >
      {user && <ResetPasswordForm key={formKey} user={user} onDone={onClose} />}
    </Modal>
  );
}

function ResetPasswordForm({ user, onDone }: { user: UserRow; onDone: () => void }) {
  const form = useForm({
    initialValues: { userId: user.userId, password: '' },
    validate: zodValidate(UserResetPassword),
  });
  const reset = useOrgMutation(orgApi.resetPassword);
  const submit = form.onSubmit((values) =>
    reset.mutate(
      { vars: UserResetPassword.parse(values), key: newKey() },
      {
        onSuccess: () => {
          notifySuccess(tOrg.person.passwordReset);
          onDone();
        },
      },
    ),
  );

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {tOrg.person.resetPasswordHint}
        </Text>
        <PasswordInput
          label={tOrg.person.newPassword}
          description={tOrg.passwordRule}
          withAsterisk
          autoComplete="new-password"
          data-autofocus
          {...form.getInputProps('password')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={reset.isPending}>
            {tCore.common.cancel}
          </Button>
          <Button type="submit" loading={reset.isPending}>
            {tOrg.person.resetPassword}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
