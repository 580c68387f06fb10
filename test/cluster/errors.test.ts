// Cluster errors become clear outcomes, never crashes:
// unreachable API server, refused credentials (401), forbidden (403) naming the object, unknown
// context; TLS and client-credential problems named as such (not as "cannot reach"); and the
// restricted identity's own namespace works end to end.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { parse, stringify } from 'yaml';
import { executeApply } from '../../server/src/cluster/apply/execute';
import { planApply } from '../../server/src/cluster/apply/plan';
import { executeDestroy } from '../../server/src/cluster/destroy/execute';
import { planDestroy } from '../../server/src/cluster/destroy/plan';
import { describeOutcome } from '../../server/src/cluster/kube/outcome';
import { listContexts, openSession } from '../../server/src/cluster/kube/session';
import { CLI_ADVICE, EDITOR_ADVICE } from '../../server/src/cluster/kube/advice';
import { applyOk, environmentScope, expectOk, fixtureTemplate, prepare, testSession, uniqueEnvironmentName } from './environment-support';
import { clusterEnv } from './harness';
import { agentcfg } from '../support/cli';

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
  // One sentence: who was refused, the verb, the resource and where, and what to do (no CLI flag in the editor's words).
  assert.match(message, new RegExp(`^The cluster refused "agentcfg-restricted" \\(403 Forbidden\\): may not (create|patch|get) namespaces (in namespace ${env.data.environment.slug}-42-7|at cluster scope)\\. Ask a cluster administrator for this permission, or use a kubeconfig context with more rights\\.$`));
  assert.doesNotMatch(describeOutcome(forbidden[0], EDITOR_ADVICE), /--/);
  assert.match(describeOutcome(forbidden[0], CLI_ADVICE), /\(--context, or --kubeconfig for another kubeconfig\)\.$/);
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

const tlsDir = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-tls-'));
after(() => rmSync(tlsDir, { recursive: true, force: true }));

/** A fresh self-signed certificate and its key (PEM files), made with openssl. */
function selfSigned(name: string): { cert: string; key: string } {
  const cert = path.join(tlsDir, `${name}.crt`);
  const key = path.join(tlsDir, `${name}.key`);
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-subj', `/CN=agentcfg-${name}`, '-days', '2'], { stdio: 'ignore' });
  return { cert, key };
}

interface KubeconfigDoc {
  clusters: { name: string; cluster: Record<string, unknown> }[];
  users: { name: string; user: Record<string, unknown> }[];
}

/** A copy of the test kubeconfig with its cluster and admin user entries changed by `edit`. */
async function kubeconfigWith(name: string, edit: (doc: KubeconfigDoc) => void): Promise<string> {
  const { kubeconfig } = await clusterEnv();
  const doc = parse(readFileSync(kubeconfig, 'utf8')) as KubeconfigDoc;
  edit(doc);
  const file = path.join(tlsDir, `${name}.kubeconfig`);
  writeFileSync(file, stringify(doc));
  return file;
}

const adminUser = (doc: KubeconfigDoc): Record<string, unknown> => doc.users.find((u) => u.name === 'agentcfg-admin')!.user;
const base64 = (file: string): string => readFileSync(file).toString('base64');
const TEMPLATE = 'test/fixtures/templates/namespace-sa-rolebinding.yaml';
const cliIds = ['--project', 'acme/shop', '--project-id', '42', '--environment', 'review/tls', '--agent', 'prod', '--agent-id', '7', '--yes'];

