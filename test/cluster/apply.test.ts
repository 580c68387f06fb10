// Apply of environment templates on the real control plane (docs/gitlab-behaviour.md#managed-resources-flow): fresh apply, no-op
// re-apply (no writes, counted), prune after a template change, conflicts and force, refusals
// before anything changes, Flux readiness (the test plays the kustomize-controller); the unattended
// path (`--yes`: a plan without preview) sends no dry-run and still refuses what the guards refuse.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CoreV1Api, CustomObjectsApi, PatchStrategy, RbacAuthorizationV1Api, setHeaderOptions, type V1ObjectMeta } from '@kubernetes/client-node';
import { executeApply } from '../../server/src/cluster/apply/execute';
import { isNoop, planApply } from '../../server/src/cluster/apply/plan';
import { INVENTORY_ID_LABEL, OWNING_INVENTORY_ANNOTATION } from '../../server/src/cluster/inventory/configMap';
import { describeOutcome } from '../../server/src/cluster/kube/outcome';
import { FIELD_MANAGER } from '../../server/src/cluster/kube/session';
import { applyOk, environmentScope, expectOk, fixtureTemplate, LOCK_WRITES, prepare, testSession, uniqueEnvironmentName } from './environment-support';
import { installFluxCrds, kubeConfig, statusCode, uniqueNamespace, waitFor } from './harness';
import { acmeShopEnvironmentAnnotation } from '../support/gitlabAnnotation';
import { agentcfg } from '../support/cli';
import { clusterEnv } from './harness';

const TEMPLATE = fixtureTemplate('namespace-sa-rolebinding.yaml');

function gitlabMetadata(meta: V1ObjectMeta | undefined): { labels: Record<string, string>; annotations: Record<string, string> } {
  const pick = (m: Record<string, string> | undefined) => Object.fromEntries(Object.entries(m ?? {}).filter(([k]) => k.startsWith('agent.gitlab.com/')));
  return { labels: pick(meta?.labels), annotations: pick(meta?.annotations) };
}

// docs/gitlab-behaviour.md#managed-object-labels-and-annotation, docs/gitlab-behaviour.md#inventories
test('fresh apply creates every object with GitLab labels/annotation and a cli-utils inventory', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'apply-fresh');
  const env = prepare(TEMPLATE, uniqueEnvironmentName('fresh'), scope.agentNamespace);
  scope.track(env);
  const slug = env.data.environment.slug;
  const ns = `${slug}-42-7`;

  const { plan, result } = await applyOk(session, env);
  assert.deepEqual(plan.objects.map((o) => [o.ref.kind, o.action]), [['Namespace', 'create'], ['ServiceAccount', 'create'], ['RoleBinding', 'create']]);
  assert.match(plan.objects[1].diff, /^\+automountServiceAccountToken: false$/m, 'the plan shows the proposed object as a diff');
  assert.deepEqual(result.applied.map((a) => a.action), ['create', 'create', 'create']);

  const kc = await kubeConfig('admin');
  const core = kc.makeApiClient(CoreV1Api);
  const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
  const live = [
    await core.readNamespace({ name: ns }),
    await core.readNamespacedServiceAccount({ name: 'deployer', namespace: ns }),
    await rbac.readNamespacedRoleBinding({ name: `bind-7-42-${slug}`, namespace: ns }),
  ];
  const expectedAnnotation = acmeShopEnvironmentAnnotation({ id: 99, name: env.data.environment.name, slug });
  for (const object of live) {
    const { labels, annotations } = gitlabMetadata(object.metadata);
    assert.deepEqual(labels, {
      'agent.gitlab.com/id-7': '',
      'agent.gitlab.com/project_id-42': '',
      [`agent.gitlab.com/env-${slug}-42-7`]: '',
      [`agent.gitlab.com/environment_slug-${slug}`]: '',
    });
    assert.deepEqual(Object.keys(annotations), [`agent.gitlab.com/env-${slug}-42-7`]);
    const value = annotations[`agent.gitlab.com/env-${slug}-42-7`];
    assert.deepEqual(JSON.parse(value), expectedAnnotation);
    assert.deepEqual(Object.keys(JSON.parse(value)), Object.keys(expectedAnnotation), 'keys in the documented order');
    assert.equal(object.metadata?.annotations?.[OWNING_INVENTORY_ANNOTATION], `gitlab-env-${slug}-42-7`);
    assert.ok(object.metadata?.managedFields?.some((f) => f.manager === FIELD_MANAGER && f.operation === 'Apply'), 'server-side applied by our field manager');
  }

  const inventory = await core.readNamespacedConfigMap({ name: `gitlab-env-${slug}-42-7`, namespace: scope.agentNamespace });
  assert.equal(inventory.metadata?.labels?.[INVENTORY_ID_LABEL], `gitlab-env-${slug}-42-7`);
  assert.deepEqual(inventory.data, {
    [`_${ns}__Namespace`]: '',
    [`${ns}_deployer__ServiceAccount`]: '',
    [`${ns}_bind-7-42-${slug}_rbac.authorization.k8s.io_RoleBinding`]: '',
  });
});

