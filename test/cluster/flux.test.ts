// "Wait for Flux sync" (docs/gitlab-behaviour.md#waiting-for-flux-from-a-job, docs/gitlab-behaviour.md#flux) on the real control plane with the Flux CRDs installed.
// The test plays kustomize-controller and source-controller by patching the status subresource.
// Each waiter is started first, and the decisive status is patched only after the waiter reported
// the state before it: what ends the wait is a watch event, not a later read.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { CustomObjectsApi, PatchStrategy, setHeaderOptions, type KubeConfig } from '@kubernetes/client-node';
import { waitForFluxSync, type FluxWaitOptions } from '../../server/src/cluster/flux/index';
import { describeOutcome, isFailure, type ClusterOutcome } from '../../server/src/cluster/kube/outcome';
import { openSession, type ClusterSession } from '../../server/src/cluster/kube/session';
import { EDITOR_ADVICE } from '../../server/src/cluster/kube/advice';
import { agentcfgAsync } from '../support/cliAsync';
import { clusterEnv, installFluxCrds, kubeConfig, uniqueNamespace } from './harness';

const SHA = '5d8e3a0c9b7f41e2a6d0c3b8f9e1a7d4c2b6e0f3';
const OLD_SHA = 'a'.repeat(40);
const DIGEST = 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

interface Fixture {
  kc: KubeConfig;
  custom: CustomObjectsApi;
  namespace: string;
  session: ClusterSession;
}

async function fixture(t: TestContext): Promise<Fixture> {
  const kc = await kubeConfig('admin');
  await installFluxCrds(kc);
  const env = await clusterEnv();
  const opened = openSession({ kubeconfigPath: env.kubeconfig, context: env.adminContext });
  assert.equal(opened.type, 'ok');
  const session = (opened as { value: ClusterSession }).value;
  t.after(() => session.close());
  return { kc, custom: kc.makeApiClient(CustomObjectsApi), namespace: await uniqueNamespace('flux-wait', t), session };
}

const KS = { group: 'kustomize.toolkit.fluxcd.io', version: 'v1', plural: 'kustomizations' };
const OCI = { group: 'source.toolkit.fluxcd.io', version: 'v1', plural: 'ocirepositories' };

async function createKustomization(f: Fixture, name: string, sourceRef: { kind: string; name: string }): Promise<void> {
  await f.custom.createNamespacedCustomObject({
    ...KS,
    namespace: f.namespace,
    body: { apiVersion: 'kustomize.toolkit.fluxcd.io/v1', kind: 'Kustomization', metadata: { name }, spec: { interval: '5m', path: './deploy', prune: true, sourceRef } },
  });
}

async function createOciRepository(f: Fixture, name: string): Promise<void> {
  await f.custom.createNamespacedCustomObject({
    ...OCI,
    namespace: f.namespace,
    body: { apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'OCIRepository', metadata: { name }, spec: { interval: '5m', url: 'oci://registry.example/app', ref: { tag: 'latest' } } },
  });
}

/** Plays kustomize-controller: status for generation 1. */
async function kustomizationStatus(f: Fixture, name: string, status: Record<string, unknown>): Promise<void> {
  await f.custom.patchNamespacedCustomObjectStatus({ ...KS, namespace: f.namespace, name, body: { status: { observedGeneration: 1, ...status } } }, merge);
}

function ready(value: 'True' | 'False' | 'Unknown', reason: string, message: string) {
  return { type: 'Ready', status: value, reason, message, lastTransitionTime: new Date().toISOString() };
}

/** Starts a wait and records its progress; `reported(re)` resolves once a message matches. */
function startWait(f: Fixture, options: Omit<FluxWaitOptions, 'namespace'>) {
  const messages: string[] = [];
  const listeners: { re: RegExp; resolve: () => void }[] = [];
  const done = waitForFluxSync(f.session, {
    timeoutMs: 60_000,
    ...options,
    namespace: f.namespace,
    progress: {
      report: (message) => {
        messages.push(message);
        for (const l of listeners) if (l.re.test(message)) l.resolve();
      },
    },
  });
  // A wait that ends before the expected report fails the test with its outcome instead of hanging.
  const reported = (re: RegExp): Promise<void> =>
    messages.some((m) => re.test(m))
      ? Promise.resolve()
      : Promise.race([
          new Promise<void>((resolve) => listeners.push({ re, resolve })),
          done.then((outcome) => assert.fail(`the wait ended before reporting ${re}: ${JSON.stringify(outcome)}; reports: ${messages.join(' | ')}`)),
        ]);
  return { done, messages, reported };
}

function failure(outcome: ClusterOutcome<unknown>): string {
  assert.ok(isFailure(outcome), 'the wait failed');
  return `${outcome.type}: ${outcome.message}`;
}

