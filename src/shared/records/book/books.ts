import { defineRecord, f, type Row, type StatusOption } from '../define';
import { addDays, museumDate } from '../../rules/museum-time';
import { clcProblem, cnSerialProblem, isbnProblem, issnProblem, normalizeIsbn } from '../validators';

/**
 * Book lending (issue 22; research/records-design.md §4; office.md §2 Books, §4, §7 `/book`):
 * 借阅规则 `bookRule` (a singleton), the catalogue 图书/期刊/出版物 `bsBookInfo` and the
 * applications 借阅/领用申请 `bsBookApproval`. The engine serves their lists, details, exports
 * and transitions; the rules that read other rows (stock, a reader's caps, overdue loans,
 * duplicates, the pick-up deadline) are the effects and calls of src/server/modules/book/
 * (README "Book lending").
 *
 * **Stock.** A catalogue row keeps `totalCount` (馆藏数, typed by the librarian) and two
 * counters only the server moves: `reservedCount` (approved, waiting to be picked up) and
 * `lentCount` (on loan). What can still be lent is their difference (`availableOf`). Approving
 * reserves by one conditional UPDATE (`… WHERE total_count - reserved_count - lent_count >= n`),
 * so two approvals can never both take the last copy; picking up moves the reservation to a loan
 * (borrowing) or out of the holding (领用: the museum's publications are given away); returning
 * ends the loan, and a lost book leaves the holding.
 */

export const BOOK_TYPES: readonly StatusOption[] = [
  { value: 1, label: '图书' },
  { value: 2, label: '期刊' },
  { value: 3, label: '出版物' },
];

export const FREQUENCIES: readonly StatusOption[] = [
  { value: 1, label: '周刊' },
  { value: 2, label: '旬刊' },
  { value: 3, label: '半月刊' },
  { value: 4, label: '月刊' },
  { value: 5, label: '双月刊' },
  { value: 6, label: '季刊' },
  { value: 7, label: '半年刊' },
  { value: 8, label: '年刊' },
];

export const BINDINGS: readonly StatusOption[] = [
  { value: 1, label: '平装' },
  { value: 2, label: '精装' },
];

/** 流通方式: how a row circulates; it must match the application's type (借阅 / 领用). */
export const LEND_MODES: readonly StatusOption[] = [
  { value: 1, label: '可借阅', color: 'green' },
  { value: 2, label: '可领用', color: 'blue' },
  { value: 3, label: '仅阅览', color: 'gray' },
];

export const BOOK_SOURCES: readonly StatusOption[] = [
  { value: 1, label: '购入' },
  { value: 2, label: '赠送' },
  { value: 3, label: '交换' },
  { value: 4, label: '本馆编印' },
];

export const BOOK_STATES: readonly StatusOption[] = [
  { value: 1, label: '正常', color: 'green' },
  { value: 2, label: '停借', color: 'orange' },
  { value: 3, label: '剔除', color: 'gray' },
];

const yearMonth = (v: string) =>
  /^\d{4}(-(0[1-9]|1[0-2]))?$/.test(v) ? null : '须为 yyyy 或 yyyy-MM（如 2024 或 2024-05）';

/** Copies that can still be lent or handed out: the holding less reservations and loans. */
export function availableOf(row: Readonly<Record<string, unknown>>): number {
  return Number(row.totalCount ?? 0) - Number(row.reservedCount ?? 0) - Number(row.lentCount ?? 0);
}

