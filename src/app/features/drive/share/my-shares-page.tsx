import { ActionIcon, Badge, EmptyState, Group, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconInbox, IconInfoCircle, IconLink, IconLinkOff } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { MyShareEntry } from '../../../../shared/api/share';
import { joinName } from '../../../../shared/drive/names';
import { OutboxButton } from '../../../components/outbox-panel';
import { CachedViewState } from '../../../components/cached-state';
import { tDrive } from '../../../lib/i18n/drive';
import { tShare } from '../../../lib/i18n/share';
import { ConfirmDialog } from '../dialogs/confirm-dialog';
import { DetailDialog } from '../dialogs/detail-dialog';
import { FileIcon } from '../file-icon';
import { OfflineNote } from '../../../components/offline-note';
import { copyText, shareCalls, shareCopyText, shareKeys, useMyShares } from './share-data';
import driveClasses from '../drive.module.css';

const T = tShare.mine;
const OWN = { area: 'own', areaQuery: {} } as const;

type Dialog = { kind: 'cancel' | 'detail'; row: MyShareEntry };

const nameOf = (r: MyShareEntry) => joinName(r.fileName, r.extendName);

/**
 * 我的分享 (fileType 8; /resources/my-share): one row per shared item, with share type, share
 * time, expiry (and whether it has passed), downloads, and the actions of the spec's fileType 8
 * menu: 复制链接 (the share text again, code included: the owner may see it), 取消分享 (revoke,
 * the whole share with all its items, after a confirmation that says how many), 文件详情.
 * Readable offline from the device copy like the other drive lists; revoking needs the network.
 */
export function MySharesPage() {
  const shares = useMyShares();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const rows = shares.data?.list ?? [];

  const copy = async (r: MyShareEntry) => {
    const ok = await copyText(shareCopyText(r.shareBatchNum, r.extractionCode));
    notifications.show(
      ok
        ? { color: 'green', message: tShare.dialog.copied }
        : { color: 'red', message: tShare.dialog.copyFailed },
    );
  };

  let body;
  if (shares.status !== 'ready') body = <CachedViewState view={shares} />;
  else if (rows.length === 0)
    body = <EmptyState py="xl" icon={<IconInbox size={28} />} title={T.empty} description={T.emptyHint} />;
  else
    body = (
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing="xs" highlightOnHover data-testid="my-shares">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{tDrive.columns.name}</Table.Th>
              <Table.Th w={90}>{T.shareType}</Table.Th>
              <Table.Th w={170}>{T.shareTime}</Table.Th>
              <Table.Th w={190}>{T.endTime}</Table.Th>
              <Table.Th w={90}>{T.downloadsHead}</Table.Th>
              <Table.Th w={130}>{T.actions}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr
                key={`${r.shareBatchNum}|${r.userFileId}`}
                data-testid="my-share-row"
                data-share={r.shareBatchNum}
                data-expired={r.expired || undefined}
              >
                <Table.Td>
                  <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                    <FileIcon isDir={r.isDir} extendName={r.extendName} size={22} />
                    <Stack gap={0} style={{ minWidth: 0 }}>
                      <Text size="sm" truncate data-testid="my-share-name">
                        {nameOf(r)}
                      </Text>
                      {(r.fileCount > 1 || r.remarks) && (
                        <Text size="xs" c="dimmed" truncate>
                          {[r.fileCount > 1 ? T.items(r.fileCount) : '', r.remarks]
                            .filter(Boolean)
                            .join(' · ')}
                        </Text>
                      )}
                    </Stack>
                    {r.deleteFlag !== 0 && (
                      <Badge color="gray" variant="light" size="sm">
                        {T.deleted}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Badge
                    variant="light"
                    color={r.shareType === 1 ? 'blue' : 'teal'}
                    data-testid="my-share-type"
                  >
                    {r.shareType === 1 ? T.private : T.public}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{r.shareTime}</Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Text size="sm" c={r.expired ? 'dimmed' : undefined}>
                      {r.endTime}
                    </Text>
                    {r.expired && (
                      <Badge color="red" variant="light" size="sm" data-testid="my-share-expired">
                        {T.expired}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{T.downloads(r.downloadCount)}</Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    {(
                      [
                        ['copyLink', T.copyLink, undefined, IconLink, () => void copy(r)],
                        [
                          'cancelShare',
                          T.cancel,
                          'red',
                          IconLinkOff,
                          () => setDialog({ kind: 'cancel', row: r }),
                        ],
                        [
                          'detail',
                          T.detail,
                          'gray',
                          IconInfoCircle,
                          () => setDialog({ kind: 'detail', row: r }),
                        ],
                      ] as const
                    ).map(([action, label, color, Icon, onClick]) => (
                      <Tooltip key={action} label={label}>
                        <ActionIcon
                          variant="subtle"
                          color={color}
                          size={36}
                          aria-label={label}
                          onClick={onClick}
                          data-action={action}
                        >
                          <Icon size={18} />
                        </ActionIcon>
                      </Tooltip>
                    ))}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );

  return (
    <div className={driveClasses.page} data-testid="my-shares-page">
      <Group justify="space-between" gap="sm" wrap="nowrap">
        <Title order={3} size="h4">
          {T.title}
        </Title>
        <Group gap="xs" wrap="nowrap">
          <OfflineNote view={shares} />
          <OutboxButton />
        </Group>
      </Group>
      {body}
      {dialog?.kind === 'cancel' && (
        <ConfirmDialog
          opened
          title={T.cancelTitle}
          message={T.cancelConfirm(nameOf(dialog.row), dialog.row.fileCount)}
          confirmLabel={T.cancel}
          danger
          run={async () => {
            await shareCalls.cancel({ shareBatchNums: [dialog.row.shareBatchNum] });
            await queryClient.invalidateQueries({ queryKey: shareKeys.mine });
            return false;
          }}
          onClose={(result) => {
            setDialog(null);
            if (result === 'confirm') notifications.show({ color: 'green', message: T.cancelDone });
          }}
        />
      )}
      {dialog?.kind === 'detail' && (
        <DetailDialog
          opened
          view={dialog.row.deleteFlag === 0 ? OWN : null}
          item={{ ...dialog.row, deleteTime: null, deleteBatchNum: null }}
          fileType={8}
          share={dialog.row}
          onOpenPath={() => undefined}
          onClose={() => setDialog(null)}
        />
      )}
    </div>
  );
}