// docs/gitlab-behaviour.md#waiting-for-flux-from-a-job, docs/gitlab-behaviour.md#flux-revision-formats
test('a Kustomization applying a git commit ends the wait (<ref>@sha1:<sha>)', async (t) => {
  const f = await fixture(t);
  await createKustomization(f, 'app', { kind: 'GitRepository', name: 'app' });
  await kustomizationStatus(f, 'app', { lastAppliedRevision: `main@sha1:${OLD_SHA}`, conditions: [ready('True', 'ReconciliationSucceeded', `Applied revision: main@sha1:${OLD_SHA}`)] });

  const wait = startWait(f, { kind: 'Kustomization', name: 'app', revision: SHA });
  await wait.reported(new RegExp(`last applied revision main@sha1:${OLD_SHA}`));
  // Progressing on the new revision: still waiting.
  await kustomizationStatus(f, 'app', { conditions: [ready('Unknown', 'Progressing', 'Reconciliation in progress'), { type: 'Reconciling', status: 'True', reason: 'Progressing', message: '' }] });
  await wait.reported(/Ready=Unknown \(Progressing/);
  await kustomizationStatus(f, 'app', { lastAppliedRevision: `main@sha1:${SHA}`, conditions: [ready('True', 'ReconciliationSucceeded', `Applied revision: main@sha1:${SHA}`)] });

  const outcome = await wait.done;
  assert.deepEqual(outcome, { type: 'ok', value: { kustomizations: [{ name: 'app', namespace: f.namespace, revision: `main@sha1:${SHA}`, message: `Applied revision: main@sha1:${SHA}` }] } });
});

// docs/gitlab-behaviour.md#waiting-for-flux-from-a-job, docs/gitlab-behaviour.md#flux-revision-formats
test('the Kustomizations of an OCIRepository applying an OCI digest end the wait', async (t) => {
  const f = await fixture(t);
  await createOciRepository(f, 'app');
  await createKustomization(f, 'app-backend', { kind: 'OCIRepository', name: 'app' });
  await createKustomization(f, 'app-frontend', { kind: 'OCIRepository', name: 'app' });
  await createKustomization(f, 'unrelated', { kind: 'GitRepository', name: 'app' });

  const wait = startWait(f, { kind: 'OCIRepository', name: 'app', revision: DIGEST });
  await wait.reported(/Kustomization app-backend: .*Kustomization app-frontend:/);
  await kustomizationStatus(f, 'app-backend', { lastAppliedRevision: `latest@${DIGEST}`, conditions: [ready('True', 'ReconciliationSucceeded', 'ok')] });
  await wait.reported(/^Kustomization app-frontend: [^;]*$/); // one of the two is done
  await kustomizationStatus(f, 'app-frontend', { lastAppliedRevision: `v1.2.0@${DIGEST}`, conditions: [ready('True', 'ReconciliationSucceeded', 'ok')] });

  const outcome = await wait.done;
  assert.equal(outcome.type, 'ok', isFailure(outcome) ? outcome.message : '');
  assert.deepEqual(
    !isFailure(outcome) && outcome.value.kustomizations.map((k) => [k.name, k.revision]),
    [
      ['app-backend', `latest@${DIGEST}`],
      ['app-frontend', `v1.2.0@${DIGEST}`],
    ],
  );
});

// docs/gitlab-behaviour.md#waiting-for-flux-from-a-job, docs/gitlab-behaviour.md#oci-artifact-origin-revision
test('a git commit is found through the OCI artifact’s org.opencontainers.image.revision', async (t) => {
  const f = await fixture(t);
  await createOciRepository(f, 'app');
  await createKustomization(f, 'app', { kind: 'OCIRepository', name: 'app' });
  await kustomizationStatus(f, 'app', { lastAppliedRevision: `latest@${DIGEST}`, conditions: [ready('True', 'ReconciliationSucceeded', `Applied revision: latest@${DIGEST}`)] });

  const wait = startWait(f, { kind: 'Kustomization', name: 'app', revision: `main@sha1:${SHA}` });
  await wait.reported(new RegExp(`last applied revision latest@${DIGEST}`));
  // Play source-controller: the artifact's metadata carries the commit it was built from.
  await f.custom.patchNamespacedCustomObjectStatus(
    {
      ...OCI,
      namespace: f.namespace,
      name: 'app',
      body: {
        status: {
          observedGeneration: 1,
          artifact: { revision: `latest@${DIGEST}`, digest: DIGEST, path: 'x', url: 'http://x', lastUpdateTime: new Date().toISOString(), metadata: { 'org.opencontainers.image.revision': `main@sha1:${SHA}` } },
          conditions: [ready('True', 'Succeeded', `stored artifact for digest 'latest@${DIGEST}'`)],
        },
      },
    },
    merge,
  );
  const outcome = await wait.done;
  assert.equal(outcome.type, 'ok', isFailure(outcome) ? outcome.message : '');
});

// docs/gitlab-behaviour.md#waiting-for-flux-from-a-job, docs/gitlab-behaviour.md#oci-artifact-origin-revision
test('status.lastAppliedOriginRevision links a digest to a commit', async (t) => {
  const f = await fixture(t);
  await createKustomization(f, 'app', { kind: 'OCIRepository', name: 'app' });
  await kustomizationStatus(f, 'app', {
    lastAppliedRevision: `latest@${DIGEST}`,
    lastAppliedOriginRevision: `main@sha1:${SHA}`,
    conditions: [ready('True', 'ReconciliationSucceeded', 'ok')],
  });
  const outcome = await startWait(f, { kind: 'Kustomization', name: 'app', revision: SHA.slice(0, 8) }).done;
  assert.equal(outcome.type, 'ok', isFailure(outcome) ? outcome.message : '');
});

// docs/gitlab-behaviour.md#waiting-for-flux-from-a-job, docs/gitlab-behaviour.md#flux-readiness
test('Ready=False on the revision ends the wait with the controller’s reason and message', async (t) => {
  const f = await fixture(t);
  await createKustomization(f, 'app', { kind: 'GitRepository', name: 'app' });
  const wait = startWait(f, { kind: 'Kustomization', name: 'app', revision: `main@sha1:${SHA}` });
  await wait.reported(/has not reconciled generation 1 yet/);
  await kustomizationStatus(f, 'app', {
    lastAttemptedRevision: `main@sha1:${SHA}`,
    conditions: [ready('False', 'BuildFailed', "kustomize build failed: accumulating resources: 'deploy/missing.yaml' not found")],
  });
  const message = failure(await wait.done);
  assert.match(message, /^failed: BuildFailed: kustomize build failed: accumulating resources: 'deploy\/missing.yaml' not found — Flux did not apply main@sha1:/);
});

// docs/gitlab-behaviour.md#waiting-for-flux-from-a-job, docs/gitlab-behaviour.md#flux-readiness
test('Stalled=True ends the wait with its reason', async (t) => {
  const f = await fixture(t);
  await createKustomization(f, 'app', { kind: 'GitRepository', name: 'app' });
  await kustomizationStatus(f, 'app', {
    conditions: [ready('False', 'InvalidPath', 'path ./deploy not found'), { type: 'Stalled', status: 'True', reason: 'InvalidPath', message: 'path ./deploy not found' }],
  });
  assert.match(failure(await startWait(f, { kind: 'Kustomization', name: 'app', revision: DIGEST }).done), /^failed: InvalidPath: path \.\/deploy not found/);
});

// docs/gitlab-behaviour.md#waiting-for-flux-from-a-job
test('the timeout says what was last seen', async (t) => {
  const f = await fixture(t);
  await createKustomization(f, 'app', { kind: 'GitRepository', name: 'app' });
  await kustomizationStatus(f, 'app', { lastAppliedRevision: `main@sha1:${OLD_SHA}`, conditions: [ready('True', 'ReconciliationSucceeded', 'ok')] });
  // Long enough for the first list on a loaded machine: the message must show what was seen.
  const message = failure(await startWait(f, { kind: 'Kustomization', name: 'app', revision: SHA, timeoutMs: 3_000 }).done);
  assert.equal(message, `timeout: Flux did not apply ${SHA} within 3 s; last seen: Kustomization app: last applied revision main@sha1:${OLD_SHA}, Ready=True (ReconciliationSucceeded: ok); waiting for ${SHA}`);

  const missing = failure(await startWait(f, { kind: 'Kustomization', name: 'nope', revision: SHA, timeoutMs: 3_000 }).done);
  assert.match(missing, /last seen: Kustomization .*\/nope does not exist \(yet\)$/);
});

// docs/gitlab-behaviour.md#waiting-for-flux-from-a-job
test('cancelling stops the wait; a bad revision is refused before any request', async (t) => {
  const f = await fixture(t);
  await createKustomization(f, 'app', { kind: 'GitRepository', name: 'app' });
  const controller = new AbortController();
  const wait = startWait(f, { kind: 'Kustomization', name: 'app', revision: SHA, signal: controller.signal });
  await wait.reported(/has not reconciled generation 1 yet/);
  controller.abort();
  assert.equal((await wait.done).type, 'cancelled');

  const before = f.session.requests.snapshot();
  const bad = await waitForFluxSync(f.session, { kind: 'Kustomization', name: 'app', namespace: f.namespace, revision: 'v1.2.3' });
  assert.match(failure(bad), /^invalid: "v1.2.3" is not a Flux revision/);
  assert.equal(f.session.requests.since(before).total, 0);
});

test('CLI twin: agentcfg flux wait exits 0 once applied, 1 with the reason on failure (JSON)', async (t) => {
  const f = await fixture(t);
  const env = await clusterEnv();
  await createKustomization(f, 'app', { kind: 'GitRepository', name: 'app' });
  await createKustomization(f, 'broken', { kind: 'GitRepository', name: 'app' });
  const common = ['--kubeconfig', env.kubeconfig, '--context', env.adminContext, '--namespace', f.namespace, '--format', 'json', '--timeout', '60s'];

  const waiting = agentcfgAsync('flux', 'wait', '--kind', 'Kustomization', '--name', 'app', '--revision', `main@sha1:${SHA}`, ...common);
  const failing = agentcfgAsync('flux', 'wait', '--name', 'broken', '--revision', SHA, ...common);
  await kustomizationStatus(f, 'app', { lastAppliedRevision: `main@sha1:${SHA}`, conditions: [ready('True', 'ReconciliationSucceeded', 'Applied')] });
  await kustomizationStatus(f, 'broken', { lastAttemptedRevision: `main@sha1:${SHA}`, conditions: [ready('False', 'HealthCheckFailed', 'Deployment/app not ready')] });

  const ok = await waiting;
  assert.equal(ok.code, 0, ok.stderr);
  assert.deepEqual(JSON.parse(ok.stdout).kustomizations, [{ name: 'app', namespace: f.namespace, revision: `main@sha1:${SHA}`, message: 'Applied' }]);
  const failed = await failing;
  assert.equal(failed.code, 1);
  const error = JSON.parse(failed.stdout).error;
  assert.equal(error.type, 'failed');
  assert.match(error.message, /^HealthCheckFailed: Deployment\/app not ready/);

  const usage = await agentcfgAsync('flux', 'wait', '--name', 'app', '--namespace', f.namespace, '--revision', SHA, '--kind', 'GitRepository');
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /--kind must be Kustomization or OCIRepository/);
});

