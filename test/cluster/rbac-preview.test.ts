// The RBAC preview on the real control plane: Roles and ClusterRoles bound to the
// `gitlab:` groups of a ci_job identity and to an impersonated user; the preview must say what the
// API server then allows, checked by acting as that identity with impersonation headers (kubectl
// --as/--as-group, https://kubernetes.io/docs/reference/access-authn-authz/authentication/#user-impersonation).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { RbacAuthorizationV1Api, type V1PolicyRule } from '@kubernetes/client-node';
import { readCiAccess } from '../../server/src/engine/access/model';
import { simulateAccess } from '../../server/src/engine/access/simulate';
import { parseYaml } from '../../server/src/engine/yaml/yamlDocument';
import { canICommand } from '../../server/src/cli/commands/canI';
import { previewAccess, reviewSubject, type AccessPreview, type ReviewSubject } from '../../server/src/cluster/rbac';
import { expectOk, testSession } from './environment-support';
import { clusterEnv, kubeConfig, uniqueNamespace } from './harness';

const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
const BOT = `deploy-bot-${suffix}`;
const OPS = `ops-${suffix}`;

const config = (namespace: string) => `ci_access:
  projects:
    - id: acme/payments
      default_namespace: ${namespace}
      access_as:
        ci_job: {}
      environments: [production]
    - id: acme/tools
      default_namespace: ${namespace}
      access_as:
        impersonate:
          username: ${BOT}
          groups: [${OPS}]
`;

/** What the simulation gives a job of `project` deploying to production. */
function simulated(namespace: string, project: string) {
  const model = readCiAccess(parseYaml(config(namespace)).value);
  const outcome = simulateAccess(model, { configProjectPath: 'acme/agents', name: 'prod' }, { projectPath: project, projectId: 42, environmentName: 'production', ref: 'main', defaultBranch: 'main', protectedRef: true });
  assert.ok(outcome.authorized && outcome.identity, outcome.denial ?? 'no identity');
  return { identity: outcome.identity, namespace: outcome.namespace };
}

async function bindings(t: TestContext, namespace: string): Promise<void> {
  const rbac = (await kubeConfig('admin')).makeApiClient(RbacAuthorizationV1Api);
  const role = async (name: string, rules: V1PolicyRule[], subject: { kind: 'Group' | 'User'; name: string }) => {
    await rbac.createNamespacedRole({ namespace, body: { metadata: { name }, rules } });
    await rbac.createNamespacedRoleBinding({ namespace, body: { metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', ...subject }] } });
  };
  const all = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];
  await role('deployer', [{ apiGroups: ['apps'], resources: ['deployments'], verbs: all }, { apiGroups: [''], resources: ['services', 'configmaps'], verbs: all }], { kind: 'Group', name: 'gitlab:project_env:42:production' });
  await role('secret-reader', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }], { kind: 'Group', name: 'gitlab:group:7' });
  await role('ops-configmaps', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }], { kind: 'Group', name: OPS });
  const clusterRole = `agentcfg-test-namespaces-${suffix}`;
  await rbac.createClusterRole({ body: { metadata: { name: clusterRole }, rules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['create', 'get'] }] } });
  await rbac.createClusterRoleBinding({ body: { metadata: { name: clusterRole }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: clusterRole }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: BOT }] } });
  t.after(async () => {
    await rbac.deleteClusterRoleBinding({ name: clusterRole }).catch(() => undefined);
    await rbac.deleteClusterRole({ name: clusterRole }).catch(() => undefined);
  });
}

/** kubectl as admin impersonating the subject: the API server's own decision. */
async function actAs(subject: ReviewSubject, ...args: string[]): Promise<{ allowed: boolean; stderr: string }> {
  const env = await clusterEnv();
  const as = ['--as', subject.user, ...subject.groups.flatMap((g) => ['--as-group', g])];
  const result = spawnSync(env.kubectl, ['--kubeconfig', env.kubeconfig, '--context', env.adminContext, ...as, ...args], { encoding: 'utf8' });
  if (result.status !== 0 && !/forbidden/i.test(result.stderr)) assert.fail(`kubectl ${args.join(' ')} failed: ${result.stderr}`);
  return { allowed: result.status === 0, stderr: result.stderr };
}

function allowed(preview: AccessPreview, verb: string, label: string): boolean {
  const check = preview.checks.find((c) => c.verb === verb && c.resource.label === label);
  assert.ok(check, `no check for ${verb} ${label}`);
  return check.allowed;
}

