import { describe, expect, it } from 'vitest';
import { accountProblem, nameProblem, passwordProblem, phoneProblem } from './validators';

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
