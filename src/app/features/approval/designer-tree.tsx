import { ActionIcon, Box, Button, Group, Menu, Paper, Stack, Text, Tooltip } from '@mantine/core';
import {
  IconAlertCircle,
  IconChevronLeft,
  IconChevronRight,
  IconGitBranch,
  IconPlus,
  IconSend,
  IconUser,
  IconUserCheck,
  IconX,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type {
  AnyNode,
  ChainNode,
  FormField,
  RouterNode,
  StarterNode,
  Target,
} from '../../../shared/workflow/definition';
import type { NodePath } from '../../../shared/workflow/paths';
import { nodeSummary, starterSummary } from '../../../shared/workflow/summary';
import type { AddKind } from '../../../shared/workflow/tree';
import { tDesigner } from '../../lib/i18n/designer';

const F = tDesigner.flow;

/** What the tree asks its editor to do; the editor applies tree.ts and keeps the history. */
export interface TreeActions {
  add: (path: NodePath, kind: AddKind) => void;
  remove: (path: NodePath) => void;
  /** Deletes a router with all its branches (the editor asks first). */
  removeRouter: (path: NodePath) => void;
  addBranch: (routerPath: NodePath) => void;
  removeBranch: (branchPath: NodePath) => void;
  moveBranch: (branchPath: NodePath, dir: -1 | 1) => void;
  open: (path: NodePath) => void;
  openStarter: () => void;
}

const LINE = 'var(--mantine-color-gray-4)';
const CARD_WIDTH = 220;

/**
 * The flow as a tree of cards (spec §2 designer): starter, approvers, copy-to and routers with
 * their condition branches side by side, a + between every two nodes, and the red mark on a node
 * the publish check would name (the `error` flags tree.ts / markErrors keep).
 */
export function DesignerTree({
  root,
  flowPermission,
  fields,
  actions,
}: {
  root: StarterNode;
  flowPermission: readonly Target[];
  fields: readonly FormField[];
  actions: TreeActions;
}) {
  return (
    <Stack
      align="center"
      gap={0}
      py="md"
      px="xl"
      style={{ minWidth: 'max-content' }}
      data-testid="designer-tree"
    >
      <NodeCard
        node={root}
        path={[]}
        summary={starterSummary(flowPermission)}
        color="gray"
        icon={<IconUser size={14} />}
        onOpen={actions.openStarter}
      />
      <AddButton path={[]} actions={actions} />
      <Chain node={root.childNode} path={['child']} fields={fields} actions={actions} />
      <Paper radius="xl" px="md" py={4} withBorder c="dimmed" fz="sm">
        {F.end}
      </Paper>
    </Stack>
  );
}

function Chain({
  node,
  path,
  fields,
  actions,
}: {
  node: ChainNode | null;
  path: NodePath;
  fields: readonly FormField[];
  actions: TreeActions;
}) {
  if (!node) return null;
  const next = [...path, 'child'] as const;
  return (
    <>
      {node.type === 4 ? (
        <Router node={node} path={path} fields={fields} actions={actions} />
      ) : (
        <NodeCard
          node={node}
          path={path}
          summary={nodeSummary(node)}
          color={node.type === 1 ? 'orange' : 'blue'}
          icon={node.type === 1 ? <IconUserCheck size={14} /> : <IconSend size={14} />}
          onOpen={() => actions.open(path)}
          onRemove={() => actions.remove(path)}
        />
      )}
      <AddButton path={path} actions={actions} />
      <Chain node={node.childNode} path={next} fields={fields} actions={actions} />
    </>
  );
}

function Router({
  node,
  path,
  fields,
  actions,
}: {
  node: RouterNode;
  path: NodePath;
  fields: readonly FormField[];
  actions: TreeActions;
}) {
  const last = node.conditionNodes.length - 1;
  return (
    <Box
      style={{ border: `1px dashed ${LINE}`, borderRadius: 8, position: 'relative' }}
      pt={28}
      pb="sm"
      px="xs"
      data-testid="designer-router"
    >
      <Button
        size="compact-sm"
        variant="white"
        leftSection={<IconGitBranch size={14} />}
        onClick={() => actions.addBranch(path)}
        style={{
          position: 'absolute',
          top: -14,
          left: '50%',
          transform: 'translateX(-50%)',
          border: `1px solid ${LINE}`,
        }}
      >
        {F.addBranch}
      </Button>
      <Tooltip label={F.removeRouter}>
        <ActionIcon
          size="sm"
          variant="subtle"
          color="gray"
          aria-label={F.removeRouter}
          onClick={() => actions.removeRouter(path)}
          style={{ position: 'absolute', top: 4, right: 4 }}
        >
          <IconX size={14} />
        </ActionIcon>
      </Tooltip>
      <Group align="flex-start" gap="md" wrap="nowrap">
        {node.conditionNodes.map((b, i) => {
          const bp = [...path, i];
          return (
            <Stack key={i} align="center" gap={0} data-testid="designer-branch">
              <NodeCard
                node={b}
                path={bp}
                summary={nodeSummary(b, { isLastBranch: i === last, fields })}
                color="green"
                icon={<IconGitBranch size={14} />}
                extra={tDesigner.flow.priority(b.priorityLevel)}
                onOpen={() => actions.open(bp)}
                onRemove={() => actions.removeBranch(bp)}
                removeLabel={F.removeBranch}
                move={{
                  left: i > 0 ? () => actions.moveBranch(bp, -1) : undefined,
                  right: i < last ? () => actions.moveBranch(bp, 1) : undefined,
                }}
              />
              <AddButton path={bp} actions={actions} />
              <Chain node={b.childNode} path={[...bp, 'child']} fields={fields} actions={actions} />
            </Stack>
          );
        })}
      </Group>
    </Box>
  );
}

function NodeCard({
  node,
  path,
  summary,
  color,
  icon,
  extra,
  onOpen,
  onRemove,
  removeLabel = F.removeNode,
  move,
}: {
  node: AnyNode;
  path: NodePath;
  summary: string;
  color: string;
  icon: ReactNode;
  extra?: string;
  onOpen: () => void;
  onRemove?: () => void;
  removeLabel?: string;
  move?: { left?: () => void; right?: () => void };
}) {
  const error = 'error' in node && node.error === true;
  return (
    <Paper
      withBorder
      radius="md"
      w={CARD_WIDTH}
      shadow="xs"
      style={{
        borderColor: error ? 'var(--mantine-color-red-6)' : undefined,
        borderWidth: error ? 2 : 1,
        cursor: 'pointer',
        overflow: 'hidden',
      }}
      data-testid="designer-node"
      data-path={path.join('.')}
      data-error={error ? 'true' : 'false'}
      aria-invalid={error}
    >
      <Group
        justify="space-between"
        px="xs"
        py={4}
        bg={`var(--mantine-color-${color}-light)`}
        wrap="nowrap"
        gap={4}
      >
        <Group gap={4} wrap="nowrap" style={{ minWidth: 0 }}>
          {icon}
          <Text size="sm" fw={500} truncate>
            {node.nodeName}
          </Text>
          {extra && (
            <Text size="xs" c="dimmed" style={{ flex: 'none' }}>
              {extra}
            </Text>
          )}
        </Group>
        <Group gap={0} wrap="nowrap">
          {move?.left && (
            <ActionIcon size="sm" variant="subtle" aria-label={F.moveLeft} onClick={move.left}>
              <IconChevronLeft size={14} />
            </ActionIcon>
          )}
          {move?.right && (
            <ActionIcon size="sm" variant="subtle" aria-label={F.moveRight} onClick={move.right}>
              <IconChevronRight size={14} />
            </ActionIcon>
          )}
          {onRemove && (
            <ActionIcon size="sm" variant="subtle" color="gray" aria-label={removeLabel} onClick={onRemove}>
              <IconX size={14} />
            </ActionIcon>
          )}
        </Group>
      </Group>
      <Group
        px="xs"
        py={8}
        gap={6}
        wrap="nowrap"
        onClick={onOpen}
        role="button"
        tabIndex={0}
        aria-label={`${node.nodeName}：${summary}`}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') onOpen();
        }}
        mih={44}
      >
        <Text
          size="sm"
          c={error ? 'red' : undefined}
          lineClamp={3}
          style={{ flex: 1, wordBreak: 'break-word' }}
        >
          {summary}
        </Text>
        {error && (
          <Tooltip label={F.errorMark}>
            <IconAlertCircle size={18} color="var(--mantine-color-red-6)" aria-label={F.errorMark} />
          </Tooltip>
        )}
        <IconChevronRight size={14} color="var(--mantine-color-gray-5)" />
      </Group>
    </Paper>
  );
}

/** The + under a node: adds an approver, a copy-to or a router right after it. */
function AddButton({ path, actions }: { path: NodePath; actions: TreeActions }) {
  return (
    <Stack align="center" gap={0} py={4}>
      <Box w={2} h={14} bg={LINE} />
      <Menu position="right-start" withinPortal>
        <Menu.Target>
          <ActionIcon
            radius="xl"
            size="lg"
            aria-label={F.add}
            data-testid="designer-add"
            data-path={path.join('.')}
          >
            <IconPlus size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<IconUserCheck size={14} />} onClick={() => actions.add(path, 'approver')}>
            {F.addApprover}
          </Menu.Item>
          <Menu.Item leftSection={<IconSend size={14} />} onClick={() => actions.add(path, 'copyTo')}>
            {F.addCopyTo}
          </Menu.Item>
          <Menu.Item leftSection={<IconGitBranch size={14} />} onClick={() => actions.add(path, 'router')}>
            {F.addRouter}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Box w={2} h={14} bg={LINE} />
    </Stack>
  );
}
