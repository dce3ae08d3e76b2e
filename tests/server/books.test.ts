import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ROLE_MENU } from '../../src/shared/menu/catalogue';
import { addDays, museumDate, parseMuseumTime } from '../../src/shared/rules/museum-time';
import { createBookReminders } from '../../src/server/modules/book/book.reminders';
import { APPLY, BOOK, bookCalls, makeReaders } from './books-util';
import { startServer, type TestServer } from './harness';
import { importFile, template, xlsxOf } from './records-import-util';
import { M, personWithMenu } from './util';
import { jsonCalls } from './volunteer-util';

/**
 * Book lending (README "Book lending"; research/records-design.md §4): the catalogue's own rules
 * (ISBN-10 converted, per-kind required fields, the holding never below what is out), the
 * application's guards with their words, every transition of §4.2 and its stock, the race for
 * the last copies, the renewal cap, overdue loans at the museum day's edge, the pick-up
 * deadline, and who may do what. The generic record suite covers the three records' own calls.
 *
 * Readers are made here: 13 accounts holding a 读者 role (the reader's pages of 图书借阅 and the
 * everyday entries); `admin` is the librarian.
 */

let s: TestServer;
let admin: string;
const { post, ok, refused } = jsonCalls(() => s);
const READER_KEYS = [
  'book.book',
  'book.periodical',
  'book.publication',
  'book.borrowRecord',
  'book.receiveRecord',
];
let readers: { token: string; id: number }[] = [];
let outsider: string;
let today: string;
const {
  read,
  act,
  ask,
  addBook: addTitled,
} = bookCalls(
  () => s,
  () => admin,
);
/** A book with `totalCount` copies (and any other fields), answered by id. */
const addBook = (fields: Record<string, unknown> = {}) => addTitled('测试图书', fields);
const bookRow = async (id: number) => ok(await read(`${BOOK}/detail?id=${id}`)).record;
const applyRow = async (id: number, token = admin) =>
  ok(await read(`${APPLY}/detail?id=${id}`, token)).record;
const asked = async (token: string, bookId: number, extra: Record<string, unknown> = {}) =>
  ok(await ask(token, bookId, extra)).id as number;
/** Saves the lending rules: the two required ones at their defaults unless given. */
const setRules = async (rules: Record<string, unknown>) =>
  ok(await post(`${M}/book/bookRule/save`, admin, { maxActive: 5, maxBorrowDays: 30, ...rules }));
const counters = async (id: number) => {
  const b = await bookRow(id);
  return { total: b.totalCount, reserved: b.reservedCount, lent: b.lentCount };
};
/** A loan of `reader` on a fresh book, picked up today. */
async function loan(reader = readers[0]!, days = 14) {
  const bookId = await addBook();
  const id = await asked(reader.token, bookId, { borrowDays: days });
  ok(await act('pass', { id }));
  ok(await act('receive', { id }));
  return { id, bookId };
}
const setDue = (id: number, dueDate: string) =>
  s.db.updateTable('bs_book_approval').set({ due_date: dueDate }).where('id', '=', id).execute();

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  admin = await s.login('admin');
  today = museumDate(Date.now());
  readers = await makeReaders(s, {
    prefix: 'reader',
    name: '读者',
    count: 13,
    menu: [...new Set([...READER_KEYS, ...DEFAULT_ROLE_MENU])],
    phone: '1370000',
    depts: Array.from({ length: 13 }, () => '陈列部'),
  });
  // Every member of staff reads by the default role; a role without the reader's pages is not.
  outsider = await personWithMenu(s, 'nobooks', ['home.workbench']);
});

afterAll(async () => {
  await s?.close();
});

