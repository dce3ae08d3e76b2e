import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_DICTIONARIES } from '../../src/shared/records/dictionaries';
import { seedDictionaries } from '../../src/server/records/dictionary';
import { DEMO_LINK_HOSTS } from '../../src/server/modules/seed/seed';
import { startServer, type TestServer } from './harness';
import { M } from './util';

/**
 * 数据字典 (records-design §8): seeded at every start without undoing an administrator's
 * changes; system items can be disabled, never deleted, and keep their value; the two read calls
 * answer enabled items in order to every signed-in person; a record's dict field takes only an
 * enabled item (a value it already holds stays valid when the item is disabled later).
 */

let s: TestServer;
let admin: string;
let staff: string;

beforeAll(async () => {
  s = await startServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
  admin = await s.login('admin');
  staff = await s.login('staff02');
});
afterAll(async () => s?.close());

const byKey = (key: string, token = staff) =>
  s.call('GET', `${M}/collectDict/getSelectDataByKey?key=${key}`, { token });

async function itemOf(dictKey: string, value: string) {
  const r = await s.call('GET', `${M}/collectDictItem/pageList?dictKey=${dictKey}&pageCount=200`, {
    token: admin,
  });
  return (r.body.result.list as { id: number; value: string; label: string; isSystem: boolean }[]).find(
    (i) => i.value === value,
  )!;
}

describe('seeded dictionaries', () => {
  it('holds every list of records-design §8 with its items in order', async () => {
    for (const d of SEED_DICTIONARIES) {
      const r = await byKey(d.key);
      // The content link allow-list is seeded empty; the demo museum adds its own hosts.
      const demo = d.key === 'content_link_host' ? DEMO_LINK_HOSTS.map(([host]) => host) : [];
      expect(
        r.body.result.map((o: { value: string }) => o.value),
        d.key,
      ).toEqual([...d.items.map((i) => i.value), ...demo]);
    }
    const categories = (await byKey('relic_category')).body.result;
    expect(categories).toHaveLength(35);
    expect((await byKey('clc_class')).body.result).toHaveLength(22);
    expect((await byKey('relic_texture')).body.result[1]).toEqual({
      label: '无机质',
      value: '11',
      parentValue: '1',
    });
    expect(SEED_DICTIONARIES.map((d) => d.key)).toEqual(
      expect.arrayContaining([
        'relic_level',
        'relic_completeness',
        'relic_preservation',
        'relic_source',
        'relic_in_time_range',
        'id_type',
        'political_status',
        'education',
        'team_type',
        'periodical_frequency',
        'video_type',
        'course_type',
        'volunteer_indicator',
        'disease_bronze',
        'disease_ceramic',
      ]),
    );
  });

  it('answers several at once, and an unknown key as an empty list', async () => {
    const r = await s.call('POST', `${M}/collectDict/getSelectDataByArr`, {
      token: staff,
      body: { keys: ['relic_level', 'duty_shift', 'no_such_key'] },
    });
    expect(Object.keys(r.body.result)).toEqual(['relic_level', 'duty_shift', 'no_such_key']);
    expect(r.body.result.relic_level.map((o: { label: string }) => o.label)).toEqual([
      '一级',
      '二级',
      '三级',
      '一般',
      '未定级',
    ]);
    expect(r.body.result.no_such_key).toEqual([]);
    const bad = await byKey('Bad-Key');
    expect(bad).toMatchObject({
      status: 400,
      body: { success: false, message: '字典键格式不正确（如 relic_level）' },
    });
  });

  it('keeps a disabled, renamed or re-sorted item as the administrator left it when seeding again', async () => {
    const item = await itemOf('relic_level', '4');
    const edit = await s.call('POST', `${M}/collectDictItem/update`, {
      token: admin,
      body: {
        id: item.id,
        dictKey: 'relic_level',
        label: '一般文物',
        value: '4',
        sort: 1,
        status: 0,
        parentValue: '',
        remark: '',
      },
    });
    expect(edit.body.success).toBe(true);
    expect(await seedDictionaries(s.db)).toBe(0);
    const after = await itemOf('relic_level', '4');
    expect(after.label).toBe('一般文物');
    const options = (await byKey('relic_level')).body.result.map((o: { label: string }) => o.label);
    expect(options).toEqual(['一级', '二级', '三级', '未定级']);
  });
});

