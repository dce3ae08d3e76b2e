import type { Generated } from 'kysely';

/**
 * Table types for Kysely. Times are integer milliseconds since the epoch on both SQLite and
 * PostgreSQL (bigint), so comparisons need no dialect-specific date functions.
 */
export interface UserTable {
  id: Generated<number>;
  account: string;
  user_name: string;
  phone: string | null;
  avatar: string | null;
  password_hash: string;
  enabled: number;
  superior_id: number | null;
  created_at: number;
  updated_at: number;
  /** 1 while an initial password (a volunteer's, migration 0029) waits to be changed. */
  must_change_password: Generated<number>;
}
export interface DepartmentTable {
  id: Generated<number>;
  name: string;
  parent_id: number | null;
  sort: number;
}
export interface UserDepartmentTable {
  user_id: number;
  dept_id: number;
}
export interface RoleTable {
  id: Generated<number>;
  code: string;
  name: string;
  remark: string;
  builtin: number;
}
export interface UserRoleTable {
  user_id: number;
  role_id: number;
}
export interface RoleMenuTable {
  role_id: number;
  menu_key: string;
}
export interface SessionTable {
  token_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  ip: string;
}
export interface LoginAttemptTable {
  key: string;
  failures: number;
  locked_until: number;
  updated_at: number;
}
export interface IdempotencyTable {
  user_id: number;
  key: string;
  fingerprint: string;
  status_code: number | null;
  response: string | null;
  created_at: number;
}

export interface BlobTable {
  id: Generated<number>;
  md5: string;
  size: number;
  created_at: number;
}
/** The drive's logical tree. `space`: 'u:<userId>', 'res' (其他资源) or 'hd' (高清图片). */
export interface UserFileTable {
  id: Generated<number>;
  space: string;
  file_path: string;
  file_name: string;
  extend_name: string;
  is_dir: number;
  blob_id: number | null;
  file_size: number;
  upload_time: number;
  delete_flag: number;
  delete_time: number | null;
  delete_batch_num: string | null;
  image_width: number | null;
  image_height: number | null;
  created_by: number;
}
/** Live entries and sub-folders per folder, kept by triggers on user_file (migration 0051). */
export interface FolderCountTable {
  space: string;
  file_path: string;
  total: number;
  dirs: number;
}
export interface RecoveryTable {
  id: Generated<number>;
  space: string;
  user_file_id: number;
  delete_batch_num: string;
  delete_time: number;
  deleted_by: number;
}
export interface StorageQuotaTable {
  user_id: number;
  total_bytes: number;
}

/** An upload in progress (migration 0003); chunks are files under DATA_DIR/uploads/<id>/. */
export interface UploadSessionTable {
  id: string;
  user_id: number;
  space: string;
  identifier: string;
  file_path: string;
  relative_path: string;
  filename: string;
  total_size: number;
  total_chunks: number;
  chunk_size: number;
  done_user_file_id: number | null;
  proof_nonce: string | null;
  proof_start: number | null;
  proof_end: number | null;
  created_at: number;
  updated_at: number;
  /** Room held from the first chunk until completion, cancel or sweep (migration 0014). */
  reserved_bytes: Generated<number>;
}
export interface UploadChunkTable {
  session_id: string;
  chunk_number: number;
  size: number;
}

/** Music tags of one blob (migration 0004); `ok` 0 marks a parse that failed. */
export interface MediaInfoTable {
  blob_id: number;
  ok: number;
  version: number;
  title: string | null;
  artist: string | null;
  album: string | null;
  album_image: string | null;
  track_length: number | null;
  lyrics: string | null;
  created_at: number;
}

/** Perceptual hashes of one image's content (migration 0046, README "Image search"). */
export interface ImageHashTable {
  id: Generated<number>;
  md5: string;
  ok: number;
  version: number;
  hashes: string;
  width: number | null;
  height: number | null;
  taken_at: number | null;
  tags: string;
  created_at: number;
}

