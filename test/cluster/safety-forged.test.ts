// The safety suite, third round, on the real control plane: an inventory's identity cannot be forged
// (its id label must be its name; an annotation alone does not make an object the inventory's),
// environment and workspace commands touch only their own kind of inventory, a workspace namespace
// is deleted only when it is the workspace's own and holds nothing else, and nothing that changed
// between the plan and the confirmation is touched. Each case was measured doing damage on the
// earlier main; each test asserts the refusal and that nothing foreign changed (uid and
// resourceVersion). docs/gitlab-behaviour.md#which-inventory-is-ours-our-rule, #no-gap-between-plan-and-act-our-rule, #protected-namespaces-our-rule,
// #workspace-termination.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CoreV1Api, KubernetesObjectApi, PatchStrategy, RbacAuthorizationV1Api, setHeaderOptions } from '@kubernetes/client-node';
import { executeApply } from '../../server/src/cluster/apply/execute';
import { planApply } from '../../server/src/cluster/apply/plan';
import { executeDestroy } from '../../server/src/cluster/destroy/execute';
import { describeDestroyPlan, planDestroy } from '../../server/src/cluster/destroy/plan';
import { INVENTORY_ID_LABEL, OWNING_INVENTORY_ANNOTATION } from '../../server/src/cluster/inventory/configMap';
import { writeInventory } from '../../server/src/cluster/inventory/store';
import { headerOf, type ObjectRef } from '../../server/src/cluster/kube/objectRef';
import { describeOutcome } from '../../server/src/cluster/kube/outcome';
import type { ClusterSession } from '../../server/src/cluster/kube/session';
import { applyWorkspace, runTermination } from '../../server/src/cluster/workspace/index';
import { agentcfgAsync } from '../support/cliAsync';
import { applyOk, environmentScope, expectOk, fixtureTemplate, prepare, testSession, uniqueEnvironmentName } from './environment-support';
import { clusterEnv, kubeConfig, statusCode, uniqueNamespace } from './harness';

const TEMPLATE = fixtureTemplate('namespace-sa-rolebinding.yaml');
const ref = (kind: string, namespace: string, name: string, group = '', version = 'v1'): ObjectRef => ({ group, version, kind, namespace, name });
const configMap = (namespace: string, name: string) => ref('ConfigMap', namespace, name);

async function core(): Promise<CoreV1Api> {
  return (await kubeConfig('admin')).makeApiClient(CoreV1Api);
}

/** What would show any change to an object: its uid and resourceVersion ('absent' when there is none). */
async function stamp(r: ObjectRef): Promise<string> {
  const objects = KubernetesObjectApi.makeApiClient(await kubeConfig('admin'));
  try {
    const live = await objects.read(headerOf(r));
    return `${live.metadata?.uid}@${live.metadata?.resourceVersion}`;
  } catch (err) {
    if (statusCode(err) === 404) return 'absent';
    throw err;
  }
}

async function stamps(refs: readonly ObjectRef[]): Promise<string[]> {
  return Promise.all(refs.map(stamp));
}

/** The three objects of the fixture template for an environment, and its inventory. */
function environmentRefs(env: ReturnType<typeof prepare>): ObjectRef[] {
  return [...env.objects.map((o) => o.ref), configMap(env.inventory.namespace, env.inventory.name)];
}

const inventoryDoc = (namespace: string, name: string, id = name) => `---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${namespace}\n  labels:\n    ${INVENTORY_ID_LABEL}: ${id}\n`;
const configMapDoc = (namespace: string, name: string, owner: string) =>
  `---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${namespace}\n  annotations:\n    ${OWNING_INVENTORY_ANNOTATION}: ${owner}\ndata:\n  payload: forged\n`;

/** Applies workspace `name`, holding one file it owns, in `namespace` (shared or its own); the file and the inventory, as refs. */
async function applyOneFileWorkspace(session: ClusterSession, namespace: string, name: string, mode: 'shared' | 'unique'): Promise<ObjectRef[]> {
  const inventory = `${name}-workspace-inventory`;
  expectOk(await applyWorkspace(session, inventoryDoc(namespace, inventory) + configMapDoc(namespace, `${name}-file`, inventory), mode === 'shared' ? { sharedNamespace: namespace } : {}));
  return [configMap(namespace, `${name}-file`), configMap(namespace, inventory)];
}

