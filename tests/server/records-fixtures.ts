import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../../src/server/db/dialect';
import type { Db } from '../../src/server/db/index';
import { defineRecord, f, type RecordDef } from '../../src/shared/records/define';
import { idCardProblem, phoneProblem } from '../../src/shared/records/validators';

/**
 * Fixture records for the engine's shapes no declared record uses yet (booking, singleton, log)
 * and its options (masked personal data, soft delete, a status chosen in the form). They are
 * served only by the test servers that ask for them (startServer's `records`), over tables made
 * here from the definitions. The volunteer, reservation and book records will exercise the same
 * code for real; until then, these keep it honest.
 */

export const fxPerson = defineRecord({
  name: 'fxPerson',
  title: '测试人员',
  shape: 'catalog',
  table: 'fx_person',
  base: '/fx/person',
  calls: {
    list: 'GET pageList',
    detail: 'GET detail',
    create: 'POST add',
    update: 'POST edit',
    remove: 'DELETE delete',
    export: 'POST export',
  },
  fields: {
    name: f.text('姓名', { required: true, max: 30, list: true, keyword: true }),
    phone: f.text('手机号', { required: true, max: 20, validate: phoneProblem, list: true, mask: 'phone' }),
    idNumber: f.text('证件号码', {
      max: 18,
      validate: (v) => idCardProblem(v),
      list: true,
      mask: 'idNumber',
    }),
    birthDate: f.date('出生日期', { list: true, filter: 'range' }),
    active: f.bool('在册', { list: true, filter: 'eq' }),
    level: f.status(
      '级别',
      [
        { value: 1, label: '普通' },
        { value: 2, label: '骨干' },
      ],
      { list: true, filter: 'eq' },
    ),
  },
  access: { read: 'home.workbench', write: 'oa.watchList' },
  order: [['id', 'desc']],
  softDelete: true,
  importable: true,
  describe: (r) => String(r.name ?? ''),
});

/** A capacity row: places in total, taken, and whether it takes bookings. */
export const fxSlot = defineRecord({
  name: 'fxSlot',
  title: '测试场次',
  shape: 'catalog',
  table: 'fx_slot',
  base: '/fx/slot',
  calls: { list: 'GET list', detail: 'GET detail', create: 'POST save', update: 'POST update' },
  fields: {
    label: f.text('场次', { required: true, list: true }),
    total: f.int('名额', { required: true, min: 1, max: 1000, list: true }),
    used: f.int('已约', { form: false, list: true, initial: 0 }),
    open: f.bool('开放', { list: true }),
  },
  access: { read: 'home.workbench', write: 'oa.watchList' },
  order: [['id', 'asc']],
  describe: (r) => String(r.label ?? ''),
});

/** A booking that takes places from a slot, and gives them back when cancelled. */
export const fxBooking = defineRecord({
  name: 'fxBooking',
  title: '测试预约',
  shape: 'booking',
  table: 'fx_booking',
  base: '/fx/booking',
  calls: { list: 'GET getList', detail: 'GET detail', create: 'POST save', remove: 'GET delete' },
  fields: {
    slotId: f.int('场次编号', { required: true, min: 1, list: true }),
    persons: f.int('人数', { required: true, min: 1, max: 5, list: true }),
    status: f.status(
      '状态',
      [
        { value: 1, label: '已预约', color: 'green' },
        { value: 3, label: '已取消', color: 'gray' },
      ],
      { form: false, list: true, filter: 'eq', initial: 1 },
    ),
  },
  status: { field: 'status' },
  transitions: {
    cancel: {
      label: '取消',
      from: [1],
      to: 3,
      input: { reason: f.text('取消原因', { required: true, max: 100 }) },
    },
  },
  booking: { capacityTable: 'fx_slot', capacityField: 'slotId', quantityField: 'persons', releasedAt: [3] },
  access: { read: 'home.workbench', write: 'oa.watchList' },
  order: [['id', 'asc']],
  describe: (r) => `预约 ${String(r.persons ?? '')} 人`,
});

/** One settings row per type. */
export const fxSetting = defineRecord({
  name: 'fxSetting',
  title: '测试设置',
  shape: 'singleton',
  table: 'fx_setting',
  base: '/fx/setting',
  calls: { list: 'GET list', detail: 'GET detail', load: 'GET load', save: 'POST save' },
  fields: {
    type: f.int('类型', { required: true, min: 1, max: 2 }),
    advanceDays: f.int('可提前天数', { required: true, min: 1, max: 30 }),
    notice: f.textarea('预约须知', { max: 500 }),
  },
  singleton: { scope: 'type' },
  access: { read: 'home.workbench', write: 'oa.watchList' },
  order: [['type', 'asc']],
  describe: (r) => `类型 ${String(r.type ?? '')}`,
});

