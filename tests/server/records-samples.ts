/**
 * One valid sample per declared record, for the generic API suite (records-generic.test.ts):
 * `make(n, ids)` builds the n-th distinct valid body (distinct so uniques and peer rules never
 * collide between samples), `change` one edit of it. A record without a sample here fails the
 * suite: declaring a record means saying what a valid one looks like.
 */

export interface SampleIds {
  /** Account → user id of the demo museum. */
  user: (account: string) => number;
  /** Department name → id. */
  dept: (name: string) => number;
}

export interface Sample {
  make: (n: number, ids: SampleIds) => Record<string, unknown>;
  /** A change to make in an update, and the field it shows in. */
  change: (body: Record<string, unknown>) => Record<string, unknown>;
}

/** Days apart, so duty rows of different samples never share a shift's hours. */
const dutyDay = (n: number) => {
  const d = new Date(Date.UTC(2031, 0, 1) + n * 3 * 86_400_000);
  return d.toISOString().slice(0, 10);
};

/** A valid resident ID number for the n-th sample (GB 11643 check digit computed). */
function idNumber(n: number): string {
  const body = `1101051990${String(1 + (n % 12)).padStart(2, '0')}${String(1 + (n % 28)).padStart(2, '0')}${String(n % 1000).padStart(3, '0')}`;
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...body].reduce((a, c, i) => a + Number(c) * w[i]!, 0);
  return `${body}${'10X98765432'[sum % 11]}`;
}

export const SAMPLES: Record<string, Sample> = {
  dictType: {
    make: (n) => ({ dictKey: `sample_key_${n}`, dictName: `样例字典${n}`, remark: '测试用' }),
    change: (b) => ({ ...b, dictName: `${String(b.dictName)}（改）` }),
  },
  dictItem: {
    make: (n) => ({ dictKey: 'duty_type', label: `样例项${n}`, value: `s${n}`, sort: 100 + n, status: 1 }),
    change: (b) => ({ ...b, label: `${String(b.label)}（改）` }),
  },
  dutyRoster: {
    make: (n, ids) => ({
      dutyDate: dutyDay(n),
      dutyType: '1',
      shift: '1',
      leaderId: ids.user('director'),
      staffIds: [ids.user('staff02'), ids.user('staff04')],
      dutyPhone: '010-12345678',
      remark: '',
    }),
    change: (b) => ({ ...b, dutyPhone: '13800001234', remark: '改为手机值班' }),
  },
  wkDynamic: {
    make: (n, ids) => ({
      title: `馆内动态样例${n}`,
      deptId: ids.dept('办公室'),
      summary: '样例摘要',
      content: '<p>样例正文</p>',
    }),
    change: (b) => ({ ...b, title: `${String(b.title)}（改）` }),
  },
  // Fixture records (records-fixtures.ts): the shapes no declared record uses yet.
  fxPerson: {
    make: (n) => ({
      name: `测试人${n}`,
      phone: `139${String(10_000_000 + n).slice(-8)}`,
      idNumber: idNumber(n),
      birthDate: '1990-05-01',
      active: true,
      level: 1 + (n % 2),
    }),
    change: (b) => ({ ...b, name: `${String(b.name)}改` }),
  },
  fxSlot: {
    make: (n) => ({ label: `场次${n}`, total: 10 + n, open: true }),
    change: (b) => ({ ...b, total: Number(b.total) + 1 }),
  },
  fxBooking: {
    make: () => ({ slotId: 1, persons: 2 }),
    change: (b) => b,
  },
  fxSetting: {
    make: (n) => ({ type: 1 + (n % 2), advanceDays: 1 + (n % 30), notice: `须知${n}` }),
    change: (b) => ({ ...b, advanceDays: 7 }),
  },
  fxLog: {
    make: (n) => ({ action: `操作${n}`, result: n % 2 }),
    change: (b) => b,
  },
};
