// The write preconditions every apply relies on, held to the real kube-apiserver: a server-side apply
// carrying CREATE_ONLY creates an absent object and is refused (409) when the object exists, and one
// carrying a resourceVersion is refused once the object has moved on. isStaleWrite tells these
// refusals from a field-manager conflict. docs/gitlab-behaviour.md#no-gap-between-plan-and-act-our-rule.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CoreV1Api, PatchStrategy, type KubernetesObject } from '@kubernetes/client-node';
import { outcomeFromError, type ClusterFailure } from '../../server/src/cluster/kube/outcome';
import { CREATE_ONLY, expectedVersion, isStaleWrite, withExpectedVersion } from '../../server/src/cluster/kube/preconditions';
import { testSession } from './environment-support';
import { kubeConfig, uniqueNamespace } from './harness';
import type { ClusterSession } from '../../server/src/cluster/kube/session';

const configMap = (namespace: string, name: string, value: string): KubernetesObject & { data: Record<string, string> } => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data: { value } });

/** A server-side apply as the tool makes it; a refusal comes back as the tool reads it. */
async function apply(session: ClusterSession, manifest: KubernetesObject, manager = session.fieldManager): Promise<KubernetesObject | ClusterFailure> {
  try {
    return await session.objects.patch(manifest, undefined, undefined, manager, false, PatchStrategy.ServerSideApply);
  } catch (err) {
    return outcomeFromError(err);
  }
}

const isObject = (written: KubernetesObject | ClusterFailure): written is KubernetesObject => 'metadata' in written;

test('CREATE_ONLY creates an absent object and is refused as a stale write when the object exists', async (t) => {
  const session = await testSession(t);
  const namespace = await uniqueNamespace('precondition-create', t);
  assert.equal(expectedVersion(undefined), CREATE_ONLY);

  const created = await apply(session, withExpectedVersion(configMap(namespace, 'fresh', 'first'), CREATE_ONLY));
  assert.ok(isObject(created), JSON.stringify(created));
  assert.notEqual(created.metadata?.resourceVersion, CREATE_ONLY);

  const again = await apply(session, withExpectedVersion(configMap(namespace, 'fresh', 'second'), CREATE_ONLY));
  assert.ok(!isObject(again), 'a second create-only apply is refused');
  assert.equal(again.type, 'conflict');
  assert.ok(isStaleWrite(again), JSON.stringify(again));
  const live = await (await kubeConfig('admin')).makeApiClient(CoreV1Api).readNamespacedConfigMap({ name: 'fresh', namespace });
  assert.deepEqual(live.data, { value: 'first' }, 'the refused apply changed nothing');
});

test('an apply carrying the last-read resourceVersion holds until the object moves on', async (t) => {
  const session = await testSession(t);
  const namespace = await uniqueNamespace('precondition-update', t);
  const first = await apply(session, configMap(namespace, 'moving', 'first'));
  assert.ok(isObject(first));

  const current = await apply(session, withExpectedVersion(configMap(namespace, 'moving', 'second'), expectedVersion(first)));
  assert.ok(isObject(current), JSON.stringify(current));

  // `first` is now out of date: an apply expecting it is refused.
  const stale = await apply(session, withExpectedVersion(configMap(namespace, 'moving', 'third'), expectedVersion(first)));
  assert.ok(!isObject(stale));
  assert.ok(isStaleWrite(stale), JSON.stringify(stale));
});

test('a field-manager conflict is not a stale write', async (t) => {
  const session = await testSession(t);
  const namespace = await uniqueNamespace('precondition-manager', t);
  assert.ok(isObject(await apply(session, configMap(namespace, 'owned', 'theirs'), 'someone-else')));
  // Our apply sets `value`, which someone-else owns with another value: a conflict naming the manager.
  const contested = await apply(session, configMap(namespace, 'owned', 'ours'));
  assert.ok(!isObject(contested));
  assert.equal(contested.type, 'conflict');
  assert.equal(isStaleWrite(contested), false, JSON.stringify(contested));
  assert.ok(contested.type === 'conflict' && contested.managers.includes('someone-else'), JSON.stringify(contested));
});
