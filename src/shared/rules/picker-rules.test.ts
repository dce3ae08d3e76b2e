import { describe, expect, it } from 'vitest';
import type { PickerItem } from '../api/project';
import { pickerColumns, pickerError } from './picker-rules';

const words = { needFolder: '请选择文件夹或项目', needFile: '请选择要关联的文件' };
const item = (type: 0 | 1 | 2, list: PickerItem[] = []): PickerItem => ({
  fileId: null,
  attachmentId: type === 0 ? 1 : null,
  projectId: 1,
  projectName: 'p',
  attName: `t${type}`,
  type,
  level: 0,
  list,
});

describe('pickerError (spec §5)', () => {
  it('move mode takes a folder or a project, never a file or nothing', () => {
    expect(pickerError('move', null, words)).toBe(words.needFolder);
    expect(pickerError('move', item(0), words)).toBe(words.needFolder);
    expect(pickerError('move', item(1), words)).toBeNull();
    expect(pickerError('move', item(2), words)).toBeNull();
  });
  it('associate mode takes a file only', () => {
    expect(pickerError('associate', null, words)).toBe(words.needFile);
    expect(pickerError('associate', item(2), words)).toBe(words.needFile);
    expect(pickerError('associate', item(1), words)).toBe(words.needFile);
    expect(pickerError('associate', item(0), words)).toBeNull();
  });
});

describe('pickerColumns', () => {
  it('opens one column per chosen project or folder and none for a file', () => {
    const file = item(0);
    const folder = item(1, [file]);
    const project = item(2, [folder]);
    expect(pickerColumns([project], [])).toEqual([[project]]);
    expect(pickerColumns([project], [project, folder])).toEqual([[project], [folder], [file]]);
    expect(pickerColumns([project], [project, folder, file])).toEqual([[project], [folder], [file]]);
  });
});
