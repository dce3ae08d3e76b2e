import { ActionIcon, Box, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { dialogs } from '../../lib/dialogs';
import { IconZoomIn, IconZoomOut } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { Target, WorkflowDefinition } from '../../../shared/workflow/definition';
import type { NodePath } from '../../../shared/workflow/paths';
import {
  WorkflowTreeError,
  addBranch,
  addNode,
  deleteBranch,
  deleteNode,
  moveBranch,
} from '../../../shared/workflow/tree';
import { markErrors } from '../../../shared/workflow/validate';
import { errorToast } from '../../lib/api';
import { tCore } from '../../lib/i18n-core';
import { tDesigner } from '../../lib/i18n/designer';
import { conditionFieldsFromForm } from '../../lib/workflow-designer';
import { designerCalls, designerKeys } from './designer-data';
import { DesignerDrawer, type DrawerTarget } from './designer-drawers';
import { DesignerTree, type TreeActions } from './designer-tree';

const ZOOMS = [0.6, 0.8, 1, 1.2] as const;

/**
 * 流程设计: the tree, its drawers and zoom. Every edit goes through tree.ts; the marks shown are
 * markErrors over the whole definition (with the form's fields), i.e. exactly what publishing
 * would refuse. The tree scrolls both ways, so wide routers stay usable on a 1024 px tablet.
 */
export function DesignerFlow({
  templateId,
  def,
  onChange,
}: {
  templateId: number | null;
  def: WorkflowDefinition;
  onChange: (def: WorkflowDefinition) => void;
}) {
  const [drawer, setDrawer] = useState<DrawerTarget | null>(null);
  const [zoom, setZoom] = useState(2);
  const conditions = useQuery({
    queryKey: designerKeys.conditions(templateId, def.fields),
    queryFn: ({ signal }) => designerCalls.conditions(templateId, def.fields, signal),
    staleTime: 30_000,
  });
  const ctx = { fields: def.fields, directorMaxLevel: def.directorMaxLevel };
  const marked = useMemo(
    () => markErrors(def.nodeConfig, { fields: def.fields, directorMaxLevel: def.directorMaxLevel }),
    [def.nodeConfig, def.fields, def.directorMaxLevel],
  );

  const edit = (fn: () => WorkflowDefinition['nodeConfig']) => {
    try {
      onChange({ ...def, nodeConfig: markErrors(fn(), ctx) });
    } catch (err) {
      if (err instanceof WorkflowTreeError) errorToast(err.message);
      else throw err;
    }
  };
  const root = def.nodeConfig;
  const actions: TreeActions = {
    add: (path: NodePath, kind) => edit(() => addNode(root, path, kind)),
    remove: (path) => edit(() => deleteNode(root, path)),
    removeRouter: (path) =>
      dialogs.openConfirmModal({
        title: tDesigner.flow.removeRouter,
        children: <Text size="sm">{tDesigner.flow.removeRouterConfirm}</Text>,
        labels: { confirm: tCore.common.delete, cancel: tCore.common.cancel },
        confirmProps: { color: 'red' },
        closeOnClickOutside: false,
        onConfirm: () => edit(() => deleteNode(root, path)),
      }),
    addBranch: (path) => edit(() => addBranch(root, path)),
    removeBranch: (path) => edit(() => deleteBranch(root, path)),
    moveBranch: (path, dir) => edit(() => moveBranch(root, path, dir)),
    open: (path) => setDrawer({ kind: 'node', path }),
    openStarter: () => setDrawer({ kind: 'starter' }),
  };
  const scale = ZOOMS[zoom]!;

  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text size="xs" c="dimmed">
          {conditions.data?.derived ? tDesigner.flow.derivedConditions : ''}
        </Text>
        <Group gap={4}>
          <ActionIcon
            variant="default"
            aria-label={tDesigner.flow.zoomOut}
            disabled={zoom === 0}
            onClick={() => setZoom(zoom - 1)}
          >
            <IconZoomOut size={16} />
          </ActionIcon>
          <Text size="xs" w={40} ta="center">
            {Math.round(scale * 100)}%
          </Text>
          <ActionIcon
            variant="default"
            aria-label={tDesigner.flow.zoomIn}
            disabled={zoom === ZOOMS.length - 1}
            onClick={() => setZoom(zoom + 1)}
          >
            <IconZoomIn size={16} />
          </ActionIcon>
        </Group>
      </Group>
      <ScrollArea
        h="calc(100dvh - 260px)"
        mih={420}
        type="auto"
        bg="var(--mantine-color-gray-0)"
        style={{ borderRadius: 8 }}
      >
        <Box style={{ zoom: scale, width: 'max-content', minWidth: `${100 / scale}%` }}>
          <DesignerTree
            root={marked}
            flowPermission={def.flowPermission}
            fields={def.fields}
            actions={actions}
          />
        </Box>
      </ScrollArea>
      <DesignerDrawer
        target={drawer}
        root={root}
        flowPermission={def.flowPermission}
        fields={def.fields}
        directorMaxLevel={def.directorMaxLevel}
        conditionFields={conditions.data?.fields ?? conditionFieldsFromForm(def.fields)}
        onClose={() => setDrawer(null)}
        onCommit={(nodeConfig, flowPermission: Target[]) =>
          onChange({ ...def, flowPermission, nodeConfig: markErrors(nodeConfig, ctx) })
        }
      />
    </Stack>
  );
}
