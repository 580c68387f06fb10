// config_to_apply parsing and grouping by owning inventory, as agentk does (docs/gitlab-behaviour.md#inventories, docs/gitlab-behaviour.md#workspace-reconciliation).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { groupByInventory, parseConfigToApply, type ManifestObject } from '../../../server/src/cluster/workspace/configToApply';
import { workspaceConfigToApply, workspaceTerminationConfig } from '../../support/workspaceConfig';

const options = { name: 'apple-fox-red', agentId: 7, workspaceId: 42 };

function parsed(text: string): ManifestObject[] {
  const result = parseConfigToApply(text);
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result.value.map((o) => o.object);
}

// docs/gitlab-behaviour.md#workspace-names-and-namespaces
test('unique mode puts every object in gl-rd-ns-<name>, inventories first, ResourceQuota included', () => {
  const objects = parsed(workspaceConfigToApply(options));
  assert.deepEqual(objects.slice(0, 2).map((o) => o.metadata.name), ['apple-fox-red-workspace-inventory', 'apple-fox-red-secrets-inventory']);
  assert.ok(objects.every((o) => o.metadata.namespace === 'gl-rd-ns-apple-fox-red'));
  assert.ok(objects.some((o) => o.kind === 'ResourceQuota'));
  assert.ok(objects.every((o) => o.metadata.labels?.['agent.gitlab.com/id'] === '7'));
  // docs/gitlab-behaviour.md#workspace-labels-and-annotations: the workspace id label only in shared mode.
  assert.ok(objects.every((o) => o.metadata.labels?.['workspaces.gitlab.com/id'] === undefined));
});

// docs/gitlab-behaviour.md#workspace-names-and-namespaces, docs/gitlab-behaviour.md#workspace-labels-and-annotations
test('shared mode uses the shared namespace, labels the workspace id, has no ResourceQuota', () => {
  const objects = parsed(workspaceConfigToApply({ ...options, sharedNamespace: 'team-ws' }));
  assert.ok(objects.every((o) => o.metadata.namespace === 'team-ws'));
  assert.ok(!objects.some((o) => o.kind === 'ResourceQuota'));
  assert.ok(objects.every((o) => o.metadata.labels?.['workspaces.gitlab.com/id'] === '42'));
});

// docs/gitlab-behaviour.md#inventories
test('objects are grouped by their owning-inventory annotation', () => {
  const result = groupByInventory(parsed(workspaceConfigToApply(options)));
  assert.ok(result.ok);
  const byInventory = Object.fromEntries(result.value.map((g) => [g.inventory.metadata.name, g.objects.map((o) => `${o.kind}/${o.metadata.name}`)]));
  assert.deepEqual(byInventory['apple-fox-red-secrets-inventory'], ['Secret/apple-fox-red-env-var', 'Secret/apple-fox-red-file']);
  assert.deepEqual(byInventory['apple-fox-red-workspace-inventory'], [
    'Deployment/apple-fox-red',
    'Service/apple-fox-red',
    'PersistentVolumeClaim/apple-fox-red-gl-workspace-data',
    'ServiceAccount/apple-fox-red',
    'NetworkPolicy/apple-fox-red',
    'ResourceQuota/apple-fox-red',
  ]);
});

// docs/gitlab-behaviour.md#workspace-termination
test('the termination config holds only the inventories, each with no objects', () => {
  const result = groupByInventory(parsed(workspaceTerminationConfig(options)));
  assert.ok(result.ok);
  assert.deepEqual(result.value.map((g) => [g.inventory.metadata.name, g.objects.length]), [
    ['apple-fox-red-workspace-inventory', 0],
    ['apple-fox-red-secrets-inventory', 0],
  ]);
});

// docs/gitlab-behaviour.md#inventories
test('no inventory in the payload → "no inventory found"', () => {
  const objects = parsed(workspaceConfigToApply(options)).filter((o) => o.kind !== 'ConfigMap');
  assert.deepEqual(groupByInventory(objects), { ok: false, error: 'no inventory found' });
});

// docs/gitlab-behaviour.md#inventories
test('an object without the owning-inventory annotation → "no owning inventory found", naming it', () => {
  const objects = parsed(workspaceConfigToApply(options));
  delete objects[3].metadata.annotations!['config.k8s.io/owning-inventory'];
  const result = groupByInventory(objects);
  assert.equal(result.ok, false);
  assert.match(result.ok ? '' : result.error, /^no owning inventory found \(Service gl-rd-ns-apple-fox-red\/apple-fox-red has no/);
});

test('an owning inventory missing from the payload is an error naming object and inventory', () => {
  const objects = parsed(workspaceConfigToApply(options)).filter((o) => o.metadata.name !== 'apple-fox-red-secrets-inventory');
  const result = groupByInventory(objects);
  assert.equal(result.ok, false);
  assert.match(result.ok ? '' : result.error, /Secret gl-rd-ns-apple-fox-red\/apple-fox-red-env-var: its owning inventory "apple-fox-red-secrets-inventory" is not in the config/);
});

test('bad YAML and non-objects are errors with the line (nothing applied half-way)', () => {
  const syntax = parseConfigToApply('---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a\n');
  assert.equal(syntax.ok, false);
  assert.match(syntax.ok ? '' : syntax.error, /^config_to_apply:\d+:\d+: /);

  const noKind = parseConfigToApply('---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n# comment\napiVersion: v1\nmetadata: {name: b}\n');
  assert.deepEqual(noKind, { ok: false, error: 'config_to_apply:7: the object has no kind' });

  const scalar = parseConfigToApply('--- just text\n');
  assert.deepEqual(scalar, { ok: false, error: 'config_to_apply:1: a document is not a mapping (expected a Kubernetes object)' });

  const badLabels = parseConfigToApply('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels: {x: 1}\n');
  assert.deepEqual(badLabels, { ok: false, error: 'config_to_apply:1: ConfigMap a: metadata.labels must map strings to strings' });
});

test('empty documents between separators are skipped', () => {
  const result = parseConfigToApply('---\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n');
  assert.ok(result.ok);
  assert.deepEqual(result.value.map((o) => [o.object.metadata.name, o.line]), [['a', 3]]);
});
