import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, museumDate, parseMuseumDate } from '../../src/shared/rules/museum-time';
import { BOOK, bookCalls, makeReaders } from './books-util';
import { startServer, type TestServer } from './harness';
import { M, personWithMenu } from './util';
import { jsonCalls } from './volunteer-util';

/**
 * 借阅概览's figures (records-design §9; README "Book lending"): `total` and `chartOne` …
 * `chartFour` over a seeded reading room whose every number is known, museum months at their
 * edge, and who may read them; the catalogue form's ISBN look-up; the e-book download as an
 * attachment, logged. The server is fresh, so the counts are exact.
 */

let s: TestServer;
let admin: string;
let keeper: string; // staff04 陈静, 典藏部's 典藏管理员: the whole book module, the panel too
const { ok, refused } = jsonCalls(() => s);
const READER_KEYS = ['book.book', 'book.borrowRecord', 'book.receiveRecord'];
let r: { token: string; id: number }[] = [];
let outsider: string;

const calls = bookCalls(
  () => s,
  () => admin,
);
const { read, act } = calls;
const addBook = (fields: Record<string, unknown> = {}) => calls.addBook('统计图书', fields);
const ask = async (reader: { token: string }, bookId: number, extra: Record<string, unknown> = {}) =>
  ok(await calls.ask(reader.token, bookId, extra)).id as number;
/** Asked, approved and picked up. */
async function lent(reader: { token: string }, bookId: number, extra: Record<string, unknown> = {}) {
  const id = await ask(reader, bookId, extra);
  ok(await act('pass', { id }));
  ok(await act('receive', { id }));
  return id;
}
const setApproval = (id: number, values: { due_date?: string; receive_time?: number }) =>
  s.db.updateTable('bs_book_approval').set(values).where('id', '=', id).execute();

function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const i = y * 12 + (m - 1) + n;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
}

const ids: Record<string, number> = {};
let thisMonth: string;

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  admin = await s.login('admin');
  keeper = await s.login('staff04');
  // Every member of staff reads the reading room by the default role; this person's role does not.
  outsider = await personWithMenu(s, 'nobooks', ['home.workbench']);
  thisMonth = museumDate(Date.now()).slice(0, 7);
  // r0 in 陈列部, r1 in 典藏部, r2 in no department.
  r = await makeReaders(s, {
    prefix: 'statreader',
    name: '统计读者',
    count: 3,
    menu: READER_KEYS,
    phone: '1397531',
    depts: ['陈列部', '典藏部', null],
  });

  // The holding: three books (one without a class), a periodical issue, a publication, and a
  // weeded book that no figure counts.
  ids.b1 = await addBook({ clcNo: 'K878.2', totalCount: 3 });
  ids.b2 = await addBook({ clcNo: 'i247.5', totalCount: 2 });
  ids.b3 = await addBook({ totalCount: 1 });
  ids.p1 = await addBook({ type: 2, title: '文物', year: 2025, issue: '3', clcNo: 'K', totalCount: 1 });
  ids.g1 = await addBook({ type: 3, title: '馆藏精品图录', author: '', lendMode: 2, totalCount: 10 });
  ids.w1 = await addBook({ clcNo: 'K87', totalCount: 5, status: 3 });

  // Loans. r1's loan of b2, returned, picked up one millisecond before this museum month began;
  // r2's, returned, at the very first millisecond of it (UTC's month would say the last one).
  const monthStart = parseMuseumDate(`${thisMonth}-01`)!;
  const early = await lent(r[1]!, ids.b2);
  ok(await act('returnBook', { id: early, returnCondition: 1 }));
  await setApproval(early, { receive_time: monthStart - 1 });
  const edge = await lent(r[2]!, ids.b2);
  ok(await act('returnBook', { id: edge, returnCondition: 1 }));
  await setApproval(edge, { receive_time: monthStart });
  // A loan three months back, returned.
  const old = await lent(r[0]!, ids.b3);
  ok(await act('returnBook', { id: old, returnCondition: 1 }));
  await setApproval(old, { receive_time: parseMuseumDate(`${addMonths(thisMonth, -3)}-15`)! });

  // On loan now: r0 holds b1, b2 (asking for a renewal) and the periodical; r1 holds b1, overdue.
  await lent(r[0]!, ids.b1);
  const renewing = await lent(r[0]!, ids.b2);
  ok(await act('applyDeferredDays', { id: renewing, deferredDays: 7, deferReason: '写论文' }, r[0]!.token));
  await lent(r[0]!, ids.p1);
  const late = await lent(r[1]!, ids.b1);
  await setApproval(late, { due_date: addDays(museumDate(Date.now()), -1) });
  // 领用: r1 received two catalogues; r2 is approved for one, not picked up; r2 asks for b1.
  await lent(r[1]!, ids.g1, { applyType: 2, quantity: 2 });
  const approved = await ask(r[2]!, ids.g1, { applyType: 2, quantity: 1 });
  ok(await act('pass', { id: approved }));
  await ask(r[2]!, ids.b1);
});

