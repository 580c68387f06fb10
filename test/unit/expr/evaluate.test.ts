// Spec §3.4: evaluation semantics — every row of the operator table and every quirk, with GitLab/Ruby
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

table('§3.4 `==` / `!=`: Ruby `==` with Boolean/String coercion', [
  ['§3.4 == equal strings', '$A == "x"', { A: 'x' }, true, true],
  ['§3.4 == different strings', '$A == "x"', { A: 'y' }, false, false],
  ['§3.4 == is case-sensitive', '$A == "main"', { A: 'Main' }, false, false],
  ['§3.4 quirk: $UNDEFINED == null is true', '$U == null', {}, true, true],
  ['§3.4 quirk: $EMPTY == null is false (nil == "" is false)', '$E == null', { E: '' }, false, false],
  ['§3.4 quirk: $EMPTY == "" is true', '$E == ""', { E: '' }, true, true],
  ['§3.4 quirk: $UNDEFINED == "" is false', '$U == ""', {}, false, false],
  ['§3.4 null == null', 'null == null', {}, true, true],
  ['§3.4 undefined == undefined (nil == nil)', '$U == $V', {}, true, true],
  ['§3.4 coercion: true == "true"', 'true == "true"', {}, true, true],
  ['§3.4 coercion: "false" == false', '"false" == false', {}, true, true],
  ['§3.4 coercion is exact text: true == "TRUE" is false', 'true == "TRUE"', {}, false, false],
  ['§3.4 coercion with a variable: $A == true with A="true"', '$A == true', { A: 'true' }, true, true],
  ['§3.4 Boolean vs nil is not coerced', 'true == null', {}, false, false],
  ['§3.4 Boolean vs undefined variable', '$U == false', {}, false, false],
  ['§3.4 true == true', 'true == true', {}, true, true],
  ['§3.4 true != false', 'true != false', {}, true, true],
  ['§3.4 != different strings', '$A != "x"', { A: 'y' }, true, true],
  ['§3.4 != undefined vs null', '$U != null', {}, false, false],
  ['§3.4 != empty vs null', '$E != null', { E: '' }, true, true],
  ['§3.3/§3.4 ($A == $B) == "true" — equal', '$A == $B == "true"', { A: 'x', B: 'x' }, true, true],
  ['§3.3/§3.4 ($A == $B) == "true" — different', '$A == $B == "true"', { A: 'x', B: 'y' }, false, false],
  ['§3.3/§3.4 ($A == $B) == "false" — different', '$A == $B == "false"', { A: 'x', B: 'y' }, true, true],
  ['§3.4 regexp == regexp compares sources', '/ab/ == /ab/', {}, true, true],
  ['§3.4 regexp sources include the (?flags) prefix', '/ab/i == /ab/', {}, false, false],
  ['§3.4 String == regexp is false', '$A == /ab/', { A: 'ab' }, false, false],
  ['§3.6 CI_DEFAULT_BRANCH comparison is a plain value comparison', '$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH', { CI_COMMIT_BRANCH: 'main', CI_DEFAULT_BRANCH: 'main' }, true, true],
]);

