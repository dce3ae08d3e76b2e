import {
  Anchor,
  Badge,
  Card,
  Group,
  ScrollArea,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconMapPin } from '@tabler/icons-react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { RecordRow } from '../../shared/records/api';
import { bsGuideShowroom } from '../../shared/records/content/index';
import { museumFloor, museumHall } from '../../shared/records/site/museum-map';
import { CachedViewState } from '../components/cached-state';
import { OfflineNote } from '../components/offline-note';
import { hallGuide } from '../features/content/content-rules';
import { planImageOf } from '../features/museum-map/museum-map-page';
import classes from '../features/museum-map/museum-map.module.css';
import { tApplet } from '../lib/i18n/applet';
import { tMuseumMap } from '../lib/i18n/museum-map';
import { useAllRows, useRecordDetail, useRecordPage } from '../lib/records';

const A = tApplet;
const FLOORS = { currentPage: 1, pageCount: 200 };
const ALL = {};
const GUIDE_STATE = {
  published: { label: A.guidePublished, color: 'green', pin: undefined },
  draft: { label: A.guideDraft, color: 'orange', pin: 'orange' },
  none: { label: A.guideNone, color: 'gray', pin: 'gray' },
} as const;

/**
 * 平面导览 (/applet-management/plane; README "Mini-program pages"): the museum map's floors and
 * plans (the museum-map feature's, /mymap) with each hall's guide state: 已发布 (a published guide
 * showroom on it), 草稿 (a showroom not yet published) or 无导览. A hall opens its guide in
 * 导览内容 (`?showroom=`); a hall without one links to 展厅管理 to make it. The halls themselves
 * (positions, open state, the plan drawing) are edited on 馆区地图, linked from here.
 */
export function AppletPlanePage() {
  const navigate = useNavigate();
  const floors = useRecordPage(museumFloor, FLOORS);
  const halls = useAllRows(museumHall, ALL);
  const rooms = useAllRows(bsGuideShowroom, ALL);
  const [code, setCode] = useState<string | null>(null);
  const floorList = floors.data?.list ?? [];
  const floor = floorList.find((f) => f.code === code) ?? floorList[0] ?? null;
  const plan = useRecordDetail(museumFloor, floor ? floor.id : null);
  const html = plan.data?.record.id === floor?.id ? String(plan.data?.record.plan ?? '') : '';
  const image = planImageOf(html);
  const onFloor = (halls.data?.list ?? []).filter((h) => floor && h.floor === floor.code);
  const showrooms = rooms.data?.list ?? [];

  const open = (h: RecordRow) => {
    const g = hallGuide(h.id, showrooms);
    if (g.showroom)
      void navigate({ to: '/applet-management/guide', search: { showroom: String(g.showroom.id) } as never });
    else void navigate({ to: '/applet-management/showroom' });
  };

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }} data-testid="applet-plane">
      <Group justify="space-between" wrap="wrap">
        <Group gap="xs">
          <Title order={3}>{A.planeTitle}</Title>
          <OfflineNote view={halls} />
        </Group>
        <Anchor component={Link} to="/mymap" size="sm">
          {A.editMap}
        </Anchor>
      </Group>
      <Text size="sm" c="dimmed">
        {A.planeIntro}
      </Text>
      {!floors.data || !halls.data ? (
        <CachedViewState view={floors.data ? halls : floors} />
      ) : floorList.length === 0 ? (
        <Card withBorder radius="md" p="xl">
          <Text c="dimmed" ta="center">
            {A.noFloors}
          </Text>
        </Card>
      ) : (
        <>
          <ScrollArea type="never">
            <SegmentedControl
              value={floor ? String(floor.code) : ''}
              onChange={setCode}
              data={floorList.map((f) => ({ value: String(f.code), label: String(f.name) }))}
            />
          </ScrollArea>
          <Card withBorder radius="md" p={0} className={classes.planCard}>
            <div className={classes.plan} aria-label={tMuseumMap.planOf(String(floor?.name ?? ''))}>
              {image ? (
                <img
                  src={image}
                  alt={tMuseumMap.planOf(String(floor?.name ?? ''))}
                  className={classes.planImage}
                />
              ) : (
                <div className={classes.noPlan}>
                  <Text size="sm" c="dimmed" ta="center" px="md">
                    {tMuseumMap.noPlan}
                  </Text>
                </div>
              )}
              {onFloor
                .filter((h) => typeof h.mapX === 'number' && typeof h.mapY === 'number')
                .map((h) => {
                  const g = GUIDE_STATE[hallGuide(h.id, showrooms).state];
                  return (
                    <UnstyledButton
                      key={h.id}
                      className={classes.marker}
                      style={{ left: `${Number(h.mapX)}%`, top: `${Number(h.mapY)}%` }}
                      data-state={g.pin}
                      onClick={() => open(h)}
                      aria-label={`${String(h.name)}（${g.label}）`}
                      data-testid="plane-marker"
                    >
                      <IconMapPin size={26} className={classes.pin} />
                      <span className={classes.markerLabel}>{String(h.name)}</span>
                    </UnstyledButton>
                  );
                })}
            </div>
          </Card>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
            {onFloor.map((h) => {
              const guide = hallGuide(h.id, showrooms);
              const g = GUIDE_STATE[guide.state];
              return (
                <UnstyledButton key={h.id} onClick={() => open(h)} data-testid="plane-hall">
                  <Card withBorder radius="md" padding="sm" className={classes.hallCard}>
                    <Group justify="space-between" wrap="nowrap" gap="xs">
                      <Text fw={600} size="sm" truncate>
                        {String(h.name)}
                      </Text>
                      <Badge size="sm" variant="light" color={g.color}>
                        {g.label}
                      </Badge>
                    </Group>
                    <Text size="xs" c="dimmed" mt={4}>
                      {guide.showroom ? A.openGuide(String(guide.showroom.title)) : A.makeGuide}
                    </Text>
                  </Card>
                </UnstyledButton>
              );
            })}
            {onFloor.length === 0 && (
              <Text size="sm" c="dimmed">
                {tMuseumMap.noHalls}
              </Text>
            )}
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
