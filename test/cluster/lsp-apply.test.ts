// Apply and delete an environment over LSP (stdio, the built server) against the real control plane:
// planApply → executePlan creates the namespace with GitLab's labels (docs/gitlab-behaviour.md#managed-object-labels-and-annotation), a re-plan is a
// no-op, planDestroy → executePlan removes exactly what the inventory lists (docs/gitlab-behaviour.md#inventories); template,
// permission, connection and stale-plan errors come back as clear messages.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import { CoreV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { environmentSlug } from '../../server/src/engine/vars/slug';
import { CLUSTER_COMMANDS, type ApplyPlanView, type ClusterInventory, type DestroyPlanView, type EnvironmentScenarioArgs, type ExecutionReport } from '../../server/src/protocol/cluster';
import { statusCode } from './harness';
import { execute, trustedServerForFile } from './lsp-support';

const server = trustedServerForFile();
const AGENT_ID = 7;
// The apply creates the agent namespace (the inventories' home) when missing; the tool never deletes it.
const agentNamespace = `lsp-apply-agent-${Date.now().toString(36)}`;

after(async () => {
  await server.kc?.makeApiClient(CoreV1Api).deleteNamespace({ name: agentNamespace }).catch((err: unknown) => {
    if (statusCode(err) !== 404) throw err;
  });
});

const admin = () => ({ kubeconfigPath: server.env.kubeconfig, context: server.env.adminContext });

function scenario(environmentName: string, projectId: number): EnvironmentScenarioArgs {
  return { agentName: 'lsp-agent', agentId: AGENT_ID, projectId, projectPath: 'acme/shop/app', environmentName, scenarioName: 'lsp test' };
}

function reports(token: string): string[] {
  return (server.progress.get(token) ?? []).flatMap((v) => (v.kind === 'report' && v.message ? [v.message] : []));
}

async function namespaceGone(name: string): Promise<boolean> {
  try {
    await server.kc.makeApiClient(CoreV1Api).readNamespace({ name });
    return false;
  } catch (err) {
    if (statusCode(err) === 404) return true;
    throw err;
  }
}

