// docs/gitlab-behaviour.md#expression-lexer: GitLab's expression lexer — lexemes tried in order, first match wins, whitespace skipped,
// 'Unknown lexeme found!', the token limit. Ranges are 0-based offsets into the expression.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lex, MAX_TOKENS, type Token } from '../../../server/src/engine/expr/index';

function tokens(expression: string, unaryNot = false): Array<[string, string]> {
  const result = lex(expression, { unaryNot });
  assert.ok(result.ok, `expected ${JSON.stringify(expression)} to lex: ${result.ok ? '' : result.error.message}`);
  return result.tokens.map((t: Token) => [t.kind, t.text]);
}

// docs/gitlab-behaviour.md#expression-lexer
describe('lexemes, one row per lexeme', () => {
  const rows: Array<[string, string, Array<[string, string]>]> = [
    ['#1 ParenthesisOpen `\\(`', '(', [['parenOpen', '(']]],
    ['#2 ParenthesisClose `\\)`', ')', [['parenClose', ')']]],
    ['#3 Input `$[[ inputs.name ]]`', '$[[ inputs.env ]]', [['input', '$[[ inputs.env ]]']]],
    ['#3 Input without inner spaces', '$[[inputs.env]]', [['input', '$[[inputs.env]]']]],
    ['#4 Variable `\\$\\w+`', '$CI_COMMIT_BRANCH', [['variable', '$CI_COMMIT_BRANCH']]],
    ['#4 Variable may start with a digit (`\\w`)', '$1abc', [['variable', '$1abc']]],
    ['#5 String, double quotes', '"main"', [['string', '"main"']]],
    ['#5 String, single quotes', "'main'", [['string', "'main'"]]],
    ['#5 String, empty allowed', '""', [['string', '""']]],
    ['#5 String, no escapes: a backslash is literal and the next quote ends it', '"a\\" "b"', [['string', '"a\\"'], ['string', '"b"']]],
    ['#5 String, the other quote inside', `"it's"`, [['string', `"it's"`]]],
    ['#6 Pattern with flags', '/^release-.*$/i', [['pattern', '/^release-.*$/i']]],
    ['#6 Pattern, every flag', '/ab/ismU', [['pattern', '/ab/ismU']]],
    ['#6 Pattern, escaped slash inside', '/^review\\/x/', [['pattern', '/^review\\/x/']]],
    ['#7 Null', 'null', [['null', 'null']]],
    ['#8 Boolean true', 'true', [['boolean', 'true']]],
    ['#8 Boolean false', 'false', [['boolean', 'false']]],
    ['#9 Equals', '==', [['equals', '==']]],
    ['#10 Matches', '=~', [['matches', '=~']]],
    ['#11 NotEquals', '!=', [['notEquals', '!=']]],
    ['#12 NotMatches', '!~', [['notMatches', '!~']]],
    ['#13 And', '&&', [['and', '&&']]],
    ['#14 Or', '||', [['or', '||']]],
  ];
  for (const [name, expression, expected] of rows) {
    test(`${name}: ${expression}`, () => assert.deepEqual(tokens(expression), expected));
  }
});

// docs/gitlab-behaviour.md#expression-lexer
describe('order and whitespace', () => {
  test('whitespace (space, tab, newline) is skipped between tokens, no whitespace needed', () => {
    assert.deepEqual(tokens(' $A\t==\n"x" '), [['variable', '$A'], ['equals', '=='], ['string', '"x"']]);
    assert.deepEqual(tokens('$A=="x"&&$B'), [['variable', '$A'], ['equals', '=='], ['string', '"x"'], ['and', '&&'], ['variable', '$B']]);
  });
  test('Variable is tried before Null/Boolean: `$null`, `$true` are variables', () => {
    assert.deepEqual(tokens('$null $true'), [['variable', '$null'], ['variable', '$true']]);
  });
  test('String is tried before Pattern: `"/a/"` is a string', () => {
    assert.deepEqual(tokens('"/ab/"'), [['string', '"/ab/"']]);
  });
  test('Null has no word boundary: `nulltrue` is null then true (StringScanner anchors at the position)', () => {
    assert.deepEqual(tokens('nulltrue'), [['null', 'null'], ['boolean', 'true']]);
  });
  test('Input is tried before Variable', () => {
    assert.deepEqual(tokens('$[[ inputs.a ]] == $a'), [['input', '$[[ inputs.a ]]'], ['equals', '=='], ['variable', '$a']]);
  });
  test('ranges are 0-based [start, end) offsets', () => {
    const result = lex('  $A == "x"');
    assert.ok(result.ok);
    assert.deepEqual(result.tokens.map((t) => [t.range.start, t.range.end]), [[2, 4], [5, 7], [8, 11]]);
  });
  test('the Pattern lexeme is greedy but stops at an unescaped slash', () => {
    assert.deepEqual(tokens('$A =~ /ab/ || $B =~ /cd/'), [
      ['variable', '$A'], ['matches', '=~'], ['pattern', '/ab/'], ['or', '||'], ['variable', '$B'], ['matches', '=~'], ['pattern', '/cd/'],
    ]);
  });
});

