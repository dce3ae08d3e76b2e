/**
 * The number inputs of the workflow designer (spec/office.md §5: "an optional sign, digits and a
 * limited number of decimals, default 2; 0 for integers only"). Condition values are stored as
 * the text the person typed (`zdy1`, `zdy2`), so the rule is on text, never on a parsed float.
 */

/** Amounts are in 元 with 2 decimals; durations use the same default. */
export const DEFAULT_DECIMALS = 2;
/** 12 integer digits keep every value exact as a JS number, even in fen (×100). */
export const MAX_INTEGER_DIGITS = 12;

/** Full-width digits, signs and stops that a Chinese input method types, as ASCII. */
function toAscii(text: string): string {
  return text
    .replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0))
    .replace(/[。．]/g, '.')
    .replace(/＋/g, '+')
    .replace(/[－—]/g, '-');
}

/** A Chinese message when `text` is not a number the input accepts, else null. */
export function numberProblem(text: string, decimals: number = DEFAULT_DECIMALS): string | null {
  const t = toAscii(text.trim());
  if (!t) return '请输入数字';
  const m = /^[+-]?(\d+)(?:\.(\d+))?$/.exec(t);
  if (!m) return decimals === 0 ? '请输入整数' : '请输入数字（可带正负号和小数点）';
  if (m[2] !== undefined && decimals === 0) return '请输入整数';
  if (m[2] !== undefined && m[2].length > decimals) return `最多保留 ${decimals} 位小数`;
  if (m[1]!.replace(/^0+(?=\d)/, '').length > MAX_INTEGER_DIGITS) {
    return `数字过大，整数部分最多 ${MAX_INTEGER_DIGITS} 位`;
  }
  return null;
}

/**
 * What a number input keeps while the person types: a sign only in front, digits, one decimal
 * point after a digit (none when `decimals` is 0), at most `decimals` digits after it and at most
 * MAX_INTEGER_DIGITS before it. Anything else is dropped, so an unfinished "-" or "12." stays
 * (numberProblem still refuses them on save).
 */
export function keepNumber(text: string, decimals: number = DEFAULT_DECIMALS): string {
  let out = '';
  let intDigits = 0;
  let fracDigits = -1; // -1: no decimal point yet
  for (const ch of toAscii(text)) {
    if ((ch === '+' || ch === '-') && out === '') out = ch;
    else if (ch === '.' && decimals > 0 && fracDigits < 0 && intDigits > 0) {
      out += ch;
      fracDigits = 0;
    } else if (ch >= '0' && ch <= '9') {
      if (fracDigits >= 0) {
        if (fracDigits >= decimals) continue;
        fracDigits++;
      } else {
        if (intDigits >= MAX_INTEGER_DIGITS) continue;
        intDigits++;
      }
      out += ch;
    }
  }
  return out;
}

/**
 * A valid number text for display: no "+", no leading zeros, at most `decimals` decimals with
 * trailing zeros trimmed ("+05.50" → "5.5", "-0.00" → "0"). Text that is not a number comes back
 * trimmed but otherwise unchanged, so a summary never hides what is stored.
 */
export function formatNumber(text: string, decimals: number = DEFAULT_DECIMALS): string {
  const t = toAscii(text.trim());
  const m = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(t);
  if (!m) return text.trim();
  const int = m[2]!.replace(/^0+(?=\d)/, '');
  const frac = (m[3] ?? '').slice(0, decimals).replace(/0+$/, '');
  const sign = m[1] === '-' && (int !== '0' || frac !== '') ? '-' : '';
  return sign + int + (frac ? '.' + frac : '');
}

/** The value of a text numberProblem accepts (callers check first; NaN otherwise). */
export function parseNumber(text: string): number {
  return numberProblem(text, 20) === null ? Number(toAscii(text.trim())) : NaN;
}
