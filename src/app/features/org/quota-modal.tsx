import { Modal, NumberInput, Progress, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StorageInfo } from '../../../shared/api/drive';
import type { UserRow } from '../../../shared/api/org';
import { formatSize } from '../../../shared/drive/file-types';
import { FormActions } from '../../components/form-actions';
import { drive } from '../../lib/api';
import { tCore } from '../../lib/i18n-core';
import { tOrg } from '../../lib/i18n/org';
import { LoadingBlock } from '../../components/page-states';

const GIB = 1024 ** 3;

/**
 * An administrator sets one person's drive quota (GB). Shows what they use now, so a quota
 * below their use is a visible choice: they keep their files but cannot add more.
 */
export function QuotaModal({ user, onClose }: { user: UserRow | null; onClose: () => void }) {
  return (
    <Modal
      opened={user !== null}
      onClose={onClose}
      title={user ? tOrg.quota.title(user.userName) : ''}
      size="sm"
      closeOnClickOutside={false}
    >
      {user && <QuotaForm key={user.userId} user={user} onDone={onClose} />}
    </Modal>
  );
}

function QuotaForm({ user, onDone }: { user: UserRow; onDone: () => void }) {
  const client = useQueryClient();
  const info = useQuery({
    queryKey: ['org', 'quota', user.userId],
    queryFn: () => drive.get<StorageInfo>('/admin/getstorage', { query: { userId: user.userId } }),
  });
  if (info.isPending) return <LoadingBlock />;
  if (!info.data) return <Text c="red">{tCore.common.loadFailedHint}</Text>;
  return <QuotaFields user={user} info={info.data} onDone={onDone} client={client} />;
}

function QuotaFields(props: {
  user: UserRow;
  info: StorageInfo;
  onDone: () => void;
  client: ReturnType<typeof useQueryClient>;
}) {
  const q = tOrg.quota;
  const { info } = props;
  const form = useForm({
    initialValues: { gb: Math.round((info.totalStorageSize / GIB) * 10) / 10 },
    validate: { gb: (v) => (typeof v === 'number' && v >= 0 && v <= 100000 ? null : q.invalid) },
  });
  const save = useMutation({
    mutationFn: (gb: number) =>
      drive.post(
        '/admin/setstorage',
        { userId: props.user.userId, totalStorageSize: Math.round(gb * GIB) },
        { idempotencyKey: crypto.randomUUID() },
      ),
    onSuccess: async () => {
      await props.client.invalidateQueries({ queryKey: ['org', 'quota', props.user.userId] });
      notifications.show({ color: 'green', message: q.saved });
      props.onDone();
    },
  });
  const percent =
    info.totalStorageSize > 0 ? Math.min(100, (info.storageSize / info.totalStorageSize) * 100) : 100;
  return (
    <form onSubmit={form.onSubmit((v) => save.mutate(v.gb))}>
      <Stack gap="sm">
        <Text size="sm">{q.used(formatSize(info.storageSize), formatSize(info.totalStorageSize))}</Text>
        <Progress value={percent} color={percent >= 90 ? 'red' : 'museum'} />
        <NumberInput
          label={q.label}
          description={q.hint}
          min={0}
          max={100000}
          decimalScale={1}
          suffix=" GB"
          {...form.getInputProps('gb')}
        />
        <FormActions onCancel={props.onDone} saving={save.isPending} />
      </Stack>
    </form>
  );
}