describe('the catalogue', () => {
  it('stores an ISBN-10 as its ISBN-13 and refuses a wrong check digit in words', async () => {
    const id = await addBook({ isbn: '0-306-40615-2' });
    expect((await bookRow(id)).isbn).toBe('9780306406157');
    const bad = await post(`${BOOK}/add`, admin, {
      type: 1,
      title: '错号',
      author: '某',
      publisher: '某社',
      location: '资料室',
      totalCount: 1,
      lendMode: 1,
      isbn: '9787020002208',
    });
    expect(refused(bad)).toBe('ISBN校验位不正确，请核对后重新输入');
  });

  it('asks each kind for what it must carry: a book its author, a periodical its issue; ISSN and CN checked', async () => {
    const base = { title: '某刊', publisher: '某社', location: '资料室', totalCount: 1, lendMode: 1 };
    const book = await post(`${BOOK}/add`, admin, { ...base, type: 1 });
    expect(refused(book)).toBe('图书请填写责任者');
    const periodical = await post(`${BOOK}/add`, admin, { ...base, type: 2, year: 2026 });
    expect(refused(periodical)).toBe('期刊请填写期（每期一条；合订本如 1-6）');
    const issn = await post(`${BOOK}/add`, admin, {
      ...base,
      type: 2,
      year: 2026,
      issue: '3',
      issn: '0254-4165',
    });
    expect(refused(issn)).toBe('ISSN校验位不正确，请核对后重新输入');
    const cn = await post(`${BOOK}/add`, admin, { ...base, type: 2, year: 2026, issue: '3', cn: '11-1234' });
    expect(refused(cn)).toContain('须为 CN 刊号格式');
    const clc = await post(`${BOOK}/add`, admin, { ...base, type: 1, author: '某', clcNo: 'L123' });
    expect(refused(clc)).toContain('须以中图法 22 个基本大类的字母开头');
    // One row per issue (settled): two issues of one title are two rows.
    const a = await addBook({
      type: 2,
      author: '',
      year: 2026,
      issue: '3',
      issn: '0254-4164',
      cn: 'CN 11-1234/K',
    });
    const b = await addBook({ type: 2, author: '', year: 2026, issue: '4', issn: '0254-4164' });
    expect(a).not.toBe(b);
  });

  it('imports a catalogue from xlsx, all or nothing: an ISBN-10 converted, a wrong check digit refusing the file with 1004', async () => {
    const tpl = await template(s, admin, 'bsBookInfo');
    expect(tpl.ok && tpl.headers.slice(0, 4)).toEqual(['类别*', '题名*', '副题名', '责任者']);
    const headers = [
      '类别',
      '题名',
      '责任者',
      '出版社',
      'ISBN',
      '中图分类号',
      '馆藏位置',
      '馆藏数',
      '流通方式',
    ];
    const good = [
      '图书',
      '导入之书甲',
      '某甲',
      '文物出版社',
      '0-306-40615-2',
      'K878.2',
      '资料室 2 架',
      2,
      '可借阅',
    ];
    const bad = await importFile(
      s,
      admin,
      'bsBookInfo',
      await xlsxOf(headers, [
        good,
        ['图书', '导入之书乙', '某乙', '文物出版社', '9787020002208', 'K87', '资料室 2 架', 1, '可借阅'],
        ['图书', '导入之书丙', '', '文物出版社', '', 'K87', '资料室 2 架', 1, '可借阅'],
      ]),
    );
    expect(bad.body.code).toBe(1004);
    expect(bad.body.result.lines).toEqual([
      '第 3 行：ISBN校验位不正确，请核对后重新输入',
      '第 4 行：图书请填写责任者',
    ]);
    const none = ok(await read(`${BOOK}/pageList?keyword=导入之书`));
    expect(none.total).toBe(0);
    const done = await importFile(s, admin, 'bsBookInfo', await xlsxOf(headers, [good]));
    expect(done.body.success, JSON.stringify(done.body)).toBe(true);
    const [row] = ok(await read(`${BOOK}/pageList?keyword=导入之书甲`)).list;
    expect(row).toMatchObject({
      isbn: '9780306406157',
      totalCount: 2,
      reservedCount: 0,
      lentCount: 0,
      lendMode: 1,
    });
  });

  it('keeps the holding at or above the copies lent and reserved', async () => {
    const { bookId } = await loan();
    const b = await bookRow(bookId);
    const r = await post(`${BOOK}/update`, admin, { ...b, id: bookId, totalCount: 0 });
    expect(r.body.result.fields.totalCount).toBe('馆藏数不能少于已借出和待领取的 1 册');
    ok(await post(`${BOOK}/update`, admin, { ...b, id: bookId, totalCount: 1 }));
  });
});