/** A share by link (migration 0005). status 0 live, 1 revoked. */
export interface ShareTable {
  id: Generated<number>;
  batch_num: string;
  owner_id: number;
  space: string;
  share_type: number;
  extraction_code: string | null;
  remarks: string;
  share_time: number;
  end_time: number;
  status: number;
  revoked_at: number | null;
  download_count: number;
}
/** A share's items, snapshotted at share time; `share_file_path` is the folder inside the share. */
export interface ShareFileTable {
  id: Generated<number>;
  share_id: number;
  user_file_id: number;
  share_file_path: string;
  file_name: string;
  extend_name: string;
  is_dir: number;
  is_top: number;
}
/** Access bought with a right extraction code, by SHA-256 of the cookie's token. */
export interface ShareGrantTable {
  token_hash: string;
  share_id: number;
  expires_at: number;
}
/** Failed extraction-code attempts per (share, client); client '*' counts every client. */
export interface ShareAttemptTable {
  share_id: number;
  client: string;
  failures: number;
  window_start: number;
  locked_until: number | null;
}
/** A notice for one person; status 1 unread, 2 read. */
export interface NoticeTable {
  id: Generated<number>;
  user_id: number;
  notice_content: string;
  status: number;
  source: string;
  created_by: number | null;
  created_at: number;
  /** Where opening it goes in the app (migration 0007), or null. */
  link: string | null;
}

/** A collaboration item for one person (migration 0007); type 1 text, 2 task checklist; status 1 unread, 2 read. */
export interface CooperationTable {
  id: Generated<number>;
  user_id: number;
  title: string;
  content: string;
  type: number;
  project_id: number | null;
  task_id: number | null;
  task_deleted: number;
  status: number;
  created_by: number | null;
  created_at: number;
}

/** An approval that needs one person (migration 0007); status 1 awaiting me, 10 copied to me; open 1 while listed. */
export interface ApprovalMessageTable {
  id: Generated<number>;
  user_id: number;
  actvity_id: number;
  title: string;
  type: string;
  status: number;
  open: number;
  start_time: number;
  created_by: number | null;
  created_at: number;
}

/** An unzip job (migration 0006); status 'running' | 'done' | 'failed', names a JSON list. */
export interface UnzipJobTable {
  id: string;
  user_id: number;
  space: string;
  user_file_id: number;
  archive_name: string;
  target_path: string;
  unzip_mode: number;
  status: string;
  message: string;
  entries_done: number;
  entries_total: number;
  bytes_done: number;
  bytes_total: number;
  names: string;
  created_at: number;
  finished_at: number | null;
}

/** A museum announcement (migration 0008); audience 'all' | 'dept' | 'user'; status 0 draft, 1 published, 2 cancelled. */
export interface AnnouncementTable {
  id: Generated<number>;
  title: string;
  /** Sanitized HTML. */
  content: string;
  audience: string;
  status: number;
  created_by: number | null;
  created_at: number;
  updated_at: number;
  published_at: number | null;
}
/** The departments or people an announcement is for; kind 'dept' | 'user'. */
export interface AnnouncementTargetTable {
  announcement_id: number;
  kind: string;
  target_id: number;
}
/** Uploaded bytes for a record (migration 0008); record_id null until the record is saved with it. */
export interface AttachmentTable {
  id: Generated<number>;
  table_name: string;
  record_id: number | null;
  name: string;
  size: number;
  md5: string;
  /** 1: an editor image, served inline as `mime`. */
  inline: Generated<number>;
  mime: string | null;
  uploaded_by: number | null;
  created_at: number;
}
/** The directory's own rows (migration 0009): an account's extension (user_id) or an external entry. */
export interface AddressBookTable {
  id: Generated<number>;
  user_id: number | null;
  name: string;
  dept_id: number | null;
  mobile: string;
  position: string;
  office_phone: string;
  email: string;
  sort: number;
  remark: string;
  hidden: number;
  updated_by: number | null;
  created_at: number;
  updated_at: number;
}

/** One item of a person's schedule (migration 0009); all_day 1 spans whole museum days. */
export interface ScheduleTable {
  id: Generated<number>;
  user_id: number;
  title: string;
  start_at: number;
  end_at: number;
  all_day: number;
  location: string;
  remark: string;
  created_at: number;
  updated_at: number;
}

/** An approval template (migration 0010); category 'normal' | 'gongwen'; draft is a definition's JSON. */
export interface ApprovalTemplateTable {
  id: Generated<number>;
  name: string;
  icon: string;
  group_name: string;
  category: string;
  enabled: number;
  sort: number;
  draft: string;
  current_version: number | null;
  created_by: number | null;
  created_at: number;
  updated_at: number;
}

