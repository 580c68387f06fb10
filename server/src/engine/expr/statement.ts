import type { ExprNode } from './ast';
import type { ExprError } from './errors';
import { evaluateTree, type EvaluationContext, type VariableSource } from './evaluator';
import type { ExprOptions } from './lexer';
import { parseExpression, type ParseResult } from './parser';
import type { Token } from './tokens';
import { isPresent, type ExprValue, type InputValue } from './values';

/** Options for {@link evaluate}: the dialect plus `$[[ inputs.x ]]` values. */
export interface EvaluateOptions extends ExprOptions {
  readonly inputs?: ReadonlyMap<string, InputValue> | Readonly<Record<string, InputValue>>;
}

/**
 * Result of {@link evaluate}. `truthy` is GitLab's `Statement#truthful?`: the value's `present?`, and `false`
 * whenever an error occurs (a rule whose `if` cannot be evaluated does not match).
 */
export type EvaluationResult =
  | { readonly ok: true; readonly value: ExprValue; readonly truthy: boolean }
  | { readonly ok: false; readonly value: null; readonly truthy: false; readonly error: ExprError };

/** Result of {@link validateExpression}: GitLab's config-time check (docs/gitlab-behaviour.md#expression-validation). */
export type ValidationResult =
  | { readonly valid: true; readonly ast: ExprNode; readonly tokens: readonly Token[] }
  | { readonly valid: false; readonly error: ExprError; readonly tokens: readonly Token[] };

// Simulations evaluate the same few expressions against thousands of scenarios: parse each once.
// One map per dialect, keyed by the expression text itself (no per-call key building).
const PARSE_CACHE_LIMIT = 2000;
const parseCaches = { gitlab: new Map<string, ParseResult>(), unaryNot: new Map<string, ParseResult>() };

/**
 * Parses `expression` (cached per expression text and dialect). The result carries the token stream even
 * on failure, so an editor can colour what was lexed and mark the error range.
 */
export function parseCached(expression: string, options: ExprOptions = {}): ParseResult {
  const cache = options.unaryNot ? parseCaches.unaryNot : parseCaches.gitlab;
  let parsed = cache.get(expression);
  if (!parsed) {
    parsed = parseExpression(expression, options);
    cache.set(expression, parsed);
    if (cache.size > PARSE_CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  }
  return parsed;
}

/**
 * Evaluates a `rules:if` expression against `variables` exactly like
 * `Statement.new(expression, variables).evaluate` / `#truthful?` (docs/gitlab-behaviour.md#expression-validation, docs/gitlab-behaviour.md#expression-evaluation).
 */
export function evaluate(expression: string, variables: VariableSource, options: EvaluateOptions = {}): EvaluationResult {
  const parsed = parseCached(expression, options);
  if (!parsed.ok) return { ok: false, value: null, truthy: false, error: parsed.error };
  return evaluateParsed(parsed.ast, { variables, ...(options.inputs ? { inputs: options.inputs } : {}) });
}

/** Evaluates an already parsed tree (for callers that keep the tree, e.g. a simulator). */
export function evaluateParsed(ast: ExprNode, context: EvaluationContext): EvaluationResult {
  const outcome = evaluateTree(ast, context);
  if (!outcome.ok) return { ok: false, value: null, truthy: false, error: outcome.error };
  return { ok: true, value: outcome.value, truthy: isPresent(outcome.value) };
}

const NO_VARIABLES: VariableSource = new Map<string, string>();

/**
 * GitLab's `ExpressionValidator` (docs/gitlab-behaviour.md#expression-validation): `Statement#valid?` = the expression evaluates with **empty
 * variables** without an `ExpressionError` and the root is a lexeme. A Ruby error GitLab does not rescue
 * (kind `runtime`, e.g. `$A =~ true`) is reported as invalid too: GitLab cannot accept that configuration.
 */
export function validateExpression(expression: string, options: ExprOptions = {}): ValidationResult {
  const parsed = parseCached(expression, options);
  if (!parsed.ok) return { valid: false, error: parsed.error, tokens: parsed.tokens };
  const outcome = evaluateTree(parsed.ast, { variables: NO_VARIABLES });
  if (!outcome.ok) return { valid: false, error: outcome.error, tokens: parsed.tokens };
  return { valid: true, ast: parsed.ast, tokens: parsed.tokens };
}

/** The message GitLab shows for an invalid `rules:if` (docs/gitlab-behaviour.md#expression-validation), for diagnostics that quote GitLab. */
export const INVALID_EXPRESSION_MESSAGE = 'invalid expression syntax';
