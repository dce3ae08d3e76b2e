import { Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { RoleCreate, RoleUpdate, type RoleRow } from '../../../shared/api/org';
import { zodValidate } from '../../lib/form';
import { FormActions } from '../../components/form-actions';
import { tCore } from '../../lib/i18n-core';
import { tOrg } from '../../lib/i18n/org';
import { newKey, orgApi, useOrgMutation } from './org-queries';
import { notifySuccess } from '../../components/page-states';

interface RoleFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** null opens the 新增角色 form. */
  role: RoleRow | null;
  formKey: number;
  /** Called with the new role's id so the page can select it and go straight to its menus. */
  onCreated: (roleId: number) => void;
}

export function RoleFormModal({ opened, onClose, role, formKey, onCreated }: RoleFormModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={role ? tOrg.role.editTitle : tOrg.role.add}
      closeOnClickOutside={false}
    >
      <RoleForm key={formKey} role={role} onDone={onClose} onCreated={onCreated} />
    </Modal>
  );
}

interface RoleFormValues {
  roleId: number;
  code: string;
  name: string;
  remark: string;
}

function RoleForm({
  role,
  onDone,
  onCreated,
}: {
  role: RoleRow | null;
  onDone: () => void;
  onCreated: (roleId: number) => void;
}) {
  const r = tOrg.role;
  const form = useForm<RoleFormValues>({
    initialValues: {
      roleId: role?.roleId ?? 0,
      code: role?.code ?? '',
      name: role?.name ?? '',
      remark: role?.remark ?? '',
    },
    validate: zodValidate(role ? RoleUpdate : RoleCreate),
  });
  const create = useOrgMutation(orgApi.createRole);
  const update = useOrgMutation(orgApi.updateRole);
  const saving = create.isPending || update.isPending;

  const submit = form.onSubmit((values) => {
    const key = newKey();
    if (role) {
      update.mutate(
        { vars: RoleUpdate.parse(values), key },
        {
          onSuccess: () => {
            notifySuccess(tCore.common.saved);
            onDone();
          },
        },
      );
    } else {
      create.mutate(
        { vars: RoleCreate.parse(values), key },
        {
          onSuccess: (result) => {
            notifySuccess(tCore.common.added);
            onCreated(result.roleId);
            onDone();
          },
        },
      );
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label={r.name}
          placeholder={r.namePlaceholder}
          withAsterisk
          maxLength={30}
          data-autofocus
          {...form.getInputProps('name')}
        />
        {role ? (
          // The code is what grants and sessions refer to; it never changes after creation.
          <TextInput label={r.code} value={role.code} description={r.codeFixed} readOnly disabled />
        ) : (
          <TextInput
            label={r.code}
            placeholder={r.codePlaceholder}
            description={r.codeHint}
            withAsterisk
            maxLength={40}
            autoComplete="off"
            {...form.getInputProps('code')}
          />
        )}
        <Textarea
          label={r.remark}
          placeholder={r.remarkPlaceholder}
          autosize
          minRows={2}
          maxRows={5}
          maxLength={200}
          {...form.getInputProps('remark')}
        />
        <FormActions onCancel={onDone} saving={saving} />
      </Stack>
    </form>
  );
}
