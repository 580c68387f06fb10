// Termination tracker (docs/gitlab-behaviour.md#workspace-termination) and Rails' actual-state calculation (docs/gitlab-behaviour.md#workspace-states), branch by branch.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { calculateActualState } from '../../../server/src/cluster/workspace/actualState';
import { summarizeWorkspace } from '../../../server/src/cluster/workspace/list';
import { TerminationTracker } from '../../../server/src/cluster/workspace/terminationTracker';

// docs/gitlab-behaviour.md#workspace-termination
test('updateOrSet: a progress is reported when set or changed, not when repeated', () => {
  const tracker = new TerminationTracker();
  tracker.updateOrSet('ws', 'ns', 'Terminating');
  assert.deepEqual(tracker.unreconciled(), [{ name: 'ws', namespace: 'ns', progress: 'Terminating' }], 'new entry: not reconciled');
  tracker.updateOrSet('ws', 'ns', 'Terminating');
  assert.deepEqual(tracker.unreconciled(), [], 'same progress again: reconciled, nothing to send');
  tracker.updateOrSet('ws', 'ns', 'Terminated');
  assert.deepEqual(tracker.unreconciled(), [{ name: 'ws', namespace: 'ns', progress: 'Terminated' }], 'changed: reported');
  tracker.updateOrSet('ws', 'ns', 'Terminated');
  assert.deepEqual(tracker.unreconciled(), []);
  assert.equal(tracker.get('ws', 'ns'), 'Terminated');
});

// docs/gitlab-behaviour.md#workspace-termination
test('workspaces are tracked per name and namespace; remove forgets one', () => {
  const tracker = new TerminationTracker();
  tracker.updateOrSet('ws', 'a', 'Terminating');
  tracker.updateOrSet('ws', 'b', 'Terminating');
  tracker.updateOrSet('ws', 'a', 'Terminating');
  assert.deepEqual(tracker.unreconciled(), [{ name: 'ws', namespace: 'b', progress: 'Terminating' }]);
  tracker.remove('ws', 'b');
  assert.equal(tracker.get('ws', 'b'), undefined);
  // After removal the same progress is new again.
  tracker.updateOrSet('ws', 'b', 'Terminating');
  assert.deepEqual(tracker.unreconciled().map((r) => r.namespace), ['b']);
});

const deployment = (replicas: number | undefined, progressing: string | undefined, available?: string, status: Record<string, unknown> = {}) => ({
  spec: replicas === undefined ? {} : { replicas },
  status: {
    ...status,
    conditions: [
      ...(progressing === undefined ? [] : [{ type: 'Progressing', status: 'True', reason: progressing }]),
      ...(available === undefined ? [] : [{ type: 'Available', status: 'True', reason: available }]),
    ],
  },
});

