// docs/gitlab-behaviour.md#names (DNS-1123 label rules) and docs/gitlab-behaviour.md#namespace-length-policy: namespace checks and
// the `truncate` policy for over-long names.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkNamespace, dns1123LabelProblems, isDns1123Label, sha256Base36Suffix, truncateLabel } from '../../../server/src/engine/vars/index';

// docs/gitlab-behaviour.md#names
describe('DNS-1123 label', () => {
  const rows: Array<[string, string, string[]]> = [
    ['simple', 'gitlab-deploy', []],
    ['digits first is allowed', '123-abc', []],
    ['single character', 'a', []],
    ['63 characters', 'a'.repeat(63), []],
    ['64 characters', 'a'.repeat(64), ['tooLong']],
    ['empty', '', ['empty']],
    ['uppercase', 'MyApp', ['invalidCharacters']],
    ['underscore', 'my_app', ['invalidCharacters']],
    ['dot', 'my.app', ['invalidCharacters']],
    ['leading dash', '-app', ['invalidStart']],
    ['trailing dash', 'app-', ['invalidEnd']],
    ['an unexpanded variable', 'myapp-$CI_ENVIRONMENT_SLUG', ['invalidCharacters']],
  ];
  for (const [name, label, codes] of rows) {
    test(`${name}: ${JSON.stringify(label)} → ${codes.join(', ') || 'valid'}`, () => {
      assert.deepEqual(dns1123LabelProblems(label).map((p) => p.code), codes);
      assert.equal(isDns1123Label(label), codes.length === 0);
    });
  }
});

// docs/gitlab-behaviour.md#namespace-length-policy
describe('over-long namespace policy', () => {
  const long = `myapp-${'review-feature-'.repeat(5)}x`; // 82 characters
  test('`error` (default): an over-long name is invalid and says why', () => {
    const result = checkNamespace(long);
    assert.equal(result.kind, 'invalid');
    if (result.kind === 'invalid') assert.deepEqual(result.problems.map((p) => p.code), ['tooLong']);
  });
  test('`truncate`: cut, then a 6-character hash suffix of the whole name, ≤ 63', () => {
    const result = checkNamespace(long, 'truncate');
    assert.equal(result.kind, 'truncated');
    if (result.kind !== 'truncated') return;
    assert.equal(result.original, long);
    assert.equal(result.namespace.length <= 63, true);
    assert.equal(result.namespace, `${long.slice(0, 56).replace(/-+$/, '')}-${sha256Base36Suffix(long)}`);
    assert.ok(isDns1123Label(result.namespace));
  });
  test('`truncate` never leaves a double or trailing dash at the cut', () => {
    const name = `${'a'.repeat(55)}---${'b'.repeat(10)}`; // cut at 56 ends inside the dash run
    const truncated = truncateLabel(name);
    assert.equal(truncated, `${'a'.repeat(55)}-${sha256Base36Suffix(name)}`);
    assert.ok(!truncated.endsWith('-'));
  });
  test('`truncate` is predictable and keeps distinct long names distinct', () => {
    const a = `${'x'.repeat(70)}-a`;
    const b = `${'x'.repeat(70)}-b`;
    assert.equal(truncateLabel(a), truncateLabel(a));
    assert.notEqual(truncateLabel(a), truncateLabel(b));
  });
  test('`truncate` does not repair other problems', () => {
    const result = checkNamespace(`My_${'a'.repeat(70)}`, 'truncate');
    assert.equal(result.kind, 'invalid');
    if (result.kind === 'invalid') assert.deepEqual(result.problems.map((p) => p.code).sort(), ['invalidCharacters', 'tooLong']);
  });
  test('names within the limit are returned unchanged under either policy', () => {
    assert.deepEqual(checkNamespace('review-apps', 'truncate'), { kind: 'valid', namespace: 'review-apps' });
    assert.equal(truncateLabel('short'), 'short');
  });
});