/** A published, frozen workflow version of a template (migration 0010). */
export interface WorkflowVersionTable {
  id: Generated<number>;
  template_id: number;
  version: number;
  definition: string;
  published_by: number | null;
  published_at: number;
}

/** A started approval request (migration 0011); id is the spec's actvityId; form and state are JSON. */
export interface ApprovalRequestTable {
  id: Generated<number>;
  template_id: number;
  version: number;
  starter_id: number;
  title: string;
  form: string;
  state: string;
  status: number;
  priority: number;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

/** A comment on a request (migration 0011); deleted 1 hides it. */
export interface ApprovalCommentTable {
  id: Generated<number>;
  request_id: number;
  user_id: number;
  content: string;
  deleted: number;
  created_at: number;
}

/** A copy-to recipient opened the request (migration 0011). */
export interface ApprovalReadTable {
  request_id: number;
  user_id: number;
  read_at: number;
}

/** A project (migration 0013); type exhibition | conservation | event | other; dates 'yyyy-MM-dd'. */
export interface ProjectTable {
  id: Generated<number>;
  name: string;
  type: string;
  start_date: string | null;
  end_date: string | null;
  description: Generated<string>;
  owner_id: number;
  archived: Generated<number>;
  created_by: number | null;
  created_at: number;
  updated_at: number;
}
/** A collaborator of a project (migration 0013). */
export interface ProjectUserTable {
  project_id: number;
  user_id: number;
  added_by: number | null;
  created_at: number;
}
/** A board (column) of a project (migration 0013); sort dense 0..n-1. */
export interface ProjectBlockTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  sort: number;
  created_at: number;
}
/** A task (block_id set) or subtask (parent_task_id set) (migration 0013); collect_status 1 open, 2 done. */
export interface ProjectTaskTable {
  id: Generated<number>;
  project_id: number;
  block_id: number | null;
  parent_task_id: number | null;
  name: string;
  description: Generated<string>;
  deadline: string | null;
  priority: Generated<number>;
  assigner: number | null;
  collect_status: Generated<number>;
  sort: number;
  version: Generated<number>;
  created_by: number | null;
  updated_by: number | null;
  created_at: number;
  updated_at: number;
}
/** One history line of a task (migration 0013); task_id null for board changes. */
export interface ProjectHistoryTable {
  id: Generated<number>;
  project_id: number;
  task_id: number | null;
  user_id: number | null;
  action: string;
  created_at: number;
}
/** A comment on a task (migration 0013); sanitized HTML. */
export interface ProjectCommentTable {
  id: Generated<number>;
  task_id: number;
  user_id: number | null;
  content: string;
  created_at: number;
}
/** A task's file (migration 0013): an attachment of table 'project'; source upload | drive | project. */
export interface ProjectTaskFileTable {
  attachment_id: number;
  task_id: number;
  source: string;
  drive_file_id: number | null;
  added_by: number | null;
  created_at: number;
}

/** An unfinished attachment chunk upload and the size it declared (migration 0014). */
export interface AttachUploadTable {
  user_id: number;
  upload_id: string;
  total_size: number;
  created_at: number;
  updated_at: number;
}

