import { describe, expect, it } from 'vitest';
import { RECORDS } from './index';
import { callsOf, defineRecord, f, withField, type RecordDef } from './define';
import { createSchema, listSchema, transitionSchema, updateSchema } from './schemas';
import { dutyRoster } from './office/duty-roster';
import { wkDynamic } from './office/wk-dynamic';

const messages = (schema: ReturnType<typeof createSchema>, body: unknown) => {
  const r = schema.safeParse(body);
  return r.success ? [] : r.error.issues.map((i) => i.message);
};

describe('field builders', () => {
  it("builds a field's schema on first use, once, and a copy of the field keeps it (issue 25)", () => {
    const fd = f.text('名称', { required: true, max: 5 });
    expect(fd.schema).toBe(fd.schema);
    expect({ ...fd }.schema).toBe(fd.schema);
    expect(fd.schema.safeParse('  太长的一个名称  ').success).toBe(false);
    expect(fd.schema.safeParse(' 展厅 ').data).toBe('展厅');
  });

  it('changes a field by withField without building its schema, sharing the one built later', () => {
    const fd = f.int('排序', { max: 9999 });
    const sort = withField(fd, { empty: 9999 });
    expect(sort).toMatchObject({ kind: 'int', label: '排序', empty: 9999 });
    expect(fd.empty).toBe(null);
    expect(sort.schema).toBe(fd.schema);
  });

  const schema = createSchema(dutyRoster);
  const good = {
    dutyDate: '2027-01-01',
    dutyType: '1',
    shift: '2',
    leaderId: 2,
    staffIds: [3, 3, 4],
    dutyPhone: ' 010-12345678 ',
  };

  it('read values as a form, a JSON client or a spreadsheet sends them', () => {
    const out = schema.parse({ ...good, leaderId: '2', staffIds: '3,4', shift: 2 });
    expect(out).toMatchObject({ leaderId: 2, staffIds: [3, 4], shift: '2', dutyPhone: '010-12345678' });
    expect(schema.parse(good).staffIds).toEqual([3, 4]);
    // An optional field left empty is "not given"; the server stores its empty.
    expect(schema.parse({ ...good, remark: '' }).remark).toBeUndefined();
  });

  it('word every refusal with the field’s own label', () => {
    expect(messages(schema, { ...good, dutyDate: '2027-02-30' })).toEqual([
      '值班日期须为有效日期，格式 yyyy-MM-dd（如 2026-12-01）',
    ]);
    expect(messages(schema, { ...good, dutyDate: undefined })).toEqual(['请选择值班日期']);
    expect(messages(schema, { ...good, dutyPhone: '' })).toEqual(['请填写值班电话']);
    expect(messages(schema, { ...good, dutyPhone: 'x'.repeat(31) })[0]).toBe('值班电话不能超过 30 个字符');
    expect(messages(schema, { ...good, staffIds: [] })).toEqual(['请选择值班人员']);
    expect(messages(schema, { ...good, leaderId: 'abc' })).toEqual(['带班领导必须是数字']);
    expect(messages(schema, { ...good, remark: '\u202Eabc' })[0]).toContain('备注');
  });

  it('refuse spoofing and control characters in one-line text', () => {
    const s = createSchema(wkDynamic);
    expect(messages(s, { title: 'a\u0007b', content: 'x' })).toEqual(['标题不能包含控制字符']);
    expect(messages(s, { title: 'ab\u202Ecd', content: 'x' })[0]).toContain('标题');
  });

  it('bool, int, money, datetime and status builders', () => {
    const def = defineRecord({
      name: 'builderProbe',
      title: '探针',
      shape: 'catalog',
      table: 'probe',
      base: '/probe',
      calls: { list: 'GET list', detail: 'GET detail', create: 'POST save' },
      fields: {
        on: f.bool('启用'),
        n: f.int('数量', { min: 1, max: 9 }),
        price: f.money('单价'),
        at: f.datetime('时间'),
        st: f.status('状态', [
          { value: 1, label: '有效' },
          { value: 0, label: '停用' },
        ]),
      },
      access: { read: null, write: 'x' },
      order: [['id', 'asc']],
      describe: () => '',
    });
    const s = createSchema(def);
    expect(s.parse({ on: '是', n: '3', price: '12.50', at: '2026-12-01 09:30', st: '0' })).toEqual({
      on: true,
      n: 3,
      price: 12.5,
      at: Date.UTC(2026, 11, 1, 1, 30),
      st: 0,
    });
    expect(messages(s, { n: 10 })).toEqual(['数量不能大于 9']);
    expect(messages(s, { price: 1.234 })).toEqual(['单价最多保留 2 位小数']);
    expect(messages(s, { at: '2026-13-01 09:30' })).toEqual([
      '时间须为 yyyy-MM-dd HH:mm 格式（如 2026-12-01 09:30）',
    ]);
    expect(messages(s, { st: 5 })).toEqual(['状态不正确，可选：1 有效、0 停用']);
    expect(messages(s, { on: 'maybe' })).toEqual(['启用只能是 true 或 false（也可以是 1 或 0）']);
  });
});