test('1. an environment inventory relabelled with another environment\'s id is refused whole: nothing of either environment is deleted', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'forged-env');
  const own = prepare(TEMPLATE, uniqueEnvironmentName('own'), scope.agentNamespace);
  const other = prepare(TEMPLATE, uniqueEnvironmentName('other'), scope.agentNamespace);
  scope.track(own);
  scope.track(other);
  await applyOk(session, own);
  await applyOk(session, other);
  const otherAccount = other.objects.find((o) => o.ref.kind === 'ServiceAccount')!.ref;
  // The attack: the own inventory says it is the other one, and lists the other's ServiceAccount.
  await (await core()).patchNamespacedConfigMap(
    {
      name: own.inventory.name,
      namespace: scope.agentNamespace,
      body: { metadata: { labels: { [INVENTORY_ID_LABEL]: other.inventory.name } }, data: { [`${otherAccount.namespace}_deployer__ServiceAccount`]: '' } },
    },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
  const watched = [...environmentRefs(own), ...environmentRefs(other)];
  const before = await stamps(watched);

  const planned = await planDestroy(session, { inventory: own.inventory });
  assert.equal(planned.type, 'refused');
  assert.equal(
    describeOutcome(planned),
    `Refused core/v1/ConfigMap '${own.inventory.name}' in namespace '${scope.agentNamespace}': inventory ${scope.agentNamespace}/${own.inventory.name} has been tampered with: its ${INVENTORY_ID_LABEL} label says '${other.inventory.name}', but an inventory's id is its own name (GitLab and this tool always set both alike). Nothing is done through it; if it is yours, set the label back to '${own.inventory.name}'.`,
  );
  const env = await clusterEnv();
  const cli = await agentcfgAsync('destroy', '--inventory', own.inventory.name, '--agent-namespace', scope.agentNamespace, '--kubeconfig', env.kubeconfig, '--context', env.adminContext, '--yes');
  assert.equal(cli.code, 1, cli.stdout);
  assert.match(cli.stderr, /has been tampered with: its cli-utils\.sigs\.k8s\.io\/inventory-id label says/);
  // An apply through it is refused too: it would otherwise record the other's objects as its own.
  const reapply = expectOk(await planApply(session, own));
  assert.match(describeOutcome(reapply.blocked[0]), /has been tampered with/);
  assert.equal((await executeApply(session, reapply)).type, 'refused');
  assert.deepEqual(await stamps(watched), before, 'nothing of either environment changed');
});

test('2. a workspace payload or live inventory carrying another workspace\'s id cannot take over, nor terminate, that workspace\'s objects', async (t) => {
  const session = await testSession(t);
  const shared = await uniqueNamespace('forged-ws', t);
  const victims = await applyOneFileWorkspace(session, shared, 'wsb', 'shared');
  const before = await stamps(victims);

  // The payload's own inventory says it is wsb's, and claims wsb's file.
  const forged = inventoryDoc(shared, 'wsa-workspace-inventory', 'wsb-workspace-inventory') + configMapDoc(shared, 'wsb-file', 'wsa-workspace-inventory');
  const applied = await applyWorkspace(session, forged, { sharedNamespace: shared });
  assert.equal(
    describeOutcome(applied),
    `ConfigMap ${shared}/wsa-workspace-inventory says its inventory id is 'wsb-workspace-inventory', but an inventory's id is its own name (Rails sets both alike); nothing is applied`,
  );
  assert.equal(await stamp(configMap(shared, 'wsa-workspace-inventory')), 'absent', 'no inventory written');

  // A live inventory of wsa relabelled as wsb's and listing wsb's file: terminating wsa deletes nothing.
  await (await core()).createNamespacedConfigMap({
    namespace: shared,
    body: { metadata: { name: 'wsa-workspace-inventory', labels: { [INVENTORY_ID_LABEL]: 'wsb-workspace-inventory' } }, data: { [`${shared}_wsb-file__ConfigMap`]: '' } },
  });
  const terminated = await runTermination(session, { name: 'wsa', namespace: shared, mode: 'shared' }, { timeoutMs: 30_000 });
  assert.equal(terminated.type, 'refused');
  assert.match(describeOutcome(terminated), new RegExp(`inventory ${shared}/wsa-workspace-inventory has been tampered with: its ${INVENTORY_ID_LABEL.replaceAll('.', '\\.')} label says 'wsb-workspace-inventory'`));
  assert.deepEqual(await stamps(victims), before, "wsb's objects unchanged");
});

