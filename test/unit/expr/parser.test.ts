// docs/gitlab-behaviour.md#expression-grammar: GitLab's shunting-yard parser — precedences (== != =~ !~: 10, &&: 11, ||: 12), left
// associativity, parentheses, and the parse errors with their ranges.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatExpressionTree, parseExpression, walkExpression, type ExprNode } from '../../../server/src/engine/expr/index';

function tree(expression: string, unaryNot = false): string {
  const parsed = parseExpression(expression, { unaryNot });
  assert.ok(parsed.ok, `expected ${JSON.stringify(expression)} to parse: ${parsed.ok ? '' : parsed.error.message}`);
  return formatExpressionTree(parsed.ast);
}

// docs/gitlab-behaviour.md#expression-grammar
describe('precedence and associativity', () => {
  const rows: Array<[string, string, string]> = [
    ['a bare operand is a complete expression', '$A', '$A'],
    ['a bare string', '"x"', '"x"'],
    ['a bare pattern', '/ab/i', '/ab/i'],
    ['comparison binds tighter than &&', '$A == "a" && $B != "b"', '(($A == "a") && ($B != "b"))'],
    ['&& binds tighter than || (right side)', '$A || $B && $C', '($A || ($B && $C))'],
    ['&& binds tighter than || (left side)', '$A && $B || $C', '(($A && $B) || $C)'],
    ['|| is left-associative', '$A || $B || $C', '(($A || $B) || $C)'],
    ['&& is left-associative', '$A && $B && $C', '(($A && $B) && $C)'],
    ['comparisons are left-associative: `$A == $B == "true"` is `($A == $B) == "true"`', '$A == $B == "true"', '(($A == $B) == "true")'],
    ['mixed comparisons share precedence 10', '$A =~ /ab/ != true', '(($A =~ /ab/) != true)'],
    ['parentheses group', '$A && ($B || $C)', '($A && ($B || $C))'],
    ['nested parentheses', '(($A))', '$A'],
    ['parentheses around a comparison', '($A == "x") || ($B =~ /y+/)', '(($A == "x") || ($B =~ /y+/))'],
    ['parenthesised right operand of ==', '$A == ($B || "x")', '($A == ($B || "x"))'],
    ['a full realistic rule', '$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH || $CI_COMMIT_TAG =~ /^v\\d+/ && $CI_PIPELINE_SOURCE != "schedule"',
      '(($CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH) || (($CI_COMMIT_TAG =~ /^v\\d+/) && ($CI_PIPELINE_SOURCE != "schedule")))'],
  ];
  for (const [name, expression, expected] of rows) {
    test(`${name}: ${expression}`, () => assert.equal(tree(expression), expected));
  }
});

// docs/gitlab-behaviour.md#expression-grammar
describe('parse errors with ranges', () => {
  const rows: Array<[string, string, string, string, number, number]> = [
    ['unmatched `)` → Unmatched parenthesis at the `)`', '$A == "x")', 'parse', 'Unmatched parenthesis', 9, 10],
    ['a second unmatched `)`', '($A))', 'parse', 'Unmatched parenthesis', 4, 5],
    ['`)` first', ') $A', 'parse', 'Unmatched parenthesis', 0, 1],
    ['unmatched `(` stays in the RPN → Unprocessable token at the `(`', '($A == "x"', 'parse', 'Unprocessable token found in parse tree: parenthesis_open', 0, 1],
    ['`()` → Empty parse tree', '()', 'parse', 'Empty parse tree', 0, 2],
    ['two operands → Unreachable nodes (the extra operand is marked)', '$A $B', 'parse', 'Unreachable nodes in parse tree', 3, 5],
    ['value after a parenthesised group', '($A) "x"', 'parse', 'Unreachable nodes in parse tree', 5, 8],
    ['empty expression → StatementError', '', 'statement', 'Empty expression', 0, 0],
    ['whitespace only → StatementError', '   ', 'statement', 'Empty expression', 0, 3],
    ['operator alone → Invalid left operand', '==', 'operator', 'Invalid left operand', 0, 2],
    ['missing left operand', '== "a"', 'operator', 'Invalid left operand', 0, 2],
    ['missing right operand: the sole operand is taken as the right one', '"a" ==', 'operator', 'Invalid left operand', 4, 6],
    ['dangling &&', '$A == "x" &&', 'operator', 'Invalid left operand', 10, 12],
    ['invalid regex literal → Invalid regular expression!', '$A =~ /[a-z/', 'syntax', 'Invalid regular expression!', 6, 12],
  ];
  for (const [name, expression, kind, message, start, end] of rows) {
    test(`${name}: ${JSON.stringify(expression)}`, () => {
      const parsed = parseExpression(expression);
      assert.equal(parsed.ok, false);
      if (parsed.ok) return;
      assert.equal(parsed.error.kind, kind);
      assert.equal(parsed.error.message, message);
      assert.deepEqual(parsed.error.range, { start, end });
    });
  }
  test('a failed parse still returns the token stream (for semantic colouring)', () => {
    const parsed = parseExpression('$A == "x")');
    assert.equal(parsed.ok, false);
    assert.deepEqual(parsed.tokens.map((t) => t.kind), ['variable', 'equals', 'string', 'parenClose']);
  });
  test('errors come in GitLab order: Unmatched parenthesis (RPN) before an invalid pattern (tree build)', () => {
    const parsed = parseExpression('$A =~ /[a-z/ )');
    assert.equal(parsed.ok ? '' : parsed.error.message, 'Unmatched parenthesis');
  });
});

