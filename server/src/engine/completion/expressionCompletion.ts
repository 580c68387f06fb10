import { isValueToken, lex, OPERATOR_SYMBOLS, type BinaryOperatorKind, type Token } from '../expr';
import { sortKey, type CompletionCandidate, type ScenarioVariableName } from './types';
import { variableCandidates } from './variables';

/**
 * Values some predefined variables take, offered after `$VAR ==` (docs/gitlab-behaviour.md#predefined-variables): pipeline sources, the
 * merge request event types, environment tiers and actions, and the `"true"`/`"false"` of protected refs.
 */
const KNOWN_VALUES: Readonly<Record<string, readonly string[]>> = {
  CI_PIPELINE_SOURCE: ['push', 'merge_request_event', 'schedule', 'web', 'api', 'trigger', 'pipeline', 'parent_pipeline', 'chat', 'external', 'external_pull_request_event', 'ondemand_dast_scan', 'ondemand_dast_validation', 'security_orchestration_policy', 'webide'],
  CI_MERGE_REQUEST_EVENT_TYPE: ['detached', 'merged_result', 'merge_train'],
  CI_ENVIRONMENT_TIER: ['production', 'staging', 'testing', 'development', 'other'],
  CI_ENVIRONMENT_ACTION: ['start', 'prepare', 'stop'],
  CI_COMMIT_REF_PROTECTED: ['true', 'false'],
  CI_MERGE_REQUEST_SOURCE_BRANCH_PROTECTED: ['true', 'false'],
  CI_MERGE_REQUEST_TARGET_BRANCH_PROTECTED: ['true', 'false'],
};

/** Variables naturally compared with the default branch. */
const BRANCH_VARIABLES = new Set(['CI_COMMIT_BRANCH', 'CI_COMMIT_REF_NAME', 'CI_MERGE_REQUEST_TARGET_BRANCH_NAME', 'CI_MERGE_REQUEST_SOURCE_BRANCH_NAME']);

const OPERATORS: readonly BinaryOperatorKind[] = ['equals', 'notEquals', 'matches', 'notMatches', 'and', 'or'];
const OPERATOR_DOCS: Readonly<Record<BinaryOperatorKind, string>> = {
  equals: 'Equal (a boolean compared with a string compares as strings; `null` matches an undefined variable).',
  notEquals: 'Not equal.',
  matches: 'Matches a regular expression (RE2, unanchored), or contains the left side when the right side is a plain string.',
  notMatches: 'Does not match.',
  and: 'Both sides (binds tighter than `||`).',
  or: 'Either side.',
};

/**
 * Completion inside a `rules:if` expression (docs/gitlab-behaviour.md#ci-expressions-and-variables), from GitLab's own lexer run over the text
 * before the cursor: after `$` the variable names; after an operand the operators; where an operand
 * may start, variables, `null`, a regular expression after `=~`/`!~`, and the values some variables
 * take after `==`/`!=`. Nothing inside a string or regular expression literal.
 *
 * `expression` is the text on the line, `cursor` an index into it and `base` its document offset.
 * `unaryNot`: the chosen GitLab has the unary `!` (18.11+, docs/gitlab-behaviour.md#gitlab-versions), offered where an operand may start.
 */
export function expressionCandidates(expression: string, cursor: number, base: number, scenarioVariables: readonly ScenarioVariableName[], unaryNot = false): CompletionCandidate[] {
  const before = expression.slice(0, cursor);
  const wordAfter = /^\w*/.exec(expression.slice(cursor))![0].length;
  const at = (start: number, end: number) => [base + start, base + end] as const;

  const variable = /\$\w*$/.exec(before);
  if (variable) {
    if (!lexesCleanly(before.slice(0, variable.index), unaryNot)) return [];
    return variableCandidates('expression', scenarioVariables, at(variable.index, cursor + wordAfter), 'dollar');
  }

  const partialOperator = /[=!&|~]*$/.exec(before)![0];
  const head = before.slice(0, before.length - partialOperator.length);
  const lexed = lex(head, { unaryNot });
  if (!lexed.ok) return [];
  const last = lexed.tokens[lexed.tokens.length - 1];
  const spaced = head.length === 0 || /\s$/.test(head);

  if (last && (isValueToken(last.kind) || last.kind === 'parenClose')) {
    if (!spaced && !partialOperator) return [];
    const start = head.length;
    return OPERATORS.map((kind, i) => {
      const symbol = OPERATOR_SYMBOLS[kind];
      return {
        label: symbol,
        kind: 'operator' as const,
        insertText: `${spaced ? '' : ' '}${symbol} `,
        snippet: false,
        replace: at(start, cursor),
        sortText: sortKey(0, i),
        filterText: symbol,
        documentation: OPERATOR_DOCS[kind],
      };
    });
  }

  if (partialOperator) return [];
  const word = /[A-Za-z_]*$/.exec(before)![0];
  const replace = at(cursor - word.length, cursor + wordAfter);
  return [...literalCandidates(lexed.tokens, replace, unaryNot), ...variableCandidates('expression', scenarioVariables, replace, 'dollar')];
}

/** Operands that are not variables: values after a comparison, a regex after a match, `null`, `(`. */
function literalCandidates(tokens: readonly Token[], replace: readonly [number, number], unaryNot: boolean): CompletionCandidate[] {
  const operator = tokens[tokens.length - 1];
  const left = tokens[tokens.length - 2];
  const out: CompletionCandidate[] = [];
  const add = (label: string, insertText: string, snippet: boolean, documentation: string, rank = 1) =>
    out.push({ label, kind: 'keyword', insertText, snippet, replace, sortText: sortKey(rank, out.length), documentation });

  if (operator?.kind === 'matches' || operator?.kind === 'notMatches') {
    add('/regex/', '/${1:^release\\/}/', true, 'A regular expression literal (RE2; flags `i`, `m`, `s`, `U` may follow). It needs at least two characters between the slashes.', 0);
  }
  if (operator?.kind === 'equals' || operator?.kind === 'notEquals') {
    const name = left?.kind === 'variable' ? left.text.slice(1) : '';
    for (const value of KNOWN_VALUES[name] ?? []) add(`"${value}"`, `"${value}"`, false, `A value GitLab sets for $${name}.`, 0);
    if (BRANCH_VARIABLES.has(name)) out.push({ label: '$CI_DEFAULT_BRANCH', kind: 'variable', insertText: '$CI_DEFAULT_BRANCH', snippet: false, replace, sortText: sortKey(0, out.length), documentation: "The project's default branch." });
    add('"…"', '"$1"', true, 'A string literal: no escapes; it ends at the next matching quote.');
    add('null', 'null', false, '`null`: equal to an undefined variable (not to an empty one).');
  }
  if (!operator || operator.kind === 'and' || operator.kind === 'or' || operator.kind === 'parenOpen' || operator.kind === 'not') {
    add('(…)', '($1)', true, 'A parenthesised group.');
    if (unaryNot) add('!', '!', false, '`!x`: true when `x` is empty or undefined; binds tighter than every other operator (GitLab 18.11+).');
  }
  return out;
}

/** True when `text` lexes completely: the cursor after it is not inside a string or regex literal. */
function lexesCleanly(text: string, unaryNot: boolean): boolean {
  return lex(text, { unaryNot }).ok;
}
