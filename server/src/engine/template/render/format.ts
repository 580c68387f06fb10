/**
 * The parts of Go's `fmt` that templates reach: `%v` printing of action results, `print`, `println` and
 * `printf` with the common verbs (`%v %s %d %q %t %x %X %o %b %c %U %e %f %g %T %%`), flags, width and
 * precision, and Go's inline error forms (`%!d(string=x)`, `%!s(MISSING)`, `%!(EXTRA …)`).
 */
import { GoFloat, goTypeName, isGoList, isGoMap, sortedKeys, type GoValue } from './values';
import { MAX_RENDER_CHARS, RenderLimitExceeded } from './limits';

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const UTF8 = new TextEncoder();

/** Go's `strconv.Quote`. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const r = ch.codePointAt(0) as number;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (PRINTABLE.test(ch) && !(r >= 0xd800 && r <= 0xdfff)) out += ch;
    else if (r === 7) out += '\\a';
    else if (r === 8) out += '\\b';
    else if (r === 12) out += '\\f';
    else if (r === 10) out += '\\n';
    else if (r === 13) out += '\\r';
    else if (r === 9) out += '\\t';
    else if (r === 11) out += '\\v';
    else if (r < 0x20 || r === 0x7f) out += `\\x${r.toString(16).padStart(2, '0')}`;
    else if (r >= 0xd800 && r <= 0xdfff) out += '\\ufffd';
    else if (r < 0x10000) out += `\\u${r.toString(16).padStart(4, '0')}`;
    else out += `\\U${r.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/** Go's `strconv.QuoteRune` (for `%q` of an integer). */
function quoteRune(r: number): string {
  if (r === 0x27) return "'\\''";
  if (r === 0x22) return `'"'`;
  const valid = r >= 0 && r <= 0x10ffff && !(r >= 0xd800 && r <= 0xdfff);
  const q = goQuote(String.fromCodePoint(valid ? r : 0xfffd));
  return `'${q.slice(1, -1)}'`;
}

/** Decimal digits and exponent of `x` (`x = 0.d1d2… × 10^dp`), shortest or rounded to `precision` digits. */
function decimalDigits(x: number, precision?: number): { digits: string; dp: number } {
  const [mantissa, exponent] = (precision === undefined ? x.toExponential() : x.toExponential(precision - 1)).split('e');
  return { digits: mantissa.replace('.', '').replace('-', ''), dp: Number(exponent) + 1 };
}