test('re-applying an unchanged environment is a no-op: every object unchanged, zero writes', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'apply-noop');
  const env = prepare(TEMPLATE, uniqueEnvironmentName('noop'), scope.agentNamespace);
  scope.track(env);
  await applyOk(session, env);

  const before = session.requests.snapshot();
  const plan = expectOk(await planApply(session, env));
  assert.deepEqual(plan.objects.map((o) => o.action), ['unchanged', 'unchanged', 'unchanged']);
  assert.ok(plan.objects.every((o) => o.diff === ''));
  assert.equal(isNoop(plan), true);
  const result = expectOk(await executeApply(session, plan));
  assert.deepEqual(result.requests, { total: 0, reads: 0, watches: 0, writes: 0, dryRuns: 0 }, 'executing a no-op plan sends nothing');
  const all = session.requests.since(before);
  assert.equal(all.writes, 0, 'plan + execute wrote nothing');
  // 1 inventory read + per object 1 read and 1 dry-run (3 objects).
  assert.deepEqual({ reads: all.reads, dryRuns: all.dryRuns }, { reads: 4, dryRuns: 3 });
});

test('re-apply after a template change creates the new object and prunes the one no longer rendered', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'apply-prune');
  const name = uniqueEnvironmentName('prune');
  const env = prepare(TEMPLATE, name, scope.agentNamespace);
  scope.track(env);
  await applyOk(session, env);
  const ns = `${env.data.environment.slug}-42-7`;

  const changed = prepare(fixtureTemplate('namespace-sa-rolebinding-changed.yaml'), name, scope.agentNamespace);
  const { plan, result } = await applyOk(session, changed);
  assert.deepEqual(plan.objects.map((o) => [o.ref.name, o.action]), [[ns, 'unchanged'], ['runner', 'create'], [`bind-7-42-${env.data.environment.slug}`, 'unchanged']]);
  assert.deepEqual(plan.prunes.map((p) => p.ref.name), ['deployer']);
  assert.deepEqual(result.pruned.map((p) => p.name), ['deployer']);

  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
  await assert.rejects(core.readNamespacedServiceAccount({ name: 'deployer', namespace: ns }), (err: unknown) => statusCode(err) === 404);
  await core.readNamespacedServiceAccount({ name: 'runner', namespace: ns });
  const inventory = await core.readNamespacedConfigMap({ name: env.inventory.name, namespace: scope.agentNamespace });
  assert.deepEqual(Object.keys(inventory.data ?? {}).sort(), [`${ns}_runner__ServiceAccount`, `_${ns}__Namespace`, `${ns}_bind-7-42-${env.data.environment.slug}_rbac.authorization.k8s.io_RoleBinding`].sort());
});

