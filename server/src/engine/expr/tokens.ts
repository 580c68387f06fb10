import type { TextRange } from './range';

/** The lexeme kinds of GitLab's expression lexer (docs/gitlab-behaviour.md#expression-lexer), plus the optional unary `!` (see lexer options). */
export type TokenKind =
  | 'parenOpen'
  | 'parenClose'
  | 'input'
  | 'variable'
  | 'string'
  | 'pattern'
  | 'null'
  | 'boolean'
  | 'equals'
  | 'matches'
  | 'notEquals'
  | 'notMatches'
  | 'and'
  | 'or'
  | 'not';

/** Binary operator kinds, in GitLab's lexer order. */
export type BinaryOperatorKind = 'equals' | 'matches' | 'notEquals' | 'notMatches' | 'and' | 'or';

/** Token kinds that build a value (operand) node. */
export type ValueTokenKind = 'input' | 'variable' | 'string' | 'pattern' | 'null' | 'boolean';

/** One lexed token: its kind, the exact source text and where it is. */
export interface Token {
  readonly kind: TokenKind;
  /** The matched source text, e.g. `$CI_COMMIT_BRANCH`, `"main"`, `/^re\/x/i`, `&&`. */
  readonly text: string;
  readonly range: TextRange;
}

/** Operator symbols as written in expressions. */
export const OPERATOR_SYMBOLS: Readonly<Record<BinaryOperatorKind | 'not', string>> = {
  equals: '==',
  matches: '=~',
  notEquals: '!=',
  notMatches: '!~',
  and: '&&',
  or: '||',
  not: '!',
};

/**
 * Shunting-yard precedences from GitLab's lexeme classes (docs/gitlab-behaviour.md#expression-grammar): a lower number binds tighter;
 * parentheses use 901 (open) and 900 (close) so that `)` pops every operator but `(`.
 */
export const PRECEDENCE: Readonly<Record<Exclude<TokenKind, ValueTokenKind>, number>> = {
  not: 1,
  equals: 10,
  matches: 10,
  notEquals: 10,
  notMatches: 10,
  and: 11,
  or: 12,
  parenClose: 900,
  parenOpen: 901,
};

/** True for tokens that become operand nodes. */
export function isValueToken(kind: TokenKind): kind is ValueTokenKind {
  return (
    kind === 'input' || kind === 'variable' || kind === 'string' || kind === 'pattern' || kind === 'null' || kind === 'boolean'
  );
}

/** True for the six binary operators. */
export function isBinaryOperatorToken(kind: TokenKind): kind is BinaryOperatorKind {
  return (
    kind === 'equals' || kind === 'matches' || kind === 'notEquals' || kind === 'notMatches' || kind === 'and' || kind === 'or'
  );
}
