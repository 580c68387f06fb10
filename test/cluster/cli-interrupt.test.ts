// Ctrl-C during a cluster command of the built CLI (dist/cli.js) on the real control plane (apply,
// destroy, workspace terminate, flux wait): SIGINT
// is sent when the command's progress (stderr) shows it is at work; the command stops, prints what
// was done and what was not, and exits 130; running it again converges. No sleeps: each step waits
// on a line of the child's output or on the child's exit.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { CoreV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { agentcfgAsync } from '../support/cliAsync';
import { workspaceConfigToApply, workspaceTerminationConfig } from '../support/workspaceConfig';
import { repoRoot } from '../support/lspClient';
import { environmentScope, fixtureTemplate, prepare, uniqueEnvironmentName } from './environment-support';
import { clusterEnv, installFluxCrds, kubeConfig, statusCode } from './harness';

const dir = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-interrupt-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const ids = (environment: string): string[] => ['--project', 'acme/shop', '--project-id', '42', '--environment', environment, '--agent', 'prod', '--agent-id', '7', '--environment-id', '99', '--user', 'alice', '--user-id', '5'];

interface Interrupted {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI and sends SIGINT (`times` in a row) as soon as a stderr line matches `when`; resolves
 * with the exit. Fails if the command ends without ever printing such a line.
 */
function interruptWhen(args: readonly string[], when: RegExp, times = 1): Promise<Interrupted> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repoRoot, 'dist', 'cli.js'), ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let sent = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (!sent && stderr.split('\n').some((line) => when.test(line))) {
        sent = true;
        for (let i = 0; i < times; i++) child.kill('SIGINT');
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (!sent) reject(new Error(`the command ended (exit ${code}) before printing a line matching ${when}:\n${stderr}`));
      else resolve({ code, signal, stdout, stderr });
    });
  });
}

/** The lines of the interruption summary: done and not done. */
function summary(stderr: string): { done: string; notDone: string } {
  const m = /^Interrupted\.\n {2}done: (.*)\n {2}not done: (.*)\n {2}(.*)$/m.exec(stderr);
  assert.ok(m, `no interruption summary in:\n${stderr}`);
  return { done: m[1], notDone: m[2] };
}

const TWO_KUSTOMIZATIONS = `objects:
  - apiVersion: v1
    kind: Namespace
    metadata:
      name: "{{ .environment.slug }}-{{ .project.id }}-{{ .agent.id }}"
  - apiVersion: v1
    kind: ServiceAccount
    metadata:
      name: deployer
      namespace: "{{ .environment.slug }}-{{ .project.id }}-{{ .agent.id }}"
  - apiVersion: kustomize.toolkit.fluxcd.io/v1
    kind: Kustomization
    metadata:
      name: app
      namespace: "{{ .environment.slug }}-{{ .project.id }}-{{ .agent.id }}"
    spec: {interval: 5m, path: ./deploy, prune: true, sourceRef: {kind: OCIRepository, name: app}}
  - apiVersion: kustomize.toolkit.fluxcd.io/v1
    kind: Kustomization
    metadata:
      name: infra
      namespace: "{{ .environment.slug }}-{{ .project.id }}-{{ .agent.id }}"
    spec: {interval: 5m, path: ./infra, prune: true, sourceRef: {kind: OCIRepository, name: app}}
delete_resources: on_stop
`;

