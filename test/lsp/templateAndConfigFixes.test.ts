// Quick fixes on the agent configuration, over stdio: a removed key with a drop-in
// successor is renamed (docs/gitlab-behaviour.md#top-level-keys-and-list-limits: starboard → container_scanning); one without (gitops → Flux is
// not key for key, docs/gitlab-behaviour.md#removed-keys) is removed; a secret outside the shared namespace is moved into it; every
// problem of the shipped broken config has a fix.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { agentConfigUri, LspTestClient } from '../support/lspClient';
import { rangeOf } from '../support/ranges';

describe('LSP over stdio: agent configuration quick fixes', () => {
  let client: LspTestClient;
  before(async () => {
    client = await LspTestClient.start();
  });
  after(async () => {
    await client.stop();
  });

  test('starboard is renamed to container_scanning; the removed-key error is tagged deprecated and goes away', async () => {
    const uri = agentConfigUri('fix-starboard');
    const text = 'starboard:\n  cadence: "0 18 * * *"\n';
    const { diagnostics } = await client.open(uri, text);
    const removed = diagnostics.find((d) => d.code === 'schema.removedKey');
    assert.ok(removed, JSON.stringify(diagnostics));
    assert.deepEqual(removed.tags, [2], 'DiagnosticTag.Deprecated');
    const [fix] = await client.codeActions(uri, removed);
    assert.equal(fix.title, 'Rename to "container_scanning"');
    const edit = fix.edit!.changes![uri][0];
    assert.deepEqual(edit.range, rangeOf(text, 'starboard'));
    const after = await client.edit(uri, edit.range, edit.newText);
    assert.deepEqual(after.diagnostics, []);
  });

  test('gitops has no rename (its successor Flux is configured differently): the fix removes it', async () => {
    const uri = agentConfigUri('fix-gitops');
    const text = 'gitops:\n  manifest_projects: []\nobservability:\n  logging:\n    level: info\n';
    const { diagnostics } = await client.open(uri, text);
    const removed = diagnostics.find((d) => d.code === 'schema.removedKey');
    assert.ok(removed);
    const actions = await client.codeActions(uri, removed);
    assert.deepEqual(actions.map((a) => a.title), ['Remove "gitops" (GitLab no longer reads it)']);
    const edit = actions[0]!.edit!.changes![uri][0];
    const after = await client.edit(uri, edit.range, edit.newText);
    assert.deepEqual(after.diagnostics, []);
  });

  test('every problem of the shipped broken config has a quick fix', async () => {
    const uri = agentConfigUri('broken-agent');
    const text = readFileSync(path.join(import.meta.dirname, '..', '..', 'examples', '.gitlab', 'agents', 'broken-agent', 'config.yaml'), 'utf8');
    const { diagnostics } = await client.open(uri, text);
    assert.equal(diagnostics.length, 7, JSON.stringify(diagnostics.map((d) => d.code)));
    for (const d of diagnostics) assert.ok((await client.codeActions(uri, d)).length > 0, `no quick fix for ${d.code}: ${d.message}`);
  });

  test('an image pull secret outside the shared namespace: the fix moves it in', async () => {
    const uri = agentConfigUri('fix-secret');
    const text = 'remote_development:\n  shared_namespace: workspaces\n  image_pull_secrets:\n    - name: registry\n      namespace: default\n';
    const { diagnostics } = await client.open(uri, text);
    const wrong = diagnostics.find((d) => d.code === 'config.imagePullSecretNamespace');
    assert.ok(wrong, JSON.stringify(diagnostics));
    assert.deepEqual(wrong.range, rangeOf(text, 'default'));
    const [fix] = await client.codeActions(uri, wrong);
    const after = await client.edit(uri, fix.edit!.changes![uri][0].range, fix.edit!.changes![uri][0].newText);
    assert.deepEqual(after.diagnostics, []);
  });
});
