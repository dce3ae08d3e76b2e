import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HIDDEN, PARAMS_MAX, clip, cleanText, maskId, paramsText, redact, redactText } from './redact';

const ID = '11010519491231002X';
const ID15 = '110105491231002';
const TOKEN = 'Qm9vVGhlU2VjcmV0VG9rZW4xMjM0NTY3ODkwYWJjZGVm'; // 44 random-looking base64url characters
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJ1IjoxLCJmIjo1fQ.c2lnbmF0dXJlLXBhcnQ';

describe('redact by key', () => {
  it('hides passwords, tokens, secrets, share codes and cookies at any depth', () => {
    const out = redact({
      username: 'staff01',
      password: 'Demo@2026',
      oldPassword: 'a',
      new_password: 'b',
      form: { inner: [{ confirmPwd: 'c', accessToken: 'd', note: 'ok' }] },
      extractionCode: '8Hk2',
      Authorization: 'x',
      jwt_secret: 'y',
      cookie: 'token=abc',
    }) as Record<string, unknown>;
    expect(out).toEqual({
      username: 'staff01',
      password: HIDDEN,
      oldPassword: HIDDEN,
      new_password: HIDDEN,
      form: { inner: [{ confirmPwd: HIDDEN, accessToken: HIDDEN, note: 'ok' }] },
      extractionCode: HIDDEN,
      Authorization: HIDDEN,
      jwt_secret: HIDDEN,
      cookie: HIDDEN,
    });
  });

  it('masks ID numbers under their keys, also when sent as a list or a number', () => {
    const out = redact({ idCard: ID, visitor: { idNumber: ID15, certNo: 'E12345678' }, sfzh: [ID] });
    expect(out).toEqual({
      idCard: '1101**********002X',
      visitor: { idNumber: '1101*******1002', certNo: HIDDEN },
      sfzh: HIDDEN,
    });
  });

  it('keeps what only looks like those keys (idType, identifier, codes that are not share codes)', () => {
    const params = { idType: 1, identifier: 'd41d8cd98f00b204e9800998ecf8427e', code: 'leader', roleId: 3 };
    expect(redact(params)).toEqual(params);
  });

  it('never keeps a file body', () => {
    const out = redact({ userFileId: 5, fileContent: 'x'.repeat(5000) }) as Record<string, unknown>;
    expect(out).toEqual({ userFileId: 5, fileContent: '[文件内容 5000 字，不记录]' });
    expect(redact({ chunk: Buffer.from('bytes') })).toEqual({ chunk: '[二进制内容，不记录]' });
  });
});

describe('redact by value', () => {
  it('masks ID numbers inside any text, and keeps other numbers', () => {
    expect(redactText(`访客身份证${ID}，电话 13800000001，编号 1234567890123`)).toBe(
      '访客身份证1101**********002X，电话 13800000001，编号 1234567890123',
    );
    expect(redactText(`旧证 ${ID15} 号`)).toBe('旧证 1101*******1002 号');
    // 16 and 19 digits are not ID numbers; an 18-digit run inside a longer one is not either.
    expect(redactText('6222021234567890123')).toBe('6222021234567890123');
    expect(redact({ note: [{ deep: { deeper: `ID:${ID}` } }] })).toEqual({
      note: [{ deep: { deeper: 'ID:1101**********002X' } }],
    });
    // A 15-digit one survives as a JSON number exactly; it is masked like the text.
    expect(redact({ n: 110105491231002 })).toEqual({ n: '1101*******1002' });
  });

  it('hides JSON web tokens, Bearer credentials and session-like random strings', () => {
    expect(redactText(`url=https://x/cb?t=${JWT}&a=1`)).toBe(`url=https://x/cb?t=${HIDDEN}&a=1`);
    expect(redactText('Authorization: Bearer abcdefgh12345678')).toBe(`Authorization: Bearer ${HIDDEN}`);
    expect(redactText(`token ${TOKEN} end`)).toBe(`token ${HIDDEN} end`);
    // Tokens as the server makes them (32 random bytes, base64url), a fixed sample of a hundred.
    for (let i = 0; i < 100; i++) {
      const t = createHash('sha256').update(String(i)).digest('base64url');
      expect(redactText(`a ${t} b`), t).toBe(`a ${HIDDEN} b`);
    }
    // An MD5 and a long file name are not tokens.
    const md5 = 'd41d8cd98f00b204e9800998ecf8427e';
    expect(redactText(md5)).toBe(md5);
    for (const name of [
      '2026年度藏品清点报告_final_version_20260301.xlsx',
      'MuseumCollectionInventoryReportFinalVersion2026.docx',
    ]) {
      expect(redactText(name)).toBe(name);
    }
  });

  it('masks before it cuts, so no half of an ID number survives the cut', () => {
    const text = `${'甲'.repeat(490)}${ID}${'乙'.repeat(100)}`;
    const out = redact({ note: text }) as { note: string };
    expect(out.note).not.toContain(ID.slice(0, 10));
    expect(out.note).toContain('…（共');
  });
});

describe('bounds', () => {
  it('cuts long texts and lists, and says so', () => {
    expect(clip('abcdef', 3)).toBe('abc…（共 6 字）');
    const out = redact({ list: Array.from({ length: 60 }, (_, i) => i) }) as { list: unknown[] };
    expect(out.list).toHaveLength(51);
    expect(out.list.at(-1)).toBe('…（共 60 项）');
  });

  it('never splits a surrogate pair', () => {
    expect(cleanText('ab😀', 3)).toBe('ab');
    expect(clip('ab😀cd', 3)).toBe('ab…（共 6 字）');
  });

  it('stores valid JSON of at most PARAMS_MAX characters, or nothing for no parameters', () => {
    expect(paramsText(undefined)).toBeNull();
    expect(paramsText({})).toBeNull();
    const huge = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, 'x'.repeat(400)]));
    const text = paramsText(huge)!;
    expect(text.length).toBeLessThanOrEqual(PARAMS_MAX + 20);
    expect(() => JSON.parse(text) as unknown).not.toThrow();
  });

  it('strips control characters from column text', () => {
    expect(cleanText('a\u0000b\u001bc', 10)).toBe('abc');
  });

  it('shows only the ends of an ID number', () => {
    expect(maskId(ID)).toBe('1101**********002X');
    expect(maskId('123')).toBe(HIDDEN);
  });
});
