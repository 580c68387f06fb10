// docs/gitlab-behaviour.md#expression-regular-expressions: regular expressions are RE2 (Gitlab::UntrustedRegexp): flags i, m, s, U applied as a `(?flags)`
// prefix, unanchored search, RE2 syntax only (no backreferences or lookaround), linear-time matching.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate, fabricateRubyRegexp, parseExpression, UntrustedRegexp } from '../../../server/src/engine/expr/index';

function matches(expression: string, value: string): boolean {
  const result = evaluate(expression, { A: value });
  assert.ok(result.ok, result.ok ? '' : result.error.message);
  return result.value === true;
}

// docs/gitlab-behaviour.md#expression-regular-expressions
describe('flags', () => {
  const rows: Array<[string, string, string, boolean]> = [
    ['case-sensitive by default', '$A =~ /^MAIN$/', 'main', false],
    ['i: case-insensitive', '$A =~ /^MAIN$/i', 'main', true],
    ['without m, ^/$ anchor the whole text', '$A =~ /^b$/', 'a\nb\nc', false],
    ['m: ^/$ match at line breaks', '$A =~ /^b$/m', 'a\nb\nc', true],
    ['without s, . does not match \\n', '$A =~ /a.b/', 'a\nb', false],
    ['s: . matches \\n', '$A =~ /a.b/s', 'a\nb', true],
    ['U: ungreedy changes no match result, the pattern still matches', '$A =~ /a+b/U', 'xaaab', true],
    ['several flags', '$A =~ /^B.C$/ism', 'a\nb\nc', true],
    ['RE2 `$` without m does not match before a trailing newline (Ruby/JS would differ)', '$A =~ /a$/', 'a\n', false],
    ['matching is a search, not a full match', '$A =~ /view/', 'review/feature', true],
    ['anchor both ends for whole-value matches', '$A =~ /^review$/', 'review/feature', false],
    ['Unicode: . matches one code point', '$A =~ /^.$/', '😀', true],
    ['RE2 classes: \\d', '$A =~ /^v\\d+\\.\\d+$/', 'v1.20', true],
    ['RE2 POSIX class', '$A =~ /^[[:alpha:]]+$/', 'abc', true],
    ['escaped slash in a literal', '$A =~ /^review\\/.+$/', 'review/x', true],
  ];
  for (const [name, expression, value, expected] of rows) {
    test(`${name}: ${expression} on ${JSON.stringify(value)} → ${expected}`, () => assert.equal(matches(expression, value), expected));
  }
  test('flags become a `(?flags)` prefix of the RE2 source', () => {
    const parsed = parseExpression('/a+b/ismU');
    assert.ok(parsed.ok && parsed.ast.type === 'pattern');
    if (parsed.ok && parsed.ast.type === 'pattern') assert.equal(parsed.ast.regexp.source, '(?ismU)a+b');
  });
});

// docs/gitlab-behaviour.md#expression-regular-expressions
describe('RE2 rejects what JavaScript/Ruby accept → Invalid regular expression!', () => {
  const rows: Array<[string, string]> = [
    ['backreference', '/(a)\\1/'],
    ['lookahead', '/a(?=b)/'],
    ['negative lookahead', '/a(?!b)/'],
    ['lookbehind', '/(?<=a)b/'],
    ['negative lookbehind', '/(?<!a)b/'],
    ['possessive quantifier', '/a++b/'],
    ['atomic group', '/(?>ab)/'],
    ['repeat count over 1000', '/a{1001}/'],
    ['\\Z', '/ab\\Z/'],
    ['unclosed class', '/[a-z/'],
    ['unclosed group', '/(ab/'],
    ['unknown flag group', '/(?x)ab/'],
  ];
  for (const [name, literal] of rows) {
    test(`${name}: ${literal}`, () => {
      const parsed = parseExpression(`$A =~ ${literal}`);
      assert.equal(parsed.ok, false);
      if (parsed.ok) return;
      assert.equal(parsed.error.kind, 'syntax');
      assert.equal(parsed.error.message, 'Invalid regular expression!');
      assert.deepEqual(parsed.error.range, { start: 6, end: 6 + literal.length });
      assert.ok(parsed.error.detail, 'the RE2 message is kept as detail');
    });
  }
  test('RE2 accepts what it supports: named groups, \\Q…\\E, \\pL, a{1000}', () => {
    for (const literal of ['/(?P<x>a)/', '/(?<x>a)/', '/\\Q.*\\E/', '/\\pL+/', '/a{1000}/']) {
      assert.equal(parseExpression(`$A =~ ${literal}`).ok, true, literal);
    }
  });
});

// docs/gitlab-behaviour.md#expression-regular-expressions
describe('linear time (RE2 automata): catastrophic patterns for backtracking engines', () => {
  const long = 'a'.repeat(100_000) + 'b';
  test('/(a+)+$/ against 100k "a" + "b" is false (correctness only; timing is in bench/regex.ts)', () => {
    assert.equal(matches('$A =~ /(a+)+$/', long), false);
  });
  test('/(a|aa)+$/ against the same input', () => {
    assert.equal(matches('$A =~ /(a|aa)+$/', long), false);
  });
  test('/(a*)*c/ against the same input', () => {
    assert.equal(matches('$A =~ /(a*)*c/', long), false);
  });
  test('the same catastrophic pattern held in a variable', () => {
    assert.equal(evaluate('$A =~ $P', { A: long, P: '/^(a+)+$/' }).value, false);
  });
  test('and a positive match on the long input', () => {
    assert.equal(matches('$A =~ /(a+)+b$/', long), true);
  });
});

// docs/gitlab-behaviour.md#expression-evaluation, docs/gitlab-behaviour.md#expression-regular-expressions
describe('RubySyntax for strings (variables and string literals)', () => {
  const rows: Array<[string, string, string | null]> = [
    ['two-char pattern', '/ab/', 'ab'],
    ['one char is enough here', '/a/', 'a'],
    ['empty pattern `//`', '//', ''],
    ['flags', '/ab/im', '(?im)ab'],
    ['greedy: the last slash before the flags ends it', '/a/b/', 'a/b'],
    ['`\\/` is unescaped first', '/a\\/b/', 'a/b'],
    ['not a regexp: no leading slash', 'ab/', null],
    ['not a regexp: unknown flag', '/ab/x', null],
    ['Ruby line anchors: a literal on the second line is found', 'x\n/ab/', 'ab'],
  ];
  for (const [name, value, source] of rows) {
    // docs/gitlab-behaviour.md#expression-evaluation
    test(`${name}: ${JSON.stringify(value)}`, () => {
      const result = fabricateRubyRegexp(value);
      if (source === null) assert.equal(result.kind, 'notRegexp');
      else assert.equal(result.kind === 'regexp' ? result.regexp.source : result.kind, source);
    });
  }
  // docs/gitlab-behaviour.md#expression-evaluation
  test('shape right but RE2-invalid → invalid (callers fall back to substring)', () => {
    assert.equal(fabricateRubyRegexp('/[a/').kind, 'invalid');
  });
  // docs/gitlab-behaviour.md#expression-regular-expressions
  test('compiled regexps are cached by source', () => {
    const a = UntrustedRegexp.compile('x+y', 'i');
    const b = UntrustedRegexp.compile('x+y', 'i');
    assert.ok(a.ok && b.ok);
    if (a.ok && b.ok) assert.equal(a.regexp, b.regexp);
  });
});