test('3. terminating a workspace whose namespace is not its own (a mistyped name) deletes nothing; its own namespace goes only when it holds nothing else', async (t) => {
  const session = await testSession(t);
  // gl-rd-ns-<typo> exists, but holds another agent's inventory and kubectl objects, no inventory of <typo>.
  const namespace = await uniqueNamespace('gl-rd-ns-typo', t);
  const name = namespace.slice('gl-rd-ns-'.length);
  expectOk(await writeInventory(session, { name: 'gitlab-env-other-agent-42-9', namespace, objects: [] }));
  await (await core()).createNamespacedConfigMap({ namespace, body: { metadata: { name: 'kubectl-made' }, data: { a: 'b' } } });
  const watched = [ref('Namespace', '', namespace), configMap(namespace, 'gitlab-env-other-agent-42-9'), configMap(namespace, 'kubectl-made')];
  const before = await stamps(watched);
  const refusal = `Refused core/v1/Namespace '${namespace}': namespace ${namespace} holds no inventory of workspace ${name}, so it was not made for that workspace (is the name right?); nothing is deleted`;
  for (const dryRun of [true, false]) {
    const run = await runTermination(session, { name, namespace, mode: 'unique' }, { dryRun, timeoutMs: 30_000 });
    assert.equal(describeOutcome(run), refusal, dryRun ? 'the dry run says so too' : 'the termination');
  }
  const env = await clusterEnv();
  const cli = await agentcfgAsync('workspace', 'terminate', '--name', name, '--kubeconfig', env.kubeconfig, '--context', env.adminContext, '--yes');
  assert.equal(cli.code, 1, cli.stdout);
  assert.match(cli.stderr, /holds no inventory of workspace/);
  assert.deepEqual(await stamps(watched), before, 'the namespace and what it holds are unchanged');

  // The workspace's own namespace, with an object someone else put there: the workspace's objects
  // go, the namespace stays, and says why.
  const ownNamespace = await uniqueNamespace('gl-rd-ns-own', t);
  const own = ownNamespace.slice('gl-rd-ns-'.length);
  await applyOneFileWorkspace(session, ownNamespace, own, 'unique');
  await (await core()).createNamespacedConfigMap({ namespace: ownNamespace, body: { metadata: { name: 'left-by-hand' }, data: { a: 'b' } } });
  const foreign = [ref('Namespace', '', ownNamespace), configMap(ownNamespace, 'left-by-hand')];
  const foreignBefore = await stamps(foreign);
  const run = await runTermination(session, { name: own, namespace: ownNamespace, mode: 'unique' }, { timeoutMs: 60_000 });
  assert.equal(
    describeOutcome(run),
    `namespace ${ownNamespace} is not deleted: it holds objects workspace ${own} did not create.\ndeleting core/v1/Namespace '${ownNamespace}' would also delete 1 object this inventory does not track:\n  - core/v1/ConfigMap 'left-by-hand' in namespace '${ownNamespace}'\nMove or delete them, then terminate the workspace again.`,
  );
  assert.equal(await stamp(configMap(ownNamespace, `${own}-file`)), 'absent', "the workspace's own object was deleted");
  assert.deepEqual(await stamps(foreign), foreignBefore, 'the namespace and the foreign object stay');
});

