// The safety suite on the real control plane: each damage case measured on the earlier main (a
// tampered inventory, a template naming the agent namespace, workspace payloads naming other
// objects, a termination config naming an environment's inventory, adoption of protected or other
// agents' namespaces, destroy of a namespace holding kubectl-made objects). Each test asserts the
// refusal message and that nothing changed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CoreV1Api, PatchStrategy, setHeaderOptions, type KubeConfig } from '@kubernetes/client-node';
import { executeApply } from '../../server/src/cluster/apply/execute';
import { planApply } from '../../server/src/cluster/apply/plan';
import { executeDestroy } from '../../server/src/cluster/destroy/execute';
import { planDestroy } from '../../server/src/cluster/destroy/plan';
import { INVENTORY_ID_LABEL, OWNING_INVENTORY_ANNOTATION } from '../../server/src/cluster/inventory/configMap';
import { writeInventory } from '../../server/src/cluster/inventory/store';
import { describeOutcome } from '../../server/src/cluster/kube/outcome';
import { applyWorkspace, runTermination } from '../../server/src/cluster/workspace/index';
import { applyOk, environmentScope, expectOk, fixtureTemplate, prepare, testSession, uniqueEnvironmentName } from './environment-support';
import { kubeConfig, statusCode, uniqueNamespace } from './harness';

const NAMESPACE_TEMPLATE = (name: string) => `objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: ${name}\n`;

async function core(): Promise<CoreV1Api> {
  return (await kubeConfig('admin')).makeApiClient(CoreV1Api);
}

async function annotate(kc: KubeConfig, namespace: string, annotations: Record<string, string>): Promise<void> {
  await kc.makeApiClient(CoreV1Api).patchNamespace({ name: namespace, body: { metadata: { annotations } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
}

/** Everything about a namespace that an operation could change: phase, labels, annotations. */
async function namespaceState(name: string): Promise<string> {
  const live = await (await core()).readNamespace({ name });
  return JSON.stringify({ phase: live.status?.phase, labels: live.metadata?.labels, annotations: live.metadata?.annotations ?? {} });
}

/** The ConfigMaps of a namespace, without the one Kubernetes publishes into each (its controller adds it a moment after the namespace). */
async function configMapNames(namespace: string): Promise<string[]> {
  return (await (await core()).listNamespacedConfigMap({ namespace })).items
    .map((c) => c.metadata?.name ?? '')
    .filter((name) => name !== 'kube-root-ca.crt')
    .sort();
}

test('a crafted inventory entry named .. (or .) is refused: the agent namespace and its inventories are not deleted', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'safety-dotdot');
  const kc = await kubeConfig('admin');
  for (const name of ['..', '.']) {
    const inventory = { name: `gitlab-env-tampered${name === '.' ? '-dot' : ''}`, namespace: scope.agentNamespace };
    // The attack of the report: the agent namespace carries the tampered inventory's annotation, and
    // the entry's path `/api/v1/namespaces/<agent ns>/serviceaccounts/..` resolves to the namespace itself.
    await annotate(kc, scope.agentNamespace, { [OWNING_INVENTORY_ANNOTATION]: inventory.name });
    expectOk(await writeInventory(session, { ...inventory, objects: [{ group: '', kind: 'ServiceAccount', namespace: scope.agentNamespace, name }] }));
    const before = { ns: await namespaceState(scope.agentNamespace), cms: await configMapNames(scope.agentNamespace) };

    const plan = expectOk(await planDestroy(session, { inventory }));
    assert.deepEqual(plan.deletions, []);
    assert.equal(plan.blocked.length, 1);
    assert.equal(
      plan.blocked[0].message,
      `inventory ${scope.agentNamespace}/${inventory.name} lists "${scope.agentNamespace}_${name}__ServiceAccount", but that is no valid Kubernetes object: its name '${name}' may not be '.' or '..'; the inventory was changed by hand or by another tool. Nothing is deleted: remove that entry from the inventory ConfigMap first.`,
    );
    const result = await executeDestroy(session, plan);
    assert.equal(result.type, 'refused');
    assert.deepEqual({ ns: await namespaceState(scope.agentNamespace), cms: await configMapNames(scope.agentNamespace) }, before, 'nothing changed');
  }
});

test('kube-node-lease through a crafted .. entry is refused and stays', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'safety-lease');
  const inventory = { name: 'gitlab-env-tampered-lease', namespace: scope.agentNamespace };
  expectOk(await writeInventory(session, { ...inventory, objects: [{ group: 'coordination.k8s.io', kind: 'Lease', namespace: 'kube-node-lease', name: '..' }] }));
  const before = await namespaceState('kube-node-lease');
  const plan = expectOk(await planDestroy(session, { inventory }));
  assert.match(plan.blocked[0]?.message ?? '', /"kube-node-lease_\.\._coordination\.k8s\.io_Lease", but that is no valid Kubernetes object: its name '\.\.' may not be '\.' or '\.\.'/);
  assert.equal((await executeDestroy(session, plan)).type, 'refused');
  assert.equal(await namespaceState('kube-node-lease'), before);
});

