import { Button, Card, Group, Image, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconBuildingBank, IconHierarchy, IconLink, IconPlayerPlay } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { RecordDetail, RecordRow } from '../../shared/records/api';
import { bsDigitalRelic, bsVolunteerIntro, bsVolunteerStory } from '../../shared/records/content/applet';
import {
  AudioVideo,
  bsCarousel,
  bsClassroom,
  bsCulturalcreative,
  bsElecticWave,
  bsExhibition,
  bsGuideShowroom,
  bsGuideUnit,
  bsScience,
} from '../../shared/records/content/index';
import { f, type RecordDef } from '../../shared/records/define';
import { dictItem } from '../../shared/records/index';
import { recruit } from '../../shared/records/volunteer/recruit';
import { RichHtml } from '../components/rich-html';
import {
  CAROUSEL_STATES,
  PHASES,
  carouselState,
  phaseValue,
  windowText,
} from '../features/content/content-rules';
import { ContentPreviewLink } from '../features/content-preview/preview-link';
import { GuideTreePage } from '../features/content/guide-tree-page';
import { MediaDialog } from '../features/content/media-dialog';
import { ExhibitsDialog } from '../features/content/exhibits-dialog';
import { RelationDialog } from '../features/content/relation-dialog';
import { RecordListPage, useGrant } from '../features/records';
import { RecordForm } from '../features/records/record-form';
import { museum } from '../lib/api';
import { tCore } from '../lib/i18n-core';
import { tApplet } from '../lib/i18n/applet';
import { recordKeys } from '../lib/records';

/**
 * The mini-program's staff pages (小程序管理, issue 23; README "Mini-program pages"): each route
 * is the records engine's list on its content definition, cut to the route (a carousel
 * position, a learning category), with the pages' own parts from features/content: the
 * carousel's 展示中/未到/已过, an exhibition's phase and its 关联内容 dialog, the media player, the
 * guide's tree and the floor plan (applet-plane.tsx).
 */

const A = tApplet;

/** 展示状态: where a carousel row stands for visitors now (content-rules carouselState). */
const CAROUSEL_COMPUTED = {
  showState: {
    field: f.status(A.showState, CAROUSEL_STATES, { list: true, width: 90 }),
    value: (row: RecordRow) => carouselState(row, Date.now()),
  },
  window: {
    field: f.text(A.showWindow, { list: true, width: 190 }),
    value: (row: RecordRow) => windowText(row),
  },
};

function CarouselPage({ position, title }: { position: number; title: string }) {
  return (
    <RecordListPage
      def={bsCarousel}
      title={title}
      intro={A.carouselIntro}
      fixed={{ position }}
      columns={['images', 'title', 'window', 'showState', 'status', 'sort']}
      computed={CAROUSEL_COMPUTED}
      // 预览 (issue 23): the mini-program home as visitors see it, which shows position 1.
      extra={position === 1 ? <ContentPreviewLink /> : undefined}
    />
  );
}

/** 轮播图 (/applet-management/carousel): 展示位置 1 小程序首页. */
export function AppletCarouselPage() {
  return <CarouselPage position={1} title={A.carouselHome} />;
}

/** 志愿者管理 › 轮播图: 展示位置 2 志愿者首页. */
export function VolunteerCarouselPage() {
  return <CarouselPage position={2} title={A.carouselVolunteer} />;
}

/** 志愿者管理 › 服务轮播图: 展示位置 3 志愿服务页. */
export function ServiceCarouselPage() {
  return <CarouselPage position={3} title={A.carouselService} />;
}

export { GuideTreePage };

/** 展厅管理 (/applet-management/showroom): the guide showrooms, each a hall of the map. */
export function ShowroomPage() {
  const navigate = useNavigate();
  return (
    <RecordListPage
      def={bsGuideShowroom}
      title={A.showroomTitle}
      intro={A.showroomIntro}
      columns={['cover', 'hallId', 'title', 'sort', 'status', 'publishTime']}
      rowActions={(row) => [
        {
          key: 'guide',
          label: A.chapters,
          icon: IconHierarchy,
          run: () =>
            void navigate({ to: '/applet-management/guide', search: { showroom: String(row.id) } as never }),
        },
      ]}
    />
  );
}

