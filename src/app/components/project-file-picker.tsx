import { Box, Button, Group, Modal, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconChevronRight, IconFile, IconFolder, IconLayoutKanban } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { PickerItem } from '../../shared/api/project';
import { pickerColumns, pickerError, type PickerMode } from '../../shared/rules/picker-rules';
import { tCore } from '../lib/i18n-core';
import { tProject } from '../lib/i18n/project';
import { docCalls, docKeys } from '../lib/project-docs';
import { LoadFailed } from './load-failed';
import { LoadingBlock } from './page-states';
import { SearchField } from './search-field';

const P = tProject.picker;
const COLUMN = 220;

const keyOf = (i: PickerItem) => `${i.type}-${i.attachmentId ?? i.fileId ?? i.projectId}`;
const ICONS = { 2: IconLayoutKanban, 1: IconFolder, 0: IconFile } as const;

/**
 * The move/associate picker (spec §2: 700 px, titled 移动到 or 关联): projects, their document
 * folders and, to associate, their files, in columns, one per level opened (taskGetFileList,
 * fileType '1' move, '0' associate). Associate mode has the 搜索项目文档 box (the server keeps
 * the matching files and the folders above them). Shared by the task dialog (associate a
 * document) and the drive (移动到项目), so it lives here rather than in a feature folder.
 * `onlyProjectId` keeps the first column to one project. `onPick` rejecting keeps the dialog
 * open with the reason shown.
 */
export function ProjectFilePicker(props: {
  mode: PickerMode;
  opened: boolean;
  onClose: () => void;
  onPick: (item: PickerItem) => Promise<void>;
  onlyProjectId?: number;
}) {
  const { mode } = props;
  const fileType = mode === 'move' ? '1' : '0';
  const [keyword, setKeyword] = useState('');
  const [path, setPath] = useState<PickerItem[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const list = useQuery({
    queryKey: docKeys.picker(fileType, keyword),
    enabled: props.opened,
    queryFn: ({ signal }) => docCalls.picker(fileType, keyword, signal),
  });
  const top = (list.data ?? []).filter(
    (p) => props.onlyProjectId === undefined || p.projectId === props.onlyProjectId,
  );
  const columns = pickerColumns(top, path);
  const chosen = path.at(-1) ?? null;

  const choose = (level: number, item: PickerItem) => {
    setError(null);
    setPath([...path.slice(0, level), item]);
  };
  const confirm = async () => {
    const rule = pickerError(mode, chosen, P);
    if (rule || !chosen) return setError(rule);
    setBusy(true);
    try {
      await props.onPick(chosen);
      props.onClose();
    } catch (e) {
      setError(e instanceof Error ? e.message : tCore.errors.server);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      size={700}
      closeOnClickOutside={false}
      title={mode === 'move' ? P.moveTitle : P.associateTitle}
    >
      <Stack gap="sm" data-testid="file-picker">
        {mode === 'associate' && (
          <SearchField
            placeholder={P.search}
            maxLength={100}
            onSearch={(k) => {
              setKeyword(k);
              setPath([]);
              setError(null);
            }}
          />
        )}
        {list.isPending ? (
          <LoadingBlock minHeight={160} />
        ) : list.isError ? (
          <LoadFailed error={list.error} onRetry={() => void list.refetch()} retrying={list.isFetching} />
        ) : top.length === 0 ? (
          <Text c="dimmed" size="sm">
            {P.empty}
          </Text>
        ) : (
          <ScrollArea type="auto" offsetScrollbars>
            <Group align="stretch" wrap="nowrap" gap={0} mih={260}>
              {columns.map((items, level) => (
                <Box
                  key={level}
                  w={COLUMN}
                  style={{ flex: 'none', borderRight: '1px solid var(--mantine-color-default-border)' }}
                  data-testid="picker-column"
                >
                  <ScrollArea.Autosize mah={320}>
                    {items.length === 0 && (
                      <Text c="dimmed" size="sm" p="xs">
                        {P.noFiles}
                      </Text>
                    )}
                    {items.map((item) => {
                      const Icon = ICONS[item.type];
                      const active = path[level] !== undefined && keyOf(path[level]) === keyOf(item);
                      return (
                        <UnstyledButton
                          key={keyOf(item)}
                          onClick={() => choose(level, item)}
                          w="100%"
                          px="xs"
                          py={8}
                          bg={active ? 'var(--mantine-primary-color-light)' : undefined}
                          aria-pressed={active}
                          data-testid="picker-item"
                        >
                          <Group gap="xs" wrap="nowrap">
                            <Icon size={16} style={{ flex: 'none' }} />
                            <Text size="sm" truncate style={{ flex: 1 }}>
                              {item.attName}
                            </Text>
                            {item.type !== 0 && <IconChevronRight size={14} style={{ flex: 'none' }} />}
                          </Group>
                        </UnstyledButton>
                      );
                    })}
                  </ScrollArea.Autosize>
                </Box>
              ))}
            </Group>
          </ScrollArea>
        )}
        {error && (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {tCore.common.cancel}
          </Button>
          <Button onClick={() => void confirm()} loading={busy}>
            {P.confirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
