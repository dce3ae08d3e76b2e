import { describe, expect, it } from 'vitest';
import {
  accountProblem,
  emailProblem,
  lineProblem,
  nameProblem,
  officePhoneProblem,
  passwordProblem,
  phoneProblem,
} from './validators';

describe('passwordProblem', () => {
  it('accepts 6–20 characters with two kinds', () => {
    expect(passwordProblem('abc123')).toBeNull();
    expect(passwordProblem('abc!@#')).toBeNull();
    expect(passwordProblem('123!@#')).toBeNull();
    expect(passwordProblem('a1'.repeat(10))).toBeNull();
  });
  it('rejects wrong lengths and single kinds', () => {
    expect(passwordProblem('ab12')).toBe('密码长度须为 6–20 位');
    expect(passwordProblem('a1'.repeat(10) + 'x')).toBe('密码长度须为 6–20 位');
    expect(passwordProblem('abcdefgh')).toBe('密码须至少包含数字、字母、符号中的两种');
    expect(passwordProblem('12345678')).toBe('密码须至少包含数字、字母、符号中的两种');
    expect(passwordProblem('abc 123')).toBe('密码不能包含空格');
  });
});

describe('other fields', () => {
  it('phone', () => {
    expect(phoneProblem('13800138000')).toBeNull();
    expect(phoneProblem('12800138000')).not.toBeNull();
    expect(phoneProblem('1380013800')).not.toBeNull();
  });
  it('account', () => {
    expect(accountProblem('staff01')).toBeNull();
    expect(accountProblem('a')).not.toBeNull();
    expect(accountProblem('张三')).not.toBeNull();
  });
  it('name', () => {
    expect(nameProblem('  ')).toBe('请输入姓名');
    expect(nameProblem('王'.repeat(31))).toBe('姓名不能超过 30 个字符');
    expect(nameProblem('a\u0007b')).toBe('姓名不能包含控制字符');
    expect(nameProblem('王小明')).toBeNull();
  });
});

describe('directory and schedule fields', () => {
  it('office phone', () => {
    for (const ok of ['010-12345678', '0101234', '+86 10 12345678', '(010)12345678', '110'])
      expect(officePhoneProblem(ok), ok).toBeNull();
    for (const bad of ['abc', '12', '010--', '010 1234 5678 9012 3456', '1 2'])
      expect(officePhoneProblem(bad), bad).not.toBeNull();
  });
  it('email', () => {
    expect(emailProblem('a@museum.cn')).toBeNull();
    expect(emailProblem('a@b')).toBe('请输入正确的邮箱地址');
    expect(emailProblem(`${'a'.repeat(55)}@b.com`)).toBe('邮箱不能超过 60 个字符');
  });
  it('one-line text', () => {
    expect(lineProblem('', '地点', 50)).toBeNull();
    expect(lineProblem(' ', '标题', 50, true)).toBe('请输入标题');
    expect(lineProblem('x'.repeat(51), '地点', 50)).toBe('地点不能超过 50 个字符');
    expect(lineProblem('a\nb', '地点', 50)).toBe('地点不能包含控制字符');
    // A right-to-left override or a zero-width space spoofs a name shown to colleagues.
    expect(lineProblem('王\u202E芳', '姓名', 30)).toMatch(/^姓名不能包含不可见字符或文字方向控制字符/);
    expect(lineProblem('会议\u200B室', '地点', 50)).toMatch(/^地点不能包含不可见字符/);
    expect(lineProblem('展厅 A（二层）', '地点', 50)).toBeNull();
  });
});
