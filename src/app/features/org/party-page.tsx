import { useMemo, useState } from 'react';
import {
  ActionIcon,
  Button,
  Card,
  Group,
  Modal,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { IconPencil, IconPlus, IconSitemap, IconTrash } from '@tabler/icons-react';
import { DeptCreate, DeptUpdate, type DeptNode } from '../../../shared/api/org';
import { zodValidate } from '../../lib/form';
import { FormActions } from '../../components/form-actions';
import { tCore } from '../../lib/i18n-core';
import { tOrg } from '../../lib/i18n/org';
import { DeptTree } from './dept-tree';
import { countDepts, deptOptions, subtreeIds } from './dept-utils';
import { deptTreeQuery, newKey, orgApi, useOrgMutation } from './org-queries';
import {
  EmptyBlock,
  ErrorBlock,
  LoadingBlock,
  confirmAction,
  notifySuccess,
} from '../../components/page-states';

/** What the department dialog is doing: adding under a parent (null = top level) or editing a node. */
type DeptTarget = { mode: 'create'; parentId: number | null } | { mode: 'edit'; node: DeptNode };
interface DeptDialog {
  target: DeptTarget;
  /** Bumped at each opening so the form is rebuilt from the node it opens for. */
  nonce: number;
}

/** /staff/party 组织架构: the department tree and its upkeep. */
export function PartyPage() {
  const d = tOrg.dept;
  const depts = useQuery(deptTreeQuery());
  const remove = useOrgMutation(orgApi.deleteDept);
  const [dialog, setDialog] = useState<DeptDialog | null>(null);
  const [opened, setOpened] = useState(false);

  const open = (target: DeptTarget) => {
    setDialog((prev) => ({ target, nonce: (prev?.nonce ?? 0) + 1 }));
    setOpened(true);
  };
  const target = dialog?.target;

  const confirmDelete = (node: DeptNode) =>
    confirmAction({
      title: d.deleteTitle,
      message: d.deleteConfirm(node.name),
      confirmLabel: tCore.common.delete,
      danger: true,
      run: () =>
        remove
          .mutateAsync({ vars: { id: node.id }, key: newKey() })
          .then(() => notifySuccess(tCore.common.deleted)),
    });

  const actions = (node: DeptNode) => (
    <Group gap={2} wrap="nowrap" style={{ flex: 'none' }}>
      <Tooltip label={d.addChild}>
        <ActionIcon
          variant="subtle"
          size="lg"
          aria-label={d.addChild}
          onClick={() => open({ mode: 'create', parentId: node.id })}
        >
          <IconPlus size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={d.edit}>
        <ActionIcon
          variant="subtle"
          size="lg"
          aria-label={d.edit}
          onClick={() => open({ mode: 'edit', node })}
        >
          <IconPencil size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={tCore.common.delete}>
        <ActionIcon
          variant="subtle"
          color="red"
          size="lg"
          aria-label={tCore.common.delete}
          onClick={() => confirmDelete(node)}
        >
          <IconTrash size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );

  const addTop = (
    <Button leftSection={<IconPlus size={18} />} onClick={() => open({ mode: 'create', parentId: null })}>
      {d.addTop}
    </Button>
  );

  let body;
  if (depts.isPending) body = <LoadingBlock />;
  else if (depts.isError)
    body = <ErrorBlock onRetry={() => void depts.refetch()} retrying={depts.isFetching} />;
  else if (depts.data.length === 0)
    body = <EmptyBlock title={d.none} description={d.noneHint} action={addTop} />;
  else body = <DeptTree nodes={depts.data} renderActions={actions} />;

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }}>
      <Group justify="space-between" gap="sm">
        <Group gap="xs">
          <IconSitemap size={24} stroke={1.6} />
          <Title order={3}>{d.pageTitle}</Title>
          {depts.data && depts.data.length > 0 && (
            <Text size="sm" c="dimmed">
              {d.total(countDepts(depts.data))}
            </Text>
          )}
        </Group>
        {addTop}
      </Group>
      <Card withBorder radius="md" padding="sm" maw={880}>
        <Text size="xs" c="dimmed" px="xs" pb="xs">
          {d.countHint}
        </Text>
        {body}
      </Card>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={target?.mode === 'edit' ? d.editTitle : target?.parentId ? d.addChild : d.addTop}
        closeOnClickOutside={false}
      >
        {dialog && (
          <DeptForm
            key={dialog.nonce}
            target={dialog.target}
            tree={depts.data ?? []}
            onDone={() => setOpened(false)}
          />
        )}
      </Modal>
    </Stack>
  );
}

interface DeptFormValues {
  id: number;
  name: string;
  parentId: number | null;
}

function DeptForm({ target, tree, onDone }: { target: DeptTarget; tree: DeptNode[]; onDone: () => void }) {
  const d = tOrg.dept;
  const editing = target.mode === 'edit' ? target.node : null;
  const form = useForm<DeptFormValues>({
    initialValues: {
      id: editing?.id ?? 0,
      name: editing?.name ?? '',
      parentId: target.mode === 'edit' ? target.node.parentId : target.parentId,
    },
    validate: zodValidate(editing ? DeptUpdate : DeptCreate),
  });
  const create = useOrgMutation(orgApi.createDept);
  const update = useOrgMutation(orgApi.updateDept);
  const saving = create.isPending || update.isPending;
  // A department cannot move under itself or its own sub-departments.
  const parentData = useMemo(
    () => deptOptions(tree, new Set(editing ? subtreeIds(editing) : [])),
    [tree, editing],
  );

  const submit = form.onSubmit((values) => {
    const key = newKey();
    const done = (message: string) => () => {
      notifySuccess(message);
      onDone();
    };
    if (editing)
      update.mutate({ vars: DeptUpdate.parse(values), key }, { onSuccess: done(tCore.common.saved) });
    else create.mutate({ vars: DeptCreate.parse(values), key }, { onSuccess: done(tCore.common.added) });
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label={d.name}
          placeholder={d.namePlaceholder}
          withAsterisk
          maxLength={30}
          data-autofocus
          {...form.getInputProps('name')}
        />
        <Select
          label={d.parent}
          placeholder={d.parentNone}
          description={d.parentHint}
          data={parentData}
          searchable
          clearable
          nothingFoundMessage={d.noParentOption}
          {...form.getInputProps('parentId')}
        />
        <FormActions onCancel={onDone} saving={saving} />
      </Stack>
    </form>
  );
}
