import { describe, expect, it } from 'vitest';
import { nameProblem, pathProblem, topLevel, windowsSafeName, windowsSafePaths } from './names';

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

describe('nameProblem: names that spoof what they are (issue 16 §3)', () => {
  const SPOOF_MSG = '文件名称不能包含不可见字符或文字方向控制字符，请删除后重试';
  // Every bidirectional control, zero-width and invisible format character the rule names.
  const refused = [
    0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200b,
    0x200c, 0x200d, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xfeff, 0x00ad, 0x2028, 0x2029, 0x0080, 0x0085,
    0x009f, 0x115f, 0x1160, 0x3164, 0xffa0, 0xfff9, 0xe0001, 0xe0041,
  ];
  it.each(refused.map((cp) => [cp.toString(16).toUpperCase().padStart(4, '0'), cp]))(
    'refuses U+%s anywhere in a name, with the Chinese reason',
    (_hex, cp) => {
      const c = String.fromCodePoint(cp);
      for (const name of [`evil${c}txt.exe`, `${c}a.txt`, `a.txt${c}`]) {
        expect(nameProblem(name)).toBe(SPOOF_MSG);
      }
      expect(nameProblem(`资料${c}`, '文件夹名称')).toBe(
        '文件夹名称不能包含不可见字符或文字方向控制字符，请删除后重试',
      );
    },
  );

  it('refuses a lone surrogate but keeps emoji, Chinese, full-width spaces and Mongolian', () => {
    expect(nameProblem('a\ud800b.txt')).toBe(SPOOF_MSG);
    for (const ok of [
      '藏品清单 2024.xlsx',
      '青铜器（一级）.docx',
      '展览　方案.pdf', // U+3000, the full-width space Chinese text uses
      '🎉 开幕.jpg',
      '❤️ 志愿者.png', // U+2764 U+FE0F: a variation selector, not a format character
      'ᠮᠣᠩᠭᠣᠯ\u180eᠠ.txt', // the Mongolian vowel separator, part of the spelling
      'v1.2',
      '.env',
    ]) {
      expect(nameProblem(ok), ok).toBeNull();
    }
  });

  it('refuses what the zero-width joiner builds, as the issue asks', () => {
    expect(nameProblem('👨\u200d👩\u200d👧.jpg')).toBe(SPOOF_MSG);
  });

  it('still refuses C0 controls as control characters', () => {
    expect(nameProblem('a\u0007b')).toBe('文件名称不能包含控制字符');
    expect(nameProblem('\ufeff')).toBe(SPOOF_MSG);
  });
});

describe('nameProblem: names Windows cannot store', () => {
  const reserved = [
    'CON',
    'con',
    'Prn',
    'AUX',
    'nul',
    'COM1',
    'com9',
    'COM0',
    'LPT1',
    'lpt9',
    'COM¹',
    'LPT³',
  ];
  it.each(reserved)('refuses %s, with any extension, naming the device', (dev) => {
    for (const name of [dev, `${dev}.txt`, `${dev}.tar.gz`, `${dev} .txt`]) {
      expect(nameProblem(name), name).toBe(
        `“${dev}”是 Windows 的保留名称（CON、PRN、AUX、NUL、COM0–COM9、LPT0–LPT9），Windows 电脑无法保存，请换一个文件名称`,
      );
    }
  });

  it('refuses a trailing dot; keeps names that only contain a device name', () => {
    expect(nameProblem('报告.')).toBe('文件名称不能以“.”或空格结尾（Windows 电脑无法保存），请修改');
    expect(nameProblem('v1..', '文件夹名称')).toBe(
      '文件夹名称不能以“.”或空格结尾（Windows 电脑无法保存），请修改',
    );
    for (const ok of [
      'CONSOLE.txt',
      'console',
      'auxiliary.doc',
      'COM10',
      'LPT',
      'my CON.txt',
      'con_',
      'NUL_.txt',
    ]) {
      expect(nameProblem(ok), ok).toBeNull();
    }
  });
});

describe('pathProblem: folders made under older rules still open', () => {
  it('checks only the shape of each segment, not the rules for new names', () => {
    expect(pathProblem('/CON/evil\u202etxt/')).toBeNull();
    expect(pathProblem('/a/b:c/')).toBe('路径包含不合法的文件夹名称');
  });
});

describe('windowsSafeName and windowsSafePaths', () => {
  it('renames only what Windows cannot store', () => {
    expect(windowsSafeName('CON')).toBe('CON_');
    expect(windowsSafeName('aux.txt')).toBe('aux_.txt');
    expect(windowsSafeName('nul.tar.gz')).toBe('nul_.tar.gz');
    expect(windowsSafeName('报告.')).toBe('报告_');
    expect(windowsSafeName('a. .')).toBe('a___');
    expect(windowsSafeName('COM1.')).toBe('COM1_'); // no longer a device once the dot goes
    expect(windowsSafeName('藏品.xlsx')).toBe('藏品.xlsx');
    expect(windowsSafeName('CONSOLE')).toBe('CONSOLE');
  });

  it('renames a folder for every entry under it, and never onto a path another entry has', () => {
    const paths = [
      'd/',
      'd/CON/',
      'd/CON/a.txt',
      'd/con_/',
      'd/CON_(1)/',
      'd/aux.txt',
      'd/AUX_.txt',
      'd/ok.txt',
    ];
    expect(windowsSafePaths(paths)).toEqual([
      'd/',
      'd/CON_(2)/',
      'd/CON_(2)/a.txt',
      'd/con_/',
      'd/CON_(1)/',
      'd/aux_(1).txt',
      'd/AUX_.txt',
      'd/ok.txt',
    ]);
    expect(windowsSafePaths(['a.txt', 'b/'])).toEqual(['a.txt', 'b/']);
    // Inside a renamed folder too: the sibling already called aux_.txt keeps its name.
    expect(windowsSafePaths(['CON/AUX_.txt', 'CON/aux.txt', 'CON/LPT1/x'])).toEqual([
      'CON_/AUX_.txt',
      'CON_/aux_(1).txt',
      'CON_/LPT1_/x',
    ]);
  });
});
