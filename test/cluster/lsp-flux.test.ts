// "Wait for Flux sync" over LSP (stdio, the built server) on the real control plane, the test
// playing the kustomize-controller by patching status (seed 002, spec §6.3/§6.4): progress while
// waiting, success once the revision is applied, the controller's reason on failure.
import assert from 'node:assert/strict';
import { after, before, test, type TestContext } from 'node:test';
import { CustomObjectsApi, PatchStrategy, setHeaderOptions, type KubeConfig } from '@kubernetes/client-node';
import { CLUSTER_COMMANDS, type ExecutionReport } from '../../server/src/lsp/cluster/protocol';
import type { LspTestClient } from '../support/lspClient';
import { clusterEnv, installFluxCrds, kubeConfig, uniqueNamespace, waitFor, type ClusterEnv } from './harness';
import { startClusterServer, type ProgressValue } from './lsp-support';

const REVISION = 'main@sha1:0123456789abcdef0123456789abcdef01234567';
let env: ClusterEnv;
let kc: KubeConfig;
let client: LspTestClient;
let progress: Map<string | number, ProgressValue[]>;

before(async () => {
  env = await clusterEnv();
  kc = await kubeConfig('admin');
  await installFluxCrds(kc);
  ({ client, progress } = await startClusterServer({ trusted: true }));
});
after(async () => {
  await client?.stop();
});

async function kustomization(t: TestContext): Promise<{ namespace: string; setStatus: (status: Record<string, unknown>) => Promise<void> }> {
  const namespace = await uniqueNamespace('lsp-flux', t);
  const custom = kc.makeApiClient(CustomObjectsApi);
  const target = { group: 'kustomize.toolkit.fluxcd.io', version: 'v1', namespace, plural: 'kustomizations' };
  await custom.createNamespacedCustomObject({
    ...target,
    body: { apiVersion: 'kustomize.toolkit.fluxcd.io/v1', kind: 'Kustomization', metadata: { name: 'app' }, spec: { interval: '5m', path: './deploy', prune: true, sourceRef: { kind: 'GitRepository', name: 'app' } } },
  });
  return {
    namespace,
    setStatus: async (status) => {
      await custom.patchNamespacedCustomObjectStatus({ ...target, name: 'app', body: { status } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
    },
  };
}

const condition = (status: string, reason: string, message: string) => ({ type: 'Ready', status, reason, message, lastTransitionTime: new Date().toISOString() });

/** Starts the wait and resolves once the server reports that it is watching (so the patch is seen live). */
async function startWait(namespace: string, timeoutSeconds = 60) {
  const token = `flux-${namespace}`;
  const pending = client.request<{ ok: boolean; kind?: string; message?: string; value?: ExecutionReport }>('workspace/executeCommand', {
    command: CLUSTER_COMMANDS.waitForFluxSync,
    arguments: [{ cluster: { kubeconfigPath: env.kubeconfig, context: env.adminContext }, kind: 'Kustomization', namespace, name: 'app', revision: REVISION, timeoutSeconds }],
    workDoneToken: token,
  });
  await waitFor('the server to report it is watching', async () => (progress.get(token) ?? []).some((v) => v.kind === 'report'));
  return { pending, token };
}

test('reports progress while waiting and succeeds once Ready=True for the revision (spec §6.4)', async (t) => {
  const k = await kustomization(t);
  const { pending, token } = await startWait(k.namespace);
  await k.setStatus({ observedGeneration: 1, lastAppliedRevision: REVISION, conditions: [condition('True', 'ReconciliationSucceeded', `Applied revision: ${REVISION}`)] });
  const result = await pending;
  assert.equal(result.ok, true, JSON.stringify(result));
  assert.match(result.value!.summary, new RegExp(`Kustomization ${k.namespace}/app is Ready`));
  const values = progress.get(token) ?? [];
  assert.equal(values[0]?.kind, 'begin');
  assert.equal(values.at(-1)?.kind, 'end');
});

test('a failing reconciliation ends the wait with the controller\'s reason', async (t) => {
  const k = await kustomization(t);
  const { pending } = await startWait(k.namespace);
  await k.setStatus({ observedGeneration: 1, lastAttemptedRevision: REVISION, conditions: [condition('False', 'BuildFailed', 'kustomize build failed: missing resource')] });
  const result = await pending;
  assert.equal(result.ok, false, JSON.stringify(result));
  assert.match(result.message ?? '', /BuildFailed/);
  assert.match(result.message ?? '', /kustomize build failed: missing resource/);
});

test('the timeout is enforced and says what was last seen', async (t) => {
  const k = await kustomization(t);
  const { pending } = await startWait(k.namespace, 2);
  const result = await pending;
  assert.equal(result.ok, false);
  assert.equal(result.kind, 'timeout', JSON.stringify(result));
  assert.match(result.message ?? '', /Timed out/);
});
