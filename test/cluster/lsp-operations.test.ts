// Long cluster operations over LSP (stdio, the built server, the real control plane): `$/progress`
// arrives for the client's workDoneToken (begin → reports → end), `$/cancelRequest` stops an
// operation cleanly with a "cancelled" result, the server's own cancellable progress
// (window/workDoneProgress/create + cancel) does the same, and the server keeps serving afterwards.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import { CancellationTokenSource } from 'vscode-jsonrpc';
import { INVENTORY_ID_LABEL, OWNING_INVENTORY_ANNOTATION } from '../../server/src/cluster/inventory/configMap';
import { CLUSTER_COMMANDS, type ClusterCommandResult, type ClusterInventory, type ContextList, type ExecutionReport } from '../../server/src/protocol/cluster';
import { statusCode, uniqueNamespace, waitFor } from './harness';
import { execute, trustedServerForFile } from './lsp-support';

const HOLD_FINALIZER = 'agentcfg.test/hold';
const server = trustedServerForFile();

/**
 * A unique-mode workspace namespace `gl-rd-ns-<name>` (docs/gitlab-behaviour.md#workspace-names-and-namespaces) holding one
 * ConfigMap and, when asked, the workspace's Deployment, both tracked by the workspace's inventory.
 */
async function workspaceNamespace(label: string, options: { held?: boolean; deployment?: boolean } = {}): Promise<{ name: string; namespace: string }> {
  const namespace = await uniqueNamespace(`gl-rd-ns-${label}`);
  const name = namespace.slice('gl-rd-ns-'.length);
  const inventory = `${name}-workspace-inventory`;
  const annotations = { [OWNING_INVENTORY_ANNOTATION]: inventory };
  const core = server.kc.makeApiClient(CoreV1Api);
  await core.createNamespacedConfigMap({
    namespace,
    body: { metadata: { name: 'workspace-data', annotations, ...(options.held ? { finalizers: [HOLD_FINALIZER] } : {}) }, data: { a: 'b' } },
  });
  const data: Record<string, string> = { [`${namespace}_workspace-data__ConfigMap`]: '' };
  if (options.deployment) {
    // The workspace Deployment agentk's informer would see (docs/gitlab-behaviour.md#workspace-labels-and-annotations): the tree view lists it.
    await server.kc.makeApiClient(AppsV1Api).createNamespacedDeployment({
      namespace,
      body: {
        metadata: { name, labels: { 'agent.gitlab.com/id': '7' }, annotations },
        spec: { replicas: 0, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'dev', image: 'busybox' }] } } },
      },
    });
    data[`${namespace}_${name}_apps_Deployment`] = '';
  }
  await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: inventory, labels: { [INVENTORY_ID_LABEL]: inventory } }, data } });
  return { name, namespace };
}

async function release(namespace: string): Promise<void> {
  const core = server.kc.makeApiClient(CoreV1Api);
  try {
    const cm = await core.readNamespacedConfigMap({ namespace, name: 'workspace-data' });
    await core.replaceNamespacedConfigMap({ namespace, name: 'workspace-data', body: { ...cm, metadata: { ...cm.metadata, finalizers: [] } } });
  } catch (err) {
    if (statusCode(err) !== 404) throw err;
  }
}

const cluster = () => ({ kubeconfigPath: server.env.kubeconfig, context: server.env.adminContext });

