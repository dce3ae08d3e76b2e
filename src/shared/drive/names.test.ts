import { describe, expect, it } from 'vitest';
import { topLevel } from './names';

describe('topLevel', () => {
  const item = (path: string, name: string, dir = false) => ({ path, name, dir });
  const own = (i: ReturnType<typeof item>) => (i.dir ? `${i.path}${i.name}/` : null);

  it('drops items inside another chosen folder, at any depth, and keeps the order asked', () => {
    const a = item('/', 'a', true);
    const inA = item('/a/', 'x.txt');
    const deep = item('/a/b/c/', 'y.txt');
    const ab = item('/a/', 'b', true);
    const other = item('/ab/', 'z.txt');
    const picked = topLevel([inA, deep, other, a, ab], own, (i) => i.path);
    // '/ab/' only shares a prefix of letters with '/a/': it is not inside it.
    expect(picked).toEqual([other, a]);
  });

  it('keeps everything when no folder is chosen', () => {
    const files = [item('/a/', '1.txt'), item('/', '2.txt')];
    expect(topLevel(files, own, (i) => i.path)).toEqual(files);
  });
});