/** 导览管理 (/applet-management/guide-management): every unit of every showroom, by 展签编号. */
export function GuideUnitsPage() {
  const [playing, setPlaying] = useState<number | null>(null);
  return (
    <>
      <RecordListPage
        def={bsGuideUnit}
        title={A.unitsTitle}
        intro={A.unitsIntro}
        columns={['cover', 'labelCode', 'title', 'chapterId', 'audioSeconds', 'status']}
        rowActions={(row) =>
          (row.audioId as number[] | undefined)?.length
            ? [{ key: 'play', label: A.play, icon: IconPlayerPlay, run: () => setPlaying(row.id) }]
            : []
        }
      />
      <MediaDialog def={bsGuideUnit} id={playing} field="audioId" onClose={() => setPlaying(null)} />
    </>
  );
}

const PHASE_COMPUTED = {
  phase: {
    field: f.status(A.phase, PHASES, { list: true, width: 80 }),
    value: (row: RecordRow) => phaseValue(row, Date.now()),
  },
};

/** 展览内容 and 展览管理: the exhibitions with cover, phase, publish and 关联内容. */
export function ExhibitionPage() {
  const [relations, setRelations] = useState<RecordRow | null>(null);
  const [exhibits, setExhibits] = useState<RecordRow | null>(null);
  const writer = useGrant(bsExhibition.access.write);
  return (
    <>
      <RecordListPage
        def={bsExhibition}
        intro={A.exhibitionIntro}
        extra={<ContentPreviewLink />}
        columns={['cover', 'title', 'exhType', 'startDate', 'endDate', 'phase', 'status']}
        computed={PHASE_COMPUTED}
        rowActions={(row) =>
          writer
            ? [
                { key: 'relations', label: A.relations, icon: IconLink, run: () => setRelations(row) },
                { key: 'exhibits', label: A.exhibits, icon: IconBuildingBank, run: () => setExhibits(row) },
              ]
            : []
        }
      />
      <RelationDialog key={relations?.id ?? 0} exhibition={relations} onClose={() => setRelations(null)} />
      <ExhibitsDialog key={`e${exhibits?.id ?? 0}`} exhibition={exhibits} onClose={() => setExhibits(null)} />
    </>
  );
}

/** 学术研究's four pages: one category each (bsScience 1 专题 · 2 会议 · 3 专著 · 4 论文). */
function LearningPage({ category, title }: { category: number; title: string }) {
  return (
    <RecordListPage
      key={category}
      def={bsScience}
      title={title}
      intro={A.learningIntro}
      fixed={{ category }}
      columns={['title', 'authors', 'publishDate', 'status', 'sort']}
    />
  );
}
export const LearningTopicsPage = () => <LearningPage category={1} title={A.topics} />;
export const LearningMeetingPage = () => <LearningPage category={2} title={A.meeting} />;
export const LearningMonographPage = () => <LearningPage category={3} title={A.monograph} />;
export const LearningPaperPage = () => <LearningPage category={4} title={A.paper} />;

/** 博物馆课堂 (/applet-management/classroom). */
export function ClassroomPage() {
  return (
    <RecordListPage
      def={bsClassroom}
      intro={A.classroomIntro}
      columns={['cover', 'courseType', 'title', 'ageGroup', 'lecturer', 'status', 'sort']}
    />
  );
}

/** A list whose rows play (音视频, 电台节目): 播放 in the row and in the detail. */
function PlayableList({
  def,
  field,
  columns,
  intro,
}: {
  def: RecordDef;
  field: string;
  columns: string[];
  intro: string;
}) {
  const [playing, setPlaying] = useState<number | null>(null);
  return (
    <>
      <RecordListPage
        def={def}
        intro={intro}
        columns={columns}
        rowActions={(row) =>
          (row[field] as number[] | undefined)?.length || row.url
            ? [{ key: 'play', label: A.play, icon: IconPlayerPlay, run: () => setPlaying(row.id) }]
            : []
        }
      />
      <MediaDialog def={def} id={playing} field={field} onClose={() => setPlaying(null)} />
    </>
  );
}

/** 音视频管理 (/applet-management/radio-video). */
export function RadioVideoPage() {
  return (
    <PlayableList
      def={AudioVideo}
      field="mediaFile"
      intro={A.mediaIntro}
      columns={['cover', 'mediaType', 'videoTypeId', 'title', 'speaker', 'playCount', 'status', 'sort']}
    />
  );
}

/** 音频列表 (/applet-management/radio-list): the radio programmes. */
export function RadioListPage() {
  return (
    <PlayableList
      def={bsElecticWave}
      field="audioId"
      intro={A.radioIntro}
      columns={['column', 'episodeNo', 'title', 'anchor', 'status', 'sort']}
    />
  );
}

const VIDEO_TYPE = { dictKey: 'video_type' };