describe('asking to borrow', () => {
  it('the pre-check answers whether one may ask and changes nothing', async () => {
    const bookId = await addBook({ totalCount: 2 });
    const before = await counters(bookId);
    const rows = await s.db.selectFrom('bs_book_approval').select('id').execute();
    const r = ok(await read(`${BOOK}/borrow?id=${bookId}&applyType=1`, readers[1]!.token));
    expect(r).toMatchObject({
      allowed: true,
      reason: '',
      availableCount: 2,
      maxBorrowDays: 30,
      defaultDueDate: addDays(today, 30),
    });
    expect(await counters(bookId)).toEqual(before);
    expect(await s.db.selectFrom('bs_book_approval').select('id').execute()).toHaveLength(rows.length);
    // Its refusal is the add call's, word for word.
    ok(await act('pass', { id: await asked(readers[1]!.token, bookId) }));
    const again = ok(await read(`${BOOK}/borrow?id=${bookId}&applyType=1`, readers[1]!.token));
    expect(again).toMatchObject({ allowed: false, availableCount: 1 });
    expect(refused(await ask(readers[1]!.token, bookId))).toBe(again.reason);
  });

  it('refuses a book that is stopped, only for reading or only given away, and wrong numbers', async () => {
    const r = readers[2]!.token;
    const stopped = await addBook({ status: 2 });
    expect(refused(await ask(r, stopped))).toMatch(/^《测试图书\d+》已停借$/);
    const reading = await addBook({ lendMode: 3 });
    expect(refused(await ask(r, reading))).toMatch(/仅供阅览，不外借$/);
    const gift = await addBook({ lendMode: 2, type: 3, author: '' });
    expect(refused(await ask(r, gift))).toMatch(/只能领用，不能借阅$/);
    const lend = await addBook();
    expect(refused(await ask(r, lend, { applyType: 2, quantity: 1 }))).toMatch(/只能借阅，不能领用$/);
    expect(refused(await ask(r, lend, { quantity: 2 }))).toBe('借阅每次 1 册');
    expect(refused(await ask(r, lend, { borrowDays: 31 }))).toBe('借期最长 30 天');
    expect(refused(await ask(r, lend, { borrowDays: undefined }))).toBe('请填写借期(天)');
    const gone = await ask(r, 999_999);
    expect(gone.body).toMatchObject({
      success: false,
      code: 404,
      message: '该书刊不存在或已删除，请刷新后重试',
    });
  });

  it('refuses a book with no copy left, and a second request for the same book', async () => {
    const r = readers[3]!.token;
    const one = await addBook({ totalCount: 1 });
    const id = await asked(r, one);
    expect(refused(await ask(r, one))).toMatch(/^您已申请过《测试图书\d+》，正在等待审批$/);
    ok(await act('pass', { id }));
    expect(refused(await ask(r, one))).toMatch(/^您申请的《测试图书\d+》已通过，请到资料室取书$/);
    expect(refused(await ask(readers[4]!.token, one))).toMatch(
      /暂无可借的册数（馆藏 1 册，均已借出或预留）$/,
    );
    ok(await act('receive', { id }));
    expect(refused(await ask(r, one))).toMatch(/^您正在借阅《测试图书\d+》，不能重复借阅$/);
    expect(refused(await ask(readers[4]!.token, one))).toMatch(/暂无可借/);
  });

  it('refuses beyond the cap of active loans (asked, approved and on loan count)', async () => {
    await setRules({ maxActive: 2 });
    try {
      const r = readers[5]!;
      await asked(r.token, await addBook());
      await loan(r);
      const third = await ask(r.token, await addBook());
      expect(refused(third)).toBe('您已有 2 条借阅中或待处理的申请（最多 2 条），请先归还或取消后再申请');
      expect(ok(await read(`${APPLY}/getUserInfo`, r.token))).toMatchObject({
        id: r.id,
        name: '读者6',
        deptName: '陈列部',
        active: 2,
        overdue: 0,
      });
    } finally {
      await setRules({});
    }
  });

  it('is for readers: someone without the reader pages is refused; the default role reads', async () => {
    const r = await ask(outsider, await addBook());
    expect(r.body).toMatchObject({ success: false, message: '无权限执行此操作，请联系管理员开通' });
    // staff02 has no role: 普通员工's entries include the reading room.
    const staff = await s.login('staff02');
    const id = ok(await ask(staff, await addBook())).id as number;
    ok(await act('cancel', { id }, staff));
  });
});