test('a field owned by another manager is a conflict naming it (409); only force takes it over', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'apply-conflict');
  const env = prepare(TEMPLATE, uniqueEnvironmentName('conflict'), scope.agentNamespace);
  scope.track(env);
  await applyOk(session, env);
  const ns = `${env.data.environment.slug}-42-7`;
  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
  await core.patchNamespacedServiceAccount(
    { name: 'deployer', namespace: ns, fieldManager: 'platform-team', force: true, body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'deployer', namespace: ns }, automountServiceAccountToken: true } },
    setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
  );

  const plan = expectOk(await planApply(session, env));
  const sa = plan.objects.find((o) => o.ref.kind === 'ServiceAccount');
  assert.deepEqual(sa?.conflict?.managers, ['platform-team']);
  assert.equal(sa?.action, 'update');
  const refused = await executeApply(session, plan);
  assert.equal(refused.type, 'conflict');
  assert.match(describeOutcome(refused), /ServiceAccount 'deployer' in namespace '.*': fields are owned by "platform-team".*force/);
  assert.equal((await core.readNamespacedServiceAccount({ name: 'deployer', namespace: ns })).automountServiceAccountToken, true, 'nothing changed without force');

  expectOk(await executeApply(session, plan, { force: true }));
  assert.equal((await core.readNamespacedServiceAccount({ name: 'deployer', namespace: ns })).automountServiceAccountToken, false);
  const again = expectOk(await planApply(session, env));
  assert.ok(again.objects.every((o) => o.conflict === undefined && o.action === 'unchanged'), 'after force we own the field again');
});

// docs/gitlab-behaviour.md#template-object-kinds
test('an unsupported kind is refused before anything changes', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'apply-kind');
  const env = prepare(fixtureTemplate('with-configmap.yaml'), uniqueEnvironmentName('kind'), scope.agentNamespace);
  scope.track(env);
  const plan = expectOk(await planApply(session, env));
  assert.equal(plan.blocked.length, 1);
  assert.match(plan.blocked[0].message, /core\/v1\/ConfigMap 'settings' in namespace '.*': kind ConfigMap is not supported in environment templates \(supported: /);
  const result = await executeApply(session, plan);
  assert.equal(result.type, 'refused');
  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
  await assert.rejects(core.readNamespace({ name: `${env.data.environment.slug}-42-7` }), (err: unknown) => statusCode(err) === 404);
  await assert.rejects(core.readNamespacedConfigMap({ name: env.inventory.name, namespace: scope.agentNamespace }), (err: unknown) => statusCode(err) === 404);
});

test('an object the API server rejects (422) blocks the apply with the server causes; nothing is created', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'apply-invalid');
  const template = fixtureTemplate('invalid-rolebinding.yaml').replaceAll('AGENT-NAMESPACE', scope.agentNamespace);
  const env = prepare(template, uniqueEnvironmentName('invalid'), scope.agentNamespace);
  const plan = expectOk(await planApply(session, env));
  assert.equal(plan.blocked.length, 1);
  const failure = plan.blocked[0];
  assert.equal(failure.type, 'invalid', describeOutcome(failure));
  assert.match(describeOutcome(failure), /^The cluster rejected rbac\.authorization\.k8s\.io\/v1\/RoleBinding 'bind-review-invalid-[a-z0-9-]+' in namespace '.*' as invalid: .*roleRef\.kind: Unsupported value: "Nonsense".*Fix the template\.$/s);
  assert.equal((await executeApply(session, plan)).type, 'invalid');
  const kc = await kubeConfig('admin');
  await assert.rejects(kc.makeApiClient(RbacAuthorizationV1Api).readNamespacedRoleBinding({ name: plan.blocked[0].ref!.name, namespace: scope.agentNamespace }), (err: unknown) => statusCode(err) === 404);
  await assert.rejects(kc.makeApiClient(CoreV1Api).readNamespacedConfigMap({ name: env.inventory.name, namespace: scope.agentNamespace }), (err: unknown) => statusCode(err) === 404);
});