export const bsBookInfo = defineRecord({
  name: 'bsBookInfo',
  title: '书刊',
  shape: 'catalog',
  table: 'bs_book_info',
  base: '/book/bsBookInfo',
  // Spec §7: GET total, chartOne…chartFour, pageList, detail, delete, borrow, download; POST
  // add, update, export. `borrow` is this module's pre-check (hand-written); total, the charts,
  // download and our `isbn` look-up are hand-written too (server/modules/book/book-stats.routes.ts).
  calls: {
    list: 'GET pageList',
    detail: 'GET detail',
    create: 'POST add',
    update: 'POST update',
    remove: 'GET delete',
    export: 'POST export',
  },
  fields: {
    type: f.status('类别', BOOK_TYPES, { required: true, list: true, filter: 'eq', width: 70 }),
    title: f.text('题名', { required: true, max: 200, list: true, keyword: true }),
    subtitle: f.text('副题名', { max: 200 }),
    author: f.text('责任者', { max: 200, list: true, keyword: true, help: '图书必填' }),
    publisher: f.text('出版社', { max: 100, list: true, filter: 'eq', help: '图书、期刊必填' }),
    publishDate: f.text('出版日期', { max: 7, validate: yearMonth, placeholder: '2024-05' }),
    isbn: f.text('ISBN', {
      max: 17,
      validate: isbnProblem,
      list: true,
      keyword: true,
      help: '10 位旧 ISBN 自动转换为 13 位',
    }),
    issn: f.text('ISSN', { max: 9, validate: issnProblem, placeholder: '0254-4164' }),
    cn: f.text('国内统一刊号', { max: 20, validate: cnSerialProblem, placeholder: 'CN 11-1234/K' }),
    frequency: f.status('刊期', FREQUENCIES, { initial: 4, help: '期刊用' }),
    year: f.int('年', { min: 1800, max: 2200, list: true, filter: 'eq', help: '期刊必填' }),
    volume: f.int('卷', { min: 1, max: 9999 }),
    issue: f.text('期', { max: 10, list: true, help: '期刊必填；合订本如 1-6' }),
    clcNo: f.text('中图分类号', { max: 30, validate: clcProblem, list: true, filter: 'eq' }),
    callNo: f.text('索书号', { max: 30, keyword: true }),
    edition: f.text('版次', { max: 20 }),
    pages: f.int('页数', { min: 1, max: 100_000 }),
    binding: f.status('装帧', BINDINGS),
    price: f.money('单价'),
    summary: f.textarea('提要', { max: 2000 }),
    keywords: f.text('关键词', { max: 200, keyword: true }),
    cover: f.image('封面'),
    ebookFileId: f.file('电子版', { types: ['pdf', 'epub'], maxBytes: 200 * 1024 * 1024 }),
    location: f.text('馆藏位置', {
      required: true,
      max: 100,
      list: true,
      filter: 'eq',
      placeholder: '资料室 3 架 2 层',
    }),
    totalCount: f.int('馆藏数', { required: true, max: 99_999, list: true, width: 70 }),
    reservedCount: f.int('待领取', { form: false, initial: 0, list: true, width: 70 }),
    lentCount: f.int('在借', { form: false, initial: 0, list: true, width: 70 }),
    lendMode: f.status('流通方式', LEND_MODES, { required: true, list: true, filter: 'eq', width: 80 }),
    source: f.status('来源', BOOK_SOURCES),
    entryDate: f.date('入藏日期'),
    status: f.status('状态', BOOK_STATES, { list: true, filter: 'eq', initial: 1, width: 70 }),
  },
  // An ISBN is stored as its 13 digits: an old ISBN-10 becomes its ISBN-13, hyphens go. A
  // 中图分类号 is stored upper case (k85 → K85), so the 中图分类 filter's range finds it.
  derive: (row) => {
    const isbn = typeof row.isbn === 'string' && row.isbn ? normalizeIsbn(row.isbn) : null;
    const clcNo = typeof row.clcNo === 'string' && row.clcNo ? row.clcNo.trim().toUpperCase() : null;
    return { ...(isbn && { isbn }), ...(clcNo && { clcNo }) };
  },
  // What each kind must carry (records-design §4.1): periodicals one row per issue (settled).
  check: (row) => {
    const type = Number(row.type);
    const empty = (k: string) => row[k] === undefined || row[k] === null || row[k] === '';
    if (type === 1 && empty('author')) return { field: 'author', message: '图书请填写责任者' };
    if ((type === 1 || type === 2) && empty('publisher'))
      return { field: 'publisher', message: `${type === 1 ? '图书' : '期刊'}请填写出版社` };
    if (type === 2) {
      if (empty('year')) return { field: 'year', message: '期刊请填写年' };
      if (empty('issue')) return { field: 'issue', message: '期刊请填写期（每期一条；合订本如 1-6）' };
    }
    return null;
  },
  // The holding cannot drop below the copies lent out and reserved.
  canUpdate: (before, after) => {
    const held = Number(before.reservedCount ?? 0) + Number(before.lentCount ?? 0);
    return Number(after.totalCount) < held
      ? { field: 'totalCount', message: `馆藏数不能少于已借出和待领取的 ${held} 册` }
      : null;
  },
  // 中图分类 (records-design §4.1's "clcNo class"): the class letter a 中图分类号 starts with.
  virtualFilters: { clcClass: f.dict('中图分类', 'clc_class', { filter: 'eq' }) },
  access: { read: 'book.book', write: 'book.bookManage' },
  importable: true,
  order: [['id', 'desc']],
  describe: (r) =>
    `《${String(r.title ?? '')}》${r.type === 2 && r.issue ? ` ${String(r.year ?? '')}年第${String(r.issue)}期` : ''}`,
});

