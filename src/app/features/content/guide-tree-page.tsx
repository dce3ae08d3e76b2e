import { Anchor, Breadcrumbs, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconHierarchy, IconPlayerPlay } from '@tabler/icons-react';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import type { RecordRow } from '../../../shared/records/api';
import { bsGuideChapter, bsGuideShowroom, bsGuideUnit } from '../../../shared/records/content/index';
import { tApplet } from '../../lib/i18n/applet';
import { useRecordDetail } from '../../lib/records';
import { RecordListPage } from '../records';
import { MediaDialog } from './media-dialog';

const A = tApplet;

/**
 * 导览内容 (/applet-management/guide; README "Mini-program pages"): the guide's tree, 展厅 → 章节 →
 * 单元, one level under the other. Each level is the records engine's list on its definition
 * (add, edit, publish, 上移/下移 within its parent, delete); 章节 on a showroom opens its chapters,
 * 单元 on a chapter its units. A showroom is a hall of the museum map (its form picks the hall). A
 * delete the server refuses (a showroom with chapters, a chapter with units) shows the server's
 * words. `?showroom=<id>` opens a showroom (展厅管理 and 平面导览 link here).
 */
export function GuideTreePage() {
  const navigate = useNavigate();
  const search = useRouterState({ select: (s) => s.location.search as { showroom?: string } });
  const [showroom, setShowroom] = useState<RecordRow | null>(null);
  const [chapter, setChapter] = useState<RecordRow | null>(null);
  const [playing, setPlaying] = useState<{
    def: typeof bsGuideUnit | typeof bsGuideChapter;
    id: number;
  } | null>(null);
  const wanted = search.showroom ? Number(search.showroom) : null;
  const openId = showroom?.id ?? wanted;
  // Opened by its id (a link from 展厅管理 or the plan): its title comes with its detail.
  const opened = useRecordDetail(bsGuideShowroom, showroom ? null : openId);
  const roomName = showroom
    ? String(showroom.title)
    : opened.data?.record.id === openId
      ? String(opened.data.record.title)
      : A.showroomNo(openId ?? 0);
  const chapterFixed = useMemo(() => (openId ? { showroomId: openId } : undefined), [openId]);
  const unitFixed = useMemo(() => (chapter ? { chapterId: chapter.id } : undefined), [chapter]);

  const choose = (row: RecordRow | null) => {
    setShowroom(row);
    setChapter(null);
    void navigate({
      to: '.',
      search: (row ? { showroom: String(row.id) } : {}) as Record<string, string>,
      replace: true,
    });
  };
  const play = (def: typeof bsGuideUnit | typeof bsGuideChapter) => (row: RecordRow) =>
    (row.audioId as number[] | undefined)?.length
      ? [{ key: 'play', label: A.play, icon: IconPlayerPlay, run: () => setPlaying({ def, id: row.id }) }]
      : [];

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }} data-testid="guide-tree">
      <Group justify="space-between" wrap="wrap">
        <Title order={3}>{A.guideTitle}</Title>
      </Group>
      <Text size="sm" c="dimmed">
        {A.guideIntro}
      </Text>
      <Breadcrumbs>
        <Anchor component="button" type="button" size="sm" onClick={() => choose(null)}>
          {A.allShowrooms}
        </Anchor>
        {openId && (
          <Anchor component="button" type="button" size="sm" onClick={() => setChapter(null)}>
            {roomName}
          </Anchor>
        )}
        {chapter && <Text size="sm">{String(chapter.title)}</Text>}
      </Breadcrumbs>
      {!openId && (
        <RecordListPage
          def={bsGuideShowroom}
          title={A.showrooms}
          embedded
          columns={['cover', 'hallId', 'title', 'sort', 'status']}
          rowActions={(row) => [
            { key: 'chapters', label: A.chapters, icon: IconHierarchy, run: () => choose(row) },
          ]}
        />
      )}
      {openId && !chapter && (
        <RecordListPage
          key={`s${openId}`}
          def={bsGuideChapter}
          title={A.chaptersOf(roomName)}
          fixed={chapterFixed}
          embedded
          rowActions={(row) => [
            { key: 'units', label: A.units, icon: IconHierarchy, run: () => setChapter(row) },
            ...play(bsGuideChapter)(row),
          ]}
        />
      )}
      {chapter && (
        <RecordListPage
          key={`c${chapter.id}`}
          def={bsGuideUnit}
          title={A.unitsOf(String(chapter.title))}
          fixed={unitFixed}
          embedded
          columns={['cover', 'title', 'labelCode', 'sort', 'status']}
          rowActions={play(bsGuideUnit)}
        />
      )}
      {!openId && (
        <Card withBorder radius="md" padding="sm">
          <Text size="sm" c="dimmed">
            {A.guideHint}
          </Text>
        </Card>
      )}
      <MediaDialog
        def={playing?.def ?? bsGuideUnit}
        id={playing?.id ?? null}
        field="audioId"
        onClose={() => setPlaying(null)}
      />
    </Stack>
  );
}
