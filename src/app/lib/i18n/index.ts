/**
 * The interface's words (zh-CN): one typed catalogue (ARCHITECTURE.md §7) in one file per part
 * of the app, so that a page loads only the words it shows (issue 25: the whole catalogue was
 * 41 KB gzip of every signed-in page's JavaScript). The app imports the part it needs, e.g.
 * `tDrive` from `lib/i18n/drive`, and `tCore` (the sign-in page's and the shell's words) from
 * `lib/i18n-core`; ESLint refuses this file in the app. Spec strings are used verbatim where the
 * spec gives them.
 *
 * `t` assembles the whole catalogue as it was, for the checks that read all of it
 * (tests/app/i18n-labels.test.ts).
 */
import { tCore } from '../i18n-core';
import { tActivity } from './activity';
import { tAnnounce } from './announce';
import { tApiDocs } from './api-docs';
import { tApplet } from './applet';
import { tApprovalProcess } from './approval-process';
import { tApprovalStart } from './approval-start';
import { tAttendance } from './attendance';
import { tBooksAdmin } from './books-admin';
import { tBooksIsbn } from './books-isbn';
import { tBooksPanel } from './books-panel';
import { tBooksReader } from './books-reader';
import { tBusiness } from './business';
import { tCollection } from './collection';
import { tContentPreview } from './content-preview';
import { tContentTongji } from './content-tongji';
import { tContentWeb } from './content-web';
import { tDashboards } from './dashboards';
import { tDesigner } from './designer';
import { tDictionary } from './dictionary';
import { tDirectory } from './directory';
import { tDownloadPage } from './download-page';
import { tDrive } from './drive';
import { tDuty } from './duty';
import { tDutyManage } from './duty-manage';
import { tFirstPassword } from './first-password';
import { tMuseumMap } from './museum-map';
import { tNews } from './news';
import { tNewsPage } from './news-page';
import { tNotices } from './notices';
import { tOffline } from './offline';
import { tOrg } from './org';
import { tPendingStaff } from './pending-staff';
import { tPersonal } from './personal';
import { tPhotoSearch } from './photo-search';
import { tPreview } from './preview';
import { tProject } from './project';
import { tRecords } from './records';
import { tRegister } from './register';
import { tRepair } from './repair';
import { tReservationCalendar } from './reservation-calendar';
import { tReservationDesk } from './reservation-desk';
import { tReservationGate } from './reservation-gate';
import { tReservationPages } from './reservation-pages';
import { tReservationSettings } from './reservation-settings';
import { tReservationStaff } from './reservation-staff';
import { tReservationStats } from './reservation-stats';
import { tScanner } from './scanner';
import { tSchedule } from './schedule';
import { tShare } from './share';
import { tSystemLog } from './system-log';
import { tUnzip } from './unzip';
import { tUpload } from './upload';
import { tVisit } from './visit';
import { tVolunteerCheckin } from './volunteer-checkin';
import { tVolunteerPages } from './volunteer-pages';
import { tVolunteerPhone } from './volunteer-phone';
import { tVolunteerService } from './volunteer-service';
import { tWorkbench } from './workbench';

export const t = {
  ...tCore,
  org: tOrg,
  directory: tDirectory,
  schedule: tSchedule,
  offline: tOffline,
  upload: tUpload,
  drive: tDrive,
  personal: tPersonal,
  preview: tPreview,
  unzip: tUnzip,
  workbench: tWorkbench,
  notices: tNotices,
  share: tShare,
  approvalStart: tApprovalStart,
  announce: tAnnounce,
  attendance: tAttendance,
  approvalProcess: tApprovalProcess,
  designer: tDesigner,
  project: tProject,
  records: tRecords,
  duty: tDuty,
  dutyManage: tDutyManage,
  business: tBusiness,
  downloadPage: tDownloadPage,
  newsPage: tNewsPage,
  news: tNews,
  systemLog: tSystemLog,
  pendingStaff: tPendingStaff,
  volunteerPages: tVolunteerPages,
  register: tRegister,
  museumMap: tMuseumMap,
  dictionary: tDictionary,
  apiDocs: tApiDocs,
  volunteerService: tVolunteerService,
  volunteerCheckin: tVolunteerCheckin,
  scanner: tScanner,
  volunteerPhone: tVolunteerPhone,
  firstPassword: tFirstPassword,
  booksReader: tBooksReader,
  reservationPages: tReservationPages,
  reservationStaff: tReservationStaff,
  reservationSettings: tReservationSettings,
  reservationCalendar: tReservationCalendar,
  reservationStats: tReservationStats,
  reservationDesk: tReservationDesk,
  visit: tVisit,
  reservationGate: tReservationGate,
  booksPanel: tBooksPanel,
  booksIsbn: tBooksIsbn,
  booksAdmin: tBooksAdmin,
  applet: tApplet,
  contentWeb: tContentWeb,
  contentTongji: tContentTongji,
  collection: tCollection,
  contentPreview: tContentPreview,
  dashboards: tDashboards,
  activity: tActivity,
  photoSearch: tPhotoSearch,
  repair: tRepair,
} as const;
