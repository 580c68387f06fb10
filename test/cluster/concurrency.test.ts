// One operation per environment at a time, on the real control plane (server/src/cluster/operationLock.ts):
// `agentcfg apply --yes` and `agentcfg destroy --yes` of one environment started together, round after
// round, leave no orphan and never both claim the last word; a run killed while holding the lock does
// not block the next one; a run that cannot get the lock in its time names who holds it.
// docs/gitlab-behaviour.md#one-operation-per-environment-or-workspace-our-rule.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { CoreV1Api, CoordinationV1Api } from '@kubernetes/client-node';
import { OWNING_INVENTORY_ANNOTATION } from '../../server/src/cluster/inventory/configMap';
import { agentcfgAsync } from '../support/cliAsync';
import { repoRoot } from '../support/lspClient';
import { prepare, uniqueEnvironmentName } from './environment-support';
import { clusterEnv, kubeConfig, statusCode, uniqueNamespace } from './harness';

const RACE_TEMPLATE = 'test/fixtures/templates/accounts-in-existing-namespace.yaml';
const TEMPLATE = 'test/fixtures/templates/namespace-sa-rolebinding.yaml';
const ROUNDS = 20;
/** Each run's requests take some 50 ms here: the start of one moves against the other's in steps of this, from -50 to +45 ms. */
const STAGGER_MS = 5;
const STAGGER_STEPS = 20;
const ids = (environment: string) => ['--project', 'acme/shop', '--project-id', '42', '--environment', environment, '--agent', 'prod', '--agent-id', '7'];

/** A CLI run with the moment it ended. */
async function timedRun(args: string[]): Promise<{ code: number; stdout: string; stderr: string; endedAt: bigint }> {
  const result = await agentcfgAsync(...args);
  return { ...result, endedAt: process.hrtime.bigint() };
}

/** The environment's inventory entries, and the ServiceAccounts of its namespace that claim the inventory, as the cluster has them now. */
async function environmentState(agentNamespace: string, inventory: string, namespace: string) {
  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
  const listed = await core.readNamespacedConfigMap({ name: inventory, namespace: agentNamespace }).then(
    (cm) => Object.keys(cm.data ?? {}).sort(),
    (err) => {
      if (statusCode(err) === 404) return undefined;
      throw err;
    },
  );
  const accounts = await core.listNamespacedServiceAccount({ namespace });
  const owned = accounts.items.filter((a) => a.metadata?.annotations?.[OWNING_INVENTORY_ANNOTATION] === inventory).map((a) => `${namespace}_${a.metadata!.name}__ServiceAccount`);
  return { listed, owned: owned.sort() };
}

test(`apply ‖ destroy of one environment, ${ROUNDS} rounds: no orphan, and what the last run says is what the cluster holds`, async (t) => {
  const env = await clusterEnv();
  const agentNamespace = await uniqueNamespace('race-agent', t);
  const name = uniqueEnvironmentName('race');
  const environment = prepare(undefined, name, agentNamespace);
  // The template's objects live in a namespace the environment does not own: nothing cascades, so
  // a destroy deletes each object itself and a race shows as objects without their inventory.
  const namespace = `${environment.data.environment.slug}-42-7`;
  await (await kubeConfig('admin')).makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: namespace } } });
  t.after(async () => void (await kubeConfig('admin')).makeApiClient(CoreV1Api).deleteNamespace({ name: namespace }));
  const inventory = environment.inventory.name;
  const common = [RACE_TEMPLATE, ...ids(name), '--kubeconfig', env.kubeconfig, '--context', env.adminContext, '--agent-namespace', agentNamespace, '--yes'];
  const everything = ['a', 'b', 'c', 'd'].map((suffix) => `${namespace}_deployer-${suffix}__ServiceAccount`);
  const outcomes = { applyLast: 0, destroyLast: 0 };
  for (let round = 1; round <= ROUNDS; round++) {
    // One run starts a little after the other, by an offset that moves across the rounds: the
    // requests of the two overlap only within a few tens of milliseconds of each other.
    const offset = STAGGER_MS * ((round % STAGGER_STEPS) - STAGGER_STEPS / 2);
    const [apply, destroy] = await Promise.all([delay(Math.max(0, offset)).then(() => timedRun(['apply', ...common])), delay(Math.max(0, -offset)).then(() => timedRun(['destroy', ...common]))]);
    const label = `round ${round}:\napply ${apply.code}: ${apply.stdout}${apply.stderr}\ndestroy ${destroy.code}: ${destroy.stdout}${destroy.stderr}`;
    // The lock serialises them: each run plans after the other has finished, so both succeed.
    assert.equal(apply.code, 0, label);
    assert.equal(destroy.code, 0, label);
    const state = await environmentState(agentNamespace, inventory, namespace);
    // No orphan: whatever claims the inventory is listed by it, and nothing claims an inventory that is gone.
    for (const key of state.owned) assert.ok(state.listed?.includes(key), `${label}\norphan ${key} (listed: ${state.listed?.join(', ') ?? 'no inventory'})`);
    if (apply.endedAt > destroy.endedAt) {
      outcomes.applyLast++;
      assert.match(apply.stdout, /^Applied: 4 changed, 0 unchanged, 0 pruned; all ready\./m, label);
      assert.deepEqual(state.listed, everything, label);
      assert.deepEqual(state.owned, everything, `${label}\nevery listed object exists`);
    } else {
      outcomes.destroyLast++;
      assert.equal(state.listed, undefined, `${label}\nthe inventory is gone`);
      assert.deepEqual(state.owned, [], label);
    }
  }
  t.diagnostic(`apply finished last in ${outcomes.applyLast} rounds, destroy in ${outcomes.destroyLast}`);
});

