// docs/gitlab-behaviour.md#expression-evaluation: evaluation semantics — every row of the operator table and every quirk, with GitLab/Ruby
// value semantics. Each row: expression, variables, expected value, expected `truthful?`.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate, type EvaluateOptions, type ExprValue } from '../../../server/src/engine/expr/index';

type Vars = Record<string, string>;
type Row = readonly [name: string, expression: string, vars: Vars, value: ExprValue | { regexp: string }, truthy: boolean];

function check([, expression, vars, value, truthy]: Row, options: EvaluateOptions = {}): void {
  const result = evaluate(expression, vars, options);
  assert.ok(result.ok, `expected ${JSON.stringify(expression)} to evaluate: ${result.ok ? '' : result.error.message}`);
  if (value !== null && typeof value === 'object' && 'regexp' in value) assert.equal(String(result.value), value.regexp);
  else assert.equal(result.value, value);
  assert.equal(result.truthy, truthy);
}

function table(title: string, rows: readonly Row[], options: EvaluateOptions = {}): void {
  describe(title, () => {
    for (const row of rows) {
      test(`${row[0]}: ${row[1]} with ${JSON.stringify(row[2])} → ${JSON.stringify(row[3])} → ${row[4]}`, () => check(row, options));
    }
  });
}

// docs/gitlab-behaviour.md#expression-evaluation
table('`==` / `!=`: Ruby `==` with Boolean/String coercion', [
  ['== equal strings', '$A == "x"', { A: 'x' }, true, true],
  ['== different strings', '$A == "x"', { A: 'y' }, false, false],
  ['== is case-sensitive', '$A == "main"', { A: 'Main' }, false, false],
  ['quirk: $UNDEFINED == null is true', '$U == null', {}, true, true],
  ['quirk: $EMPTY == null is false (nil == "" is false)', '$E == null', { E: '' }, false, false],
  ['quirk: $EMPTY == "" is true', '$E == ""', { E: '' }, true, true],
  ['quirk: $UNDEFINED == "" is false', '$U == ""', {}, false, false],
  ['null == null', 'null == null', {}, true, true],
  ['undefined == undefined (nil == nil)', '$U == $V', {}, true, true],
  ['coercion: true == "true"', 'true == "true"', {}, true, true],
  ['coercion: "false" == false', '"false" == false', {}, true, true],
  ['coercion is exact text: true == "TRUE" is false', 'true == "TRUE"', {}, false, false],
  ['coercion with a variable: $A == true with A="true"', '$A == true', { A: 'true' }, true, true],
  ['Boolean vs nil is not coerced', 'true == null', {}, false, false],
  ['Boolean vs undefined variable', '$U == false', {}, false, false],
  ['true == true', 'true == true', {}, true, true],
  ['true != false', 'true != false', {}, true, true],
  ['!= different strings', '$A != "x"', { A: 'y' }, true, true],
  ['!= undefined vs null', '$U != null', {}, false, false],
  ['!= empty vs null', '$E != null', { E: '' }, true, true],
  // docs/gitlab-behaviour.md#expression-grammar, docs/gitlab-behaviour.md#expression-evaluation
  ['($A == $B) == "true" — equal', '$A == $B == "true"', { A: 'x', B: 'x' }, true, true],
  ['($A == $B) == "true" — different', '$A == $B == "true"', { A: 'x', B: 'y' }, false, false],
  ['($A == $B) == "false" — different', '$A == $B == "false"', { A: 'x', B: 'y' }, true, true],
  // docs/gitlab-behaviour.md#expression-evaluation
  ['regexp == regexp compares sources', '/ab/ == /ab/', {}, true, true],
  ['regexp sources include the (?flags) prefix', '/ab/i == /ab/', {}, false, false],
  ['String == regexp is false', '$A == /ab/', { A: 'ab' }, false, false],
  // docs/gitlab-behaviour.md#variables-available-to-job-rules
  ['CI_DEFAULT_BRANCH comparison is a plain value comparison', '$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH', { CI_COMMIT_BRANCH: 'main', CI_DEFAULT_BRANCH: 'main' }, true, true],
]);

