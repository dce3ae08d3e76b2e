import { Group, ScrollArea, Text, Tree, UnstyledButton, useTree, type TreeNodeData } from '@mantine/core';
import { IconChevronRight, IconFolder, IconFolderOpen } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import type { TreeNode } from '../../../../shared/api/drive';
import { ROOT } from '../../../../shared/drive/names';
import { tCore } from '../../../lib/i18n-core';
import { tDrive } from '../../../lib/i18n/drive';
import { tOffline } from '../../../lib/i18n/offline';
import type { CachedView } from '../../../lib/cached-query';
import classes from '../drive.module.css';

const collator = new Intl.Collator('zh-Hans-CN', { numeric: true });

/** Mantine tree data, children in the same name order as the file list. */
function toData(node: TreeNode): TreeNodeData {
  return {
    value: node.filePath,
    label: node.filePath === ROOT ? tDrive.rootName : node.label,
    children: [...node.children].sort((a, b) => collator.compare(a.label, b.label)).map(toData),
  };
}

/** Every ancestor of a folder path, root first: '/a/b/' → ['/', '/a/', '/a/b/']. */
function ancestors(path: string): string[] {
  const out = [ROOT];
  let acc = ROOT;
  for (const seg of path.split('/').filter(Boolean)) {
    acc += `${seg}/`;
    out.push(acc);
  }
  return out;
}

export interface FolderTreeProps {
  /** The area's folder tree (useFolderTree). */
  tree: CachedView<TreeNode>;
  /** The chosen folder's path. */
  target: string;
  onTarget: (path: string) => void;
  /** Opened down to this folder at first, so the likely targets are in view. */
  openTo: string;
}

/**
 * The folder tree of the move, copy and save-share dialogs: pick a folder by clicking it; the
 * chosen one is marked (data-current). Shows loading, not-cached (offline) and failure in place.
 */
export function FolderTree({ tree, target, onTarget, openTo }: FolderTreeProps) {
  // Controlled, so the tree keeps these keys when its data arrives or refreshes.
  const [expanded, setExpanded] = useState<Record<string, boolean>>(() =>
    Object.fromEntries(ancestors(openTo).map((p) => [p, true])),
  );
  const controller = useTree({ expandedState: expanded, onExpandedStateChange: setExpanded });
  const data = useMemo(() => (tree.data ? [toData(tree.data)] : []), [tree.data]);
  const c = tDrive.copyMove;
  return (
    <ScrollArea.Autosize mah="min(50vh, 420px)" type="auto" className={classes.treeBox}>
      {tree.status === 'ready' ? (
        <Tree
          data={data}
          tree={controller}
          levelOffset={20}
          expandOnClick={false}
          aria-label={c.treeLabel}
          renderNode={({ node, expanded, hasChildren, elementProps, level }) => (
            <Group
              gap={4}
              wrap="nowrap"
              {...elementProps}
              className={`${elementProps.className} ${classes.treeNode}`}
              data-current={target === node.value || undefined}
              data-testid="tree-node"
              data-path={node.value}
              onClick={() => onTarget(node.value)}
              style={{ ...elementProps.style, paddingLeft: `calc(${level - 1} * 20px + 4px)` }}
            >
              <UnstyledButton
                className={classes.treeToggle}
                aria-label={expanded ? c.collapse : c.expand}
                tabIndex={-1}
                style={{ visibility: hasChildren ? 'visible' : 'hidden' }}
                onClick={(e) => {
                  e.stopPropagation();
                  controller.toggleExpanded(node.value);
                }}
              >
                <IconChevronRight size={14} style={{ transform: expanded ? 'rotate(90deg)' : undefined }} />
              </UnstyledButton>
              {expanded ? (
                <IconFolderOpen size={18} color="#e0a526" />
              ) : (
                <IconFolder size={18} color="#e0a526" />
              )}
              <Text size="sm" truncate>
                {node.label}
              </Text>
            </Group>
          )}
        />
      ) : tree.status === 'loading' ? (
        <Text size="sm" c="dimmed" p="md">
          {tCore.common.loading}
        </Text>
      ) : (
        <Text size="sm" c="dimmed" p="md">
          {tree.status === 'not-cached'
            ? `${tOffline.notCachedTitle}，${tOffline.notCachedHint}`
            : c.loadFailed}
        </Text>
      )}
    </ScrollArea.Autosize>
  );
}
