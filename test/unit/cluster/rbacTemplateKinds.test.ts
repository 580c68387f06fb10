// The kinds an environment template creates, read for the RBAC preview without rendering.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { summarise, templateKinds, STANDARD_RESOURCES, type AccessCheck } from '../../../server/src/cluster/rbac';

test('literal apiVersion/kind pairs of the objects, each once; nested kinds (roleRef, subjects) and template actions skipped', () => {
  const text = `objects:
  - apiVersion: v1
    kind: Namespace
    metadata:
      name: {{ .environment.slug }}
  - kind: RoleBinding # kind first is fine
    apiVersion: rbac.authorization.k8s.io/v1
    subjects:
      - kind: Group
        name: x
    roleRef:
      apiGroup: rbac.authorization.k8s.io
      kind: ClusterRole
  - apiVersion: "v1"
    kind: Namespace
  - apiVersion: {{ .x }}
    kind: Thing
`;
  assert.deepEqual(templateKinds(text), [
    { apiVersion: 'v1', kind: 'Namespace' },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding' },
  ]);
});

test('the summary reads only the answers: deploy needs get, create and patch on deployments', () => {
  const check = (verb: AccessCheck['verb'], label: string, allowed: boolean): AccessCheck => ({ verb, resource: STANDARD_RESOURCES.find((r) => r.label === label)!, namespace: 'ns', allowed });
  const capabilities = summarise([check('get', 'deployments', true), check('create', 'deployments', true), check('patch', 'deployments', false), check('get', 'secrets', false)]);
  assert.deepEqual(capabilities.map((c) => c.text), ['cannot deploy', 'cannot read secrets']);
});
