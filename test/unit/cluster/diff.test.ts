// The CLI's unified diff of live vs proposed objects.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { unifiedDiff } from '../../../server/src/cluster/apply/diff';

const labels = { old: 'a (live)', new: 'a (proposed)' };

test('equal texts have no diff', () => {
  assert.equal(unifiedDiff('x\ny\n', 'x\ny\n', labels), '');
  assert.equal(unifiedDiff('', '', labels), '');
});

test('creation: everything added, hunk from line 0', () => {
  assert.equal(unifiedDiff('', 'a\nb\n', labels), '--- a (live)\n+++ a (proposed)\n@@ -0,0 +1,2 @@\n+a\n+b\n');
});

test('one changed line with context, far changes in separate hunks', () => {
  const old = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12'].join('\n') + '\n';
  const changed = old.replace('2\n', 'two\n').replace('11\n', 'eleven\n');
  assert.equal(
    unifiedDiff(old, changed, labels, 1),
    ['--- a (live)', '+++ a (proposed)', '@@ -1,3 +1,3 @@', ' 1', '-2', '+two', ' 3', '@@ -10,3 +10,3 @@', ' 10', '-11', '+eleven', ' 12', ''].join('\n'),
  );
  assert.equal((unifiedDiff(old, changed, labels, 4).match(/^@@/gm) ?? []).length, 1, 'overlapping context merges hunks');
});
