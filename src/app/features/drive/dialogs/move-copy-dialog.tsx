import {
  Alert,
  Box,
  Group,
  Modal,
  ScrollArea,
  Stack,
  Text,
  Tree,
  UnstyledButton,
  useTree,
  type TreeNodeData,
} from '@mantine/core';
import { IconChevronRight, IconFolder, IconFolderOpen } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import type { FileEntry, TreeNode } from '../../../../shared/api/drive';
import { ROOT } from '../../../../shared/drive/names';
import { FormActions } from '../../../components/form-actions';
import { t } from '../../../lib/i18n';
import { OutboxRefusal, type SubmitResult } from '../../../lib/outbox';
import { useFolderTree } from '../drive-data';
import type { DriveView } from '../drive-view';
import { targetProblem } from '../overlay';
import { DIALOG_WIDTH, type DialogResult } from './dialog-kit';
import { OfflineNote } from '../offline-note';
import classes from '../drive.module.css';

const collator = new Intl.Collator('zh-Hans-CN', { numeric: true });

/** Mantine tree data, children in the same name order as the file list. */
function toData(node: TreeNode): TreeNodeData {
  return {
    value: node.filePath,
    label: node.filePath === ROOT ? t.drive.rootName : node.label,
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

export interface MoveCopyDialogProps {
  opened: boolean;
  mode: 'move' | 'copy';
  view: DriveView;
  items: FileEntry[];
  onSubmit: (target: string) => Promise<SubmitResult>;
  onClose: (result: DialogResult, queued?: boolean) => void;
  /** Other uses of the tree (unzip's target): their own title, text and starting folder. */
  title?: string;
  whatText?: string;
  initialTarget?: string;
}

/**
 * 移动到 / 复制到 (700 px, spec §2 and §9): the area's folder tree (file/getfiletree, cached for
 * offline), the chosen target shown in words, and the self-containment rule checked before
 * asking the server (原路径与目标路径冲突，不能移动/复制). Folders created offline appear in
 * the tree at once and may be chosen: queued writes replay in order.
 */
export function MoveCopyDialog({
  opened,
  mode,
  view,
  items,
  onSubmit,
  onClose,
  ...custom
}: MoveCopyDialogProps) {
  const tree = useFolderTree(view, opened);
  const [target, setTarget] = useState<string>(custom.initialTarget ?? view.filePath);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Controlled, starting open down to the current folder so the likely targets are in view;
  // the tree keeps these keys when its data arrives or refreshes.
  const [expanded, setExpanded] = useState<Record<string, boolean>>(() =>
    Object.fromEntries(ancestors(view.filePath).map((p) => [p, true])),
  );
  const controller = useTree({ expandedState: expanded, onExpandedStateChange: setExpanded });
  const data = useMemo(() => (tree.data ? [toData(tree.data)] : []), [tree.data]);

  const c = t.drive.copyMove;
  const problem = targetProblem(items, target, mode);
  // Into itself is an error (the server's words); "already there" is only a hint to pick another.
  const problemText = problem === 'self' ? (mode === 'move' ? c.selfConflictMove : c.selfConflictCopy) : null;
  const hintText = problem === 'same' ? c.sameFolder : null;

  const confirm = async () => {
    if (problem) return;
    setBusy(true);
    setError(null);
    try {
      const result = await onSubmit(target);
      onClose('confirm', result.queued);
    } catch (err) {
      setError(err instanceof OutboxRefusal || err instanceof Error ? err.message : t.errors.server);
      setBusy(false);
    }
  };
  const cancel = () => {
    if (!busy) onClose('cancel');
  };

  const first = items[0];
  const what = first
    ? c.what(items.length, first.extendName ? `${first.fileName}.${first.extendName}` : first.fileName)
    : '';
  const whatText = custom.whatText ?? (mode === 'move' ? c.moveWhat(what) : c.copyWhat(what));

  return (
    <Modal
      opened={opened}
      onClose={cancel}
      title={custom.title ?? (mode === 'move' ? c.moveTitle : c.copyTitle)}
      size={DIALOG_WIDTH.move}
      closeOnEscape={!busy}
      withCloseButton={!busy}
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {whatText}
        </Text>
        <OfflineNote view={tree} />
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
                  onClick={() => setTarget(node.value)}
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
                    <IconChevronRight
                      size={14}
                      style={{ transform: expanded ? 'rotate(90deg)' : undefined }}
                    />
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
              {t.common.loading}
            </Text>
          ) : (
            <Text size="sm" c="dimmed" p="md">
              {tree.status === 'not-cached'
                ? `${t.offline.notCachedTitle}，${t.offline.notCachedHint}`
                : c.loadFailed}
            </Text>
          )}
        </ScrollArea.Autosize>
        <Box>
          <Text size="sm">
            {c.target}
            <Text span fw={600} data-testid="move-target">
              {target === ROOT ? t.drive.rootName : target}
            </Text>
          </Text>
          {problemText && (
            <Text size="sm" c="red" mt={4} role="alert">
              {problemText}
            </Text>
          )}
          {hintText && (
            <Text size="sm" c="dimmed" mt={4}>
              {hintText}
            </Text>
          )}
        </Box>
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <FormActions
          onCancel={cancel}
          saving={busy}
          onSubmit={() => void confirm()}
          submitDisabled={Boolean(problem) || tree.status !== 'ready'}
          submitLabel={mode === 'move' ? c.moveHere : c.copyHere}
        />
      </Stack>
    </Modal>
  );
}
