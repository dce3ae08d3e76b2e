import {
  Anchor,
  Badge,
  Group,
  Image,
  Modal,
  Stack,
  Text,
  Timeline,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconCheck, IconDownload, IconX, IconArrowForwardUp, IconClock } from '@tabler/icons-react';
import { useState } from 'react';
import { downloadPath } from '../../../shared/api/attach';
import type { InstDetail } from '../../../shared/api/workflow';
import { UserAvatar } from '../../components/user-avatar';
import { tApprovalProcess } from '../../lib/i18n/approval-process';

const D = tApprovalProcess.detail;

/** A heading of the panel's sections. */
export function Section({
  title,
  children,
  testId,
}: {
  title: string;
  children: React.ReactNode;
  testId?: string;
}) {
  return (
    <Stack gap="xs" data-testid={testId}>
      <Title order={5}>{title}</Title>
      {children}
    </Stack>
  );
}

/** The form's fields; attachment fields as image thumbnails (opened larger) and download links. */
export function FormFields({ fields, detail }: Pick<InstDetail, 'fields' | 'detail'>) {
  const [big, setBig] = useState<string | null>(null);
  return (
    <Stack gap={6} data-testid="detail-fields">
      {fields.map((f) => (
        <Group key={f.name} gap="sm" align="flex-start" wrap="nowrap">
          <Text size="sm" c="dimmed" w={110} style={{ flex: 'none' }}>
            {f.label}
          </Text>
          <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
            {f.img?.length || f.other?.length ? null : (
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {f.value || '—'}
              </Text>
            )}
            {f.img && f.img.length > 0 && (
              <Group gap={6}>
                {f.img.map((img) => (
                  <UnstyledButton
                    key={img.attId}
                    onClick={() => setBig(img.attPath)}
                    aria-label={D.viewImage}
                  >
                    <Image src={img.attPath} w={64} h={64} radius="sm" fit="cover" alt={f.label} />
                  </UnstyledButton>
                ))}
              </Group>
            )}
            {f.other?.map((o) => (
              <Anchor
                key={o.attId}
                href={downloadPath(o.attId)}
                size="sm"
                download
                aria-label={D.download(o.attName)}
              >
                <Group gap={4} wrap="nowrap">
                  <IconDownload size={14} />
                  <span>{o.attName}</span>
                </Group>
              </Anchor>
            ))}
          </Stack>
        </Group>
      ))}
      {detail.map((g) => (
        <Stack key={g.label} gap={4} mt="xs">
          <Text size="sm" fw={500}>
            {g.label}
          </Text>
          {g.arr.map((row, i) => (
            <Group key={i} gap="sm" wrap="nowrap">
              <Text size="sm" c="dimmed" w={110} style={{ flex: 'none' }}>
                {row.label}
              </Text>
              <Text size="sm">{row.value}</Text>
            </Group>
          ))}
        </Stack>
      ))}
      <Modal opened={big !== null} onClose={() => setBig(null)} size="auto" centered title={D.viewImage}>
        {big && <Image src={big} mah="80vh" fit="contain" alt={D.viewImage} />}
      </Modal>
    </Stack>
  );
}

function entryIcon(status: number | null) {
  if (status === 2) return <IconCheck size={12} />;
  if (status === 3) return <IconX size={12} />;
  if (status === 5) return <IconArrowForwardUp size={12} />;
  return <IconClock size={12} />;
}
const ENTRY_COLOR: Record<number, string> = { 2: 'green', 3: 'red', 5: 'orange' };

/** The timeline: each node, its 或签/会签 mode, each person's decision, time and opinion. */
export function ApprovalTimeline({ approval }: Pick<InstDetail, 'approval'>) {
  return (
    <Timeline bulletSize={22} lineWidth={2} data-testid="detail-timeline">
      {approval.map((node, i) => {
        const settled = node.nodeUserList.every((u) => u.status !== null);
        return (
          <Timeline.Item
            key={i}
            bullet={entryIcon(settled ? (node.nodeUserList[0]?.status ?? null) : null)}
            title={
              <Group gap={6}>
                <Text size="sm" fw={500}>
                  {node.nodeName}
                </Text>
                {node.type === 1 && node.nodeUserList.length > 1 && (
                  <Badge size="xs" variant="light">
                    {node.examineMode === 2 ? D.countersign : D.orSign}
                  </Badge>
                )}
                <Text size="xs" c="dimmed">
                  {node.statusText}
                </Text>
              </Group>
            }
          >
            <Stack gap={6} mt={4}>
              {node.nodeUserList.map((u, j) => (
                <Group key={j} gap="xs" align="flex-start" wrap="nowrap" data-testid="timeline-user">
                  <UserAvatar name={u.name} image={u.userImage} size={26} />
                  <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
                    <Group gap={6}>
                      <Text size="sm">{u.name}</Text>
                      <Badge
                        size="xs"
                        variant="light"
                        color={u.status !== null ? (ENTRY_COLOR[u.status] ?? 'gray') : 'gray'}
                      >
                        {u.statusText}
                      </Badge>
                      {u.isTransfer && (
                        <Badge size="xs" color="orange" variant="outline">
                          {D.transferred}
                        </Badge>
                      )}
                      {u.date && (
                        <Text size="xs" c="dimmed">
                          {u.date}
                        </Text>
                      )}
                    </Group>
                    {u.comment && (
                      <Text size="xs" c="dimmed" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                        {u.comment}
                      </Text>
                    )}
                  </Stack>
                </Group>
              ))}
            </Stack>
          </Timeline.Item>
        );
      })}
    </Timeline>
  );
}

/** The copy-to recipients: read and unread, and when they are told. */
export function CopyList({
  readList,
  unreadList,
  copytoList,
  notice,
}: Pick<InstDetail, 'readList' | 'unreadList' | 'copytoList' | 'notice'>) {
  if (copytoList.length === 0 && readList.length === 0 && unreadList.length === 0) return null;
  const names = (l: InstDetail['readList']) => l.map((u) => u.name).join('、') || '—';
  return (
    <Section title={D.copyTo} testId="detail-copy">
      <Text size="xs" c="dimmed">
        {notice === 0 ? D.noticeOnSubmit : D.noticeOnApproved}：{names(copytoList)}
      </Text>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Badge color="green" variant="light" style={{ flex: 'none' }}>
          {D.read(readList.length)}
        </Badge>
        <Text size="sm" data-testid="copy-read">
          {names(readList)}
        </Text>
      </Group>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Badge color="gray" variant="light" style={{ flex: 'none' }}>
          {D.unread(unreadList.length)}
        </Badge>
        <Text size="sm" data-testid="copy-unread">
          {names(unreadList)}
        </Text>
      </Group>
    </Section>
  );
}
