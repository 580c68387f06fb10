// What is applied: supported kinds only (docs/gitlab-behaviour.md#template-object-kinds), GitLab's labels/annotation (docs/gitlab-behaviour.md#managed-object-labels-and-annotation), the owning
// inventory (docs/gitlab-behaviour.md#inventories), tier order, names checked before the API server sees them (docs/gitlab-behaviour.md#names).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prepareEnvironment } from '../../../server/src/cluster/apply/environment';
import { desiredObjects } from '../../../server/src/cluster/apply/desiredObjects';
import { buildTemplateData } from '../../../server/src/engine/template/templateVariables';
import { acmeShopEnvironmentAnnotation } from '../../support/gitlabAnnotation';

const built = buildTemplateData(
  { projectPath: 'acme/shop', projectId: 42, environmentName: 'review/feature-x', environmentUrl: 'https://x.example', ref: 'main', defaultBranch: 'main' },
  { agentId: 7, agentName: 'prod', environmentId: 3 },
);
assert.ok(built.ok);
const data = built.data;
const meta = { data, templateName: 'default', inventoryId: 'inv' };
const slug = data.environment.slug;

// docs/gitlab-behaviour.md#managed-object-labels-and-annotation
test('exact labels and annotation; the owning-inventory annotation; user labels kept', () => {
  const { objects, problems } = desiredObjects([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', labels: { team: 'a' } } }], meta);
  assert.deepEqual(problems, []);
  const m = objects[0].manifest.metadata!;
  assert.deepEqual(m.labels, {
    team: 'a',
    'agent.gitlab.com/id-7': '',
    'agent.gitlab.com/project_id-42': '',
    [`agent.gitlab.com/env-${slug}-42-7`]: '',
    [`agent.gitlab.com/environment_slug-${slug}`]: '',
  });
  assert.deepEqual(Object.keys(m.annotations!), [`agent.gitlab.com/env-${slug}-42-7`, 'config.k8s.io/owning-inventory']);
  assert.equal(m.annotations!['config.k8s.io/owning-inventory'], 'inv');
  assert.equal(
    m.annotations![`agent.gitlab.com/env-${slug}-42-7`],
    JSON.stringify(acmeShopEnvironmentAnnotation({ id: 3, name: 'review/feature-x', slug, url: 'https://x.example' })),
  );
});

test('apply order: Namespace, then ServiceAccount/RBAC, then Flux, template order within a tier', () => {
  const { objects } = desiredObjects(
    [
      { apiVersion: 'kustomize.toolkit.fluxcd.io/v1', kind: 'Kustomization', metadata: { name: 'k', namespace: 'n' } },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'rb', namespace: 'n' } },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } },
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa', namespace: 'n' } },
    ],
    meta,
  );
  assert.deepEqual(objects.map((o) => o.ref.name), ['n', 'rb', 'sa', 'k']);
});

test('refusals: unsupported kind, missing namespace, namespace on a Namespace, duplicates, invalid names, not an object', () => {
  const { objects, problems } = desiredObjects(
    [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'n' } },
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa' } },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', namespace: 'x' } },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ok' } },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ok' } },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'My_App-42' } },
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'Deployer', namespace: 'n' } },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'system:x', namespace: 'n' } },
      'text',
      { kind: 'Namespace', metadata: { name: 'n' } },
    ],
    meta,
  );
  assert.deepEqual(objects.map((o) => o.ref.name), ['ok', 'system:x'], 'RBAC names may contain ":"');
  assert.deepEqual(
    problems.map((p) => [p.index, p.message]),
    [
      [0, "core/v1/ConfigMap 'c' in namespace 'n': kind ConfigMap is not supported in environment templates (supported: Namespace, ServiceAccount, RoleBinding (rbac.authorization.k8s.io), GitRepository (source.toolkit.fluxcd.io), HelmRepository (source.toolkit.fluxcd.io), HelmChart (source.toolkit.fluxcd.io), Bucket (source.toolkit.fluxcd.io), OCIRepository (source.toolkit.fluxcd.io), Kustomization (kustomize.toolkit.fluxcd.io), HelmRelease (helm.toolkit.fluxcd.io), Alert (notification.toolkit.fluxcd.io), Provider (notification.toolkit.fluxcd.io), Receiver (notification.toolkit.fluxcd.io))"],
      [1, "core/v1/ServiceAccount 'sa' has no metadata.namespace; set it explicitly (objects are never put in a default namespace)"],
      [2, "core/v1/Namespace 'n' in namespace 'x' is cluster-scoped and must not set metadata.namespace"],
      [4, "core/v1/Namespace 'ok' appears twice (objects[3] and objects[4])"],
      [5, "core/v1/Namespace 'My_App-42': namespace name 'My_App-42' is not a valid DNS-1123 label: it must consist of lower case alphanumeric characters or '-'"],
      [6, "core/v1/ServiceAccount 'Deployer' in namespace 'n': name 'Deployer' is not a valid DNS-1123 subdomain: lower case alphanumerics, '-' and '.', starting and ending with an alphanumeric, at most 253 characters"],
      [8, 'objects[8] is not a Kubernetes object (a mapping)'],
      [9, 'objects[9] needs apiVersion, kind and metadata.name'],
    ],
  );
});

test('labels and annotations that are not strings are refused, not dropped', () => {
  const { objects, problems } = desiredObjects([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', labels: { tier: 1, ok: 'x' }, annotations: { flag: true } } }], meta);
  assert.deepEqual(objects, []);
  assert.deepEqual(problems.map((p) => p.message), [`core/v1/Namespace 'n': label "tier" is a number; annotation "flag" is a boolean (Kubernetes takes only strings; quote the value in the template)`]);
});

test('prepareEnvironment: built-in default template when there is no default.yaml; inventory named after the environment', () => {
  const result = prepareEnvironment({
    scenario: { projectPath: 'acme/shop', projectId: 42, environmentName: 'review/feature-x', ref: 'main', defaultBranch: 'main' },
    ids: { agentId: 7, agentName: 'prod' },
  });
  assert.ok(result.ok);
  const env = result.environment;
  assert.equal(env.usedDefaultTemplate, true);
  assert.deepEqual(env.objects.map((o) => `${o.ref.kind}/${o.ref.name}`), [`Namespace/${slug}-42-7`, `RoleBinding/bind-7-42-${slug}`]);
  assert.deepEqual({ name: env.inventory.name, namespace: env.inventory.namespace }, { name: `gitlab-env-${slug}-42-7`, namespace: 'gitlab-agent' });
  assert.equal(env.deleteResources, 'on_stop');
});

test('prepareEnvironment: rendering errors keep the template line and column', () => {
  const result = prepareEnvironment({
    templateText: 'objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: "{{ .environment.slug | nope }}"\n',
    scenario: { projectPath: 'acme/shop', projectId: 42, environmentName: 'review/x', ref: 'main', defaultBranch: 'main' },
    ids: { agentId: 7, agentName: 'prod' },
  });
  assert.equal(result.ok, false);
  assert.ok(!result.ok && result.stage === 'render');
  assert.equal(result.errors[0].range.start.line, 4);
  assert.match(result.errors[0].message, /nope/);
});
