import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Drawer,
  Group,
  ScrollArea,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft, IconCurrentLocation, IconMapPin, IconSettings } from '@tabler/icons-react';
import { Link, useNavigate, useRouterState } from '@tanstack/react-router';
import { useState, type MouseEvent, type ReactNode } from 'react';
import type { RecordRow } from '../../../shared/records/api';
import { HALL_STATES, museumFloor, museumHall } from '../../../shared/records/site/museum-map';
import { CachedViewState } from '../../components/cached-state';
import { useDialogEscape } from '../../components/dialog-escape';
import { OfflineNote } from '../../components/offline-note';
import { RichHtml } from '../../components/rich-html';
import { errorToast } from '../../lib/api';
import { tCore } from '../../lib/i18n-core';
import { tMuseumMap } from '../../lib/i18n/museum-map';
import { tRecords } from '../../lib/i18n/records';
import { useAllRows, useRecordDetail, useRecordPage, writeRecord } from '../../lib/records';
import { useSession } from '../../lib/session';
import classes from './museum-map.module.css';

const T = tMuseumMap;
const FLOORS = { currentPage: 1, pageCount: 200 };
const ALL = {};

/** The plan drawing of a floor: the first image of its 平面图 text (sanitized on the server). */
export function planImageOf(html: string): string | null {
  return /<img\b[^>]*\bsrc="([^"]+)"/i.exec(html)?.[1]?.replace(/&amp;/g, '&') ?? null;
}

/** What is written beside the plan: the text without its images. */
const planNotes = (html: string) => html.replace(/<img\b[^>]*>/gi, '');

const stateColor = (v: unknown) => HALL_STATES.find((s) => s.value === v)?.color ?? 'gray';
const stateLabel = (v: unknown) => HALL_STATES.find((s) => s.value === v)?.label ?? '';
const placed = (h: RecordRow) => typeof h.mapX === 'number' && typeof h.mapY === 'number';

/**
 * /mymap (outside the layout; README "The museum map"): the museum's floors and site, each its
 * plan with the halls marked where they are; a hall opens its card (number, open state,
 * introduction). `?floor=<简称>` opens a floor and `?hall=<id>` a hall, which later issues'
 * pages (guide showrooms, exhibitions) link to. Everyone reads it, from the device offline;
 * holders of 平面导览 manage the floors and halls below the map and place a hall by tapping
 * its spot on the plan.
 */
