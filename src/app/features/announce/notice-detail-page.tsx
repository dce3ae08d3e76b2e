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
import { ANNOUNCE_STATUS, type AnnounceDetail } from '../../../shared/api/announce';
import { formatSize } from '../../../shared/drive/file-types';
import { LoadFailed } from '../../components/load-failed';
import { OfflineNote } from '../../components/offline-note';
import { useCachedQuery } from '../../lib/cached-query';
import { t } from '../../lib/i18n';
import { announceCalls, announceKeys, formatTime } from './announce-data';
import { RichHtml } from '../../components/rich-html';
import { AttachmentLine } from './attachment-line';

const D = t.announce.detail;

/**
 * /approve/notice-detail?id= (outside the layout): one announcement as its readers see it, with
 * its attachments to download. Kept on the device once opened, so it reads offline too.
 */
export function NoticeDetailPage() {
  const raw = useRouterState({ select: (s) => (s.location.search as { id?: unknown }).id });
  const id = Number(raw);
  const valid = Number.isInteger(id) && id > 0;
  const view = useCachedQuery<AnnounceDetail>({
    queryKey: announceKeys.detail(valid ? id : 0),
    fetch: ({ signal }) => announceCalls.detail(id, { signal, silent: true }),
    enabled: valid,
    toastErrors: false,
  });
  const d = view.data;

  let body;
  if (!valid) body = <Text c="dimmed">{D.badId}</Text>;
  else if (view.status === 'loading')
    body = (
      <Center mih={200}>
        <Loader size="sm" />
      </Center>
    );
  else if (view.status === 'not-cached') body = <Text c="dimmed">{D.notCached}</Text>;
  else if (view.status === 'error' || !d) body = <LoadFailed error={view.error} onRetry={view.refetch} />;
  else
    body = (
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
                {t.announce.admin.status[d.status as 0 | 2]}
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

  return (
    <Box maw={900} mx="auto" p={{ base: 'sm', sm: 'lg' }}>
      <Anchor component={Link} to="/home/notice-list" size="sm" mb="sm" display="inline-flex">
        <Group gap={4} component="span">
          <IconArrowLeft size={16} />
          {D.back}
        </Group>
      </Anchor>
      <Card withBorder radius="md" p={{ base: 'md', sm: 'xl' }} data-testid="notice-detail">
        {body}
      </Card>
    </Box>
  );
}
