import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { M } from './util';
import { jsonCalls } from './volunteer-util';

/**
 * The readers' catalogue filter 中图分类 (README "Book lending"; records-design §4.1 "clcNo
 * class"): `clcClass=K` selects the rows whose 中图分类号 starts with K (typed k85.1 too, stored
 * upper case), not J's or the next class's; a two-letter class (TP) falls under its letter; a value that is not one
 * letter filters nothing. The rest of
 * the catalogue's filters are the engine's own (the generic suite).
 */

let s: TestServer;
let admin: string;
const { post, ok } = jsonCalls(() => s);
const BOOK = `${M}/book/bsBookInfo`;

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  admin = await s.login('admin');
  const add = (title: string, clcNo: string | undefined, type = 1) =>
    post(`${BOOK}/add`, admin, {
      type,
      title,
      author: '某某',
      publisher: '分类出版社',
      location: '资料室 2 架',
      totalCount: 1,
      lendMode: 1,
      ...(type === 2 && { year: 2024, issue: '3' }),
      ...(clcNo && { clcNo }),
    });
  for (const [title, clc, type] of [
    ['分类史一', 'K85', 1],
    ['分类史二', 'K207.8', 1],
    ['分类小写', 'k85.1', 1],
    ['分类计算机', 'TP311', 1],
    ['分类工业', 'T-0', 1],
    ['分类艺术', 'J0', 1],
    ['分类未编', undefined, 1],
    ['分类期刊', 'K87', 2],
  ] as const)
    ok(await add(title, clc, type));
});

afterAll(async () => {
  await s?.close();
});

const titles = async (query: string) => {
  const res = await s.call('GET', `${BOOK}/pageList?publisher=分类出版社&pageCount=50&${query}`, {
    token: admin,
  });
  return (ok(res).list as { title: string }[]).map((r) => r.title).sort();
};

describe('中图分类 (clcClass)', () => {
  it('selects a class by the letter its 中图分类号 starts with, under the other filters', async () => {
    expect(await titles('clcClass=K&type=1')).toEqual(['分类史一', '分类史二', '分类小写']);
    expect(await titles('clcClass=K')).toEqual(['分类史一', '分类史二', '分类小写', '分类期刊']);
    expect(await titles('clcClass=k&type=1')).toHaveLength(3);
    expect(await titles('clcClass=T')).toEqual(['分类工业', '分类计算机']);
    // J ends before K: the class after it is not taken in.
    expect(await titles('clcClass=J')).toEqual(['分类艺术']);
    expect(await titles('clcClass=J&keyword=艺术')).toEqual(['分类艺术']);
    expect(await titles('clcClass=Z')).toEqual([]);
  });

  it('filters nothing on a value that is not one class letter', async () => {
    expect(await titles('clcClass=KK&type=1')).toHaveLength(7);
  });

  it('stores a 中图分类号 upper case', async () => {
    const res = await s.call('GET', `${BOOK}/pageList?keyword=分类小写`, { token: admin });
    expect(ok(res).list[0].clcNo).toBe('K85.1');
  });
});
