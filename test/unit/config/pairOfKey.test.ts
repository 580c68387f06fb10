// pairOfKey (server/src/engine/yaml/yamlDocument.ts): the pair a key names in a mapping, as
// GitLab reads it — the last of repeated keys (docs/gitlab-behaviour.md#duplicate-keys), a key
// compared as the string GitLab's JSON conversion gives — scanned in small mappings and indexed
// in large ones, with the same answers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDocument, type YAMLMap } from 'yaml';
import { nodeAtPath, pairOfKey } from '../../../server/src/engine/yaml/yamlDocument';

function mapOf(text: string): YAMLMap {
  return parseDocument(text, { version: '1.1', uniqueKeys: false }).contents as YAMLMap;
}

for (const size of [3, 40]) {
  test(`a mapping of ${size} keys: the last of a repeated key, keys as GitLab's strings, null when absent`, () => {
    const filler = Array.from({ length: size }, (_, i) => `k${i}: ${i}`).join('\n');
    const map = mapOf(`a: first\n${filler}\n1: one\ntrue: yes-key\nnull: nothing\na: last\n`);
    assert.equal(pairOfKey(map, 'a')?.value?.toString(), 'last');
    assert.equal(pairOfKey(map, '1')?.value?.toString(), 'one');
    assert.equal(pairOfKey(map, 'true')?.value?.toString(), 'yes-key');
    assert.equal(pairOfKey(map, 'null')?.value?.toString(), 'nothing');
    assert.equal(pairOfKey(map, `k${size - 1}`)?.value?.toString(), String(size - 1));
    assert.equal(pairOfKey(map, 'missing'), null);
    assert.equal(pairOfKey(map.items[0]!.value, 'a'), null, 'not a mapping');
  });
}

test('nodeAtPath follows keys and indexes to the pair and node GitLab reads', () => {
  const doc = parseDocument('ci_access:\n  projects:\n    - id: a\n    - id: b\n      id: c\n', { version: '1.1', uniqueKeys: false });
  assert.equal(nodeAtPath(doc, ['ci_access', 'projects', 1, 'id'])?.node?.toString(), 'c');
  assert.equal(nodeAtPath(doc, ['ci_access', 'projects', 2]), null);
  assert.equal(nodeAtPath(doc, ['ci_access', 'groups']), null);
});