export const APPLY_TYPES: readonly StatusOption[] = [
  { value: 1, label: '借阅' },
  { value: 2, label: '领用' },
];

/** records-design §4.2; 已逾期 is derived (status 5 or 6 and the museum's today after the due date). */
export const APPROVAL_STATES: readonly StatusOption[] = [
  { value: 1, label: '待审批', color: 'orange' },
  { value: 2, label: '已通过(待领取)', color: 'blue' },
  { value: 3, label: '已拒绝', color: 'red' },
  { value: 4, label: '已取消', color: 'gray' },
  { value: 5, label: '借阅中', color: 'green' },
  { value: 6, label: '延期审批中', color: 'orange' },
  { value: 7, label: '已归还', color: 'gray' },
  { value: 8, label: '已领用', color: 'gray' },
];

export const RETURN_CONDITIONS: readonly StatusOption[] = [
  { value: 1, label: '完好' },
  { value: 2, label: '破损' },
  { value: 3, label: '遗失' },
];

/** Statuses that count against a reader's cap of active loans (asked, approved, on loan). */
export const ACTIVE_STATES: readonly number[] = [1, 2, 5, 6];
/** Statuses of a loan the reader holds (overdue when past its due date). */
export const ON_LOAN: readonly number[] = [5, 6];

/** Whether a loan is overdue at `now`: on loan and the museum's today after its due date. */
export function isOverdue(row: Readonly<Record<string, unknown>>, now: number): boolean {
  return ON_LOAN.includes(Number(row.status)) && !!row.dueDate && museumDate(now) > String(row.dueDate);
}

/** The due date of a loan picked up at `time` for `days`: that museum day plus the days. */
export function dueDateOf(time: number, days: number): string {
  return addDays(museumDate(time), days);
}

const MANAGE = 'book.borrowManagement';

