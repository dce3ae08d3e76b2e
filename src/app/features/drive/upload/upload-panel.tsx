import {
  ActionIcon,
  Button,
  Group,
  Paper,
  Progress,
  Select,
  Stack,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import {
  IconChevronDown,
  IconChevronUp,
  IconPhoto,
  IconFileUpload,
  IconFolderUp,
  IconPlayerPause,
  IconPlayerPlay,
  IconRefresh,
  IconReplace,
  IconUpload,
  IconX,
} from '@tabler/icons-react';
import { notifications } from '@mantine/notifications';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  memo,
  useCallback,
  useEffect,
  useRef,
  useState,
  type DragEvent,
  type ReactNode,
  type Ref,
} from 'react';
import { formatSize } from '../../../../shared/drive/file-types';
import { splitName } from '../../../../shared/drive/names';
import { tUpload } from '../../../lib/i18n/upload';
import { uploadEngine, useUploads, type UploadView } from '../../../lib/upload';
import { KEEP_BUDGETS, keepBudgetSetting, setKeepBudget } from '../../../lib/upload/keeper';
import { FileIcon } from '../file-icon';
import { dragHasFiles, fromDrop, fromInput } from './pick';
import classes from './upload.module.css';

const u = tUpload;
const ROW_HEIGHT = 58;

function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** The item's status line: the spec's labels, with speed and time left while uploading. */
export function statusText(v: UploadView): string {
  if (v.elsewhere) return u.elsewhere;
  switch (v.state) {
    case 'hashing':
      return u.state.hashing(v.percent);
    case 'uploading': {
      const parts = [`${v.percent}%`];
      if (v.speed !== null) parts.push(u.speed(formatSize(v.speed)));
      if (v.eta !== null) parts.push(u.eta(clock(v.eta)));
      return parts.join(' · ');
    }
    case 'error':
      return v.error ? `${u.state.error}：${v.error}` : u.state.error;
    case 'needsFile':
      return v.error ? `${u.state.needsFile}（${v.error}）` : u.state.needsFile;
    default:
      return u.state[v.state];
  }
}

const barColor: Partial<Record<UploadView['state'], string>> = {
  success: 'green',
  error: 'red',
  needsFile: 'orange',
  paused: 'gray',
  offline: 'yellow',
  hashing: 'grape',
};

/**
 * One item. Memoized: the engine hands the same view object while an item does not change, so
 * at each of the panel's updates (ten a second while sending) only the moving rows are drawn.
 */
const ItemRow = memo(function ItemRow({
  v,
  onReselect,
}: {
  v: UploadView;
  onReselect: (id: string) => void;
}) {
  const engine = uploadEngine();
  const { extendName } = splitName(v.name);
  const folder = v.relativePath.split('/').slice(0, -1).join('/');
  const act = (label: string, icon: ReactNode, onClick: () => void, color?: string) => (
    <Tooltip label={label} key={label}>
      <ActionIcon
        variant="subtle"
        color={color ?? 'gray'}
        size={32}
        aria-label={`${label}：${v.name}`}
        onClick={onClick}
      >
        {icon}
      </ActionIcon>
    </Tooltip>
  );
  const running =
    v.state === 'waiting' || v.state === 'hashing' || v.state === 'uploading' || v.state === 'offline';
  return (
    <div className={classes.item} data-testid="upload-item" data-state={v.state} data-name={v.name}>
      <FileIcon isDir={0} extendName={extendName} size={28} />
      <div className={classes.itemMain}>
        <Group gap={6} wrap="nowrap" justify="space-between">
          <Text size="sm" truncate title={v.relativePath || v.name}>
            {v.name}
          </Text>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {formatSize(v.size)}
          </Text>
        </Group>
        {/* Stripes that stand still, and no easing between values: moving stripes and eased
            widths repainted the panel at every frame of an upload, about a tenth of the page's
            main thread while sending a large file (issue 25, tests/bench/upload.ts). */}
        <Progress
          value={v.percent}
          size={4}
          color={barColor[v.state] ?? 'museum'}
          striped={v.state === 'uploading' || v.state === 'hashing'}
          transitionDuration={0}
          aria-label={`${v.name} ${v.percent}%`}
        />
        <Text
          size="xs"
          c={v.state === 'error' ? 'red' : v.state === 'success' ? 'green' : 'dimmed'}
          truncate
          data-testid="upload-status"
          title={folder ? `${folder}/` : undefined}
        >
          {statusText(v)}
        </Text>
      </div>
      <Group gap={0} wrap="nowrap">
        {running && act(u.item.pause, <IconPlayerPause size={16} />, () => engine?.pause(v.id))}
        {v.state === 'paused' && act(u.item.resume, <IconPlayerPlay size={16} />, () => engine?.resume(v.id))}
        {v.state === 'error' && act(u.item.retry, <IconRefresh size={16} />, () => engine?.resume(v.id))}
        {v.state === 'needsFile' &&
          act(u.item.reselect, <IconReplace size={16} />, () => onReselect(v.id), 'orange')}
        {v.state === 'success'
          ? act(u.item.remove, <IconX size={16} />, () => void engine?.cancel(v.id))
          : act(u.item.cancel, <IconX size={16} />, () => void engine?.cancel(v.id), 'red')}
      </Group>
    </div>
  );
});