// docs/gitlab-behaviour.md#expression-evaluation
table('`=~`: RE2 regexp, regexp in a variable, or substring; nil left → ""', [
  ['=~ literal regexp matches', '$A =~ /^feat/', { A: 'feature-x' }, true, true],
  // docs/gitlab-behaviour.md#expression-evaluation, docs/gitlab-behaviour.md#expression-regular-expressions
  ['=~ is an unanchored search', '$A =~ /eat/', { A: 'feature-x' }, true, true],
  // docs/gitlab-behaviour.md#expression-evaluation
  ['=~ no match', '$A =~ /^fix/', { A: 'feature-x' }, false, false],
  ['quirk: nil left → "": $UNDEFINED =~ /^$/ is true', '$U =~ /^$/', {}, true, true],
  ['empty left =~ /^$/', '$E =~ /^$/', { E: '' }, true, true],
  ['undefined left =~ /x+/', '$U =~ /x+/', {}, false, false],
  ['right nil (undefined variable) → false', '$A =~ $U', { A: 'x' }, false, false],
  ['right null → false', '$A =~ null', { A: 'x' }, false, false],
  ['right false → false', '$A =~ false', { A: 'false' }, false, false],
  ['regexp held in a variable', '$A =~ $P', { A: 'feature-x', P: '/^feat/' }, true, true],
  ['quirk: a variable may hold a one-character regexp `/a/`', '$A =~ $P', { A: 'bar', P: '/a/' }, true, true],
  // docs/gitlab-behaviour.md#expression-evaluation, docs/gitlab-behaviour.md#expression-regular-expressions
  ['flags in a variable regexp', '$A =~ $P', { A: 'FEATURE', P: '/^feat/i' }, true, true],
  // docs/gitlab-behaviour.md#expression-evaluation
  ['`\\/` in a variable regexp is unescaped to `/`', '$A =~ $P', { A: 'review/x', P: '/^review\\/x$/' }, true, true],
  ['quirk: invalid regexp in a variable → substring semantics (occurs)', '$A =~ $P', { A: '[a', P: '/[a/' }, true, true],
  ['quirk: invalid regexp in a variable → substring semantics (does not occur)', '$A =~ $P', { A: 'a]', P: '/[a/' }, false, false],
  ['RE2-invalid regexp in a variable (backreference) → substring', '$A =~ $P', { A: 'aa', P: '/(a)\\1/' }, false, false],
  ['plain string right side: left text occurs in the right string', '$A =~ $P', { A: 'feat', P: 'feature-x' }, true, true],
  ['plain string right side: right does not contain left', '$A =~ $P', { A: 'feature-x-long', P: 'feature-x' }, false, false],
  ['plain string literal right side', '"b" =~ "abc"', {}, true, true],
  ['plain string literal right side, reversed', '"abc" =~ "b"', {}, false, false],
  ['quirk: nil left → "" occurs in any string', '$U =~ "abc"', {}, true, true],
  ['empty left occurs even in an empty right string', '"" =~ ""', {}, true, true],
  ['a string literal shaped like a regexp is a regexp', '$A =~ "/^f/"', { A: 'foo' }, true, true],
  ['Boolean left is to_s\'d', 'true =~ /^tr/', {}, true, true],
  ['comparison result as left side', '($A == "x") =~ /false/', { A: 'y' }, true, true],
  ['quirk: variables inside a regexp literal are not expanded', '$A =~ /^$B-x/', { A: 'main-x', B: 'main' }, false, false],
  ['quirk: variables inside a variable regexp are not expanded', '$A =~ $P', { A: 'main-x', P: '/^$B-x/', B: 'main' }, false, false],
  ['regexp left side is Object#to_s (documented approximation)', '/ab/ =~ /UntrustedRegexp/', {}, true, true],
]);