describe('an application through its states', () => {
  it('is approved (reserving), picked up (lent, due date set), renewed once, and returned', async () => {
    const r = readers[6]!;
    const bookId = await addBook({ totalCount: 2 });
    const id = await asked(r.token, bookId, { borrowDays: 10, reason: '展览研究' });
    expect(await applyRow(id, r.token)).toMatchObject({ status: 1, applicantId: r.id, quantity: 1 });

    ok(await act('pass', { id, comment: '同意' }));
    expect(await applyRow(id)).toMatchObject({
      status: 2,
      pickupDeadline: addDays(today, 3),
      approveComment: '同意',
    });
    expect(await counters(bookId)).toEqual({ total: 2, reserved: 1, lent: 0 });

    ok(await act('receive', { id }));
    expect(await applyRow(id)).toMatchObject({ status: 5, dueDate: addDays(today, 10) });
    expect(await counters(bookId)).toEqual({ total: 2, reserved: 0, lent: 1 });

    // Renewal: within the days allowed, once.
    const tooLong = await act(
      'applyDeferredDays',
      { id, deferredDays: 16, deferReason: '还没看完' },
      r.token,
    );
    expect(refused(tooLong)).toBe('延期天数最多 15 天');
    ok(await act('applyDeferredDays', { id, deferredDays: 7, deferReason: '还没看完' }, r.token));
    expect(await applyRow(id)).toMatchObject({ status: 6, deferredDays: 7, deferReason: '还没看完' });
    const noWhy = await act('delay', { id, agree: false });
    expect(refused(noWhy)).toBe('不同意延期时请填写原因');
    ok(await act('delay', { id, agree: true, comment: '同意延期' }));
    expect(await applyRow(id)).toMatchObject({ status: 5, dueDate: addDays(today, 17), deferCount: 1 });
    const second = await act('applyDeferredDays', { id, deferredDays: 3, deferReason: '再借几天' }, r.token);
    expect(refused(second)).toBe('每次借阅最多延期 1 次，已用完');

    ok(await act('returnBook', { id, returnCondition: 1 }));
    expect(await applyRow(id)).toMatchObject({ status: 7, returnCondition: 1 });
    expect(await counters(bookId)).toEqual({ total: 2, reserved: 0, lent: 0 });

    // The reader heard of each decision (the bell), linked to 借阅记录; sent after the commit.
    const title = String((await bookRow(bookId)).title);
    const told = () =>
      s.db
        .selectFrom('notice')
        .select(['notice_content', 'link'])
        .where('user_id', '=', r.id)
        .orderBy('id')
        .execute();
    await expect
      .poll(async () => (await told()).map((n) => n.notice_content))
      .toEqual([
        `您借阅《${title}》的申请已通过，请于 ${addDays(today, 3)} 前到资料室取书`,
        `您借阅的《${title}》延期 7 天已同意，应还日期改为 ${addDays(today, 17)}`,
      ]);
    expect((await told())[0]!.link).toBe('/books/borrow-record');
    const log = ok(await read(`${APPLY}/detail?id=${id}`)).log.map((l: { action: string }) => l.action);
    expect(log).toEqual(['create', 'pass', 'receiveLoan', 'applyDeferredDays', 'delay', 'returnBook']);
  });

  it('refuses a renewal with its reason kept, the due date unchanged', async () => {
    const r = readers[6]!;
    const { id } = await loan(r, 5);
    ok(await act('applyDeferredDays', { id, deferredDays: 5, deferReason: '出差' }, r.token));
    ok(await act('delay', { id, agree: false, comment: '已有人预约' }));
    expect(await applyRow(id)).toMatchObject({ status: 5, dueDate: addDays(today, 5), deferCount: 0 });
    await expect
      .poll(async () =>
        (await s.db.selectFrom('notice').select('notice_content').where('user_id', '=', r.id).execute()).map(
          (n) => n.notice_content,
        ),
      )
      .toContainEqual(expect.stringMatching(/延期申请未同意：已有人预约，请于 \d{4}-\d{2}-\d{2} 前归还$/));
  });

  it('refuses with a reason, and a reapplication is checked again', async () => {
    const r = readers[7]!;
    const bookId = await addBook();
    const id = await asked(r.token, bookId);
    const bare = await act('refuse', { id });
    expect(bare.status).toBe(400);
    expect(bare.body.message).toContain('拒绝原因');
    ok(await act('refuse', { id, reason: '该书待修补' }));
    await expect
      .poll(async () =>
        (await s.db.selectFrom('notice').select('notice_content').where('user_id', '=', r.id).execute()).map(
          (n) => n.notice_content,
        ),
      )
      .toContainEqual(expect.stringMatching(/^您借阅《测试图书\d+》的申请未通过：该书待修补$/));
    expect(await applyRow(id)).toMatchObject({ status: 3, approveComment: '该书待修补' });
    const stopped = await bookRow(bookId);
    ok(await post(`${BOOK}/update`, admin, { ...stopped, id: bookId, status: 2 }));
    expect(refused(await act('reapply', { id }, r.token))).toMatch(/已停借$/);
    ok(await post(`${BOOK}/update`, admin, { ...stopped, id: bookId, status: 1 }));
    ok(await act('reapply', { id }, r.token));
    expect(await applyRow(id)).toMatchObject({ status: 1, approveComment: '' });
  });

  it('is cancelled by the reader (giving the reservation back), by the librarian only after the pick-up deadline', async () => {
    const r = readers[8]!;
    const bookId = await addBook({ totalCount: 1 });
    const waiting = await asked(r.token, bookId);
    expect(refused(await act('cancel', { id: waiting }))).toBe(
      '待审批的申请只能由申请人取消，管理员请使用“拒绝”',
    );
    ok(await act('cancel', { id: waiting }, r.token));
    expect((await applyRow(waiting)).status).toBe(4);

    ok(await act('reapply', { id: waiting }, r.token));
    ok(await act('pass', { id: waiting }));
    expect(await counters(bookId)).toEqual({ total: 1, reserved: 1, lent: 0 });
    expect(refused(await act('cancel', { id: waiting }))).toBe(
      `取书期限到 ${addDays(today, 3)}，过期未取后管理员才能取消`,
    );
    await s.db
      .updateTable('bs_book_approval')
      .set({ pickup_deadline: addDays(today, -1) })
      .where('id', '=', waiting)
      .execute();
    ok(await act('cancel', { id: waiting, reason: '逾期未取' }));
    expect(await counters(bookId)).toEqual({ total: 1, reserved: 0, lent: 0 });
    // The copy is free again.
    ok(await ask(readers[9]!.token, bookId));
  });

  it('gives away publications (领用): the copies leave the holding on pick-up, within the per-request limit', async () => {
    const r = readers[9]!;
    const bookId = await addBook({ type: 3, author: '', publisher: '', lendMode: 2, totalCount: 10 });
    expect(refused(await ask(r.token, bookId, { applyType: 2, quantity: 6 }))).toBe('每次最多领用 5 册');
    const few = await addBook({ type: 3, author: '', lendMode: 2, totalCount: 2 });
    expect(refused(await ask(r.token, few, { applyType: 2, quantity: 3 }))).toMatch(
      /^《测试图书\d+》只剩 2 册可领$/,
    );
    const id = await asked(r.token, bookId, { applyType: 2, quantity: 3 });
    ok(await act('pass', { id }));
    expect(await counters(bookId)).toEqual({ total: 10, reserved: 3, lent: 0 });
    ok(await act('receive', { id }));
    expect(await applyRow(id)).toMatchObject({ status: 8, dueDate: '' });
    expect(await counters(bookId)).toEqual({ total: 7, reserved: 0, lent: 0 });
    // A receipt is never returned or renewed.
    expect(refused(await act('returnBook', { id, returnCondition: 1 }))).toBe('状态已变化，请刷新');
  });

  it('a lost book leaves the holding, with a remark required', async () => {
    const { id, bookId } = await loan(readers[10]!);
    expect(refused(await act('returnBook', { id, returnCondition: 3 }))).toBe('破损或遗失请填写备注');
    ok(await act('returnBook', { id, returnCondition: 3, remark: '读者遗失，已照价赔偿' }));
    expect(await applyRow(id)).toMatchObject({
      status: 7,
      returnCondition: 3,
      returnRemark: '读者遗失，已照价赔偿',
    });
    expect(await counters(bookId)).toEqual({ total: 2, reserved: 0, lent: 0 });
  });

  it('is deleted only once it is over', async () => {
    const r = readers[10]!;
    const id = await asked(r.token, await addBook());
    expect(refused(await act('delete', { id }))).toBe('只能删除已拒绝、已取消、已归还或已领用的申请');
    ok(await act('cancel', { id }, r.token));
    ok(await act('delete', { id }));
  });
});

