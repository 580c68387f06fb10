// The RBAC section of the hover on `default_namespace:` and `access_as:`, over LSP with
// the built server and the real control plane: the cluster the client names (initializationOptions,
// then the clusterTarget notification) is asked; without one, or untrusted, nothing is said.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { CLUSTER_TARGET_NOTIFICATION } from '../../server/src/protocol/cluster';
import { agentConfigUri, LspTestClient } from '../support/lspClient';
import { clusterEnv, kubeConfig, uniqueNamespace } from './harness';

const clients: LspTestClient[] = [];
after(async () => {
  await Promise.all(clients.map((c) => c.stop()));
});

async function start(initializationOptions: unknown): Promise<LspTestClient> {
  const client = await LspTestClient.start({ initializationOptions });
  clients.push(client);
  return client;
}

async function hoverText(client: LspTestClient, uri: string, text: string, needle: string): Promise<string> {
  const offset = text.indexOf(needle);
  const line = text.slice(0, offset).split('\n').length - 1;
  const character = offset - text.lastIndexOf('\n', offset - 1) - 1 + 1;
  const hover = (await client.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line, character } })) as { contents: { value: string } } | null;
  return hover?.contents.value ?? '';
}

test('hover on default_namespace and access_as: what the cluster says the job may do there; nothing without a cluster', async (t) => {
  const env = await clusterEnv();
  const namespace = await uniqueNamespace('rbac-hover', t);
  const rbac = (await kubeConfig('admin')).makeApiClient(RbacAuthorizationV1Api);
  await rbac.createNamespacedRole({ namespace, body: { metadata: { name: 'deployer' }, rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'create', 'patch'] }] } });
  await rbac.createNamespacedRoleBinding({ namespace, body: { metadata: { name: 'deployer' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'deployer' }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'gitlab:ci_job' }] } });
  const text = `ci_access:\n  projects:\n    - id: acme/shop\n      default_namespace: ${namespace}\n      access_as:\n        ci_job: {}\n`;
  const uri = agentConfigUri(`rbac-hover-${Date.now().toString(36)}`);

  const client = await start({ workspaceTrusted: true, cluster: { kubeconfigPath: env.kubeconfig, context: env.adminContext } });
  await client.open(uri, text);
  const onNamespace = await hoverText(client, uri, text, 'default_namespace');
  assert.match(onNamespace, /\*\*What the job may do in the cluster\*\* \(SubjectAccessReview, context `agentcfg-admin`\)/);
  assert.match(onNamespace, new RegExp(`in ${namespace} as ci_job: can deploy, cannot read secrets`));
  assert.match(onNamespace, /\(not counting [^)]*gitlab:project:<project id>[^)]*: their ids are unknown, so they may allow more\)/, 'groups with unknown ids are named, not guessed');
  const onAccessAs = await hoverText(client, uri, text, 'access_as');
  assert.match(onAccessAs, /can deploy/);

  // The client selects a context that may not ask: said, not guessed.
  await client.connection.sendNotification(CLUSTER_TARGET_NOTIFICATION, { cluster: { kubeconfigPath: env.kubeconfig, context: env.restrictedContext } });
  const refused = await hoverText(client, uri, text, 'default_namespace');
  assert.match(refused, /the cluster cannot answer — .*refused "agentcfg-restricted" \(403 Forbidden\): may not create subjectaccessreviews\.authorization\.k8s\.io at cluster scope, so the cluster cannot say what the job may do\./);
  assert.doesNotMatch(refused, /--context|--kubeconfig/, 'the editor names no CLI flag');
  assert.doesNotMatch(refused, /can deploy/);

  await client.connection.sendNotification(CLUSTER_TARGET_NOTIFICATION, { cluster: null });
  assert.doesNotMatch(await hoverText(client, uri, text, 'default_namespace'), /What the job may do/);

  const untrusted = await start({ workspaceTrusted: false, cluster: { kubeconfigPath: env.kubeconfig, context: env.adminContext } });
  await untrusted.open(uri, text);
  const said = await hoverText(untrusted, uri, text, 'default_namespace');
  assert.match(said, /Resolved namespace per scenario/);
  assert.doesNotMatch(said, /What the job may do/);
});