export const bsBookApproval = defineRecord({
  name: 'bsBookApproval',
  title: '借阅与领用申请',
  shape: 'pipeline',
  table: 'bs_book_approval',
  base: '/book/bsBookApproval',
  // Spec §7: POST add; GET pageListEmployee, pageListAdmin, pass, refuse, cancel, reapply,
  // receive, applyDeferredDays, delay, returnBook, export, getUserInfo, delete. add,
  // pageListEmployee, receive and getUserInfo are hand-written (src/server/modules/book/).
  calls: {
    list: 'GET pageListAdmin',
    detail: 'GET detail',
    remove: 'GET delete',
    export: 'GET export',
  },
  fields: {
    bookId: f.ref('书刊', 'bsBookInfo', { by: 'title', required: true, list: true, filter: 'eq' }),
    applyType: f.status('申请类型', APPLY_TYPES, { required: true, list: true, filter: 'eq', width: 80 }),
    applicantId: f.user('申请人', { form: false, list: true, filter: 'eq' }),
    deptId: f.dept('部门', { form: false, list: true, filter: 'eq' }),
    quantity: f.int('数量', { min: 1, max: 99, list: true, width: 60, help: '借阅为 1 册' }),
    borrowDays: f.int('借期(天)', { min: 1, max: 365, list: true, width: 80, help: '借阅必填' }),
    reason: f.textarea('用途', { max: 200 }),
    status: f.status('状态', APPROVAL_STATES, {
      form: false,
      list: true,
      filter: 'eq',
      initial: 1,
      width: 110,
    }),
    approverId: f.user('审批人', { form: false }),
    approveTime: f.datetime('审批时间', { form: false }),
    approveComment: f.textarea('审批意见', { form: false, max: 200 }),
    pickupDeadline: f.date('取书截止', { form: false, list: true, width: 110 }),
    receiveTime: f.datetime('取书/领取时间', { form: false, list: true }),
    dueDate: f.date('应还日期', { form: false, list: true, filter: 'range', width: 110 }),
    deferredDays: f.int('延期天数', { form: false }),
    deferReason: f.textarea('延期原因', { form: false, max: 200 }),
    deferCount: f.int('延期次数', { form: false, initial: 0, width: 70 }),
    returnTime: f.datetime('归还时间', { form: false, list: true }),
    returnCondition: f.status('归还状况', [{ value: 0, label: '未归还' }, ...RETURN_CONDITIONS], {
      form: false,
      initial: 0,
    }),
    returnRemark: f.textarea('归还备注', { form: false, max: 200 }),
  },
  createdFilter: '申请时间',
  // 已逾期 (records-design §4.2's filter): on loan and past the due date, in museum time.
  virtualFilters: { overdue: f.bool('已逾期', { filter: 'eq' }) },
  status: { field: 'status' },
  transitions: {
    pass: {
      label: '通过',
      call: 'GET pass',
      from: [1],
      to: 2,
      access: MANAGE,
      input: { comment: f.textarea('审批意见', { max: 200 }) },
      set: (_row, input, now) => ({ approveTime: now, approveComment: input.comment ?? '' }),
      effect: 'reserveStock',
    },
    refuse: {
      label: '拒绝',
      call: 'GET refuse',
      from: [1],
      to: 3,
      access: MANAGE,
      input: { reason: f.textarea('拒绝原因', { required: true, max: 200 }) },
      set: (_row, input, now) => ({ approveTime: now, approveComment: input.reason }),
      effect: 'approver',
      danger: true,
    },
    cancel: {
      label: '取消申请',
      call: 'GET cancel',
      from: [1, 2],
      to: 4,
      input: { reason: f.textarea('取消原因', { max: 200 }) },
      effect: 'releaseStock',
      danger: true,
      confirm: '确定取消该申请吗？',
    },
    reapply: {
      label: '重新申请',
      call: 'GET reapply',
      from: [3, 4],
      to: 1,
      // A new submission of the same row: the last round's decision is cleared, the history kept.
      set: () => ({ approverId: null, approveTime: null, approveComment: '', pickupDeadline: '' }),
      effect: 'checkRequest',
    },
    // The spec's one `receive` call (hand-written) moves a borrowing to 借阅中 and a receipt to 已领用.
    receiveLoan: {
      label: '确认取书',
      call: 'POST receiveLoan',
      from: [2],
      to: 5,
      access: MANAGE,
      guard: (row) => (row.applyType === 1 ? null : '这是领用申请，请确认领取'),
      effect: 'lend',
    },
    receiveGift: {
      label: '确认领取',
      call: 'POST receiveGift',
      from: [2],
      to: 8,
      access: MANAGE,
      guard: (row) => (row.applyType === 2 ? null : '这是借阅申请，请确认取书'),
      effect: 'handOut',
    },
    applyDeferredDays: {
      label: '申请延期',
      call: 'GET applyDeferredDays',
      from: [5],
      to: 6,
      input: {
        deferredDays: f.int('延期天数', { required: true, min: 1, max: 365 }),
        deferReason: f.textarea('延期原因', { required: true, max: 200 }),
      },
      set: (_row, input) => ({ deferredDays: input.deferredDays, deferReason: input.deferReason }),
      effect: 'checkDefer',
    },
    delay: {
      label: '延期审批',
      call: 'GET delay',
      from: [6],
      to: 5,
      access: MANAGE,
      input: {
        agree: f.bool('同意延期', { required: true }),
        comment: f.textarea('审批意见', { max: 200 }),
      },
      guard: (_row, input) =>
        input.agree === false && !String(input.comment ?? '').trim() ? '不同意延期时请填写原因' : null,
      set: (row, input) =>
        input.agree
          ? {
              dueDate: addDays(String(row.dueDate), Number(row.deferredDays)),
              deferCount: Number(row.deferCount ?? 0) + 1,
            }
          : {},
      effect: 'delayResult',
    },
    returnBook: {
      label: '归还',
      call: 'GET returnBook',
      from: [5, 6],
      to: 7,
      access: MANAGE,
      input: {
        returnCondition: f.status('归还状况', RETURN_CONDITIONS, { required: true }),
        remark: f.textarea('归还备注', { max: 200 }),
      },
      guard: (_row, input) =>
        Number(input.returnCondition) !== 1 && !String(input.remark ?? '').trim()
          ? '破损或遗失请填写备注'
          : null,
      set: (_row, input, now) => ({
        returnTime: now,
        returnCondition: input.returnCondition,
        returnRemark: input.remark ?? '',
      }),
      effect: 'giveBack',
    },
  },
  // Spec: delete refused while the application is live (records-design §4.2: 3,4,7,8 only).
  canDelete: (row: Row) =>
    [3, 4, 7, 8].includes(Number(row.status)) ? null : '只能删除已拒绝、已取消、已归还或已领用的申请',
  access: {
    read: 'book.borrowRecord',
    write: 'book.borrowRecord',
    owner: { field: 'applicantId', all: MANAGE },
  },
  order: [['id', 'desc']],
  describe: (r) => `${r.applyType === 2 ? '领用' : '借阅'}申请 #${String(r.id ?? '')}`,
});

