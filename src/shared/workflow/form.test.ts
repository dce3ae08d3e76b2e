import { describe, expect, it } from 'vitest';
import type { FormField } from './definition';
import { checkForm, displayValue, normalizeDocNo, TEXT_MAX } from './form';

const fields: FormField[] = [
  { id: 'name', type: 'text', label: '名称', required: true },
  {
    id: 'tags',
    type: 'checkbox',
    label: '类别',
    required: false,
    options: [
      { key: 'a', value: '甲' },
      { key: 'b', value: '乙' },
    ],
  },
  { id: 'who', type: 'person', label: '同行人', required: false },
  { id: 'hours', type: 'dateRange', label: '加班时间', required: false, unit: 0 },
  { id: 'count', type: 'number', label: '份数', required: false },
];

describe('checkForm', () => {
  it('keeps exactly the fields, trimmed and de-duplicated; drops unknown keys', () => {
    const r = checkForm(fields, {
      name: ' 展板 ',
      tags: ['a', 'a', 'b'],
      who: [3, 3],
      extra: 'x',
      count: '2.5',
    });
    expect(r).toEqual({ ok: true, form: { name: '展板', tags: ['a', 'b'], who: [3], count: 2.5 } });
  });
  it('refuses each bad value with the field named', () => {
    const bad = (v: Record<string, unknown>) => {
      const r = checkForm(fields, { name: '展板', ...v });
      return r.ok ? null : r.message;
    };
    expect(bad({ name: '   ' })).toBe('请填写“名称”');
    expect(bad({ name: 'x'.repeat(TEXT_MAX + 1) })).toBe(`“名称”最多 ${TEXT_MAX} 个字`);
    expect(bad({ name: 3 })).toBe('“名称”应为文字');
    expect(bad({ tags: ['c'] })).toBe('“类别”的选项不存在，请重新选择');
    expect(bad({ tags: 'a' })).toBe('“类别”的选项不存在，请重新选择');
    expect(bad({ who: [0] })).toBe('“同行人”的选择不正确，请重新选择');
    expect(bad({ who: [1.5] })).toBe('“同行人”的选择不正确，请重新选择');
    expect(bad({ count: '1e3' })).toContain('“份数”');
    // The duration is the server's to compute: a client that says otherwise is refused.
    expect(bad({ hours: { start: '2026-05-01 18:00', end: '2026-05-01 20:00', duration: 0 } })).toBe(
      '“加班时间”的时长应为 2小时（按起止时间计算），请重新选择起止时间后再提交',
    );
    expect(bad({ hours: { start: '2026-05-01 18:00', end: '2026-05-01 18:00' } })).toBe(
      '“加班时间”的结束时间应晚于开始时间',
    );
    expect(bad({ hours: { start: '2026-05-01 18:00', end: '2026-05-01', duration: 2 } })).toBe(
      '“加班时间”的时间格式应为 yyyy-MM-dd HH:mm',
    );
    expect(bad({ hours: { start: '2026-05-01 18:00', end: '2026-05-01 25:00' } })).toBe(
      '“加班时间”的时间格式应为 yyyy-MM-dd HH:mm',
    );
    expect(bad({ hours: { start: '2026-05-01 20:00', end: '2026-05-01 18:00', duration: 2 } })).toBe(
      '“加班时间”的结束时间不能早于开始时间',
    );
    expect(bad({ hours: { start: '2026-05-01 18:00', end: '2026-05-01 20:00', duration: 2 } })).toBeNull();
    expect(bad({ hours: { start: '2026-05-01 18:00', end: '2026-05-01 20:30' } })).toBeNull();
  });
  it('shows values as text', () => {
    expect(displayValue(fields[1]!, ['a', 'b'])).toBe('甲、乙');
    expect(displayValue(fields[2]!, [3], { person: () => '李明' })).toBe('李明');
    expect(
      displayValue(fields[3]!, { start: '2026-05-01 18:00', end: '2026-05-01 20:00', duration: 2 }),
    ).toBe('2026-05-01 18:00 至 2026-05-01 20:00（2小时）');
  });
});

