// Deleting environment resources on the real control plane (delete_resources: on_stop):
// exactly the inventory's objects in reverse order, then the inventory; idempotent (twice, after
// objects deleted by hand, after a crash half-way); `never` refuses; a 403 names the object; the
// unattended path (`--yes`: no preview) sends no dry-run delete and keeps every guard and the cascade.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CoreV1Api } from '@kubernetes/client-node';
import { executeApply } from '../../server/src/cluster/apply/execute';
import { isNoop, planApply } from '../../server/src/cluster/apply/plan';
import { executeDestroy } from '../../server/src/cluster/destroy/execute';
import { describeDestroyPlan, planDestroy } from '../../server/src/cluster/destroy/plan';
import { listEnvironments } from '../../server/src/cluster/environments';
import { OWNING_INVENTORY_ANNOTATION } from '../../server/src/cluster/inventory/configMap';
import { writeInventory } from '../../server/src/cluster/inventory/store';
import { describeOutcome } from '../../server/src/cluster/kube/outcome';
import { EDITOR_ADVICE } from '../../server/src/cluster/kube/advice';
import { agentcfg } from '../support/cli';
import { applyOk, environmentScope, expectOk, fixtureTemplate, prepare, testSession, uniqueEnvironmentName } from './environment-support';
import { clusterEnv, kubeConfig, statusCode } from './harness';

const TEMPLATE = fixtureTemplate('namespace-sa-rolebinding.yaml');

async function exists(read: () => Promise<unknown>): Promise<boolean> {
  try {
    await read();
    return true;
  } catch (err) {
    if (statusCode(err) === 404) return false;
    throw err;
  }
}

test('destroy deletes exactly the inventory objects in reverse order, then the inventory; a second run has nothing to do', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'destroy-twice');
  const env = prepare(TEMPLATE, uniqueEnvironmentName('twice'), scope.agentNamespace);
  scope.track(env);
  await applyOk(session, env);
  const ns = `${env.data.environment.slug}-42-7`;
  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
  // Not in the inventory: must survive while its namespace lives (and go with the namespace).
  await core.createNamespacedConfigMap({ namespace: scope.agentNamespace, body: { metadata: { name: 'unrelated' } } });

  const plan = expectOk(await planDestroy(session, { inventory: env.inventory, deleteResources: env.deleteResources }));
  assert.deepEqual(plan.deletions.map((d) => d.ref.kind).sort(), ['Namespace', 'RoleBinding', 'ServiceAccount']);
  const order: string[] = [];
  const result = expectOk(await executeDestroy(session, plan, { progress: { report: (m) => void (/^Deleting /.test(m) && order.push(m)) } }));
  // Reverse tiers: RBAC and ServiceAccount (any order within the tier) before the Namespace, the inventory last.
  assert.equal(order.at(-2), `Deleting Namespace ${ns}…`);
  assert.equal(order.at(-1), `Deleting the inventory ${scope.agentNamespace}/${env.inventory.name}…`);
  assert.equal(result.deleted.length, 3);
  assert.equal(result.inventoryDeleted, true);
  assert.equal(await exists(() => core.readNamespace({ name: ns })), false, 'the namespace is gone (waited for)');
  assert.equal(await exists(() => core.readNamespacedConfigMap({ name: env.inventory.name, namespace: scope.agentNamespace })), false);
  assert.equal(await exists(() => core.readNamespacedConfigMap({ name: 'unrelated', namespace: scope.agentNamespace })), true, 'objects outside the inventory are untouched');

  const again = expectOk(await planDestroy(session, { inventory: env.inventory }));
  assert.equal(again.inventoryExists, false);
  assert.deepEqual(describeDestroyPlan(again), [`No inventory ${scope.agentNamespace}/${env.inventory.name}: nothing to delete.`]);
  const second = expectOk(await executeDestroy(session, again));
  assert.deepEqual({ deleted: second.deleted, inventoryDeleted: second.inventoryDeleted, writes: second.requests.writes }, { deleted: [], inventoryDeleted: false, writes: 0 });
});

test('destroy finishes the job after objects were deleted by hand; the environment list shows what is missing', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'destroy-hand');
  const env = prepare(TEMPLATE, uniqueEnvironmentName('hand'), scope.agentNamespace);
  scope.track(env);
  await applyOk(session, env);
  const listed = expectOk(await listEnvironments(session, { namespace: scope.agentNamespace }));
  assert.deepEqual(
    listed.map((e) => ({ name: e.inventory.name, env: e.identity.environmentName, project: e.identity.projectId, agent: e.identity.agentId, ready: e.ready, states: e.objects.map((o) => o.state) })),
    [{ name: env.inventory.name, env: env.data.environment.name, project: 42, agent: 7, ready: true, states: ['current', 'current', 'current'] }],
  );
  const ns = `${env.data.environment.slug}-42-7`;
  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
  await core.deleteNamespacedServiceAccount({ name: 'deployer', namespace: ns });
  const afterHand = expectOk(await listEnvironments(session, { namespace: scope.agentNamespace }));
  assert.deepEqual({ ready: afterHand[0].ready, missing: afterHand[0].missing }, { ready: false, missing: 1 });

  const plan = expectOk(await planDestroy(session, { inventory: env.inventory }));
  assert.deepEqual(plan.skipped.map((s) => [s.ref.name, s.reason]), [['deployer', 'already gone']]);
  assert.equal(plan.deletions.length, 2);
  expectOk(await executeDestroy(session, plan));
  assert.equal(await exists(() => core.readNamespace({ name: ns })), false);
  assert.deepEqual(expectOk(await listEnvironments(session, { namespace: scope.agentNamespace })), []);
});

