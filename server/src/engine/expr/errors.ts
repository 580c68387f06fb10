import type { TextRange } from './range';

/**
 * Which part of GitLab would raise the error (docs/gitlab-behaviour.md#ci-expressions-and-variables):
 * - `syntax`    — `Lexer::SyntaxError` (unknown lexeme, too many tokens, invalid regular expression literal);
 * - `parse`     — `Parser::ParseError` (unmatched parenthesis, unprocessable token, unreachable nodes, empty tree);
 * - `statement` — `Statement::StatementError` (the expression has no tokens at all);
 * - `operator`  — `Operator::OperatorError` (an operator without an operand, e.g. `== "a"`);
 * - `runtime`   — not an `ExpressionError` in GitLab: Ruby raises `NoMethodError` (e.g. `$A =~ true`,
 *   `/re/ == "x"`). GitLab does not rescue it, so the pipeline/config is rejected with an internal error.
 *
 * All but `runtime` are `ExpressionError`s: at config time they make the expression "invalid syntax", at
 * run time they make the rule silently not match.
 */
export type ExprErrorKind = 'syntax' | 'parse' | 'statement' | 'operator' | 'runtime';

/** An error found while lexing, parsing or evaluating a `rules:if` expression. */
export interface ExprError {
  readonly kind: ExprErrorKind;
  /** GitLab's own message where it has one (e.g. `Unknown lexeme found!`). */
  readonly message: string;
  /** Where in the expression string the problem is (0-based offsets). */
  readonly range: TextRange;
  /** Extra explanation that GitLab does not show, e.g. the RE2 compiler message. */
  readonly detail?: string;
}

/** Builds an {@link ExprError}. */
export function exprError(kind: ExprErrorKind, message: string, range: TextRange, detail?: string): ExprError {
  return detail === undefined ? { kind, message, range } : { kind, message, range, detail };
}

/** True for the errors GitLab raises as `ExpressionError` (rescued: rule does not match / "invalid syntax"). */
export function isExpressionError(error: ExprError): boolean {
  return error.kind !== 'runtime';
}
