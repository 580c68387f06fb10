// Waiting by WATCH on the real control plane: a dropped watch is re-established from a fresh read,
// deletion is seen, and timeout and cancellation end the wait with their outcome.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CoreV1Api } from '@kubernetes/client-node';
import { describeOutcome } from '../../server/src/cluster/kube/outcome';
import { waitForObject, waitUntilGone } from '../../server/src/cluster/kube/watch';
import { expectOk, testSession } from './environment-support';
import { kubeConfig, uniqueNamespace, waitFor } from './harness';

const configMap = (namespace: string, name: string) => ({ group: '', version: 'v1', kind: 'ConfigMap', namespace, name });

test('a watch the server ends is re-established; the wait sees the change made after the drop', async (t) => {
  const session = await testSession(t);
  const namespace = await uniqueNamespace('watch-drop', t);
  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);
  await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'flag' }, data: { ready: 'no' } } });
  const before = session.requests.snapshot();
  const waiting = waitForObject(session, configMap(namespace, 'flag'), (o) => (o as { data?: Record<string, string> } | undefined)?.data?.ready === 'yes', {
    serverTimeoutSeconds: 1,
    timeoutMs: 60_000,
  });
  // The server closes each watch after 1 s: once a second watch has started, the first one was dropped.
  await waitFor('a re-established watch', async () => session.requests.since(before).watches >= 2);
  await core.patchNamespacedConfigMap({ namespace, name: 'flag', body: [{ op: 'replace', path: '/data/ready', value: 'yes' }] });
  const seen = expectOk(await waiting);
  assert.equal((seen as { data?: Record<string, string> }).data?.ready, 'yes');
});

test('waitUntilGone: absent needs no watch; a deletion ends the wait; timeout and cancellation are outcomes', async (t) => {
  const session = await testSession(t);
  const namespace = await uniqueNamespace('watch-gone', t);
  const core = (await kubeConfig('admin')).makeApiClient(CoreV1Api);

  const before = session.requests.snapshot();
  expectOk(await waitUntilGone(session, configMap(namespace, 'never-created')));
  assert.equal(session.requests.since(before).watches, 0);

  await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'doomed' } } });
  const gone = waitUntilGone(session, configMap(namespace, 'doomed'));
  await waitFor('the watch to start', async () => session.requests.since(before).watches >= 1);
  await core.deleteNamespacedConfigMap({ namespace, name: 'doomed' });
  expectOk(await gone);

  await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'stays' } } });
  const timedOut = await waitUntilGone(session, configMap(namespace, 'stays'), { timeoutMs: 300 });
  assert.equal(timedOut.type, 'timeout');
  assert.match(describeOutcome(timedOut), /core\/v1\/ConfigMap 'stays' in namespace '.*' did not get deleted within 0\.3 s/);
  const controller = new AbortController();
  const cancelled = waitUntilGone(session, configMap(namespace, 'stays'), { signal: controller.signal });
  controller.abort();
  assert.equal((await cancelled).type, 'cancelled');
});
