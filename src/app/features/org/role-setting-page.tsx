import { useMemo, useRef, useState } from 'react';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Grid,
  Group,
  Paper,
  Stack,
  Text,
  Title,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { dialogs } from '../../lib/dialogs';
import { useQuery } from '@tanstack/react-query';
import {
  IconArrowBackUp,
  IconDeviceFloppy,
  IconInfoCircle,
  IconPencil,
  IconPlus,
  IconTrash,
} from '@tabler/icons-react';
import type { RoleRow } from '../../../shared/api/org';
import { tCore } from '../../lib/i18n-core';
import { tOrg } from '../../lib/i18n/org';
import { ALL_MENU_KEYS, MenuGrants, knownKeys, sameKeys } from './menu-grants';
import { newKey, orgApi, rolesQuery, useOrgMutation } from './org-queries';
import {
  EmptyBlock,
  ErrorBlock,
  LoadingBlock,
  confirmAction,
  notifySuccess,
} from '../../components/page-states';
import { RoleFormModal } from './role-form';

interface RoleDialog {
  opened: boolean;
  role: RoleRow | null;
  nonce: number;
}

/** Below Mantine's sm breakpoint (phones) the grants panel stacks under the role list. */
const STACKED_QUERY = '(max-width: 47.99em)';

/** Unsaved grant edits, kept per role so a refetch of the role list does not wipe them. */
interface Draft {
  roleId: number;
  keys: ReadonlySet<string>;
}

