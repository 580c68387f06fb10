// Workspaces on the real control plane (docs/gitlab-behaviour.md#workspace-termination, docs/gitlab-behaviour.md#remote-development-workspaces): the four acceptance criteria, shared
// mode as the restricted identity (no namespace permission at all), unique mode as admin; plus
// idempotence, a crash half-way, payload errors and the listing.
//
// The control plane runs no pvc-protection controller (no kubelet, no pods), so a deleted PVC would
// keep its `kubernetes.io/pvc-protection` finalizer forever. `standInForPvcProtection` plays that
// controller: it removes the finalizer from PVCs being deleted, as the real one does when no pod
// uses the claim (here no pod ever exists).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { AppsV1Api, CoreV1Api, NetworkingV1Api, PatchStrategy, Watch, setHeaderOptions, type KubeConfig, type V1PersistentVolumeClaim } from '@kubernetes/client-node';
import { describeOutcome, isFailure, type ClusterOutcome } from '../../server/src/cluster/kube/outcome';
import { openSession, type ClusterSession } from '../../server/src/cluster/kube/session';
import { applyWorkspace, listWorkspaces, runTermination, terminateWorkspace, TerminationTracker } from '../../server/src/cluster/workspace/index';
import { workspaceConfigToApply, workspaceTerminationConfig, type WorkspaceConfigOptions } from '../support/workspaceConfig';
import { agentcfgAsync } from '../support/cliAsync';
import { clusterEnv, kubeConfig, statusCode, waitUntilDeleted } from './harness';
import { LOCK_WRITES } from './environment-support';

function value<T>(outcome: ClusterOutcome<T>): T {
  if (isFailure(outcome)) assert.fail(`${outcome.type}: ${outcome.message}`);
  return outcome.value;
}

async function session(identity: 'admin' | 'restricted', t: TestContext): Promise<ClusterSession> {
  const env = await clusterEnv();
  const s = value(openSession({ kubeconfigPath: env.kubeconfig, context: identity === 'admin' ? env.adminContext : env.restrictedContext }));
  t.after(() => s.close());
  return s;
}