function exponentForm(digits: string, dp: number, verb: 'e' | 'E', fractionDigits: number): string {
  const d = digits.padEnd(fractionDigits + 1, '0');
  const mantissa = fractionDigits > 0 ? `${d[0]}.${d.slice(1, fractionDigits + 1)}` : d[0];
  const exp = dp - 1;
  return `${mantissa}${verb}${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

/** Go's `%e/%f/%g` (and `%v` = shortest `%g`) of a float64, without sign handling for the flags. */
export function formatFloat(x: number, verb: string, precision?: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  const a = Math.abs(x);
  switch (verb) {
    case 'f':
    case 'F':
      return sign + a.toFixed(precision ?? 6);
    case 'e':
    case 'E': {
      const p = precision ?? 6;
      const { digits, dp } = a === 0 ? { digits: '0', dp: 1 } : decimalDigits(a, p + 1);
      return sign + exponentForm(digits, dp, verb, p);
    }
    default: {
      // 'g', 'G', 'v': %e when the exponent is < -4 or >= the precision (6 when shortest), as strconv does.
      const shortest = precision === undefined || precision < 0;
      const p = shortest ? undefined : Math.max(precision, 1);
      const { digits: raw, dp } = a === 0 ? { digits: '0', dp: 1 } : decimalDigits(a, p);
      const digits = raw.replace(/0+$/, '') || '0';
      let eprec = shortest ? 6 : (p as number);
      if (!shortest && eprec > digits.length && digits.length >= dp) eprec = digits.length;
      const exp = dp - 1;
      if (exp < -4 || exp >= eprec) {
        return sign + exponentForm(digits, dp, verb === 'G' ? 'E' : 'e', digits.length - 1);
      }
      if (dp <= 0) return `${sign}0.${'0'.repeat(-dp)}${digits}`;
      if (dp >= digits.length) return sign + digits + '0'.repeat(dp - digits.length);
      return `${sign}${digits.slice(0, dp)}.${digits.slice(dp)}`;
    }
  }
}

/** `%v` of a value (fmt's default format); nil prints `<nil>`. */
export function formatV(v: GoValue): string {
  return formatVerb(v, parseSpec('v'));
}

/**
 * How a template action prints its result (Go's `printValue`): like `%v`, except that a missing value —
 * an absent map key or a nil interface — prints `<no value>`.
 */
export function printActionValue(v: GoValue): string {
  return v === undefined || v === null ? '<no value>' : formatV(v);
}

/** One value formatted with one verb (`%s` by default), for error messages that embed values. */
export function formatVerbForError(v: GoValue, verb = 's'): string {
  return formatVerb(v, parseSpec(verb));
}

/** `fmt.Sprint`: a space between operands when neither side is a string. */
export function sprint(args: readonly GoValue[]): string {
  let out = '';
  args.forEach((a, i) => {
    const isString = typeof a === 'string';
    if (i > 0 && !isString && typeof args[i - 1] !== 'string') out += ' ';
    out += formatV(a);
  });
  return out;
}

/** `fmt.Sprintln`: spaces between all operands and a final newline. */
export function sprintln(args: readonly GoValue[]): string {
  return `${args.map(formatV).join(' ')}\n`;
}

interface Spec {
  verb: string;
  minus: boolean;
  plus: boolean;
  sharp: boolean;
  space: boolean;
  zero: boolean;
  width?: number;
  precision?: number;
}

function parseSpec(verb: string): Spec {
  return { verb, minus: false, plus: false, sharp: false, space: false, zero: false };
}

function pad(s: string, spec: Spec, numeric: boolean): string {
  const width = spec.width ?? 0;
  const length = Array.from(s).length;
  if (length >= width) return s;
  const fill = width - length;
  // Go allows widths up to about ten million; one that large stops rendering here (limits.ts).
  if (fill > MAX_RENDER_CHARS) throw new RenderLimitExceeded();
  if (spec.minus) return s + ' '.repeat(fill);
  if (spec.zero) {
    // Zero padding goes after the sign of a number.
    if (numeric && /^[+\- ]/.test(s)) return s[0] + '0'.repeat(fill) + s.slice(1);
    return '0'.repeat(fill) + s;
  }
  return ' '.repeat(fill) + s;
}

function badVerb(v: GoValue, spec: Spec): string {
  if (v === undefined || v === null) return `%!${spec.verb}(<nil>)`;
  return `%!${spec.verb}(${goTypeName(v)}=${formatV(v)})`;
}

function withSign(s: string, negative: boolean, spec: Spec): string {
  if (negative) return `-${s}`;
  if (spec.plus) return `+${s}`;
  if (spec.space) return ` ${s}`;
  return s;
}

function formatInt(n: number, spec: Spec): string {
  const negative = n < 0;
  const a = BigInt(Math.abs(n));
  let s: string;
  switch (spec.verb) {
    case 'v':
    case 'd':
      s = a.toString(10);
      break;
    case 'b':
      s = a.toString(2);
      break;
    case 'o':
    case 'O':
      s = a.toString(8);
      if (spec.verb === 'O') s = `0o${s}`;
      else if (spec.sharp) s = `0${s}`;
      break;
    case 'x':
    case 'X':
      s = a.toString(16);
      if (spec.verb === 'X') s = s.toUpperCase();
      if (spec.sharp) s = (spec.verb === 'X' ? '0X' : '0x') + s;
      break;
    case 'c':
      return pad(String.fromCodePoint(n >= 0 && n <= 0x10ffff ? n : 0xfffd), spec, false);
    case 'q':
      return pad(quoteRune(n), spec, false);
    case 'U':
      return pad(`U+${a.toString(16).toUpperCase().padStart(4, '0')}`, spec, false);
    default:
      return badVerb(n, spec);
  }
  if (spec.precision !== undefined && spec.precision > MAX_RENDER_CHARS) throw new RenderLimitExceeded();
  if (spec.precision !== undefined) s = s.padStart(spec.precision, '0');
  return pad(withSign(s, negative, spec), { ...spec, zero: spec.zero && spec.precision === undefined }, true);
}

function formatFloatVerb(x: number, spec: Spec): string {
  // %b and %x of floats (binary/hex mantissa) are left out: templates have no use for them.
  if (!'veEfFgG'.includes(spec.verb)) return badVerb(new GoFloat(x), spec);
  const verb = spec.verb === 'v' ? 'g' : spec.verb;
  const body = formatFloat(Math.abs(x), verb, spec.precision);
  return pad(withSign(body, x < 0 || Object.is(x, -0), spec), spec, true);
}

/** Go's `strconv.CanBackquote`: no backquote and no control character other than tab. */
function canBackquote(s: string): boolean {
  for (const ch of s) {
    const r = ch.codePointAt(0) as number;
    if (ch === '`' || r === 0xfeff || r === 0x7f || (r < 0x20 && r !== 9)) return false;
  }
  return true;
}