test('Flux objects are waited for until Ready=True for their generation (the test plays kustomize-controller)', async (t) => {
  await installFluxCrds();
  const session = await testSession(t);
  const scope = await environmentScope(t, 'apply-flux');
  const env = prepare(fixtureTemplate('kustomization.yaml'), uniqueEnvironmentName('flux'), scope.agentNamespace);
  scope.track(env);
  const ns = `${env.data.environment.slug}-42-7`;
  const plan = expectOk(await planApply(session, env));
  assert.deepEqual(plan.objects.map((o) => [o.ref.kind, o.tier]), [['Namespace', 'namespaces'], ['Kustomization', 'flux']]);

  const custom = (await kubeConfig('admin')).makeApiClient(CustomObjectsApi);
  const target = { group: 'kustomize.toolkit.fluxcd.io', version: 'v1', namespace: ns, plural: 'kustomizations', name: 'app' };
  let reported = false;
  const progress = {
    report: (message: string) => {
      // Once the apply waits on the Kustomization, report Ready as the controller would.
      if (reported || !message.startsWith(`Waiting for Kustomization ${ns}/app to be ready`)) return;
      reported = true;
      void custom.patchNamespacedCustomObjectStatus(
        { ...target, body: { status: { observedGeneration: 1, conditions: [{ type: 'Ready', status: 'True', reason: 'ReconciliationSucceeded', message: 'Applied revision: latest', lastTransitionTime: new Date().toISOString() }] } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
    },
  };
  const before = session.requests.snapshot();
  const result = expectOk(await executeApply(session, plan, { progress, timeoutMs: 60_000 }));
  assert.equal(reported, true, 'the apply waited for the Kustomization');
  assert.deepEqual(result.applied.map((a) => a.ref.kind), ['Namespace', 'Kustomization']);
  assert.ok(session.requests.since(before).watches >= 1, 'readiness came from a watch');
});

test('a Flux object that never becomes Ready ends the apply with a timeout naming it and its last status', async (t) => {
  await installFluxCrds();
  const session = await testSession(t);
  const scope = await environmentScope(t, 'apply-timeout');
  const env = prepare(fixtureTemplate('kustomization.yaml'), uniqueEnvironmentName('timeout'), scope.agentNamespace);
  scope.track(env);
  const plan = expectOk(await planApply(session, env));
  const result = await executeApply(session, plan, { timeoutMs: 1_500 });
  assert.equal(result.type, 'timeout');
  assert.match(describeOutcome(result), /Kustomization 'app' in namespace '.*' was not ready within the apply's timeout of 1\.5 s; last status: waiting for the Flux controller/);
  // The inventory tracks what was created, so a later destroy finds it.
  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
  const inventory = await core.readNamespacedConfigMap({ name: env.inventory.name, namespace: scope.agentNamespace });
  assert.equal(Object.keys(inventory.data ?? {}).length, 2);

  // Re-run while it is still not ready: not "nothing to do" — it waits again, and fails again.
  const rerun = expectOk(await planApply(session, env));
  assert.deepEqual(rerun.objects.map((o) => o.action), ['unchanged', 'unchanged']);
  assert.equal(isNoop(rerun), false, 'an object still not ready leaves something to wait for');
  const again = await executeApply(session, rerun, { timeoutMs: 1_500 });
  assert.equal(again.type, 'timeout');
});

test('many objects of one kind in one namespace are read with one LIST; a re-plan still finds them unchanged', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'apply-batch');
  const ns = '"{{ .environment.slug }}-{{ .project.id }}-{{ .agent.id }}"';
  const accounts = Array.from({ length: 12 }, (_, i) => `  - apiVersion: v1\n    kind: ServiceAccount\n    metadata:\n      name: sa-${i}\n      namespace: ${ns}\n`).join('');
  const env = prepare(`objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: ${ns}\n${accounts}`, uniqueEnvironmentName('batch'), scope.agentNamespace);
  scope.track(env);
  await applyOk(session, env);
  const before = session.requests.snapshot();
  const plan = expectOk(await planApply(session, env));
  assert.deepEqual([...new Set(plan.objects.map((o) => o.action))], ['unchanged']);
  // inventory GET + Namespace GET + one ServiceAccount LIST; one dry-run per object.
  assert.deepEqual({ reads: session.requests.since(before).reads, dryRuns: session.requests.since(before).dryRuns }, { reads: 3, dryRuns: 13 });
});

test('an identity that may get but not list a kind still gets a plan: the batched LIST falls back to one GET per object', async (t) => {
  const namespace = await uniqueNamespace('apply-get-only', t);
  // In this namespace the restricted identity may read (get, never list) and apply ServiceAccounts and read ConfigMaps.
  const rbac = (await kubeConfig('admin')).makeApiClient(RbacAuthorizationV1Api);
  await rbac.createNamespacedRole({
    namespace,
    body: {
      metadata: { name: 'get-only' },
      rules: [
        { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['get', 'create', 'patch'] },
        { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
      ],
    },
  });
  await rbac.createNamespacedRoleBinding({
    namespace,
    body: { metadata: { name: 'get-only' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'get-only' }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'agentcfg-restricted' }] },
  });
  const accounts = Array.from({ length: 5 }, (_, i) => `  - apiVersion: v1\n    kind: ServiceAccount\n    metadata:\n      name: sa-${i}\n      namespace: ${namespace}\n`).join('');
  const env = prepare(`objects:\n${accounts}`, uniqueEnvironmentName('get-only'), namespace);
  const restricted = await testSession(t, 'restricted');
  // The authorizer learns the Role from a watch: a first plan may still see none of it.
  let last = '';
  const plan = await waitFor(
    'a plan without blocked objects',
    async () => {
      const planned = expectOk(await planApply(restricted, env));
      last = planned.blocked.map((b) => describeOutcome(b)).join('; ');
      return planned.blocked.length === 0 && planned;
    },
    { timeoutMs: 15_000 },
  ).catch(() => assert.fail(`still blocked: ${last}`));
  assert.deepEqual(plan.objects.map((o) => o.action), ['create', 'create', 'create', 'create', 'create']);
});

test('an apply cancelled half-way leaves every object it may have created in the inventory; running it again finishes', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'apply-cancel');
  const env = prepare(TEMPLATE, uniqueEnvironmentName('cancel'), scope.agentNamespace);
  scope.track(env);
  const controller = new AbortController();
  const plan = expectOk(await planApply(session, env));
  const cancelled = await executeApply(session, plan, { signal: controller.signal, concurrency: 1, progress: { report: (m) => void (/^Applied \d+ of \d+ objects? \(created /.test(m) && controller.abort()) } });
  assert.equal(cancelled.type, 'cancelled');
  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
  const inventory = await core.readNamespacedConfigMap({ name: env.inventory.name, namespace: scope.agentNamespace });
  assert.equal(Object.keys(inventory.data ?? {}).length, 3, 'the inventory was written before anything was created');
  await core.readNamespace({ name: `${env.data.environment.slug}-42-7` });
  await assert.rejects(core.readNamespacedServiceAccount({ name: 'deployer', namespace: `${env.data.environment.slug}-42-7` }), (err: unknown) => statusCode(err) === 404);

  const { plan: again } = await applyOk(session, env);
  assert.deepEqual(again.objects.map((o) => o.action), ['unchanged', 'create', 'create']);
});