// docs/gitlab-behaviour.md#expression-lexer
describe('errors with ranges', () => {
  const rows: Array<[string, string, string, number, number]> = [
    ['`${VAR}` is not a token', '${VAR} == "x"', 'Unknown lexeme found!', 0, 6],
    ['a bare name without `$`', '$A == CI_DEFAULT_BRANCH', 'Unknown lexeme found!', 6, 23],
    ['single-character regex literal `/a/`', '$A =~ /a/', 'Unknown lexeme found!', 6, 9],
    ['`/./` is unsupported (docs)', '$A =~ /./', 'Unknown lexeme found!', 6, 9],
    // docs/gitlab-behaviour.md#rulesif-by-version: input names are `\\w+` in GitLab's Input lexeme.
    ['an input name with a dash', '$[[ inputs.env-x ]] == "a"', 'Unknown lexeme found!', 0, 3],
    ['a pattern whose last char before `/` is a backslash', '$A =~ /ab\\\\/', 'Unknown lexeme found!', 6, 12],
    ['unterminated string', '$A == "main', 'Unknown lexeme found!', 6, 11],
    ['a string cannot span a newline (Ruby `.`)', '$A == "a\nb"', 'Unknown lexeme found!', 6, 8],
    ['`=` alone', '$A = "x"', 'Unknown lexeme found!', 3, 4],
    ['`!` alone is not a lexeme by default (Not is optional)', '!$A', 'Unknown lexeme found!', 0, 3],
    ['`&` alone', '$A & $B', 'Unknown lexeme found!', 3, 4],
    ['`truex` fails the Boolean `\\b`', 'truex', 'Unknown lexeme found!', 0, 5],
    ['`$` without a name', '$ == "x"', 'Unknown lexeme found!', 0, 1],
    ['`$[[ inputs.x ]` unclosed', '$[[ inputs.x ]', 'Unknown lexeme found!', 0, 3],
    ['numbers are not literals', '$A == 1', 'Unknown lexeme found!', 6, 7],
  ];
  for (const [name, expression, message, start, end] of rows) {
    test(`${name}: ${JSON.stringify(expression)} → ${message} at ${start}..${end}`, () => {
      const result = lex(expression);
      assert.equal(result.ok, false);
      if (result.ok) return;
      assert.equal(result.error.kind, 'syntax');
      assert.equal(result.error.message, message);
      assert.deepEqual(result.error.range, { start, end });
    });
  }
});

// docs/gitlab-behaviour.md#expression-lexer
describe('token limit', () => {
  // `$A || $A || …` with n variables has 2n - 1 tokens.
  const chain = (n: number) => Array.from({ length: n }, () => '$A').join(' || ');
  test(`99 tokens lex (GitLab's loop runs MAX_TOKENS=${MAX_TOKENS} times and must see the end)`, () => {
    const result = lex(chain(50)); // 99 tokens
    assert.ok(result.ok);
    assert.equal(result.tokens.length, 99);
  });
  test('exactly 100 tokens → Too many tokens! (the loop ends without reaching end of input)', () => {
    const result = lex(`${chain(50)} ||`); // 100 tokens
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.equal(result.error.message, 'Too many tokens!');
    assert.equal(result.tokens.length, 100);
    assert.deepEqual(result.error.range, result.tokens[99]!.range);
  });
  test('101 tokens → Too many tokens!', () => {
    const result = lex(chain(51));
    assert.equal(result.ok, false);
    assert.equal(result.ok ? '' : result.error.message, 'Too many tokens!');
  });
  test('an unknown lexeme before the limit is reported first', () => {
    const result = lex(`$A ~ ${chain(60)}`);
    assert.equal(result.ok ? '' : result.error.message, 'Unknown lexeme found!');
  });
});

// docs/gitlab-behaviour.md#expression-lexer
describe('optional unary Not (off by default)', () => {
  test('with unaryNot, `!` lexes after the two-character operators', () => {
    assert.deepEqual(tokens('!$A != !$B', true), [['not', '!'], ['variable', '$A'], ['notEquals', '!='], ['not', '!'], ['variable', '$B']]);
  });
});
