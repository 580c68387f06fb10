// docs/gitlab-behaviour.md#expression-validation: config-time validation — `Statement#valid?` evaluates with empty variables without an
// ExpressionError and the root is a lexeme; at run time any error makes the rule not match.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { validateExpression } from '../../../server/src/engine/expr/index';

// docs/gitlab-behaviour.md#expression-validation
describe('validateExpression', () => {
  const valid = [
    '$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH',
    '$CI_ENVIRONMENT_SLUG == "production" || $CI_ENVIRONMENT_SLUG == "staging"',
    '$CI_ENVIRONMENT_SLUG && $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH',
    '$CI_ENVIRONMENT_SLUG =~ /^review/',
    '$A',
    '"x"',
    'null',
    '$A =~ $B',
    '$A =~ ($B == "x")',
    '($A || $B) && ($C != "d")',
    '$[[ inputs.deploy ]] == "true"',
  ];
  for (const expression of valid) {
    test(`valid: ${expression}`, () => assert.equal(validateExpression(expression).valid, true));
  }

  const invalid: Array<[string, string, string]> = [
    // docs/gitlab-behaviour.md#ci_access-rules-design
    ['typo: bare CI_DEFAULT_BRANCH (no `$`)', '$CI_COMMIT_BRANCH == CI_DEFAULT_BRANCH', 'Unknown lexeme found!'],
    // docs/gitlab-behaviour.md#expression-lexer
    ['`${VAR}` form', '${CI_COMMIT_BRANCH} == "main"', 'Unknown lexeme found!'],
    ['single-character regexp literal', '$A =~ /a/', 'Unknown lexeme found!'],
    ['invalid RE2 literal', '$A =~ /a(?=b)/', 'Invalid regular expression!'],
    ['unmatched parenthesis', '($A == "x"', 'Unprocessable token found in parse tree: parenthesis_open'],
    ['empty', '', 'Empty expression'],
    ['two operands', '$A "x"', 'Unreachable nodes in parse tree'],
    ['dangling operator', '$A ==', 'Invalid left operand'],
    ['`!` (Not is not in GitLab\'s lexer list)', '!$A', 'Unknown lexeme found!'],
    ['Ruby NoMethodError on validation: =~ true', '$A =~ true', ''],
    ['Ruby NoMethodError on validation: regexp == undefined variable', '/ab/ == $A', ''],
  ];
  for (const [name, expression, message] of invalid) {
    // docs/gitlab-behaviour.md#expression-validation
    test(`invalid — ${name}: ${JSON.stringify(expression)}`, () => {
      const result = validateExpression(expression);
      assert.equal(result.valid, false);
      if (result.valid) return;
      if (message) assert.equal(result.error.message, message);
      else assert.equal(result.error.kind, 'runtime');
    });
  }

  test('validation returns the tokens either way (semantic tokens in the editor)', () => {
    const bad = validateExpression('$A == CI_DEFAULT_BRANCH');
    assert.deepEqual(bad.tokens.map((t) => t.kind), ['variable', 'equals']);
    const good = validateExpression('$A == "x"');
    assert.ok(good.valid);
    assert.equal(good.tokens.length, 3);
  });
  test('with unaryNot the `!` dialect validates', () => {
    assert.equal(validateExpression('!$A', { unaryNot: true }).valid, true);
  });
});