describe('rights', () => {
  it('a reader sees and moves only their own applications, and cannot approve', async () => {
    const [a, b] = [readers[0]!, readers[1]!];
    const id = await asked(a.token, await addBook());
    expect((await read(`${APPLY}/detail?id=${id}`, b.token)).body.code).toBe(404);
    expect((await act('cancel', { id }, b.token)).body.code).toBe(404);
    expect(refused(await act('pass', { id }, a.token))).toBe('无权限执行此操作，请联系管理员开通');
    const mine = ok(await read(`${APPLY}/pageListEmployee?pageCount=200`, a.token));
    expect(mine.list.every((x: { applicantId: number }) => x.applicantId === a.id)).toBe(true);
    expect(mine.list.map((x: { id: number }) => x.id)).toContain(id);
    // The librarian's own list (我的借阅) is theirs too, not everyone's.
    const librarian = ok(await read(`${APPLY}/pageListEmployee?pageCount=200`));
    expect(librarian.list.map((x: { id: number }) => x.id)).not.toContain(id);
    expect(
      ok(await read(`${APPLY}/pageListAdmin?pageCount=200`)).list.map((x: { id: number }) => x.id),
    ).toContain(id);
  });
});

describe('the race for the last copies', () => {
  it('of 10 people asking for the last 2 copies at once, exactly 2 are approved', async () => {
    const bookId = await addBook({ totalCount: 2 });
    const asks = await Promise.all(readers.slice(0, 10).map((r) => ask(r.token, bookId)));
    const ids = asks.map((x) => ok(x).id as number);
    const passes = await Promise.all(ids.map((id) => act('pass', { id })));
    const won = passes.filter((p) => p.body.success);
    expect(won).toHaveLength(2);
    for (const p of passes.filter((x) => !x.body.success))
      expect(p.body.message).toMatch(/可借册数不足（剩余 0 册），不能通过$/);
    expect(await counters(bookId)).toEqual({ total: 2, reserved: 2, lent: 0 });
    const statuses = await s.db
      .selectFrom('bs_book_approval')
      .select('status')
      .where('book_id', '=', bookId)
      .execute();
    expect(statuses.filter((x) => Number(x.status) === 2)).toHaveLength(2);
    expect(statuses.filter((x) => Number(x.status) === 1)).toHaveLength(8);
  });
});