function formatString(s: string, spec: Spec): string {
  switch (spec.verb) {
    case 'v':
    case 's': {
      const text = spec.precision === undefined ? s : Array.from(s).slice(0, spec.precision).join('');
      return pad(spec.sharp && spec.verb === 'v' ? goQuote(text) : text, spec, false);
    }
    case 'q':
      return pad(spec.sharp && canBackquote(s) ? `\`${s}\`` : goQuote(s), spec, false);
    case 'x':
    case 'X': {
      let hex = Array.from(UTF8.encode(s), (b) => b.toString(16).padStart(2, '0')).join(spec.space ? ' ' : '');
      if (spec.verb === 'X') hex = hex.toUpperCase();
      return pad(hex, spec, false);
    }
    default:
      return badVerb(s, spec);
  }
}

/** Formats one value for one verb, recursing into lists and maps as fmt does. */
function formatVerb(v: GoValue, spec: Spec): string {
  if (spec.verb === 'T') return pad(v === undefined || v === null ? '<nil>' : goTypeName(v), spec, false);
  if (v === undefined || v === null) return spec.verb === 'v' ? pad('<nil>', spec, false) : badVerb(v, spec);
  if (typeof v === 'boolean') return spec.verb === 't' || spec.verb === 'v' ? pad(String(v), spec, false) : badVerb(v, spec);
  if (typeof v === 'number') return formatInt(v, spec);
  if (typeof v === 'string') return formatString(v, spec);
  if (v instanceof GoFloat) return formatFloatVerb(v.value, spec);
  if (isGoList(v)) return `[${v.map((e) => formatVerb(e, spec)).join(' ')}]`;
  if (isGoMap(v)) return `map[${sortedKeys(v).map((k) => `${formatVerb(k, spec)}:${formatVerb(v.get(k), spec)}`).join(' ')}]`;
  return badVerb(v, spec);
}

/** `fmt.Sprintf` for the verbs templates use. */
export function sprintf(format: string, args: readonly GoValue[]): string {
  let out = '';
  let argNum = 0;
  let i = 0;
  while (i < format.length) {
    const pct = format.indexOf('%', i);
    if (pct < 0) {
      out += format.slice(i);
      break;
    }
    out += format.slice(i, pct);
    i = pct + 1;
    const spec = parseSpec('');
    for (; i < format.length; i++) {
      const c = format[i];
      if (c === '-') spec.minus = true;
      else if (c === '+') spec.plus = true;
      else if (c === '#') spec.sharp = true;
      else if (c === ' ') spec.space = true;
      else if (c === '0') spec.zero = !spec.minus;
      else break;
    }
    const readNumber = (): number | undefined => {
      if (format[i] === '*') {
        i++;
        const a = args[argNum++];
        return typeof a === 'number' ? a : undefined;
      }
      const m = /^\d+/.exec(format.slice(i));
      if (!m) return undefined;
      i += m[0].length;
      return Number(m[0]);
    };
    spec.width = readNumber();
    if (spec.width !== undefined && spec.width < 0) {
      spec.minus = true;
      spec.width = -spec.width;
    }
    if (format[i] === '.') {
      i++;
      spec.precision = readNumber() ?? 0;
    }
    if (i >= format.length) {
      out += '%!(NOVERB)';
      break;
    }
    const verb = String.fromCodePoint(format.codePointAt(i) as number);
    i += verb.length;
    spec.verb = verb;
    // For %v, Go moves '+' to "field names" (structs only), so numbers get no sign.
    if (verb === 'v') spec.plus = false;
    if (verb === '%') {
      out += '%';
      continue;
    }
    if (argNum >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    out += formatVerb(args[argNum++], spec);
  }
  if (argNum < args.length) {
    const extra = args.slice(argNum).map((a) => (a === undefined || a === null ? '<nil>' : `${goTypeName(a)}=${formatV(a)}`));
    out += `%!(EXTRA ${extra.join(', ')})`;
  }
  return out;
}
