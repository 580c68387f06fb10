/**
 * Shared setup of the environment apply/destroy cluster tests: sessions for the test identities,
 * a unique environment per test, the fixture templates, and cleanup that deletes what a test made.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { CoreV1Api } from '@kubernetes/client-node';
import { prepareEnvironment, type PreparedEnvironment } from '../../server/src/cluster/apply/environment';
import { executeApply, type ApplyResult, type ExecuteApplyOptions } from '../../server/src/cluster/apply/execute';
import { planApply, type ApplyPlan, type PlanOptions } from '../../server/src/cluster/apply/plan';
import { headerOf } from '../../server/src/cluster/kube/objectRef';
import { describeOutcome, type ClusterOutcome } from '../../server/src/cluster/kube/outcome';
import { openSession, type ClusterSession } from '../../server/src/cluster/kube/session';
import { clusterEnv, kubeConfig, statusCode, uniqueNamespace, type Identity } from './harness';

const fixtures = path.resolve(import.meta.dirname, '..', 'fixtures', 'templates');

/** Text of test/fixtures/templates/<name>. */
export function fixtureTemplate(name: string): string {
  return readFileSync(path.join(fixtures, name), 'utf8');
}

/** Writes every changing operation adds for its lock (operationLock.ts): the Lease taken, then released. */
export const LOCK_WRITES = 2;

/** The value of an ok outcome; fails the test with the described failure otherwise. */
export function expectOk<T>(outcome: ClusterOutcome<T>): T {
  if (outcome.type !== 'ok') assert.fail(describeOutcome(outcome));
  return outcome.value;
}

/** A session on the test control plane as `identity`, closed when the test ends. */
export async function testSession(t: TestContext, identity: Identity = 'admin'): Promise<ClusterSession> {
  const env = await clusterEnv();
  const session = expectOk(openSession({ kubeconfigPath: env.kubeconfig, context: identity === 'admin' ? env.adminContext : env.restrictedContext }));
  t.after(() => session.close());
  return session;
}

/** A fresh environment name per call (so each test has its own namespace and inventory). */
export function uniqueEnvironmentName(prefix: string): string {
  return `review/${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
}

/** Renders a template for an environment of project 42 and agent 7 of `acme/shop`. */
export function prepare(templateText: string | undefined, environmentName: string, agentNamespace: string): PreparedEnvironment {
  const result = prepareEnvironment({
    templateText,
    scenario: { projectPath: 'acme/shop', projectId: 42, environmentName, ref: 'main', defaultBranch: 'main', userLogin: 'alice' },
    ids: { agentId: 7, agentName: 'prod', environmentId: 99, userId: 5 },
    agentNamespace,
  });
  if (!result.ok) assert.fail(`prepareEnvironment failed: ${JSON.stringify(result)}`);
  return result.environment;
}

/** Plans and executes; both must succeed. */
export async function applyOk(session: ClusterSession, env: PreparedEnvironment, options: ExecuteApplyOptions & PlanOptions = {}): Promise<{ plan: ApplyPlan; result: ApplyResult }> {
  const plan = expectOk(await planApply(session, env, options));
  const result = expectOk(await executeApply(session, plan, options));
  return { plan, result };
}

/**
 * An agent namespace for the test (home of its inventories), and cleanup when the test ends (as
 * admin, without waiting): the namespaces the tracked environments render, and their other objects
 * that live outside those namespaces. The agent namespace, with the inventories, goes too.
 */
export async function environmentScope(t: TestContext, prefix: string): Promise<{ agentNamespace: string; track: (env: PreparedEnvironment) => void }> {
  const agentNamespace = await uniqueNamespace(`${prefix}-agent`, t);
  const tracked: PreparedEnvironment[] = [];
  t.after(async () => {
    const env = await clusterEnv();
    const session = openSession({ kubeconfigPath: env.kubeconfig, context: env.adminContext });
    if (session.type !== 'ok') return;
    const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
    const ignoreMissing = (err: unknown): void => {
      if (statusCode(err) !== 404) throw err;
    };
    try {
      for (const e of tracked) {
        const namespaces = new Set(e.objects.filter((x) => x.ref.kind === 'Namespace').map((x) => x.ref.name));
        for (const name of namespaces) await core.deleteNamespace({ name }).catch(ignoreMissing);
        for (const o of e.objects.filter((x) => x.ref.kind !== 'Namespace' && !namespaces.has(x.ref.namespace))) {
          await session.value.objects.delete(headerOf(o.ref)).catch(ignoreMissing);
        }
      }
    } finally {
      session.value.close();
    }
  });
  return { agentNamespace, track: (env) => void tracked.push(env) };
}
