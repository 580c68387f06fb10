// Guards on the real control plane: never take over or delete objects another
// inventory (or nobody) owns, never delete kube-system, kube-public, kube-node-lease, default or the
// agent's namespace — even when an inventory lists them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CoreV1Api } from '@kubernetes/client-node';
import { executeApply } from '../../server/src/cluster/apply/execute';
import { planApply } from '../../server/src/cluster/apply/plan';
import { executeDestroy } from '../../server/src/cluster/destroy/execute';
import { planDestroy } from '../../server/src/cluster/destroy/plan';
import { OWNING_INVENTORY_ANNOTATION } from '../../server/src/cluster/inventory/configMap';
import { writeInventory } from '../../server/src/cluster/inventory/store';
import { describeOutcome } from '../../server/src/cluster/kube/outcome';
import { applyOk, environmentScope, expectOk, fixtureTemplate, prepare, testSession, uniqueEnvironmentName } from './environment-support';
import { kubeConfig, uniqueNamespace } from './harness';

const NAMESPACE_ONLY = `objects:
  - apiVersion: v1
    kind: Namespace
    metadata:
      name: EXISTING
`;

test('apply refuses an existing object no inventory owns, unless adoption is asked for', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'guard-adopt');
  const existing = await uniqueNamespace('guard-existing', t);
  const env = prepare(NAMESPACE_ONLY.replace('EXISTING', existing), uniqueEnvironmentName('adopt'), scope.agentNamespace);
  const plan = expectOk(await planApply(session, env));
  assert.equal(plan.blocked.length, 1);
  assert.match(describeOutcome(plan.blocked[0]), new RegExp(`core/v1/Namespace '${existing}' is not applied: it already exists and no inventory owns it; apply with adoption`));
  assert.equal((await executeApply(session, plan)).type, 'refused');

  scope.track(env);
  const { plan: adopted } = await applyOk(session, env, { adopt: true });
  assert.deepEqual(adopted.objects.map((o) => o.action), ['update']);
  const live = await (await kubeConfig('admin')).makeApiClient(CoreV1Api).readNamespace({ name: existing });
  assert.equal(live.metadata?.annotations?.[OWNING_INVENTORY_ANNOTATION], env.inventory.name);
});

test('apply refuses an object another inventory owns', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'guard-other');
  const first = prepare(fixtureTemplate('namespace-sa-rolebinding.yaml'), uniqueEnvironmentName('first'), scope.agentNamespace);
  scope.track(first);
  await applyOk(session, first);
  const ns = `${first.data.environment.slug}-42-7`;
  const second = prepare(
    `objects:\n  - apiVersion: v1\n    kind: ServiceAccount\n    metadata:\n      name: deployer\n      namespace: ${ns}\n`,
    uniqueEnvironmentName('second'),
    scope.agentNamespace,
  );
  const plan = expectOk(await planApply(session, second));
  assert.match(describeOutcome(plan.blocked[0]), new RegExp(`ServiceAccount 'deployer' in namespace '${ns}' is not applied: it already exists and belongs to another inventory \\('${first.inventory.name}'\\)`));
});

test('destroy never deletes protected namespaces or objects of another inventory, even when the inventory lists them', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'guard-destroy');
  const other = prepare(fixtureTemplate('namespace-sa-rolebinding.yaml'), uniqueEnvironmentName('owner'), scope.agentNamespace);
  scope.track(other);
  await applyOk(session, other);
  const ns = `${other.data.environment.slug}-42-7`;
  const inventory = { name: 'gitlab-env-tampered', namespace: scope.agentNamespace };
  const listed = ['default', 'kube-system', 'kube-public', 'kube-node-lease', scope.agentNamespace].map((name) => ({ group: '', kind: 'Namespace', namespace: '', name }));
  expectOk(await writeInventory(session, { ...inventory, objects: [...listed, { group: '', kind: 'ServiceAccount', namespace: ns, name: 'deployer' }] }));

  const plan = expectOk(await planDestroy(session, { inventory }));
  assert.deepEqual(plan.deletions, []);
  const reasons = Object.fromEntries(plan.skipped.map((s) => [s.ref.name, s.reason]));
  assert.equal(reasons.default, "not deleted: namespace 'default' is a system namespace and is never deleted");
  assert.equal(reasons['kube-system'], "not deleted: namespace 'kube-system' is a system namespace and is never deleted");
  assert.equal(reasons[scope.agentNamespace], `not deleted: namespace '${scope.agentNamespace}' is where the agent runs (and keeps its inventories) and is never deleted`);
  assert.equal(reasons.deployer, `not deleted: it is owned by another inventory ('${other.inventory.name}'), not 'gitlab-env-tampered'`);
  const result = expectOk(await executeDestroy(session, plan));
  assert.deepEqual(result.deleted, []);
  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
  for (const name of ['default', 'kube-system', scope.agentNamespace]) assert.equal((await core.readNamespace({ name })).status?.phase, 'Active');
  await core.readNamespacedServiceAccount({ name: 'deployer', namespace: ns });
});

test('prune skips an inventory entry whose live object another inventory owns', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'guard-prune');
  const owner = prepare(fixtureTemplate('namespace-sa-rolebinding.yaml'), uniqueEnvironmentName('owner'), scope.agentNamespace);
  scope.track(owner);
  await applyOk(session, owner);
  const ns = `${owner.data.environment.slug}-42-7`;
  const mine = prepare(`objects: []\n`, uniqueEnvironmentName('mine'), scope.agentNamespace);
  expectOk(await writeInventory(session, { ...mine.inventory, objects: [{ group: '', kind: 'ServiceAccount', namespace: ns, name: 'deployer' }] }));
  const { plan } = await applyOk(session, mine);
  assert.deepEqual(plan.prunes, []);
  assert.match(plan.skipped[0]?.reason ?? '', /^not pruned: it is owned by another inventory/);
  await (await kubeConfig('admin')).makeApiClient(CoreV1Api).readNamespacedServiceAccount({ name: 'deployer', namespace: ns });
});