test('an inventory entry of a kind the cluster does not serve is skipped as gone, never resolved to another object', async (t) => {
  const session = await testSession(t);
  const shared = await uniqueNamespace('safety-identity', t);
  const inventory = { name: 'ws5-workspace-inventory', namespace: shared };
  // A valid name of a kind this cluster does not serve in that group: the entry is skipped as gone,
  // never resolved to something else (a workspace, since an environment refuses any kind a template
  // cannot create before asking the cluster). The ConfigMap key charset keeps '/' out of
  // inventories; the payload test below covers '/' in names.
  expectOk(await writeInventory(session, { ...inventory, objects: [{ group: 'example.invalid', kind: 'Widget', namespace: shared, name: 'w' }] }));
  const run = expectOk(await runTermination(session, { name: 'ws5', namespace: shared, mode: 'shared' }, { timeoutMs: 60_000 }));
  assert.equal(run.progress, 'Terminated');
  assert.deepEqual(run.cycles.flatMap((c) => c.deleted), [`ConfigMap ${shared}/${inventory.name}`], 'nothing but the inventory is deleted');
});

test('a template whose Namespace is the agent namespace is refused, also when that namespace does not exist yet', async (t) => {
  const session = await testSession(t);
  const agentNamespace = `safety-agent-${Date.now().toString(36)}`;
  const env = prepare(NAMESPACE_TEMPLATE(agentNamespace), uniqueEnvironmentName('own-agent-ns'), agentNamespace);
  const plan = expectOk(await planApply(session, env));
  assert.equal(plan.blocked.length, 1);
  assert.equal(
    describeOutcome(plan.blocked[0]),
    `core/v1/Namespace '${agentNamespace}' is not applied: namespace '${agentNamespace}' is where the agent runs (and keeps its inventories): an environment never creates, adopts or owns it`,
  );
  assert.equal((await executeApply(session, plan)).type, 'refused');
  await assert.rejects((await core()).readNamespace({ name: agentNamespace }), (err) => statusCode(err) === 404, 'the agent namespace was not created');
});

test('adoption of kube-system, or of another agent\'s namespace (it holds inventories), is refused and leaves no mark', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'safety-adopt');
  const otherAgent = await uniqueNamespace('safety-other-agent', t);
  expectOk(await writeInventory(session, { name: 'gitlab-env-other', namespace: otherAgent, objects: [] }));
  for (const [target, reason] of [
    ['kube-system', "namespace 'kube-system' is a system namespace"],
    [otherAgent, `namespace '${otherAgent}' holds inventories (of this or another agent)`],
  ] as const) {
    const before = await namespaceState(target);
    const env = prepare(NAMESPACE_TEMPLATE(target), uniqueEnvironmentName('adopt'), scope.agentNamespace);
    const plan = expectOk(await planApply(session, env, { adopt: true }));
    assert.equal(describeOutcome(plan.blocked[0]), `core/v1/Namespace '${target}' is not applied: ${reason}: an environment never creates, adopts or owns it`);
    assert.equal((await executeApply(session, plan)).type, 'refused');
    assert.equal(await namespaceState(target), before, `${target} unchanged`);
  }
  assert.deepEqual(await configMapNames(otherAgent), ['gitlab-env-other']);
});

test('adopting a namespace that holds other objects says so in the plan', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'safety-adopt-contents');
  const existing = await uniqueNamespace('safety-adoptee', t);
  await (await core()).createNamespacedConfigMap({ namespace: existing, body: { metadata: { name: 'hand-made' }, data: { a: 'b' } } });
  const env = prepare(NAMESPACE_TEMPLATE(existing), uniqueEnvironmentName('adoptee'), scope.agentNamespace);
  scope.track(env);
  const plan = expectOk(await planApply(session, env, { adopt: true }));
  assert.deepEqual(plan.blocked, []);
  assert.deepEqual(plan.adoptions.map((a) => ({ namespace: a.namespace, objects: a.objects.map((o) => `${o.kind}/${o.name}`) })), [{ namespace: existing, objects: ['ConfigMap/hand-made'] }]);
});