// docs/gitlab-behaviour.md#expression-evaluation
table('`!~`: same conversion; right nil → true', [
  ['!~ no match → true', '$A !~ /^feat/', { A: 'fix-1' }, true, true],
  ['!~ match → false', '$A !~ /^feat/', { A: 'feature' }, false, false],
  ['!~ right nil (undefined) → true', '$A !~ $U', { A: 'x' }, true, true],
  ['!~ right null → true', '$A !~ null', { A: 'x' }, true, true],
  ['!~ right false → true', '$A !~ false', { A: 'x' }, true, true],
  ['!~ nil left vs /^$/ → false', '$U !~ /^$/', {}, false, false],
  ['!~ regexp in a variable', '$A !~ $P', { A: 'main', P: '/^release/' }, true, true],
  ['!~ plain string: left occurs → false', '$A !~ "abc"', { A: 'b' }, false, false],
  ['!~ plain string: left does not occur → true', '$A !~ "abc"', { A: 'x' }, true, true],
]);

// docs/gitlab-behaviour.md#expression-evaluation
table('`&&` / `||`: Ruby operators returning operands (empty string truthy inside them)', [
  ['quirk: $A || $B with A="" → "" → false', '$A || $B', { A: '', B: 'x' }, '', false],
  ['quirk: $A && $B with A="" → "x" → true', '$A && $B', { A: '', B: 'x' }, 'x', true],
  ['|| skips nil', '$U || $B', { B: 'x' }, 'x', true],
  ['&& stops at nil', '$U && $B', { B: 'x' }, null, false],
  ['&& returns the right operand', '$A && $B', { A: 'x' }, null, false],
  ['|| returns the first truthy operand', '$A || "default"', { A: 'set' }, 'set', true],
  ['|| skips false', 'false || $A', { A: 'a' }, 'a', true],
  ['&& with true', 'true && "x"', {}, 'x', true],
  ['&& with false', 'false && "x"', {}, false, false],
  ['literal "" || "x" → ""', '"" || "x"', {}, '', false],
  ['whitespace string is truthy inside ||, not present at the end', '$A || "x"', { A: ' ' }, ' ', false],
  ['|| of comparisons', '$A == "a" || $A == "b"', { A: 'b' }, true, true],
  ['&& of comparisons', '$A == "a" && $B =~ /x+/', { A: 'a', B: 'yxy' }, true, true],
  ['short-circuit: && does not evaluate a failing right side', '$U && $A =~ true', {}, null, false],
  ['short-circuit: || does not evaluate a failing right side', '"x" || ($A =~ true)', {}, 'x', true],
  // docs/gitlab-behaviour.md#expression-grammar, docs/gitlab-behaviour.md#expression-evaluation
  ['precedence in evaluation: $A || $B && $C', '$A || $B && $C', { A: 'a' }, 'a', true],
]);

// docs/gitlab-behaviour.md#expression-evaluation
table('final `present?` (Statement#truthful?)', [
  ['undefined variable', '$U', {}, null, false],
  ['empty variable', '$E', { E: '' }, '', false],
  ['whitespace-only variable', '$W', { W: ' \t\n' }, ' \t\n', false],
  ['Unicode whitespace is blank too (ActiveSupport [[:space:]])', '$W', { W: '\u00a0\u3000' }, '\u00a0\u3000', false],
  ['"false" is present', '$A', { A: 'false' }, 'false', true],
  ['"0" is present', '$A', { A: '0' }, '0', true],
  ['any other string is present', '$A', { A: 'x' }, 'x', true],
  ['null literal', 'null', {}, null, false],
  ['"" literal', '""', {}, '', false],
  ['false literal', 'false', {}, false, false],
  ['true literal', 'true', {}, true, true],
  ['a regexp is present', '/ab/', {}, { regexp: '/ab/' }, true],
  ['a parenthesised operand', '($A)', { A: 'x' }, 'x', true],
]);