test('plan → execute creates the namespace of the built-in default template; re-plan is a no-op; delete removes it', async () => {
  const projectId = 100_000 + Math.floor(Math.random() * 800_000);
  const environmentName = 'review/lsp-apply';
  const namespace = `${environmentSlug(environmentName)}-${projectId}-${AGENT_ID}`;

  const planned = await execute<ApplyPlanView>(server.client, CLUSTER_COMMANDS.planApply, { cluster: admin(), agentNamespace, scenario: scenario(environmentName, projectId) });
  assert.ok(planned.result.ok, JSON.stringify(planned.result));
  const plan = planned.result.value;
  assert.deepEqual(
    plan.objects.map((o) => [o.id, o.action]),
    [
      [`Namespace ${namespace}`, 'create'],
      [`RoleBinding ${namespace}/bind-${AGENT_ID}-${projectId}-${environmentSlug(environmentName)}`, 'create'],
    ],
  );
  assert.equal(plan.objects[0].live, '', 'nothing live yet');
  // docs/gitlab-behaviour.md#managed-object-labels-and-annotation
  assert.match(plan.objects[0].proposed, new RegExp(`agent.gitlab.com/id-${AGENT_ID}: ""`), 'GitLab labels on the proposed object');
  assert.match(plan.diff, new RegExp(`\\+\\s+name: ${namespace}`));
  assert.equal(plan.hasConflicts, false);
  assert.equal(plan.noop, false);
  assert.equal(plan.context, server.env.adminContext);
  assert.equal(await namespaceGone(namespace), true, 'planning changes nothing');
  assert.ok(reports(planned.token).some((m) => /^Checked \d+ of \d+ objects?: .+ passed a server-side dry run$/.test(m)), `dry-run progress: ${reports(planned.token).join(' | ')}`);

  const applied = await execute<ExecutionReport>(server.client, CLUSTER_COMMANDS.executePlan, { cluster: admin(), planId: plan.planId });
  assert.ok(applied.result.ok, JSON.stringify(applied.result));
  assert.match(applied.result.value.summary, /^2 created, 0 updated, 0 unchanged, 0 pruned; inventory .* lists 2 objects\.$/);
  // Progress reads naturally: the words the editor's notification shows, in order.
  assert.deepEqual(reports(applied.token), [
    `Creating Namespace ${agentNamespace} for the inventory…`,
    `Applied 1 of 2 objects (created Namespace ${namespace})`,
    `Applied 2 of 2 objects (created RoleBinding ${namespace}/bind-${AGENT_ID}-${projectId}-${environmentSlug(environmentName)})`,
  ]);
  assert.equal(server.progress.get(applied.token)?.at(-1)?.kind, 'end');
  const live = await server.kc.makeApiClient(CoreV1Api).readNamespace({ name: namespace });
  assert.equal(live.status?.phase, 'Active');
  assert.ok(`agent.gitlab.com/env-${environmentSlug(environmentName)}-${projectId}-${AGENT_ID}` in (live.metadata?.labels ?? {}));

  // The tree view's listing finds it by GitLab's annotation (docs/gitlab-behaviour.md#managed-object-labels-and-annotation), Ready.
  const listed = await execute<ClusterInventory>(server.client, CLUSTER_COMMANDS.listClusterObjects, { cluster: admin() });
  assert.ok(listed.result.ok, JSON.stringify(listed.result));
  const found = listed.result.value.environments.find((e) => e.namespace === namespace);
  assert.deepEqual(found, {
    inventory: { namespace: agentNamespace, name: `gitlab-env-${environmentSlug(environmentName)}-${projectId}-${AGENT_ID}` },
    environment: environmentName,
    projectPath: 'acme/shop/app',
    namespace,
    objectCount: 2,
    state: 'Ready',
  });

  // A plan runs once.
  const again = await execute<ExecutionReport>(server.client, CLUSTER_COMMANDS.executePlan, { cluster: admin(), planId: plan.planId });
  assert.equal(!again.result.ok && again.result.kind, 'planNotFound');
  assert.match(!again.result.ok ? again.result.message : '', /no longer available.*Run the command again/);

  const replanned = await execute<ApplyPlanView>(server.client, CLUSTER_COMMANDS.planApply, { cluster: admin(), agentNamespace, scenario: scenario(environmentName, projectId) });
  assert.ok(replanned.result.ok, JSON.stringify(replanned.result));
  assert.equal(replanned.result.value.noop, true, 'the cluster matches the template');
  await execute(server.client, CLUSTER_COMMANDS.discardPlan, { planId: replanned.result.value.planId });

  const inventory = { namespace: agentNamespace, name: `gitlab-env-${environmentSlug(environmentName)}-${projectId}-${AGENT_ID}` };
  const destroyPlan = await execute<DestroyPlanView>(server.client, CLUSTER_COMMANDS.planDestroy, { cluster: admin(), agentNamespace, inventory });
  assert.ok(destroyPlan.result.ok, JSON.stringify(destroyPlan.result));
  assert.deepEqual(destroyPlan.result.value.objects, [
    `RoleBinding ${namespace}/bind-${AGENT_ID}-${projectId}-${environmentSlug(environmentName)}`,
    `Namespace ${namespace}`,
    `ConfigMap ${inventory.namespace}/${inventory.name} (the inventory)`,
  ]);
  const destroyed = await execute<ExecutionReport>(server.client, CLUSTER_COMMANDS.executePlan, { cluster: admin(), planId: destroyPlan.result.value.planId });
  assert.ok(destroyed.result.ok, JSON.stringify(destroyed.result));
  assert.match(destroyed.result.value.summary, /^2 deleted; inventory deleted\.$/);
  // Never "deleting: deleting core/v1/Namespace": the RoleBinding, then the Namespace and its wait, then the inventory.
  const deleting = reports(destroyed.token);
  const at = (m: string) => deleting.indexOf(m);
  assert.ok(at(`Deleting RoleBinding ${namespace}/bind-${AGENT_ID}-${projectId}-${environmentSlug(environmentName)}…`) >= 0, deleting.join(' | '));
  assert.ok(at(`Deleting RoleBinding ${namespace}/bind-${AGENT_ID}-${projectId}-${environmentSlug(environmentName)}…`) < at(`Deleting Namespace ${namespace}…`), deleting.join(' | '));
  assert.ok(at(`Deleting Namespace ${namespace}…`) < at(`Waiting for Namespace ${namespace} to disappear…`), deleting.join(' | '));
  assert.equal(deleting.at(-1), `Deleting the inventory ${inventory.namespace}/${inventory.name}…`);
  assert.equal(await namespaceGone(namespace), true);
  const relisted = await execute<ClusterInventory>(server.client, CLUSTER_COMMANDS.listClusterObjects, { cluster: admin() });
  assert.ok(relisted.result.ok && !relisted.result.value.environments.some((e) => e.namespace === namespace), 'gone from the listing');

  const nothing = await execute<DestroyPlanView>(server.client, CLUSTER_COMMANDS.planDestroy, { cluster: admin(), agentNamespace, inventory });
  assert.ok(nothing.result.ok);
  assert.match(nothing.result.value.nothingToDelete ?? '', /There is no inventory .*: nothing to delete/);
});