afterAll(async () => {
  await s?.close();
});

describe('借阅概览', () => {
  it('counts the holding and the applications as they stand (total)', async () => {
    expect(ok(await read(`${BOOK}/total`))).toEqual({
      bookTitles: 3,
      bookCopies: 6,
      periodicalIssues: 1,
      publicationTitles: 1,
      onLoan: 4,
      overdue: 1,
      pending: 1,
      pendingDefer: 1,
      awaitingPickup: 1,
    });
  });

  it('splits the holding by 中图法 class, 未分类 last (chartOne)', async () => {
    expect(ok(await read(`${BOOK}/chartOne`, keeper)).slices).toEqual([
      { code: 'I', name: 'I 文学', titles: 1, copies: 2 },
      { code: 'K', name: 'K 历史、地理', titles: 2, copies: 4 },
      { code: '', name: '未分类', titles: 2, copies: 9 },
    ]);
  });

  it('counts borrowings and 领用 per museum month, 12 months, at the month edge (chartTwo)', async () => {
    const c = ok(await read(`${BOOK}/chartTwo`));
    expect(c.months).toHaveLength(12);
    expect(c.months[11]).toBe(thisMonth);
    expect(c.months[0]).toBe(addMonths(thisMonth, -11));
    // This month: the edge loan and r0's three and r1's one on loan.
    expect(c.borrowings[11]).toBe(5);
    expect(c.borrowings[10]).toBe(1);
    expect(c.borrowings[8]).toBe(1);
    expect(c.borrowings.reduce((a: number, b: number) => a + b, 0)).toBe(7);
    expect(c.receipts[11]).toBe(1);
    expect(c.receivedCopies[11]).toBe(2);
    expect(c.receipts.reduce((a: number, b: number) => a + b, 0)).toBe(1);
  });

  it('ranks the books borrowed most (chartThree) and counts loans by department (chartFour)', async () => {
    expect(ok(await read(`${BOOK}/chartThree`)).books).toEqual([
      { id: ids.b2, title: '统计图书2', label: '统计图书2', count: 3 },
      { id: ids.b1, title: '统计图书1', label: '统计图书1', count: 2 },
      { id: ids.b3, title: '统计图书3', label: '统计图书3', count: 1 },
      { id: ids.p1, title: '文物', label: '文物 2025年第3期', count: 1 },
    ]);
    const depts = ok(await read(`${BOOK}/chartFour`)).depts;
    expect(depts.map((d: { name: string; count: number }) => [d.name, d.count])).toEqual([
      ['陈列部', 4],
      ['典藏部', 2],
      ['未分配部门', 1],
    ]);
  });

  it('answers only those who may open the panel', async () => {
    for (const call of ['total', 'chartOne', 'chartTwo', 'chartThree', 'chartFour']) {
      expect(refused(await read(`${BOOK}/${call}`, r[0]!.token))).toBe('无权限执行此操作，请联系管理员开通');
      expect(refused(await read(`${BOOK}/${call}`, outsider))).toBe('无权限执行此操作，请联系管理员开通');
      expect((await read(`${BOOK}/${call}`, keeper)).body.success).toBe(true);
    }
    expect((await s.call('GET', `${BOOK}/total`)).status).toBe(999);
  });
});