/** An append-only log kept 180 days. */
export const fxLog = defineRecord({
  name: 'fxLog',
  title: '测试日志',
  shape: 'log',
  table: 'fx_log',
  base: '/fx/log',
  calls: { list: 'GET list', detail: 'GET detail', export: 'GET export' },
  fields: {
    action: f.text('操作', { required: true, list: true, keyword: true }),
    result: f.status(
      '结果',
      [
        { value: 1, label: '成功' },
        { value: 0, label: '失败' },
      ],
      { list: true, filter: 'eq' },
    ),
  },
  access: { read: 'system.data', write: 'system.data' },
  order: [['id', 'desc']],
  retentionDays: 180,
  describe: (r) => String(r.action ?? ''),
});

/**
 * A record with the field kinds no declared record has all of: images (several), a file of
 * one type and a small size, a ref to another record (imported by its title), and a list whose
 * rows hold a dictionary value and a person.
 */
export const fxItem = defineRecord({
  name: 'fxItem',
  title: '测试藏品',
  shape: 'catalog',
  table: 'fx_item',
  base: '/fx/item',
  calls: {
    list: 'GET list',
    detail: 'GET detail',
    create: 'POST save',
    update: 'POST update',
    remove: 'GET delete',
    export: 'GET export',
  },
  fields: {
    name: f.text('藏品名称', { required: true, max: 50, list: true, keyword: true }),
    keeperId: f.ref('保管人', 'fxPerson', { by: 'name', list: true, filter: 'eq' }),
    photos: f.image('照片', { max: 3, list: true }),
    scan: f.file('扫描件', { types: ['pdf'], maxBytes: 1024 }),
    parts: f.list(
      '部件',
      {
        part: f.text('部件名', { required: true, max: 20 }),
        count: f.int('数量', { required: true, min: 1, max: 99 }),
        kind: f.dict('类别', 'duty_type'),
        checkerId: f.user('检查人'),
      },
      { max: 5, list: true },
    ),
  },
  access: { read: 'home.workbench', write: 'oa.watchList' },
  order: [['id', 'desc']],
  importable: true,
  describe: (r) => String(r.name ?? ''),
});

export const FIXTURES: readonly RecordDef[] = [fxPerson, fxSlot, fxBooking, fxSetting, fxLog, fxItem];

const COLUMN_TYPES: Record<string, string> = {
  text: 'varchar(500)',
  textarea: 'varchar(2000)',
  rich: 'text',
  int: 'integer',
  money: 'bigint',
  date: 'varchar(10)',
  time: 'varchar(5)',
  datetime: 'bigint',
  dict: 'varchar(50)',
  status: 'integer',
  bool: 'integer',
  user: 'integer',
  users: 'varchar(1000)',
  dept: 'integer',
  file: 'varchar(1000)',
  image: 'varchar(1000)',
  ref: 'integer',
  list: 'text',
};

const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Makes the fixtures' tables (a declared record gets a frozen migration instead). */
export async function createFixtureTables(db: Db) {
  const k = db as unknown as Kysely<any>;
  for (const def of FIXTURES) {
    let t = k.schema
      .createTable(def.table)
      .addColumn('id', 'integer', (c) =>
        isPostgres(k) ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
      )
      .addColumn('create_time', 'bigint', (c) => c.notNull())
      .addColumn('create_by', 'integer')
      .addColumn('update_time', 'bigint', (c) => c.notNull())
      .addColumn('update_by', 'integer')
      .addColumn('del_flag', 'integer', (c) => c.notNull().defaultTo(0));
    for (const [key, fd] of Object.entries(def.fields))
      t = t.addColumn(snake(key), COLUMN_TYPES[fd.kind] as 'integer');
    await t.execute();
  }
  await sql`create unique index fx_setting_type_uq on fx_setting (type)`.execute(k);
  // The slot every booking sample takes places from (id 1), and a log with an old line.
  const now = Date.now();
  await sql`insert into fx_slot (create_time, update_time, label, total, used, open) values (${now}, ${now}, '样例场次', 100000, 0, 1)`.execute(
    k,
  );
  await sql`insert into fx_log (create_time, update_time, action, result) values (${now - 200 * 86_400_000}, ${now}, '很久以前的操作', 1)`.execute(
    k,
  );
  await sql`insert into fx_log (create_time, update_time, action, result) values (${now - 170 * 86_400_000}, ${now}, '半年内的操作', 0)`.execute(
    k,
  );
}