describe("one person's requests landing at once", () => {
  it('leave one request for a book asked five times, and no more than the cap', async () => {
    const r = readers[11]!;
    const bookId = await addBook({ totalCount: 5 });
    const same = await Promise.all([1, 2, 3, 4, 5].map(() => ask(r.token, bookId)));
    expect(same.filter((x) => x.body.success)).toHaveLength(1);
    for (const x of same.filter((y) => !y.body.success))
      expect(x.body.message).toMatch(/^您已申请过《测试图书\d+》，正在等待审批$/);
    await setRules({ maxActive: 3 });
    try {
      const books = await Promise.all([1, 2, 3, 4].map(() => addBook()));
      const many = await Promise.all(books.map((b) => ask(r.token, b)));
      expect(many.filter((x) => x.body.success)).toHaveLength(2);
    } finally {
      await setRules({});
    }
    // Leave reader 12 without open requests for the overdue test.
    const open = await s.db
      .selectFrom('bs_book_approval')
      .select('id')
      .where('applicant_id', '=', r.id)
      .where('status', '=', 1)
      .execute();
    for (const o of open) ok(await act('cancel', { id: o.id }, r.token));
  });
});

describe('overdue loans, in museum days', () => {
  it('a loan due today is not overdue; due yesterday it is, and it blocks borrowing and renewal', async () => {
    const r = readers[11]!;
    const dueToday = await loan(r);
    await setDue(dueToday.id, today);
    const overdueList = async () =>
      ok(await read(`${APPLY}/pageListAdmin?overdue=1&pageCount=200`)).list.map((x: { id: number }) => x.id);
    expect(await overdueList()).not.toContain(dueToday.id);
    expect(ok(await read(`${BOOK}/borrow?id=${await addBook()}`, r.token)).allowed).toBe(true);

    await setDue(dueToday.id, addDays(today, -1));
    expect(await overdueList()).toContain(dueToday.id);
    const book = await bookRow(dueToday.bookId);
    const words = `您借阅的《${String(book.title)}》已逾期（应还日期 ${addDays(today, -1)}），请先归还后再借阅`;
    const fresh = await addBook();
    expect(refused(await ask(r.token, fresh))).toBe(words);
    expect(ok(await read(`${BOOK}/borrow?id=${fresh}`, r.token))).toMatchObject({
      allowed: false,
      reason: words,
    });
    expect(ok(await read(`${APPLY}/getUserInfo`, r.token)).overdue).toBe(1);
    const renew = await act(
      'applyDeferredDays',
      { id: dueToday.id, deferredDays: 3, deferReason: '忘了' },
      r.token,
    );
    expect(refused(renew)).toBe(`该借阅已逾期（应还日期 ${addDays(today, -1)}），不能申请延期，请先归还`);
    // Returning it lifts the block.
    ok(await act('returnBook', { id: dueToday.id, returnCondition: 1 }));
    expect(await overdueList()).not.toContain(dueToday.id);
    ok(await ask(r.token, fresh));
  });
});

