// The CLI's unified diff of live vs proposed objects.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyPatch } from 'diff';
import { MAX_EDIT_LINES, unifiedDiff } from '../../../server/src/cluster/apply/diff';
import { seededRandom } from '../../support/generateConfig';

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

/** The lines `1`..`n`, one a line. */
const numbered = (n: number, rename: (i: number) => string | undefined = () => undefined): string =>
  Array.from({ length: n }, (_, k) => rename(k + 1) ?? `${k + 1}`).join('\n') + '\n';

test('insertion, deletion and a one-line change: ranges as diff(1) prints them', () => {
  const old = numbered(8);
  assert.equal(unifiedDiff(old, old.replace('4\n', '4\nnew\n'), labels, 1), '--- a (live)\n+++ a (proposed)\n@@ -4,2 +4,3 @@\n 4\n+new\n 5\n');
  assert.equal(unifiedDiff(old, old.replace('8\n', ''), labels, 1), '--- a (live)\n+++ a (proposed)\n@@ -7,2 +7 @@\n 7\n-8\n');
  assert.equal(unifiedDiff(old, old.replace('5\n', 'five\n'), labels, 0), '--- a (live)\n+++ a (proposed)\n@@ -5 +5 @@\n-5\n+five\n');
  assert.equal(unifiedDiff(old, '', labels), `--- a (live)\n+++ a (proposed)\n@@ -1,8 +0,0 @@\n${old.replace(/^/gm, '-').slice(0, -1)}`);
});

test('seeded random edits: the diff applies to the live text and gives the proposed one, changing no more lines than were edited', () => {
  const random = seededRandom(10);
  for (let round = 0; round < 50; round++) {
    const lines = numbered(200).split('\n').slice(0, -1);
    let edited = 0;
    for (let e = 0; e < 1 + Math.floor(random() * 20); e++) {
      const at = Math.floor(random() * lines.length);
      const kind = random();
      if (kind < 0.33) lines.splice(at, 1);
      else if (kind < 0.66) lines.splice(at, 0, `inserted ${e}`);
      else lines.splice(at, 1, `changed ${e}`);
      edited += kind < 0.66 ? 1 : 2;
    }
    const proposed = lines.join('\n') + '\n';
    const diff = unifiedDiff(numbered(200), proposed, labels);
    assert.equal(applyPatch(numbered(200), diff), proposed, `round ${round}`);
    assert.ok((diff.match(/^[-+](?![-+]{2} )/gm) ?? []).length <= edited, `round ${round}: a shortest edit script`);
  }
});

test('large manifests get a real diff: 100,000 lines with three changes give three hunks (the old table gave up above 2,000 lines)', () => {
  const old = numbered(100_000);
  const changed = numbered(100_000, (i) => (i === 10 || i === 50_000 || i === 99_990 ? `changed ${i}` : undefined));
  const diff = unifiedDiff(old, changed, labels);
  assert.equal((diff.match(/^@@/gm) ?? []).length, 3);
  assert.deepEqual(diff.match(/^[-+](?![-+]{2} ).*/gm), ['-10', '+changed 10', '-50000', '+changed 50000', '-99990', '+changed 99990']);
  assert.equal(applyPatch(old, diff), changed);
});

test(`past ${MAX_EDIT_LINES} changed lines: a note, then one block replaced from the first to the last change, still a diff that applies`, () => {
  const old = numbered(5_000);
  const changed = numbered(5_000, (i) => (i > 100 && i <= 4_000 && i % 2 === 0 ? `changed ${i}` : undefined));
  const diff = unifiedDiff(old, changed, labels);
  const lines = diff.split('\n');
  assert.match(lines[0], /^\(more than 2,000 lines differ: shown as one block replaced/);
  assert.deepEqual(lines.slice(1, 4), ['--- a (live)', '+++ a (proposed)', '@@ -99,3905 +99,3905 @@']);
  assert.deepEqual(lines.slice(4, 8), [' 99', ' 100', ' 101', '-102']);
  assert.equal(applyPatch(old, diff), changed);
});