describe('system items', () => {
  it('can be disabled but never deleted, and keep their value', async () => {
    const item = await itemOf('education', '9');
    const del = await s.call('GET', `${M}/collectDictItem/delete?id=${item.id}`, { token: admin });
    expect(del.body).toMatchObject({ success: false, message: '系统内置字典项不能删除，可以停用' });
    const rename = await s.call('POST', `${M}/collectDictItem/update`, {
      token: admin,
      body: { id: item.id, dictKey: 'education', label: '其它', value: '99', sort: 90, status: 1 },
    });
    expect(rename.body).toMatchObject({ success: false, code: 1010 });
    expect(rename.body.result.fields.value).toBe('系统内置字典项的值不能修改，可以修改名称或停用');
    const type = await s.call('GET', `${M}/collectDict/pageList?keyword=education`, { token: admin });
    const t = type.body.result.list.find((x: { dictKey: string }) => x.dictKey === 'education');
    const delType = await s.call('GET', `${M}/collectDict/delete?id=${t.id}`, { token: admin });
    expect(delType.body.message).toBe('系统内置字典不能删除');
  });

  it('an item added by the office can be deleted; a tree parent cannot while it has children', async () => {
    const add = (value: string, parentValue = '') =>
      s.call('POST', `${M}/collectDictItem/save`, {
        token: admin,
        body: { dictKey: 'relic_texture', label: `新质地${value}`, value, parentValue, sort: 500, status: 1 },
      });
    const parent = (await add('3')).body.result.id;
    expect((await add('31', '3')).body.success).toBe(true);
    const orphan = await add('41', '4');
    expect(orphan.body.result.fields.parentValue).toBe('上级值“4”不存在');
    const refused = await s.call('GET', `${M}/collectDictItem/delete?id=${parent}`, { token: admin });
    expect(refused.body.message).toBe('“新质地3”下还有 1 个下级项，请先删除或移走它们');
    const badKey = await s.call('POST', `${M}/collectDictItem/save`, {
      token: admin,
      body: { dictKey: 'no_such_dict', label: 'x', value: 'x', status: 1 },
    });
    expect(badKey.body.result.fields.dictKey).toBe('所属字典不存在，请刷新后重试');
  });
});

describe('dictionary values in records', () => {
  it('take only enabled items; a row keeps a value disabled after it was saved', async () => {
    const body = {
      dutyDate: '2028-01-05',
      dutyType: '3',
      shift: '1',
      leaderId: 2,
      staffIds: [4],
      dutyPhone: '010-12345678',
    };
    const saved = await s.call('POST', `${M}/bs/bsDutyRoster/save`, { token: admin, body });
    expect(saved.body.success).toBe(true);
    const item = await itemOf('duty_type', '3');
    await s.call('POST', `${M}/collectDictItem/update`, {
      token: admin,
      body: { id: item.id, dictKey: 'duty_type', label: item.label, value: '3', sort: 30, status: 0 },
    });
    const kept = await s.call('POST', `${M}/bs/bsDutyRoster/update`, {
      token: admin,
      body: { ...body, id: saved.body.result.id, remark: '春节' },
    });
    expect(kept.body.success).toBe(true);
    const fresh = await s.call('POST', `${M}/bs/bsDutyRoster/save`, {
      token: admin,
      body: { ...body, dutyDate: '2028-01-09' },
    });
    expect(fresh.body.result.fields.dutyType).toBe('值班类型不正确，可选：1 行政值班、2 安保值班');
  });

  it('are edited only with 数据字典’s grant; everyone reads the options', async () => {
    const write = await s.call('POST', `${M}/collectDictItem/save`, {
      token: staff,
      body: { dictKey: 'duty_type', label: 'x', value: 'x9', status: 1 },
    });
    expect(write.body.code).toBe(1005);
    expect((await byKey('duty_type', staff)).body.success).toBe(true);
    const anonymous = await s.call('GET', `${M}/collectDict/getSelectDataByKey?key=duty_type`);
    expect(anonymous.status).toBe(999);
  });
});