test('a template error comes back with the file, line and column', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lsp-apply-template-'));
  const file = path.join(dir, 'default.yaml');
  writeFileSync(file, 'objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: "{{ .environment.nope | lower }}"\n');
  const { result } = await execute<ApplyPlanView>(server.client, CLUSTER_COMMANDS.planApply, {
    cluster: admin(),
    agentNamespace,
    templateUri: pathToFileURL(file).href,
    scenario: scenario('review/broken', 1),
  });
  assert.equal(!result.ok && result.kind, 'templateError');
  assert.match(!result.ok ? result.message : '', new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:5:\\d+: `));
});

// docs/gitlab-behaviour.md#environment-template-file
test('delete_resources: never refuses to plan a deletion, with GitLab\'s reason', async () => {
  const { result } = await execute<DestroyPlanView>(server.client, CLUSTER_COMMANDS.planDestroy, {
    cluster: admin(),
    agentNamespace,
    inventory: { namespace: agentNamespace, name: 'gitlab-env-whatever-1-7' },
    deleteResources: 'never',
  });
  assert.equal(!result.ok && result.kind, 'refused');
  assert.match(!result.ok ? result.message : '', /delete_resources: never.*never deletes/);
});

test('the restricted identity gets one clear 403 naming the identity, verbs, resources and namespaces, and what to do in the editor', async () => {
  const { result } = await execute<ApplyPlanView>(server.client, CLUSTER_COMMANDS.planApply, {
    cluster: { kubeconfigPath: server.env.kubeconfig, context: server.env.restrictedContext },
    agentNamespace: server.env.restrictedNamespace,
    scenario: scenario('review/forbidden', 2),
  });
  assert.equal(result.ok, false);
  assert.equal(!result.ok && result.kind, 'forbidden', JSON.stringify(result));
  // One message: who was refused, each verb × resource × namespace, what to do in the editor — not one raw 403 per object.
  assert.match(
    !result.ok ? result.message : '',
    /^review\/forbidden \(gitlab-env-review-forbidden-[a-z0-9]+-2-7\): nothing was changed — the cluster refused "agentcfg-restricted" \(403 Forbidden\): may not get namespaces in namespace review-forbidden-[a-z0-9]+-2-7; .*Ask a cluster administrator for these permissions, or select a context with more rights \(click the cluster context in the status bar\)\.$/,
  );
});

test('an unreachable API server is a clear message, not a hang or a crash', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lsp-apply-kubeconfig-'));
  const file = path.join(dir, 'kubeconfig');
  writeFileSync(
    file,
    'apiVersion: v1\nkind: Config\nclusters:\n- name: gone\n  cluster:\n    server: https://127.0.0.1:1\n    insecure-skip-tls-verify: true\nusers:\n- name: u\n  user:\n    token: t\ncontexts:\n- name: gone\n  context:\n    cluster: gone\n    user: u\ncurrent-context: gone\n',
  );
  const { result } = await execute<ApplyPlanView>(server.client, CLUSTER_COMMANDS.planApply, { cluster: { kubeconfigPath: file }, agentNamespace, scenario: scenario('review/gone', 3) });
  assert.equal(!result.ok && result.kind, 'unreachable', JSON.stringify(result));
  assert.match(!result.ok ? result.message : '', /Cannot reach the cluster.*Check the context's server address/);
});

test('fields owned by another manager: the plan names it, execute without force is refused, with force it applies', async () => {
  const projectId = 100_000 + Math.floor(Math.random() * 800_000);
  const environmentName = 'review/lsp-conflict';
  const namespace = `${environmentSlug(environmentName)}-${projectId}-${AGENT_ID}`;
  const label = `agent.gitlab.com/id-${AGENT_ID}`;
  const first = await execute<ApplyPlanView>(server.client, CLUSTER_COMMANDS.planApply, { cluster: admin(), agentNamespace, scenario: scenario(environmentName, projectId) });
  assert.ok(first.result.ok, JSON.stringify(first.result));
  const applied = await execute<ExecutionReport>(server.client, CLUSTER_COMMANDS.executePlan, { cluster: admin(), planId: first.result.value.planId });
  assert.ok(applied.result.ok, JSON.stringify(applied.result));
  try {
    // Someone else takes over one of the labels GitLab's metadata sets (docs/gitlab-behaviour.md#managed-object-labels-and-annotation).
    await server.kc.makeApiClient(CoreV1Api).patchNamespace(
      { name: namespace, body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels: { [label]: 'theirs' } } }, fieldManager: 'someone-else', force: true },
      setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
    );
    const planned = await execute<ApplyPlanView>(server.client, CLUSTER_COMMANDS.planApply, { cluster: admin(), agentNamespace, scenario: scenario(environmentName, projectId) });
    assert.ok(planned.result.ok, JSON.stringify(planned.result));
    assert.equal(planned.result.value.hasConflicts, true);
    const conflicted = planned.result.value.objects.find((o) => o.id === `Namespace ${namespace}`);
    assert.deepEqual(conflicted?.conflict?.managers, ['someone-else']);

    const refused = await execute<ExecutionReport>(server.client, CLUSTER_COMMANDS.executePlan, { cluster: admin(), planId: planned.result.value.planId });
    assert.equal(!refused.result.ok && refused.result.kind, 'conflict');
    assert.match(!refused.result.ok ? refused.result.message : '', /owned by "someone-else".*Apply again with force/);

    const again = await execute<ApplyPlanView>(server.client, CLUSTER_COMMANDS.planApply, { cluster: admin(), agentNamespace, scenario: scenario(environmentName, projectId) });
    assert.ok(again.result.ok);
    const forced = await execute<ExecutionReport>(server.client, CLUSTER_COMMANDS.executePlan, { cluster: admin(), planId: again.result.value.planId, force: true });
    assert.ok(forced.result.ok, JSON.stringify(forced.result));
    const live = await server.kc.makeApiClient(CoreV1Api).readNamespace({ name: namespace });
    assert.equal(live.metadata?.labels?.[label], '', 'our value again');
  } finally {
    const inventory = { namespace: agentNamespace, name: `gitlab-env-${environmentSlug(environmentName)}-${projectId}-${AGENT_ID}` };
    const plan = await execute<DestroyPlanView>(server.client, CLUSTER_COMMANDS.planDestroy, { cluster: admin(), agentNamespace, inventory });
    if (plan.result.ok) await execute(server.client, CLUSTER_COMMANDS.executePlan, { cluster: admin(), planId: plan.result.value.planId });
  }
});
