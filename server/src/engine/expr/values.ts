import { UntrustedRegexp } from './regexp/re2';

/**
 * A value during evaluation (docs/gitlab-behaviour.md#expression-evaluation): a String (variable values and literals), `null` (Ruby `nil`:
 * undefined variable, `null`, missing input), a Boolean (`true`/`false`, comparison results), a regexp
 * (pattern literal), or a number (only from `$[[ inputs.x ]]` with a number input).
 */
export type ExprValue = string | boolean | null | number | UntrustedRegexp;

/** Values an `$[[ inputs.name ]]` may hold (arrays are not modelled). */
export type InputValue = string | boolean | number | null;

/** Ruby truthiness, used inside `&&`/`||`: only `nil` and `false` are falsy — `""` is truthy. */
export function isRubyTruthy(value: ExprValue): boolean {
  return value !== null && value !== false;
}

// ActiveSupport's `String#blank?` is /\A[[:space:]]*\z/, i.e. Unicode White_Space characters.
const BLANK = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

/**
 * ActiveSupport `present?`, the final test of `Statement#truthful?` (docs/gitlab-behaviour.md#expression-evaluation "final"): `nil`, `false`,
 * `""` and whitespace-only strings are not present; any other string (even `"false"`, `"0"`), `true`,
 * numbers and regexps are.
 */
export function isPresent(value: ExprValue): boolean {
  if (value === null || value === false) return false;
  if (typeof value === 'string') return !BLANK.test(value);
  return true;
}

/** Ruby's `Object#to_s` of a regexp value: `UntrustedRegexp` does not define `to_s` (the address is elided). */
export const REGEXP_TO_S = '#<Gitlab::UntrustedRegexp>';

/** Ruby `to_s` (used for the left side of `=~`/`!~`): `nil` → `""`, `true` → `"true"`. */
export function rubyToS(value: ExprValue): string {
  if (value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  return REGEXP_TO_S;
}

/** Result of a comparison: Ruby either answers, or raises `NoMethodError` (a regexp compared with a non-regexp). */
export type CompareResult = { readonly ok: true; readonly equal: boolean } | { readonly ok: false; readonly message: string };

/**
 * `LogicalOperator#compare_with_coercion` (docs/gitlab-behaviour.md#expression-evaluation `==`/`!=`): Ruby `==`, except that a Boolean and a
 * String are compared as strings (`true == "true"`). `nil == ""` is false. A regexp on the left calls
 * `other.source`, which only regexps have.
 */
export function compareWithCoercion(left: ExprValue, right: ExprValue): CompareResult {
  if (typeof left === 'boolean' && typeof right === 'string') return { ok: true, equal: String(left) === right };
  if (typeof left === 'string' && typeof right === 'boolean') return { ok: true, equal: left === String(right) };
  if (left instanceof UntrustedRegexp) {
    if (right instanceof UntrustedRegexp) return { ok: true, equal: left.source === right.source };
    return { ok: false, message: `undefined method 'source' for ${rubyClassName(right)}` };
  }
  if (right instanceof UntrustedRegexp) return { ok: true, equal: false };
  return { ok: true, equal: left === right };
}

/** The Ruby class name of a value, for messages that explain a Ruby error. */
export function rubyClassName(value: ExprValue): string {
  if (value === null) return 'nil';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (typeof value === 'string') return 'an instance of String';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an instance of Integer' : 'an instance of Float';
  return 'an instance of Gitlab::UntrustedRegexp';
}

/** A readable rendering of a value: strings quoted, `null`, booleans, numbers, regexps as `/…/flags`. */
export function formatValue(value: ExprValue): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  return String(value);
}
