/**
 * Template values, modelled on what Go sees when KAS executes a template over `map[string]any` data.
 *
 * - `undefined` is Go's invalid `reflect.Value` (a missing map key): printed `<no value>`.
 * - `null` is a nil `interface{}`.
 * - JavaScript integers are Go `int` (exact up to 2^53; Go's 64-bit range beyond that loses precision); {@link GoFloat} is `float64` (kept apart so that `1.0` prints `1`
 *   and `1e6` prints `1e+06` as Go does, and so `eq 1 1.0` is a type error as in Go).
 * - arrays are `[]interface{}` and `Map`s are `map[string]interface{}`.
 */

/** A Go `float64`. */
export class GoFloat {
  constructor(readonly value: number) {}
}

/** `map[string]interface{}`. */
export type GoMap = ReadonlyMap<string, GoValue>;

/** Any value a template can hold. */
export type GoValue = undefined | null | boolean | number | string | GoFloat | readonly GoValue[] | GoMap;

/** True for a `map[string]interface{}`. */
export function isGoMap(v: GoValue): v is GoMap {
  return v instanceof Map;
}

/** True for a `[]interface{}`. */
export function isGoList(v: GoValue): v is readonly GoValue[] {
  return Array.isArray(v);
}

/** Go's type name of a value, as it appears in Go's error messages. */
export function goTypeName(v: GoValue): string {
  if (v === undefined || v === null) return 'interface {}';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'int';
  if (typeof v === 'boolean') return 'bool';
  if (v instanceof GoFloat) return 'float64';
  if (isGoList(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** Go's `isTrue`: false for the zero value of the type (empty string/list/map, 0, false, nil). */
export function isTrue(v: GoValue): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'string') return v.length > 0;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'boolean') return v;
  if (v instanceof GoFloat) return v.value !== 0;
  if (isGoList(v)) return v.length > 0;
  return v.size > 0;
}

/** Map keys in the order Go's `fmtsort` and `range` visit string keys (byte order of their UTF-8). */
export function sortedKeys(m: GoMap): string[] {
  return [...m.keys()].sort(compareGoStrings);
}

/** Byte-wise comparison of the UTF-8 encodings, which is code-point order. */
export function compareGoStrings(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i].codePointAt(0) as number) - (y[i].codePointAt(0) as number);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/**
 * Converts plain data (JSON-like objects, arrays, numbers, strings, booleans, null) into template values.
 * Integral numbers become `int`, others `float64`; object keys whose value is `undefined` are left out (a
 * missing key), as are functions and symbols.
 */
export function toGoValue(data: unknown): GoValue {
  if (data === undefined) return undefined;
  if (data === null) return null;
  if (typeof data === 'string' || typeof data === 'boolean') return data;
  if (typeof data === 'number') return Number.isInteger(data) ? data : new GoFloat(data);
  if (typeof data === 'bigint') return Number(data);
  if (data instanceof GoFloat) return data;
  if (Array.isArray(data)) return data.map((e) => toGoValue(e) ?? null);
  if (data instanceof Map) {
    const m = new Map<string, GoValue>();
    for (const [k, v] of data) if (v !== undefined) m.set(String(k), toGoValue(v));
    return m;
  }
  if (typeof data === 'object') {
    const m = new Map<string, GoValue>();
    for (const [k, v] of Object.entries(data)) if (v !== undefined) m.set(k, toGoValue(v));
    return m;
  }
  return undefined;
}
