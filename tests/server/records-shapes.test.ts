import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORDS } from '../../src/shared/records/index';
import { startServer, type TestServer } from './harness';
import { FIXTURES, createFixtureTables } from './records-fixtures';
import { importFile, xlsxOf } from './records-import-util';
import { M } from './util';

/**
 * The records engine's shapes and options beyond the generic suite, on fixture records
 * (records-fixtures.ts): booking places taken by one conditional UPDATE (never oversold, even
 * at once), given back on cancel and delete; personal data masked in lists and for readers;
 * soft delete; a log pruned after its retention; form-encoded bodies; status and yes/no columns
 * in an import.
 */

let s: TestServer;
let admin: string;
let staff: string;

beforeAll(async () => {
  s = await startServer(
    { RATE_LIMIT_PER_MINUTE: '1000000' },
    { records: [...RECORDS, ...FIXTURES], prepare: createFixtureTables },
  );
  admin = await s.login('admin');
  staff = await s.login('staff02');
});
afterAll(async () => s?.close());

async function slot(total: number, open = true): Promise<number> {
  const r = await s.call('POST', `${M}/fx/slot/save`, { token: admin, body: { label: '场次', total, open } });
  return r.body.result.id;
}
const used = async (id: number) =>
  (await s.call('GET', `${M}/fx/slot/detail?id=${id}`, { token: admin })).body.result.record.used as number;
const book = (slotId: number, persons: number) =>
  s.call('POST', `${M}/fx/booking/save`, { token: admin, body: { slotId, persons } });

describe('booking (records-design §2 C)', () => {
  it('takes places while there are some, refuses beyond, gives them back on cancel', async () => {
    const id = await slot(3);
    const a = await book(id, 2);
    expect(a.body.success).toBe(true);
    expect(await used(id)).toBe(2);
    const b = await book(id, 2);
    expect(b.body).toMatchObject({ success: false, code: 1010 });
    expect(b.body.result.fields.slotId).toBe('名额不足或已停止预约，请选择其他场次');
    expect(await used(id)).toBe(2);
    const cancel = await s.call('POST', `${M}/fx/booking/cancel`, {
      token: admin,
      body: { id: a.body.result.id, reason: '行程有变' },
    });
    expect(cancel.body.success).toBe(true);
    expect(await used(id)).toBe(0);
    expect((await book(id, 3)).body.success).toBe(true);
    expect(await used(id)).toBe(3);
  });

  it('never oversells when many book at once', async () => {
    const id = await slot(5);
    const all = await Promise.all(Array.from({ length: 12 }, () => book(id, 1)));
    expect(all.filter((r) => r.body.success)).toHaveLength(5);
    expect(await used(id)).toBe(5);
  });

  it('refuses a closed slot, and gives places back when a held booking is deleted', async () => {
    const closed = await slot(10, false);
    expect((await book(closed, 1)).body.success).toBe(false);
    const id = await slot(4);
    const r = await book(id, 4);
    expect(await used(id)).toBe(4);
    const del = await s.call('GET', `${M}/fx/booking/delete?id=${r.body.result.id}`, { token: admin });
    expect(del.body.success).toBe(true);
    expect(await used(id)).toBe(0);
  });
});

describe('personal data and soft delete', () => {
  it('masks phones and ID numbers in lists, and in the detail for readers', async () => {
    const body = {
      name: '钱多多',
      phone: '13912345678',
      idNumber: '11010519491231002X',
      birthDate: '1949-12-31',
      active: true,
      level: 1,
    };
    const id = (await s.call('POST', `${M}/fx/person/add`, { token: admin, body })).body.result.id;
    const list = await s.call('GET', `${M}/fx/person/pageList?keyword=钱多多`, { token: admin });
    expect(list.body.result.list[0]).toMatchObject({ phone: '139****5678', idNumber: '1101**********002X' });
    const mine = await s.call('GET', `${M}/fx/person/detail?id=${id}`, { token: admin });
    expect(mine.body.result.record).toMatchObject({ phone: '13912345678', idNumber: '11010519491231002X' });
    const theirs = await s.call('GET', `${M}/fx/person/detail?id=${id}`, { token: staff });
    expect(theirs.body.result.record).toMatchObject({ phone: '139****5678', idNumber: '1101**********002X' });
    const wrongCheck = await s.call('POST', `${M}/fx/person/add`, {
      token: admin,
      body: { ...body, idNumber: '110105194912310021' },
    });
    expect(wrongCheck.body.message).toBe('证件号码校验位不正确，请核对后重新输入');
  });

  it('keeps a soft-deleted row in its table, gone from every read', async () => {
    const body = { name: '孙小圣', phone: '13912340000', active: false, level: 2 };
    const id = (await s.call('POST', `${M}/fx/person/add`, { token: admin, body })).body.result.id;
    const del = await s.call('DELETE', `${M}/fx/person/delete?id=${id}`, { token: admin });
    expect(del.body.success).toBe(true);
    const kept = await (s.db as any)
      .selectFrom('fx_person')
      .select(['del_flag'])
      .where('id', '=', id)
      .executeTakeFirst();
    expect(kept).toEqual({ del_flag: 1 });
    expect((await s.call('GET', `${M}/fx/person/detail?id=${id}`, { token: admin })).body.code).toBe(404);
    const list = await s.call('GET', `${M}/fx/person/pageList?keyword=孙小圣`, { token: admin });
    expect(list.body.result.total).toBe(0);
  });

  it('takes a form-encoded body (the spec’s form-encoded add and edit)', async () => {
    const res = await fetch(`${s.url}${M}/fx/person/add`, {
      method: 'POST',
      headers: { token: admin, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ name: '表单人', phone: '010-12345678', active: 'true', level: '2' }),
    });
    const body = (await res.json()) as any;
    expect(body.success).toBe(true);
    const d = await s.call('GET', `${M}/fx/person/detail?id=${body.result.id}`, { token: admin });
    expect(d.body.result.record).toMatchObject({ name: '表单人', active: true, level: 2 });
  });

  it('imports status words and 是/否', async () => {
    const file = await xlsxOf(
      ['姓名', '手机号', '证件号码', '出生日期', '在册', '级别'],
      [
        ['导入甲', '13900001111', '', '1990-01-01', '是', '骨干'],
        ['导入乙', '13900002222', '', '1990-01-02', '否', '元老'],
      ],
    );
    const r = await importFile(s, admin, 'fxPerson', file);
    expect(r.body.result.lines).toEqual(['第 3 行：级别“元老”不是可选项（可选：普通、骨干）']);
  });
});

describe('log (records-design §2 E)', () => {
  it('prunes lines older than its retention at start, keeps the rest', async () => {
    const r = await s.call('GET', `${M}/fx/log/list`, { token: admin });
    const actions = r.body.result.list.map((x: { action: string }) => x.action);
    expect(actions).toContain('半年内的操作');
    expect(actions).not.toContain('很久以前的操作');
  });
});
