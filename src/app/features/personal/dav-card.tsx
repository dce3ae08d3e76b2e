import { useState } from 'react';
import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Code,
  Group,
  List,
  Modal,
  PasswordInput,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconCheck, IconCopy, IconPlus } from '@tabler/icons-react';
import {
  AppPasswordCreate,
  type AppPasswordList,
  type AppPasswordMade,
  type AppPasswordRow,
} from '../../../shared/api/app-password';
import { errorToast, museum } from '../../lib/api';
import { zodValidate } from '../../lib/form';
import { tCore } from '../../lib/i18n-core';
import { tPersonal } from '../../lib/i18n/personal';
import { useOnline } from '../../lib/online';
import { confirmAction } from '../../components/confirm-action';

/*
 * 网盘挂载 (issue 26) on 个人中心: the WebDAV address and user name with copy buttons, how to
 * connect from Windows, macOS and phones, and the person's app passwords (make one, shown once;
 * revoke one). The address is this page's own origin + /dav/, which is what a device on the same
 * network reaches, proxy or not.
 */

const LIST_KEY = ['personal', 'appPasswords'] as const;

/** Copies text; falls back to a selection copy where the clipboard API is missing (plain HTTP pages). */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    } finally {
      area.remove();
    }
  }
}

function CopyField({ label, value, testId }: { label: string; value: string; testId: string }) {
  const d = tPersonal.dav;
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (await copyText(value)) {
      setCopied(true);
      window.setTimeout(() => setCopied(false), 1500);
    } else {
      errorToast(d.copyFailed);
    }
  };
  return (
    <Group gap="xs" wrap="nowrap" align="center">
      <Text size="sm" c="dimmed" w={96} style={{ flexShrink: 0, whiteSpace: 'nowrap' }}>
        {label}
      </Text>
      <Code data-testid={testId} style={{ wordBreak: 'break-all', flex: 1 }}>
        {value}
      </Code>
      <Tooltip label={copied ? d.copied : d.copy} withArrow>
        <ActionIcon
          variant="subtle"
          size="lg"
          color={copied ? 'teal' : 'gray'}
          onClick={() => void copy()}
          aria-label={`${d.copy}${label}`}
        >
          {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

export function DavCard({ account }: { account: string }) {
  const d = tPersonal.dav;
  const online = useOnline();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const address = `${window.location.origin}/dav/`;
  const plainHttp =
    window.location.protocol === 'http:' && !/^(localhost|127\.|\[::1\])/.test(window.location.hostname);
  const list = useQuery({
    queryKey: LIST_KEY,
    queryFn: ({ signal }) =>
      museum.get<AppPasswordList>('/personal/appPassword/list', { signal, silent: true }),
    enabled: online,
  });

  const revoke = (row: AppPasswordRow) =>
    confirmAction({
      title: d.revokeTitle,
      message: d.revokeConfirm(row.name),
      confirmLabel: d.revoke,
      danger: true,
      run: async () => {
        await museum.post(
          '/personal/appPassword/delete',
          { id: row.id },
          { idempotencyKey: crypto.randomUUID() },
        );
        notifications.show({ color: 'green', message: d.revoked });
        await queryClient.invalidateQueries({ queryKey: LIST_KEY });
      },
    });

  const rows = list.data?.list ?? [];
  return (
    <Card withBorder radius="md" padding="lg" data-testid="dav-card">
      <Stack gap="md">
        <Text fw={600}>{d.title}</Text>
        <Text size="sm">{d.intro}</Text>
        {plainHttp && (
          <Alert color="yellow" variant="light">
            {d.httpWarning}
          </Alert>
        )}
        <Stack gap={6}>
          <CopyField label={d.address} value={address} testId="dav-address" />
          <CopyField label={d.username} value={account} testId="dav-username" />
        </Stack>
        <List size="sm" spacing={4}>
          {d.steps.map((s) => (
            <List.Item key={s}>{s}</List.Item>
          ))}
        </List>

        <Group justify="space-between" align="flex-end" mt="xs">
          <Stack gap={2}>
            <Text fw={600} size="sm">
              {d.passwordsTitle}
              {list.data ? (
                <Text span c="dimmed" size="xs" ml={6}>
                  {d.limit(list.data.max)}
                </Text>
              ) : null}
            </Text>
            <Text size="xs" c="dimmed">
              {d.passwordsHint}
            </Text>
          </Stack>
          <Button
            leftSection={<IconPlus size={16} />}
            variant="light"
            onClick={() => setCreating(true)}
            disabled={!online}
          >
            {d.add}
          </Button>
        </Group>
        {!online ? (
          <Text size="sm" c="dimmed">
            {d.offline}
          </Text>
        ) : rows.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="app-passwords-empty">
            {list.isLoading ? '…' : d.empty}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={520}>
            <Table data-testid="app-passwords" verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{d.name}</Table.Th>
                  <Table.Th>{d.createdAt}</Table.Th>
                  <Table.Th>{d.lastUsed}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{d.actions}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={r.id}>
                    <Table.Td>{r.name}</Table.Td>
                    <Table.Td>{r.createdAt.slice(0, 16)}</Table.Td>
                    <Table.Td>
                      {r.lastUsedAt ? d.usedFrom(r.lastUsedAt.slice(0, 16), r.lastUsedIp) : d.neverUsed}
                    </Table.Td>
                    <Table.Td ta="right">
                      <Button size="xs" variant="subtle" color="red" onClick={() => revoke(r)}>
                        {d.revoke}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <CreateDialog
        opened={creating}
        onClose={() => setCreating(false)}
        onMade={() => void queryClient.invalidateQueries({ queryKey: LIST_KEY })}
      />
    </Card>
  );
}

const checkCreate = zodValidate(AppPasswordCreate);

function CreateDialog({
  opened,
  onClose,
  onMade,
}: {
  opened: boolean;
  onClose: () => void;
  onMade: () => void;
}) {
  const d = tPersonal.dav;
  const [made, setMade] = useState<AppPasswordMade | null>(null);
  const form = useForm({ initialValues: { name: '', password: '' }, validate: checkCreate });
  const create = useMutation({
    mutationFn: (body: AppPasswordCreate) =>
      museum.post<AppPasswordMade>('/personal/appPassword/add', body, {
        idempotencyKey: crypto.randomUUID(),
      }),
    onSuccess: (result) => {
      setMade(result);
      form.reset();
      onMade();
    },
  });
  const close = () => {
    setMade(null);
    form.reset();
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={made ? d.createdTitle : d.dialogTitle}
      size={460}
      closeOnClickOutside={false}
    >
      {made ? (
        <Stack gap="md">
          <Alert color="yellow" variant="light">
            {d.createdHint}
          </Alert>
          <CopyField label={d.username} value={made.account} testId="made-username" />
          <CopyField label={d.passwordsTitle} value={made.appPassword} testId="made-password" />
          <Group justify="flex-end">
            <Button onClick={close}>{d.done}</Button>
          </Group>
        </Stack>
      ) : (
        <form noValidate onSubmit={form.onSubmit((v) => create.mutate(AppPasswordCreate.parse(v)))}>
          <Stack gap="md">
            <TextInput
              label={d.name}
              description={d.nameDescription}
              placeholder={d.namePlaceholder}
              withAsterisk
              maxLength={30}
              data-autofocus
              {...form.getInputProps('name')}
            />
            <PasswordInput
              label={d.confirmPassword}
              description={d.confirmPasswordDescription}
              withAsterisk
              autoComplete="current-password"
              {...form.getInputProps('password')}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {tCore.common.cancel}
              </Button>
              <Button type="submit" loading={create.isPending}>
                {d.create}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