describe('the reminders', () => {
  it('reminds a borrower 3 days before the due date once, and each overdue day once, from 08:00 museum time', async () => {
    const r = readers[12]!;
    const at = (date: string, time = '09:00:00') => parseMuseumTime(`${date} ${time}`)!;
    const run = (time: number) =>
      createBookReminders({ db: s.db, notices: s.notices, now: () => time }).run();
    const bell = async (title: string) =>
      (
        await s.db
          .selectFrom('notice')
          .select('notice_content')
          .where('user_id', '=', r.id)
          .orderBy('id')
          .execute()
      )
        .map((n) => n.notice_content)
        .filter((c) => c.startsWith(`您借阅的《${title}》`));

    const soon = await loan(r);
    await setDue(soon.id, addDays(today, 3));
    const soonTitle = String((await bookRow(soon.bookId)).title);
    // Before 08:00 nothing goes; at 09:00 one reminder; the same day again, and the next days
    // of the window, nothing more for the same due date.
    await run(at(today, '07:59:00'));
    expect(await bell(soonTitle)).toEqual([]);
    await run(at(today));
    await run(at(today, '10:00:00'));
    await run(at(addDays(today, 1)));
    expect(await bell(soonTitle)).toEqual([
      `您借阅的《${soonTitle}》将于 ${addDays(today, 3)} 到期，请按时归还或申请续借`,
    ]);
    // A renewal's new due date earns its own reminder when its window comes.
    await setDue(soon.id, addDays(today, 10));
    await run(at(addDays(today, 7)));
    expect((await bell(soonTitle)).at(-1)).toBe(
      `您借阅的《${soonTitle}》将于 ${addDays(today, 10)} 到期，请按时归还或申请续借`,
    );
    // Returned, it is never reminded again.
    ok(await act('returnBook', { id: soon.id, returnCondition: 1 }));
    await run(at(addDays(today, 12)));
    expect(await bell(soonTitle)).toHaveLength(2);

    // Overdue: each museum day once, counting the days; two runs at once send one.
    const late = await loan(r);
    await setDue(late.id, addDays(today, -1));
    const lateTitle = String((await bookRow(late.bookId)).title);
    await Promise.all([run(at(today)), run(at(today))]);
    await run(at(today, '23:59:59'));
    expect(await bell(lateTitle)).toEqual([
      `您借阅的《${lateTitle}》已逾期 1 天（应还日期 ${addDays(today, -1)}），请尽快到资料室归还`,
    ]);
    await run(at(addDays(today, 1)));
    expect((await bell(lateTitle)).at(-1)).toContain('已逾期 2 天');
    expect(await bell(lateTitle)).toHaveLength(2);
    ok(await act('returnBook', { id: late.id, returnCondition: 1 }));
  });
});