test('apply: Ctrl-C while it waits for Flux objects to be ready prints what was done and not done, exits 130; a re-run converges', { timeout: 180_000 }, async (t) => {
  await installFluxCrds();
  const env = await clusterEnv();
  const scope = await environmentScope(t, 'cli-int-apply');
  const name = uniqueEnvironmentName('int');
  const template = path.join(dir, 'two-kustomizations.yaml');
  writeFileSync(template, TWO_KUSTOMIZATIONS);
  scope.track(prepare(TWO_KUSTOMIZATIONS, name, scope.agentNamespace));
  const common = [template, ...ids(name), '--kubeconfig', env.kubeconfig, '--context', env.adminContext, '--agent-namespace', scope.agentNamespace];

  // No Flux controller runs here: the Kustomizations never become Ready, so the apply waits until Ctrl-C.
  const r = await interruptWhen(['apply', ...common, '--yes'], /^agentcfg apply: Waiting for Kustomization \S+ to be ready…$/);
  assert.equal(r.code, 130, r.stderr);
  assert.match(r.stderr, /interrupted; stopping after the request in flight/);
  const { done, notDone } = summary(r.stderr);
  for (const made of ["created core/v1/Namespace '", "created core/v1/ServiceAccount 'deployer'", "created kustomize.toolkit.fluxcd.io/v1/Kustomization 'app'", "created kustomize.toolkit.fluxcd.io/v1/Kustomization 'infra'"]) {
    assert.ok(done.includes(made), `done lists ${made}: ${done}`);
  }
  assert.match(notDone, /kustomize\.toolkit\.fluxcd\.io\/v1\/Kustomization '(app|infra)' in namespace '[^']+' ready \(applied; not confirmed ready\)/);
  assert.doesNotMatch(notDone, /ServiceAccount|Namespace '/, 'what was confirmed is not listed as not done');
  assert.match(r.stderr, /Run the same command again to converge\.\n$/);
  assert.doesNotMatch(r.stderr, /^Cancelled/m, 'the summary replaces the bare "Cancelled"');
  assert.equal(r.stdout.includes('Applied:'), false);

  // What the interrupted apply made is in its inventory: a re-plan finds it all, and destroy removes it.
  const again = await agentcfgAsync('apply', ...common, '--dry-run', '--format', 'json');
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(JSON.parse(again.stdout).plan.objects.map((o: { action: string }) => o.action), ['unchanged', 'unchanged', 'unchanged', 'unchanged']);
  const destroyed = await agentcfgAsync('destroy', ...common, '--yes', '--format', 'json');
  assert.equal(destroyed.code, 0, destroyed.stderr);
  assert.equal(JSON.parse(destroyed.stdout).result.deleted.length, 4);
});

test('destroy: Ctrl-C while an object is held by a finalizer: done and not done, exit 130; after the finalizer goes, a re-run finishes', { timeout: 180_000 }, async (t) => {
  const env = await clusterEnv();
  const scope = await environmentScope(t, 'cli-int-destroy');
  const name = uniqueEnvironmentName('intd');
  const templateText = fixtureTemplate('namespace-sa-rolebinding.yaml');
  const prepared = prepare(templateText, name, scope.agentNamespace);
  scope.track(prepared);
  const template = path.join(dir, 'namespace-sa-rolebinding.yaml');
  writeFileSync(template, templateText);
  const common = [template, ...ids(name), '--kubeconfig', env.kubeconfig, '--context', env.adminContext, '--agent-namespace', scope.agentNamespace];
  const applied = await agentcfgAsync('apply', ...common, '--yes');
  assert.equal(applied.code, 0, applied.stderr);

  const sa = prepared.objects.find((o) => o.ref.kind === 'ServiceAccount')!.ref;
  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
  const finalizers = (list: string[]) =>
    core.patchNamespacedServiceAccount({ name: sa.name, namespace: sa.namespace, body: { metadata: { finalizers: list } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
  await finalizers(['agentcfg.test/hold']);
  t.after(() => finalizers([]).catch((err: unknown) => (statusCode(err) === 404 ? undefined : Promise.reject(err))));

  const r = await interruptWhen(['destroy', ...common, '--yes'], /^agentcfg destroy: Deleting ServiceAccount /);
  assert.equal(r.code, 130, r.stderr);
  const { done, notDone } = summary(r.stderr);
  assert.match(done, /deleted core\/v1\/ServiceAccount '[^']+' in namespace '[^']+' \(deletion accepted\)/);
  assert.match(notDone, /core\/v1\/ServiceAccount '[^']+' in namespace '[^']+' gone \(deletion accepted; not confirmed gone\)/);
  assert.match(notDone, /delete core\/v1\/Namespace '[^']+'/);
  assert.match(notDone, new RegExp(`delete inventory ${scope.agentNamespace}/`));

  await finalizers([]);
  const again = await agentcfgAsync('destroy', ...common, '--yes');
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /^Deleted \d+ objects and the inventory/m);
});

test('flux wait: Ctrl-C says nothing was changed, with the last state seen; two Ctrl-C in a row still end with the summary and 130', { timeout: 120_000 }, async () => {
  await installFluxCrds();
  const env = await clusterEnv();
  const args = ['flux', 'wait', '--name', 'never-there', '--namespace', 'default', '--revision', 'main@sha1:0123456789abcdef0123456789abcdef01234567', '--kubeconfig', env.kubeconfig, '--context', env.adminContext];
  const once = await interruptWhen(args, /^agentcfg flux wait: Waiting for Flux to apply /);
  assert.equal(once.code, 130, once.stderr);
  const { done, notDone } = summary(once.stderr);
  assert.equal(done, 'nothing');
  assert.match(notDone, /^wait until Flux applies main@sha1:0123456789abcdef0123456789abcdef01234567 for kustomize\.toolkit\.fluxcd\.io\/v1\/Kustomization 'never-there' in namespace 'default' \(last seen: Kustomization default\/never-there does not exist \(yet\)\)$/);
  assert.match(once.stderr, /Nothing was changed: flux wait only reads\./);

  const twice = await interruptWhen(args, /^agentcfg flux wait: Waiting for Flux to apply /, 2);
  assert.equal(twice.code, 130, twice.stderr);
  assert.equal(twice.stderr.match(/^Interrupted\.$/gm)?.length, 1, 'one summary');
});

test('workspace terminate: Ctrl-C while the workspace is Terminating (its PVC keeps a finalizer): exit 130 with the summary; after the finalizer goes, a re-run ends Terminated', { timeout: 180_000 }, async (t) => {
  const env = await clusterEnv();
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  const ws = { name: `ws-int-${suffix}`, agentId: 800000 + Math.floor(Math.random() * 99999), workspaceId: 7000 };
  const namespace = `gl-rd-ns-${ws.name}`;
  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
  // No controller removes kubernetes.io/pvc-protection here (no pods ever run): the test does, when it is time.
  const releasePvc = () =>
    core.patchNamespacedPersistentVolumeClaim({ name: `${ws.name}-gl-workspace-data`, namespace, body: { metadata: { finalizers: [] } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
  t.after(async () => {
    await releasePvc().catch(() => undefined);
    await core.deleteNamespace({ name: namespace }).catch((err: unknown) => (statusCode(err) === 404 ? undefined : Promise.reject(err)));
  });
  const apply = path.join(dir, `${ws.name}-apply.yaml`);
  const terminate = path.join(dir, `${ws.name}-terminate.yaml`);
  writeFileSync(apply, workspaceConfigToApply(ws));
  writeFileSync(terminate, workspaceTerminationConfig(ws));
  const common = ['--kubeconfig', env.kubeconfig, '--context', env.adminContext];
  const applied = await agentcfgAsync('workspace', 'apply', '--config', apply, '--yes', ...common);
  assert.equal(applied.code, 0, applied.stderr);

  const args = ['workspace', 'terminate', '--name', ws.name, '--config', terminate, '--yes', ...common];
  const r = await interruptWhen(args, new RegExp(`^agentcfg workspace terminate: Workspace ${ws.name} is Terminating$`));
  assert.equal(r.code, 130, r.stderr);
  const { done, notDone } = summary(r.stderr);
  assert.equal(done, `deletion of workspace ${ws.name}'s objects started (progress Terminating)`);
  assert.equal(notDone, `terminate workspace ${ws.name} (its objects and inventories deleted, progress Terminated)`);

  await releasePvc();
  const again = await agentcfgAsync(...args, '--format', 'json');
  assert.equal(again.code, 0, again.stderr);
  assert.equal(JSON.parse(again.stdout).progress, 'Terminated');
});
