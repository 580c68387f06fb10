import type { BinaryNode, ExprNode } from './ast';
import { exprError, type ExprError } from './errors';
import { UntrustedRegexp } from './regexp/re2';
import { fabricateRubyRegexp } from './regexp/ruby-syntax';
import { compareWithCoercion, isPresent, isRubyTruthy, rubyClassName, rubyToS, type ExprValue, type InputValue } from './values';

/** Variables as GitLab passes them to `Statement` (`variables_hash`): name → string value. */
export type VariableSource = ReadonlyMap<string, string> | Readonly<Record<string, string>>;

/** Everything an expression can read while it is evaluated. */
export interface EvaluationContext {
  readonly variables: VariableSource;
  /** Values for `$[[ inputs.NAME ]]` (GitLab's `variables[:inputs]`). */
  readonly inputs?: ReadonlyMap<string, InputValue> | Readonly<Record<string, InputValue>>;
}

/** The value of a tree, or the Ruby error GitLab would hit evaluating it. */
export type EvaluationOutcome = { readonly ok: true; readonly value: ExprValue } | { readonly ok: false; readonly error: ExprError };

/** Looks a name up without ever reaching `Object.prototype` (`$constructor` must stay undefined). */
export function lookupVariable<T>(source: ReadonlyMap<string, T> | Readonly<Record<string, T>>, name: string): T | undefined {
  if (isReadonlyMap(source)) return source.get(name);
  return Object.hasOwn(source, name) ? source[name] : undefined;
}

/**
 * A map of variables (a Map, or a read-only view such as the scenario values of one project) rather
 * than a record: a record's values are variables, never functions, so one named `get` is no method.
 */
function isReadonlyMap<T>(source: ReadonlyMap<string, T> | Readonly<Record<string, T>>): source is ReadonlyMap<string, T> {
  return source instanceof Map || typeof (source as { get?: unknown }).get === 'function';
}

/**
 * Evaluates a parse tree with GitLab's value semantics (docs/gitlab-behaviour.md#expression-evaluation): undefined variables are `nil`,
 * `&&`/`||` return an operand (Ruby truthiness: `""` is truthy), `==`/`!=` compare with Boolean/String
 * coercion, `=~`/`!~` match with RE2 or by substring (see {@link evaluateMatch}). Evaluation order is
 * Ruby's: left before right, `&&`/`||` short-circuit.
 */
export function evaluateTree(node: ExprNode, context: EvaluationContext): EvaluationOutcome {
  switch (node.type) {
    case 'variable':
      return ok(lookupVariable(context.variables, node.name) ?? null);
    case 'input':
      return ok(context.inputs ? (lookupVariable(context.inputs, node.name) ?? null) : null);
    case 'string':
      return ok(node.value);
    case 'pattern':
      return ok(node.regexp);
    case 'null':
      return ok(null);
    case 'boolean':
      return ok(node.value);
    case 'not': {
      const operand = evaluateTree(node.operand, context);
      return operand.ok ? ok(!isPresent(operand.value)) : operand;
    }
    case 'binary':
      return evaluateBinary(node, context);
  }
}

function ok(value: ExprValue): EvaluationOutcome {
  return { ok: true, value };
}

function evaluateBinary(node: BinaryNode, context: EvaluationContext): EvaluationOutcome {
  const left = evaluateTree(node.left, context);
  if (!left.ok) return left;
  if (node.operator === 'and' && !isRubyTruthy(left.value)) return left;
  if (node.operator === 'or' && isRubyTruthy(left.value)) return left;
  const right = evaluateTree(node.right, context);
  if (!right.ok) return right;
  switch (node.operator) {
    case 'and':
    case 'or':
      return right;
    case 'equals':
    case 'notEquals': {
      const compared = compareWithCoercion(left.value, right.value);
      if (!compared.ok) return runtimeError(node, compared.message);
      return ok(node.operator === 'equals' ? compared.equal : !compared.equal);
    }
    case 'matches':
    case 'notMatches':
      return evaluateMatch(node, left.value, right.value);
  }
}

/**
 * `Matches`/`NotMatches#evaluate` (docs/gitlab-behaviour.md#expression-evaluation): the left side is `to_s`'d (`nil` → `""`). A `nil`/`false` right
 * side gives `false` for `=~` and `true` for `!~`. A String right side (variable value or literal) is read as a
 * `/pattern/flags` regexp if it can be (one character between the slashes is enough; `\/` → `/`); otherwise
 * — including an invalid regexp — the string itself is used and the test becomes "the left text occurs in the
 * right string" (Ruby `String#scan`). Any other right side (`true`, a number) makes Ruby raise `NoMethodError`.
 */
function evaluateMatch(node: BinaryNode, leftValue: ExprValue, rightValue: ExprValue): EvaluationOutcome {
  const wantMatch = node.operator === 'matches';
  const text = rubyToS(leftValue);
  if (rightValue === null || rightValue === false) return ok(!wantMatch);
  let found: boolean;
  if (rightValue instanceof UntrustedRegexp) {
    found = rightValue.matches(text);
  } else if (typeof rightValue === 'string') {
    const fabricated = fabricateRubyRegexp(rightValue);
    // `String#scan("")` yields one empty match per position, so an empty left text always "occurs".
    found = fabricated.kind === 'regexp' ? fabricated.regexp.matches(text) : rightValue.includes(text);
  } else {
    return runtimeError(node, `undefined method 'gsub' for ${rubyClassName(rightValue)}`);
  }
  return ok(wantMatch ? found : !found);
}

function runtimeError(node: BinaryNode, rubyMessage: string): EvaluationOutcome {
  return {
    ok: false,
    error: exprError(
      'runtime',
      `GitLab fails evaluating this operator (NoMethodError: ${rubyMessage})`,
      node.range,
      'Ruby raises an error that GitLab does not rescue: the pipeline cannot be created',
    ),
  };
}
