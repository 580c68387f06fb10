// The inventory ConfigMap on the real control plane (docs/gitlab-behaviour.md#inventories): writing it leaves exactly the given
// objects listed, whoever else wrote to it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CoreV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { readInventory, writeInventory } from '../../server/src/cluster/inventory/store';
import { expectOk, testSession } from './environment-support';
import { kubeConfig, uniqueNamespace } from './harness';

test('writeInventory lists exactly the given objects, also when another field manager added entries (a hand edit)', async (t) => {
  const session = await testSession(t);
  const namespace = await uniqueNamespace('inventory-store', t);
  const where = { name: 'inv', namespace, id: 'inv' };
  const kept = { group: '', kind: 'ServiceAccount', namespace, name: 'kept' };
  expectOk(await writeInventory(session, { ...where, objects: [kept, { group: '', kind: 'ServiceAccount', namespace, name: 'dropped' }] }));
  // Someone else (kubectl edit, another tool) adds an entry: its field manager owns that key.
  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
  await core.patchNamespacedConfigMap({ name: 'inv', namespace, body: { data: { [`${namespace}_edited__ServiceAccount`]: '' } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));

  expectOk(await writeInventory(session, { ...where, objects: [kept] }));
  const read = expectOk(await readInventory(session, where));
  assert.deepEqual(read?.objects, [kept]);
});
