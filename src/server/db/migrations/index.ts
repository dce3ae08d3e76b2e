import type { Migration } from 'kysely';
import * as m0001 from './0001_org_and_sessions';
import * as m0002 from './0002_drive';
import * as m0003 from './0003_upload';
import * as m0004 from './0004_media';
import * as m0005 from './0005_share';
import * as m0006 from './0006_unzip';
import * as m0007 from './0007_notices';
import * as m0008 from './0008_announcements';
import * as m0009 from './0009_directory_schedule';
import * as m0010 from './0010_approval_templates';
import * as m0011 from './0011_approval_requests';
import * as m0012 from './0012_approval_message_type';
import * as m0013 from './0013_projects';
import * as m0014 from './0014_upload_reservations';
import * as m0015 from './0015_system_log';
import * as m0016 from './0016_records_core';
import * as m0017 from './0017_duty_roster';
import * as m0018 from './0018_wk_dynamic';
import * as m0019 from './0019_attendance_menu_keys';
import * as m0020 from './0020_business_data';
import * as m0021 from './0021_download_center';
import * as m0025 from './0025_staff_registration';
import * as m0026 from './0026_museum_map';
import * as m0027 from './0027_volunteers_people';
import * as m0028 from './0028_volunteer_service';
import * as m0029 from './0029_volunteer_accounts';
import * as m0030 from './0030_volunteer_groups';
import * as m0031 from './0031_reservations';
import * as m0032 from './0032_visitor_public';
import * as m0033 from './0033_reservation_venue';
import * as m0035 from './0035_team_documents';
import * as m0036 from './0036_books';
import * as m0040 from './0040_book_reminders';
import * as m0041 from './0041_content';
import * as m0042 from './0042_content_web';
import * as m0043 from './0043_content_views';
import * as m0044 from './0044_applet_pages';
import * as m0045 from './0045_collection';
import * as m0046 from './0046_image_search';
import * as m0047 from './0047_repair';
import * as m0048 from './0048_activities';
import * as m0049 from './0049_tour_record';
import * as m0051 from './0051_folder_count';
import * as m0060 from './0060_dav';

/**
 * The ordered list of migrations. A static map (not a directory scan) so the server runs the
 * same under tsx, a bundle or a test runner. Append only.
 */
export const migrations: Record<string, Migration> = {
  '0001_org_and_sessions': m0001,
  '0002_drive': m0002,
  '0003_upload': m0003,
  '0004_media': m0004,
  '0005_share': m0005,
  '0006_unzip': m0006,
  '0007_notices': m0007,
  '0008_announcements': m0008,
  '0009_directory_schedule': m0009,
  '0010_approval_templates': m0010,
  '0011_approval_requests': m0011,
  '0012_approval_message_type': m0012,
  '0013_projects': m0013,
  '0014_upload_reservations': m0014,
  '0015_system_log': m0015,
  '0016_records_core': m0016,
  '0017_duty_roster': m0017,
  '0018_wk_dynamic': m0018,
  '0019_attendance_menu_keys': m0019,
  '0020_business_data': m0020,
  '0021_download_center': m0021,
  '0025_staff_registration': m0025,
  '0026_museum_map': m0026,
  '0027_volunteers_people': m0027,
  '0028_volunteer_service': m0028,
  '0029_volunteer_accounts': m0029,
  '0030_volunteer_groups': m0030,
  '0031_reservations': m0031,
  '0032_visitor_public': m0032,
  '0033_reservation_venue': m0033,
  '0035_team_documents': m0035,
  '0036_books': m0036,
  '0040_book_reminders': m0040,
  '0041_content': m0041,
  '0042_content_web': m0042,
  '0043_content_views': m0043,
  '0044_applet_pages': m0044,
  '0045_collection': m0045,
  '0046_image_search': m0046,
  '0047_repair': m0047,
  '0048_activities': m0048,
  '0049_tour_record': m0049,
  '0051_folder_count': m0051,
  '0060_dav': m0060,
};
