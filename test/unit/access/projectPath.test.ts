/** Paths of projects and groups as the authorization walks them (docs/gitlab-behaviour.md#authorization-order). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ancestorGroups, topLevelNamespace } from '../../../server/src/engine/access/projectPath';
import { seededRandom } from '../../support/generateConfig';

/** The definition: the path's non-empty segments, then each prefix of them (closest first) and the first, lower-cased. */
const segments = (path: string) => path.split('/').filter(Boolean);
const ancestorsByDefinition = (path: string) => segments(path).slice(0, -1).map((_, i, all) => all.slice(0, all.length - i).join('/'));
const topByDefinition = (path: string) => (segments(path)[0] ?? '').toLowerCase();

test('ancestor groups, closest first, and the top-level namespace', () => {
  assert.deepEqual(ancestorGroups('acme/shop/app'), ['acme/shop', 'acme']);
  assert.deepEqual(ancestorGroups('app'), []);
  assert.equal(topLevelNamespace('ACME/shop/app'), 'acme');
  // Empty segments are skipped, as GitLab's full paths have none.
  assert.deepEqual(ancestorGroups('/acme//shop/app/'), ['acme/shop', 'acme']);
  assert.equal(topLevelNamespace('/Acme/x'), 'acme');
});

test('the cut at slashes agrees with the definition on random paths (empty segments, case, non-ASCII)', () => {
  const random = seededRandom(7);
  const pieces = ['a', 'B', 'shop', 'İ', 'Σ', '/', '/', '//', '-', '.'];
  for (let i = 0; i < 5000; i++) {
    const path = Array.from({ length: Math.floor(random() * 9) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
    assert.deepEqual(ancestorGroups(path), ancestorsByDefinition(path), path);
    assert.equal(topLevelNamespace(path), topByDefinition(path), path);
  }
});
