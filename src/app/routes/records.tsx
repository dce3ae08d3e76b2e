import { Stack, Tabs, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useRouterState } from '@tanstack/react-router';
import { MUSEUM_PREFIX } from '../../shared/api/codes';
import {
  businessDataDept,
  businessDataPersonal,
  businessDataPlan,
  businessMonth,
  downloadDoc,
  dutyRoster,
  museumFloor,
  museumHall,
  staffRegistration,
  wkDynamic,
} from '../../shared/records/index';
import { DATA_SUMMARY } from '../../shared/records/office/business-data';
import {
  adultVolunteer,
  schoolGroup,
  studentVolunteer,
  volunteerApplication,
} from '../../shared/records/volunteer/people';
import { recruit, recruitSign, volunteerNotice } from '../../shared/records/volunteer/recruit';
import { REGISTRATION_PENDING } from '../../shared/records/system/staff-registration';
import { systemLog } from '../../shared/records/system/system-log';
import { DeptSummaryPanel, OverviewPanel } from '../features/business/business-panels';
import { MuseumMapPage } from '../features/museum-map/museum-map-page';
import { RecordListPage, useGrant } from '../features/records';
import { tBusiness } from '../lib/i18n/business';
import { tDownloadPage } from '../lib/i18n/download-page';
import { tDutyManage } from '../lib/i18n/duty-manage';
import { tMuseumMap } from '../lib/i18n/museum-map';
import { tNewsPage } from '../lib/i18n/news-page';
import { tPendingStaff } from '../lib/i18n/pending-staff';
import { tSystemLog } from '../lib/i18n/system-log';
import { tVolunteerPages } from '../lib/i18n/volunteer-pages';
import { recordKeys } from '../lib/records';

/**
 * Pages that mount the records engine's generic list on a definition (issue 18). A record's page
 * is one line here and one in routes/pages.tsx; its fields, filters, rights and calls all come
 * from its definition in src/shared/records.
 */

/** 值班表管理 (/oa/watch-list-management): the office edits, imports and exports the roster. */
export function DutyManagementPage() {
  return <RecordListPage def={dutyRoster} title={tDutyManage.title} intro={tDutyManage.intro} />;
}

/** 馆内动态 (/home/nbdt-list): everyone reads published news; 信息发布's holders write and publish. */
export function NewsPage() {
  return <RecordListPage def={wkDynamic} intro={tNewsPage.intro} />;
}

/**
 * 系统日志 (/system/log): read-only, for administrators and 审计员. The log's calls are its own
 * (server/modules/syslog); its definition's adapter lets this generic page read them
 * (shared/records/system/system-log.ts says why).
 */
export function SystemLogPage() {
  return <RecordListPage def={systemLog} intro={tSystemLog.intro} />;
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
      title={tPendingStaff.title}
      intro={tPendingStaff.intro}
      initial={{ status: REGISTRATION_PENDING }}
    />
  );
}

/**
 * 下载中心 (/home/data-download): everyone reads the published documents and downloads them with
 * 下载, which goes through the server's counted download (once per person per museum day);
 * 信息发布's holders add, publish and take down.
 */
export function DownloadCenterPage() {
  const qc = useQueryClient();
  return (
    <RecordListPage
      def={downloadDoc}
      intro={tDownloadPage.intro}
      rowActions={(row) =>
        (row.file as number[] | undefined)?.length
          ? [
              {
                key: 'download',
                label: tDownloadPage.download,
                icon: IconDownload,
                run: () => {
                  // A navigation, as the drive's downloads: the browser streams the file to disk
                  // with the session cookie, never a whole blob in memory.
                  const a = document.createElement('a');
                  a.href = `${MUSEUM_PREFIX}${downloadDoc.base}/download?id=${row.id}`;
                  a.download = '';
                  a.rel = 'noopener';
                  document.body.appendChild(a);
                  a.click();
                  a.remove();
                  // The count moves on the server; read it again shortly.
                  setTimeout(
                    () => void qc.invalidateQueries({ queryKey: recordKeys.all(downloadDoc) }),
                    1500,
                  );
                },
              },
            ]
          : []
      }
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
          <RecordListPage def={museumFloor} intro={tMuseumMap.floorsIntro} embedded />
          {floor && (
            <RecordListPage
              key={String(floor.code)}
              def={museumHall}
              title={tMuseumMap.hallsAdmin(String(floor.name))}
              intro={tMuseumMap.hallsIntro}
              fixed={{ floor: floor.code }}
              embedded
            />
          )}
        </>
      )}
    />
  );
}

const B = tBusiness;

/**
 * 业务数据 (/home/data-managemnt): one route, three grants by its `type` (shared/menu/catalogue):
 * 1 one's own month; 2 the department's figures, plans and month summary (department heads);
 * 3 the office's summary of every department with month closing, and every row.
 */
