/**
 * GitLab `rules:if` expressions, exactly as GitLab lexes, parses and evaluates them (docs/gitlab-behaviour.md#ci-expressions-and-variables).
 * Pure and editor-agnostic: the LSP, the simulator and the CLI all call these functions.
 */
export { lex, MAX_TOKENS, type ExprOptions, type LexResult } from './lexer';
export { parseExpression, type ParseResult } from './parser';
export {
  evaluate,
  evaluateParsed,
  parseCached,
  validateExpression,
  INVALID_EXPRESSION_MESSAGE,
  type EvaluateOptions,
  type EvaluationResult,
  type ValidationResult,
} from './statement';
export { evaluateTree, lookupVariable, type EvaluationContext, type EvaluationOutcome, type VariableSource } from './evaluator';
export { exprError, isExpressionError, type ExprError, type ExprErrorKind } from './errors';
export { coverRanges, textRange, type TextRange } from './range';
export {
  isBinaryOperatorToken,
  isValueToken,
  OPERATOR_SYMBOLS,
  PRECEDENCE,
  type BinaryOperatorKind,
  type Token,
  type TokenKind,
  type ValueTokenKind,
} from './tokens';
export { formatExpressionTree, walkExpression, type ExprNode } from './ast';
export type { BinaryNode, BooleanNode, InputNode, NotNode, NullNode, PatternNode, StringNode, VariableNode } from './ast';
export {
  compareWithCoercion,
  formatValue,
  isPresent,
  isRubyTruthy,
  rubyToS,
  type ExprValue,
  type InputValue,
} from './values';
export { UntrustedRegexp, type Re2CompileResult } from './regexp/re2';
export { fabricateRubyRegexp, type RubySyntaxResult } from './regexp/ruby-syntax';
