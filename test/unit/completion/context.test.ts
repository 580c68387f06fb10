/** Where the cursor is in YAML terms: the data path and whether a key or a value is being written. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { completionContextAt } from '../../../server/src/engine/completion/yamlContext';
import { parseYaml } from '../../../server/src/engine/yaml/yamlDocument';
import { caret } from './caret';

function contextOf(source: string) {
  const { text, offset } = caret(source);
  const parsed = parseYaml(text);
  return completionContextAt(text, parsed.index, parsed.doc, offset);
}

const CASES: readonly (readonly [name: string, source: string, expected: unknown])[] = [
  ['empty document', '‸', { kind: 'key', path: [], newItem: false }],
  ['document of comments only', '# agent\n‸', { kind: 'key', path: [], newItem: false }],
  ['first key being typed', 'ci_‸', { kind: 'key', path: [], prefix: 'ci_' }],
  ['after a document marker', '---\n‸', { kind: 'key', path: [], newItem: false }],
  ['back at column 0 after nested content', 'ci_access:\n  projects:\n    - id: a\n‸', { kind: 'key', path: [] }],
  ['empty line under a key with no value yet', 'ci_access:\n  ‸', { kind: 'key', path: ['ci_access'], newItem: false }],
  ['partial key among siblings', 'ci_access:\n  projects: []\n  gro‸', { kind: 'key', path: ['ci_access'], newItem: false, prefix: 'gro' }],
  ['new list item', 'ci_access:\n  projects:\n    - id: a\n    - ‸', { kind: 'key', path: ['ci_access', 'projects', 1], newItem: true }],
  ['list item at the key’s own column', 'ci_access:\n  projects:\n  - id: a\n  - ‸', { kind: 'key', path: ['ci_access', 'projects', 1], newItem: true }],
  ['second key of an item', 'ci_access:\n  projects:\n    - id: a\n      ‸\n    - id: b\n', { kind: 'key', path: ['ci_access', 'projects', 0], newItem: false }],
  ['back at the list level after an item', 'ci_access:\n  projects:\n    - id: a\n  ‸', { kind: 'key', path: ['ci_access'], newItem: false }],
  ['nested rule item', 'ci_access:\n  projects:\n    - id: a\n      rules:\n        - if: $A\n        - ‸', { kind: 'key', path: ['ci_access', 'projects', 0, 'rules', 1], newItem: true }],
  ['value of a key', 'observability:\n  logging:\n    level: de‸bug', { kind: 'value', path: ['observability', 'logging', 'level'], prefix: 'de', text: 'debug' }],
  ['value on a list item line', 'ci_access:\n  projects:\n    - id: ac‸me', { kind: 'value', path: ['ci_access', 'projects', 0, 'id'], prefix: 'ac', text: 'acme' }],
  ['quoted value with a comment after it', 'a:\n  b: "x‸y" # note', { kind: 'value', path: ['a', 'b'], prefix: '"x', text: '"xy"' }],
  ['new item between two items (binary search)', 'l:\n  - a: 1\n  - a: 2\n  - ke‸\n  - a: 3\n  - a: 4\n', { kind: 'key', path: ['l', 2], newItem: true, prefix: 'ke' }],
  ['item among 3 entries (binary search)', 'l:\n  - a: 1\n  - a: 2\n  - a: 3\n    ‸\n  - a: 4\n', { kind: 'key', path: ['l', 2], newItem: false }],
  ['in a comment', 'a: 1 # b‸', null],
  ['in a flow mapping', 'a: {b‸', null],
  ['right after a dash', 'l:\n  -‸', null],
  ['right after a colon', 'a:‸', null],
];

for (const [name, source, expected] of CASES) {
  test(`context: ${name}`, () => {
    const context = contextOf(source);
    if (expected === null) return assert.equal(context, null);
    assert.ok(context, 'a context');
    const picked = Object.fromEntries(Object.keys(expected as object).map((k) => [k, (context as unknown as Record<string, unknown>)[k]]));
    assert.deepEqual(picked, expected);
  });
}

test('context: the key on the cursor line is not an existing key; the others are', () => {
  const context = contextOf('ci_access:\n  projects:\n    - id: a\n      default_namespace: x\n      acc‸\n');
  assert.equal(context?.kind, 'key');
  assert.deepEqual([...(context as { existingKeys: ReadonlySet<string> }).existingKeys], ['id', 'default_namespace']);
});

test('context: a key typed at the dash column of a list of maps goes to the item’s key column', () => {
  // After `- id: a` and Enter the editor keeps the dash's indentation.
  const context = contextOf('ci_access:\n  projects:\n    - id: a\n    de‸\n');
  assert.deepEqual(
    context && { path: context.path, replace: context.replace, column: context.kind === 'key' && context.column, reindent: context.kind === 'key' && context.reindent },
    { path: ['ci_access', 'projects', 0], replace: [35, 41], column: 6, reindent: true },
  );
});

test('context: in an existing key the whole key is replaced, and only its name', () => {
  const context = contextOf('a:\n  lev‸el: 1');
  assert.deepEqual([context?.kind, context?.replace, (context as { keyOnly?: boolean }).keyOnly], ['key', [5, 10], true]);
  const fresh = contextOf('a:\n  lev‸');
  assert.equal((fresh as { keyOnly?: boolean }).keyOnly, false);
});

test('context: a 5,000-entry list is searched, not scanned (the path is found for the last entry)', () => {
  const entries = Array.from({ length: 5000 }, (_, i) => `    - id: g/p${i}\n      default_namespace: n${i}\n`).join('');
  const context = contextOf(`ci_access:\n  projects:\n${entries}      ‸\n`);
  assert.deepEqual(context?.path, ['ci_access', 'projects', 4999]);
});
