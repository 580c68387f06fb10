/**
 * Go literal syntax used inside template actions: `strconv.Unquote` for "..." and `...` strings and
 * character constants, and `text/template/parse.newNumber` for numbers.
 */

/** Go's `strconv.ErrSyntax` text, which `text/template` reports as is. */
export const INVALID_SYNTAX = 'invalid syntax';

const UTF8_ENCODER = new TextEncoder();
const UTF8_DECODER = new TextDecoder('utf-8');

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92 };

/** One escape or character at `i`: `value` is a code point, or a raw byte when `isByte`. */
interface UnquotedChar {
  readonly value: number;
  readonly isByte: boolean;
  readonly next: number;
}

function hexValue(s: string, from: number, count: number): number | null {
  const digits = s.slice(from, from + count);
  if (digits.length !== count || !/^[0-9a-fA-F]+$/.test(digits)) return null;
  return parseInt(digits, 16);
}

/** Go's `strconv.UnquoteChar` for the character at `i` of a literal quoted with `quote`. */
function unquoteChar(s: string, i: number, quote: string): UnquotedChar | null {
  const c = s.codePointAt(i) as number;
  if (s[i] === quote && (quote === "'" || quote === '"')) return null;
  if (s[i] !== '\\') return { value: c, isByte: false, next: i + (c > 0xffff ? 2 : 1) };
  const e = s[i + 1];
  if (e === undefined) return null;
  if (e in SIMPLE_ESCAPES) return { value: SIMPLE_ESCAPES[e], isByte: false, next: i + 2 };
  if (e === "'" || e === '"') return e === quote ? { value: e.charCodeAt(0), isByte: false, next: i + 2 } : null;
  if (e >= '0' && e <= '7') {
    const digits = s.slice(i + 1, i + 4);
    if (!/^[0-7]{3}$/.test(digits)) return null;
    const v = parseInt(digits, 8);
    return v > 255 ? null : { value: v, isByte: true, next: i + 4 };
  }
  if (e === 'x') {
    const v = hexValue(s, i + 2, 2);
    return v === null ? null : { value: v, isByte: true, next: i + 4 };
  }
  if (e === 'u' || e === 'U') {
    const n = e === 'u' ? 4 : 8;
    const v = hexValue(s, i + 2, n);
    if (v === null || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return null;
    return { value: v, isByte: false, next: i + 2 + n };
  }
  return null;
}

/**
 * `strconv.Unquote` for a double-quoted or raw string literal (quotes included). Throws `invalid syntax`.
 * Byte escapes (`\xc3\xa9`) are assembled as UTF-8 bytes, as Go does; invalid UTF-8 decodes to U+FFFD.
 */
export function unquoteString(quoted: string): string {
  if (quoted.length < 2) throw new Error(INVALID_SYNTAX);
  const quote = quoted[0];
  if (quoted[quoted.length - 1] !== quote) throw new Error(INVALID_SYNTAX);
  const body = quoted.slice(1, -1);
  if (quote === '`') {
    if (body.includes('`')) throw new Error(INVALID_SYNTAX);
    // Go drops carriage returns from raw strings.
    return body.replace(/\r/g, '');
  }
  if (quote !== '"' || body.includes('\n')) throw new Error(INVALID_SYNTAX);
  if (!body.includes('\\') && !body.includes('"')) return body;
  const bytes: number[] = [];
  let i = 0;
  while (i < body.length) {
    const c = unquoteChar(body, i, '"');
    if (c === null) throw new Error(INVALID_SYNTAX);
    if (c.isByte) bytes.push(c.value);
    else bytes.push(...UTF8_ENCODER.encode(String.fromCodePoint(c.value)));
    i = c.next;
  }
  return UTF8_DECODER.decode(new Uint8Array(bytes));
}

/** How Go's `newNumber` can read a literal; a character constant is an int (its code point). */
export interface NumberValue {
  readonly isInt: boolean;
  readonly int: number;
  readonly isFloat: boolean;
  readonly float: number;
}

/** Go's `strconv` underscore rule: separators only between digits (or after a base prefix). */
function underscoreOK(s: string): boolean {
  let saw = '^';
  let i = 0;
  if (s[0] === '-' || s[0] === '+') s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && /[box]/i.test(s[1])) {
    i = 2;
    saw = '0';
    hex = s[1].toLowerCase() === 'x';
  }
  for (; i < s.length; i++) {
    const c = s[i];
    if ((c >= '0' && c <= '9') || (hex && /[a-f]/i.test(c))) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

const UINT64_MAX = 2n ** 64n - 1n;

/** `strconv.ParseInt(text, 0, 64)` without the int64 range check; null when Go would fail to parse. */
function parseGoInteger(text: string): bigint | null {
  if (text.includes('_') && !underscoreOK(text)) return null;
  let s = text.replace(/_/g, '');
  let negative = false;
  if (s[0] === '+' || s[0] === '-') {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  let digits: string;
  let radix: bigint;
  let pattern: RegExp;
  if (/^0[xX]/.test(s)) [digits, radix, pattern] = [s.slice(2), 16n, /^[0-9a-fA-F]+$/];
  else if (/^0[oO]/.test(s)) [digits, radix, pattern] = [s.slice(2), 8n, /^[0-7]+$/];
  else if (/^0[bB]/.test(s)) [digits, radix, pattern] = [s.slice(2), 2n, /^[01]+$/];
  else if (s.length > 1 && s[0] === '0') [digits, radix, pattern] = [s.slice(1), 8n, /^[0-7]+$/];
  else [digits, radix, pattern] = [s, 10n, /^[0-9]+$/];
  if (!pattern.test(digits)) return null;
  let value = 0n;
  for (const d of digits) value = value * radix + BigInt(parseInt(d, Number(radix)));
  return negative ? -value : value;
}

/** `strconv.ParseFloat(text, 64)` for decimal and hexadecimal floats; null when Go would fail. */
function parseGoFloat(text: string): number | null {
  if (text.includes('_') && !underscoreOK(text)) return null;
  const s = text.replace(/_/g, '');
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return Number(s);
  const hex = /^([+-]?)0[xX]([0-9a-fA-F]*)\.?([0-9a-fA-F]*)[pP]([+-]?\d+)$/.exec(s);
  if (hex && (hex[2] || hex[3])) {
    const mantissa = parseInt(hex[2] + hex[3] || '0', 16) / 16 ** hex[3].length;
    return (hex[1] === '-' ? -1 : 1) * mantissa * 2 ** Number(hex[4]);
  }
  return null;
}

/**
 * Go's `newNumber` for a number item or a character constant. Throws with Go's message when the literal
 * is not a number Go accepts; complex numbers (`1+2i`) are not supported here.
 */
export function parseNumber(text: string, isCharConstant: boolean): NumberValue {
  if (isCharConstant) {
    const c = unquoteChar(text, 1, "'");
    if (c === null) throw new Error(INVALID_SYNTAX);
    if (text.slice(c.next) !== "'") throw new Error(`malformed character constant: ${text}`);
    return { isInt: true, int: c.value, isFloat: true, float: c.value };
  }
  if (text.endsWith('i')) throw new Error(`complex number ${text} is not supported by this renderer`);
  const int = parseGoInteger(text);
  if (int !== null && int >= INT64_MIN && int <= INT64_MAX) return { isInt: true, int: Number(int), isFloat: true, float: Number(int) };
  // A uint64 that is not an int64 parses (Go's IsUint) but "overflows int" when executed.
  if (int !== null && int > INT64_MAX && int <= UINT64_MAX && !/^[+-]/.test(text)) return { isInt: false, int: 0, isFloat: true, float: Number(int) };
  const f = parseGoFloat(text);
  if (f !== null) {
    if (!/[.eEpP]/.test(text)) throw new Error(`integer overflow: ${JSON.stringify(text)}`);
    const isInt = Number.isInteger(f) && BigInt(f) >= INT64_MIN && BigInt(f) <= INT64_MAX;
    return { isInt, int: isInt ? f : 0, isFloat: true, float: f };
  }
  throw new Error(`illegal number syntax: ${JSON.stringify(text)}`);
}