test('an apply nobody reviews (preview: false, as --yes) sends no dry-run; the apply answers say what changed', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'apply-unattended');
  const name = uniqueEnvironmentName('unattended');
  const env = prepare(TEMPLATE, name, scope.agentNamespace);
  scope.track(env);

  const fresh = session.requests.snapshot();
  const plan = expectOk(await planApply(session, env, { preview: false }));
  assert.equal(plan.previewed, false);
  assert.deepEqual(plan.objects.map((o) => o.action), ['create', 'create', 'create']);
  const result = expectOk(await executeApply(session, plan));
  assert.deepEqual(result.applied.map((a) => a.action), ['create', 'create', 'create']);
  assert.equal(result.changed, true);
  const first = session.requests.since(fresh);
  assert.deepEqual({ dryRuns: first.dryRuns, writes: first.writes }, { dryRuns: 0, writes: 4 + LOCK_WRITES }, 'three applies and one inventory write, no dry-run');

  // Unchanged: each object is applied once (the server changes nothing), the inventory is not written.
  const again = session.requests.snapshot();
  const replan = expectOk(await planApply(session, env, { preview: false }));
  assert.deepEqual(replan.objects.map((o) => o.action), ['update', 'update', 'update'], 'without a preview an existing object is applied, the server decides');
  const rerun = expectOk(await executeApply(session, replan));
  assert.deepEqual(rerun.applied.map((a) => a.action), ['unchanged', 'unchanged', 'unchanged'], 'read from the unmoved resourceVersions');
  assert.equal(rerun.changed, false);
  const second = session.requests.since(again);
  assert.deepEqual({ dryRuns: second.dryRuns, writes: second.writes, watches: second.watches }, { dryRuns: 0, writes: 3 + LOCK_WRITES, watches: 0 });

  // A template change: created, pruned (no dry-run delete either), the inventory exactly the new set.
  const changed = prepare(fixtureTemplate('namespace-sa-rolebinding-changed.yaml'), name, scope.agentNamespace);
  const third = session.requests.snapshot();
  const changedPlan = expectOk(await planApply(session, changed, { preview: false }));
  assert.deepEqual(changedPlan.prunes.map((p) => p.ref.name), ['deployer']);
  const changedResult = expectOk(await executeApply(session, changedPlan));
  assert.deepEqual(changedResult.applied.map((a) => [a.ref.name, a.action]), [[`${env.data.environment.slug}-42-7`, 'unchanged'], ['runner', 'create'], [`bind-7-42-${env.data.environment.slug}`, 'unchanged']]);
  assert.deepEqual(changedResult.pruned.map((p) => p.name), ['deployer']);
  assert.equal(session.requests.since(third).dryRuns, 0);
  const inventory = await (await kubeConfig('admin')).makeApiClient(CoreV1Api).readNamespacedConfigMap({ name: env.inventory.name, namespace: scope.agentNamespace });
  assert.equal(Object.keys(inventory.data ?? {}).length, 3);
});

