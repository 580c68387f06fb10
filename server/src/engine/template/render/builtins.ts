/**
 * Go's predefined template functions (`text/template/funcs.go`), with Go's error texts. `and`/`or` are
 * listed for their signature; the evaluator short-circuits them itself, as Go does.
 */
import { FunctionError, type TemplateFunction } from './callable';
import { formatVerbForError, sprint, sprintf, sprintln } from './format';
import { GoFloat, goTypeName, isGoList, isGoMap, isTrue, type GoValue } from './values';

type Kind = 'bool' | 'int' | 'float' | 'string' | 'invalid';

function basicKind(v: GoValue): Kind {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'int';
  if (v instanceof GoFloat) return 'float';
  if (typeof v === 'string') return 'string';
  return 'invalid';
}

function scalar(v: GoValue): number | string | boolean {
  return v instanceof GoFloat ? v.value : (v as number | string | boolean);
}

/** A nil interface and a missing value both read as Go's invalid value once unwrapped. */
function isNilish(v: GoValue): boolean {
  return v === undefined || v === null;
}

/** Go's `eq arg1 arg2...`: true when arg1 equals any of the others. */
function eq(arg1: GoValue, others: readonly GoValue[]): boolean {
  if (others.length === 0) throw new FunctionError('missing argument for comparison');
  const k1 = basicKind(arg1);
  for (const arg of others) {
    const k2 = basicKind(arg);
    let truth = false;
    if (k1 !== k2) {
      if (!isNilish(arg1) && !isNilish(arg)) {
        throw new FunctionError(`incompatible types for comparison: ${goTypeName(arg1)} and ${goTypeName(arg)}`);
      }
    } else if (k1 !== 'invalid') {
      truth = scalar(arg1) === scalar(arg);
    } else if (isNilish(arg1) || isNilish(arg)) {
      truth = isNilish(arg1) === isNilish(arg);
    } else if (isGoList(arg1) !== isGoList(arg)) {
      const [a, b] = [arg1, arg];
      throw new FunctionError(`non-comparable types ${formatVerbForError(a)}: ${goTypeName(a)}, ${goTypeName(b)}: ${formatVerbForError(b, 'v')}`);
    } else {
      throw new FunctionError(`non-comparable type ${formatVerbForError(arg)}: ${goTypeName(arg)}`);
    }
    if (truth) return true;
  }
  return false;
}

/** Go's `lt`, the base of `le`, `gt`, `ge`. */
function lt(a: GoValue, b: GoValue): boolean {
  const k1 = basicKind(a);
  const k2 = basicKind(b);
  if (k1 === 'invalid' || k2 === 'invalid') throw new FunctionError('invalid type for comparison');
  if (k1 !== k2) throw new FunctionError(`incompatible types for comparison: ${goTypeName(a)} and ${goTypeName(b)}`);
  if (k1 === 'bool') throw new FunctionError('invalid type for comparison');
  return scalar(a) < scalar(b);
}

/** Go's `length`. */
function length(v: GoValue): number {
  if (v === null) throw new FunctionError('len of nil pointer');
  if (v === undefined) throw new FunctionError('reflect: call of reflect.Value.Type on zero Value');
  if (typeof v === 'string') return new TextEncoder().encode(v).length;
  if (isGoList(v)) return v.length;
  if (isGoMap(v)) return v.size;
  throw new FunctionError(`len of type ${goTypeName(v)}`);
}

/** Go's `indexArg`: an int within `0..cap`. */
function indexArg(index: GoValue, cap: number): number {
  if (isNilish(index)) throw new FunctionError('cannot index slice/array with nil');
  if (typeof index !== 'number') throw new FunctionError(`cannot index slice/array with type ${goTypeName(index)}`);
  if (index < 0 || index > cap) throw new FunctionError(`index out of range: ${index}`);
  return index;
}

/** Go's `index item i j…`; a missing map key gives the map's zero element (nil). */
function index(item: GoValue, indexes: readonly GoValue[]): GoValue {
  if (isNilish(item)) throw new FunctionError('index of untyped nil');
  for (const idx of indexes) {
    if (item === null) throw new FunctionError('index of nil pointer');
    if (typeof item === 'string') {
      const bytes = new TextEncoder().encode(item);
      const x = indexArg(idx, bytes.length);
      if (x === bytes.length) throw new FunctionError('reflect: string index out of range');
      item = bytes[x];
    } else if (isGoList(item)) {
      const x = indexArg(idx, item.length);
      if (x === item.length) throw new FunctionError('reflect: slice index out of range');
      item = item[x];
    } else if (isGoMap(item)) {
      if (typeof idx !== 'string') {
        throw new FunctionError(isNilish(idx) ? 'value is nil; should be of type string' : `value has type ${goTypeName(idx)}; should be string`);
      }
      item = item.has(idx) ? item.get(idx) : null;
    } else {
      throw new FunctionError(`can't index item of type ${goTypeName(item)}`);
    }
  }
  return item;
}