// docs/gitlab-behaviour.md#workspace-termination
test('terminate workspace reports $/progress for the client token: begin, Terminating, Terminated, end', async () => {
  const ws = await workspaceNamespace('progress', { deployment: true });
  const listed = await execute<ClusterInventory>(server.client, CLUSTER_COMMANDS.listClusterObjects, { cluster: cluster() });
  assert.ok(listed.result.ok, JSON.stringify(listed.result));
  const row = listed.result.value.workspaces.find((w) => w.name === ws.name);
  assert.deepEqual(row && { name: row.name, namespace: row.namespace, mode: row.mode }, { name: ws.name, namespace: ws.namespace, mode: 'unique' });
  // The preview reads only: what the first step would delete (the tracked objects); the namespace stays.
  const preview = await execute<ExecutionReport>(server.client, CLUSTER_COMMANDS.terminateWorkspace, { cluster: cluster(), name: ws.name, namespace: ws.namespace, mode: 'unique', dryRun: true });
  assert.ok(preview.result.ok, JSON.stringify(preview.result));
  assert.deepEqual(preview.result.value.lines.map((l) => l.object), [`Deployment ${ws.namespace}/${ws.name}`, `ConfigMap ${ws.namespace}/workspace-data`]);
  assert.equal((await server.kc.makeApiClient(CoreV1Api).readNamespace({ name: ws.namespace })).status?.phase, 'Active');

  const { result, token } = await execute<ExecutionReport>(server.client, CLUSTER_COMMANDS.terminateWorkspace, { cluster: cluster(), name: ws.name, namespace: ws.namespace, mode: 'unique' });
  assert.ok(result.ok, JSON.stringify(result));
  assert.match(result.value.summary, new RegExp(`Workspace ${ws.name} is Terminated; progress reported: Terminating → Terminated`));
  assert.deepEqual(
    result.value.lines.map((l) => l.object),
    [`Deployment ${ws.namespace}/${ws.name}`, `ConfigMap ${ws.namespace}/workspace-data`, `Namespace ${ws.namespace}`],
    'the tracked objects, then the namespace',
  );

  const values = server.progress.get(token) ?? [];
  assert.equal(values[0]?.kind, 'begin');
  assert.equal(values[0]?.kind === 'begin' && values[0].title, `Terminating workspace ${ws.name}`);
  assert.equal(values[0]?.kind === 'begin' && values[0].cancellable, true);
  const messages = values.filter((v) => v.kind === 'report').map((v) => v.message);
  assert.deepEqual(messages, [`Workspace ${ws.name} is Terminating`, `Workspace ${ws.name} is Terminated`], 'each progress value once, only when it changes');
  assert.equal(values.at(-1)?.kind, 'end');
  await assert.rejects(server.kc.makeApiClient(CoreV1Api).readNamespace({ name: ws.namespace }), (err: unknown) => statusCode(err) === 404);
});

test('$/cancelRequest stops a termination that is waiting, with a "cancelled" result, and the server keeps serving', async () => {
  const ws = await workspaceNamespace('cancel', { held: true });
  try {
    const token = 'cancel-me';
    const source = new CancellationTokenSource();
    const pending = server.client.connection.sendRequest<ClusterCommandResult<ExecutionReport>>(
      'workspace/executeCommand',
      { command: CLUSTER_COMMANDS.terminateWorkspace, arguments: [{ cluster: cluster(), name: ws.name, namespace: ws.namespace, mode: 'unique' }], workDoneToken: token },
      source.token,
    );
    // The namespace cannot go (a finalizer holds its ConfigMap): the run waits, reporting Terminating.
    await waitFor('the Terminating progress report', async () => (server.progress.get(token) ?? []).some((v) => v.kind === 'report' && v.message?.endsWith('Terminating')));
    source.cancel();
    const result = await pending;
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.kind, 'cancelled');
    assert.match(!result.ok ? result.message : '', /^Cancelled.*Running the operation again finishes it\./);
    assert.equal(server.progress.get(token)?.at(-1)?.kind, 'end', 'the progress is closed');
    const { result: after } = await execute<ContextList>(server.client, CLUSTER_COMMANDS.listContexts, { kubeconfigPath: server.env.kubeconfig });
    assert.equal(after.ok, true);
  } finally {
    await release(ws.namespace);
  }
});

test('without a workDoneToken the server creates a cancellable progress; its Cancel stops the operation', async () => {
  const ws = await workspaceNamespace('servercancel', { held: true });
  const created: (string | number)[] = [];
  server.client.connection.onRequest('window/workDoneProgress/create', (params: { token: string | number }) => {
    created.push(params.token);
    return null;
  });
  try {
    const pending = server.client.request<ClusterCommandResult<ExecutionReport>>('workspace/executeCommand', {
      command: CLUSTER_COMMANDS.terminateWorkspace,
      arguments: [{ cluster: cluster(), name: ws.name, namespace: ws.namespace, mode: 'unique' }],
    });
    const token = await waitFor('the server to report Terminating on its own progress', async () => {
      const own = created.at(-1);
      return own !== undefined && (server.progress.get(own) ?? []).some((v) => v.kind === 'report' && v.message?.endsWith('Terminating')) ? own : undefined;
    });
    const begin = server.progress.get(token)?.[0];
    assert.ok(begin?.kind === 'begin' && begin.cancellable === true, 'the server-created progress offers Cancel');
    await server.client.connection.sendNotification('window/workDoneProgress/cancel', { token });
    const result = await pending;
    assert.equal(!result.ok && result.kind, 'cancelled', JSON.stringify(result));
  } finally {
    await release(ws.namespace);
  }
});
