// The CLI twins on the real control plane: agentcfg render, apply (dry-run, confirmation, --yes,
// no-op re-run) and destroy (twice), JSON output, and a clear message for an unreachable cluster.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { agentcfg } from '../support/cli';
import { clusterEnv, uniqueNamespace, type ClusterEnv } from './harness';
import { uniqueEnvironmentName } from './environment-support';

const TEMPLATE = 'test/fixtures/templates/namespace-sa-rolebinding.yaml';
const ids = (environment: string) => ['--project', 'acme/shop', '--project-id', '42', '--environment', environment, '--agent', 'prod', '--agent-id', '7'];

test('agentcfg render prints the decorated objects (JSON) and points template errors at line:column', () => {
  const { code, stdout } = agentcfg('render', TEMPLATE, ...ids('review/render'), '--format', 'json');
  assert.equal(code, 0);
  const out = JSON.parse(stdout);
  assert.deepEqual(out.objects.map((o: { kind: string }) => o.kind), ['Namespace', 'ServiceAccount', 'RoleBinding']);
  assert.equal(out.objects[0].metadata.labels['agent.gitlab.com/id-7'], '');
  assert.equal(out.delete_resources, 'on_stop');

  const broken = path.join(os.tmpdir(), `agentcfg-broken-${process.pid}.yaml`);
  writeFileSync(broken, readFileSync(TEMPLATE, 'utf8').replace('{{ .agent.id }}"', '{{ .agent.id }"'));
  const failed = agentcfg('render', broken, ...ids('review/render'));
  assert.equal(failed.code, 1);
  assert.match(failed.stderr, new RegExp(`^${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:6:69: error: template: default:6: unexpected "}" in operand \\[template\\.syntax\\]`, 'm'));
});

test('agentcfg apply: dry-run changes nothing, no terminal without --yes refuses, --yes applies, a re-run is a no-op; destroy twice', async (t) => {
  const env = await clusterEnv();
  const agentNamespace = await uniqueNamespace('cli-agent', t);
  const name = uniqueEnvironmentName('cli');
  const common = [TEMPLATE, ...ids(name), '--kubeconfig', env.kubeconfig, '--context', env.adminContext, '--agent-namespace', agentNamespace];
  t.after(() => void agentcfg('destroy', ...common, '--yes'));

  const dry = agentcfg('apply', ...common, '--dry-run', '--format', 'json');
  assert.equal(dry.code, 0, dry.stderr);
  const plan = JSON.parse(dry.stdout).plan;
  assert.deepEqual(plan.objects.map((o: { action: string }) => o.action), ['create', 'create', 'create']);
  assert.equal(JSON.parse(agentcfg('destroy', ...common, '--dry-run', '--format', 'json').stdout).plan.inventoryExists, false, 'the dry run created no inventory');

  const refused = agentcfg('apply', ...common);
  assert.equal(refused.code, 1);
  assert.match(refused.stdout, /^ {2}create {4}core\/v1\/Namespace /m, 'the plan is printed before asking');
  assert.match(refused.stderr, /Not applied: no terminal to confirm on; pass --yes/);

  const applied = agentcfg('apply', ...common, '--yes', '--format', 'json');
  assert.equal(applied.code, 0, applied.stderr);
  assert.equal(JSON.parse(applied.stdout).result.applied.length, 3);
  const again = agentcfg('apply', ...common, '--yes');
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /Nothing to do: the cluster already matches the template\./);

  const destroyed = agentcfg('destroy', ...common, '--yes', '--format', 'json');
  assert.equal(destroyed.code, 0, destroyed.stderr);
  assert.equal(JSON.parse(destroyed.stdout).result.deleted.length, 3);
  const twice = agentcfg('destroy', ...common, '--yes');
  assert.equal(twice.code, 0, twice.stderr);
  assert.match(twice.stdout, /nothing to delete/);
});