/** A hidden multi-file input; emptied after each pick so the same files can be picked again. */
function PickerInput({
  ref,
  testId,
  onPick,
}: {
  ref: Ref<HTMLInputElement>;
  testId: string;
  onPick: (files: ReturnType<typeof fromInput>) => void;
}) {
  return (
    <input
      ref={ref}
      type="file"
      multiple
      hidden
      data-testid={testId}
      onChange={(e) => {
        onPick(fromInput(e.currentTarget.files));
        e.currentTarget.value = '';
      }}
    />
  );
}

export interface UploadTargetInfo {
  filePath: string;
  area: Record<string, number>;
  /** The folder's name for people (我的网盘/a/b). */
  label: string;
}

export interface UploadPanelProps {
  /** Where new files go; null when the open view takes no uploads (the list still shows). */
  target: UploadTargetInfo | null;
  /** Adds files (validation and messages are the caller's). */
  onAdd: (files: ReturnType<typeof fromInput>, way: 1 | 2 | 3) => void;
  onPaste: () => void;
  onClose: () => void;
}

/**
 * The upload panel (spec §2 item 5): 选择文件, 选择目录, the drop area and 粘贴图片, then the
 * collapsible 上传列表 with its count, or 暂无待上传文件. It is docked under the file list and
 * takes its own room (the list gets shorter, never covered), so the folder, the toolbar's
 * 上传文件 and the new files stay in view on a 1024 × 768 tablet and a phone alike. Where the
 * panel is wide the chooser and the list sit side by side; uploads go on when it is closed or
 * the page is left.
 */
