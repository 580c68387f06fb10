/** Semantic spans of rules:if expressions and namespaces, from GitLab's lexer (docs/gitlab-behaviour.md#expression-lexer) and ExpandVariables (docs/gitlab-behaviour.md#variable-expansion). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expressionSemanticSpans, namespaceSemanticSpans } from '../../../server/src/engine/highlighting/semanticTokens';

const spans = (text: string, of = expressionSemanticSpans) => of(text).map((s) => `${s.type}:${text.slice(s.start, s.start + s.length)}`);

const CASES: readonly (readonly [string, string[]])[] = [
  ['$A == "x"', ['variable:$A', 'operator:==', 'string:"x"']],
  ["$A != 'y' && $B", ['variable:$A', 'operator:!=', "string:'y'", 'operator:&&', 'variable:$B']],
  ['$REF =~ /^release\\/.*$/imsU', ['variable:$REF', 'operator:=~', 'regexp:/^release\\/.*$/', 'keyword:imsU']],
  ['($A || $B) !~ /ab/', ['operator:(', 'variable:$A', 'operator:||', 'variable:$B', 'operator:)', 'operator:!~', 'regexp:/ab/']],
  ['$A == null || $B == true', ['variable:$A', 'operator:==', 'keyword:null', 'operator:||', 'variable:$B', 'operator:==', 'keyword:true']],
  ['$[[ inputs.env ]] == "prod"', ['variable:$[[ inputs.env ]]', 'operator:==', 'string:"prod"']],
  // Invalid: coloured up to what GitLab cannot read (`${B}` is not a lexeme, docs/gitlab-behaviour.md#expression-lexer).
  ['$A == ${B} && $C', ['variable:$A', 'operator:==']],
  // A one-character regex is not a Pattern lexeme (docs/gitlab-behaviour.md#expression-lexer): nothing from there on.
  ['$A =~ /a/', ['variable:$A', 'operator:=~']],
];

for (const [expression, expected] of CASES) {
  test(`expression spans: ${expression}`, () => assert.deepEqual(spans(expression), expected));
}

test('namespace spans: every form ExpandVariables reads', () => {
  assert.deepEqual(spans('app-$CI_ENVIRONMENT_SLUG-${CI_PROJECT_ID}-%USER%', namespaceSemanticSpans), ['variable:$CI_ENVIRONMENT_SLUG', 'variable:${CI_PROJECT_ID}', 'variable:%USER%']);
  assert.deepEqual(spans('plain-namespace', namespaceSemanticSpans), []);
});
