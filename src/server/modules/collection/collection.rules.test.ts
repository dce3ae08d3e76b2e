import { describe, expect, it } from 'vitest';
import { bsDigitalassetsInfo } from '../../../shared/records/collection/collection';
import { changedFields, describeImages } from './collection.rules';

const before = { registerNo: '总00001', name: '青铜鼎', level: '2', images: [3, 5], remark: '' };

describe('changedFields (what a 修改 asks, as the reviewer reads it)', () => {
  it('names only the fields that differ, with words for values', () => {
    const words = (field: string, v: unknown) => (field === 'level' ? `级别${String(v)}` : String(v));
    const out = changedFields(
      bsDigitalassetsInfo,
      before,
      { ...before, name: '青铜鼎（改）', level: '1' },
      words,
    );
    expect(out).toEqual([
      { field: 'name', label: '名称', before: '青铜鼎', after: '青铜鼎（改）' },
      { field: 'level', label: '文物级别', before: '级别2', after: '级别1' },
    ]);
  });
  it('treats empty, null and missing alike, and trims text', () => {
    expect(changedFields(bsDigitalassetsInfo, before, { ...before, remark: null, name: ' 青铜鼎 ' })).toEqual(
      [],
    );
  });
  it('says images by count, and sees a reorder as a change (the first is the cover)', () => {
    expect(changedFields(bsDigitalassetsInfo, before, { ...before, images: [5, 3] })).toEqual([
      { field: 'images', label: '藏品图片', before: '2 张图片', after: '2 张图片' },
    ]);
    expect(changedFields(bsDigitalassetsInfo, before, { ...before, images: [] })[0]!.after).toBe('无图片');
    expect(describeImages(0)).toBe('无图片');
  });
  it('an emptied field reads as empty, not as a dictionary word', () => {
    const out = changedFields(
      bsDigitalassetsInfo,
      { ...before, era: '西周' },
      { ...before, era: '' },
      () => 'X',
    );
    expect(out).toEqual([{ field: 'era', label: '年代', before: 'X', after: '' }]);
  });
});
