import {
  dutyRoster,
  museumFloor,
  museumHall,
  staffRegistration,
  wkDynamic,
} from '../../shared/records/index';
import { REGISTRATION_PENDING } from '../../shared/records/system/staff-registration';
import { systemLog } from '../../shared/records/system/system-log';
import { MuseumMapPage } from '../features/museum-map/museum-map-page';
import { RecordListPage } from '../features/records';
import { t } from '../lib/i18n';

/**
 * Pages that mount the records engine's generic list on a definition (issue 18). A record's page
 * is one line here and one in routes/pages.tsx; its fields, filters, rights and calls all come
 * from its definition in src/shared/records.
 */

/** 值班表管理 (/oa/watch-list-management): the office edits, imports and exports the roster. */
export function DutyManagementPage() {
  return <RecordListPage def={dutyRoster} title={t.dutyManage.title} intro={t.dutyManage.intro} />;
}

/** 馆内动态 (/home/nbdt-list): everyone reads published news; 信息发布's holders write and publish. */
export function NewsPage() {
  return <RecordListPage def={wkDynamic} intro={t.newsPage.intro} />;
}

/**
 * 系统日志 (/system/log): read-only, for administrators and 审计员. The log's calls are its own
 * (server/modules/syslog); its definition's adapter lets this generic page read them
 * (shared/records/system/system-log.ts says why).
 */
export function SystemLogPage() {
  return <RecordListPage def={systemLog} intro={t.systemLog.intro} />;
}

/**
 * 人员审核 (/staff/person/pending): registrations from the public page /register, opened on
 * 待审核. 通过 asks for the roles and creates the account; 拒绝 asks for the reason the person
 * reads when signing in.
 */
export function PendingStaffPage() {
  return (
    <RecordListPage
      def={staffRegistration}
      title={t.pendingStaff.title}
      intro={t.pendingStaff.intro}
      initial={{ status: REGISTRATION_PENDING }}
    />
  );
}

/**
 * 馆区地图 (/mymap): the map feature with, for holders of 平面导览, the floors' and the current
 * floor's halls' generic lists below it (add, edit, sort, delete).
 */
export function MapPage() {
  return (
    <MuseumMapPage
      admin={(floor) => (
        <>
          <RecordListPage def={museumFloor} intro={t.museumMap.floorsIntro} embedded />
          {floor && (
            <RecordListPage
              key={String(floor.code)}
              def={museumHall}
              title={t.museumMap.hallsAdmin(String(floor.name))}
              intro={t.museumMap.hallsIntro}
              fixed={{ floor: floor.code }}
              embedded
            />
          )}
        </>
      )}
    />
  );
}
