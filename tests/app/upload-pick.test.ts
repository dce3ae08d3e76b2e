import { describe, expect, it } from 'vitest';
import { pastedName } from '../../src/app/features/drive/upload/pick';

describe('pasted image names (spec §4: a fixed prefix, the time, the image’s own extension)', () => {
  const at = new Date(2026, 10, 22, 9, 5, 7);

  it('takes the extension from the name when there is one', () => {
    expect(pastedName(Object.assign(new Blob([]), { name: 'Screenshot.JPEG' }), at)).toBe(
      '截图_20261122090507.jpeg',
    );
  });

  it('else from the type, jpg for JPEG', () => {
    expect(pastedName(new Blob([], { type: 'image/jpeg' }), at)).toBe('截图_20261122090507.jpg');
    expect(pastedName(new Blob([], { type: 'image/webp' }), at)).toBe('截图_20261122090507.webp');
  });

  it('png when neither says', () => {
    expect(pastedName(Object.assign(new Blob([]), { name: 'image' }), at)).toBe('截图_20261122090507.png');
  });
});
