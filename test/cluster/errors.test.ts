// Cluster errors become clear outcomes, never crashes (issue 5 "Cluster selection and errors"):
// unreachable API server, refused credentials (401), forbidden (403) naming the object, unknown
// context; and the restricted identity's own namespace works end to end.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { executeApply } from '../../server/src/cluster/apply/execute';
import { planApply } from '../../server/src/cluster/apply/plan';
import { executeDestroy } from '../../server/src/cluster/destroy/execute';
import { planDestroy } from '../../server/src/cluster/destroy/plan';
import { describeOutcome } from '../../server/src/cluster/kube/outcome';
import { listContexts, openSession } from '../../server/src/cluster/kube/session';
import { applyOk, environmentScope, expectOk, fixtureTemplate, prepare, testSession, uniqueEnvironmentName } from './environment-support';
import { clusterEnv } from './harness';

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A copy of the test kubeconfig with `edit` applied to its text. */
async function editedKubeconfig(name: string, edit: (text: string) => string): Promise<string> {
  const { kubeconfig } = await clusterEnv();
  const file = path.join(os.tmpdir(), `agentcfg-${name}-${process.pid}.kubeconfig`);
  writeFileSync(file, edit(readFileSync(kubeconfig, 'utf8')));
  return file;
}

test('an unreachable cluster (closed port) is a clear "cannot reach" outcome, not a crash', async () => {
  const port = await closedPort();
  const kubeconfigPath = await editedKubeconfig('closed', (text) => text.replace(/server: https:\/\/127\.0\.0\.1:\d+/g, `server: https://127.0.0.1:${port}`));
  const session = expectOk(openSession({ kubeconfigPath }));
  try {
    const env = prepare(undefined, uniqueEnvironmentName('unreachable'), 'gitlab-agent');
    const plan = await planApply(session, env);
    assert.equal(plan.type, 'unreachable');
    assert.match(describeOutcome(plan), new RegExp(`^Cannot reach the cluster.*ECONNREFUSED.*127\\.0\\.0\\.1:${port}.*Check the context's server address`));
    const destroy = await planDestroy(session, { inventory: env.inventory });
    assert.equal(destroy.type, 'unreachable');
  } finally {
    session.close();
  }
});

test('refused credentials (401) say to log in again', async () => {
  const kubeconfigPath = await editedKubeconfig('badtoken', (text) => text.replace(/token: \S+/g, 'token: expired-token'));
  const session = expectOk(openSession({ kubeconfigPath }));
  try {
    const plan = await planApply(session, prepare(undefined, uniqueEnvironmentName('expired'), 'gitlab-agent'));
    assert.equal(plan.type, 'unauthorized');
    assert.match(describeOutcome(plan), /refused the credentials .*401 Unauthorized.*Log in again or refresh the token/);
  } finally {
    session.close();
  }
});

test('an unknown context or a missing kubeconfig is an outcome naming what exists', async () => {
  const { kubeconfig } = await clusterEnv();
  const unknown = openSession({ kubeconfigPath: kubeconfig, context: 'nope' });
  assert.equal(unknown.type, 'failed');
  assert.match(describeOutcome(unknown), /no context "nope" \(contexts: agentcfg-admin, agentcfg-restricted\)/);
  const missing = openSession({ kubeconfigPath: path.join(os.tmpdir(), 'does-not-exist.kubeconfig') });
  assert.match(describeOutcome(missing), /No kubeconfig found/);
  const contexts = expectOk(listContexts(kubeconfig));
  assert.deepEqual(contexts.map((c) => [c.name, c.current]), [['agentcfg-admin', true], ['agentcfg-restricted', false]]);
});

test('KUBECONFIG with several files merges them, the first definition winning (kubectl rules); the file is never written', async () => {
  const { kubeconfig } = await clusterEnv();
  const before = readFileSync(kubeconfig, 'utf8');
  const second = await editedKubeconfig('second', (text) => text.replace(/current-context: \S+/, 'current-context: agentcfg-restricted').replace(/name: agentcfg-admin\n/g, 'name: other-admin\n'));
  const saved = process.env.KUBECONFIG;
  process.env.KUBECONFIG = [kubeconfig, second].join(path.delimiter);
  try {
    const contexts = expectOk(listContexts());
    assert.equal(contexts.find((c) => c.current)?.name, 'agentcfg-admin', "the first file's current-context wins");
    assert.ok(contexts.some((c) => c.name === 'other-admin'), 'contexts of the second file are added');
    const session = expectOk(openSession({ context: 'agentcfg-admin' }));
    session.close();
  } finally {
    if (saved === undefined) delete process.env.KUBECONFIG;
    else process.env.KUBECONFIG = saved;
  }
  assert.equal(readFileSync(kubeconfig, 'utf8'), before);
});

test('forbidden (403): the restricted identity applying a Namespace is refused before anything changes, naming the object', async (t) => {
  const { restrictedNamespace } = await clusterEnv();
  const session = await testSession(t, 'restricted');
  const env = prepare(undefined, uniqueEnvironmentName('forbidden'), restrictedNamespace);
  const plan = expectOk(await planApply(session, env));
  const forbidden = plan.blocked.filter((b) => b.type === 'forbidden');
  assert.ok(forbidden.length >= 1);
  const message = describeOutcome(forbidden[0]);
  assert.match(message, new RegExp(`^Forbidden on core/v1/Namespace '${env.data.environment.slug}-42-7': .*"agentcfg-restricted" cannot (create|patch|get) resource "namespaces".*Ask a cluster administrator`));
  const result = await executeApply(session, plan);
  assert.notEqual(result.type, 'ok');
  const admin = await testSession(t);
  const inventory = await planDestroy(admin, { inventory: env.inventory });
  assert.equal(expectOk(inventory).inventoryExists, false, 'no inventory was written');
});

test('the restricted identity applies and destroys an environment inside its own namespace', async (t) => {
  const { restrictedNamespace } = await clusterEnv();
  const session = await testSession(t, 'restricted');
  const scope = await environmentScope(t, 'restricted');
  const env = prepare(fixtureTemplate('restricted-namespace.yaml').replaceAll('TARGET-NAMESPACE', restrictedNamespace), uniqueEnvironmentName('own'), restrictedNamespace);
  scope.track(env);
  const { plan } = await applyOk(session, env);
  assert.equal(plan.createsInventoryNamespace, false, 'a namespace the identity cannot read is assumed to exist');
  const destroy = expectOk(await planDestroy(session, { inventory: env.inventory }));
  assert.equal(destroy.deletions.length, 2);
  const result = expectOk(await executeDestroy(session, destroy));
  assert.equal(result.inventoryDeleted, true);
});