test('agentcfg apply against an unreachable cluster prints one clear sentence and exits 1', async () => {
  const env = await clusterEnv();
  const file = path.join(os.tmpdir(), `agentcfg-closed-${process.pid}.kubeconfig`);
  writeFileSync(file, readFileSync(env.kubeconfig, 'utf8').replace(/server: https:\/\/127\.0\.0\.1:\d+/g, 'server: https://127.0.0.1:9'));
  const { code, stderr } = agentcfg('apply', TEMPLATE, ...ids('review/down'), '--kubeconfig', file, '--yes');
  assert.equal(code, 1);
  assert.match(stderr, /^Cannot reach the cluster.*Check the context's server address/m);
  assert.doesNotMatch(stderr, /\bat .*\.js:\d+/, 'no stack trace');
});

test('agentcfg apply as an identity the cluster refuses: the 403s are one BLOCKED line naming the identity, each verb × resource × namespace once, and the flags to use; nothing changes, exit 1', async () => {
  const env = await clusterEnv();
  const name = uniqueEnvironmentName('cli-forbidden');
  const { code, stdout, stderr } = agentcfg('apply', TEMPLATE, ...ids(name), '--kubeconfig', env.kubeconfig, '--context', env.restrictedContext, '--agent-namespace', 'gitlab-agent', '--dry-run');
  assert.equal(code, 1, stderr);
  const blocked = `${stdout}\n${stderr}`.split('\n').filter((l) => l.trimStart().startsWith('BLOCKED'));
  assert.equal(blocked.length, 1, blocked.join('\n'));
  assert.match(
    blocked[0],
    /^ {2}BLOCKED {3}The cluster refused "agentcfg-restricted" \(403 Forbidden\): may not get configmaps in namespace gitlab-agent; get namespaces in namespace \S+; get serviceaccounts in namespace \S+; get rolebindings\.rbac\.authorization\.k8s\.io in namespace \S+\. Ask a cluster administrator for these permissions, or use a context with more rights \(--context, or --kubeconfig for another kubeconfig\)\.$/,
  );
  assert.match(stderr, /Not applied: the plan is blocked \(see BLOCKED\); nothing was changed\./);
});

/** The kubectl built with the control plane, as the admin identity. */
function kubectl(env: ClusterEnv, ...args: string[]): { code: number | null; stderr: string } {
  const result = spawnSync(env.kubectl, ['--kubeconfig', env.kubeconfig, '--context', env.adminContext, ...args], { encoding: 'utf8' });
  return { code: result.status, stderr: result.stderr };
}

test('agentcfg destroy lists the kubectl-made objects its namespace would take along and deletes nothing without --delete-others', async (t) => {
  const env = await clusterEnv();
  const agentNamespace = await uniqueNamespace('cli-cascade-agent', t);
  const name = uniqueEnvironmentName('cli-cascade');
  const common = [TEMPLATE, ...ids(name), '--kubeconfig', env.kubeconfig, '--context', env.adminContext, '--agent-namespace', agentNamespace];
  t.after(() => void agentcfg('destroy', ...common, '--yes', '--delete-others'));
  assert.equal(agentcfg('apply', ...common, '--yes').code, 0);
  const namespace = JSON.parse(agentcfg('render', TEMPLATE, ...ids(name), '--format', 'json').stdout).objects[0].metadata.name as string;
  const made = kubectl(env, 'create', 'configmap', 'kubectl-made', '-n', namespace);
  assert.equal(made.code, 0, made.stderr);

  const plan = agentcfg('destroy', ...common, '--dry-run');
  assert.equal(plan.code, 0, plan.stderr);
  assert.match(plan.stdout, new RegExp(`also    core/v1/ConfigMap 'kubectl-made' in namespace '${namespace}' \\(not created by this environment: goes with namespace '${namespace}'; needs --delete-others\\)`));
  const refused = agentcfg('destroy', ...common, '--yes');
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, new RegExp(`Nothing was deleted: deleting core/v1/Namespace '${namespace}' would also delete 1 object this inventory does not track:`));
  assert.equal(kubectl(env, 'get', 'namespace', namespace).code, 0, 'the namespace is still there');
  const confirmed = agentcfg('destroy', ...common, '--yes', '--delete-others');
  assert.equal(confirmed.code, 0, confirmed.stderr);
});
