// "Wait for Flux sync" over LSP (stdio, the built server) on the real control plane, the test
// playing the kustomize-controller by patching status (docs/gitlab-behaviour.md#waiting-for-flux-from-a-job, docs/gitlab-behaviour.md#flux-revision-formats, docs/gitlab-behaviour.md#flux-readiness): progress while
// waiting, success once the revision is applied, the controller's reason on failure.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { CLUSTER_COMMANDS, type ExecutionReport } from '../../server/src/protocol/cluster';
import { installFluxCrds, uniqueNamespace, waitFor } from './harness';
import { trustedServerForFile } from './lsp-support';

const REVISION = 'main@sha1:0123456789abcdef0123456789abcdef01234567';
const server = trustedServerForFile(installFluxCrds);

async function kustomization(t: TestContext): Promise<{ namespace: string; setStatus: (status: Record<string, unknown>) => Promise<void> }> {
  const namespace = await uniqueNamespace('lsp-flux', t);
  const custom = server.kc.makeApiClient(CustomObjectsApi);
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
  const pending = server.client.request<{ ok: boolean; kind?: string; message?: string; value?: ExecutionReport }>('workspace/executeCommand', {
    command: CLUSTER_COMMANDS.waitForFluxSync,
    arguments: [{ cluster: { kubeconfigPath: server.env.kubeconfig, context: server.env.adminContext }, kind: 'Kustomization', namespace, name: 'app', revision: REVISION, timeoutSeconds }],
    workDoneToken: token,
  });
  await waitFor('the server to report it is watching', async () => (server.progress.get(token) ?? []).some((v) => v.kind === 'report'));
  return { pending, token };
}

// docs/gitlab-behaviour.md#flux-readiness
test('reports progress while waiting and succeeds once Ready=True for the revision', async (t) => {
  const k = await kustomization(t);
  const { pending, token } = await startWait(k.namespace);
  await k.setStatus({ observedGeneration: 1, lastAppliedRevision: REVISION, conditions: [condition('True', 'ReconciliationSucceeded', `Applied revision: ${REVISION}`)] });
  const result = await pending;
  assert.equal(result.ok, true, JSON.stringify(result));
  assert.match(result.value!.summary, new RegExp(`Kustomization ${k.namespace}/app is Ready`));
  const values = server.progress.get(token) ?? [];
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