test('destroy of a namespace holding kubectl-made objects lists them and deletes nothing until that is confirmed', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'safety-cascade');
  const env = prepare(fixtureTemplate('namespace-sa-rolebinding.yaml'), uniqueEnvironmentName('cascade'), scope.agentNamespace);
  scope.track(env);
  await applyOk(session, env);
  const ns = `${env.data.environment.slug}-42-7`;
  const api = await core();
  await api.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'kubectl-made' }, data: { keep: 'me' } } });
  await api.createNamespacedServiceAccount({ namespace: ns, body: { metadata: { name: 'someone-elses' } } });

  const plan = expectOk(await planDestroy(session, { inventory: env.inventory }));
  assert.deepEqual(
    plan.cascades.map((c) => ({ namespace: c.namespace, objects: c.objects.map((o) => `${o.kind}/${o.name}`), unlisted: c.unlisted })),
    [{ namespace: ns, objects: ['ConfigMap/kubectl-made', 'ServiceAccount/someone-elses'], unlisted: [] }],
  );
  const refused = await executeDestroy(session, plan);
  assert.equal(refused.type, 'refused');
  assert.equal(
    describeOutcome(refused),
    `Nothing was deleted: deleting core/v1/Namespace '${ns}' would also delete 2 objects this inventory does not track:\n  - core/v1/ConfigMap 'kubectl-made' in namespace '${ns}'\n  - core/v1/ServiceAccount 'someone-elses' in namespace '${ns}'\nMove what must stay, or confirm that it goes with the namespace (agentcfg: --delete-others).`,
  );
  assert.equal((await api.readNamespace({ name: ns })).status?.phase, 'Active');
  await api.readNamespacedServiceAccount({ name: 'deployer', namespace: ns });
  await api.readNamespacedConfigMap({ name: env.inventory.name, namespace: scope.agentNamespace });

  const confirmed = expectOk(await executeDestroy(session, plan, { deleteOthers: true }));
  assert.equal(confirmed.inventoryDeleted, true);
  await assert.rejects(api.readNamespace({ name: ns }), (err) => statusCode(err) === 404);
});

const configMapDoc = (namespace: string, name: string, owner: string, extra = '') =>
  `---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${namespace}\n  annotations:\n    ${OWNING_INVENTORY_ANNOTATION}: ${owner}\n${extra}data:\n  a: b\n`;
const inventoryDoc = (namespace: string, name: string) => `---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${namespace}\n  labels:\n    ${INVENTORY_ID_LABEL}: ${name}\n`;

test('workspace apply never takes over a kubectl-made object or another workspace\'s object in the shared namespace', async (t) => {
  const session = await testSession(t);
  const shared = await uniqueNamespace('safety-shared', t);
  const api = await core();
  await api.createNamespacedConfigMap({ namespace: shared, body: { metadata: { name: 'kubectl-made' }, data: { mine: 'kubectl' } } });
  await api.createNamespacedConfigMap({ namespace: shared, body: { metadata: { name: 'other-ws-file', annotations: { [OWNING_INVENTORY_ANNOTATION]: 'other-workspace-inventory' } }, data: { mine: 'other' } } });
  for (const [victim, reason] of [
    ['kubectl-made', 'it already exists and no inventory owns it'],
    ['other-ws-file', "it already exists and belongs to another inventory ('other-workspace-inventory')"],
  ] as const) {
    const payload = inventoryDoc(shared, 'ws1-workspace-inventory') + configMapDoc(shared, victim, 'ws1-workspace-inventory');
    const outcome = await applyWorkspace(session, payload, { sharedNamespace: shared });
    assert.equal(outcome.type, 'refused');
    assert.equal(describeOutcome(outcome).includes(`core/v1/ConfigMap '${victim}' in namespace '${shared}' is not applied: ${reason}; a workspace never takes over objects it did not create.`), true, describeOutcome(outcome));
    const live = await api.readNamespacedConfigMap({ name: victim, namespace: shared });
    assert.equal(live.metadata?.annotations?.[OWNING_INVENTORY_ANNOTATION], victim === 'kubectl-made' ? undefined : 'other-workspace-inventory');
  }
  assert.deepEqual(await configMapNames(shared), ['kubectl-made', 'other-ws-file'], 'no inventory written either');
});