// docs/gitlab-behaviour.md#expression-grammar
describe('tree shape and ranges (for hovers)', () => {
  test('binary node ranges cover operands and operator; operatorRange is the operator', () => {
    const parsed = parseExpression('$A == "x" || $B');
    assert.ok(parsed.ok);
    const root = parsed.ast;
    assert.equal(root.type, 'binary');
    if (root.type !== 'binary') return;
    assert.equal(root.operator, 'or');
    assert.deepEqual(root.range, { start: 0, end: 15 });
    assert.deepEqual(root.operatorRange, { start: 10, end: 12 });
    assert.deepEqual(root.left.range, { start: 0, end: 9 });
  });
  test('walkExpression visits every node parents first', () => {
    const parsed = parseExpression('$A == "x" && $B =~ /re+/');
    assert.ok(parsed.ok);
    const seen: string[] = [];
    walkExpression(parsed.ast, (n: ExprNode) => seen.push(n.type));
    assert.deepEqual(seen, ['binary', 'binary', 'variable', 'string', 'binary', 'variable', 'pattern']);
  });
  test('pattern nodes carry the RE2 source with the (?flags) prefix and the `\\/`-unescaped pattern', () => {
    const parsed = parseExpression('$A =~ /^review\\/x/i');
    assert.ok(parsed.ok && parsed.ast.type === 'binary' && parsed.ast.right.type === 'pattern');
    if (!(parsed.ok && parsed.ast.type === 'binary' && parsed.ast.right.type === 'pattern')) return;
    assert.equal(parsed.ast.right.regexp.source, '(?i)^review/x');
    assert.equal(parsed.ast.right.regexp.pattern, '^review/x');
    assert.equal(parsed.ast.right.regexp.flags, 'i');
  });
});

// docs/gitlab-behaviour.md#expression-lexer, docs/gitlab-behaviour.md#expression-grammar
describe('optional unary Not (GitLab Not: precedence 1)', () => {
  // docs/gitlab-behaviour.md#expression-grammar
  test('`!` binds to the next operand; a following comparison pops it: `!$A == "x"` is `(!$A) == "x"`', () => {
    assert.equal(tree('!$A == "x"', true), '(!$A == "x")');
  });
  // docs/gitlab-behaviour.md#expression-grammar
  test('`!` after an operator applies to the right operand', () => {
    assert.equal(tree('$A == !$B', true), '($A == !$B)');
  });
  // docs/gitlab-behaviour.md#expression-grammar
  test('`!(…)` negates a group', () => {
    assert.equal(tree('!($A || $B)', true), '!($A || $B)');
  });
  // docs/gitlab-behaviour.md#expression-grammar
  test('`!` without operand → Invalid operand', () => {
    const parsed = parseExpression('!', { unaryNot: true });
    assert.equal(parsed.ok ? '' : parsed.error.message, 'Invalid operand');
  });
});
