import { findVariableReferences } from '../vars/expand';
import { lex } from '../expr/lexer';
import type { Token } from '../expr/tokens';
import { BoundedCache } from '../cache';

/** Token types of the semantic-token legend, all standard LSP types. */
export const SEMANTIC_TOKEN_TYPES = ['variable', 'operator', 'string', 'regexp', 'keyword'] as const;
export type SemanticTokenType = (typeof SEMANTIC_TOKEN_TYPES)[number];

/** One coloured span of a value: offsets into the string, as {@link TextRange} uses them. */
export interface SemanticSpan {
  readonly start: number;
  readonly length: number;
  readonly type: SemanticTokenType;
}

/**
 * Spans of a `rules:if` expression from GitLab's own lexer (docs/gitlab-behaviour.md#expression-lexer): variables (and CI inputs),
 * the six operators and parentheses, string literals, regular expressions — the pattern as `regexp`,
 * its flags as `keyword` — and `null`/`true`/`false` as `keyword`. An invalid expression is coloured up
 * to the first token GitLab cannot read.
 */
export function expressionSemanticSpans(expression: string): readonly SemanticSpan[] {
  // With `!` (GitLab 18.11+): colouring does not depend on the chosen release; the checks report a `!` an older one lacks.
  return memo.get(expression, () => lex(expression, { unaryNot: true }).tokens.flatMap(spansOfToken));
}

/**
 * Spans per expression text: a full semantic-tokens request after each keystroke re-reads every
 * expression of the file, and all but the edited one are unchanged (and many repeat across entries).
 */
const memo = new BoundedCache<string, readonly SemanticSpan[]>(20_000);

function spansOfToken(token: Token): SemanticSpan[] {
  const start = token.range.start;
  const length = token.range.end - start;
  switch (token.kind) {
    case 'variable':
    case 'input':
      return [{ start, length, type: 'variable' }];
    case 'string':
      return [{ start, length, type: 'string' }];
    case 'pattern': {
      const flags = /[ismU]*$/.exec(token.text)![0].length;
      const pattern: SemanticSpan = { start, length: length - flags, type: 'regexp' };
      return flags ? [pattern, { start: start + length - flags, length: flags, type: 'keyword' }] : [pattern];
    }
    case 'null':
    case 'boolean':
      return [{ start, length, type: 'keyword' }];
    default:
      // ==, !=, =~, !~, &&, ||, (, ), and the optional unary !.
      return [{ start, length, type: 'operator' }];
  }
}

/** Spans of the variable references GitLab expands in a namespace (`$VAR`, `${VAR}`, `%VAR%`, docs/gitlab-behaviour.md#variable-expansion). */
export function namespaceSemanticSpans(value: string): SemanticSpan[] {
  return findVariableReferences(value).map((r) => ({ start: r.range.start, length: r.range.end - r.range.start, type: 'variable' as const }));
}
