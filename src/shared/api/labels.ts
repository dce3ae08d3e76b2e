/**
 * The Chinese name of every request field, so a refusal says which field is wrong
 * (分片序号必须是数字, not "Invalid input"). One key has one label across calls: where a key
 * means different things in different calls (`id`, `name`, `type`), the label is the common
 * word (编号, 名称, 类型) and the call's own context says the rest.
 *
 * tests/server/validation-walk.test.ts fails when a field of any request schema has no label
 * here, so a new field cannot answer without its name.
 */
export const FIELD_LABELS = {
  account: '登录账号',
  // The collection's data approvals (issue 24).
  applyKind: '申请类型',
  applyReason: '申请理由',
  applyRole: '查看身份',
  applyStatus: '审批状态',
  action: '操作',
  actvityId: '审批编号',
  allDay: '全天',
  archived: '归档状态',
  asCopy: '另存为新文件',
  assigner: '负责人',
  attachmentId: '附件编号',
  attachmentIds: '附件列表',
  attendanceKind: '考勤类型',
  audienceType: '发布范围',
  baseMd5: '打开时的文件版本',
  blockId: '看板编号',
  blockIds: '看板列表',
  category: '类别',
  childNode: '下级节点',
  chunkNumber: '分片序号',
  chunkSize: '分片大小',
  code: '编码',
  collectStatus: '完成状态',
  columnId: '条件字段',
  columnType: '条件字段类型',
  comment: '评论内容',
  commentContent: '评论内容',
  commentId: '评论编号',
  conditionList: '条件列表',
  conditionNodes: '条件分支',
  content: '正文',
  cooperationId: '协作消息编号',
  currentChunkSize: '本分片大小',
  currentPage: '页码',
  date: '日期',
  deadline: '截止时间',
  definition: '流程定义',
  delete: '要删除的评论',
  deleteBatchNum: '删除批次',
  deleteMode: '删除方式',
  deptId: '部门编号',
  deptIds: '部门列表',
  deptName: '部门名称',
  deptRoleList: '部门角色列表',
  deptid: '部门编号',
  description: '描述',
  deviceId: '设备标识',
  directorLevel: '主管级别',
  directorMaxLevel: '最高主管级别',
  downValArr: '条件取值',
  email: '邮箱',
  enabled: '启用状态',
  endDate: '结束日期',
  endTime: '结束时间',
  error: '错误标记',
  examineMode: '审批方式',
  ext1: '要修改的字段（ext1）',
  extendName: '扩展名',
  extractionCode: '提取码',
  fields: '表单字段',
  fileContent: '文件内容',
  fileId: '文件编号',
  fileIds: '文件列表',
  fileName: '文件名称',
  filePath: '路径',
  fileType: '文件类型',
  filename: '文件名称',
  files: '文件列表',
  flowPermission: '发起人范围',
  form: '表单内容',
  format: '字段格式',
  from: '开始日期',
  groupName: '分组名称',
  hidden: '隐藏',
  icon: '图标',
  id: '编号',
  identifier: '文件标识',
  image: '作为图片',
  includeHidden: '包含隐藏',
  ip: '地址',
  isbn: 'ISBN',
  isAdmin: '管理模式（isAdmin）',
  isDir: '是否文件夹（isDir）',
  isFmt: '资源库（isFmt）',
  isMin: '缩略图（isMin）',
  jobId: '解压任务编号',
  key: '选项值',
  keyword: '关键词',
  kidId: '子任务编号',
  kind: '统计类型',
  label: '字段名称',
  lift: '解除停用',
  limit: '数量',
  location: '地点',
  menuKeys: '菜单列表',
  mobile: '手机号',
  module: '模块',
  month: '月份',
  name: '名称',
  nameOrPhone: '姓名或手机号',
  newPassword: '新密码',
  nodeConfig: '流程节点',
  nodeName: '节点名称',
  nodeUserList: '人员列表',
  notice: '通知',
  noticeContent: '通知内容',
  noticeId: '通知编号',
  officePhone: '办公电话',
  oldPassword: '原密码',
  optType: '比较方式',
  options: '选项',
  order: '排序方向',
  ownerId: '所属编号',
  pageCount: '每页条数',
  parentId: '上级编号',
  password: '密码',
  path: '路径',
  phone: '手机号',
  placeholder: '提示文字',
  position: '职务',
  priority: '紧急程度',
  priorityLevel: '优先级',
  projectId: '项目编号',
  proof: '校验值',
  publish: '是否发布',
  reason: '意见',
  receiver: '接收人',
  recoveryFileId: '回收站文件编号',
  recoveryFileIds: '回收站文件列表',
  relativeId: '关联文件编号',
  relativePath: '相对路径',
  remark: '备注',
  remarks: '备注',
  required: '必填',
  result: '结果',
  roleId: '角色编号',
  roleIds: '角色列表',
  roleName: '角色名称',
  roleid: '角色编号',
  settype: '审批人类型',
  shareBatchNum: '分享编号',
  shareBatchNums: '分享列表',
  shareFilePath: '分享内路径',
  shareType: '分享类型',
  showName: '条件名称',
  site: '网站',
  sort: '排序',
  startDate: '开始日期',
  startTime: '开始时间',
  state: '列表类型',
  status: '状态',
  superiorId: '直属上级编号',
  t: '访问凭证',
  tableName: '附件类别（tableName）',
  target: '转交对象',
  targetId: '发起人编号',
  taskId: '任务编号',
  taskName: '任务名称',
  templateId: '审批模板编号',
  title: '标题',
  to: '结束日期',
  totalChunks: '分片数量',
  totalSize: '文件大小',
  totalStorageSize: '存储空间',
  type: '类型',
  unit: '单位',
  unzipMode: '解压方式',
  uploadId: '上传标识',
  userFileId: '文件编号',
  userFileIds: '文件编号列表',
  userId: '人员编号',
  userIds: '人员列表',
  userName: '姓名',
  username: '用户名',
  value: '选项名称',
  version: '版本',
  whole: '含证件号',
  year: '年份',
  // Visitor reservations (shared/api/reservation.ts).
  channel: '渠道',
  open: '开放',
  days: '生成天数',
  force: '强制关闭',
  visitorIds: '参观人编号列表',
  visitors: '参观人',
  // The visitor's side (shared/api/reservation-public.ts).
  smsCode: '验证码',
  wantToken: '返回令牌',
  zdy1: '条件值',
  zdy2: '条件值',
  // The content's public read API (issue 23; shared/api/content-public.ts).
  lang: '语言',
  page: '页码',
  pageSize: '每页条数',
  phase: '展出状态',
  showroomId: '所属展厅',
  chapterId: '所属章节',
  labelCode: '展签编号',
  // The dashboards and 观众记录 (issue 24).
  by: '分组方式',
  source: '来源',
  count: '人数',
  minorCount: '未成年人数',
  teamCount: '团队数',
} as const satisfies Record<string, string>;