describe('the librarians’ bell', () => {
  it('tells the holders of 借阅审批 of a request, a reapplication and a renewal, linked to their queue', async () => {
    const r = readers[12]!;
    const librarian = await s.db
      .selectFrom('user')
      .select('id')
      .where('account', '=', 'staff04')
      .executeTakeFirstOrThrow();
    // After the answer: the notice follows the commit, so wait for it rather than for time.
    const bell = async (text: string) => {
      for (let i = 0; i < 50; i++) {
        const rows = await s.db
          .selectFrom('notice')
          .select(['notice_content', 'link', 'user_id'])
          .where('notice_content', '=', text)
          .execute();
        if (rows.length) return rows;
        await new Promise((done) => setTimeout(done, 20));
      }
      return [];
    };
    const bookId = await addBook();
    const title = String((await bookRow(bookId)).title);
    const id = await asked(r.token, bookId);
    const asking = await bell(`读者13申请借阅《${title}》，请审批`);
    expect(asking.map((n) => Number(n.user_id))).toContain(Number(librarian.id));
    expect(asking.map((n) => Number(n.user_id))).not.toContain(r.id);
    expect(asking[0]!.link).toBe('/books/borrow-management');

    ok(await act('refuse', { id, reason: '暂不外借' }));
    ok(await act('reapply', { id }, r.token));
    expect(await bell(`读者13重新申请借阅《${title}》，请审批`)).not.toEqual([]);
    ok(await act('pass', { id }));
    ok(await act('receive', { id }));
    ok(await act('applyDeferredDays', { id, deferredDays: 5, deferReason: '课题未完' }, r.token));
    const renewal = await bell(`读者13申请续借《${title}》 5 天，请审批`);
    expect(renewal.map((n) => Number(n.user_id))).toContain(Number(librarian.id));
    expect(renewal[0]!.link).toBe('/books/delay-management');
    ok(await act('delay', { id, agree: true }));
    ok(await act('returnBook', { id, returnCondition: 1 }));
  });
});
