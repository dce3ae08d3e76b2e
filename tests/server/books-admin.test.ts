import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ROLE_MENU } from '../../src/shared/menu/catalogue';
import { addDays, museumDate } from '../../src/shared/rules/museum-time';
import { APPLY, bookCalls, makeReaders } from './books-util';
import { startServer, type TestServer } from './harness';
import { userIdOf } from './util';
import { jsonCalls } from './volunteer-util';

/**
 * The librarian's pages of book lending (README "Book lending"): the side menu's queue counts
 * (`countPending`, ours) and what the queues read and export — one kind of application, the
 * quick counts under the 已逾期 filter, and an export of exactly the filtered rows. The rules of
 * each decision are tests/server/books.test.ts's.
 */

let s: TestServer;
let admin: string;
const { ok, refused } = jsonCalls(() => s);
let readers: string[] = [];

const calls = bookCalls(
  () => s,
  () => admin,
);
const { read } = calls;
const act = (call: string, id: number, extra: Record<string, unknown> = {}, token = admin) =>
  calls.act(call, { id, ...extra }, token);
const counts = async (token = admin) => ok(await read(`${APPLY}/countPending`, token));
const addBook = (fields: Record<string, unknown> = {}) =>
  calls.addBook('队列之书', { location: '资料室 1 架', totalCount: 5, ...fields });
const ask = async (token: string, bookId: number, extra: Record<string, unknown> = {}) =>
  ok(await calls.ask(token, bookId, extra)).id as number;

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  admin = await s.login('admin');
  // 普通员工's entries hold the reader's pages (the reading room lends to every member of staff).
  readers = (
    await makeReaders(s, {
      prefix: 'queue',
      name: '排队读者',
      count: 3,
      menu: [...DEFAULT_ROLE_MENU],
      phone: '1360000',
    })
  ).map((r) => r.token);
});

afterAll(async () => {
  await s?.close();
});

describe('the librarian’s queue counts (side menu badges)', () => {
  it('counts 借阅 and 领用 waiting for a decision and renewals asked for, and only for the librarian', async () => {
    expect(await counts()).toEqual({ bookBorrowCount: 0, bookReceiveCount: 0, bookDelayCount: 0 });
    const book = await addBook();
    const gift = await addBook({ type: 3, author: '', lendMode: 2, title: '馆刊赠阅本' });
    const a = await ask(readers[0]!, book);
    await ask(readers[1]!, book);
    await ask(readers[0]!, gift, { applyType: 2, quantity: 2, borrowDays: undefined });
    expect(await counts()).toEqual({ bookBorrowCount: 2, bookReceiveCount: 1, bookDelayCount: 0 });

    // Approved and picked up, then a renewal asked: out of 借阅待审批, into 续借待审批.
    ok(await act('pass', a));
    expect((await counts()).bookBorrowCount).toBe(1);
    ok(await act('receive', a));
    ok(await act('applyDeferredDays', a, { deferredDays: 7, deferReason: '还在写论文' }, readers[0]!));
    expect(await counts()).toEqual({ bookBorrowCount: 1, bookReceiveCount: 1, bookDelayCount: 1 });
    ok(await act('delay', a, { agree: true, comment: '' }));
    expect((await counts()).bookDelayCount).toBe(0);

    // A reader holds no librarian's grant: refused, in words.
    expect(refused(await read(`${APPLY}/countPending`, readers[2]!))).toBe(
      '无权限执行此操作，请联系管理员开通',
    );
  });
});

describe('the badges stay live', () => {
  it('tells the librarians, and only them, after a request and after a decision', async () => {
    const [adminId, keeperId, readerId] = [
      await userIdOf(s, 'admin'),
      await userIdOf(s, 'staff04'),
      await userIdOf(s, 'queue03'),
    ];
    const told: number[] = [];
    const offs = [adminId, keeperId, readerId].map((id) =>
      s.bus.subscribe(id, (topics) => topics.includes('books') && told.push(id)),
    );
    const book = await addBook();
    expect(told).toEqual([]);
    const id = await ask(readers[2]!, book);
    await expect.poll(() => told.length).toBeGreaterThanOrEqual(2);
    expect([...new Set(told)].sort()).toEqual([adminId, keeperId].sort());
    told.length = 0;
    ok(await act('refuse', id, { reason: '馆内在用' }));
    await expect.poll(() => told.length).toBeGreaterThanOrEqual(2);
    // A list, a detail and the counts themselves change nothing and tell no one.
    told.length = 0;
    await read(`${APPLY}/pageListAdmin`);
    await read(`${APPLY}/countPending`);
    await new Promise((r) => setTimeout(r, 50));
    expect(told).toEqual([]);
    offs.forEach((off) => off());
  });
});

describe('the queues read and export what is filtered', () => {
  it('lists one kind with quick counts per status, the 已逾期 filter, and exports exactly those rows', async () => {
    const book = await addBook({ title: '逾期之书', totalCount: 3 });
    const late = await ask(readers[1]!, book, { borrowDays: 7 });
    const onTime = await ask(readers[2]!, book, { borrowDays: 7 });
    for (const id of [late, onTime]) {
      ok(await act('pass', id));
      ok(await act('receive', id));
    }
    const yesterday = addDays(museumDate(Date.now()), -1);
    await s.db.updateTable('bs_book_approval').set({ due_date: yesterday }).where('id', '=', late).execute();

    const page = ok(await read(`${APPLY}/pageListAdmin?applyType=1&bookId=${book}`));
    expect(page.list.map((x: { id: number }) => x.id).sort()).toEqual([late, onTime].sort());
    expect(page.counts).toEqual([{ value: 5, count: 2 }]);
    const overdue = ok(await read(`${APPLY}/pageListAdmin?applyType=1&overdue=1&bookId=${book}`));
    expect(overdue.list.map((x: { id: number }) => x.id)).toEqual([late]);
    expect(overdue.counts).toEqual([{ value: 5, count: 1 }]);
    // The page's 已逾期 tab and its filter select send `true`: the same rows.
    const byTab = ok(await read(`${APPLY}/pageListAdmin?applyType=1&overdue=true&bookId=${book}`));
    expect(byTab.list.map((x: { id: number }) => x.id)).toEqual([late]);
    // 领用 rows are not in the 借阅 queue.
    const gifts = ok(await read(`${APPLY}/pageListAdmin?applyType=2`));
    expect(gifts.list.every((x: { applyType: number }) => x.applyType === 2)).toBe(true);

    const res = await fetch(`${s.url}${APPLY}/export?applyType=1&overdue=1&bookId=${book}`, {
      headers: { token: admin },
    });
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    const sheet = wb.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
    const dueCol = header.indexOf('应还日期') + 1;
    expect(dueCol).toBeGreaterThan(0);
    expect(sheet.rowCount).toBe(2);
    expect(String(sheet.getRow(2).getCell(dueCol).value)).toBe(yesterday);
    expect(String(sheet.getRow(2).getCell(header.indexOf('申请人') + 1).value)).toBe('排队读者2');
  });
});