/** The system log (migration 0015): append only, pruned after LOG_RETENTION_DAYS. */
export interface SystemLogTable {
  id: Generated<number>;
  time: number;
  user_id: number | null;
  user_name: string;
  ip: string;
  user_agent: string;
  module: string;
  action: string;
  target_table: string | null;
  target_id: string | null;
  method: string;
  path: string;
  params: string | null;
  result: number;
  error_message: string | null;
  duration_ms: number;
}
/** The base columns of every record table (migration 0016; records-design §1). */
interface RecordBase {
  id: Generated<number>;
  create_time: number;
  create_by: number | null;
  update_time: number;
  update_by: number | null;
  del_flag: Generated<number>;
}
/** One status change of a record (migration 0016). */
export interface BsStatusLogTable {
  id: Generated<number>;
  table_name: string;
  record_id: number;
  action: string;
  from_status: number | null;
  to_status: number;
  operator_id: number | null;
  comment: Generated<string>;
  time: number;
}
/** A dictionary (migration 0016). */
export interface DictTypeTable extends RecordBase {
  dict_key: string;
  dict_name: string;
  remark: Generated<string>;
  is_system: Generated<number>;
}
/** A dictionary item (migration 0016); unique (dict_key, value). */
export interface DictItemTable extends RecordBase {
  dict_key: string;
  label: string;
  value: string;
  parent_value: Generated<string>;
  sort: number | null;
  status: Generated<number>;
  remark: Generated<string>;
  is_system: Generated<number>;
}
/** A duty-roster row (migration 0017); staff_ids ',3,5,'. */
export interface DutyRosterTable extends RecordBase {
  duty_date: string;
  duty_type: string;
  shift: string;
  leader_id: number | null;
  staff_ids: Generated<string>;
  duty_phone: Generated<string>;
  remark: Generated<string>;
}
/** Museum news (migration 0018). */
export interface WkDynamicTable extends RecordBase {
  title: string;
  dept_id: number | null;
  summary: Generated<string>;
  content: Generated<string>;
  status: Generated<number>;
  publish_time: number | null;
}
/** A self-registration (migration 0025); status 0 待审核, 1 已通过, 2 已拒绝. */
export interface StaffRegistrationTable extends RecordBase {
  user_name: string;
  phone: string;
  dept_id: number | null;
  remark: Generated<string>;
  apply_time: number;
  status: Generated<number>;
  apply_ip: Generated<string>;
  user_id: number | null;
  granted_roles: Generated<string>;
  refuse_reason: Generated<string>;
  password_hash: string;
}
/**
 * Volunteers' tables (migration 0027; src/shared/records/volunteer): the engine reads and writes
 * them through the definitions, so only the columns hand-written code touches are typed closely.
 */
type VolunteerRow = RecordBase & Record<string, unknown>;
export interface VolunteerAdultTable extends RecordBase {
  name: string;
  phone: Generated<string>;
  volunteer_no: Generated<string>;
  user_id: number | null;
  join_date: Generated<string>;
  status: Generated<number>;
  no_show_count: Generated<number>;
  [column: string]: unknown;
}
export interface VolunteerRecruitTable extends RecordBase {
  title: string;
  total: number;
  used: Generated<number>;
  open: Generated<number>;
  status: Generated<number>;
  signup_start: number | null;
  signup_end: number | null;
  activity_start: number | null;
  target_type: Generated<number>;
  need_review: Generated<number>;
  [column: string]: unknown;
}
/** A floor (or the site) of the museum map (migration 0026). */
export interface MuseumFloorTable extends RecordBase {
  name: string;
  code: string;
  plan: Generated<string>;
  sort: number | null;
}
/** A hall on its floor's plan (migration 0026); map_x, map_y 0–100 (%). */
export interface MuseumHallTable extends RecordBase {
  name: string;
  floor: string;
  hall_no: Generated<string>;
  open_state: Generated<number>;
  map_x: number | null;
  map_y: number | null;
  intro: Generated<string>;
  sort: number | null;
}

/** A person's app password for WebDAV clients (migration 0060). */
export interface AppPasswordTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  lookup: string;
  hash: string;
  created_at: number;
  last_used_at: number | null;
  last_used_ip: string | null;
  revoked_at: number | null;
}

/** A WebDAV dead property of a drive row (migration 0060). */
export interface DavPropertyTable {
  user_file_id: number;
  ns: string;
  name: string;
  /** The value as an XML fragment (server/modules/dav/xml.ts writes and reads it). */
  value: string;
}

/** A WebDAV write lock (migration 0060). `depth` 0 or -1 (infinity). */
export interface DavLockTable {
  token: string;
  space: string;
  path: string;
  depth: number;
  exclusive: number;
  owner: string;
  user_id: number;
  timeout_s: number;
  created_at: number;
  expires_at: number;
}