test('destroy after a crash half-way (cancelled after the first deletion) completes when run again', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'destroy-crash');
  const env = prepare(TEMPLATE, uniqueEnvironmentName('crash'), scope.agentNamespace);
  scope.track(env);
  await applyOk(session, env);
  const ns = `${env.data.environment.slug}-42-7`;

  const controller = new AbortController();
  const plan = expectOk(await planDestroy(session, { inventory: env.inventory }));
  const interrupted = await executeDestroy(session, plan, {
    signal: controller.signal,
    concurrency: 1,
    progress: { report: (m) => void (/^Deleting (?!the inventory)/.test(m) && controller.abort()) },
  });
  assert.equal(interrupted.type, 'cancelled');
  assert.match(describeOutcome(interrupted), /Running the operation again finishes it/);
  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
  assert.equal(await exists(() => core.readNamespacedConfigMap({ name: env.inventory.name, namespace: scope.agentNamespace })), true, 'the inventory survives the crash');
  assert.equal(await exists(() => core.readNamespace({ name: ns })), true, 'the namespace (last tier) was not reached');

  const resumed = expectOk(await planDestroy(session, { inventory: env.inventory }));
  assert.equal(resumed.skipped.length, 1, 'the object deleted before the crash is already gone');
  assert.equal(resumed.deletions.length, 2);
  expectOk(await executeDestroy(session, resumed));
  assert.equal(await exists(() => core.readNamespace({ name: ns })), false);
  assert.equal(await exists(() => core.readNamespacedConfigMap({ name: env.inventory.name, namespace: scope.agentNamespace })), false);
});

