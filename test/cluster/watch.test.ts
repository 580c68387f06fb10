// Waiting on the API server's signal (kube/watch.ts) on the real control plane: a cancellation that
// arrives while the object is being read (between the read and the watch) still ends the wait at
// once, instead of leaving it to run until its timeout.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClusterSession } from '../../server/src/cluster/kube/session';
import { waitForObject } from '../../server/src/cluster/kube/watch';
import { testSession } from './environment-support';
import { uniqueNamespace } from './harness';

test('an abort during the read before the watch ends the wait as cancelled', async (t) => {
  const session = await testSession(t);
  const name = await uniqueNamespace('watch-abort', t);
  const controller = new AbortController();
  // The same session, except that its read aborts the operation just as the answer arrives.
  const objects = Object.create(session.objects, {
    read: {
      value: async (header: Parameters<ClusterSession['objects']['read']>[0]) => {
        const live = await session.objects.read(header);
        controller.abort();
        return live;
      },
    },
  }) as ClusterSession['objects'];
  const ref = { group: '', version: 'v1', kind: 'Namespace', namespace: '', name };
  const outcome = await waitForObject({ ...session, objects }, ref, () => false, { signal: controller.signal, timeoutMs: 60_000 });
  assert.equal(outcome.type, 'cancelled');
});
