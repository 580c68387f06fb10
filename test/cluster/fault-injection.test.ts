// Fault injection on the real control plane: the kube-apiserver is killed (SIGKILL) in the middle of
// an apply and in the middle of a destroy; the supervisor starts it again over the same etcd data
// (test/cluster/controlplane/supervisor.go). The interrupted run fails with a clear outcome, and
// running it again converges: the inventory lists exactly the live objects (apply), or nothing is
// left (destroy).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { CoreV1Api } from '@kubernetes/client-node';
import { executeApply } from '../../server/src/cluster/apply/execute';
import { planApply } from '../../server/src/cluster/apply/plan';
import { executeDestroy } from '../../server/src/cluster/destroy/execute';
import { planDestroy } from '../../server/src/cluster/destroy/plan';
import { readInventory } from '../../server/src/cluster/inventory/store';
import { readLiveObjects } from '../../server/src/cluster/kube/liveObjects';
import { describeOutcome } from '../../server/src/cluster/kube/outcome';
import { refKey } from '../../server/src/cluster/kube/objectRef';
import { namespaceContents } from '../../server/src/cluster/prune/namespaceContents';
import type { ClusterSession } from '../../server/src/cluster/kube/session';
import { applyOk, environmentScope, expectOk, prepare, testSession, uniqueEnvironmentName } from './environment-support';
import { clusterEnv, kubeConfig, statusCode, waitFor } from './harness';

/** Twelve ServiceAccounts in one namespace: enough requests that a kill lands mid-way. */
function template(count: number): string {
  const accounts = Array.from({ length: count }, (_, i) => `  - apiVersion: v1\n    kind: ServiceAccount\n    metadata:\n      name: sa-${i}\n      namespace: "{{ .environment.slug }}-{{ .project.id }}-{{ .agent.id }}"\n`).join('');
  return `objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: "{{ .environment.slug }}-{{ .project.id }}-{{ .agent.id }}"\n${accounts}`;
}

/** The running kube-apiserver's pid, as the supervisor records it (it changes with each restart). */
async function apiserverPid(): Promise<number> {
  const state = JSON.parse(readFileSync((await clusterEnv()).stateFile, 'utf8')) as { dataDir: string };
  return (JSON.parse(readFileSync(path.join(state.dataDir, 'controlplane.json'), 'utf8')) as { apiserverPid: number }).apiserverPid;
}

/** Kills the API server once, the first time `when` holds for a progress message. */
async function killer(when: (message: string) => boolean): Promise<{ report: (m: string) => void; killed: () => number | undefined }> {
  const pid = await apiserverPid();
  let killed: number | undefined;
  return {
    report: (m) => {
      if (killed === undefined && when(m)) {
        process.kill(pid, 'SIGKILL');
        killed = pid;
      }
    },
    killed: () => killed,
  };
}

/**
 * Waits until the supervisor has started a new API server and every namespaced kind can be listed
 * again: custom resources (the Flux CRDs other tests installed) answer errors for a moment after a
 * restart even once /readyz is ok, and the pruner rightly refuses to delete a namespace whose
 * contents it cannot list.
 */
async function untilRestarted(session: ClusterSession, before: number): Promise<void> {
  await waitFor('the kube-apiserver to be started again and serve every kind', async () => {
    if ((await apiserverPid()) === before) return undefined;
    const contents = await namespaceContents(session, 'kube-public', new Set());
    return contents.type === 'ok' && contents.value.unlisted.length === 0;
  }, { timeoutMs: 120_000, intervalMs: 250 });
}

/** The inventory's entries and which of them exist. */
async function inventoryAgainstLive(session: ClusterSession, inventory: { name: string; namespace: string }): Promise<{ tracked: string[]; live: string[] }> {
  const stored = expectOk(await readInventory(session, inventory));
  const tracked = (stored?.objects ?? []).map((o) => ({ ...o, version: 'v1' }));
  const reads = await readLiveObjects(session, tracked);
  const live = tracked.filter((r) => {
    const read = reads.get(refKey(r));
    return read?.type === 'ok' && read.value !== undefined && !read.value.metadata?.deletionTimestamp;
  });
  return { tracked: tracked.map(refKey).sort(), live: live.map(refKey).sort() };
}

test('the API server killed mid apply: the run fails clearly, the re-run converges with the inventory equal to the live objects', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'fault-apply');
  const env = prepare(template(12), uniqueEnvironmentName('fault-apply'), scope.agentNamespace);
  scope.track(env);
  const plan = expectOk(await planApply(session, env));
  const kill = await killer((m) => /^Applied \d+ of \d+ objects \(created ServiceAccount /.test(m));
  const interrupted = await executeApply(session, plan, { progress: { report: kill.report }, concurrency: 1, timeoutMs: 60_000 });
  const killedPid = kill.killed();
  assert.ok(killedPid !== undefined, `the API server was killed during the apply (the apply ended: ${describeOutcome(interrupted)})`);
  assert.notEqual(interrupted.type, 'ok', 'the interrupted apply does not claim success');
  await untilRestarted(session, killedPid);

  const { result } = await applyOk(session, env);
  assert.equal(result.inventory.objects.length, 13);
  const state = await inventoryAgainstLive(session, env.inventory);
  assert.deepEqual(state.live, state.tracked, 'every tracked object exists');
  assert.deepEqual(state.tracked, env.objects.map((o) => refKey(o.ref)).sort(), 'and the inventory tracks exactly the template');
  const again = expectOk(await planApply(session, env));
  assert.ok(again.objects.every((o) => o.action === 'unchanged'), 'a third run has nothing to do');
});

test('the API server killed mid destroy: the re-run deletes the rest and the inventory, and nothing is left', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'fault-destroy');
  const env = prepare(template(12), uniqueEnvironmentName('fault-destroy'), scope.agentNamespace);
  scope.track(env);
  await applyOk(session, env);
  const ns = `${env.data.environment.slug}-42-7`;
  const plan = expectOk(await planDestroy(session, { inventory: env.inventory }));
  const kill = await killer((m) => m.startsWith('Deleting ServiceAccount '));
  const interrupted = await executeDestroy(session, plan, { progress: { report: kill.report }, concurrency: 1, timeoutMs: 60_000 });
  const killedPid = kill.killed();
  assert.ok(killedPid !== undefined, `the API server was killed during the destroy (the destroy ended: ${describeOutcome(interrupted)})`);
  assert.notEqual(interrupted.type, 'ok');
  await untilRestarted(session, killedPid);
  const midway = await inventoryAgainstLive(session, env.inventory);
  assert.equal(midway.tracked.length, 13, 'the inventory still lists everything that may remain');

  const resumed = expectOk(await planDestroy(session, { inventory: env.inventory }));
  const done = expectOk(await executeDestroy(session, resumed));
  assert.equal(done.inventoryDeleted, true);
  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
  await assert.rejects(core.readNamespace({ name: ns }), (err) => statusCode(err) === 404);
  await assert.rejects(core.readNamespacedConfigMap({ name: env.inventory.name, namespace: scope.agentNamespace }), (err) => statusCode(err) === 404);
});
