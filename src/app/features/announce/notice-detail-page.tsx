import {
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Center,
  Divider,
  Group,
  Loader,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconDownload } from '@tabler/icons-react';
import { Link, useRouterState } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { ANNOUNCE_STATUS, type AnnounceDetail } from '../../../shared/api/announce';
import { formatSize } from '../../../shared/drive/file-types';
import { LoadFailed } from '../../components/load-failed';
import { OfflineNote } from '../../components/offline-note';
import { useCachedQuery, type CachedView } from '../../lib/cached-query';
import { tAnnounce } from '../../lib/i18n/announce';
import { announceCalls, announceKeys, formatTime } from './announce-data';
import { RichHtml } from '../../components/rich-html';
import { AttachmentLine } from './attachment-line';

const D = tAnnounce.detail;

/** The `id` of the address (?id=), and whether it can be an announcement's. */
export function useAnnounceId(): { id: number; valid: boolean } {
  const raw = useRouterState({ select: (s) => (s.location.search as { id?: unknown }).id });
  const id = Number(raw);
  return { id, valid: Number.isInteger(id) && id > 0 };
}

/** One announcement's detail, kept on the device once opened (so it reads offline too). */
export function useAnnounceDetail(id: number, valid: boolean) {
  return useCachedQuery<AnnounceDetail>({
    queryKey: announceKeys.detail(valid ? id : 0),
    fetch: ({ signal }) => announceCalls.detail(id, { signal, silent: true }),
    enabled: valid,
    toastErrors: false,
  });
}

/**
 * An announcement as a full page reads it: the title, who published it and when, the body and
 * its attachments to download; or why it cannot be shown. Both detail pages draw this one
 * view (the readers' /approve/notice-detail and the publishers' /staff/info-publish/detail).
 */
export function AnnouncementView({ view, valid }: { view: CachedView<AnnounceDetail>; valid: boolean }) {
  const d = view.data;
  if (!valid) return <Text c="dimmed">{D.badId}</Text>;
  if (view.status === 'loading')
    return (
      <Center mih={200}>
        <Loader size="sm" />
      </Center>
    );
  if (view.status === 'not-cached') return <Text c="dimmed">{D.notCached}</Text>;
  if (view.status === 'error' || !d) return <LoadFailed error={view.error} onRetry={view.refetch} />;
  return (
    <Stack gap="md">
      <Stack gap={6}>
        <Title order={2} data-testid="announce-title" style={{ wordBreak: 'break-word' }}>
          {d.title}
        </Title>
        <Group gap="md" wrap="wrap">
          <Text size="sm" c="dimmed">
            {D.author(d.authorName || '—')}
          </Text>
          <Text size="sm" c="dimmed">
            {D.time(formatTime(d.publishTime ?? d.updateTime))}
          </Text>
          {/* Only administrators open drafts and withdrawn ones (a preview): say which it is. */}
          {d.status !== ANNOUNCE_STATUS.published && (
            <Badge color="orange" variant="light">
              {tAnnounce.admin.status[d.status as 0 | 2]}
            </Badge>
          )}
          <OfflineNote view={view} />
        </Group>
      </Stack>
      <Divider />
      <RichHtml html={d.content} testId="announce-body" />
      {d.attachments.length > 0 && (
        <Stack gap="xs">
          <Divider />
          <Text fw={600} size="sm">
            {D.attachments(d.attachments.length)}
          </Text>
          {d.attachments.map((a) => (
            <AttachmentLine
              key={a.attId}
              name={a.attName}
              status={formatSize(a.attSize)}
              action={
                // A plain link: the browser downloads with the session cookie (an attachment, never shown).
                <Button
                  component="a"
                  href={a.attPath}
                  download={a.attName}
                  size="xs"
                  variant="light"
                  leftSection={<IconDownload size={14} />}
                  aria-label={D.download(a.attName)}
                >
                  {D.downloadShort}
                </Button>
              }
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** The full page around an announcement: a way back, then the article's card. */
export function AnnouncementFrame({
  back,
  backLabel,
  above,
  children,
}: {
  back: string;
  backLabel: string;
  /** Above the article: the publishers' bar. */
  above?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Box maw={900} mx="auto" p={{ base: 'sm', sm: 'lg' }}>
      <Anchor component={Link} to={back} size="sm" mb="sm" display="inline-flex">
        <Group gap={4} component="span">
          <IconArrowLeft size={16} />
          {backLabel}
        </Group>
      </Anchor>
      {above}
      <Card withBorder radius="md" p={{ base: 'md', sm: 'xl' }} data-testid="notice-detail">
        {children}
      </Card>
    </Box>
  );
}

/**
 * /approve/notice-detail?id= (outside the layout): one announcement as its readers see it, opened
 * from the notice centre, 通知公告 and the workbench.
 */
export function NoticeDetailPage() {
  const { id, valid } = useAnnounceId();
  const view = useAnnounceDetail(id, valid);
  return (
    <AnnouncementFrame back="/home/notice-list" backLabel={D.back}>
      <AnnouncementView view={view} valid={valid} />
    </AnnouncementFrame>
  );
}
