// Cluster commands over LSP (stdio, the built server): workspace trust gating and the kubeconfig
// contexts for the context picker, read from the real test cluster's kubeconfig.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { CLUSTER_COMMANDS, WORKSPACE_TRUST_NOTIFICATION, type ContextList } from '../../server/src/protocol/cluster';
import type { LspTestClient } from '../support/lspClient';
import { clusterEnv, type ClusterEnv } from './harness';
import { execute, startClusterServer } from './lsp-support';

let env: ClusterEnv;
const clients: LspTestClient[] = [];

before(async () => {
  env = await clusterEnv();
});
after(async () => {
  await Promise.all(clients.map((c) => c.stop()));
});

async function server(trusted: boolean | undefined): Promise<LspTestClient> {
  const { client } = await startClusterServer({ trusted });
  clients.push(client);
  return client;
}

test('an unknown command id is refused by name', async () => {
  const client = await server(true);
  const { result } = await execute(client, 'gitlabAgentConfig.server.cluster.noSuchCommand' as never, {});
  assert.equal(result.ok, false);
  assert.match(!result.ok ? result.message : '', /Unknown command gitlabAgentConfig\.server\.cluster\.noSuchCommand/);
});

test('an untrusted client is refused with a message that says how to enable cluster commands', async () => {
  for (const trusted of [false, undefined]) {
    const client = await server(trusted);
    const { result } = await execute<ContextList>(client, CLUSTER_COMMANDS.listContexts, { kubeconfigPath: env.kubeconfig });
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.kind, 'untrusted');
    assert.match(!result.ok ? result.message : '', /not trusted.*Trust the workspace/);
  }
});

test('trust granted after start-up (the client notification) enables the commands', async () => {
  const client = await server(false);
  await client.connection.sendNotification(WORKSPACE_TRUST_NOTIFICATION, { trusted: true });
  const { result } = await execute<ContextList>(client, CLUSTER_COMMANDS.listContexts, { kubeconfigPath: env.kubeconfig });
  assert.equal(result.ok, true, JSON.stringify(result));
});

test('listContexts returns the contexts of the given kubeconfig, without modifying it', async () => {
  const before = readFileSync(env.kubeconfig, 'utf8');
  const client = await server(true);
  const { result } = await execute<ContextList>(client, CLUSTER_COMMANDS.listContexts, { kubeconfigPath: env.kubeconfig });
  assert.ok(result.ok, JSON.stringify(result));
  const names = result.value.contexts.map((c) => c.name);
  assert.ok(names.includes(env.adminContext) && names.includes(env.restrictedContext), names.join(', '));
  assert.equal(result.value.source, env.kubeconfig);
  assert.ok(result.value.contexts.every((c) => c.server?.startsWith('https://127.0.0.1:')));
  assert.equal(readFileSync(env.kubeconfig, 'utf8'), before, 'the kubeconfig file is never written');
});

test('without a kubeconfig path the server reads KUBECONFIG (the editor\'s environment)', async () => {
  const saved = process.env.KUBECONFIG;
  process.env.KUBECONFIG = env.kubeconfig; // the spawned server inherits it, as from VS Code
  let client: LspTestClient;
  try {
    client = await server(true);
  } finally {
    if (saved === undefined) delete process.env.KUBECONFIG;
    else process.env.KUBECONFIG = saved;
  }
  const { result } = await execute<ContextList>(client, CLUSTER_COMMANDS.listContexts, {});
  assert.ok(result.ok, JSON.stringify(result));
  assert.equal(result.value.source, env.kubeconfig);
  assert.ok(result.value.contexts.some((c) => c.name === env.adminContext));
});

test('a missing kubeconfig is a clear failure, not a crash', async () => {
  const client = await server(true);
  const { result } = await execute<ContextList>(client, CLUSTER_COMMANDS.listContexts, { kubeconfigPath: '/nonexistent/kubeconfig' });
  assert.equal(result.ok, false);
  assert.match(!result.ok ? result.message : '', /No kubeconfig found \(looked at \/nonexistent\/kubeconfig\)/);
});

test('malformed arguments name the field', async () => {
  const client = await server(true);
  const { result } = await execute<ContextList>(client, CLUSTER_COMMANDS.listContexts, { kubeconfigPath: 42 });
  assert.equal(!result.ok && result.kind, 'invalidArguments');
  assert.match(!result.ok ? result.message : '', /"kubeconfigPath" must be a string/);
});