/** A hidden macOS metadata file (`._x`, `.DS_Store`) written over WebDAV (migration 0060). */
export interface DavScratchTable {
  id: Generated<number>;
  space: string;
  file_path: string;
  name: string;
  content: Buffer;
  size: number;
  created_by: number;
  updated_at: number;
  expires_at: number;
}
/** The office's month closing (migration 0020). */
export interface BusinessMonthTable extends RecordBase {
  year: number;
  month: number;
  status: Generated<number>;
  remark: Generated<string>;
}
/** One person's month of business data (migration 0020); items JSON. */
export interface BusinessDataPersonalTable extends RecordBase {
  user_id: number;
  year: number;
  month: number;
  items: Generated<string>;
  work_summary: Generated<string>;
  next_plan: Generated<string>;
}
/** One department's month of business data (migration 0020); indicators JSON. */
export interface BusinessDataDeptTable extends RecordBase {
  dept_id: number;
  year: number;
  month: number;
  indicators: Generated<string>;
  summary: Generated<string>;
}
/** A department's work plan (migration 0020); items JSON. */
export interface BusinessDataPlanTable extends RecordBase {
  dept_id: number;
  title: string;
  year: number;
  period: number;
  period_no: number | null;
  items: Generated<string>;
  status: Generated<number>;
}
/** A document of the download centre (migration 0021); file ',12,'. */
export interface DownloadDocTable extends RecordBase {
  title: string;
  category: string;
  file: Generated<string>;
  description: Generated<string>;
  status: Generated<number>;
  publish_time: number | null;
  download_count: Generated<number>;
}
/** Who downloaded which document on which museum day (migration 0021). */
export interface DownloadLogTable {
  doc_id: number;
  user_id: number;
  day: string;
  time: number;
}

/** 志愿服务记录 (migration 0028): the one source of volunteer hours, in whole minutes. */
export interface VolunteerServiceRecordTable extends RecordBase {
  volunteer_id: number | null;
  volunteer_kind: Generated<number>;
  service_type: number;
  service_date: string;
  start_time: string;
  end_time: string;
  service_minutes: Generated<number>;
  content: Generated<string>;
  location: Generated<string>;
  audience_count: number | null;
  source_table: Generated<string>;
  source_id: number | null;
  status: Generated<number>;
  confirm_by: number | null;
  confirm_time: number | null;
  reject_reason: Generated<string>;
}
/** 志愿服务展览 (migration 0028); `qr_version` revokes the hall's printed codes. */
export interface VolunteerExhibitionTable extends RecordBase {
  name: string;
  hall: string;
  start_date: string;
  end_date: Generated<string>;
  explain_minutes: Generated<number>;
  explain_times: Generated<string>;
  need_qualification: Generated<number>;
  status: Generated<number>;
  intro: Generated<string>;
  qr_version: Generated<number>;
}
/** 讲解场次 (migration 0028); unique (exhibition, day, start). */
export interface VolunteerSessionTable extends RecordBase {
  exhibition_id: number;
  service_date: string;
  start_time: string;
  end_time: string;
  type: Generated<number>;
  quota: Generated<number>;
  recruit_open: Generated<number>;
  explainer_ids: Generated<string>;
  team_order_id: number | null;
  status: Generated<number>;
  cancel_reason: Generated<string>;
}
/** 讲解资格 (migration 0028); unique (exhibition, volunteer) and certificate number. */
export interface VolunteerQualificationTable extends RecordBase {
  exhibition_id: number;
  volunteer_id: number | null;
  trial_time: number | null;
  trial_score: number | null;
  examiner_ids: Generated<string>;
  comment: Generated<string>;
  cert_no: Generated<string>;
  issue_date: Generated<string>;
  status: Generated<number>;
}
/** 场次签到 (migration 0028); unique (session, volunteer) and each client id. */
export interface VolunteerCheckInTable extends RecordBase {
  detail_id: number;
  volunteer_id: number | null;
  role: Generated<number>;
  check_in_time: number | null;
  check_out_time: number | null;
  source: number | null;
  service_minutes: number | null;
  device_in_time: number | null;
  device_out_time: number | null;
  clock_skew_ms: number | null;
  flags: Generated<string>;
  remark: Generated<string>;
  status: Generated<number>;
  client_in_id: Generated<string>;
  client_out_id: Generated<string>;
  device_id: Generated<string>;
}
/** 志愿服务设置 (migration 0028): one row per type; empty numbers take the defaults. */
export interface VolunteerServiceSettingTable extends RecordBase {
  type: number;
  intro: Generated<string>;
  open_weekdays: Generated<string>;
  sessions: Generated<string>;
  advance_days: number | null;
  cancel_before_hours: number | null;
  min_age: number | null;
  max_age: number | null;
  trainee_hours: number | null;
  trainee_months: number | null;
  annual_min_hours: number | null;
  pre_duty_training_hours: number | null;
  next_hall_hours: number | null;
  hours_unit: number | null;
  max_hours_per_day: number | null;
  early_minutes: number | null;
  late_minutes: number | null;
  auto_confirm_hours: Generated<number>;
  no_show_block_count: number | null;
}
/** 学生服务时段 (migration 0028): a capacity row. */
export interface VolunteerStudentSlotTable extends RecordBase {
  service_date: string;
  start_time: string;
  end_time: string;
  total: number;
  used: Generated<number>;
  open: Generated<number>;
}
/** 学生服务预约 (migration 0028): takes `persons` places of a slot. */
export interface VolunteerStudentAppointTable extends RecordBase {
  slot_id: number;
  volunteer_id: number | null;
  persons: Generated<number>;
  remark: Generated<string>;
  status: Generated<number>;
  cancel_reason: Generated<string>;
}
/** The Ed25519 key pair signing the halls' check-in codes (migration 0028), row id 1. */
export interface VolunteerQrKeyTable {
  id: number;
  public_key: string;
  private_key: string;
  create_time: number;
}