export function MuseumMapPage({
  admin,
}: {
  /** The floors' and the current floor's halls' management (the records' generic lists). */
  admin?: (floor: RecordRow | null) => ReactNode;
}) {
  const narrow = useMediaQuery('(max-width: 768px)');
  const navigate = useNavigate();
  const search = useRouterState({ select: (s) => s.location.search as { floor?: string; hall?: string } });
  const writer = Boolean(useSession()?.menu.grantedKeys.includes(museumHall.access.write));
  const floors = useRecordPage(museumFloor, FLOORS);
  const halls = useAllRows(museumHall, ALL);
  const [managing, setManaging] = useState(false);
  const [placing, setPlacing] = useState<RecordRow | null>(null);

  const floorList = floors.data?.list ?? [];
  const hallList = halls.data?.list ?? [];
  const openHall = hallList.find((h) => String(h.id) === search.hall) ?? null;
  const code = openHall ? String(openHall.floor) : (search.floor ?? String(floorList[0]?.code ?? ''));
  const floor = floorList.find((f) => f.code === code) ?? floorList[0] ?? null;
  const onFloor = hallList.filter((h) => floor && h.floor === floor.code);
  // Lists leave rich text out: the floor's plan comes with its detail (kept on the device too).
  const planView = useRecordDetail(museumFloor, floor ? floor.id : null);
  const planHtml = planView.data?.record.id === floor?.id ? String(planView.data?.record.plan ?? '') : '';
  const image = planImageOf(planHtml);

  const go = (next: { floor?: string; hall?: string }) =>
    void navigate({ to: '/mymap', search: next as Record<string, string>, replace: true });
  const closeHall = () => go({ floor: code });
  const escape = useDialogEscape(closeHall, openHall !== null);

  /** Puts the hall being placed where the plan was tapped (in % of the plan's size). */
  async function place(e: MouseEvent<HTMLDivElement>) {
    if (!placing) return;
    const box = e.currentTarget.getBoundingClientRect();
    const mapX = Math.min(100, Math.max(0, Math.round(((e.clientX - box.left) / box.width) * 100)));
    const mapY = Math.min(100, Math.max(0, Math.round(((e.clientY - box.top) / box.height) * 100)));
    const hall = placing;
    setPlacing(null);
    try {
      const r = await writeRecord(
        museumHall,
        museumHall.calls.update!,
        { ...hall, mapX, mapY },
        { action: 'update', id: hall.id, label: T.placeLabel(String(hall.name)) },
      );
      notifications.show({
        color: r.queued ? 'yellow' : 'green',
        message: r.queued ? tRecords.queued : T.placed,
      });
    } catch (err) {
      errorToast(err instanceof Error ? err.message : String(err));
    }
  }

  const header = (
    <Group justify="space-between" wrap="wrap" gap="xs" mb="sm">
      <Group gap="sm" wrap="nowrap">
        <Anchor component={Link} to="/home/workbench" size="sm" aria-label={T.back}>
          <Group gap={4} component="span" wrap="nowrap">
            <IconArrowLeft size={16} />
            {!narrow && T.back}
          </Group>
        </Anchor>
        <Title order={3}>{T.title}</Title>
        <OfflineNote view={halls} />
      </Group>
      {writer && (
        <Button
          variant={managing ? 'filled' : 'light'}
          size="xs"
          leftSection={<IconSettings size={16} />}
          onClick={() => setManaging((m) => !m)}
          data-testid="map-manage"
        >
          {managing ? T.doneManaging : T.manage}
        </Button>
      )}
    </Group>
  );

  if (!floors.data || !halls.data)
    return (
      <Box className={classes.page}>
        {header}
        <CachedViewState view={floors.data ? halls : floors} />
      </Box>
    );

  const floorPicker = floorList.length > 0 && (
    <ScrollArea type="never" mb="sm">
      <SegmentedControl
        value={floor ? String(floor.code) : ''}
        onChange={(v) => go({ floor: v })}
        data={floorList.map((f) => ({ value: String(f.code), label: String(f.name) }))}
        size={narrow ? 'sm' : 'md'}
        data-testid="map-floors"
      />
    </ScrollArea>
  );

  const plan = floor && (
    <Card withBorder radius="md" p={0} className={classes.planCard}>
      {placing && (
        <Alert color="blue" radius={0} icon={<IconCurrentLocation size={18} />}>
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm">{T.placeHint(String(placing.name))}</Text>
            <Button size="xs" variant="default" onClick={() => setPlacing(null)}>
              {tCore.common.cancel}
            </Button>
          </Group>
        </Alert>
      )}
      <div
        className={classes.plan}
        data-placing={placing ? 'true' : undefined}
        onClick={(e) => void place(e)}
        data-testid="map-plan"
        role={placing ? 'button' : undefined}
        aria-label={placing ? T.placeHint(String(placing.name)) : T.planOf(String(floor.name))}
      >
        {image ? (
          <img src={image} alt={T.planOf(String(floor.name))} className={classes.planImage} />
        ) : (
          <div className={classes.noPlan}>
            <Text size="sm" c="dimmed" ta="center" px="md">
              {writer ? T.noPlanWriter : T.noPlan}
            </Text>
          </div>
        )}
        {onFloor.filter(placed).map((h) => (
          <UnstyledButton
            key={h.id}
            className={classes.marker}
            style={{ left: `${Number(h.mapX)}%`, top: `${Number(h.mapY)}%` }}
            data-state={stateColor(h.openState)}
            data-active={openHall?.id === h.id ? 'true' : undefined}
            onClick={(e) => {
              e.stopPropagation();
              if (!placing) go({ hall: String(h.id) });
            }}
            aria-label={`${String(h.name)}（${stateLabel(h.openState)}）`}
            data-testid="map-marker"
          >
            <IconMapPin size={narrow ? 22 : 26} className={classes.pin} />
            <span className={classes.markerLabel}>{String(h.name)}</span>
          </UnstyledButton>
        ))}
      </div>
    </Card>
  );

  const notes = planNotes(planHtml);
  const hallCards = (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
      {onFloor.map((h) => (
        <UnstyledButton key={h.id} onClick={() => go({ hall: String(h.id) })} data-testid="map-hall">
          <Card withBorder radius="md" padding="sm" className={classes.hallCard}>
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text fw={600} size="sm" truncate>
                {String(h.name)}
              </Text>
              <Badge size="sm" variant="light" color={stateColor(h.openState)}>
                {stateLabel(h.openState)}
              </Badge>
            </Group>
            <Text size="xs" c="dimmed" mt={4}>
              {[h.hallNo, !placed(h) && T.unplaced].filter(Boolean).join(' · ') || ' '}
            </Text>
            {h.intro ? (
              <Text size="xs" mt={4} lineClamp={2}>
                {String(h.intro)}
              </Text>
            ) : null}
          </Card>
        </UnstyledButton>
      ))}
      {onFloor.length === 0 && (
        <Text size="sm" c="dimmed">
          {T.noHalls}
        </Text>
      )}
    </SimpleGrid>
  );

  return (
    <Box className={classes.page} data-testid="museum-map">
      {header}
      {floorList.length === 0 ? (
        <Card withBorder radius="md" p="xl">
          <Text c="dimmed" ta="center">
            {writer ? T.emptyWriter : T.empty}
          </Text>
        </Card>
      ) : (
        <Stack gap="md">
          <div>
            {floorPicker}
            {plan}
          </div>
          {notes.replace(/<[^>]+>/g, '').trim() && (
            <Card withBorder radius="md" padding="sm">
              <RichHtml html={notes} />
            </Card>
          )}
          <div>
            <Text fw={600} mb="xs">
              {T.hallsOf(String(floor?.name ?? ''), onFloor.length)}
            </Text>
            {hallCards}
          </div>
        </Stack>
      )}

      {managing && writer && admin && (
        <Stack gap="lg" mt="xl" data-testid="map-admin">
          {admin(floor)}
        </Stack>
      )}

      <Drawer
        opened={openHall !== null}
        onClose={closeHall}
        position={narrow ? 'bottom' : 'right'}
        size={narrow ? 'auto' : 420}
        closeOnClickOutside={false}
        title={openHall ? String(openHall.name) : ''}
        closeButtonProps={{ 'aria-label': T.closeHall }}
        {...escape}
      >
        {openHall && (
          <Stack gap="sm" data-testid="map-hall-detail">
            <Group gap="xs">
              <Badge variant="light" color={stateColor(openHall.openState)}>
                {stateLabel(openHall.openState)}
              </Badge>
              <Text size="sm" c="dimmed">
                {[floorList.find((f) => f.code === openHall.floor)?.name, openHall.hallNo]
                  .filter(Boolean)
                  .join(' · ')}
              </Text>
            </Group>
            {openHall.intro ? (
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {String(openHall.intro)}
              </Text>
            ) : null}
            {!placed(openHall) && (
              <Text size="sm" c="dimmed">
                {T.unplacedHint}
              </Text>
            )}
            {writer && (
              <Button
                variant="light"
                leftSection={<IconCurrentLocation size={16} />}
                onClick={() => {
                  setPlacing(openHall);
                  closeHall();
                }}
                data-testid="map-place"
              >
                {placed(openHall) ? T.replace : T.placeIt}
              </Button>
            )}
          </Stack>
        )}
      </Drawer>
    </Box>
  );
}