test('delete_resources: never refuses with an explanation and deletes nothing', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'destroy-never');
  const env = prepare(TEMPLATE.replace('delete_resources: on_stop', 'delete_resources: never'), uniqueEnvironmentName('never'), scope.agentNamespace);
  scope.track(env);
  assert.equal(env.deleteResources, 'never');
  await applyOk(session, env);
  const refused = await planDestroy(session, { inventory: env.inventory, deleteResources: env.deleteResources });
  assert.equal(refused.type, 'refused');
  assert.match(describeOutcome(refused), /delete_resources: never`: GitLab never deletes the resources of this environment\. Change it to `on_stop`/);
  // Deleting from the editor's tree knows only the inventory: the strategy stored when the
  // environment was applied decides, as Rails stores it with the environment (docs/gitlab-behaviour.md#environment-template-file).
  const fromInventory = await planDestroy(session, { inventory: env.inventory });
  assert.equal(fromInventory.type, 'refused');
  assert.match(describeOutcome(fromInventory), /delete_resources: never/);
  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
  assert.equal(await exists(() => core.readNamespace({ name: `${env.data.environment.slug}-42-7` })), true);
});

test('a re-apply that only changes delete_resources is not a no-op: the stored strategy follows the template', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'destroy-strategy');
  const name = uniqueEnvironmentName('strategy');
  const deletable = prepare(TEMPLATE, name, scope.agentNamespace);
  scope.track(deletable);
  await applyOk(session, deletable);
  const kept = prepare(TEMPLATE.replace('delete_resources: on_stop', 'delete_resources: never'), name, scope.agentNamespace);
  const plan = expectOk(await planApply(session, kept));
  assert.equal(isNoop(plan), false, 'the objects are unchanged, the deletion strategy is not');
  expectOk(await executeApply(session, plan));
  assert.equal((await planDestroy(session, { inventory: kept.inventory })).type, 'refused');
  await applyOk(session, deletable);
  expectOk(await planDestroy(session, { inventory: deletable.inventory }));
});

test('an identity that may not delete gets a 403 naming the object, and nothing is deleted', async (t) => {
  const admin = await testSession(t);
  const { restrictedNamespace } = await clusterEnv();
  const scope = await environmentScope(t, 'destroy-forbidden');
  const env = prepare(TEMPLATE, uniqueEnvironmentName('forbidden'), scope.agentNamespace);
  scope.track(env);
  await applyOk(admin, env);
  const restricted = await testSession(t, 'restricted');
  const plan = await planDestroy(restricted, { inventory: env.inventory });
  assert.equal(plan.type, 'forbidden');
  assert.equal(
    describeOutcome(plan, EDITOR_ADVICE),
    `The cluster refused "agentcfg-restricted" (403 Forbidden): may not get configmaps in namespace ${scope.agentNamespace}. Ask a cluster administrator for this permission, or select a context with more rights (click the cluster context in the status bar).`,
  );
  assert.notEqual(restrictedNamespace, scope.agentNamespace);
});

test('a destroy nobody reviews (preview: false, as --yes) sends no dry-run delete; the namespace still goes only with what else it holds confirmed', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'destroy-unattended');
  const env = prepare(TEMPLATE, uniqueEnvironmentName('unattended'), scope.agentNamespace);
  scope.track(env);
  await applyOk(session, env);
  const ns = `${env.data.environment.slug}-42-7`;
  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
  await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'kubectl-made' } } });

  const before = session.requests.snapshot();
  const plan = expectOk(await planDestroy(session, { inventory: env.inventory }, { preview: false }));
  assert.deepEqual(plan.deletions.map((d) => d.ref.kind).sort(), ['Namespace', 'RoleBinding', 'ServiceAccount']);
  assert.deepEqual(plan.cascades.map((c) => [c.namespace, c.objects.map((o) => `${o.kind}/${o.name}`)]), [[ns, ['ConfigMap/kubectl-made']]]);
  const refused = await executeDestroy(session, plan);
  assert.equal(refused.type, 'refused');
  assert.match(describeOutcome(refused), /would also delete 1 object this inventory does not track/);
  assert.equal(await exists(() => core.readNamespacedServiceAccount({ name: 'deployer', namespace: ns })), true, 'nothing was deleted');

  const result = expectOk(await executeDestroy(session, plan, { deleteOthers: true }));
  assert.equal(result.deleted.length, 3);
  assert.equal(result.inventoryDeleted, true);
  assert.equal(await exists(() => core.readNamespace({ name: ns })), false);
  assert.equal(session.requests.since(before).dryRuns, 0);
});

test('without a preview a destroy still leaves alone protected namespaces and objects of another inventory', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'destroy-unattended-guard');
  const other = prepare(TEMPLATE, uniqueEnvironmentName('owner'), scope.agentNamespace);
  scope.track(other);
  await applyOk(session, other);
  const ns = `${other.data.environment.slug}-42-7`;
  const inventory = { name: 'gitlab-env-tampered', namespace: scope.agentNamespace };
  const listed = ['kube-system', scope.agentNamespace].map((name) => ({ group: '', kind: 'Namespace', namespace: '', name }));
  expectOk(await writeInventory(session, { ...inventory, objects: [...listed, { group: '', kind: 'ServiceAccount', namespace: ns, name: 'deployer' }] }));

  const before = session.requests.snapshot();
  const plan = expectOk(await planDestroy(session, { inventory }, { preview: false }));
  assert.deepEqual(plan.deletions, []);
  const reasons = Object.fromEntries(plan.skipped.map((s) => [s.ref.name, s.reason]));
  assert.equal(reasons['kube-system'], "not deleted: namespace 'kube-system' is a system namespace and is never deleted");
  assert.equal(reasons[scope.agentNamespace], `not deleted: namespace '${scope.agentNamespace}' is where the agent runs (and keeps its inventories) and is never deleted`);
  assert.equal(reasons.deployer, `not deleted: it is owned by another inventory ('${other.inventory.name}'), not 'gitlab-env-tampered'`);
  expectOk(await executeDestroy(session, plan));
  const counts = session.requests.since(before);
  assert.deepEqual({ dryRuns: counts.dryRuns, writes: counts.writes }, { dryRuns: 0, writes: 3 }, 'only the tampered inventory itself is deleted (and the lock taken and released)');
  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
  assert.equal((await core.readNamespace({ name: 'kube-system' })).status?.phase, 'Active');
  assert.equal((await core.readNamespacedServiceAccount({ name: 'deployer', namespace: ns })).metadata?.annotations?.[OWNING_INVENTORY_ANNOTATION], other.inventory.name);
});

test('agentcfg destroy --yes sends no dry-run delete (the JSON counts the requests); --dry-run proves each deletion', async (t) => {
  const session = await testSession(t);
  const env = await clusterEnv();
  const scope = await environmentScope(t, 'destroy-cli-yes');
  const prepared = prepare(TEMPLATE, uniqueEnvironmentName('cli-yes'), scope.agentNamespace);
  scope.track(prepared);
  await applyOk(session, prepared);
  const common = ['destroy', '--inventory', prepared.inventory.name, '--agent-namespace', scope.agentNamespace, '--kubeconfig', env.kubeconfig, '--context', env.adminContext, '--format', 'json'];

  const dry = agentcfg(...common, '--dry-run');
  assert.equal(dry.code, 0, dry.stderr);
  assert.equal(JSON.parse(dry.stdout).requests.dryRuns, 3);
  const destroyed = agentcfg(...common, '--yes');
  assert.equal(destroyed.code, 0, destroyed.stderr);
  const out = JSON.parse(destroyed.stdout);
  assert.equal(out.result.deleted.length, 3);
  assert.equal(out.requests.dryRuns, 0);
});