describe('ISBN look-up', () => {
  it('answers the newest row with that ISBN, from ISBN-13 or ISBN-10, with or without hyphens', async () => {
    await addBook({ title: '旧版书名', isbn: '9787020002207', price: 20 });
    const newer = await addBook({
      title: '红楼梦',
      subtitle: '校注本',
      author: '曹雪芹',
      publisher: '人民文学出版社',
      publishDate: '2008-07',
      clcNo: 'I242.4',
      price: 59.7,
      isbn: '978-7-02-000220-7',
    });
    for (const isbn of ['9787020002207', '978-7-02-000220-7', ' 978 7020002207 ']) {
      const a = ok(await read(`${BOOK}/isbn?isbn=${encodeURIComponent(isbn)}`, r[0]!.token));
      expect(a).toMatchObject({ isbn: '9787020002207', found: true, sourceId: newer, message: '' });
      expect(a.fill).toMatchObject({
        title: '红楼梦',
        subtitle: '校注本',
        author: '曹雪芹',
        publisher: '人民文学出版社',
        publishDate: '2008-07',
        clcNo: 'I242.4',
        price: 59.7,
      });
    }
    // An old ISBN-10 finds the row stored under its ISBN-13.
    const tenId = await addBook({ title: '数字之书', isbn: '0-306-40615-2' });
    const ten = ok(await read(`${BOOK}/isbn?isbn=0-306-40615-2`, keeper));
    expect(ten).toMatchObject({ isbn: '9780306406157', found: true, sourceId: tenId });
    expect(ok(await read(`${BOOK}/isbn?isbn=030640615-2`, keeper)).sourceId).toBe(tenId);
  });

  it('says when the catalogue has no such book, and refuses bad ISBNs in words', async () => {
    const none = ok(await read(`${BOOK}/isbn?isbn=9787101003048`));
    expect(none).toEqual({
      isbn: '9787101003048',
      found: false,
      message: '馆藏中没有 ISBN 为 9787101003048 的书，请手工填写',
      sourceId: null,
      fill: null,
    });
    expect(refused(await read(`${BOOK}/isbn?isbn=9787020002208`))).toBe('ISBN校验位不正确，请核对后重新输入');
    expect(refused(await read(`${BOOK}/isbn?isbn=0-306-40615-3`))).toBe('ISBN校验位不正确，请核对后重新输入');
    expect(refused(await read(`${BOOK}/isbn?isbn=12345`))).toBe(
      'ISBN须为 13 位 ISBN（978 或 979 开头）或 10 位旧 ISBN',
    );
    const empty = await read(`${BOOK}/isbn?isbn=`);
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/ISBN/);
    // Whoever may not read the catalogue learns nothing.
    expect(refused(await read(`${BOOK}/isbn?isbn=9787020002207`, outsider))).toMatch(/无权限/);
  });
});

describe('the e-book download', () => {
  async function upload(name: string, bytes: Buffer) {
    const fd = new FormData();
    fd.append('tableName', 'bsBookInfo');
    fd.append('file', new Blob([new Uint8Array(bytes)]), name);
    const res = await fetch(`${s.url}${M}/attach/upload`, {
      method: 'POST',
      headers: { token: admin },
      body: fd,
    });
    const body = (await res.json()) as any;
    expect(body.success, JSON.stringify(body)).toBe(true);
    return body.result.attId as number;
  }
  const download = (token: string, id: unknown) =>
    fetch(`${s.url}${BOOK}/download?id=${String(id)}`, { headers: { token } });

  it('serves the 电子版 as an attachment with a safe name and its type, logged for each download', async () => {
    const bytes = Buffer.from('%PDF-1.4 青铜器研究');
    const id = await addBook({
      title: '青铜器/研究:"上"',
      ebookFileId: [await upload('scan-0001.pdf', bytes)],
    });
    const got = await download(r[0]!.token, id);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/pdf');
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    const cd = got.headers.get('content-disposition')!;
    expect(cd).toMatch(/^attachment; /);
    expect(cd).toContain(`filename*=UTF-8''${encodeURIComponent('青铜器_研究__上_.pdf')}`);
    expect(Buffer.from(await got.arrayBuffer())).toEqual(bytes);
    await (await download(keeper, id)).arrayBuffer();

    const epub = Buffer.from('PK\u0003\u0004 epub');
    const epubId = await addBook({ title: '石窟', ebookFileId: [await upload('石窟.epub', epub)] });
    const e = await download(r[1]!.token, epubId);
    expect(e.headers.get('content-type')).toBe('application/epub+zip');
    expect(e.headers.get('content-disposition')).toContain(encodeURIComponent('石窟.epub'));
    expect(Buffer.from(await e.arrayBuffer())).toEqual(epub);

    // Each download is in the system log as 下载, naming the row (the log is written in batches).
    await expect
      .poll(async () =>
        (
          await s.db
            .selectFrom('system_log')
            .select(['target_table', 'target_id', 'result', 'user_id'])
            .where('action', '=', '下载')
            .where('path', 'like', '%bsBookInfo/download%')
            .execute()
        )
          .filter((x) => x.result === 1 && x.target_table === 'bs_book_info')
          .map((x) => x.target_id)
          .sort(),
      )
      .toEqual([String(id), String(id), String(epubId)].sort());
  });

  it('refuses a row without an e-book, unknown rows and those who may not read the catalogue', async () => {
    const plain = await addBook({ title: '无电子版的书' });
    const none = await download(r[0]!.token, plain);
    expect(((await none.json()) as any).message).toBe('《无电子版的书》没有电子版，请到资料室借阅纸本');
    expect(((await (await download(r[0]!.token, 99999999)).json()) as any).message).toBe(
      '该书刊不存在或已删除，请刷新后重试',
    );
    expect(((await (await download(r[0]!.token, 'abc')).json()) as any).success).toBe(false);
    const id = await addBook({
      title: '内部资料',
      ebookFileId: [await upload('内部.pdf', Buffer.from('%PDF'))],
    });
    const out = await download(outsider, id);
    expect(out.headers.get('content-type')).toMatch(/json/);
    expect(((await out.json()) as any).message).toMatch(/无权限/);
  });
});