describe('derived schemas', () => {
  it('list: paging, each filter, keyword and order', () => {
    const q = listSchema(dutyRoster).parse({
      dutyDateFrom: '2027-01-01',
      staffIds: '4',
      orderBy: 'dutyDate',
      order: 'desc',
    });
    expect(q).toMatchObject({
      currentPage: 1,
      pageCount: 20,
      dutyDateFrom: '2027-01-01',
      staffIds: 4,
      order: 'desc',
    });
    expect(listSchema(dutyRoster).safeParse({ orderBy: 'password' }).success).toBe(false);
    expect(Object.keys(listSchema(wkDynamic).shape)).toContain('keyword');
  });
  it('update carries the id; transitions carry the id and their input', () => {
    expect(updateSchema(dutyRoster).shape.id).toBeDefined();
    expect(Object.keys(transitionSchema(wkDynamic.transitions!.publish!).shape)).toEqual(['id']);
  });
  it('calls: the spec names and methods, transitions as POST by default', () => {
    expect(callsOf(wkDynamic).map((c) => `${c.method} ${c.name}`)).toEqual([
      'GET list',
      'GET detail',
      'POST save',
      'POST update',
      'GET delete',
      'POST publish',
      'POST takeDown',
    ]);
  });
});

describe('defineRecord', () => {
  const base: RecordDef = {
    name: 'broken',
    title: '坏',
    shape: 'catalog',
    table: 't',
    base: '/t',
    calls: { list: 'GET list', detail: 'GET detail' },
    fields: { a: f.text('甲') },
    access: { read: null, write: 'x' },
    order: [['a', 'asc']],
    describe: () => '',
  };
  it('refuses a declaration that names fields it does not have', () => {
    expect(() => defineRecord({ ...base, order: [['b', 'asc']] })).toThrow(/unknown field b/);
    expect(() => defineRecord({ ...base, unique: [{ fields: ['z'], message: '' }] })).toThrow(
      /unknown field z/,
    );
    expect(() => defineRecord({ ...base, status: { field: 'a' } })).toThrow(/f.status/);
    expect(() => defineRecord({ ...base, transitions: { go: { label: '走', from: [0], to: 1 } } })).toThrow(
      /status/,
    );
  });
  it('a keyed grant names a field of the record and is not combined with owner', () => {
    const keyed = { field: 'a', grants: { v: 'y' }, message: '只能编辑 v' };
    expect(() => defineRecord({ ...base, access: { ...base.access, keyed } })).not.toThrow();
    expect(() =>
      defineRecord({ ...base, access: { ...base.access, keyed: { ...keyed, field: 'k' } } }),
    ).toThrow(/unknown field k/);
    const owned = { ...base, fields: { ...base.fields, u: f.user('人') } };
    expect(() =>
      defineRecord({ ...owned, access: { ...base.access, keyed, owner: { field: 'u', all: 'z' } } }),
    ).toThrow(/keyed and owner/);
  });
  it('every registered record has a unique name, table and base, and calls that do not collide', () => {
    const names = RECORDS.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(RECORDS.map((r) => r.table)).size).toBe(RECORDS.length);
    for (const r of RECORDS) {
      // Create and update may be one call (业务数据's spec `POST save`: with an id it changes the
      // row); any other two calls of a record must differ.
      const calls = callsOf(r).filter((c) => !(c.key === 'update' && r.calls.update === r.calls.create));
      const urls = calls.map((c) => c.name);
      expect(new Set(urls).size, r.name).toBe(urls.length);
    }
  });
});
