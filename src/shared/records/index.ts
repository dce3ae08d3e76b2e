import type { RecordDef } from './define';
import {
  businessDataDept,
  businessDataPersonal,
  businessDataPlan,
  businessMonth,
} from './office/business-data';
import { downloadDoc } from './office/download-doc';
import { dutyRoster } from './office/duty-roster';
import { wkDynamic } from './office/wk-dynamic';
import { dictItem, dictType } from './system/dictionary';
import { staffRegistration } from './system/staff-registration';
import { museumFloor, museumHall } from './site/museum-map';
import {
  adultVolunteer,
  schoolGroup,
  studentVolunteer,
  volunteerApplication,
  volunteerGroup,
} from './volunteer/people';
import { recruit, recruitSign, volunteerNotice } from './volunteer/recruit';
import {
  exhibitionSession,
  explainerQualification,
  sessionCheckIn,
  volunteerExhibition,
} from './volunteer/exhibition-service';
import { serviceRecord } from './volunteer/service-hours';
import { volunteerServiceSetting } from './volunteer/service-setting';
import { studentServiceAppoint, studentServiceSlot } from './volunteer/student-service';
import { appointSetting, appointSettingTimes } from './reservation/setting';
import { bookRule, bsBookApproval, bsBookInfo } from './book/books';
import {
  appointBlackList,
  appointOrder,
  appointOrderVisitor,
  appointTeamOrder,
  appointTicket,
} from './reservation/orders';
import { CONTENT_RECORDS } from './content/index';
import { IDENTIFY_RECORDS } from './content/website';
import { bsDigitalassetsInfo } from './collection/collection';
import { ACTIVITY_RECORDS } from './activity/activity';

/**
 * Every declared record. The server registers the calls of each, the generic API test suite
 * runs against each (tests/server/records-generic.test.ts), the OpenAPI document describes
 * each. Declaring a record means: its file under `records/<module>/`, a line here, a frozen
 * migration for its table, and a sample in tests/server/records-samples.ts.
 */
export const RECORDS: readonly RecordDef[] = [
  dictType,
  dictItem,
  dutyRoster,
  wkDynamic,
  staffRegistration,
  museumFloor,
  museumHall,
  businessMonth,
  businessDataPersonal,
  businessDataDept,
  businessDataPlan,
  downloadDoc,
  volunteerGroup,
  volunteerApplication,
  adultVolunteer,
  schoolGroup,
  studentVolunteer,
  volunteerNotice,
  recruit,
  recruitSign,
  // Volunteer service (issue 20): hours, exhibitions and sessions, qualification, check-ins, settings.
  serviceRecord,
  volunteerExhibition,
  exhibitionSession,
  explainerQualification,
  sessionCheckIn,
  volunteerServiceSetting,
  studentServiceSlot,
  studentServiceAppoint,
  // Visitor reservations (issue 21): settings, slot templates, tickets, orders, visitors, black list.
  appointSetting,
  appointSettingTimes,
  appointTicket,
  appointOrder,
  appointOrderVisitor,
  appointTeamOrder,
  appointBlackList,
  // Book lending (issue 22): the rules, the catalogue, the applications.
  bookRule,
  bsBookInfo,
  bsBookApproval,
  // Website and mini-program content (issue 23): records-design §5 and the English website's.
  ...CONTENT_RECORDS,
  // The website's 文物鉴定 (issue 23): appraisal requests and records, not public content.
  ...IDENTIFY_RECORDS,
  // The collection (issue 24): 藏品资料, changed only through data approvals.
  bsDigitalassetsInfo,
  // Social education activities (issue 24): types, activities, sign-ups, held activities' records.
  ...ACTIVITY_RECORDS,
];

/**
 * Whether a record's rows hold attachments (its rich text's images, its file and image fields):
 * the server registers the record's name as an attachment table.
 */
export function hasAttachments(def: RecordDef): boolean {
  return Object.values(def.fields).some((f) => ['rich', 'file', 'image'].includes(f.kind));
}

export function recordByName(name: string): RecordDef | undefined {
  return RECORDS.find((r) => r.name === name);
}

export {
  businessDataDept,
  businessDataPersonal,
  businessDataPlan,
  businessMonth,
  dictItem,
  dictType,
  downloadDoc,
  dutyRoster,
  museumFloor,
  museumHall,
  staffRegistration,
  wkDynamic,
  adultVolunteer,
  recruit,
  recruitSign,
  schoolGroup,
  studentVolunteer,
  volunteerApplication,
  volunteerGroup,
  volunteerNotice,
  serviceRecord,
  volunteerExhibition,
  exhibitionSession,
  explainerQualification,
  sessionCheckIn,
  volunteerServiceSetting,
  studentServiceSlot,
  studentServiceAppoint,
  appointSetting,
  appointSettingTimes,
  appointTicket,
  appointOrder,
  appointOrderVisitor,
  appointTeamOrder,
  appointBlackList,
  bookRule,
  bsBookInfo,
  bsBookApproval,
  bsDigitalassetsInfo,
};
