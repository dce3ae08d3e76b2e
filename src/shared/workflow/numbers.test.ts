import { describe, expect, it } from 'vitest';
import { formatNumber, keepNumber, numberProblem, parseNumber } from './numbers';

describe('numberProblem', () => {
  it.each([
    ['5000', 2],
    ['-3', 2],
    ['+3.5', 2],
    ['0.25', 2],
    ['12', 0],
    ['-12', 0],
    ['  7 ', 2],
    ['１２。５', 2],
    ['999999999999.99', 2],
  ])('accepts %j with %i decimals', (text, decimals) => {
    expect(numberProblem(text, decimals)).toBeNull();
  });
  it.each([
    ['', 2, '请输入数字'],
    ['   ', 2, '请输入数字'],
    ['abc', 2, '请输入数字（可带正负号和小数点）'],
    ['1.', 2, '请输入数字（可带正负号和小数点）'],
    ['.5', 2, '请输入数字（可带正负号和小数点）'],
    ['--1', 2, '请输入数字（可带正负号和小数点）'],
    ['1e3', 2, '请输入数字（可带正负号和小数点）'],
    ['1,000', 2, '请输入数字（可带正负号和小数点）'],
    ['1.234', 2, '最多保留 2 位小数'],
    ['1.5', 0, '请输入整数'],
    ['x', 0, '请输入整数'],
    ['1.55', 1, '最多保留 1 位小数'],
    ['1234567890123', 2, '数字过大，整数部分最多 12 位'],
  ])('refuses %j with %i decimals: %s', (text, decimals, message) => {
    expect(numberProblem(text, decimals)).toBe(message);
  });
  it('defaults to 2 decimals and ignores leading zeros when counting digits', () => {
    expect(numberProblem('1.23')).toBeNull();
    expect(numberProblem('1.234')).toBe('最多保留 2 位小数');
    expect(numberProblem('000000000000001')).toBeNull();
  });
});

describe('keepNumber (what the input keeps while typing)', () => {
  it.each([
    ['12a3', 2, '123'],
    ['-1-2', 2, '-12'],
    ['+5', 2, '+5'],
    ['1.2.3', 2, '1.23'],
    ['1.239', 2, '1.23'],
    ['.5', 2, '5'],
    ['-.5', 2, '-5'],
    ['1.5', 0, '15'],
    ['12.', 2, '12.'],
    ['-', 2, '-'],
    ['¥ 5,000.00元', 2, '5000.00'],
    ['３．１４', 2, '3.14'],
    ['1234567890123456', 2, '123456789012'],
    ['', 2, ''],
  ])('%j with %i decimals keeps %j', (text, decimals, kept) => {
    expect(keepNumber(text, decimals)).toBe(kept);
  });
});

describe('formatNumber and parseNumber', () => {
  it.each([
    ['5000', '5000'],
    ['+05.50', '5.5'],
    ['5.00', '5'],
    ['-0.00', '0'],
    ['-3.10', '-3.1'],
    ['0.05', '0.05'],
    [' 7 ', '7'],
    ['abc', 'abc'],
  ])('%j shows as %j', (text, shown) => {
    expect(formatNumber(text)).toBe(shown);
  });
  it('parses only valid numbers', () => {
    expect(parseNumber('5.5')).toBe(5.5);
    expect(parseNumber('-3')).toBe(-3);
    expect(parseNumber('１２')).toBe(12);
    expect(parseNumber('abc')).toBeNaN();
    expect(parseNumber('')).toBeNaN();
  });
});