/**
 * 视频分类 (/applet-management/video-type): the `video_type` dictionary's items, edited in place
 * by the holder of this page's leaf (the engine's keyed access: this dictionary and no other).
 */
export function VideoTypePage() {
  return (
    <RecordListPage
      def={dictItem}
      title={A.videoTypeTitle}
      intro={A.videoTypeIntro}
      fixed={VIDEO_TYPE}
      grant={['applet.videoType', 'system.data']}
    />
  );
}

/** 文创产品 (/applet-management/cultural-creation). */
export function CulturalPage() {
  return (
    <RecordListPage
      def={bsCulturalcreative}
      intro={A.culturalIntro}
      columns={['cover', 'category', 'title', 'price', 'buyType', 'isRecommend', 'status', 'sort']}
    />
  );
}

/** 数字文物 (/applet-management/digital-relics): the relics' public showcase (content/applet.ts). */
export function DigitalRelicsPage() {
  return (
    <RecordListPage
      def={bsDigitalRelic}
      intro={A.relicIntro}
      columns={['images', 'title', 'era', 'material', 'status', 'sort']}
    />
  );
}

/** 志愿者风采 (/applet-management/volunteer/demeanor). */
export function VolunteerStoryPage() {
  return (
    <RecordListPage
      def={bsVolunteerStory}
      intro={A.storyIntro}
      columns={['photos', 'title', 'storyDate', 'people', 'status', 'sort']}
    />
  );
}

/**
 * 志愿者管理 › 志愿者招募 (/applet-management/volunteer/recruit): the volunteers' recruits, which
 * the mini-program shows (those marked 小程序展示). The applet's leaf reads them; 招募管理
 * (/volunteer/recruit, its grant) writes them, so its holders get the write buttons here too.
 */
export function AppletRecruitPage() {
  return (
    <RecordListPage
      def={recruit}
      title={A.recruitTitle}
      intro={A.recruitIntro}
      columns={['cover', 'title', 'type', 'show', 'status']}
    />
  );
}

/** The singleton is saved through one call: the form's create and update are both `save`. */
const INTRO_FORM: RecordDef = {
  ...bsVolunteerIntro,
  calls: { ...bsVolunteerIntro.calls, create: 'POST save', update: 'POST save' },
};

/**
 * 志愿者简介 (/applet-management/volunteer/intro): the one page of the museum's introduction to
 * its volunteers, as visitors will read it; 编辑 opens the form (rich text with images).
 */
export function VolunteerIntroPage() {
  const writer = useGrant(bsVolunteerIntro.access.write);
  const [editing, setEditing] = useState(0);
  const info = useQuery({
    queryKey: [...recordKeys.all(bsVolunteerIntro), 'info'],
    queryFn: () => museum.get<RecordDetail>(`${bsVolunteerIntro.base}/info`),
  });
  const record = info.data?.record;
  const stored = record && record.id ? record : null;
  const covers = ((stored?.cover as number[] | undefined) ?? []).map(
    (id) => info.data?.names.files?.[String(id)],
  );
  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }} data-testid="volunteer-intro">
      <Group justify="space-between">
        <Title order={3}>{bsVolunteerIntro.title}</Title>
        {writer && info.data && (
          <Button onClick={() => setEditing((n) => n + 1)} data-testid="intro-edit">
            {tCore.common.edit}
          </Button>
        )}
      </Group>
      <Text size="sm" c="dimmed">
        {A.introIntro}
      </Text>
      <Card withBorder radius="md" padding="md" maw={720}>
        {!info.data ? (
          <Text size="sm" c="dimmed">
            {info.isError ? tCore.common.loadFailedHint : tCore.common.loading}
          </Text>
        ) : !stored ? (
          <Text size="sm" c="dimmed">
            {writer ? A.introEmptyWriter : A.introEmpty}
          </Text>
        ) : (
          <Stack gap="sm">
            <Title order={4}>{String(stored.title)}</Title>
            {covers.length > 0 && (
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
                {covers.map((c) => c && <Image key={c.attId} src={c.attPath} alt={c.attName} radius="sm" />)}
              </SimpleGrid>
            )}
            <RichHtml html={String(stored.content ?? '')} />
          </Stack>
        )}
      </Card>
      {editing > 0 && info.data && (
        <RecordForm
          key={editing}
          def={INTRO_FORM}
          row={stored as RecordRow | null}
          names={info.data.names}
          shape={{ initial: { title: bsVolunteerIntro.title } }}
          options={{}}
          opened
          onClose={() => {
            setEditing(0);
            void info.refetch();
          }}
        />
      )}
    </Stack>
  );
}
