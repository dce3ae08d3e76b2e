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
    expect(bad({ hours: { start: '2026-05-01 18:00', end: '2026-05-01 20:00', duration: 0 } })).toBe(
      '请填写“加班时间”的时长（大于 0）',
    );
    expect(bad({ hours: { start: '2026-05-01 18:00', end: '2026-05-01', duration: 2 } })).toBe(
      '“加班时间”的结束时间不能早于开始时间',
    );
    expect(bad({ hours: { start: '2026-05-01 20:00', end: '2026-05-01 18:00', duration: 2 } })).toBe(
      '“加班时间”的结束时间不能早于开始时间',
    );
    expect(bad({ hours: { start: '2026-05-01 18:00', end: '2026-05-01 20:00', duration: 2 } })).toBeNull();
  });
  it('shows values as text', () => {
    expect(displayValue(fields[1]!, ['a', 'b'])).toBe('甲、乙');
    expect(displayValue(fields[2]!, [3], { person: () => '李明' })).toBe('李明');
    expect(
      displayValue(fields[3]!, { start: '2026-05-01 18:00', end: '2026-05-01 20:00', duration: 2 }),
    ).toBe('2026-05-01 18:00 至 2026-05-01 20:00（2小时）');
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
