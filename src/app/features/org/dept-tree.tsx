import { useState, type ReactNode } from 'react';
import { ActionIcon, Text, UnstyledButton } from '@mantine/core';
import { IconBuildingCommunity, IconChevronRight, IconFolder } from '@tabler/icons-react';
import type { DeptNode } from '../../../shared/api/org';
import { tOrg } from '../../lib/i18n/org';
import classes from './dept-tree.module.css';

/** Pixels each level is indented by; enough to read the nesting on a phone without losing width. */
const LEVEL_OFFSET = 18;

interface Selection {
  /** null selects the 全部 entry. */
  selectedId: number | null;
  onSelect: (id: number | null) => void;
}

interface DeptTreeProps {
  nodes: readonly DeptNode[];
  /** Makes rows selectable and adds a 全部 entry above the tree (the person page's filter). */
  selection?: Selection;
  /** Buttons at the end of each row (the department admin's actions). */
  renderActions?: (node: DeptNode) => ReactNode;
}

/**
 * The department tree, expanded by default. Written by hand rather than with Mantine's Tree
 * because rows hold their own buttons: Tree's node element toggles and swallows Space on the
 * whole row, which would fire on the action buttons too.
 */
export function DeptTree({ nodes, selection, renderActions }: DeptTreeProps) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) =>
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <ul className={classes.list} role="tree" aria-label={tOrg.dept.treeLabel}>
      {selection && (
        <li role="treeitem" aria-selected={selection.selectedId === null} aria-level={1}>
          <div className={classes.row} data-selected={selection.selectedId === null || undefined}>
            <span className={classes.spacer} />
            <UnstyledButton className={classes.label} onClick={() => selection.onSelect(null)}>
              <IconBuildingCommunity size={18} stroke={1.6} />
              <Text size="sm" fw={500}>
                {tOrg.dept.all}
              </Text>
            </UnstyledButton>
          </div>
        </li>
      )}
      {nodes.map((node) => (
        <DeptTreeNode
          key={node.id}
          node={node}
          level={1}
          collapsed={collapsed}
          onToggle={toggle}
          selection={selection}
          renderActions={renderActions}
        />
      ))}
    </ul>
  );
}

interface NodeProps {
  node: DeptNode;
  level: number;
  collapsed: ReadonlySet<number>;
  onToggle: (id: number) => void;
  selection: Selection | undefined;
  renderActions: ((node: DeptNode) => ReactNode) | undefined;
}

function DeptTreeNode({ node, level, collapsed, onToggle, selection, renderActions }: NodeProps) {
  const hasChildren = node.children.length > 0;
  const expanded = hasChildren && !collapsed.has(node.id);
  const selected = selection?.selectedId === node.id;
  const label = (
    <>
      <IconFolder size={18} stroke={1.6} style={{ flex: 'none' }} />
      <Text size="sm" truncate="end" style={{ flex: '0 1 auto', minWidth: 0 }}>
        {node.name}
      </Text>
      <Text size="xs" c="dimmed" style={{ flex: 'none' }}>
        {tOrg.dept.memberCount(node.userCount)}
      </Text>
    </>
  );

  return (
    <li
      role="treeitem"
      aria-level={level}
      aria-expanded={hasChildren ? expanded : undefined}
      aria-selected={selection ? selected : undefined}
    >
      <div
        className={classes.row}
        data-selected={selected || undefined}
        style={{ paddingLeft: (level - 1) * LEVEL_OFFSET }}
      >
        {hasChildren ? (
          <ActionIcon
            variant="subtle"
            color="gray"
            size={28}
            onClick={() => onToggle(node.id)}
            aria-label={expanded ? tOrg.dept.collapse : tOrg.dept.expand}
          >
            <IconChevronRight size={16} className={classes.chevron} data-expanded={expanded || undefined} />
          </ActionIcon>
        ) : (
          <span className={classes.spacer} />
        )}
        {selection ? (
          <UnstyledButton className={classes.label} onClick={() => selection.onSelect(node.id)}>
            {label}
          </UnstyledButton>
        ) : (
          <div className={classes.label}>{label}</div>
        )}
        {renderActions?.(node)}
      </div>
      {expanded && (
        <ul className={classes.list} role="group">
          {node.children.map((child) => (
            <DeptTreeNode
              key={child.id}
              node={child}
              level={level + 1}
              collapsed={collapsed}
              onToggle={onToggle}
              selection={selection}
              renderActions={renderActions}
            />
          ))}
        </ul>
      )}
    </li>
  );
}