/** 门票 (migration 0031): a date × slot and its place counters (README "Visitor reservations"). */
export interface AppointTicketTable extends RecordBase {
  date: string;
  time_id: number;
  start_time: string;
  end_time: string;
  total_sum: Generated<number>;
  surplus_sum: Generated<number>;
  booked_sum: Generated<number>;
  team_total: Generated<number>;
  team_surplus: Generated<number>;
  team_booked: Generated<number>;
  is_open: Generated<number>;
  close_reason: Generated<string>;
  /** 1 主馆, 2 儿童体验馆 (migration 0033), from the template. */
  venue: Generated<number>;
}
/** 书刊 (migration 0036): only the columns the book module reads by hand; the engine reads the rest. */
export interface BsBookInfoTable extends RecordBase {
  type: Generated<number>;
  title: string;
  location: string;
  total_count: Generated<number>;
  reserved_count: Generated<number>;
  lent_count: Generated<number>;
  lend_mode: Generated<number>;
  status: Generated<number>;
}
/** 借阅/领用申请 (migration 0036). */
export interface BsBookApprovalTable extends RecordBase {
  book_id: number;
  apply_type: Generated<number>;
  applicant_id: number | null;
  dept_id: number | null;
  quantity: Generated<number>;
  borrow_days: number | null;
  reason: Generated<string>;
  status: Generated<number>;
  approver_id: number | null;
  approve_time: number | null;
  approve_comment: Generated<string>;
  pickup_deadline: Generated<string>;
  receive_time: number | null;
  due_date: Generated<string>;
  deferred_days: number | null;
  defer_reason: Generated<string>;
  defer_count: Generated<number>;
  return_time: number | null;
  return_condition: Generated<number>;
  return_remark: Generated<string>;
}
/** A reminder sent for a loan on a museum day (migration 0040): the key is once a day per loan. */
export interface BookReminderTable {
  approval_id: number;
  day: string;
  /** `soon` (3 days before the due date) or `overdue`. */
  kind: string;
  due_date: string;
  created_at: number;
}
/** 借阅规则 (migration 0036): one row. */
export interface BsBookRuleTable extends RecordBase {
  max_active: number | null;
  max_borrow_days: number | null;
  max_defers: number | null;
  max_defer_days: number | null;
  pickup_days: number | null;
  max_receive: number | null;
}
/**
 * A website and mini-program content row (migration 0041; src/shared/records/content): the
 * columns every content table has, which the content module reads by hand; the engine reads the
 * rest from the definitions.
 */
