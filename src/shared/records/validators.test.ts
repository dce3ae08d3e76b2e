import { describe, expect, it } from 'vitest';
import {
  clcProblem,
  cnSerialProblem,
  httpsUrlProblem,
  idCardBirthDate,
  idCardCheck,
  idCardGender,
  idCardProblem,
  isbn10To13,
  isbnProblem,
  issnProblem,
  landlineProblem,
  maskIdNumber,
  maskPhone,
  mobileProblem,
  moneyProblem,
  normalizeIsbn,
  phoneProblem,
} from './validators';

describe('phones', () => {
  it('mobile: 11 digits starting 1[3-9]', () => {
    expect(mobileProblem('13812345678')).toBeNull();
    expect(mobileProblem('19912345678')).toBeNull();
    for (const bad of ['12812345678', '1381234567', '138123456789', '+8613812345678', '138-1234-5678'])
      expect(mobileProblem(bad), bad).toBe('须为 11 位手机号（如 13812345678）');
  });
  it('landline: area code optional, extension optional', () => {
    for (const ok of ['010-12345678', '01012345678', '0755-1234567', '12345678', '010-12345678-123'])
      expect(landlineProblem(ok), ok).toBeNull();
    for (const bad of ['10-12345678', '010-123456', '010-12345678-1234567', 'abc'])
      expect(landlineProblem(bad), bad).not.toBeNull();
  });
  it('either', () => {
    expect(phoneProblem('13812345678')).toBeNull();
    expect(phoneProblem('010-12345678')).toBeNull();
    expect(phoneProblem('12345')).toBe('须为手机号或固定电话（如 13812345678 或 010-12345678）');
  });
  it('masks', () => {
    expect(maskPhone('13812345678')).toBe('138****5678');
    expect(maskPhone('12345678')).toBe('****5678');
    expect(maskPhone('123')).toBe('123');
  });
});

describe('resident ID (GB 11643)', () => {
  // 11010519491231002X is the standard's own example.
  it('accepts a valid number with its check character, X in either case', () => {
    expect(idCardProblem('11010519491231002X')).toBeNull();
    expect(idCardProblem('11010519491231002x')).toBeNull();
    expect(idCardCheck('11010519491231002')).toBe('X');
  });
  it('refuses a wrong check digit, length, birth date or a future birth', () => {
    expect(idCardProblem('110105194912310021')).toBe('校验位不正确，请核对后重新输入');
    expect(idCardProblem('11010519491231002')).toBe('须为 18 位居民身份证号码（最后一位可以是 X）');
    const feb30 = `1101051990023000${'1'}`;
    expect(idCardProblem(`${feb30}${idCardCheck(feb30)}`)).toBe('中的出生日期不正确，请核对');
    const future = '11010520300101001';
    expect(idCardProblem(`${future}${idCardCheck(future)}`, '2026-11-25')).toBe('中的出生日期不正确，请核对');
  });
  it('derives birth date and gender, and masks', () => {
    expect(idCardBirthDate('11010519491231002X')).toBe('1949-12-31');
    expect(idCardGender('11010519491231002X')).toBe(2);
    expect(idCardGender('110105194912310010')).toBe(1);
    expect(maskIdNumber('11010519491231002X')).toBe('1101**********002X');
  });
});

describe('ISBN, ISSN, CN, CLC', () => {
  it('ISBN-13 with its check digit; ISBN-10 converted', () => {
    expect(isbnProblem('978-7-101-00317-2')).not.toBeNull();
    expect(isbnProblem('9787101003178')).toBeNull();
    expect(normalizeIsbn('978-7-101-00317-8')).toBe('9787101003178');
    expect(isbnProblem('9787101003175')).toBe('校验位不正确，请核对后重新输入');
    expect(isbn10To13('7-101-00317-6')).toBe('9787101003178');
    expect(normalizeIsbn('7101003176')).toBe('9787101003178');
    expect(normalizeIsbn('7101003175')).toBe(null);
    expect(normalizeIsbn('0-306-40615-2')).toBe('9780306406157');
    expect(isbnProblem('12345')).toBe('须为 13 位 ISBN（978 或 979 开头）或 10 位旧 ISBN');
  });
  it('ISSN mod 11', () => {
    expect(issnProblem('0317-8471')).toBeNull();
    expect(issnProblem('2434-561X')).toBeNull();
    expect(issnProblem('0317-8472')).toBe('校验位不正确，请核对后重新输入');
    expect(issnProblem('03178471')).toBe('须为 NNNN-NNNC 格式（如 0254-4164）');
  });
  it('CN serial numbers', () => {
    expect(cnSerialProblem('CN 11-1234/K')).toBeNull();
    expect(cnSerialProblem('CN11-1234')).toBeNull();
    expect(cnSerialProblem('CN 1-1234')).not.toBeNull();
  });
  it('CLC numbers start with one of the 22 classes', () => {
    for (const ok of ['K878.2', 'TP311.13', 'I247.5', 'z1']) expect(clcProblem(ok), ok).toBeNull();
    for (const bad of ['L123', 'W1', '878', '']) expect(clcProblem(bad), bad).not.toBeNull();
  });
});

describe('money and URLs', () => {
  it('money: not negative, two decimals at most', () => {
    expect(moneyProblem(0)).toBeNull();
    expect(moneyProblem(128.5)).toBeNull();
    expect(moneyProblem(0.07)).toBeNull();
    expect(moneyProblem(-1)).toBe('不能为负数');
    expect(moneyProblem(1.005)).toBe('最多保留 2 位小数');
    expect(moneyProblem(Number.NaN)).toBe('须为金额数字（如 128.50）');
  });
  it('https only, on the allow-list (host or subdomain), without credentials', () => {
    const hosts = ['museum.cn', 'vr.example.com'];
    expect(httpsUrlProblem('https://museum.cn/a', hosts)).toBeNull();
    expect(httpsUrlProblem('https://www.museum.cn/a', hosts)).toBeNull();
    expect(httpsUrlProblem('https://vr.example.com', hosts)).toBeNull();
    expect(httpsUrlProblem('http://museum.cn', hosts)).toBe('须以 https:// 开头');
    expect(httpsUrlProblem('https://evilmuseum.cn', hosts)).toBe(
      '的域名 evilmuseum.cn 不在允许的网站名单中，请联系管理员添加',
    );
    expect(httpsUrlProblem('https://example.com', hosts)).not.toBeNull();
    expect(httpsUrlProblem('https://a:b@museum.cn', hosts)).toBe('不能包含用户名或密码');
    expect(httpsUrlProblem('javascript:alert(1)', hosts)).toBe('须以 https:// 开头');
    expect(httpsUrlProblem('not a url', hosts)).toBe('须为完整的网址（以 https:// 开头）');
    expect(httpsUrlProblem('https://museum.cn', [])).not.toBeNull();
  });
});