export type FieldKey = keyof typeof FIELD_LABELS;

/**
 * Other words that name the same field in a message a schema wrote itself (a folder's
 * `fileName` is 文件夹名称), so such a message is not prefixed with the label again.
 */
export const FIELD_ALIASES: Partial<Record<FieldKey, readonly string[]>> = {
  fileName: ['文件夹名称', '文件名'],
  fileType: ['选择类型'],
  name: ['姓名'],
  username: ['账号'],
  taskName: ['任务标题', '子任务名称'],
  shareBatchNum: ['分享链接'],
  totalSize: ['文件为空'],
  // An id is named by what it points at: 请选择项目, 部门不存在.
  projectId: ['项目'],
  deptId: ['部门'],
  userId: ['人员'],
  roleId: ['角色'],
  templateId: ['模板'],
  superiorId: ['上级'],
  userFileId: ['网盘中的文件'],
  parentId: ['上级'],
};

/**
 * Labels that record definitions (src/shared/records) carry on their fields, added as each
 * definition is declared. A record's field is named by its own label in its own messages (its
 * schema says so); here they only give a key that has no common label its words, and list
 * every word a key goes by, so a message naming 值班电话 is known to name `dutyPhone`.
 */
const RECORD_LABELS = new Map<string, Set<string>>();

export function addRecordLabels(labels: Readonly<Record<string, string>>): void {
  for (const [key, label] of Object.entries(labels)) {
    const held = RECORD_LABELS.get(key) ?? new Set<string>();
    held.add(label);
    RECORD_LABELS.set(key, held);
  }
}

/** Every word that names the field `key` in a message: its label, its aliases, records' labels. */
export function namesOf(key: string): readonly string[] {
  const label = labelOf(key);
  if (!label) return [];
  const words = [label, ...(FIELD_ALIASES[key as FieldKey] ?? []), ...(RECORD_LABELS.get(key) ?? [])];
  return [...new Set(words)];
}

/** The label of a key, or null when the key has none (the walk test keeps that from shipping). */
export function labelOf(key: string): string | null {
  if (Object.hasOwn(FIELD_LABELS, key)) return FIELD_LABELS[key as FieldKey];
  const own = RECORD_LABELS.get(key);
  return own ? [...own][0]! : null;
}
