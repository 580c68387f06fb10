// cli-utils inventory format (docs/gitlab-behaviour.md#inventories): data keys, RBAC colon transcoding, parse rules, ConfigMap shape.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  INVENTORY_ID_LABEL,
  buildInventoryConfigMap,
  encodeObjMetadata,
  isInventoryConfigMap,
  parseObjMetadata,
  readInventoryConfigMap,
} from '../../../server/src/cluster/inventory/index';

const cases = [
  { key: 'default_podinfo__Service', ref: { namespace: 'default', name: 'podinfo', group: '', kind: 'Service' } },
  { key: '_review-42-7__Namespace', ref: { namespace: '', name: 'review-42-7', group: '', kind: 'Namespace' } },
  { key: 'ns_web_apps_Deployment', ref: { namespace: 'ns', name: 'web', group: 'apps', kind: 'Deployment' } },
  { key: 'ns_bind__view_rbac.authorization.k8s.io_RoleBinding', ref: { namespace: 'ns', name: 'bind:view', group: 'rbac.authorization.k8s.io', kind: 'RoleBinding' } },
  { key: '_system__aggregate_rbac.authorization.k8s.io_ClusterRole', ref: { namespace: '', name: 'system:aggregate', group: 'rbac.authorization.k8s.io', kind: 'ClusterRole' } },
  { key: 'flux_app_kustomize.toolkit.fluxcd.io_Kustomization', ref: { namespace: 'flux', name: 'app', group: 'kustomize.toolkit.fluxcd.io', kind: 'Kustomization' } },
];

for (const { key, ref } of cases) {
  // docs/gitlab-behaviour.md#inventories
  test(`${key} encodes and parses back`, () => {
    assert.equal(encodeObjMetadata(ref), key);
    assert.deepEqual(parseObjMetadata(key), { ok: true, ref });
  });
}

// docs/gitlab-behaviour.md#inventories
test('a colon is transcoded only for RBAC kinds', () => {
  assert.equal(encodeObjMetadata({ namespace: 'ns', name: 'a:b', group: '', kind: 'ConfigMap' }), 'ns_a:b__ConfigMap');
  assert.equal(encodeObjMetadata({ namespace: 'ns', name: 'a:b', group: 'rbac.authorization.k8s.io', kind: 'Role' }), 'ns_a__b_rbac.authorization.k8s.io_Role');
});

// docs/gitlab-behaviour.md#inventories
test('parse errors (no separator, too few fields, a remaining _ in the name, empty name or kind)', () => {
  for (const bad of ['nounderscore', 'ns_kindonly', 'ns_my_name_apps_Deployment', 'ns___Service', 'ns_name_apps_']) {
    const parsed = parseObjMetadata(bad);
    assert.equal(parsed.ok, false, bad);
  }
  assert.deepEqual(parseObjMetadata('ns_my_name_apps_Deployment'), { ok: false, message: 'too many fields within: my_name_apps' });
});

// docs/gitlab-behaviour.md#inventories
test('the inventory ConfigMap has the inventory-id label and one empty value per object', () => {
  const cm = buildInventoryConfigMap(
    {
      name: 'inv',
      namespace: 'gitlab-agent',
      objects: [cases[1].ref, cases[3].ref, cases[1].ref],
    },
    { labels: { 'agent.gitlab.com/id-7': '' } },
  );
  assert.deepEqual(cm.metadata?.labels, { 'agent.gitlab.com/id-7': '', [INVENTORY_ID_LABEL]: 'inv' });
  assert.deepEqual(cm.data, { '_review-42-7__Namespace': '', 'ns_bind__view_rbac.authorization.k8s.io_RoleBinding': '' });
  assert.ok(isInventoryConfigMap(cm));
  const back = readInventoryConfigMap({ ...cm, data: { ...cm.data, 'bad_key_x_y_Kind': '' } });
  assert.equal(back.name, 'inv');
  assert.deepEqual(back.objects, [cases[1].ref, cases[3].ref]);
  assert.deepEqual(back.invalidKeys.map((k) => k.key), ['bad_key_x_y_Kind']);
  assert.equal(isInventoryConfigMap({ metadata: { labels: { [INVENTORY_ID_LABEL]: '' } } }), false, 'an empty id is not an inventory');
});