export interface ContentTable extends RecordBase {
  title: string;
  sort: Generated<number>;
  status: Generated<number>;
  publish_time: number | null;
  view_count: Generated<number>;
  [column: string]: unknown;
}
/** 关联内容 (migration 0041): an exhibition's video or good, in order. */
export interface BsRelationTable extends RecordBase {
  main_table: string;
  main_id: number;
  sub_table: string;
  sub_id: number;
  note: Generated<string>;
  sort: Generated<number>;
}
/** Visits counted per content row, museum day and kind (migration 0043; content/views.ts). */
export interface ContentViewDayTable {
  record: string;
  row_id: number;
  day: string;
  /** 1 浏览 (a detail read), 2 播放 (a media play). */
  kind: number;
  n: number;
}
/** Who was counted today: a salted hash, never an address (migration 0043). */
export interface ContentViewSeenTable {
  day: string;
  record: string;
  row_id: number;
  kind: number;
  visitor: string;
}
/** The day's random salt of those hashes, deleted with them (migration 0043). */
export interface ContentViewSaltTable {
  day: string;
  salt: string;
}
/** 个人预约 (migration 0031). */
export interface AppointOrderTable extends RecordBase {
  order_no: string;
  ticket_id: number;
  date: string;
  start_time: string;
  end_time: string;
  contact_name: string;
  contact_phone: string;
  visitor_count: number;
  channel: Generated<number>;
  status: Generated<number>;
  verify_code: string;
  cancel_time: number | null;
  cancel_reason: Generated<string>;
  finish_time: number | null;
  /** 1 主馆, 2 儿童体验馆 (migration 0033), from the ticket. */
  venue: Generated<number>;
}
/** 观众记录 (migration 0049): visitors admitted per museum day and source (README "Dashboards"). */
export interface TourRecordTable extends RecordBase {
  date: string;
  source: number;
  count: number;
  minor_count: Generated<number>;
  team_count: Generated<number>;
  ref_table: Generated<string>;
  ref_id: number | null;
  remark: Generated<string>;
}
/** 参观人 (migration 0031): day_key holds 'date|idType|idNumber' while the booking is live. */
export interface AppointOrderVisitorTable extends RecordBase {
  order_id: number | null;
  team_order_id: number | null;
  date: string;
  name: string;
  id_type: Generated<number>;
  id_number: string;
  is_minor: Generated<number>;
  check_status: Generated<number>;
  check_time: number | null;
  day_key: string | null;
  /** 1 主馆, 2 儿童体验馆 (migration 0033); a venue-2 day_key ends in '|2'. */
  venue: Generated<number>;
}
/** The visitor's side (migration 0032): one-time codes, visitor sessions, their Idempotency-Keys. */
export interface AppointVisitorCodeTable {
  phone: string;
  code_hash: string;
  expires_at: number;
  attempts: Generated<number>;
  sent_at: number;
  day: string;
  day_count: Generated<number>;
}
export interface AppointVisitorSessionTable {
  token_hash: string;
  phone: string;
  expires_at: number;
  create_time: number;
}
export interface AppointVisitorRequestTable {
  phone: string;
  idem_key: string;
  fingerprint: string;
  response: string | null;
  created_at: number;
}
/** 黑名单 (migration 0031). */
export interface AppointBlackListTable extends RecordBase {
  name: string;
  id_type: Generated<number>;
  id_number: string;
  reason: number;
  remark: Generated<string>;
  auto: Generated<number>;
  no_show_count: number | null;
  start_date: string;
  end_date: Generated<string>;
  status: Generated<number>;
  release_reason: Generated<string>;
}
export interface DB {
  user: UserTable;
  department: DepartmentTable;
  user_department: UserDepartmentTable;
  role: RoleTable;
  user_role: UserRoleTable;
  role_menu: RoleMenuTable;
  session: SessionTable;
  login_attempt: LoginAttemptTable;
  idempotency: IdempotencyTable;
  blob: BlobTable;
  user_file: UserFileTable;
  folder_count: FolderCountTable;
  recovery: RecoveryTable;
  storage_quota: StorageQuotaTable;
  upload_session: UploadSessionTable;
  upload_chunk: UploadChunkTable;
  media_info: MediaInfoTable;
  image_hash: ImageHashTable;
  share: ShareTable;
  share_file: ShareFileTable;
  share_grant: ShareGrantTable;
  share_attempt: ShareAttemptTable;
  notice: NoticeTable;
  unzip_job: UnzipJobTable;
  cooperation: CooperationTable;
  approval_message: ApprovalMessageTable;
  announcement: AnnouncementTable;
  announcement_target: AnnouncementTargetTable;
  attachment: AttachmentTable;
  attach_upload: AttachUploadTable;
  address_book: AddressBookTable;
  schedule: ScheduleTable;
  approval_template: ApprovalTemplateTable;
  workflow_version: WorkflowVersionTable;
  approval_request: ApprovalRequestTable;
  approval_comment: ApprovalCommentTable;
  approval_read: ApprovalReadTable;
  project: ProjectTable;
  project_user: ProjectUserTable;
  project_block: ProjectBlockTable;
  project_task: ProjectTaskTable;
  project_history: ProjectHistoryTable;
  project_comment: ProjectCommentTable;
  project_task_file: ProjectTaskFileTable;
  system_log: SystemLogTable;
  bs_status_log: BsStatusLogTable;
  dict_type: DictTypeTable;
  dict_item: DictItemTable;
  duty_roster: DutyRosterTable;
  wk_dynamic: WkDynamicTable;
  app_password: AppPasswordTable;
  dav_property: DavPropertyTable;
  dav_lock: DavLockTable;
  dav_scratch: DavScratchTable;
  staff_registration: StaffRegistrationTable;
  museum_floor: MuseumFloorTable;
  museum_hall: MuseumHallTable;
  business_month: BusinessMonthTable;
  business_data_personal: BusinessDataPersonalTable;
  business_data_dept: BusinessDataDeptTable;
  business_data_plan: BusinessDataPlanTable;
  download_doc: DownloadDocTable;
  download_log: DownloadLogTable;
  volunteer_group: VolunteerRow;
  /** group_ids (0030): 意向服务组 as ',3,7,'; group_id (0027) is no longer read or written. */
  volunteer_application: VolunteerRow;
  volunteer_adult: VolunteerAdultTable;
  volunteer_school_group: VolunteerRow;
  volunteer_student: VolunteerRow;
  volunteer_notice: VolunteerRow;
  volunteer_recruit: VolunteerRecruitTable;
  volunteer_recruit_sign: VolunteerRow;
  volunteer_service_record: VolunteerServiceRecordTable;
  volunteer_exhibition: VolunteerExhibitionTable;
  volunteer_session: VolunteerSessionTable;
  volunteer_qualification: VolunteerQualificationTable;
  volunteer_check_in: VolunteerCheckInTable;
  volunteer_service_setting: VolunteerServiceSettingTable;
  volunteer_qr_key: VolunteerQrKeyTable;
  volunteer_student_slot: VolunteerStudentSlotTable;
  volunteer_student_appoint: VolunteerStudentAppointTable;
  /** Visitor reservations (0031): settings, templates and team orders are read through the engine. */
  appoint_setting: VolunteerRow;
  appoint_setting_times: VolunteerRow;
  appoint_ticket: AppointTicketTable;
  appoint_order: AppointOrderTable;
  appoint_order_visitor: AppointOrderVisitorTable;
  appoint_team_order: VolunteerRow;
  appoint_black_list: AppointBlackListTable;
  appoint_visitor_code: AppointVisitorCodeTable;
  bs_book_info: BsBookInfoTable;
  bs_book_approval: BsBookApprovalTable;
  book_reminder: BookReminderTable;
  bs_book_rule: BsBookRuleTable;
  appoint_visitor_session: AppointVisitorSessionTable;
  /** Website and mini-program content (0041). */
  bs_audio_video: ContentTable;
  bs_carousel: ContentTable;
  bs_guide_showroom: ContentTable;
  bs_guide_chapter: ContentTable;
  bs_guide_unit: ContentTable;
  bs_exhibition: ContentTable;
  en_exhibition: ContentTable;
  bs_digital_exhibition: ContentTable;
  en_digital_exhibition: ContentTable;
  bs_science: ContentTable;
  bs_classroom: ContentTable;
  bs_electic_wave: ContentTable;
  bs_culturalcreative: ContentTable;
  en_culturalcreative: ContentTable;
  bs_relation: BsRelationTable;
  en_news: ContentTable;
  en_showroom: ContentTable;
  appoint_visitor_request: AppointVisitorRequestTable;
  /** Content view and play counts (0043). */
  content_view_day: ContentViewDayTable;
  content_view_seen: ContentViewSeenTable;
  content_view_salt: ContentViewSaltTable;
  /** 观众记录 (0049, issue 24 dashboards). */
  tour_record: TourRecordTable;
}