// docs/gitlab-behaviour.md#expression-lexer
table('#3 `$[[ inputs.x ]]` reads inputs (nil when absent)', [
  ['input equals', '$[[ inputs.env ]] == "prod"', {}, true, true],
  ['absent input is nil', '$[[ inputs.missing ]] == null', {}, true, true],
  // docs/gitlab-behaviour.md#expression-lexer, docs/gitlab-behaviour.md#expression-evaluation
  ['number input vs string is not equal (Integer == String)', '$[[ inputs.n ]] == "3"', {}, false, false],
  ['boolean input is coerced against a string', '$[[ inputs.flag ]] == "true"', {}, true, true],
  // docs/gitlab-behaviour.md#expression-evaluation
  ['number input =~ uses to_s', '$[[ inputs.n ]] =~ /^3$/', {}, true, true],
], { inputs: { env: 'prod', n: 3, flag: true } });

// docs/gitlab-behaviour.md#expression-evaluation
describe('variables', () => {
  test('a Map works as the variable source', () => {
    const result = evaluate('$A == "x"', new Map([['A', 'x']]));
    assert.equal(result.truthy, true);
  });
  test('a record with a variable named get is read as a record, a read-only map as a map', () => {
    assert.equal(evaluate('$get == "x" && $A == null', { get: 'x' }).truthy, true);
    const view: ReadonlyMap<string, string> = { get: (name: string) => (name === 'A' ? 'x' : undefined) } as ReadonlyMap<string, string>;
    assert.equal(evaluate('$A == "x"', view).truthy, true);
  });
  test('names of Object.prototype members are undefined variables', () => {
    assert.equal(evaluate('$constructor == null && $toString == null && $__proto__ == null', {}).truthy, true);
  });
  test('variable names are case-sensitive', () => {
    assert.equal(evaluate('$ci_commit_branch', { CI_COMMIT_BRANCH: 'main' }).truthy, false);
  });
});

// docs/gitlab-behaviour.md#expression-evaluation
describe('errors Ruby raises that GitLab does not rescue (kind runtime) → truthy false', () => {
  const rows: Array<[string, string, Vars, number, number]> = [
    ['=~ with a Boolean right side: true.gsub', '$A =~ true', { A: 'x' }, 0, 10],
    ['!~ with a Boolean right side', '$A !~ true', { A: 'x' }, 0, 10],
    ['regexp == string: "x".source', '/ab/ == "ab"', {}, 0, 12],
    ['regexp != nil: nil.source', '/ab/ != $U', {}, 0, 10],
    ['=~ with a comparison that is true on the right', '$A =~ ($B == "x")', { A: 'x', B: 'x' }, 0, 16],
  ];
  for (const [name, expression, vars, start, end] of rows) {
    test(`${name}: ${expression}`, () => {
      const result = evaluate(expression, vars);
      assert.equal(result.ok, false);
      assert.equal(result.truthy, false);
      if (result.ok) return;
      assert.equal(result.error.kind, 'runtime');
      assert.match(result.error.message, /NoMethodError/);
      assert.deepEqual(result.error.range, { start, end });
    });
  }
  test('the same comparison false on the right is fine (`return false unless regexp`)', () => {
    const result = evaluate('$A =~ ($B == "x")', { A: 'x', B: 'y' });
    assert.equal(result.ok, true);
    assert.equal(result.value, false);
  });
});

// docs/gitlab-behaviour.md#expression-validation
describe('runtime ExpressionError → truthful? false', () => {
  test('a syntax error evaluates to truthy false with the error', () => {
    const result = evaluate('$A == ', { A: 'x' });
    assert.equal(result.truthy, false);
    assert.equal(result.ok ? '' : result.error.message, 'Invalid left operand');
  });
});

// docs/gitlab-behaviour.md#expression-lexer
table('optional unary Not: `!x` is `!x.present?`', [
  ['!"" → true', '!$A', { A: '' }, true, true],
  ['!"x" → false', '!$A', { A: 'x' }, false, false],
  ['!undefined → true', '!$U', {}, true, true],
  ['!"false" → false ("false" is present)', '!$A', { A: 'false' }, false, false],
  ['!($A || $B) with A="" → !"".present? → true', '!($A || $B)', { A: '', B: '' }, true, true],
], { unaryNot: true });