test('a workspace payload naming a non-workspace inventory, or an object named a/b, is refused before anything is written', async (t) => {
  const session = await testSession(t);
  const shared = await uniqueNamespace('safety-payload', t);
  const envInventory = applyWorkspace(session, inventoryDoc(shared, 'gitlab-env-review-42-7'), { sharedNamespace: shared });
  assert.match(describeOutcome(await envInventory), /ConfigMap .*\/gitlab-env-review-42-7 is not a workspace inventory \(<workspace>-workspace-inventory or <workspace>-secrets-inventory\); nothing is applied/);
  const slash = await applyWorkspace(session, inventoryDoc(shared, 'ws2-workspace-inventory') + configMapDoc(shared, 'a/b', 'ws2-workspace-inventory'), { sharedNamespace: shared });
  assert.match(describeOutcome(slash), /ConfigMap a\/b: its name 'a\/b' may not contain '\/'/);
  assert.deepEqual(await configMapNames(shared), []);
});

test('workspace termination refuses a termination config naming an environment inventory, and never deletes outside its namespace', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'safety-term');
  const env = prepare(fixtureTemplate('namespace-sa-rolebinding.yaml'), uniqueEnvironmentName('term'), scope.agentNamespace);
  scope.track(env);
  await applyOk(session, env);
  const ns = `${env.data.environment.slug}-42-7`;
  const api = await core();

  // The report's case: the shared namespace is where the environment inventories live.
  const config = inventoryDoc(scope.agentNamespace, env.inventory.name);
  const outcome = await runTermination(session, { name: 'ws3', namespace: scope.agentNamespace, mode: 'shared', configToApply: config });
  assert.equal(outcome.type, 'refused');
  assert.equal(describeOutcome(outcome).includes(`the termination config names inventory ${env.inventory.name}, which is not one of workspace ws3's (ws3-workspace-inventory, ws3-secrets-inventory); nothing is deleted`), true, describeOutcome(outcome));
  await api.readNamespacedServiceAccount({ name: 'deployer', namespace: ns });
  await api.readNamespacedConfigMap({ name: env.inventory.name, namespace: scope.agentNamespace });

  // A workspace inventory (named as Rails names it) that tracks an object in another namespace.
  expectOk(await writeInventory(session, { name: 'ws4-workspace-inventory', namespace: scope.agentNamespace, objects: [{ group: '', kind: 'ServiceAccount', namespace: ns, name: 'deployer' }] }));
  const outside = await runTermination(session, { name: 'ws4', namespace: scope.agentNamespace, mode: 'shared', configToApply: inventoryDoc(scope.agentNamespace, 'ws4-workspace-inventory') });
  assert.equal(outside.type, 'refused');
  assert.match(describeOutcome(outside), new RegExp(`lists "${ns}_deployer__ServiceAccount", but that object is outside the workspace's namespace '${scope.agentNamespace}'`));
  await api.readNamespacedServiceAccount({ name: 'deployer', namespace: ns });
  assert.deepEqual((await api.readNamespacedConfigMap({ name: 'ws4-workspace-inventory', namespace: scope.agentNamespace })).data, { [`${ns}_deployer__ServiceAccount`]: '' }, 'the inventory still tracks it');
});

test('prune and destroy honour the cli-utils keep annotation', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'safety-keep');
  const env = prepare(fixtureTemplate('namespace-sa-rolebinding.yaml'), uniqueEnvironmentName('keep'), scope.agentNamespace);
  scope.track(env);
  await applyOk(session, env);
  const ns = `${env.data.environment.slug}-42-7`;
  const api = await core();
  await api.patchNamespacedServiceAccount({ name: 'deployer', namespace: ns, body: { metadata: { annotations: { 'cli-utils.sigs.k8s.io/on-remove': 'keep' } } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
  const plan = expectOk(await planDestroy(session, { inventory: env.inventory }));
  assert.deepEqual(plan.skipped.map((s) => `${s.ref.kind}/${s.ref.name}: ${s.reason}`), ['ServiceAccount/deployer: not deleted: it is annotated cli-utils.sigs.k8s.io/on-remove: keep']);
  // The kept ServiceAccount is inside the namespace to delete: the cascade names it.
  assert.deepEqual(plan.cascades[0]?.objects.map((o) => `${o.kind}/${o.name}`), ['ServiceAccount/deployer']);
});
