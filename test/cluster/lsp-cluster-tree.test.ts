// The Cluster view's state for a real listing over LSP (the built server, the real control plane):
// one coherent state per cluster — never "No managed environments" beside a 403 for the
// same list — and every 403 in it one sentence naming the identity refused, the verb, the resource
// and where, with what to do in the editor (no CLI flag). The rows are what the tree shows
// (client/src/cluster/clusterTreeRows.ts, which the tree renders as is).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { groupRows, topRows, type ClusterRow } from '../../client/src/cluster/clusterTreeRows';
import { CLUSTER_COMMANDS, type ClusterInventory } from '../../server/src/protocol/cluster';
import { execute, trustedServerForFile } from './lsp-support';

const server = trustedServerForFile();

async function list(context: string, agentNamespace?: string): Promise<ClusterInventory> {
  const { result } = await execute<ClusterInventory>(server.client, CLUSTER_COMMANDS.listClusterObjects, {
    cluster: { kubeconfigPath: server.env.kubeconfig, context },
    ...(agentNamespace ? { agentNamespace } : {}),
  });
  assert.ok(result.ok, JSON.stringify(result));
  return result.value;
}

/** Every row the tree would show, groups expanded, as text. */
function shown(listing: ClusterInventory): string[] {
  const text = (row: ClusterRow): string => (row.type === 'message' ? row.text : row.type === 'group' ? `[${row.label}]` : row.type);
  return topRows(listing).flatMap((row) => [text(row), ...(row.type === 'group' ? groupRows(listing, row.label).map((r) => `  ${text(r)}`) : [])]);
}

const REFUSED = /The cluster refused "agentcfg-restricted" \(403 Forbidden\): may not list \S+ (in namespace \S+|at cluster scope)\. Ask a cluster administrator for this permission, or select a context with more rights \(click the cluster context in the status bar\)\./;

test('an identity that may read neither list: the tree says why, once per reason, with no group claiming "none"', async () => {
  // gitlab-agent is the default agent namespace; the restricted identity may not list anything there.
  const listing = await list(server.env.restrictedContext, 'gitlab-agent');
  const rows = shown(listing);
  assert.ok(rows.length >= 1 && rows.length <= 2, rows.join('\n'));
  for (const row of rows) {
    assert.match(row, /^Cannot list (environments|workspaces|environments or workspaces): /);
    assert.match(row, REFUSED);
    assert.doesNotMatch(row, /--kubeconfig|--context|Pass /);
  }
  assert.ok(!rows.some((r) => /^\s*No (managed environments|workspaces)/.test(r)), rows.join('\n'));
});

test('an identity that may list only its own namespace: the environments say where they were looked for; the workspaces why they could not be', async () => {
  const listing = await list(server.env.restrictedContext, server.env.restrictedNamespace);
  const rows = shown(listing);
  assert.equal(rows[0], '[Environments]');
  assert.match(rows[1], new RegExp(`^  (environment|No managed environments in namespace ${server.env.restrictedNamespace} \\(this context may not list the other namespaces\\))$`));
  const workspaces = rows.indexOf('[Workspaces]');
  assert.ok(workspaces > 1, rows.join('\n'));
  const under = rows.slice(workspaces + 1);
  // One state for the list: the workspaces found, that none was found, or the 403 — never two of them.
  assert.ok(under.every((r) => r === '  workspace') || (under.length === 1 && (under[0] === '  No workspaces' || REFUSED.test(under[0]))), under.join('\n'));
});

test('the administrator: both lists, each in one state', async () => {
  const rows = shown(await list(server.env.adminContext, 'gitlab-agent'));
  assert.equal(rows[0], '[Environments]');
  assert.ok(rows.includes('[Workspaces]'));
  assert.ok(!rows.some((r) => /Cannot list|refused/.test(r)), rows.join('\n'));
});