let counter = 0;
/** A workspace name unique to this run, and a unique agent id so label queries see only it. */
function workspace(sharedNamespace?: string): WorkspaceConfigOptions {
  const suffix = `${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  return { name: `ws-${suffix}`, agentId: 900000 + Math.floor(Math.random() * 99999), workspaceId: 4000 + counter, ...(sharedNamespace ? { sharedNamespace } : {}) };
}

function standInForPvcProtection(kc: KubeConfig, t: TestContext): void {
  const core = kc.makeApiClient(CoreV1Api);
  const controller = new Watch(kc).watch(
    '/api/v1/persistentvolumeclaims',
    {},
    (_phase: string, pvc: V1PersistentVolumeClaim) => {
      if (!pvc.metadata?.deletionTimestamp || !pvc.metadata.finalizers?.includes('kubernetes.io/pvc-protection')) return;
      const finalizers = pvc.metadata.finalizers.filter((f) => f !== 'kubernetes.io/pvc-protection');
      core
        .patchNamespacedPersistentVolumeClaim(
          { name: pvc.metadata.name!, namespace: pvc.metadata.namespace!, body: { metadata: { finalizers, resourceVersion: pvc.metadata.resourceVersion } } },
          setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
        )
        .catch(() => undefined); // gone or changed meanwhile: the next event retries
    },
    () => undefined,
  );
  t.after(async () => (await controller).abort());
}

/** Every object of one agent id, in any namespace, as `Kind namespace/name` (admin view). */
async function objectsOfAgent(kc: KubeConfig, agentId: number): Promise<string[]> {
  const core = kc.makeApiClient(CoreV1Api);
  const apps = kc.makeApiClient(AppsV1Api);
  const net = kc.makeApiClient(NetworkingV1Api);
  const labelSelector = `agent.gitlab.com/id=${agentId}`;
  const lists = await Promise.all([
    core.listConfigMapForAllNamespaces({ labelSelector }).then((l) => l.items.map((o) => ['ConfigMap', o.metadata])),
    core.listSecretForAllNamespaces({ labelSelector }).then((l) => l.items.map((o) => ['Secret', o.metadata])),
    core.listServiceForAllNamespaces({ labelSelector }).then((l) => l.items.map((o) => ['Service', o.metadata])),
    core.listServiceAccountForAllNamespaces({ labelSelector }).then((l) => l.items.map((o) => ['ServiceAccount', o.metadata])),
    core.listPersistentVolumeClaimForAllNamespaces({ labelSelector }).then((l) => l.items.map((o) => ['PersistentVolumeClaim', o.metadata])),
    core.listResourceQuotaForAllNamespaces({ labelSelector }).then((l) => l.items.map((o) => ['ResourceQuota', o.metadata])),
    apps.listDeploymentForAllNamespaces({ labelSelector }).then((l) => l.items.map((o) => ['Deployment', o.metadata])),
    net.listNetworkPolicyForAllNamespaces({ labelSelector }).then((l) => l.items.map((o) => ['NetworkPolicy', o.metadata])),
  ]);
  return lists
    .flat()
    .map(([kind, meta]) => `${kind as string} ${(meta as { namespace: string }).namespace}/${(meta as { name: string }).name}`)
    .sort();
}

async function namespaceExists(kc: KubeConfig, name: string): Promise<boolean> {
  try {
    await kc.makeApiClient(CoreV1Api).readNamespace({ name });
    return true;
  } catch (err) {
    if (statusCode(err) === 404) return false;
    throw err;
  }
}

/**
 * Records every namespace call a session's core API makes (read, create, delete, list), passing
 * each through: shared mode must make none (docs/gitlab-behaviour.md#workspace-termination: no namespace permission needed).
 */
function spyNamespaceCalls(s: ClusterSession): string[] {
  const calls: string[] = [];
  const core = s.core as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const method of ['readNamespace', 'createNamespace', 'deleteNamespace', 'listNamespace', 'patchNamespace', 'replaceNamespace']) {
    const original = core[method].bind(s.core);
    core[method] = (...args: unknown[]) => {
      calls.push(method);
      return original(...args);
    };
  }
  return calls;
}

/**
 * The steps of a run with repeats folded: a PVC held by its finalizer stays in the inventory, so
 * whether one or two prune cycles run depends on when the stand-in controller releases it.
 */
function steps(run: { cycles: readonly { step: string }[] }): string[] {
  return run.cycles.map((c) => c.step).filter((step, i, all) => step !== all[i - 1]);
}

/** Unique-mode namespaces are deleted when a test ends, whatever happened. */
function cleanupNamespace(kc: KubeConfig, name: string, t: TestContext): void {
  t.after(() => kc.makeApiClient(CoreV1Api).deleteNamespace({ name }).catch(() => undefined));
}

/** Shared-mode leftovers of a failed test are deleted by label. */
function cleanupShared(kc: KubeConfig, namespace: string, agentId: number, t: TestContext): void {
  t.after(async () => {
    const core = kc.makeApiClient(CoreV1Api);
    const labelSelector = `agent.gitlab.com/id=${agentId}`;
    await Promise.all([
      core.deleteCollectionNamespacedConfigMap({ namespace, labelSelector }),
      core.deleteCollectionNamespacedSecret({ namespace, labelSelector }),
      core.deleteCollectionNamespacedPersistentVolumeClaim({ namespace, labelSelector }),
      core.deleteCollectionNamespacedServiceAccount({ namespace, labelSelector }),
      kc.makeApiClient(AppsV1Api).deleteCollectionNamespacedDeployment({ namespace, labelSelector }),
      kc.makeApiClient(NetworkingV1Api).deleteCollectionNamespacedNetworkPolicy({ namespace, labelSelector }),
    ]).catch(() => undefined);
  });
}

/**
 * A workspace of its own in shared mode (the restricted namespace, restricted identity), with its
 * leftovers deleted by label when the test ends; `pvcStandIn: false` for tests that delete no PVC.
 */
async function sharedWorkspace(t: TestContext, options: { pvcStandIn?: boolean } = {}) {
  const env = await clusterEnv();
  const admin = await kubeConfig('admin');
  if (options.pvcStandIn !== false) standInForPvcProtection(admin, t);
  const ns = env.restrictedNamespace;
  const ws = workspace(ns);
  cleanupShared(admin, ns, ws.agentId, t);
  const restricted = await session('restricted', t);
  const target = { name: ws.name, namespace: ns, mode: 'shared' as const, configToApply: workspaceTerminationConfig(ws) };
  const apply = async () => value(await applyWorkspace(restricted, workspaceConfigToApply(ws), { sharedNamespace: ns }));
  return { env, admin, ns, ws, restricted, target, apply };
}

/**
 * A workspace of its own in unique mode (admin identity), its namespace deleted when the test ends;
 * `pvcStandIn: false` for tests that start the stand-in controller themselves, or delete no PVC.
 */
async function uniqueWorkspace(t: TestContext, options: { pvcStandIn?: boolean } = {}) {
  const admin = await kubeConfig('admin');
  if (options.pvcStandIn !== false) standInForPvcProtection(admin, t);
  const ws = workspace();
  const namespace = `gl-rd-ns-${ws.name}`;
  cleanupNamespace(admin, namespace, t);
  const s = await session('admin', t);
  const target = { name: ws.name, namespace, mode: 'unique' as const, configToApply: workspaceTerminationConfig(ws) };
  const apply = async () => value(await applyWorkspace(s, workspaceConfigToApply(ws)));
  return { admin, ws, namespace, s, target, apply };
}

const EXPECTED_KINDS = ['ConfigMap', 'ConfigMap', 'Deployment', 'NetworkPolicy', 'PersistentVolumeClaim', 'Secret', 'Secret', 'Service', 'ServiceAccount'];

// docs/gitlab-behaviour.md#workspace-termination
test('acceptance criterion 1: shared mode creates every workspace object in the shared namespace and no namespace (restricted identity)', async (t) => {
  const { env, admin, ns, ws, restricted, apply } = await sharedWorkspace(t, { pvcStandIn: false });
  const namespaceCalls = spyNamespaceCalls(restricted);

  const report = await apply();
  assert.equal(report.mode, 'shared');
  assert.equal(report.namespaceCreated, false);
  assert.deepEqual(namespaceCalls, [], 'shared mode does not even look at namespaces');

  const objects = await objectsOfAgent(admin, ws.agentId);
  // docs/gitlab-behaviour.md#workspace-names-and-namespaces
  assert.deepEqual(objects.map((o) => o.split(' ')[0]), EXPECTED_KINDS, 'no ResourceQuota in a shared namespace');
  assert.ok(objects.every((o) => o.includes(` ${env.restrictedNamespace}/`)), `all in ${env.restrictedNamespace}: ${objects.join(', ')}`);
  assert.equal(await namespaceExists(admin, `gl-rd-ns-${ws.name}`), false, 'no workspace namespace was created');

  // docs/gitlab-behaviour.md#inventories: the inventory records its objects, values "".
  const inventory = await admin.makeApiClient(CoreV1Api).readNamespacedConfigMap({ namespace: ns, name: `${ws.name}-workspace-inventory` });
  assert.deepEqual(inventory.data, {
    [`${ns}_${ws.name}-gl-workspace-data__PersistentVolumeClaim`]: '',
    [`${ns}_${ws.name}__Service`]: '',
    [`${ns}_${ws.name}__ServiceAccount`]: '',
    [`${ns}_${ws.name}_apps_Deployment`]: '',
    [`${ns}_${ws.name}_networking.k8s.io_NetworkPolicy`]: '',
  });
  const deployment = await admin.makeApiClient(AppsV1Api).readNamespacedDeployment({ namespace: ns, name: ws.name });
  // docs/gitlab-behaviour.md#inventories
  assert.ok(deployment.metadata?.managedFields?.some((f) => f.manager === 'agentk' && f.operation === 'Apply'), 'applied as agentk');
  assert.equal(deployment.metadata?.labels?.['workspaces.gitlab.com/id'], String(ws.workspaceId));
});

// docs/gitlab-behaviour.md#workspace-termination
test('acceptance criterion 2: shared-mode termination deletes every workspace object and no namespace (restricted identity)', async (t) => {
  const { admin, ns, ws, restricted, target, apply } = await sharedWorkspace(t);
  await apply();
  assert.equal((await objectsOfAgent(admin, ws.agentId)).length, EXPECTED_KINDS.length);
  const namespaceCalls = spyNamespaceCalls(restricted);

  const reports: string[] = [];
  const run = value(await runTermination(restricted, target, { progress: { report: (m) => reports.push(m) }, timeoutMs: 120_000 }));
  assert.equal(run.progress, 'Terminated');
  assert.deepEqual(steps(run), ['prunedObjects', 'deletedInventories', 'nothingLeft']);
  // docs/gitlab-behaviour.md#workspace-termination updateOrSet: Terminating is reported once although two or more cycles were Terminating.
  assert.deepEqual(run.reported, ['Terminating', 'Terminated']);
  assert.deepEqual(reports, [`Workspace ${ws.name} is Terminating`, `Workspace ${ws.name} is Terminated`]);
  assert.deepEqual(await objectsOfAgent(admin, ws.agentId), []);
  assert.deepEqual(namespaceCalls, [], 'no namespace was read or deleted');
  assert.ok(await namespaceExists(admin, ns), 'the shared namespace is still there');
});

// docs/gitlab-behaviour.md#workspace-termination
test('acceptance criterion 3: unique mode creates the namespace gl-rd-ns-<name> and every object in it', async (t) => {
  const { admin, ws, namespace, s, apply } = await uniqueWorkspace(t, { pvcStandIn: false });
  assert.equal(await namespaceExists(admin, namespace), false);
  const namespaceCalls = spyNamespaceCalls(s);

  const report = await apply();
  assert.deepEqual(namespaceCalls, ['readNamespace', 'createNamespace']);
  assert.deepEqual([report.mode, report.namespace, report.namespaceCreated], ['unique', namespace, true]);
  assert.ok(await namespaceExists(admin, namespace), 'the workspace namespace was created');
  const objects = await objectsOfAgent(admin, ws.agentId);
  assert.deepEqual(objects.map((o) => o.split(' ')[0]), [...EXPECTED_KINDS.slice(0, 5), 'ResourceQuota', ...EXPECTED_KINDS.slice(5)]);
  assert.ok(objects.every((o) => o.includes(` ${namespace}/`)));

  // Re-applying the same payload changes nothing and creates no namespace.
  const again = await apply();
  assert.equal(again.namespaceCreated, false);
  assert.deepEqual(again.inventories.flatMap((i) => i.pruned), []);
});

// docs/gitlab-behaviour.md#workspace-termination
test('acceptance criterion 4: unique-mode termination deletes the objects and then the namespace', async (t) => {
  const { admin, ws, namespace, s, target, apply } = await uniqueWorkspace(t);
  await apply();
  const namespaceCalls = spyNamespaceCalls(s);

  const run = value(await runTermination(s, target, { timeoutMs: 120_000 }));
  assert.equal(run.progress, 'Terminated');
  assert.equal(namespaceCalls.filter((c) => c === 'deleteNamespace').length, 1, 'the namespace is deleted once');
  assert.deepEqual(steps(run), ['prunedObjects', 'deletedNamespace', 'nothingLeft']);
  assert.deepEqual(run.reported, ['Terminating', 'Terminated']);
  assert.equal(await namespaceExists(admin, namespace), false, 'the namespace is gone');
  assert.deepEqual(await objectsOfAgent(admin, ws.agentId), []);
});

test('terminating twice: the second run finds nothing and reports Terminated at once', async (t) => {
  const { ns, ws, restricted, target, apply } = await sharedWorkspace(t);
  await apply();
  assert.equal(value(await runTermination(restricted, target)).progress, 'Terminated');

  const second = value(await runTermination(restricted, target));
  assert.deepEqual(second.cycles.map((c) => c.step), ['nothingLeft']);
  assert.deepEqual(second.reported, ['Terminated']);

  // Rails persisted Terminated: the workspace is forgotten, nothing is read or reported.
  const tracker = new TerminationTracker();
  tracker.updateOrSet(ws.name, ns, 'Terminated');
  const forgotten = value(await terminateWorkspace(restricted, { ...target, actualState: 'Terminated' }, tracker));
  assert.equal(forgotten.step, 'forgotten');
  assert.equal(tracker.get(ws.name, ns), undefined);
});

test('termination after a crash half-way (objects partly deleted, inventories still listing them) finishes the job', async (t) => {
  const { admin, ws, namespace, s, target, apply } = await uniqueWorkspace(t);
  await apply();
  // The "crash": some objects were deleted, the inventories were never updated.
  await admin.makeApiClient(AppsV1Api).deleteNamespacedDeployment({ namespace, name: ws.name });
  await admin.makeApiClient(CoreV1Api).deleteNamespacedSecret({ namespace, name: `${ws.name}-env-var` });

  // One cycle prunes the rest; then the process "dies" (a fresh tracker, as after a restart).
  const first = value(await terminateWorkspace(s, target, new TerminationTracker()));
  assert.equal(first.step, 'prunedObjects');
  // Only what this cycle deleted is reported as deleted: not the two objects already gone.
  assert.ok(first.deleted.length > 0);
  for (const gone of [`Deployment ${namespace}/${ws.name}`, `Secret ${namespace}/${ws.name}-env-var`]) assert.ok(!first.deleted.includes(gone), `${gone} was gone before: ${first.deleted.join(', ')}`);
  const run = value(await runTermination(s, target, { timeoutMs: 120_000 }));
  assert.equal(run.progress, 'Terminated');
  assert.deepEqual(steps(run).filter((s) => s !== 'prunedObjects'), ['deletedNamespace', 'nothingLeft']);
  assert.equal(await namespaceExists(admin, namespace), false);
});

// docs/gitlab-behaviour.md#workspace-names-and-namespaces
test('unique-mode termination without config_to_apply uses the two inventories Rails names and refuses a foreign namespace', async (t) => {
  const { admin, ws, namespace, s, apply } = await uniqueWorkspace(t);
  await apply();

  const refused = await runTermination(s, { name: ws.name, namespace: 'kube-system', mode: 'unique' });
  assert.equal(refused.type, 'refused');
  assert.match(isFailure(refused) ? refused.message : '', /refusing to delete namespace kube-system/);

  const run = value(await runTermination(s, { name: ws.name, namespace, mode: 'unique' }, { timeoutMs: 120_000 }));
  assert.equal(run.progress, 'Terminated');
  await waitUntilDeleted(admin, '/api/v1/namespaces', namespace, () => admin.makeApiClient(CoreV1Api).readNamespace({ name: namespace }), 5_000);
});

test('payload errors and the shared-namespace guard stop before anything is written', async (t) => {
  const env = await clusterEnv();
  const restricted = await session('restricted', t);
  const ws = workspace(env.restrictedNamespace);
  const before = restricted.requests.snapshot();

  const noInventory = await applyWorkspace(restricted, workspaceConfigToApply(ws).replaceAll('cli-utils.sigs.k8s.io/inventory-id', 'x-inventory-id'), { sharedNamespace: env.restrictedNamespace });
  assert.deepEqual([noInventory.type, isFailure(noInventory) && noInventory.message], ['invalid', 'no inventory found']);

  const elsewhere = await applyWorkspace(restricted, workspaceConfigToApply(ws), { sharedNamespace: 'another-namespace' });
  assert.equal(elsewhere.type, 'refused');
  assert.match(isFailure(elsewhere) ? elsewhere.message : '', /outside the shared namespace "another-namespace"/);
  assert.equal(restricted.requests.since(before).total, 0, 'not one request was sent');

  // Unique mode as the restricted identity: the namespace cannot be created → a clear 403.
  const forbidden = await applyWorkspace(restricted, workspaceConfigToApply(workspace()));
  assert.equal(forbidden.type, 'forbidden');
});

test('a cluster-scoped object in a payload is refused before anything is written, even when it names the workspace namespace', async (t) => {
  const { ns, ws, restricted } = await sharedWorkspace(t, { pvcStandIn: false });
  // metadata.namespace on a ClusterRole is ignored by the API server: it would be created cluster-wide.
  const payload = [
    workspaceConfigToApply(ws),
    `apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: ${ws.name}-escape\n  namespace: ${ns}\n  annotations:\n    config.k8s.io/owning-inventory: ${ws.name}-workspace-inventory\nrules: []\n`,
  ].join('---\n');
  const before = restricted.requests.snapshot();
  const refused = await applyWorkspace(restricted, payload, { sharedNamespace: ns });
  assert.equal(refused.type, 'refused');
  assert.match(isFailure(refused) ? refused.message : '', new RegExp(`ClusterRole ${ns}/${ws.name}-escape is cluster-scoped; a workspace creates objects only in its namespace`));
  assert.equal(restricted.requests.since(before).writes, 0, 'not even the inventories were written');
});

// docs/gitlab-behaviour.md#workspace-labels-and-annotations, docs/gitlab-behaviour.md#workspace-states
test('listWorkspaces finds Deployments by agent label with Rails’ actual state', async (t) => {
  const { admin, ns, ws, restricted, apply } = await sharedWorkspace(t, { pvcStandIn: false });
  await apply();

  const listed = value(await listWorkspaces(restricted, { agentId: ws.agentId, sharedNamespace: ns }));
  assert.deepEqual(listed, [{ name: ws.name, namespace: ns, agentId: String(ws.agentId), workspaceId: String(ws.workspaceId), mode: 'shared', actualState: 'Unknown', replicas: 1 }]);

  // Play the Deployment controller: the rollout completed with one available replica.
  await admin.makeApiClient(AppsV1Api).patchNamespacedDeploymentStatus(
    {
      namespace: ns,
      name: ws.name,
      body: {
        status: {
          replicas: 1,
          updatedReplicas: 1,
          readyReplicas: 1,
          availableReplicas: 1,
          conditions: [
            { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' },
            { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' },
          ],
        },
      },
    },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
  const running = value(await listWorkspaces(restricted, { agentId: ws.agentId, sharedNamespace: ns }));
  assert.equal(running[0]?.actualState, 'Running');
});

test('CLI twin: agentcfg workspace apply, list and terminate in shared mode as the restricted identity (JSON)', async (t) => {
  const { env, admin, ws } = await sharedWorkspace(t);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-ws-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'apply.yaml'), workspaceConfigToApply(ws));
  writeFileSync(path.join(dir, 'terminate.yaml'), workspaceTerminationConfig(ws));
  const common = ['--kubeconfig', env.kubeconfig, '--context', env.restrictedContext, '--shared-namespace', env.restrictedNamespace, '--format', 'json'];

  const refused = await agentcfgAsync('workspace', 'apply', '--config', path.join(dir, 'apply.yaml'), ...common);
  assert.equal(refused.code, 1, 'changing the cluster needs --yes (or a terminal to confirm on)');
  assert.match(refused.stderr, /Dry run: would apply workspace in shared-namespace mode[\s\S]*Nothing changed: no terminal to confirm on; pass --yes/);
  assert.deepEqual(await objectsOfAgent(admin, ws.agentId), [], 'nothing was written');

  const applied = await agentcfgAsync('workspace', 'apply', '--config', path.join(dir, 'apply.yaml'), '--yes', ...common);
  assert.equal(applied.code, 0, applied.stderr);
  const report = JSON.parse(applied.stdout);
  assert.deepEqual([report.ok, report.mode, report.namespace, report.namespaceCreated], [true, 'shared', env.restrictedNamespace, false]);

  const listed = await agentcfgAsync('workspace', 'list', '--agent-id', String(ws.agentId), ...common);
  assert.deepEqual(JSON.parse(listed.stdout).workspaces.map((w: { name: string }) => w.name), [ws.name]);

  const terminated = await agentcfgAsync('workspace', 'terminate', '--name', ws.name, '--config', path.join(dir, 'terminate.yaml'), '--yes', '--timeout', '120s', ...common);
  assert.equal(terminated.code, 0, terminated.stderr);
  const run = JSON.parse(terminated.stdout);
  assert.deepEqual([run.progress, run.reported], ['Terminated', ['Terminating', 'Terminated']]);
  assert.match(terminated.stderr, new RegExp(`workspace terminate: Workspace ${ws.name} is Terminating\\n.*workspace terminate: Workspace ${ws.name} is Terminated\\n`));
  assert.deepEqual(await objectsOfAgent(admin, ws.agentId), []);

  // A 403 is one message naming the identity, verb, resource and what to do with the CLI's flags, exit status 1.
  writeFileSync(path.join(dir, 'unique.yaml'), workspaceConfigToApply(workspace()));
  const forbidden = await agentcfgAsync('workspace', 'apply', '--config', path.join(dir, 'unique.yaml'), '--yes', '--kubeconfig', env.kubeconfig, '--context', env.restrictedContext);
  assert.equal(forbidden.code, 1);
  assert.match(forbidden.stderr, /^The cluster refused "agentcfg-restricted" \(403 Forbidden\): may not (get|create|patch) namespaces (in namespace gl-rd-ns-ws-\S+|at cluster scope)\. Ask a cluster administrator for this permission, or use a context with more rights \(--context, or --kubeconfig for another kubeconfig\)\.\n/);
});

// docs/gitlab-behaviour.md#inventories
test('re-applying without an object prunes it; objects marked keep or owned elsewhere are left alone; a dry run writes nothing', async (t) => {
  const { admin, ns, ws, restricted, apply } = await sharedWorkspace(t);

  const dry = value(await applyWorkspace(restricted, workspaceConfigToApply(ws), { sharedNamespace: ns, dryRun: true }));
  assert.equal(dry.inventories.flatMap((i) => i.applied).length, 7, 'every object passed the server-side dry-run');
  assert.deepEqual(await objectsOfAgent(admin, ws.agentId), [], 'a dry run creates nothing, not even the inventories');

  await apply();
  const core = admin.makeApiClient(CoreV1Api);
  // The Service asks to be kept; the ServiceAccount now belongs to another inventory.
  await core.patchNamespacedService({ namespace: ns, name: ws.name, body: { metadata: { annotations: { 'cli-utils.sigs.k8s.io/on-remove': 'keep' } } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
  await core.patchNamespacedServiceAccount({ namespace: ns, name: ws.name, body: { metadata: { annotations: { 'config.k8s.io/owning-inventory': 'someone-else' } } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));

  const fewer = workspaceConfigToApply(ws)
    .split('---\n')
    .filter((doc) => !/^kind: (NetworkPolicy|Service|ServiceAccount)$/m.test(doc))
    .join('---\n');
  const report = value(await applyWorkspace(restricted, fewer, { sharedNamespace: ns }));
  const inventory = report.inventories.find((i) => i.inventory.name === `${ws.name}-workspace-inventory`)!;
  assert.deepEqual(inventory.pruned.map((r) => r.kind), ['NetworkPolicy']);
  assert.deepEqual(inventory.abandoned.map((a) => [a.ref.kind, a.reason]).sort(), [
    ['Service', 'not pruned: it is annotated cli-utils.sigs.k8s.io/on-remove: keep'],
    ['ServiceAccount', `not pruned: it is owned by another inventory ('someone-else'), not '${ws.name}-workspace-inventory'`],
  ]);
  const left = await objectsOfAgent(admin, ws.agentId);
  assert.ok(!left.some((o) => o.startsWith('NetworkPolicy ')));
  assert.ok(left.includes(`Service ${ns}/${ws.name}`) && left.includes(`ServiceAccount ${ns}/${ws.name}`));
  const data = (await core.readNamespacedConfigMap({ namespace: ns, name: `${ws.name}-workspace-inventory` })).data ?? {};
  assert.deepEqual(Object.keys(data).sort(), [`${ns}_${ws.name}-gl-workspace-data__PersistentVolumeClaim`, `${ns}_${ws.name}_apps_Deployment`]);
});

test('shared mode, crash between deleting the two inventories: the next run deletes the other and reports Terminated', async (t) => {
  const { admin, ns, ws, restricted, target, apply } = await sharedWorkspace(t);
  await apply();
  const tracker = new TerminationTracker();
  // Cycles until the objects are pruned and both inventories are empty.
  let cycle = value(await terminateWorkspace(restricted, target, tracker));
  while (cycle.step === 'prunedObjects') {
    for (const ref of cycle.waitFor) await waitUntilDeleted(admin, `/api/v1/namespaces/${ns}/persistentvolumeclaims`, ref.name, () => admin.makeApiClient(CoreV1Api).readNamespacedPersistentVolumeClaim({ namespace: ns, name: ref.name }));
    cycle = value(await terminateWorkspace(restricted, target, tracker));
  }
  assert.equal(cycle.step, 'deletedInventories');
  // The "crash": the secrets inventory was never deleted; recreate it empty, as the agent left it.
  await admin.makeApiClient(CoreV1Api).createNamespacedConfigMap({
    namespace: ns,
    body: { metadata: { name: `${ws.name}-secrets-inventory`, labels: { 'cli-utils.sigs.k8s.io/inventory-id': `${ws.name}-secrets-inventory`, 'agent.gitlab.com/id': String(ws.agentId) } } },
  });

  const run = value(await runTermination(restricted, target, { timeoutMs: 60_000 }));
  assert.deepEqual(steps(run), ['deletedInventories', 'nothingLeft']);
  assert.deepEqual(run.reported, ['Terminating', 'Terminated']);
  assert.deepEqual(await objectsOfAgent(admin, ws.agentId), []);
});

test('unique mode, crash after the namespace deletion was requested: the run waits for the namespace controller', async (t) => {
  const { admin, namespace, s, target, apply } = await uniqueWorkspace(t, { pvcStandIn: false });
  await apply();
  // The namespace is being deleted; its PVC's finalizer holds it in Terminating (no stand-in yet).
  await admin.makeApiClient(CoreV1Api).deleteNamespace({ name: namespace });

  const cycle = value(await terminateWorkspace(s, target, new TerminationTracker()));
  assert.deepEqual([cycle.progress, cycle.step, cycle.deleted], ['Terminating', 'deletedNamespace', []], 'nothing is re-created in a terminating namespace');

  standInForPvcProtection(admin, t);
  const run = value(await runTermination(s, target, { timeoutMs: 120_000 }));
  assert.equal(run.progress, 'Terminated');
  assert.equal(await namespaceExists(admin, namespace), false);
});

test('guard: an inventory that lists a system namespace its annotation says it owns is refused as tampered; nothing is deleted', async (t) => {
  const { admin, ws, namespace, s, target, apply } = await uniqueWorkspace(t);
  await apply();
  // As an older agent, or a hand edit, could leave things (applying such a payload is refused now):
  // the workspace inventory lists `default`, and `default` carries that inventory's annotation.
  const inventory = `${ws.name}-workspace-inventory`;
  const core = admin.makeApiClient(CoreV1Api);
  const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
  t.after(() => core.patchNamespace({ name: 'default', body: { metadata: { annotations: { 'config.k8s.io/owning-inventory': null } } } }, mergePatch));
  await core.patchNamespace({ name: 'default', body: { metadata: { annotations: { 'config.k8s.io/owning-inventory': inventory } } } }, mergePatch);
  await core.patchNamespacedConfigMap({ name: inventory, namespace, body: { data: { _default__Namespace: '' } } }, mergePatch);
  const tracked = Object.keys((await core.readNamespacedConfigMap({ name: inventory, namespace })).data ?? {}).sort();

  const run = await runTermination(s, target, { timeoutMs: 120_000 });
  assert.equal(run.type, 'refused');
  assert.equal(
    describeOutcome(run),
    `Refused core/*/Namespace 'default': inventory ${namespace}/${inventory} lists "_default__Namespace", but a workspace never owns cluster-scoped objects; the inventory was changed by hand or by another tool. Nothing is pruned: remove that entry from the inventory ConfigMap first.`,
  );
  assert.equal((await core.readNamespace({ name: 'default' })).status?.phase, 'Active');
  assert.deepEqual(Object.keys((await core.readNamespacedConfigMap({ name: inventory, namespace })).data ?? {}).sort(), tracked, 'the workspace objects are all still tracked');
});

test('re-applying an unchanged workspace applies each object once and writes no inventory; termination reads each inventory once per cycle', async (t) => {
  const { restricted, target, apply } = await sharedWorkspace(t);
  const fresh = restricted.requests.snapshot();
  const report = await apply();
  const objects = report.inventories.flatMap((i) => i.applied).length;
  const first = restricted.requests.since(fresh);
  assert.deepEqual({ writes: first.writes, dryRuns: first.dryRuns }, { writes: objects + report.inventories.length + LOCK_WRITES, dryRuns: 0 }, 'each inventory written once, before its objects exist');

  const again = restricted.requests.snapshot();
  await apply();
  const second = restricted.requests.since(again);
  assert.deepEqual({ writes: second.writes, dryRuns: second.dryRuns }, { writes: objects + LOCK_WRITES, dryRuns: 0 }, 'the stored inventories already list every object');

  // The first cycle prunes through the inventories it has just read (two reads, not four).
  const gets: string[] = [];
  const core = restricted.core as unknown as { readNamespacedConfigMap: (...args: unknown[]) => Promise<unknown> };
  const read = core.readNamespacedConfigMap.bind(restricted.core);
  core.readNamespacedConfigMap = (...args: unknown[]) => {
    gets.push((args[0] as { name: string }).name);
    return read(...args);
  };
  const cycle = value(await terminateWorkspace(restricted, target, new TerminationTracker()));
  assert.equal(cycle.step, 'prunedObjects');
  assert.equal(gets.length, 2, `inventory reads: ${gets.join(', ')}`);
  value(await runTermination(restricted, target, { timeoutMs: 120_000 }));
});