describe('date ranges in days take 上午/下午, and the server computes the length', () => {
  const leave: FormField[] = [
    { id: 'period', type: 'dateRange', label: '请假时间', required: true, unit: 1 },
  ];
  const check = (v: unknown) => checkForm(leave, { period: v });
  const value = (v: unknown) => {
    const r = check(v);
    return r.ok ? r.form.period : r.message;
  };

  it('counts half-day slots, both ends included', () => {
    expect(value({ start: '2026-03-02', end: '2026-03-04', startHalf: 'am', endHalf: 'pm' })).toEqual({
      start: '2026-03-02',
      end: '2026-03-04',
      startHalf: 'am',
      endHalf: 'pm',
      duration: 3,
    });
    expect(value({ start: '2026-03-02', end: '2026-03-02', startHalf: 'am', endHalf: 'am' })).toMatchObject({
      duration: 0.5,
    });
    expect(value({ start: '2026-03-02', end: '2026-03-02', startHalf: 'pm', endHalf: 'pm' })).toMatchObject({
      duration: 0.5,
    });
    expect(value({ start: '2026-03-02', end: '2026-03-03', startHalf: 'pm', endHalf: 'am' })).toMatchObject({
      duration: 1,
    });
    expect(value({ start: '2026-02-27', end: '2026-03-02', startHalf: 'pm', endHalf: 'pm' })).toMatchObject({
      duration: 3.5,
    });
  });

  it('reads a range without halves (made before them) as whole days, and stores the halves', () => {
    expect(value({ start: '2026-03-02', end: '2026-03-04', duration: 3 })).toEqual({
      start: '2026-03-02',
      end: '2026-03-04',
      startHalf: 'am',
      endHalf: 'pm',
      duration: 3,
    });
  });

  it('refuses a length the ends do not give, an afternoon before a morning, bad halves and dates', () => {
    expect(
      value({ start: '2026-03-02', end: '2026-03-02', startHalf: 'am', endHalf: 'am', duration: 1 }),
    ).toBe('“请假时间”的时长应为 0.5天（按起止时间计算），请重新选择起止时间后再提交');
    expect(value({ start: '2026-03-02', end: '2026-03-04', duration: '3天' })).toBe(
      '“请假时间”的时长应为 3天（按起止时间计算），请重新选择起止时间后再提交',
    );
    expect(value({ start: '2026-03-02', end: '2026-03-02', startHalf: 'pm', endHalf: 'am' })).toBe(
      '“请假时间”的结束时间不能早于开始时间',
    );
    expect(value({ start: '2026-03-03', end: '2026-03-02' })).toBe('“请假时间”的结束时间不能早于开始时间');
    expect(value({ start: '2026-03-02', end: '2026-03-02', startHalf: 'morning' })).toBe(
      '“请假时间”请选择上午或下午',
    );
    expect(value({ start: '2026-02-30', end: '2026-03-02' })).toBe('“请假时间”的日期格式应为 yyyy-MM-dd');
    expect(value({ start: '2026-03-02 09:00', end: '2026-03-02 12:00' })).toBe(
      '“请假时间”的日期格式应为 yyyy-MM-dd',
    );
    expect(value({ start: '2026-03-02', end: '2062-03-02' })).toBe('“请假时间”最长 366天，请分成几次申请');
    expect(value('2026-03-02')).toBe('“请假时间”的日期格式应为 yyyy-MM-dd');
  });

  it('shows the halves when an end is not a whole day', () => {
    const f = leave[0]!;
    expect(
      displayValue(f, {
        start: '2026-03-02',
        end: '2026-03-04',
        startHalf: 'am',
        endHalf: 'pm',
        duration: 3,
      }),
    ).toBe('2026-03-02 至 2026-03-04（3天）');
    expect(
      displayValue(f, {
        start: '2026-03-02',
        end: '2026-03-03',
        startHalf: 'pm',
        endHalf: 'am',
        duration: 1,
      }),
    ).toBe('2026-03-02 下午 至 2026-03-03 上午（1天）');
    expect(displayValue(f, { start: '2026-03-02', end: '2026-03-02', duration: 1 })).toBe(
      '2026-03-02 至 2026-03-02（1天）',
    );
  });
});

describe('文号 (docNo)', () => {
  const docNo: FormField[] = [{ id: 'no', type: 'text', label: '文号', required: true, format: 'docNo' }];
  it('reads the brackets input methods give as 〔〕 and drops spaces', () => {
    for (const typed of [
      '馆办发〔2026〕12号',
      '馆办发[2026]12号',
      '馆办发［2026］12号',
      '馆办发(2026)12号',
      '馆办发（2026）12号',
      '馆办发【2026】12号',
      '馆办发﹝2026﹞12号',
      ' 馆办发 〔2026〕 12 号',
    ])
      expect(normalizeDocNo(typed), typed).toBe('馆办发〔2026〕12号');
    expect(checkForm(docNo, { no: '文物办函[2025]7号' })).toEqual({
      ok: true,
      form: { no: '文物办函〔2025〕7号' },
    });
  });
  it('refuses what is not 机关代字〔年份〕序号号', () => {
    for (const bad of [
      '12号',
      '〔2026〕12号',
      '馆办发〔26〕12号',
      '馆办发〔1899〕1号',
      '馆办发〔2026〕0号',
      '馆办发〔2026〕012号',
      '馆办发〔2026〕12',
      '馆办发2026-12号',
      '馆办发〔2026〕12号号',
    ])
      expect(normalizeDocNo(bad), bad).toBeNull();
    expect(checkForm(docNo, { no: '12号' })).toEqual({
      ok: false,
      message: '“文号”应写成 机关代字〔年份〕序号号，例如 馆办发〔2026〕12号（序号不加 0）',
    });
  });
  it('leaves a text field without a format as it was', () => {
    const plain: FormField[] = [{ id: 'no', type: 'text', label: '来文文号', required: false }];
    expect(checkForm(plain, { no: '随便写的 12 号' })).toEqual({ ok: true, form: { no: '随便写的 12 号' } });
  });
});