test('an identity that may not read Kustomizations gets one clear 403 naming the verb, resource, namespace and identity', async (t) => {
  const env = await clusterEnv();
  await installFluxCrds();
  const opened = openSession({ kubeconfigPath: env.kubeconfig, context: env.restrictedContext });
  assert.equal(opened.type, 'ok');
  const session = (opened as { value: ClusterSession }).value;
  t.after(() => session.close());
  const outcome = await waitForFluxSync(session, { kind: 'Kustomization', name: 'app', namespace: env.restrictedNamespace, revision: SHA, timeoutMs: 10_000 });
  assert.ok(isFailure(outcome));
  assert.equal(outcome.type, 'forbidden');
  assert.match(
    describeOutcome(outcome, EDITOR_ADVICE),
    /^The cluster refused "agentcfg-restricted" \(403 Forbidden\): may not (list|watch|get) kustomizations\.kustomize\.toolkit\.fluxcd\.io in namespace agentcfg-restricted\. Ask a cluster administrator for this permission, or select a context with more rights \(click the cluster context in the status bar\)\.$/,
  );
});

// docs/gitlab-behaviour.md#flux-readiness
test('while waiting on an OCIRepository its fetch failure is shown; Stalled ends the wait with its reason', async (t) => {
  const f = await fixture(t);
  await createOciRepository(f, 'app');
  await createKustomization(f, 'app', { kind: 'OCIRepository', name: 'app' });
  await kustomizationStatus(f, 'app', { lastAppliedRevision: `latest@sha256:${'0'.repeat(64)}`, conditions: [ready('True', 'ReconciliationSucceeded', 'ok')] });
  const setSource = (conditions: object[]) =>
    f.custom.patchNamespacedCustomObjectStatus({ ...OCI, namespace: f.namespace, name: 'app', body: { status: { observedGeneration: 1, conditions } } }, merge);

  const wait = startWait(f, { kind: 'OCIRepository', name: 'app', revision: DIGEST });
  await wait.reported(/waiting for/);
  await setSource([ready('False', 'OCIArtifactPullFailed', 'failed to pull artifact'), { type: 'FetchFailed', status: 'True', reason: 'AuthenticationFailed', message: 'unauthorized: 401' }]);
  await wait.reported(/\(OCIRepository app: AuthenticationFailed: unauthorized: 401\)$/);
  await setSource([{ type: 'Stalled', status: 'True', reason: 'URLInvalid', message: 'url oci://registry.example/app is invalid' }]);
  const outcome = await wait.done;
  assert.ok(isFailure(outcome));
  assert.match(describeOutcome(outcome), /^Failed on source\.toolkit\.fluxcd\.io\/v1\/OCIRepository 'app' in namespace '[^']+': URLInvalid: url oci:\/\/registry\.example\/app is invalid — Flux did not apply sha256:/);
});