export function BusinessDataPage() {
  const type = useRouterState({
    select: (s) => String((s.location.search as { type?: unknown }).type ?? '1'),
  });
  const office = useGrant(DATA_SUMMARY);
  if (type === '1')
    return <RecordListPage def={businessDataPersonal} title={B.personalTitle} intro={B.personalIntro} />;
  const tabs =
    type === '3' && office
      ? (['overview', 'summary', 'dept', 'plan', 'personal', 'months'] as const)
      : (['summary', 'dept', 'plan'] as const);
  const label = {
    overview: B.tabOverview,
    summary: B.tabSummary,
    dept: B.tabDept,
    plan: B.tabPlan,
    personal: B.tabPersonal,
    months: B.tabMonths,
  };
  return (
    <Stack p="md" gap="sm">
      <Title order={3}>{type === '3' ? B.summaryTitle : B.deptTitle}</Title>
      <Text size="sm" c="dimmed">
        {type === '3' ? B.summaryIntro : B.deptIntro}
      </Text>
      <Tabs defaultValue={tabs[0]} keepMounted={false}>
        <Tabs.List>
          {tabs.map((k) => (
            <Tabs.Tab key={k} value={k}>
              {label[k]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="overview" pt="sm">
          <OverviewPanel />
        </Tabs.Panel>
        <Tabs.Panel value="summary" pt="sm">
          <DeptSummaryPanel />
        </Tabs.Panel>
        <Tabs.Panel value="dept" pt="sm">
          <RecordListPage def={businessDataDept} embedded />
        </Tabs.Panel>
        <Tabs.Panel value="plan" pt="sm">
          <RecordListPage def={businessDataPlan} embedded />
        </Tabs.Panel>
        <Tabs.Panel value="personal" pt="sm">
          <RecordListPage def={businessDataPersonal} embedded />
        </Tabs.Panel>
        <Tabs.Panel value="months" pt="sm">
          <RecordListPage def={businessMonth} embedded />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

// Volunteers (issue 20, part A; README "Volunteers"): each route of spec §2's Volunteer section
// that shows these records is the generic list on its definition, opened on its own filters.
const vp = tVolunteerPages;

/** 报名列表 (/volunteer/register-list): adult applications; interview and result from the row. */
export function VolunteerRegisterPage() {
  return (
    <RecordListPage
      def={volunteerApplication}
      title={vp.registerTitle}
      intro={vp.registerIntro}
      fixed={{ type: 1 }}
    />
  );
}

/** 学生志愿者报名 (/volunteer/stu-register-list, type=2). */
export function StudentRegisterPage() {
  return (
    <RecordListPage
      def={volunteerApplication}
      title={vp.stuRegisterTitle}
      intro={vp.stuRegisterIntro}
      fixed={{ type: 2 }}
    />
  );
}

/** 申请审核 (/volunteer/application-review): every application, opened on 待审核. */
export function ApplicationReviewPage() {
  return (
    <RecordListPage
      def={volunteerApplication}
      title={vp.reviewTitle}
      intro={vp.reviewIntro}
      initial={{ status: 0 }}
    />
  );
}

/** 预约设置 (/volunteer/appoint-setting): the volunteers visitors may book an explanation with. */
export function AppointSettingPage() {
  return (
    <RecordListPage
      def={adultVolunteer}
      title={vp.appointTitle}
      intro={vp.appointIntro}
      initial={{ appointable: true }}
    />
  );
}

/** 学生志愿者 (/volunteer/stu-volunteer). */
export function StudentVolunteerPage() {
  return <RecordListPage def={studentVolunteer} intro={vp.stuIntro} fixed={{ category: 1 }} />;
}

/** 小小讲解员 (/volunteer/little-student): the same roll, category 2. */
export function LittleStudentPage() {
  return (
    <RecordListPage
      def={studentVolunteer}
      title={vp.littleTitle}
      intro={vp.littleIntro}
      fixed={{ category: 2 }}
    />
  );
}

/** 学校团体 (/volunteer/school-group): read-only, filled in on the mini-program. */
export function SchoolGroupPage() {
  return <RecordListPage def={schoolGroup} intro={vp.schoolIntro} />;
}

/** 信息发布 (/volunteer/volunteer-info-publish). */
export function VolunteerNoticePage() {
  return <RecordListPage def={volunteerNotice} intro={vp.noticeIntro} />;
}

/** 招募管理 (/volunteer/recruit). */
export function RecruitPage() {
  return <RecordListPage def={recruit} intro={vp.recruitIntro} />;
}

/** 报名管理 (/volunteer/sign): every sign-up, opened on 待审核. */
export function SignPage() {
  return (
    <RecordListPage def={recruitSign} title={vp.signTitle} intro={vp.signIntro} initial={{ status: 0 }} />
  );
}

/** 招募详情 (/volunteer/recruit/detail?id=): one recruit's sign-ups. */
export function RecruitDetailPage() {
  const search = useRouterState({ select: (st) => st.location.search as Record<string, unknown> });
  const id = Number(search.id);
  return (
    <RecordListPage
      def={recruitSign}
      title={vp.recruitDetailTitle}
      intro={vp.signIntro}
      {...(Number.isInteger(id) && id > 0 ? { fixed: { recruitId: id } } : {})}
    />
  );
}
