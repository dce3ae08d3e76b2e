import { IconBuildingMonument, IconFolder } from '@tabler/icons-react';
// Its own module, not the records index, which would bring every record's definition along.
import { wkDynamic } from '../../shared/records/office/wk-dynamic';
import { TodayDuty } from '../features/duty/today-duty';
import { LatestRecords } from '../features/records/latest-records';
import { Suspense, lazy, useState } from 'react';
import { OfflineNote } from '../components/offline-note';
import { LatestAnnouncements } from '../features/announce/latest-announcements';
import { TodaySchedule } from '../features/schedule/today-schedule';
import { RecentFiles, useRecentFiles } from '../features/drive/recent-files';
import { DRIVE_ROUTES } from '../features/drive/drive-view';
import { SectionLink, WorkbenchPage, WorkbenchSection } from '../features/workbench/workbench-page';
import { tDrive } from '../lib/i18n/drive';
import { tNews } from '../lib/i18n/news';
import { useNavigate } from '@tanstack/react-router';
import { useSession } from '../lib/session';

/** Volunteer administrators' card (issue 20), loaded only for those who hold 签到管理. */
const VolunteerTodayCard = lazy(() =>
  import('./volunteer-service').then((m) => ({ default: m.VolunteerTodayCard })),
);
function VolunteerCard() {
  // The session's grants, not the records feature's useGrant: the workbench is in the main chunk.
  const granted = useSession()?.menu.grantedKeys.includes('volunteer.signIn');
  if (!granted) return null;
  return (
    <Suspense fallback={null}>
      <VolunteerTodayCard />
    </Suspense>
  );
}

/** Reservation managers' card (issue 21): today's places, booked and admitted. */
const ReservationTodayCard = lazy(() =>
  import('./reservation-stats').then((m) => ({ default: m.ReservationTodayCard })),
);
/** The grants that read today's reservation counts (the server's dayStat allows the same). */
const RESERVATION_READERS = ['order.panel', 'order.view', 'order.orderPerson'];
function ReservationCard() {
  const keys = useSession()?.menu.grantedKeys ?? [];
  if (!RESERVATION_READERS.some((k) => keys.includes(k))) return null;
  return (
    <Suspense fallback={null}>
      <ReservationTodayCard panel={keys.includes('order.panel')} />
    </Suspense>
  );
}

/** 馆务数据 (issue 24): the charts of the person's roles; recharts loads with them, not with the shell. */
const WorkbenchDashboards = lazy(() =>
  import('../features/dashboards/dashboard-cards').then((m) => ({ default: m.WorkbenchDashboards })),
);

/** The newest published museum news (readers see only published rows; writers the same here). */
const LATEST_NEWS = { currentPage: 1, pageCount: 5, status: 1 };

/** The drive's card on the workbench: the newest files, cached for offline. */
function RecentFilesCard() {
  const view = useRecentFiles();
  const navigate = useNavigate();
  const [now] = useState(Date.now);
  return (
    <WorkbenchSection
      title={tDrive.recent.title}
      icon={<IconFolder size={18} />}
      testId="recent-files"
      action={
        view.offline ? (
          <OfflineNote view={view} />
        ) : (
          <SectionLink
            label={tDrive.recent.more}
            onClick={() => void navigate({ to: DRIVE_ROUTES.netDisk, search: { fileType: '0' } })}
          />
        )
      }
    >
      {view.data && <RecentFiles files={view.data} now={now} />}
    </WorkbenchSection>
  );
}

/**
 * The workbench as routes compose it: the workbench feature's page with the cards of other
 * features (features never import each other).
 */
export function Workbench() {
  return (
    <WorkbenchPage
      today={<TodaySchedule />}
      announcements={<LatestAnnouncements />}
      recentFiles={<RecentFilesCard />}
      volunteers={
        <>
          <ReservationCard />
          <VolunteerCard />
        </>
      }
      dashboards={
        <Suspense fallback={null}>
          <WorkbenchDashboards />
        </Suspense>
      }
      duty={<TodayDuty />}
      news={
        <LatestRecords
          def={wkDynamic}
          query={LATEST_NEWS}
          title={tNews.latest}
          icon={<IconBuildingMonument size={18} />}
          more="/home/nbdt-list"
          empty={tNews.empty}
          timeField="publishTime"
          testId="latest-news"
        />
      }
    />
  );
}