table('§3.4 `=~`: RE2 regexp, regexp in a variable, or substring; nil left → ""', [
  ['§3.4 =~ literal regexp matches', '$A =~ /^feat/', { A: 'feature-x' }, true, true],
  ['§3.4/§3.5 =~ is an unanchored search', '$A =~ /eat/', { A: 'feature-x' }, true, true],
  ['§3.4 =~ no match', '$A =~ /^fix/', { A: 'feature-x' }, false, false],
  ['§3.4 quirk: nil left → "": $UNDEFINED =~ /^$/ is true', '$U =~ /^$/', {}, true, true],
  ['§3.4 empty left =~ /^$/', '$E =~ /^$/', { E: '' }, true, true],
  ['§3.4 undefined left =~ /x+/', '$U =~ /x+/', {}, false, false],
  ['§3.4 right nil (undefined variable) → false', '$A =~ $U', { A: 'x' }, false, false],
  ['§3.4 right null → false', '$A =~ null', { A: 'x' }, false, false],
  ['§3.4 right false → false', '$A =~ false', { A: 'false' }, false, false],
  ['§3.4 regexp held in a variable', '$A =~ $P', { A: 'feature-x', P: '/^feat/' }, true, true],
  ['§3.4 quirk: a variable may hold a one-character regexp `/a/`', '$A =~ $P', { A: 'bar', P: '/a/' }, true, true],
  ['§3.4/§3.5 flags in a variable regexp', '$A =~ $P', { A: 'FEATURE', P: '/^feat/i' }, true, true],
  ['§3.4 `\\/` in a variable regexp is unescaped to `/`', '$A =~ $P', { A: 'review/x', P: '/^review\\/x$/' }, true, true],
  ['§3.4 quirk: invalid regexp in a variable → substring semantics (occurs)', '$A =~ $P', { A: '[a', P: '/[a/' }, true, true],
  ['§3.4 quirk: invalid regexp in a variable → substring semantics (does not occur)', '$A =~ $P', { A: 'a]', P: '/[a/' }, false, false],
  ['§3.4 RE2-invalid regexp in a variable (backreference) → substring', '$A =~ $P', { A: 'aa', P: '/(a)\\1/' }, false, false],
  ['§3.4 plain string right side: left text occurs in the right string', '$A =~ $P', { A: 'feat', P: 'feature-x' }, true, true],
  ['§3.4 plain string right side: right does not contain left', '$A =~ $P', { A: 'feature-x-long', P: 'feature-x' }, false, false],
  ['§3.4 plain string literal right side', '"b" =~ "abc"', {}, true, true],
  ['§3.4 plain string literal right side, reversed', '"abc" =~ "b"', {}, false, false],
  ['§3.4 quirk: nil left → "" occurs in any string', '$U =~ "abc"', {}, true, true],
  ['§3.4 empty left occurs even in an empty right string', '"" =~ ""', {}, true, true],
  ['§3.4 a string literal shaped like a regexp is a regexp', '$A =~ "/^f/"', { A: 'foo' }, true, true],
  ['§3.4 Boolean left is to_s\'d', 'true =~ /^tr/', {}, true, true],
  ['§3.4 comparison result as left side', '($A == "x") =~ /false/', { A: 'y' }, true, true],
  ['§3.4 quirk: variables inside a regexp literal are not expanded', '$A =~ /^$B-x/', { A: 'main-x', B: 'main' }, false, false],
  ['§3.4 quirk: variables inside a variable regexp are not expanded', '$A =~ $P', { A: 'main-x', P: '/^$B-x/', B: 'main' }, false, false],
  ['§3.4 regexp left side is Object#to_s (documented approximation)', '/ab/ =~ /UntrustedRegexp/', {}, true, true],
]);

table('§3.4 `!~`: same conversion; right nil → true', [
  ['§3.4 !~ no match → true', '$A !~ /^feat/', { A: 'fix-1' }, true, true],
  ['§3.4 !~ match → false', '$A !~ /^feat/', { A: 'feature' }, false, false],
  ['§3.4 !~ right nil (undefined) → true', '$A !~ $U', { A: 'x' }, true, true],
  ['§3.4 !~ right null → true', '$A !~ null', { A: 'x' }, true, true],
  ['§3.4 !~ right false → true', '$A !~ false', { A: 'x' }, true, true],
  ['§3.4 !~ nil left vs /^$/ → false', '$U !~ /^$/', {}, false, false],
  ['§3.4 !~ regexp in a variable', '$A !~ $P', { A: 'main', P: '/^release/' }, true, true],
  ['§3.4 !~ plain string: left occurs → false', '$A !~ "abc"', { A: 'b' }, false, false],
  ['§3.4 !~ plain string: left does not occur → true', '$A !~ "abc"', { A: 'x' }, true, true],
]);

table('§3.4 `&&` / `||`: Ruby operators returning operands (empty string truthy inside them)', [
  ['§3.4 quirk: $A || $B with A="" → "" → false', '$A || $B', { A: '', B: 'x' }, '', false],
  ['§3.4 quirk: $A && $B with A="" → "x" → true', '$A && $B', { A: '', B: 'x' }, 'x', true],
  ['§3.4 || skips nil', '$U || $B', { B: 'x' }, 'x', true],
  ['§3.4 && stops at nil', '$U && $B', { B: 'x' }, null, false],
  ['§3.4 && returns the right operand', '$A && $B', { A: 'x' }, null, false],
  ['§3.4 || returns the first truthy operand', '$A || "default"', { A: 'set' }, 'set', true],
  ['§3.4 || skips false', 'false || $A', { A: 'a' }, 'a', true],
  ['§3.4 && with true', 'true && "x"', {}, 'x', true],
  ['§3.4 && with false', 'false && "x"', {}, false, false],
  ['§3.4 literal "" || "x" → ""', '"" || "x"', {}, '', false],
  ['§3.4 whitespace string is truthy inside ||, not present at the end', '$A || "x"', { A: ' ' }, ' ', false],
  ['§3.4 || of comparisons', '$A == "a" || $A == "b"', { A: 'b' }, true, true],
  ['§3.4 && of comparisons', '$A == "a" && $B =~ /x+/', { A: 'a', B: 'yxy' }, true, true],
  ['§3.4 short-circuit: && does not evaluate a failing right side', '$U && $A =~ true', {}, null, false],
  ['§3.4 short-circuit: || does not evaluate a failing right side', '"x" || ($A =~ true)', {}, 'x', true],
  ['§3.3/§3.4 precedence in evaluation: $A || $B && $C', '$A || $B && $C', { A: 'a' }, 'a', true],
]);

