import { describe, expect, it } from 'vitest';
import { t } from '../../src/app/lib/i18n';

/** Every `close` label of the catalogue, with the path it sits at (`share.dialog.close`). */
function closeLabels(node: unknown, path: string[] = [], out: { path: string; label: string }[] = []) {
  if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'close' && typeof value === 'string')
        out.push({ path: [...path, key].join('.'), label: value });
      else closeLabels(value, [...path, key], out);
    }
  }
  return out;
}

describe('close buttons say what they close', () => {
  // One i18n change once copied the approval panel's 关闭审批详情 into the share dialog, the file
  // details, the previewers and the editors: a screen reader announced "close approval details"
  // on a share link. A specific label ("关闭X") belongs to one part of the app; the plain 关闭
  // is for a button whose dialog title already says what it is.
  it('no specific close label is shared by unrelated parts of the app', () => {
    const labels = closeLabels(t);
    expect(labels.length).toBeGreaterThan(3);
    const areas = new Map<string, Set<string>>();
    for (const { path, label } of labels) {
      if (label === '关闭') continue;
      const area = path.split('.')[0]!;
      areas.set(label, (areas.get(label) ?? new Set()).add(area));
    }
    const shared = [...areas]
      .filter(([, where]) => where.size > 1)
      .map(([label, where]) => `${label}: ${[...where].join(', ')}`);
    expect(shared).toEqual([]);
  });

  it('every close label starts with 关闭', () => {
    for (const { path, label } of closeLabels(t)) expect(label, path).toMatch(/^关闭/);
  });
});