/** Starts a process that holds the lock until killed; resolves once it holds it. */
async function holdLock(namespace: string, inventory: string): Promise<ChildProcess> {
  const env = await clusterEnv();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'test', 'support', 'lockHolder.ts'), env.kubeconfig, env.adminContext, namespace, inventory], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve());
    child.on('exit', (code) => reject(new Error(`the lock holder exited (${code}) before holding the lock`)));
  });
  return child;
}

test('a run killed while holding the lock does not block the next one; a live holder is named when the wait runs out', async (t) => {
  const env = await clusterEnv();
  const agentNamespace = await uniqueNamespace('lock-agent', t);
  const name = uniqueEnvironmentName('lock');
  const inventory = prepare(undefined, name, agentNamespace).inventory.name;
  const common = [TEMPLATE, ...ids(name), '--kubeconfig', env.kubeconfig, '--context', env.adminContext, '--agent-namespace', agentNamespace, '--yes'];
  t.after(() => void agentcfgAsync('destroy', ...common));
  const leases = (await kubeConfig('admin')).makeApiClient(CoordinationV1Api);

  // A live holder: the run waits its --timeout, then says who holds the lock; nothing was changed.
  const live = await holdLock(agentNamespace, inventory);
  try {
    const busy = await agentcfgAsync('apply', ...common, '--timeout', '3s');
    assert.equal(busy.code, 1, busy.stdout);
    assert.match(busy.stderr, /Waiting for agentcfg test-holder \(.+, pid \d+, [0-9a-f]{6}\) to finish with environment review\/lock-/);
    assert.match(busy.stderr, /environment review\/lock-\S+ is busy: agentcfg test-holder \(.+\) holds its lock, since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\. Nothing was changed; try again when that run has finished\./);
    await assert.rejects((await kubeConfig('admin')).makeApiClient(CoreV1Api).readNamespacedConfigMap({ name: inventory, namespace: agentNamespace }), (err) => statusCode(err) === 404, 'no inventory written');
  } finally {
    live.kill('SIGKILL');
  }

  // The holder was killed without releasing: its lease stays, unrenewed, and the next run takes it over.
  const stale = await leases.readNamespacedLease({ name: `${inventory}.lock`, namespace: agentNamespace });
  assert.match(stale.spec?.holderIdentity ?? '', /^agentcfg test-holder /);
  const next = await agentcfgAsync('apply', ...common);
  assert.equal(next.code, 0, next.stderr);
  assert.match(next.stdout, /^Applied: 3 changed/m);
  assert.match(next.stderr, /Waiting for agentcfg test-holder/, 'it waited for the stale lease to expire');
  await assert.rejects(leases.readNamespacedLease({ name: `${inventory}.lock`, namespace: agentNamespace }), (err) => statusCode(err) === 404, 'the lease is released when done');
});