test('4. destroy: objects made in the namespace between the plan and the confirmation stop it, nothing deleted (also with delete-others)', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'gap-destroy');
  const env = prepare(TEMPLATE, uniqueEnvironmentName('gap'), scope.agentNamespace);
  scope.track(env);
  await applyOk(session, env);
  const ns = env.objects[0].ref.name;
  const plan = expectOk(await planDestroy(session, { inventory: env.inventory }));
  assert.deepEqual(plan.cascades.map((c) => c.objects.length), [0], 'at plan time the namespace holds only the environment');

  // Before the "y": another agent's inventory and a ConfigMap arrive in the environment's namespace.
  expectOk(await writeInventory(session, { name: 'gitlab-env-late-42-8', namespace: ns, objects: [] }));
  await (await core()).createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'late-arrival' }, data: { a: 'b' } } });
  const watched = [...environmentRefs(env), configMap(ns, 'gitlab-env-late-42-8'), configMap(ns, 'late-arrival')];
  const before = await stamps(watched);
  for (const deleteOthers of [false, true]) {
    const result = await executeDestroy(session, plan, { deleteOthers });
    assert.equal(
      describeOutcome(result),
      `The cluster changed since the plan: plan again. Nothing was changed.\n- Namespace ${ns} now also holds ConfigMap ${ns}/gitlab-env-late-42-8, ConfigMap ${ns}/late-arrival, which deleting it would take along`,
    );
  }
  assert.deepEqual(await stamps(watched), before, 'nothing deleted, nothing changed');
});

test('5. apply: an object made by kubectl after the plan showed "create" is not taken over; a delete-and-recreate is refused too', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'gap-apply');
  const name = uniqueEnvironmentName('gap');
  const first = prepare(TEMPLATE, name, scope.agentNamespace);
  scope.track(first);
  await applyOk(session, first);
  const ns = first.objects[0].ref.name;
  const grown = prepare(`${TEMPLATE}\n`.replace('apply_resources:', `  - apiVersion: v1\n    kind: ServiceAccount\n    metadata:\n      name: newcomer\n      namespace: ${ns}\napply_resources:`), name, scope.agentNamespace);
  const plan = expectOk(await planApply(session, grown));
  assert.deepEqual(plan.objects.map((o) => `${o.ref.name}:${o.action}`).slice(-1), ['newcomer:create']);

  await (await core()).createNamespacedServiceAccount({ namespace: ns, body: { metadata: { name: 'newcomer', labels: { made: 'kubectl' } } } });
  const watched = [...environmentRefs(first), ref('ServiceAccount', ns, 'newcomer')];
  const before = await stamps(watched);
  const result = await executeApply(session, plan);
  assert.equal(describeOutcome(result), `The cluster changed since the plan: plan again. Nothing was changed.\n- ServiceAccount ${ns}/newcomer was created by someone else`);
  assert.deepEqual(await stamps(watched), before, 'not taken over, the inventory not written');
  const live = await (await core()).readNamespacedServiceAccount({ name: 'newcomer', namespace: ns });
  assert.equal(live.metadata?.annotations?.[OWNING_INVENTORY_ANNOTATION], undefined);

  // Deleted and made again between plan and confirmation: another object, also refused (here one the plan prunes).
  const replan = expectOk(await planApply(session, prepare(fixtureTemplate('namespace-sa-rolebinding-changed.yaml'), name, scope.agentNamespace)));
  const deployer = replan.prunes.find((p) => p.ref.name === 'deployer')!.ref;
  await (await core()).deleteNamespacedServiceAccount({ name: 'deployer', namespace: ns });
  await (await core()).createNamespacedServiceAccount({ namespace: ns, body: { metadata: { name: 'deployer' } } });
  const recreated = await stamp(deployer);
  assert.equal(describeOutcome(await executeApply(session, replan)), `The cluster changed since the plan: plan again. Nothing was changed.\n- ServiceAccount ${ns}/deployer was deleted and made again`);
  assert.equal(await stamp(deployer), recreated);
});

test('7a. environment destroy refuses a workspace inventory', async (t) => {
  const session = await testSession(t);
  const shared = await uniqueNamespace('kind-ws', t);
  const watched = await applyOneFileWorkspace(session, shared, 'wsk', 'shared');
  const before = await stamps(watched);
  const planned = await planDestroy(session, { inventory: { name: 'wsk-workspace-inventory', namespace: shared } });
  assert.equal(describeOutcome(planned), `Refused core/v1/ConfigMap 'wsk-workspace-inventory' in namespace '${shared}': wsk-workspace-inventory is workspace wsk's inventory, not an environment's; nothing is deleted. Terminate the workspace instead.`);
  assert.deepEqual(await stamps(watched), before);
});