/** Go's `slice item i j` for strings and lists (3-index slices are refused as for strings). */
function slice(item: GoValue, indexes: readonly GoValue[]): GoValue {
  if (isNilish(item)) throw new FunctionError('slice of untyped nil');
  if (indexes.length > 3) throw new FunctionError(`too many slice indexes: ${indexes.length}`);
  let len: number;
  if (typeof item === 'string') {
    if (indexes.length === 3) throw new FunctionError('cannot 3-index slice a string');
    len = new TextEncoder().encode(item).length;
  } else if (isGoList(item)) {
    len = item.length;
  } else {
    throw new FunctionError(`can't slice item of type ${goTypeName(item)}`);
  }
  const idx = [0, len, len];
  indexes.forEach((x, i) => (idx[i] = indexArg(x, len)));
  if (idx[0] > idx[1]) throw new FunctionError(`invalid slice index: ${idx[0]} > ${idx[1]}`);
  if (indexes.length === 3 && idx[1] > idx[2]) throw new FunctionError(`invalid slice index: ${idx[1]} > ${idx[2]}`);
  if (typeof item === 'string') return new TextDecoder().decode(new TextEncoder().encode(item).slice(idx[0], idx[1]));
  return (item as readonly GoValue[]).slice(idx[0], idx[1]);
}

/** Go's `HTMLEscapeString`. */
function htmlEscape(s: string): string {
  const map: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&#39;', '"': '&#34;', '\0': '\uFFFD' };
  return s.replace(/[<>&'"\0]/g, (c) => map[c]);
}

/** Go's `JSEscapeString`. */
function jsEscape(s: string): string {
  let out = '';
  for (const ch of s) {
    const r = ch.codePointAt(0) as number;
    if (ch === '\\' || ch === "'" || ch === '"') out += `\\${ch}`;
    else if ('<>&='.includes(ch) || r < 0x20) out += `\\u${r.toString(16).toUpperCase().padStart(4, '0')}`;
    else out += ch;
  }
  return out;
}

/** Go's `url.QueryEscape`. */
function queryEscape(s: string): string {
  return encodeURIComponent(s).replace(/%20/g, '+').replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `html`/`js`/`urlquery` format their arguments like `print` first (Go's `evalArgs`), except a lone string. */
function evalArgs(args: readonly GoValue[]): string {
  return args.length === 1 && typeof args[0] === 'string' ? args[0] : sprint(args);
}

/** Go's builtin functions by name. */
export const GO_BUILTINS: ReadonlyMap<string, TemplateFunction> = new Map<string, TemplateFunction>([
  ['and', { params: ['value'], variadic: 'value', call: () => undefined }],
  ['or', { params: ['value'], variadic: 'value', call: () => undefined }],
  ['not', { params: ['value'], call: ([a]) => !isTrue(a) }],
  ['len', { params: ['value'], call: ([a]) => length(a) }],
  ['index', { params: ['value'], variadic: 'value', call: ([item, ...rest]) => index(item, rest), returnsInterface: true }],
  ['slice', { params: ['value'], variadic: 'value', call: ([item, ...rest]) => slice(item, rest) }],
  ['print', { params: [], variadic: 'any', call: (args) => sprint(args) }],
  ['printf', { params: ['string'], variadic: 'any', call: ([f, ...rest]) => sprintf(f as string, rest) }],
  ['println', { params: [], variadic: 'any', call: (args) => sprintln(args) }],
  ['eq', { params: ['value'], variadic: 'value', call: ([a, ...rest]) => eq(a, rest) }],
  ['ne', { params: ['value', 'value'], call: ([a, b]) => !eq(a, [b]) }],
  ['lt', { params: ['value', 'value'], call: ([a, b]) => lt(a, b) }],
  ['le', { params: ['value', 'value'], call: ([a, b]) => lt(a, b) || eq(a, [b]) }],
  ['gt', { params: ['value', 'value'], call: ([a, b]) => !lt(a, b) && !eq(a, [b]) }],
  ['ge', { params: ['value', 'value'], call: ([a, b]) => !lt(a, b) }],
  ['html', { params: [], variadic: 'any', call: (args) => htmlEscape(evalArgs(args)) }],
  ['js', { params: [], variadic: 'any', call: (args) => jsEscape(evalArgs(args)) }],
  ['urlquery', { params: [], variadic: 'any', call: (args) => queryEscape(evalArgs(args)) }],
  [
    'call',
    {
      params: ['value'],
      variadic: 'value',
      call: ([fn]) => {
        // Template data here never holds functions, so `call` can only fail, as Go's would.
        if (isNilish(fn)) throw new FunctionError('call of nil');
        throw new FunctionError(`non-function of type ${goTypeName(fn)}`);
      },
    },
  ],
]);