test('ci_job: the preview says what the gitlab: groups allow, and the API server agrees', async (t) => {
  const namespace = await uniqueNamespace('rbac-ci-job', t);
  await bindings(t, namespace);
  const session = await testSession(t);
  const job = simulated(namespace, 'acme/payments');
  assert.equal(job.namespace, namespace);

  const subject = reviewSubject(job.identity, { jobId: '1001', groupIds: { acme: '7' } });
  assert.ok(subject);
  assert.equal(subject.user, 'gitlab:ci_job:1001');
  assert.deepEqual(subject.unknownGroups, []);
  assert.ok(subject.groups.includes('gitlab:group:7') && subject.groups.includes('gitlab:project_env:42:production'));
  const preview = expectOk(await previewAccess(session, subject, job.namespace, { templateKinds: [{ apiVersion: 'v1', kind: 'ConfigMap' }, { apiVersion: 'v1', kind: 'ServiceAccount' }] }));
  assert.equal(preview.summary, `in ${namespace} as ci_job: can deploy, can read secrets, cannot write secrets, cannot exec into pods, cannot grant roles, cannot create namespaces, cannot delete namespaces`);
  assert.ok(preview.checks.some((c) => c.resource.label === 'serviceaccounts'), 'a template kind outside the standard set is asked about');
  assert.equal(preview.checks.filter((c) => c.resource.label === 'configmaps').length, 6, 'a template kind in the standard set is asked once');

  // One allowed and one denied action, as the API server decides them for this identity.
  assert.equal(allowed(preview, 'create', 'configmaps'), true);
  assert.equal((await actAs(subject, 'create', 'configmap', `made-by-job`, '-n', namespace)).allowed, true);
  assert.equal(allowed(preview, 'create', 'secrets'), false);
  const denied = await actAs(subject, 'create', 'secret', 'generic', 'job-secret', '--from-literal=a=b', '-n', namespace);
  assert.equal(denied.allowed, false);
  assert.match(denied.stderr, /cannot create resource "secrets"/);
  assert.equal(allowed(preview, 'get', 'secrets'), true);
  assert.equal((await actAs(subject, 'get', 'secrets', '-n', namespace)).allowed, true);
});

test('ci_job without the group ids: what the known groups allow is certain, the rest is said to be incomplete', async (t) => {
  const namespace = await uniqueNamespace('rbac-ci-job-ids', t);
  await bindings(t, namespace);
  const session = await testSession(t);
  const job = simulated(namespace, 'acme/payments');
  const subject = reviewSubject(job.identity);
  assert.ok(subject);
  assert.deepEqual(subject.unknownGroups, ['gitlab:group:<id of acme>', 'gitlab:group_env_tier:<id of acme>:production']);
  const preview = expectOk(await previewAccess(session, subject, job.namespace));
  assert.equal(allowed(preview, 'patch', 'deployments'), true);
  assert.equal(allowed(preview, 'get', 'secrets'), false);
  assert.match(preview.summary, /can deploy, cannot read secrets.*\(not counting gitlab:group:<id of acme>, gitlab:group_env_tier:<id of acme>:production: their ids are unknown, so they may allow more\)$/);
});

test('impersonate: the configured user and groups, bound by a ClusterRole and a Role', async (t) => {
  const namespace = await uniqueNamespace('rbac-impersonate', t);
  await bindings(t, namespace);
  const session = await testSession(t);
  const job = simulated(namespace, 'acme/tools');
  const subject = reviewSubject(job.identity);
  assert.ok(subject);
  assert.equal(subject.user, BOT);
  const preview = expectOk(await previewAccess(session, subject, job.namespace));
  assert.equal(preview.summary, `in ${namespace} as impersonate: cannot deploy, cannot read secrets, cannot write secrets, cannot exec into pods, cannot grant roles, can create namespaces, cannot delete namespaces`);
  assert.equal(allowed(preview, 'list', 'configmaps'), true);

  const created = `agentcfg-bot-${suffix}`;
  assert.equal((await actAs(subject, 'create', 'namespace', created)).allowed, true);
  t.after(async () => {
    const env = await clusterEnv();
    spawnSync(env.kubectl, ['--kubeconfig', env.kubeconfig, '--context', env.adminContext, 'delete', 'namespace', created, '--wait=false'], { encoding: 'utf8' });
  });
  assert.equal(allowed(preview, 'create', 'deployments'), false);
  assert.equal((await actAs(subject, 'create', 'deployment', 'web', '--image=nginx', '-n', namespace)).allowed, false);
});