const cases: [string, Parameters<typeof calculateActualState>[0], string][] = [
  ['1. Terminated progress wins over error details', { terminationProgress: 'Terminated', errorDetails: { error_type: 'applier' } }, 'Terminated'],
  ['1. error details → Error', { errorDetails: { error_type: 'applier', error_message: 'x' }, terminationProgress: 'Terminating' }, 'Error'],
  ['1. Terminating progress → Terminating', { terminationProgress: 'Terminating', deployment: deployment(1, 'NewReplicaSetAvailable', 'MinimumReplicasAvailable') }, 'Terminating'],
  ['2. no deployment → Unknown', {}, 'Unknown'],
  ['2. no status → Unknown', { deployment: { spec: { replicas: 1 } } }, 'Unknown'],
  ['2. no conditions → Unknown', { deployment: { spec: { replicas: 1 }, status: {} } }, 'Unknown'],
  ['2. no Progressing condition → Unknown', { deployment: deployment(1, undefined, 'MinimumReplicasAvailable') }, 'Unknown'],
  ['2. no spec.replicas → Unknown', { deployment: deployment(undefined, 'NewReplicaSetAvailable', 'MinimumReplicasAvailable') }, 'Unknown'],
  ['3. ProgressDeadlineExceeded → Failed', { deployment: deployment(1, 'ProgressDeadlineExceeded') }, 'Failed'],
  ['4. NewReplicaSetCreated, replicas 0 → Stopping', { deployment: deployment(0, 'NewReplicaSetCreated') }, 'Stopping'],
  ['4. FoundNewReplicaSet, replicas 1 → Starting', { deployment: deployment(1, 'FoundNewReplicaSet') }, 'Starting'],
  ['4. ReplicaSetUpdated, replicas 1 → Starting', { deployment: deployment(1, 'ReplicaSetUpdated') }, 'Starting'],
  ['5. no Available condition → Unknown', { deployment: deployment(1, 'NewReplicaSetAvailable') }, 'Unknown'],
  ['5. replicas 0, available 0 → Stopped', { deployment: deployment(0, 'NewReplicaSetAvailable', 'MinimumReplicasAvailable') }, 'Stopped'],
  ['5. replicas 1 = available, none unavailable → Running', { deployment: deployment(1, 'NewReplicaSetAvailable', 'MinimumReplicasAvailable', { availableReplicas: 1 }) }, 'Running'],
  ['5. replicas 0, available 1 → Stopping', { deployment: deployment(0, 'NewReplicaSetAvailable', 'MinimumReplicasAvailable', { availableReplicas: 1 }) }, 'Stopping'],
  ['5. replicas 1, available 0, MinimumReplicasUnavailable → Starting', { deployment: deployment(1, 'NewReplicaSetAvailable', 'MinimumReplicasUnavailable') }, 'Starting'],
  ['5. replicas 1, available 0, MinimumReplicasAvailable → Starting', { deployment: deployment(1, 'NewReplicaSetAvailable', 'MinimumReplicasAvailable', { unavailableReplicas: 1 }) }, 'Starting'],
  ['6. replicas 1 = available but unavailable 1 → Unknown', { deployment: deployment(1, 'NewReplicaSetAvailable', 'MinimumReplicasUnavailable', { availableReplicas: 1, unavailableReplicas: 1 }) }, 'Unknown'],
  ['6. an unknown Progressing reason → Unknown', { deployment: deployment(1, 'SomethingElse', 'MinimumReplicasAvailable', { availableReplicas: 1 }) }, 'Unknown'],
  ['4→5. progressing with 2 replicas falls through to the Available rules → Unknown', { deployment: deployment(2, 'ReplicaSetUpdated', 'MinimumReplicasAvailable', { availableReplicas: 2 }) }, 'Unknown'],
];

for (const [name, input, expected] of cases) {
  // docs/gitlab-behaviour.md#workspace-states
  test(`actual state, ${name}`, () => {
    assert.equal(calculateActualState(input), expected);
  });
}

// docs/gitlab-behaviour.md#workspace-names-and-namespaces, docs/gitlab-behaviour.md#workspace-labels-and-annotations
test('a workspace Deployment in gl-rd-ns-<name> is unique mode, elsewhere shared; deletion → Terminating', () => {
  const unique = summarizeWorkspace({ metadata: { name: 'ws', namespace: 'gl-rd-ns-ws', labels: { 'agent.gitlab.com/id': '7' }, annotations: { 'workspaces.gitlab.com/id': '3' } }, spec: { replicas: 0, selector: {}, template: {} } });
  assert.deepEqual(unique, { name: 'ws', namespace: 'gl-rd-ns-ws', agentId: '7', workspaceId: '3', mode: 'unique', actualState: 'Unknown', replicas: 0 });
  const deleting = summarizeWorkspace({ metadata: { name: 'ws', namespace: 'team', deletionTimestamp: new Date(), labels: { 'agent.gitlab.com/id': '7' } } });
  assert.deepEqual([deleting.mode, deleting.actualState], ['shared', 'Terminating']);
});
