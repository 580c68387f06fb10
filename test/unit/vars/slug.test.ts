// docs/gitlab-behaviour.md#ref-and-environment-slugs: CI_COMMIT_REF_SLUG (Gitlab::Utils.slugify) and CI_ENVIRONMENT_SLUG (Gitlab::Slug::Environment).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { environmentSlug, projectPathSlug, sha256Base36Suffix, slugifyRef } from '../../../server/src/engine/vars/index';

// docs/gitlab-behaviour.md#ref-and-environment-slugs
describe('CI_COMMIT_REF_SLUG (slugify)', () => {
  const rows: Array<[string, string, string]> = [
    ['worked example: lowercase, `/` and `_` → `-`', 'feature/ABC_123', 'feature-abc-123'],
    ['worked example: leading dashes stripped', '-lead', 'lead'],
    ['trailing dashes stripped', 'fix-', 'fix'],
    ['inner dash runs are kept', 'a//b', 'a--b'],
    ['dots become dashes', 'release/1.2.3', 'release-1-2-3'],
    ['plain branch unchanged', 'main', 'main'],
    ['truncated to 63 before trimming', 'a'.repeat(62) + '/b', 'a'.repeat(62)],
    ['exactly 63 kept', 'b'.repeat(63), 'b'.repeat(63)],
    ['cut at 63', 'c'.repeat(70), 'c'.repeat(63)],
    ['non-ASCII characters become one dash each (per character, not per UTF-16 unit)', 'x😀y', 'x-y'],
    ['accented letters are not a-z', 'café', 'caf'],
    ['only invalid characters → empty', '///', ''],
  ];
  for (const [name, ref, slug] of rows) {
    test(`${name}: ${JSON.stringify(ref)} → ${JSON.stringify(slug)}`, () => assert.equal(slugifyRef(ref), slug));
  }
  // docs/gitlab-behaviour.md#predefined-variables
  test('CI_PROJECT_PATH_SLUG uses the same slugify', () => {
    assert.equal(projectPathSlug('My-Group/Sub.Group/Project_1'), 'my-group-sub-group-project-1');
  });
});

// docs/gitlab-behaviour.md#ref-and-environment-slugs
describe('CI_ENVIRONMENT_SLUG', () => {
  const rows: Array<[string, string, string]> = [
    ['worked example: unchanged name', 'production', 'production'],
    ['worked example: `/` changes the name → suffix', 'review/feature-x', 'review-feature-x-bjrazc'],
    ['worked example: lowercasing alone counts as a change', 'Staging', 'staging-p75vhx'],
    ['worked example: must start with a letter → `env-`', '123', 'env-123-7j7izn'],
    ['worked example: long name cut to 17 + `-` + suffix', 'review/feature/very-long-branch-name-here', 'review-feature-ve-i2mec7'],
    ['exactly 24 valid characters is kept', 'abcdefghijklmnopqrstuvwx', 'abcdefghijklmnopqrstuvwx'],
  ];
  for (const [name, env, slug] of rows) {
    test(`${name}: ${JSON.stringify(env)} → ${slug}`, () => assert.equal(environmentSlug(env), slug));
  }
  test('25 valid characters → shortened with suffix', () => {
    const name = 'abcdefghijklmnopqrstuvwxy';
    assert.equal(environmentSlug(name), `abcdefghijklmnopq-${sha256Base36Suffix(name)}`);
  });
  test('a trailing dash on an unchanged name cannot occur; squeezing changes the name → suffix', () => {
    const name = 'a--b';
    assert.equal(environmentSlug(name), `a-b-${sha256Base36Suffix(name)}`);
  });
  test('no extra dash when the 17-character cut already ends with one', () => {
    const name = 'review/abcdefghij/xyz'; // slug review-abcdefghij-xyz, cut at 17 = "review-abcdefghij"
    const cut = environmentSlug(name);
    assert.equal(cut, `review-abcdefghij-${sha256Base36Suffix(name)}`);
    const name2 = 'review/abcdefghi/xyz'; // cut = "review-abcdefghi-" ends with a dash already
    assert.equal(environmentSlug(name2), `review-abcdefghi-${sha256Base36Suffix(name2)}`);
  });
  test('every slug matches environment_slug_regex and is ≤ 24 characters', () => {
    const names = ['production', 'Review/X', '123', '-x-', 'a'.repeat(40), 'stage 1', '$CI_x', 'ünïcödé', 'a/b/c/d/e/f/g/h/i/j'];
    for (const name of names) {
      const slug = environmentSlug(name);
      assert.match(slug, /^[a-z]([a-z0-9-]*[a-z0-9])?$/, `${name} → ${slug}`);
      assert.ok(slug.length <= 24, `${name} → ${slug}`);
    }
  });
  test('the suffix is SHA-256 hex → integer (BigInt, all 256 bits) → base 36, last 6 chars', () => {
    // Cross-checked with an independent arbitrary-precision implementation (Python int(hex, 16)).
    assert.equal(sha256Base36Suffix('review/feature-x'), 'bjrazc');
    assert.equal(sha256Base36Suffix('a'.repeat(70)), 'f7bw7k');
    assert.equal(sha256Base36Suffix('Staging').length, 6);
  });
  test('the suffix hashes the original name (UTF-8), so names differing only in case differ', () => {
    assert.notEqual(environmentSlug('Staging'), environmentSlug('STAGING'));
  });
  test('slugs are remembered for a while (a bounded set): asked again, after many other names, the same answers', () => {
    const names = Array.from({ length: 600 }, (_, i) => (i % 2 ? `review/feature-${i}` : `env${i}`));
    const first = names.map(environmentSlug);
    assert.deepEqual(names.map(environmentSlug), first);
    assert.equal(environmentSlug('review/feature-1'), `review-feature-1-${sha256Base36Suffix('review/feature-1')}`);
    assert.equal(environmentSlug('env0'), 'env0');
  });
});