table('§3.4 final `present?` (Statement#truthful?)', [
  ['§3.4 undefined variable', '$U', {}, null, false],
  ['§3.4 empty variable', '$E', { E: '' }, '', false],
  ['§3.4 whitespace-only variable', '$W', { W: ' \t\n' }, ' \t\n', false],
  ['§3.4 Unicode whitespace is blank too (ActiveSupport [[:space:]])', '$W', { W: '\u00a0\u3000' }, '\u00a0\u3000', false],
  ['§3.4 "false" is present', '$A', { A: 'false' }, 'false', true],
  ['§3.4 "0" is present', '$A', { A: '0' }, '0', true],
  ['§3.4 any other string is present', '$A', { A: 'x' }, 'x', true],
  ['§3.4 null literal', 'null', {}, null, false],
  ['§3.4 "" literal', '""', {}, '', false],
  ['§3.4 false literal', 'false', {}, false, false],
  ['§3.4 true literal', 'true', {}, true, true],
  ['§3.4 a regexp is present', '/ab/', {}, { regexp: '/ab/' }, true],
  ['§3.4 a parenthesised operand', '($A)', { A: 'x' }, 'x', true],
]);

table('§3.2 #3 `$[[ inputs.x ]]` reads inputs (nil when absent)', [
  ['§3.2 input equals', '$[[ inputs.env ]] == "prod"', {}, true, true],
  ['§3.2 absent input is nil', '$[[ inputs.missing ]] == null', {}, true, true],
  ['§3.2/§3.4 number input vs string is not equal (Integer == String)', '$[[ inputs.n ]] == "3"', {}, false, false],
  ['§3.2/§3.4 boolean input is coerced against a string', '$[[ inputs.flag ]] == "true"', {}, true, true],
  ['§3.4 number input =~ uses to_s', '$[[ inputs.n ]] =~ /^3$/', {}, true, true],
], { inputs: { env: 'prod', n: 3, flag: true } });

describe('§3.4 variables', () => {
  test('§3.4 a Map works as the variable source', () => {
    const result = evaluate('$A == "x"', new Map([['A', 'x']]));
    assert.equal(result.truthy, true);
  });
  test('§3.4 names of Object.prototype members are undefined variables', () => {
    assert.equal(evaluate('$constructor == null && $toString == null && $__proto__ == null', {}).truthy, true);
  });
  test('§3.4 variable names are case-sensitive', () => {
    assert.equal(evaluate('$ci_commit_branch', { CI_COMMIT_BRANCH: 'main' }).truthy, false);
  });
});

describe('§3.4 errors Ruby raises that GitLab does not rescue (kind runtime) → truthy false', () => {
  const rows: Array<[string, string, Vars, number, number]> = [
    ['=~ with a Boolean right side: true.gsub', '$A =~ true', { A: 'x' }, 0, 10],
    ['!~ with a Boolean right side', '$A !~ true', { A: 'x' }, 0, 10],
    ['regexp == string: "x".source', '/ab/ == "ab"', {}, 0, 12],
    ['regexp != nil: nil.source', '/ab/ != $U', {}, 0, 10],
    ['=~ with a comparison that is true on the right', '$A =~ ($B == "x")', { A: 'x', B: 'x' }, 0, 16],
  ];
  for (const [name, expression, vars, start, end] of rows) {
    test(`§3.4 ${name}: ${expression}`, () => {
      const result = evaluate(expression, vars);
      assert.equal(result.ok, false);
      assert.equal(result.truthy, false);
      if (result.ok) return;
      assert.equal(result.error.kind, 'runtime');
      assert.match(result.error.message, /NoMethodError/);
      assert.deepEqual(result.error.range, { start, end });
    });
  }
  test('§3.4 the same comparison false on the right is fine (`return false unless regexp`)', () => {
    const result = evaluate('$A =~ ($B == "x")', { A: 'x', B: 'y' });
    assert.equal(result.ok, true);
    assert.equal(result.value, false);
  });
});

describe('§3.1 runtime ExpressionError → truthful? false', () => {
  test('§3.1 a syntax error evaluates to truthy false with the error', () => {
    const result = evaluate('$A == ', { A: 'x' });
    assert.equal(result.truthy, false);
    assert.equal(result.ok ? '' : result.error.message, 'Invalid left operand');
  });
});

table('§3.2 optional unary Not: `!x` is `!x.present?`', [
  ['§3.2 !"" → true', '!$A', { A: '' }, true, true],
  ['§3.2 !"x" → false', '!$A', { A: 'x' }, false, false],
  ['§3.2 !undefined → true', '!$U', {}, true, true],
  ['§3.2 !"false" → false ("false" is present)', '!$A', { A: 'false' }, false, false],
  ['§3.2 !($A || $B) with A="" → !"".present? → true', '!($A || $B)', { A: '', B: '' }, true, true],
], { unaryNot: true });