/** /staff/role/setting 角色设置: roles and the menu entries each role grants. */
export function RoleSettingPage() {
  const r = tOrg.role;
  const roles = useQuery(rolesQuery());
  const remove = useOrgMutation(orgApi.deleteRole);
  const saveMenus = useOrgMutation(orgApi.setRoleMenus);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [dialog, setDialog] = useState<RoleDialog>({ opened: false, role: null, nonce: 0 });
  const grantsRef = useRef<HTMLDivElement>(null);

  const list = roles.data ?? [];
  // Falls back to the first role when nothing is chosen yet or the chosen one was deleted.
  const selected = list.find((role) => role.roleId === selectedId) ?? list[0];
  const saved = useMemo(() => knownKeys(selected?.menuKeys ?? []), [selected]);
  const ownDraft = selected && draft?.roleId === selected.roleId ? draft : null;
  const granted = selected?.allMenus ? new Set(ALL_MENU_KEYS) : (ownDraft?.keys ?? saved);
  const dirty = Boolean(ownDraft && !sameKeys(ownDraft.keys, saved));

  const select = (role: RoleRow) => {
    if (role.roleId === selected?.roleId) return;
    const go = () => {
      setDraft(null);
      setSelectedId(role.roleId);
      // Stacked layout: the grants sit below the whole role list, out of sight after a tap.
      if (window.matchMedia(STACKED_QUERY).matches) {
        grantsRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
      }
    };
    if (!dirty) return go();
    dialogs.openConfirmModal({
      title: r.discardTitle,
      children: <Text size="sm">{r.discardConfirm(selected?.name ?? '')}</Text>,
      labels: { confirm: r.discard, cancel: tCore.common.cancel },
      confirmProps: { color: 'red' },
      closeOnClickOutside: false,
      onConfirm: go,
    });
  };

  const openForm = (role: RoleRow | null) =>
    setDialog((prev) => ({ opened: true, role, nonce: prev.nonce + 1 }));

  const confirmDelete = (role: RoleRow) =>
    confirmAction({
      title: r.deleteTitle,
      message:
        role.userCount > 0 ? r.deleteConfirmInUse(role.name, role.userCount) : r.deleteConfirm(role.name),
      confirmLabel: tCore.common.delete,
      danger: true,
      run: () =>
        remove
          .mutateAsync({ vars: { id: role.roleId }, key: newKey() })
          .then(() => notifySuccess(tCore.common.deleted)),
    });

  const save = () => {
    if (!selected) return;
    saveMenus.mutate(
      {
        vars: { roleId: selected.roleId, menuKeys: ALL_MENU_KEYS.filter((key) => granted.has(key)) },
        key: newKey(),
      },
      {
        onSuccess: () => {
          setDraft(null);
          notifySuccess(r.menusSaved);
        },
      },
    );
  };

  const roleCards = list.map((role) => {
    const active = role.roleId === selected?.roleId;
    return (
      <Paper
        key={role.roleId}
        withBorder
        radius="md"
        p="sm"
        style={
          active
            ? {
                borderColor: 'var(--mantine-primary-color-filled)',
                background: 'var(--mantine-primary-color-light)',
              }
            : undefined
        }
      >
        <Group wrap="nowrap" align="flex-start" gap="xs">
          <UnstyledButton style={{ flex: 1, minWidth: 0 }} onClick={() => select(role)} aria-pressed={active}>
            <Group gap={6} wrap="nowrap">
              <Text size="sm" fw={600} truncate="end">
                {role.name}
              </Text>
              {role.builtin && (
                <Badge size="xs" variant="light" color="gray" style={{ flex: 'none' }}>
                  {r.builtin}
                </Badge>
              )}
            </Group>
            <Text size="xs" c="dimmed" ff="monospace" truncate="end">
              {role.code}
            </Text>
            {role.remark && (
              <Text size="xs" c="dimmed" lineClamp={2}>
                {role.remark}
              </Text>
            )}
            <Text size="xs" c="dimmed" mt={2}>
              {r.userCount(role.userCount)}
            </Text>
          </UnstyledButton>
          <Group gap={2} wrap="nowrap">
            <Tooltip label={tCore.common.edit}>
              <ActionIcon
                variant="subtle"
                size="lg"
                aria-label={tCore.common.edit}
                onClick={() => openForm(role)}
              >
                <IconPencil size={18} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={role.builtin ? r.builtinNoDelete : tCore.common.delete}>
              {/* data-disabled rather than disabled: a disabled button fires no hover, so its tooltip could never explain why. */}
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label={tCore.common.delete}
                aria-disabled={role.builtin || undefined}
                data-disabled={role.builtin || undefined}
                onClick={(e) => {
                  if (role.builtin) e.preventDefault();
                  else confirmDelete(role);
                }}
              >
                <IconTrash size={18} />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
      </Paper>
    );
  });

  let rolesBody;
  if (roles.isPending) rolesBody = <LoadingBlock />;
  else if (roles.isError)
    rolesBody = <ErrorBlock onRetry={() => void roles.refetch()} retrying={roles.isFetching} />;
  else if (list.length === 0) rolesBody = <EmptyBlock />;
  else rolesBody = <Stack gap="xs">{roleCards}</Stack>;

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }}>
      <Group justify="space-between" gap="sm">
        <Title order={3}>{r.title}</Title>
        <Button leftSection={<IconPlus size={18} />} onClick={() => openForm(null)}>
          {r.add}
        </Button>
      </Group>
      <Grid>
        <Grid.Col span={{ base: 12, sm: 5, lg: 4 }}>
          <Card withBorder radius="md" padding="sm">
            <Text size="sm" fw={600} mb="xs">
              {r.listTitle}
            </Text>
            {rolesBody}
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 7, lg: 8 }}>
          {/* A Paper, not a Card: Card clips overflow, which would stop the toolbar from sticking. */}
          <Paper
            ref={grantsRef}
            withBorder
            radius="md"
            p="sm"
            style={{ scrollMarginTop: 'var(--app-shell-header-offset, 0px)' }}
          >
            {!selected ? (
              roles.isPending ? (
                <LoadingBlock />
              ) : (
                <EmptyBlock title={r.pickRole} />
              )
            ) : (
              <Stack gap="sm">
                {/* Sticks while scrolling the long grant list, so 保存 stays in reach on a tablet. */}
                <Group
                  justify="space-between"
                  gap="sm"
                  pos="sticky"
                  top="var(--app-shell-header-offset, 0px)"
                  py={6}
                  bg="var(--mantine-color-body)"
                  style={{ zIndex: 2 }}
                >
                  <div>
                    <Text size="sm" fw={600}>
                      {r.menusTitle(selected.name)}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {r.grantedCount(granted.size, ALL_MENU_KEYS.length)}
                    </Text>
                  </div>
                  {!selected.allMenus && (
                    <Group gap="xs">
                      <Button
                        variant="default"
                        leftSection={<IconArrowBackUp size={16} />}
                        disabled={!dirty || saveMenus.isPending}
                        onClick={() => setDraft(null)}
                      >
                        {r.undo}
                      </Button>
                      <Button
                        leftSection={<IconDeviceFloppy size={16} />}
                        disabled={!dirty}
                        loading={saveMenus.isPending}
                        onClick={save}
                      >
                        {r.saveMenus}
                      </Button>
                    </Group>
                  )}
                </Group>
                {selected.allMenus && (
                  <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />}>
                    {r.allMenusNote}
                  </Alert>
                )}
                <MenuGrants
                  roleCode={selected.code}
                  granted={granted}
                  readOnly={selected.allMenus || saveMenus.isPending}
                  onChange={(keys) => setDraft({ roleId: selected.roleId, keys })}
                />
              </Stack>
            )}
          </Paper>
        </Grid.Col>
      </Grid>
      <RoleFormModal
        opened={dialog.opened}
        role={dialog.role}
        formKey={dialog.nonce}
        onClose={() => setDialog((prev) => ({ ...prev, opened: false }))}
        onCreated={(roleId) => {
          // Jump to the new role's menus, unless that would throw away unsaved grants of this one.
          if (!dirty) setSelectedId(roleId);
        }}
      />
    </Stack>
  );
}