test('without a preview the guards still refuse before anything is sent: an object another inventory owns', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'apply-unattended-guard');
  const first = prepare(TEMPLATE, uniqueEnvironmentName('owner'), scope.agentNamespace);
  scope.track(first);
  await applyOk(session, first);
  const ns = `${first.data.environment.slug}-42-7`;
  const account = (name: string) => `  - apiVersion: v1\n    kind: ServiceAccount\n    metadata:\n      name: ${name}\n      namespace: ${ns}\n`;
  const second = prepare(`objects:\n${account('newcomer')}${account('deployer')}`, uniqueEnvironmentName('taker'), scope.agentNamespace);

  const before = session.requests.snapshot();
  const plan = expectOk(await planApply(session, second, { preview: false }));
  assert.equal(plan.blocked.length, 1);
  assert.match(describeOutcome(plan.blocked[0]), new RegExp(`ServiceAccount 'deployer' in namespace '${ns}' is not applied: it already exists and belongs to another inventory \\('${first.inventory.name}'\\)`));
  const refused = await executeApply(session, plan);
  assert.equal(refused.type, 'refused');
  const counts = session.requests.since(before);
  assert.deepEqual({ dryRuns: counts.dryRuns, writes: counts.writes }, { dryRuns: 0, writes: 0 }, 'nothing written, not even the inventory');
  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
  await assert.rejects(core.readNamespacedServiceAccount({ name: 'newcomer', namespace: ns }), (err: unknown) => statusCode(err) === 404);
  assert.equal((await core.readNamespacedServiceAccount({ name: 'deployer', namespace: ns })).metadata?.annotations?.[OWNING_INVENTORY_ANNOTATION], first.inventory.name);
});

