// The one pruner's filters (server/src/cluster/prune/plan.ts, decided by guards.ts mayDelete), each
// shown refusing on all three paths that delete what an inventory tracks: environment prune (an
// apply whose template no longer renders the object), environment delete (destroy) and workspace
// termination. The inventory of each path lists the object; the object survives, with the reason,
// and an object kept by its annotations no longer claims the inventory that let go of it.
// docs/gitlab-behaviour.md#inventories, #protected-namespaces-our-rule.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { CoreV1Api } from '@kubernetes/client-node';
import { executeApply } from '../../server/src/cluster/apply/execute';
import { planApply } from '../../server/src/cluster/apply/plan';
import { executeDestroy } from '../../server/src/cluster/destroy/execute';
import { planDestroy } from '../../server/src/cluster/destroy/plan';
import { OWNING_INVENTORY_ANNOTATION } from '../../server/src/cluster/inventory/configMap';
import type { InventoryRef } from '../../server/src/cluster/kube/objMetadata';
import { readInventory, writeInventory } from '../../server/src/cluster/inventory/store';
import { describeOutcome } from '../../server/src/cluster/kube/outcome';
import type { ClusterSession } from '../../server/src/cluster/kube/session';
import { runTermination } from '../../server/src/cluster/workspace/index';
import { environmentScope, expectOk, prepare, testSession, uniqueEnvironmentName } from './environment-support';
import { kubeConfig, uniqueNamespace } from './harness';

type Path = 'environment prune' | 'environment delete' | 'workspace termination';

interface Setup {
  readonly session: ClusterSession;
  readonly agentNamespace: string;
  /** Where the objects live, and the workspace's namespace (shared mode: its inventories live there too). */
  readonly namespace: string;
}

async function setup(t: TestContext, prefix: string): Promise<Setup> {
  const session = await testSession(t);
  const { agentNamespace } = await environmentScope(t, prefix);
  return { session, agentNamespace, namespace: await uniqueNamespace(prefix, t) };
}

/**
 * A ServiceAccount made by hand (kubectl), with the annotations a filter is about: a kind both an
 * environment template and a workspace may create, so every path considers it.
 */
async function handMadeServiceAccount(namespace: string, name: string, annotations: Record<string, string>): Promise<InventoryRef> {
  await (await kubeConfig('admin')).makeApiClient(CoreV1Api).createNamespacedServiceAccount({ namespace, body: { metadata: { name, namespace, annotations } } });
  return { group: '', kind: 'ServiceAccount', namespace, name };
}

/** The annotations of the ServiceAccount, or undefined when it is gone. */
async function serviceAccountAnnotations(namespace: string, name: string): Promise<Record<string, string> | undefined> {
  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
  return core.readNamespacedServiceAccount({ namespace, name }).then(
    (sa) => sa.metadata?.annotations ?? {},
    () => undefined,
  );
}

/**
 * Runs `path` on an inventory that lists the object made by `make` (given the inventory's id, as
 * the object's annotations may name it) and returns why the pruner left it alone; undefined when
 * it deleted it.
 */
async function reasonLeftAlone(s: Setup, path: Path, make: (inventoryId: string) => Promise<InventoryRef>): Promise<string | undefined> {
  if (path === 'environment prune') {
    // The stored inventory lists the object; the template no longer renders it.
    const env = prepare('objects: []\n', uniqueEnvironmentName('prune'), s.agentNamespace);
    const ref = await make(env.inventory.name);
    expectOk(await writeInventory(s.session, { ...env.inventory, objects: [ref] }));
    // Checked before executing: a broken filter must not delete, say, the agent's namespace.
    const plan = expectOk(await planApply(s.session, env));
    assert.deepEqual(plan.prunes, [], 'nothing pruned');
    expectOk(await executeApply(s.session, plan));
    return plan.skipped.find((x) => x.ref.name === ref.name)?.reason;
  }
  if (path === 'environment delete') {
    const env = prepare('objects: []\n', uniqueEnvironmentName('delete'), s.agentNamespace);
    const ref = await make(env.inventory.name);
    expectOk(await writeInventory(s.session, { ...env.inventory, objects: [ref] }));
    const plan = expectOk(await planDestroy(s.session, { inventory: env.inventory }));
    assert.deepEqual(plan.deletions, [], 'nothing deleted');
    assert.deepEqual(expectOk(await executeDestroy(s.session, plan)).deleted, []);
    return plan.skipped.find((x) => x.ref.name === ref.name)?.reason;
  }
  // Shared mode: the workspace's inventory (named as Rails names it) lives in its namespace.
  const name = `ws${Date.now().toString(36)}`;
  const inventory = { name: `${name}-workspace-inventory`, namespace: s.namespace };
  const ref = await make(inventory.name);
  expectOk(await writeInventory(s.session, { ...inventory, objects: [ref] }));
  const run = await runTermination(s.session, { name, namespace: s.namespace, mode: 'shared' }, { timeoutMs: 60_000 });
  if (run.type !== 'ok') return describeOutcome(run);
  assert.equal(run.value.progress, 'Terminated');
  assert.deepEqual(
    run.value.cycles.flatMap((c) => c.deleted),
    [`ConfigMap ${s.namespace}/${inventory.name}`],
    'only the inventory itself is deleted',
  );
  assert.equal(expectOk(await readInventory(s.session, inventory)), undefined);
  // The termination reports no reason; the object's survival is the refusal.
  return 'left alone';
}