export const bookRule = defineRecord({
  name: 'bookRule',
  title: '借阅规则',
  shape: 'singleton',
  table: 'bs_book_rule',
  base: '/book/bookRule',
  // Ours (records-design §4.2: "the rules live in one D-shape row"); the spec shows no call.
  calls: { list: 'GET list', detail: 'GET detail', load: 'GET load', save: 'POST save' },
  fields: {
    // The two every reader meets are required (a form starts from the defaults); the rest may
    // stay empty and take theirs.
    maxActive: f.int('每人最多在借（含待审批、待取）', { required: true, min: 1, max: 100, initial: 5 }),
    maxBorrowDays: f.int('最长借期（天）', { required: true, min: 1, max: 365, initial: 30 }),
    maxDefers: f.int('最多延期次数', { max: 10, help: '留空为 1；0 为不能延期' }),
    maxDeferDays: f.int('每次最多延期（天）', { min: 1, max: 365, help: '留空为 15' }),
    pickupDays: f.int('取书期限（天）', {
      min: 1,
      max: 60,
      help: '留空为 3：通过后几天内取书，过期管理员可取消',
    }),
    maxReceive: f.int('每次最多领用（册）', { min: 1, max: 99, help: '留空为 5' }),
  },
  // Every member of staff may read the lending rules; the librarian sets them.
  access: { read: null, write: MANAGE },
  singleton: {},
  order: [['id', 'asc']],
  describe: () => '借阅规则',
});

export interface BookRules {
  maxActive: number;
  maxBorrowDays: number;
  maxDefers: number;
  maxDeferDays: number;
  pickupDays: number;
  maxReceive: number;
}

export const BOOK_RULE_DEFAULTS: BookRules = {
  maxActive: 5,
  maxBorrowDays: 30,
  maxDefers: 1,
  maxDeferDays: 15,
  pickupDays: 3,
  maxReceive: 5,
};

/** The rules row as numbers, each empty one its default (records-design §4.2, S17). */
export function bookRulesOf(row: Readonly<Record<string, unknown>> | undefined): BookRules {
  const out = { ...BOOK_RULE_DEFAULTS };
  for (const k of Object.keys(out) as (keyof BookRules)[]) {
    const v = row?.[k];
    if (v !== null && v !== undefined && v !== '') out[k] = Number(v);
  }
  return out;
}