test('without a preview a field owned by another manager is a 409 of the apply itself, with the same message; force takes it over', async (t) => {
  const session = await testSession(t);
  const scope = await environmentScope(t, 'apply-unattended-conflict');
  const env = prepare(TEMPLATE, uniqueEnvironmentName('uconflict'), scope.agentNamespace);
  scope.track(env);
  await applyOk(session, env);
  const ns = `${env.data.environment.slug}-42-7`;
  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
  await core.patchNamespacedServiceAccount(
    { name: 'deployer', namespace: ns, fieldManager: 'platform-team', force: true, body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'deployer', namespace: ns }, automountServiceAccountToken: true } },
    setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
  );

  const plan = expectOk(await planApply(session, env, { preview: false }));
  assert.deepEqual(plan.blocked, []);
  const refused = await executeApply(session, plan);
  assert.equal(refused.type, 'conflict');
  assert.match(describeOutcome(refused), /ServiceAccount 'deployer' in namespace '.*': fields are owned by "platform-team".*force/);
  assert.equal((await core.readNamespacedServiceAccount({ name: 'deployer', namespace: ns })).automountServiceAccountToken, true);

  const forced = expectOk(await executeApply(session, expectOk(await planApply(session, env, { preview: false })), { force: true }));
  assert.deepEqual(forced.applied.map((a) => a.action), ['unchanged', 'update', 'unchanged']);
  assert.equal((await core.readNamespacedServiceAccount({ name: 'deployer', namespace: ns })).automountServiceAccountToken, false);
});

test('agentcfg apply --yes sends no dry-run (the JSON counts the requests); --dry-run previews with one per object', async (t) => {
  const env = await clusterEnv();
  const scope = await environmentScope(t, 'apply-cli-yes');
  const name = uniqueEnvironmentName('cli-yes');
  scope.track(prepare(TEMPLATE, name, scope.agentNamespace));
  const common = ['apply', 'test/fixtures/templates/namespace-sa-rolebinding.yaml', '--project', 'acme/shop', '--project-id', '42', '--environment', name, '--agent', 'prod', '--agent-id', '7'];
  const cluster = ['--kubeconfig', env.kubeconfig, '--context', env.adminContext, '--agent-namespace', scope.agentNamespace, '--format', 'json'];

  const applied = agentcfg(...common, ...cluster, '--yes');
  assert.equal(applied.code, 0, applied.stderr);
  const out = JSON.parse(applied.stdout);
  assert.equal(out.plan.previewed, false);
  assert.equal(out.requests.dryRuns, 0);
  assert.deepEqual(out.result.applied.map((a: { action: string }) => a.action), ['create', 'create', 'create']);

  const preview = JSON.parse(agentcfg(...common, ...cluster, '--dry-run').stdout);
  assert.equal(preview.plan.previewed, true);
  assert.deepEqual(preview.plan.objects.map((o: { action: string }) => o.action), ['unchanged', 'unchanged', 'unchanged']);
  assert.equal(preview.requests.dryRuns, 3);

  const again = agentcfg(...common, '--kubeconfig', env.kubeconfig, '--context', env.adminContext, '--agent-namespace', scope.agentNamespace, '--yes');
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /^ {2}apply {5}core\/v1\/ServiceAccount 'deployer'/m);
  assert.match(again.stdout, /Nothing to do: the cluster already matches the template\./);
});
