// docs/gitlab-behaviour.md#expression-grammar: GitLab's operator lexeme raises 'Invalid left operand' before 'Invalid right operand'
// (gitlab-org/gitlab lib/gitlab/ci/pipeline/expression/lexeme/operator.rb, Operator#initialize), and its RPN parser pops the
// right operand first, so `$CI_COMMIT_TAG =~` (the right operand missing) reads "Invalid left operand" there. The message keeps
// GitLab's words; the detail says which operand is missing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseExpression } from '../../../server/src/engine/expr/index';
import { validateAgentConfig } from '../../../server/src/engine/config/validateAgentConfig';
import { parseYaml } from '../../../server/src/engine/yaml/yamlDocument';

const rows: Array<[string, string, string]> = [
  ['$CI_COMMIT_TAG =~', 'Invalid left operand', '`=~` has no right operand: the expression ends after it'],
  ['$A == "x" &&', 'Invalid left operand', '`&&` has no right operand: the expression ends after it'],
  ['== "a"', 'Invalid left operand', '`==` has no left operand'],
  ['==', 'Invalid left operand', '`==` has no operands'],
  ['($A ==) && $B', 'Invalid left operand', '`==` has no right operand'],
];
for (const [expression, message, detail] of rows) {
  test(`${JSON.stringify(expression)}: ${message} (${detail})`, () => {
    const parsed = parseExpression(expression);
    assert.equal(parsed.ok, false);
    if (parsed.ok) return;
    assert.equal(parsed.error.message, message);
    assert.equal(parsed.error.detail, detail);
  });
}

test('in a config: one diagnostic that names the missing operand', () => {
  const config = 'ci_access:\n  projects:\n    - id: acme/app\n      rules:\n        - if: $CI_COMMIT_TAG =~\n          namespace: x\n';
  const messages = validateAgentConfig(config, { rules: { agent: { configProjectPath: 'acme/infra', name: 'a' }, scenarios: [], defaultBranch: 'main', options: { noRuleMatch: 'deny', overlongNamespace: 'error' } } })
    .filter((d) => d.code.startsWith('expr.'))
    .map((d) => d.message);
  assert.deepEqual(messages, ['Invalid expression syntax: Invalid left operand (`=~` has no right operand: the expression ends after it)']);
});

test('one YAML syntax message per mistake: an unclosed flow collection is reported once, at the bracket left open', () => {
  // The yaml library reports this three times at line 2, column 1 (map, sequence, map still open).
  const parsed = parseYaml('ci_access: {projects: [{id: a,\n');
  const syntax = parsed.diagnostics.filter((d) => d.code === 'yaml.syntax');
  assert.deepEqual(
    syntax.map((d) => [d.range.start.line, d.range.start.character, d.message]),
    [[0, 23, 'This "{" is never closed: add the "}" where it ends, or quote the value if the "{" belongs to it.']],
  );
});