export function UploadPanel({ target, onAdd, onPaste, onClose }: UploadPanelProps) {
  const uploads = useUploads();
  const [collapsed, setCollapsed] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [budget, setBudget] = useState(keepBudgetSetting);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const reselectInput = useRef<HTMLInputElement>(null);
  const reselectId = useRef<string | null>(null);
  const listRef = useRef<HTMLDivElement>(null);

  const done = uploads.filter((v) => v.state === 'success').length;
  const active = uploads.some((v) => ['waiting', 'hashing', 'uploading', 'offline'].includes(v.state));
  const resumable = uploads.some((v) => v.state === 'paused' || v.state === 'error');
  const keptBytes = uploads.filter((v) => v.kept).reduce((a, v) => a + v.size, 0);

  // A folder upload can queue thousands of files: only the visible rows are drawn.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtual = useVirtualizer({
    count: uploads.length,
    getScrollElement: () => listRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
  });

  useEffect(() => {
    // Browsers only let script set the folder attribute; React does not know it.
    folderInput.current?.setAttribute('webkitdirectory', '');
  }, []);

  const onReselect = useCallback((id: string) => {
    reselectId.current = id;
    reselectInput.current?.click();
  }, []);

  const drop = async (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (!target) return;
    onAdd(await fromDrop(e.dataTransfer), 3);
  };

  return (
    <Paper
      className={classes.panel}
      radius="md"
      withBorder
      data-testid="upload-panel"
      role="region"
      aria-label={u.panel.title}
    >
      <Group className={classes.header} justify="space-between" wrap="nowrap" gap="xs">
        <UnstyledButton
          className={classes.headerTitle}
          onClick={() => setCollapsed((c) => !c)}
          aria-expanded={!collapsed}
          aria-label={collapsed ? u.panel.expand : u.panel.collapse}
        >
          <Text fw={600} size="sm">
            {u.panel.title}
            <span data-testid="upload-count">{u.panel.count(uploads.length)}</span>
          </Text>
          {uploads.length > 0 && (
            <Text size="xs" c="dimmed">
              {u.panel.summary(done, uploads.length)}
            </Text>
          )}
          {collapsed ? <IconChevronUp size={16} /> : <IconChevronDown size={16} />}
        </UnstyledButton>
        <Tooltip label={u.panel.close}>
          <ActionIcon variant="subtle" color="gray" aria-label={u.panel.close} onClick={onClose}>
            <IconX size={16} />
          </ActionIcon>
        </Tooltip>
      </Group>

      {!collapsed && (
        <div
          className={classes.body}
          data-chooser={target ? true : undefined}
          data-queued={uploads.length > 0 || undefined}
        >
          {target && (
            <Stack gap={6} className={classes.chooser}>
              <Group gap={6} wrap="wrap">
                <Button
                  size="xs"
                  leftSection={<IconFileUpload size={14} />}
                  onClick={() => fileInput.current?.click()}
                >
                  {u.panel.chooseFiles}
                </Button>
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconFolderUp size={14} />}
                  onClick={() => folderInput.current?.click()}
                >
                  {u.panel.chooseFolder}
                </Button>
                <Button size="xs" variant="light" leftSection={<IconPhoto size={14} />} onClick={onPaste}>
                  {u.panel.paste}
                </Button>
              </Group>
              <div
                className={classes.drop}
                data-active={dragging || undefined}
                data-testid="upload-drop"
                onDragOver={(e) => {
                  if (!dragHasFiles(e.dataTransfer)) return;
                  e.preventDefault();
                  setDragging(true);
                }}
                onDragLeave={() => setDragging(false)}
                onDrop={(e) => void drop(e)}
              >
                <IconUpload size={18} aria-hidden />
                <Text size="sm">{dragging ? u.panel.dropActive : u.panel.drop}</Text>
              </div>
              <Text size="xs" c="dimmed" className={classes.hint}>
                {u.panel.hint}
              </Text>
              <Text size="xs" c="dimmed" truncate maw="100%">
                {u.panel.target(target.label)}
              </Text>
            </Stack>
          )}

          <div className={classes.queue}>
            {uploads.length === 0 ? (
              <Text size="sm" c="dimmed" ta="center" py="sm" data-testid="upload-empty">
                {u.panel.empty}
              </Text>
            ) : (
              <div ref={listRef} className={classes.list} data-testid="upload-list">
                <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
                  {virtual.getVirtualItems().map((row) => {
                    const v = uploads[row.index]!;
                    return (
                      <div
                        key={v.id}
                        style={{
                          position: 'absolute',
                          top: 0,
                          left: 0,
                          right: 0,
                          height: ROW_HEIGHT,
                          transform: `translateY(${row.start}px)`,
                        }}
                      >
                        <ItemRow v={v} onReselect={onReselect} />
                      </div>
                    );
                  })}
                </div>
              </div>
            )}
          </div>

          <Group justify="space-between" gap={6} wrap="wrap" className={classes.footer}>
            <Group gap={4} wrap="nowrap">
              <Tooltip label={u.panel.keepHint} multiline w={260}>
                <Text size="xs" c="dimmed" data-testid="upload-keep">
                  {u.panel.keep(formatSize(keptBytes))}
                </Text>
              </Tooltip>
              <Select
                size="xs"
                w={96}
                aria-label={u.panel.keepLabel}
                data-testid="upload-keep-budget"
                value={String(budget)}
                allowDeselect={false}
                data={KEEP_BUDGETS.map((b) => ({
                  value: String(b),
                  label: b === 0 ? u.panel.keepNone : formatSize(b),
                }))}
                onChange={(value) => {
                  const b = Number(value);
                  setKeepBudget(b);
                  setBudget(b);
                }}
                comboboxProps={{ withinPortal: true, zIndex: 400 }}
              />
            </Group>
            <Group gap={4} wrap="nowrap">
              {active && (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="gray"
                  onClick={() => uploadEngine()?.pauseAll()}
                >
                  {u.panel.pauseAll}
                </Button>
              )}
              {resumable && (
                <Button size="compact-xs" variant="subtle" onClick={() => uploadEngine()?.resumeAll()}>
                  {u.panel.resumeAll}
                </Button>
              )}
              {done > 0 && (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="gray"
                  onClick={() => void uploadEngine()?.clearFinished()}
                >
                  {u.panel.clearFinished}
                </Button>
              )}
            </Group>
          </Group>
        </div>
      )}

      <PickerInput ref={fileInput} testId="upload-input-files" onPick={(files) => onAdd(files, 1)} />
      <PickerInput ref={folderInput} testId="upload-input-folder" onPick={(files) => onAdd(files, 2)} />
      <input
        ref={reselectInput}
        type="file"
        hidden
        data-testid="upload-input-reselect"
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          const id = reselectId.current;
          e.currentTarget.value = '';
          if (!file || !id) return;
          const problem = uploadEngine()?.reselect(id, file);
          if (problem) notifications.show({ color: 'yellow', message: problem });
        }}
      />
    </Paper>
  );
}
