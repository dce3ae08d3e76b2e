import { Suspense, type ReactNode } from 'react';
import type { ModuleKey } from '../../shared/menu/types';
import { page, type LazyPage } from './lazy';

const DrivePage = page(() => import('../features/drive/drive-page'), 'DrivePage');
const ProjectListPage = page(() => import('../features/project/project-list-page'), 'ProjectListPage');
const ProcessListPage = page(() => import('../features/approval/process-list-page'), 'ProcessListPage');

/**
 * The pages that are built, by the catalogue path they answer. Every other catalogue route
 * shows the 该功能建设中 page of its module; adding a module means adding its pages here.
 * Every page, the workbench too, is its own chunk (issue 25): this map is in the shell's chunk,
 * which loads only once someone is signed in, and each page's code only when it is opened.
 */
export const BUILT_PAGES: Readonly<Record<string, LazyPage<object>>> = {
  '/home/workbench': page(() => import('./workbench'), 'Workbench'),
  // The staff directory (issue 7): read by all staff, edited on 通讯录管理.
  '/home/address-book': page(() => import('../features/directory/directory-page'), 'DirectoryPage'),
  '/oa/address-book-management': page(
    () => import('../features/directory/address-book-management-page'),
    'AddressBookManagementPage',
  ),
  '/staff/person': page(() => import('../features/org/person-page'), 'PersonPage'),
  '/staff/party': page(() => import('../features/org/party-page'), 'PartyPage'),
  '/staff/role/setting': page(() => import('../features/org/role-setting-page'), 'RoleSettingPage'),
  '/personal/base': page(() => import('../features/personal/personal-page'), 'PersonalPage'),
  // The volunteer's phone view (issue 20), outside the staff shell.
  '/m': page(() => import('./volunteer-phone'), 'VolunteerPhonePage'),
  // 以图搜图 (issue 24, README "Image search").
  '/photo/search': page(() => import('./photo-search'), 'PhotoSearchRoute'),
  // The drive: one screen for every drive route; it reads its view from the path and query.
  '/resources/net-disk': DrivePage,
  '/resources/collection-depot': DrivePage,
  '/resources/other-resource': DrivePage,
  '/resources/other-resource-management': DrivePage,
  '/resources/hd-picture-management': DrivePage,
  // Office files open here from the drive (issue 5): the ONLYOFFICE editor or a read-only viewer.
  '/onlyoffice': page(() => import('../features/office/office-page'), 'OfficePage'),
  // Sharing (issue 6): my shares inside the layout; the public share page outside it.
  '/resources/my-share': page(() => import('../features/drive/share/my-shares-page'), 'MySharesPage'),
  '/share/$shareBatchNum': page(() => import('../features/drive/share/share-page'), 'SharePage'),
  // Notice publishing (issue 7): the administrators' page, the staff list and the detail page.
  '/approve/info-publish': page(() => import('../features/announce/info-publish-page'), 'InfoPublishPage'),
  '/home/notice-list': page(() => import('../features/announce/notice-list-page'), 'NoticeListPage'),
  '/approve/notice-detail': page(() => import('../features/announce/notice-detail-page'), 'NoticeDetailPage'),
  // The publishers' full page of an announcement (issue 18; the two detail routes share one view).
  '/staff/info-publish/detail': page(
    () => import('../features/announce/info-publish-detail-page'),
    'InfoPublishDetailPage',
  ),
  // Approvals (issue 8): 发起审批.
  '/approve/start-approve': page(() => import('../features/approval/start-page'), 'StartApprovePage'),
  // Attendance and summaries (issue 8): derived from passed leave, travel and overtime requests.
  '/approve/view': page(() => import('../features/attendance/attendance-page'), 'AttendancePage'),
  '/approve/view-person': page(() => import('../features/attendance/person-pages'), 'PersonAttendancePage'),
  '/approve/view-person-detail': page(
    () => import('../features/attendance/person-pages'),
    'PersonDetailPage',
  ),
  '/approve/department-summary': page(
    () => import('../features/attendance/summary-pages'),
    'DepartmentSummaryPage',
  ),
  '/approve/personal-summary': page(
    () => import('../features/attendance/summary-pages'),
    'PersonalSummaryPage',
  ),
  // Approvals (issue 8): one list page for the approval and 公文 lists, with the detail panel.
  '/approve/process-pending': ProcessListPage,
  '/approve/process-done': ProcessListPage,
  '/approve/process-mystart': ProcessListPage,
  '/approve/process-copy': ProcessListPage,
  '/gongwen/process-list': ProcessListPage,
  '/gongwen/process-pending': ProcessListPage,
  '/gongwen/process-mystart': ProcessListPage,
  // Approval templates and the workflow designer (issue 8): 审批设置, for administrators.
  '/approve/dispose': page(() => import('../features/approval/template-page'), 'ApprovalSettingPage'),
  // Project tasks (issue 9): my projects, and a project's boards with the task dialog.
  '/project-list': ProjectListPage,
  '/exhibition': ProjectListPage,
  // 展览计划: the exhibitions by their dates (design in the page's doc comment).
  '/project/project-plan': page(() => import('../features/project/project-plan-page'), 'ProjectPlanPage'),
  '/project/sub': page(() => import('../features/project/project-board-page'), 'ProjectBoardPage'),
  '/approve/project-progress': page(
    () => import('../features/project/project-progress-page'),
    'ProjectProgressPage',
  ),
  // The records engine (issue 18): pages that mount the generic list on a definition, the duty
  // roster's week and month views, the dictionaries and the OpenAPI browser.
  '/oa/watch-list-management': page(() => import('./records'), 'DutyManagementPage'),
  '/home/nbdt-list': page(() => import('./records'), 'NewsPage'),
  '/home/data-download': page(() => import('./records'), 'DownloadCenterPage'),
  '/home/data-managemnt': page(() => import('./records'), 'BusinessDataPage'),
  '/home/watch-list': page(() => import('../features/duty/watch-list-page'), 'WatchListPage'),
  '/staff/data': page(() => import('../features/records/dictionary-page'), 'DictionaryPage'),
  '/system/openapi': page(() => import('../features/api-docs/api-docs-page'), 'ApiDocsPage'),
  // System log, self-registration and pending staff (issue 18): generic record pages.
  '/system/log': page(() => import('./records'), 'SystemLogPage'),
  '/staff/person/pending': page(() => import('./records'), 'PendingStaffPage'),
  '/register': page(() => import('../features/auth/register-page'), 'RegisterPage'),
  // The visitor's public booking page (issue 21): no staff session.
  '/visit': page(() => import('../features/reservation-public/visit-page'), 'VisitPage'),
  // The visitor-eye preview of the mini-program home (issue 23): no staff session, phone size.
  '/content-preview': page(() => import('../features/content-preview/preview-page'), 'ContentPreviewPage'),
  // 馆区地图 (issue 18): floors and halls, which later pages link to (/mymap?hall=<id>).
  '/mymap': page(() => import('./records'), 'MapPage'),
  // Volunteers (issue 20, part A): the records engine's list on each volunteer record.
  '/volunteer/register-list': page(() => import('./records'), 'VolunteerRegisterPage'),
  '/volunteer/stu-register-list': page(() => import('./records'), 'StudentRegisterPage'),
  '/volunteer/application-review': page(() => import('./records'), 'ApplicationReviewPage'),
  // The adult roll has its charts and 建议停用 tab beside volunteer service's (issue 20).
  '/volunteer/adult-volunteer': page(() => import('./volunteer-service'), 'AdultVolunteerPage'),
  '/volunteer/appoint-setting': page(() => import('./records'), 'AppointSettingPage'),
  '/volunteer/stu-volunteer': page(() => import('./records'), 'StudentVolunteerPage'),
  '/volunteer/little-student': page(() => import('./records'), 'LittleStudentPage'),
  '/volunteer/school-group': page(() => import('./records'), 'SchoolGroupPage'),
  '/volunteer/volunteer-info-publish': page(() => import('./records'), 'VolunteerNoticePage'),
  '/volunteer/recruit': page(() => import('./records'), 'RecruitPage'),
  '/volunteer/recruit/detail': page(() => import('./records'), 'RecruitDetailPage'),
  // Social education (issue 24): types, activities with their sign-ups, records, statistics.
  '/activity/activity-manage': page(() => import('./activity'), 'ActivityManagePage'),
  '/activity/activity-type': page(() => import('./activity'), 'ActivityTypePage'),
  '/activity/activity-manage/detail': page(() => import('./activity'), 'ActivityDetailPage'),
  '/activity/activity-datamanagement': page(() => import('./activity'), 'ActivityDataPage'),
  '/activity/activity-statistic': page(() => import('./activity'), 'ActivityStatisticPage'),
  '/volunteer/sign-detail': page(() => import('./activity'), 'VolunteerSignDetailPage'),
  '/volunteer/sign': page(() => import('./records'), 'SignPage'),
  // Volunteer service (issue 20): hours, exhibitions and sessions, qualification, check-ins, settings.
  '/volunteer/service-list': page(() => import('./volunteer-service'), 'ServiceListPage'),
  '/volunteer/stu-service': page(() => import('./volunteer-service'), 'StuServicePage'),
  '/volunteer/exlain-index': page(() => import('./volunteer-service'), 'ExplainIndexPage'),
  '/volunteer/hxhibition-explain': page(() => import('./volunteer-service'), 'ExhibitionExplainPage'),
  '/volunteer/sign-in': page(() => import('./volunteer-service'), 'SignInPage'),
  '/volunteer/stu-service-setting': page(() => import('./volunteer-service'), 'StuServiceSettingPage'),
  '/volunteer/stu-service-appoint': page(() => import('./volunteer-service'), 'StuServiceAppointPage'),
  // Visitor reservations (issue 21, first slice): the records engine's list on each record.
  '/reservation/time-period': page(() => import('./reservation'), 'TimePeriodPage'),
  '/reservation/list': page(() => import('./reservation-calendar'), 'TicketCalendarPage'),
  '/reservation/list/ticket': page(() => import('./reservation'), 'TicketPage'),
  '/reservation/list/reservelist': page(() => import('./reservation'), 'ReserveListPage'),
  '/reservation/order-person': page(() => import('./reservation-desk'), 'OrderPersonPage'),
  '/reservation/order-team': page(() => import('./reservation-team'), 'OrderTeamPage'),
  '/reservation/order-team/tourist-info': page(() => import('./reservation-team'), 'TeamDetailPage'),
  '/reservation/black-list': page(() => import('./reservation'), 'BlackListPage'),
  // The gate tablet's 入馆核验 (issue 21): today's list on the device, check-ins queued offline.
  '/reservation/gate': page(() => import('../features/reservation-gate/gate-page'), 'GatePage'),
  '/reservation/view': page(() => import('./reservation-stats'), 'ReservationOverviewPage'),
  '/reservation/panel': page(() => import('./reservation-stats'), 'ReservationPanelPage'),
  '/order/reservation/list': page(() => import('./reservation'), 'ChildrenHallOrdersPage'),
  '/applet-management/list-person': page(() => import('./reservation'), 'ChildrenHallVisitorsPage'),
  '/applet-management/setting': page(() => import('./reservation-settings'), 'ChildrenHallSettingsPage'),
  '/reservation/basic-info': page(() => import('./reservation-settings'), 'ReservationSettingsPage'),
  // 借阅概览 (issue 22): the book panel's counters and four charts; /book lands here.
  '/books/books-panel': page(() => import('../features/books/panel-page'), 'BooksPanelPage'),
  // Book lending, the librarian's pages (issue 22): the catalogue's management and the queues.
  '/books/book-manage': page(() => import('./books-admin'), 'BookManagePage'),
  '/books/periodical-manage': page(() => import('./books-admin'), 'PeriodicalManagePage'),
  '/books/publication-manage': page(() => import('./books-admin'), 'PublicationManagePage'),
  '/books/borrow-management': page(() => import('./books-admin'), 'BorrowManagementPage'),
  '/books/receive-management': page(() => import('./books-admin'), 'ReceiveManagementPage'),
  '/books/delay-management': page(() => import('./books-admin'), 'DelayManagementPage'),
  // Book lending, the readers' pages (issue 22): the catalogues with 借阅/领用, one's own applications.
  '/books/book': page(() => import('./books-reader'), 'BookReaderPage'),
  '/books/periodical': page(() => import('./books-reader'), 'PeriodicalReaderPage'),
  '/books/publication': page(() => import('./books-reader'), 'PublicationReaderPage'),
  '/books/borrow-record': page(() => import('./books-reader'), 'BorrowRecordPage'),
  '/books/receive-record': page(() => import('./books-reader'), 'ReceiveRecordPage'),
  // 小程序管理 (issue 23, README "Mini-program pages"): the content records' pages.
  '/applet-management/carousel': page(() => import('./applet'), 'AppletCarouselPage'),
  '/applet-management/volunteer/carousel': page(() => import('./applet'), 'VolunteerCarouselPage'),
  '/applet-management/volunteer/service-carousel': page(() => import('./applet'), 'ServiceCarouselPage'),
  '/applet-management/guide': page(() => import('./applet'), 'GuideTreePage'),
  '/applet-management/guide-management': page(() => import('./applet'), 'GuideUnitsPage'),
  '/applet-management/showroom': page(() => import('./applet'), 'ShowroomPage'),
  '/applet-management/plane': page(() => import('./applet-plane'), 'AppletPlanePage'),
  '/applet-management/exhibition': page(() => import('./applet'), 'ExhibitionPage'),
  '/applet-management/exhibition-management': page(() => import('./applet'), 'ExhibitionPage'),
  '/applet-management/learning/topics': page(() => import('./applet'), 'LearningTopicsPage'),
  '/applet-management/learning/meeting': page(() => import('./applet'), 'LearningMeetingPage'),
  '/applet-management/learning/monograph': page(() => import('./applet'), 'LearningMonographPage'),
  '/applet-management/learning/paper': page(() => import('./applet'), 'LearningPaperPage'),
  '/applet-management/classroom': page(() => import('./applet'), 'ClassroomPage'),
  '/applet-management/radio-video': page(() => import('./applet'), 'RadioVideoPage'),
  '/applet-management/video-type': page(() => import('./applet'), 'VideoTypePage'),
  '/applet-management/radio-list': page(() => import('./applet'), 'RadioListPage'),
  '/applet-management/cultural-creation': page(() => import('./applet'), 'CulturalPage'),
  '/applet-management/digital-relics': page(() => import('./applet'), 'DigitalRelicsPage'),
  '/applet-management/volunteer/intro': page(() => import('./applet'), 'VolunteerIntroPage'),
  '/applet-management/volunteer/demeanor': page(() => import('./applet'), 'VolunteerStoryPage'),
  // The applet's 志愿者招募: the volunteers' recruits, read by its leaf, written by 招募管理's.
  '/applet-management/volunteer/recruit': page(() => import('./applet'), 'AppletRecruitPage'),
  // 官网建设 and 英文网站 (issue 23): the records engine's list on each content record; a record
  // kept in two languages is one page with 中文 / English. The tongji pages are another's.
  '/website/home': page(() => import('./content-web'), 'WebsiteHomePage'),
  '/en-website/home': page(() => import('./content-web'), 'EnWebsiteHomePage'),
  '/website/qinggong': page(() => import('./content-web'), 'QinggongPage'),
  '/website/info-publish': page(() => import('./content-web'), 'InfoPublishPage'),
  '/en-website/info-publish': page(() => import('./content-web'), 'EnInfoPublishPage'),
  '/website/notice-publish': page(() => import('./content-web'), 'NoticePublishPage'),
  '/website/zdjs': page(() => import('./content-web'), 'ZdjsPage'),
  '/website/course': page(() => import('./content-web'), 'CoursePage'),
  '/website/identify': page(() => import('./content-web'), 'IdentifyPage'),
  '/website/identify-record': page(() => import('./content-web'), 'IdentifyRecordPage'),
  '/website/exhibition': page(() => import('./content-web'), 'WebsiteExhibitionPage'),
  '/en-website/exhibition': page(() => import('./content-web'), 'EnWebsiteExhibitionPage'),
  '/website/showroom': page(() => import('./content-web'), 'WebsiteShowroomPage'),
  '/en-website/showroom': page(() => import('./content-web'), 'EnWebsiteShowroomPage'),
  '/website/digital': page(() => import('./content-web'), 'WebsiteDigitalPage'),
  '/en-website/3d': page(() => import('./content-web'), 'EnWebsiteThreeDPage'),
  '/website/learning': page(() => import('./content-web'), 'WebsiteLearningPage'),
  '/website/classroom': page(() => import('./content-web'), 'WebsiteClassroomPage'),
  '/website/cultural': page(() => import('./content-web'), 'WebsiteCulturalPage'),
  '/en-website/cultural': page(() => import('./content-web'), 'EnWebsiteCulturalPage'),
  '/en-website/premium': page(() => import('./content-web'), 'EnPremiumPage'),
  '/en-website/activity': page(() => import('./content-web'), 'EnActivityPage'),
  // The collection and its data approvals (issue 24, README "Collection (issue 24)").
  '/resources/collection': page(() => import('./collection'), 'CollectionPage'),
  '/resources/collection-management': page(() => import('./collection'), 'CollectionManagementPage'),
  '/data/manage': page(() => import('./collection'), 'DataManagePage'),
  '/data/manage/extract': page(() => import('./collection'), 'DataExtractPage'),
  // 访问统计 (issue 23): content views by day, month, item and kind, per site.
  '/website/tongji': page(() => import('../features/content-tongji/tongji-page'), 'WebsiteTongjiPage'),
  '/en-website/tongji': page(() => import('../features/content-tongji/tongji-page'), 'EnWebsiteTongjiPage'),
  // Conservation and repair (issue 24): projects, object archives (printable), the standards library.
  '/repair/repair-manage': page(() => import('../features/repair/repair-pages'), 'RepairManagePage'),
  '/repair/repair-fill': page(() => import('../features/repair/repair-pages'), 'RepairFillPage'),
  '/repair/repair-cultural': page(() => import('../features/repair/repair-pages'), 'RepairCulturalPage'),
  '/repair/standards-query': page(() => import('../features/repair/repair-pages'), 'StandardsQueryPage'),
  '/repair/standards-management': page(
    () => import('../features/repair/repair-pages'),
    'StandardsManagePage',
  ),
};

const StorageMeter = page(() => import('../features/drive/storage-meter'), 'StorageMeter');

/** What shows under a module's side menu: the drive's 存储空间 under 数字资源. */
export function panelFooter(module: ModuleKey): ReactNode {
  if (module !== 'resources') return null;
  return (
    <Suspense fallback={null}>
      <StorageMeter />
    </Suspense>
  );
}