const PATHS: readonly Path[] = ['environment prune', 'environment delete', 'workspace termination'];
const VERB: Record<Path, string> = { 'environment prune': 'not pruned', 'environment delete': 'not deleted', 'workspace termination': 'left alone' };

/** One test per filter on a hand-made object: every path leaves it in place, for the filter's reason. */
const OBJECT_FILTERS: { name: string; annotations: (inventoryId: string) => Record<string, string>; reason: (inventoryId: string) => string; abandoned?: true }[] = [
  {
    name: 'owned by this inventory: an object no inventory owns (made with kubectl) is never deleted',
    annotations: () => ({}),
    reason: (id) => `it is not owned by inventory '${id}' (no ${OWNING_INVENTORY_ANNOTATION} annotation)`,
  },
  {
    name: 'never an object another inventory owns',
    annotations: () => ({ [OWNING_INVENTORY_ANNOTATION]: 'someone-else' }),
    reason: (id) => `it is owned by another inventory ('someone-else'), not '${id}'`,
  },
  {
    name: 'the cli-utils keep annotation is honoured',
    annotations: (id) => ({ [OWNING_INVENTORY_ANNOTATION]: id, 'cli-utils.sigs.k8s.io/on-remove': 'keep' }),
    reason: () => 'it is annotated cli-utils.sigs.k8s.io/on-remove: keep',
    abandoned: true,
  },
  {
    name: 'the kpt detach annotation is honoured',
    annotations: (id) => ({ [OWNING_INVENTORY_ANNOTATION]: id, 'client.lifecycle.config.k8s.io/deletion': 'detach' }),
    reason: () => 'it is annotated client.lifecycle.config.k8s.io/deletion: detach',
    abandoned: true,
  },
];

for (const filter of OBJECT_FILTERS) {
  test(`pruner filter, on every path — ${filter.name}`, async (t) => {
    const s = await setup(t, 'prune-filter');
    for (const path of PATHS) {
      let inventoryId = '';
      const objectName = `victim-${path.replaceAll(' ', '-')}`;
      const reason = await reasonLeftAlone(s, path, (id) => {
        inventoryId = id;
        return handMadeServiceAccount(s.namespace, objectName, filter.annotations(id));
      });
      const expected = path === 'workspace termination' ? VERB[path] : `${VERB[path]}: ${filter.reason(inventoryId)}`;
      assert.equal(reason, expected, path);
      const annotations = await serviceAccountAnnotations(s.namespace, objectName);
      assert.ok(annotations, `${path}: the object is still there`);
      // cli-utils abandons a kept object: the inventory that let go of it no longer claims it.
      const owner = filter.abandoned ? undefined : filter.annotations(inventoryId)[OWNING_INVENTORY_ANNOTATION];
      assert.equal(annotations[OWNING_INVENTORY_ANNOTATION], owner, `${path}: owning annotation`);
    }
  });
}

test('pruner filter, on every path — never a protected namespace', async (t) => {
  const s = await setup(t, 'prune-filter-ns');
  const namespaceRef = (name: string): InventoryRef => ({ group: '', kind: 'Namespace', namespace: '', name });
  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
  // Environments: a system namespace and the agent's namespace are skipped, however the inventory got them.
  for (const path of ['environment prune', 'environment delete'] as const) {
    for (const [name, why] of [
      ['kube-system', "namespace 'kube-system' is a system namespace"],
      [s.agentNamespace, `namespace '${s.agentNamespace}' is where the agent runs (and keeps its inventories)`],
    ]) {
      const reason = await reasonLeftAlone(s, path, () => Promise.resolve(namespaceRef(name)));
      assert.equal(reason, `${VERB[path]}: ${why} and is never deleted`, `${path}: ${name}`);
      assert.equal((await core.readNamespace({ name })).status?.phase, 'Active', `${path}: ${name} stays`);
    }
  }
  // Workspaces own no cluster-scoped object: a Namespace in their inventory refuses the whole termination.
  const refusal = await reasonLeftAlone(s, 'workspace termination', () => Promise.resolve(namespaceRef('kube-system')));
  assert.match(refusal ?? '', /lists "_kube-system__Namespace", but a workspace never owns cluster-scoped objects; .* Nothing is pruned/);
  assert.equal((await core.readNamespace({ name: 'kube-system' })).status?.phase, 'Active');
});