test('a CA that did not sign the API server certificate: "not trusted by the CA in kubeconfig context …", in the API and the CLI', async () => {
  const other = selfSigned('other-ca');
  const kubeconfigPath = await kubeconfigWith('wrong-ca', (doc) => {
    doc.clusters[0].cluster['certificate-authority-data'] = base64(other.cert);
  });
  const session = expectOk(openSession({ kubeconfigPath }));
  try {
    const plan = await planApply(session, prepare(undefined, uniqueEnvironmentName('wrong-ca'), 'gitlab-agent'));
    assert.equal(plan.type, 'unreachable');
    assert.ok(plan.type === 'unreachable');
    assert.equal(plan.cause, 'serverCertificate');
    assert.match(plan.code ?? '', /^(SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)$/);
    assert.match(describeOutcome({ ...plan, context: session.context }), /^The cluster's certificate is not trusted by the CA in kubeconfig context "agentcfg-admin" \(.+\): check certificate-authority-data/);
  } finally {
    session.close();
  }
  const cli = agentcfg('apply', TEMPLATE, ...cliIds, '--kubeconfig', kubeconfigPath);
  assert.equal(cli.code, 1, cli.stderr);
  assert.match(cli.stderr, /^The cluster's certificate is not trusted by the CA in kubeconfig context "agentcfg-admin" \((unable to verify the first certificate|self-signed certificate in certificate chain|unable to get local issuer certificate), [A-Z_]+\): check certificate-authority-data/m);
  assert.doesNotMatch(cli.stderr, /Cannot reach|network/);
});

test('a client key file that does not exist is named, with the context, before any request (API and CLI)', async () => {
  const client = selfSigned('client');
  const missing = path.join(tlsDir, 'missing.key');
  const kubeconfigPath = await kubeconfigWith('missing-key', (doc) => {
    Object.assign(adminUser(doc), { 'client-certificate': client.cert, 'client-key': missing });
  });
  const opened = openSession({ kubeconfigPath });
  assert.equal(opened.type, 'unreachable');
  assert.equal(describeOutcome(opened), `Cannot read the client key ${missing} (client-key of kubeconfig context "agentcfg-admin"): ENOENT. Fix the kubeconfig entry, or log in again to get new credentials; nothing was sent to the cluster.`);
  const cli = agentcfg('apply', TEMPLATE, ...cliIds, '--kubeconfig', kubeconfigPath);
  assert.equal(cli.code, 1);
  assert.match(cli.stderr, new RegExp(`^Cannot read the client key ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(client-key of kubeconfig context "agentcfg-admin"\\): ENOENT`, 'm'));
});

test('garbage client key data, and a key that is not the certificate\'s, are named as such', async () => {
  const client = selfSigned('client2');
  const stranger = selfSigned('stranger');
  const garbage = await kubeconfigWith('garbage-key', (doc) => {
    Object.assign(adminUser(doc), { 'client-certificate-data': base64(client.cert), 'client-key-data': Buffer.from('not a key at all').toString('base64') });
  });
  const opened = openSession({ kubeconfigPath: garbage });
  assert.match(describeOutcome(opened), /^The client key of kubeconfig context "agentcfg-admin" \(client-key-data\) is not a PEM private key \(.+\)\. Fix the kubeconfig entry/);
  const cli = agentcfg('workspace', 'list', '--kubeconfig', garbage);
  assert.equal(cli.code, 1);
  assert.match(cli.stderr, /^The client key of kubeconfig context "agentcfg-admin" \(client-key-data\) is not a PEM private key/m);

  const mismatched = await kubeconfigWith('mismatched-key', (doc) => {
    Object.assign(adminUser(doc), { 'client-certificate-data': base64(client.cert), 'client-key-data': base64(stranger.key) });
  });
  assert.match(describeOutcome(openSession({ kubeconfigPath: mismatched })), /^The client key of kubeconfig context "agentcfg-admin" \(client-key-data\) does not belong to its client certificate \(client-certificate-data, subject CN=agentcfg-client2\)/);

  const badCa = await kubeconfigWith('garbage-ca', (doc) => {
    doc.clusters[0].cluster['certificate-authority-data'] = Buffer.from('garbage').toString('base64');
  });
  assert.match(describeOutcome(openSession({ kubeconfigPath: badCa })), /^The certificate authority of kubeconfig context "agentcfg-admin" \(certificate-authority-data\) is not a PEM certificate/);
});

test('a client key that disappears after the session opened: the request-time error names the file, not the network', async () => {
  const client = selfSigned('client3');
  const kubeconfigPath = await kubeconfigWith('vanishing-key', (doc) => {
    Object.assign(adminUser(doc), { 'client-certificate': client.cert, 'client-key': client.key });
  });
  const session = expectOk(openSession({ kubeconfigPath }));
  try {
    rmSync(client.key);
    const plan = await planApply(session, prepare(undefined, uniqueEnvironmentName('vanish'), 'gitlab-agent'));
    assert.ok(plan.type === 'unreachable', plan.type);
    assert.equal(plan.cause, 'credentials');
    assert.match(describeOutcome({ ...plan, context: session.context }), new RegExp(`^Cannot read ${client.key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} named by the kubeconfig: ENOENT \\(kubeconfig context "agentcfg-admin"\\)\\. Fix the kubeconfig entry`));
  } finally {
    session.close();
  }
});
