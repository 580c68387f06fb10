// Acceptance smoke test of the test control plane, through @kubernetes/client-node only:
// namespaces, objects, server-side apply, namespace finalization by the controller manager, RBAC of
// the restricted identity, owner-reference garbage collection, and the Flux CRDs with their status.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  type V1Deployment,
} from '@kubernetes/client-node';
import {
  clusterEnv,
  installFluxCrds,
  kubeConfig,
  statusCode,
  uniqueNamespace,
  waitFor,
  waitUntilDeleted,
} from './harness';

const FIELD_MANAGER = 'agentcfg-smoke';
const applyOptions = setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply);

test('creates a namespace and a ConfigMap in it', async (t) => {
  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
  const namespace = await uniqueNamespace('smoke-cm', t);
  await core.createNamespacedConfigMap({
    namespace,
    body: { metadata: { name: 'settings' }, data: { greeting: 'hello' } },
  });
  const read = await core.readNamespacedConfigMap({ namespace, name: 'settings' });
  assert.equal(read.data?.greeting, 'hello');
  // The root-ca-certificate-publisher controller runs: every namespace gets the cluster CA.
  await waitFor('kube-root-ca.crt in the new namespace', async () =>
    (await core.readNamespacedConfigMap({ namespace, name: 'kube-root-ca.crt' })).data?.['ca.crt']);
});

test('server-side applies a Deployment, and a second apply by another manager conflicts', async (t) => {
  const apps = (await kubeConfig('admin')).makeApiClient(AppsV1Api);
  const namespace = await uniqueNamespace('smoke-ssa', t);
  const deployment = (replicas: number): V1Deployment => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace, labels: { app: 'web' } },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
    },
  });
  const applied = await apps.patchNamespacedDeployment(
    { name: 'web', namespace, body: deployment(2), fieldManager: FIELD_MANAGER, force: true },
    applyOptions,
  );
  assert.equal(applied.spec?.replicas, 2);
  assert.ok(
    applied.metadata?.managedFields?.some((f) => f.manager === FIELD_MANAGER && f.operation === 'Apply'),
    'the apply is recorded under our field manager',
  );

  // Another manager changing a field we own, without force: 409 Conflict, as kubectl --server-side.
  await assert.rejects(
    apps.patchNamespacedDeployment({ name: 'web', namespace, body: deployment(3), fieldManager: 'someone-else' }, applyOptions),
    (err: unknown) => statusCode(err) === 409,
  );
  // Re-applying our own desired state is idempotent.
  const again = await apps.patchNamespacedDeployment(
    { name: 'web', namespace, body: deployment(2), fieldManager: FIELD_MANAGER, force: true },
    applyOptions,
  );
  assert.equal(again.metadata?.generation, applied.metadata?.generation);
});

test('a deleted namespace is finalized by the controller manager and disappears', async () => {
  const kc = await kubeConfig('admin');
  const core = kc.makeApiClient(CoreV1Api);
  const name = `smoke-delete-${Date.now().toString(36)}`;
  await core.createNamespace({ body: { metadata: { name, labels: { 'agentcfg.test/ephemeral': 'true' } } } });
  await core.createNamespacedConfigMap({ namespace: name, body: { metadata: { name: 'content' }, data: { a: 'b' } } });

  await core.deleteNamespace({ name });
  // Until the namespace controller has emptied it, the namespace stays, Terminating.
  const terminating = await core.readNamespace({ name }).catch((err: unknown) => {
    if (statusCode(err) === 404) return undefined; // already finalized
    throw err;
  });
  if (terminating) assert.equal(terminating.status?.phase, 'Terminating');
  await waitUntilDeleted(kc, '/api/v1/namespaces', name, () => core.readNamespace({ name }));
  await assert.rejects(core.readNamespace({ name }), (err: unknown) => statusCode(err) === 404);
});

test('the garbage collector deletes dependents of a deleted owner', async (t) => {
  const kc = await kubeConfig('admin');
  const core = kc.makeApiClient(CoreV1Api);
  const namespace = await uniqueNamespace('smoke-gc', t);
  const owner = await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'owner' } } });
  await core.createNamespacedConfigMap({
    namespace,
    body: {
      metadata: {
        name: 'dependent',
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid! }],
      },
    },
  });
  await core.deleteNamespacedConfigMap({ namespace, name: 'owner' });
  await waitUntilDeleted(kc, `/api/v1/namespaces/${namespace}/configmaps`, 'dependent', () =>
    core.readNamespacedConfigMap({ namespace, name: 'dependent' }),
  );
});

test('the restricted identity gets 403 creating a namespace but manages its own namespace', async () => {
  const env = await clusterEnv();
  const core = (await kubeConfig('restricted')).makeApiClient(CoreV1Api);
  await assert.rejects(
    core.createNamespace({ body: { metadata: { name: `smoke-forbidden-${Date.now().toString(36)}` } } }),
    (err: unknown) => statusCode(err) === 403,
  );
  await assert.rejects(core.deleteNamespace({ name: env.restrictedNamespace }), (err: unknown) => statusCode(err) === 403);
  await assert.rejects(core.listNamespacedConfigMap({ namespace: 'default' }), (err: unknown) => statusCode(err) === 403);

  const name = `smoke-allowed-${Date.now().toString(36)}`;
  await core.createNamespacedConfigMap({ namespace: env.restrictedNamespace, body: { metadata: { name }, data: { ok: 'yes' } } });
  await core.deleteNamespacedConfigMap({ namespace: env.restrictedNamespace, name });
});

test('Flux CRDs install; a Kustomization is created and its status patched', async (t) => {
  const kc = await kubeConfig('admin');
  const kinds = await installFluxCrds(kc);
  assert.deepEqual(
    kinds.map((k) => k.kind).sort(),
    ['Alert', 'Bucket', 'GitRepository', 'HelmChart', 'HelmRelease', 'HelmRepository', 'Kustomization', 'OCIRepository', 'Provider', 'Receiver'],
  );
  const custom = kc.makeApiClient(CustomObjectsApi);
  const namespace = await uniqueNamespace('smoke-flux', t);
  const target = { group: 'kustomize.toolkit.fluxcd.io', version: 'v1', namespace, plural: 'kustomizations' };
  await custom.createNamespacedCustomObject({
    ...target,
    body: {
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name: 'app' },
      spec: { interval: '5m', path: './deploy', prune: true, sourceRef: { kind: 'OCIRepository', name: 'app' } },
    },
  });
  // Play the kustomize-controller: report readiness through the status subresource.
  const patched = await custom.patchNamespacedCustomObjectStatus(
    {
      ...target,
      name: 'app',
      body: {
        status: {
          observedGeneration: 1,
          conditions: [{ type: 'Ready', status: 'True', reason: 'ReconciliationSucceeded', message: 'Applied revision: latest', lastTransitionTime: new Date().toISOString() }],
        },
      },
    },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
  assert.equal(patched.status.conditions[0].reason, 'ReconciliationSucceeded');
  const read = await custom.getNamespacedCustomObject({ ...target, name: 'app' });
  assert.equal(read.status.conditions[0].status, 'True');
  assert.equal(read.spec.path, './deploy', 'the status patch leaves spec alone');
});
