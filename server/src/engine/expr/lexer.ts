import { exprError, type ExprError } from './errors';
import { textRange } from './range';
import type { Token, TokenKind } from './tokens';

/** GitLab's `Lexer::MAX_TOKENS`. */
export const MAX_TOKENS = 100;

/** Options that select the expression dialect. */
export interface ExprOptions {
  /**
   * Accept the unary `!` (GitLab's `Lexeme::Not`: `!x` is `!x.present?`, precedence 1), in the
   * lexer's list from GitLab 18.11 (docs/gitlab-behaviour.md#gitlab-versions). Without it `!` alone is an unknown
   * lexeme, as in older releases; the checks pass the chosen release's dialect (`expressionDialect`).
   */
  readonly unaryNot?: boolean;
}

/** Result of {@link lex}: the tokens, or the first error plus the tokens lexed before it. */
export type LexResult =
  | { readonly ok: true; readonly tokens: readonly Token[] }
  | { readonly ok: false; readonly error: ExprError; readonly tokens: readonly Token[] };

interface LexemeRule {
  readonly kind: TokenKind;
  readonly pattern: RegExp;
}

// Ruby's `\s` and `\w` are ASCII-only; JavaScript's `\s` is Unicode-aware, so spell the classes out.
const WS = '[ \\t\\n\\v\\f\\r]';

// The patterns are GitLab's (docs/gitlab-behaviour.md#expression-lexer), anchored with `^` and matched against the rest of the input:
// Ruby's StringScanner (fixed_anchor: false) treats the scan position as the start of the string, which
// matters for `\b` in the Boolean lexeme (`nulltrue` lexes as `null`, `true`).
const RULES: readonly LexemeRule[] = [
  { kind: 'parenOpen', pattern: /^\(/ },
  { kind: 'parenClose', pattern: /^\)/ },
  // GitLab's Input lexeme takes `\w+` (ASCII letters, digits, `_`): `$[[ inputs.env-x ]]` is an unknown lexeme (docs/gitlab-behaviour.md#rulesif-by-version).
  { kind: 'input', pattern: new RegExp(`^\\$\\[\\[${WS}*inputs\\.[A-Za-z0-9_]+${WS}*\\]\\]`) },
  { kind: 'variable', pattern: /^\$[A-Za-z0-9_]+/ },
  // Ruby's `.` excludes only `\n` (JavaScript's also excludes `\r`, U+2028, U+2029).
  { kind: 'string', pattern: /^(?:"[^\n]*?"|'[^\n]*?')/ },
  // Both engines backtrack with the same leftmost-first priorities, so this finds what Ruby finds.
  { kind: 'pattern', pattern: /^\/(?:[^/]|\\\/)+[^\\]\/[ismU]*/ },
  { kind: 'null', pattern: /^null/ },
  { kind: 'boolean', pattern: /^\b(?:true|false)\b/ },
  { kind: 'equals', pattern: /^==/ },
  { kind: 'matches', pattern: /^=~/ },
  { kind: 'notEquals', pattern: /^!=/ },
  { kind: 'notMatches', pattern: /^!~/ },
  { kind: 'and', pattern: /^&&/ },
  { kind: 'or', pattern: /^\|\|/ },
];

const NOT_RULE: LexemeRule = { kind: 'not', pattern: /^!/ };
const RULES_WITH_NOT: readonly LexemeRule[] = [...RULES, NOT_RULE];

const WHITESPACE = new RegExp(`${WS}+`, 'y');
const NON_WHITESPACE_RUN = /[^ \t\n\v\f\r]*/y;

/**
 * Splits a `rules:if` expression into tokens exactly like `Gitlab::Ci::Pipeline::Expression::Lexer`
 * (docs/gitlab-behaviour.md#expression-lexer): whitespace skipped, lexemes tried in GitLab's order, first match wins.
 *
 * GitLab's loop runs {@link MAX_TOKENS} times and raises `Too many tokens!` when it ends without reaching
 * the end of input, so an expression of exactly 100 tokens is already rejected (99 is the real maximum).
 */
export function lex(expression: string, options: ExprOptions = {}): LexResult {
  const rules = options.unaryNot ? RULES_WITH_NOT : RULES;
  const tokens: Token[] = [];
  let pos = 0;
  for (let i = 0; i < MAX_TOKENS; i++) {
    pos = skipWhitespace(expression, pos);
    if (pos >= expression.length) return { ok: true, tokens };
    const token = matchAt(expression, pos, rules);
    if (!token) {
      return {
        ok: false,
        error: exprError('syntax', 'Unknown lexeme found!', textRange(pos, endOfRun(expression, pos))),
        tokens,
      };
    }
    tokens.push(token);
    pos = token.range.end;
  }
  const last = tokens[tokens.length - 1]!;
  return {
    ok: false,
    error: exprError('syntax', 'Too many tokens!', last.range, `GitLab accepts at most ${MAX_TOKENS - 1} tokens`),
    tokens,
  };
}

function skipWhitespace(text: string, pos: number): number {
  WHITESPACE.lastIndex = pos;
  return WHITESPACE.test(text) ? WHITESPACE.lastIndex : pos;
}

/** The unknown lexeme is reported up to the next whitespace so that e.g. all of `${VAR}` is marked. */
function endOfRun(text: string, pos: number): number {
  NON_WHITESPACE_RUN.lastIndex = pos;
  NON_WHITESPACE_RUN.test(text);
  return Math.max(NON_WHITESPACE_RUN.lastIndex, pos + 1);
}

function matchAt(text: string, pos: number, rules: readonly LexemeRule[]): Token | undefined {
  const rest = text.slice(pos);
  for (const rule of rules) {
    const m = rule.pattern.exec(rest);
    if (m) return { kind: rule.kind, text: m[0], range: textRange(pos, pos + m[0].length) };
  }
  return undefined;
}