test('7b. unique-mode workspace apply creates nothing outside gl-rd-ns-<name> (kube-system, say)', async (t) => {
  const session = await testSession(t);
  // A name of its own: a run of this test on code without the rule leaves its objects behind.
  const name = `wsx${Date.now().toString(36)}`;
  const before = await stamp(ref('Namespace', '', 'kube-system'));
  const payload = inventoryDoc('kube-system', `${name}-workspace-inventory`) + configMapDoc('kube-system', `${name}-file`, `${name}-workspace-inventory`);
  const outcome = await applyWorkspace(session, payload);
  assert.equal(describeOutcome(outcome), `in unique-namespace mode workspace ${name} lives in namespace gl-rd-ns-${name}, not kube-system; nothing is applied`);
  assert.deepEqual(await stamps([configMap('kube-system', `${name}-workspace-inventory`), configMap('kube-system', `${name}-file`)]), ['absent', 'absent']);
  assert.equal(await stamp(ref('Namespace', '', 'kube-system')), before);
  await assert.rejects((await core()).readNamespace({ name: `gl-rd-ns-${name}` }), (err) => statusCode(err) === 404, 'no namespace created either');
});

test('7c. destroy never deletes a kind no template may create (a ClusterRoleBinding), whatever its annotation says', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'kind-crb');
  const inventory = { name: 'gitlab-env-crb-42-7', namespace: scope.agentNamespace };
  const rbac = (await kubeConfig('admin')).makeApiClient(RbacAuthorizationV1Api);
  const crbName = `crb-${Date.now().toString(36)}`;
  await rbac.createClusterRoleBinding({
    body: { metadata: { name: crbName, annotations: { [OWNING_INVENTORY_ANNOTATION]: inventory.name } }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'nobody' }] },
  });
  t.after(() => rbac.deleteClusterRoleBinding({ name: crbName }).catch(() => undefined));
  expectOk(await writeInventory(session, { ...inventory, objects: [{ group: 'rbac.authorization.k8s.io', kind: 'ClusterRoleBinding', namespace: '', name: crbName }] }));
  const crb = ref('ClusterRoleBinding', '', crbName, 'rbac.authorization.k8s.io');
  const before = await stamp(crb);
  const plan = expectOk(await planDestroy(session, { inventory }));
  assert.deepEqual(plan.deletions, []);
  assert.equal(
    plan.blocked[0]?.message,
    `inventory ${scope.agentNamespace}/${inventory.name} lists "_${crbName}_rbac.authorization.k8s.io_ClusterRoleBinding", but an environment template can never create a ClusterRoleBinding (rbac.authorization.k8s.io), so no environment made it; the inventory was changed by hand or by another tool. Nothing is deleted: remove that entry from the inventory ConfigMap first.`,
  );
  assert.equal((await executeDestroy(session, plan)).type, 'refused');
  // The plan says it deletes nothing, and no "delete inventory" line.
  const lines = describeDestroyPlan(plan);
  assert.equal(lines.at(-1), 'Nothing will be deleted: 1 problem blocks the deletion (see blocked).');
  assert.ok(!lines.some((l) => l.startsWith('delete  inventory')), lines.join('\n'));
  assert.equal(await stamp(crb), before);
});

test('7d. a namespace left behind because it holds other inventories no longer claims the deleted inventory', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'abandon');
  const env = prepare(TEMPLATE, uniqueEnvironmentName('abandon'), scope.agentNamespace);
  scope.track(env);
  await applyOk(session, env);
  const ns = env.objects[0].ref.name;
  expectOk(await writeInventory(session, { name: 'gitlab-env-neighbour-42-8', namespace: ns, objects: [] }));
  const plan = expectOk(await planDestroy(session, { inventory: env.inventory }));
  assert.deepEqual(plan.skipped.map((s) => s.reason), [`not deleted: namespace '${ns}' holds inventories (of this or another agent) and is never deleted`]);
  expectOk(await executeDestroy(session, plan));
  const live = await (await core()).readNamespace({ name: ns });
  assert.equal(live.status?.phase, 'Active');
  assert.equal(live.metadata?.annotations?.[OWNING_INVENTORY_ANNOTATION], undefined, 'the owning annotation went with the inventory');
  assert.equal(await stamp(configMap(ns, 'gitlab-env-neighbour-42-8')) === 'absent', false, "the neighbour's inventory stays");
});