test('the cluster cannot answer: an identity that may not create SubjectAccessReviews gets a forbidden outcome, not a guess', async (t) => {
  const namespace = await uniqueNamespace('rbac-forbidden', t);
  const session = await testSession(t, 'restricted');
  const subject = reviewSubject(simulated(namespace, 'acme/payments').identity, { jobId: '1' });
  assert.ok(subject);
  const outcome = await previewAccess(session, subject, namespace);
  assert.equal(outcome.type, 'forbidden');
  assert.match(outcome.type === 'forbidden' ? outcome.message : '', /may not create subjectaccessreviews \(authorization\.k8s\.io\), so the cluster cannot say what the job may do/);
});

test("agent: without the agent's ServiceAccount there is no subject to ask about; with it, the ServiceAccount's groups are asked", async () => {
  const identity = { mode: 'agent' as const, username: "the agent's ServiceAccount (agentk)", groups: [], extra: {} };
  assert.equal(reviewSubject(identity), undefined);
  const subject = reviewSubject(identity, {}, { namespace: 'gitlab-agent', name: 'agentk' });
  assert.deepEqual(subject && [subject.user, subject.groups], ['system:serviceaccount:gitlab-agent:agentk', ['system:serviceaccounts', 'system:serviceaccounts:gitlab-agent', 'system:authenticated']]);
});

/** Runs `agentcfg can-i` in process (the command object the CLI dispatches to). */
async function canI(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await canICommand.run(argv, { cwd: process.cwd(), out: (s) => (stdout += s), err: (s) => (stderr += s), readStdin: async () => '' });
  return { code, stdout, stderr };
}

test('agentcfg can-i: text and JSON from the same review; says when the cluster cannot answer', async (t) => {
  const namespace = await uniqueNamespace('rbac-cli', t);
  await bindings(t, namespace);
  const env = await clusterEnv();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-can-i-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'config.yaml');
  writeFileSync(file, config(namespace));
  const template = path.join(dir, 'default.yaml');
  writeFileSync(template, 'objects:\n  - apiVersion: v1\n    kind: ServiceAccount\n    metadata:\n      name: {{ .agent.name }}\n  - apiVersion: example.com/v1\n    kind: Widget\n');
  const common = [file, '--project', 'acme/payments', '--environment', 'production', '--project-id', '42', '--kubeconfig', env.kubeconfig, '--context', env.adminContext];

  const text = await canI(...common, '--group-id', 'acme=7', '--job-id', '5', '--template', template);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^context agentcfg-admin · gitlab:ci_job:5 \(groups gitlab:ci_job, gitlab:group:7, /);
  assert.match(text.stdout, new RegExp(`\\nin ${namespace} as ci_job: can deploy, can read secrets, cannot write secrets`));
  assert.match(text.stdout, /\ndeployments\.apps +yes +yes +yes +yes +yes +yes\n/);
  assert.match(text.stdout, /\nserviceaccounts +no +no +no +no +no +no\n/);
  assert.match(text.stdout, /not served by the cluster \(no answer\): example\.com\/v1\/Widget/);

  const json = await canI(...common, '--format', 'json');
  assert.equal(json.code, 0, json.stderr);
  const parsed = JSON.parse(json.stdout) as { ok: boolean; namespace: string; subject: ReviewSubject; checks: { verb: string; resource: string; allowed: boolean }[] };
  assert.equal(parsed.ok, true);
  assert.equal(parsed.namespace, namespace);
  assert.deepEqual(parsed.subject.unknownGroups, ['gitlab:group:<id of acme>', 'gitlab:group_env_tier:<id of acme>:production']);
  assert.equal(parsed.checks.find((c) => c.verb === 'get' && c.resource === 'secrets')?.allowed, false);

  const forbidden = await canI(file, '--project', 'acme/payments', '--environment', 'production', '--kubeconfig', env.kubeconfig, '--context', env.restrictedContext);
  assert.equal(forbidden.code, 1);
  // One sentence: the identity refused, the verb and resource, what it means, and what to do with the CLI's flags.
  assert.match(
    forbidden.stderr,
    /^The cluster refused "agentcfg-restricted" \(403 Forbidden\): may not create subjectaccessreviews\.authorization\.k8s\.io at cluster scope, so the cluster cannot say what the job may do\. Ask a cluster administrator for this permission, or use a context with more rights \(--context, or --kubeconfig for another kubeconfig\)\.$/m,
  );
  const denied = await canI(file, '--project', 'acme/other', '--kubeconfig', env.kubeconfig);
  assert.equal(denied.code, 1);
  assert.match(denied.stderr, /^the job gets no access through agent /);
});
