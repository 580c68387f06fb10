// The Cluster view's rows: one coherent state per cluster and per list.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { groupRows, topRows } from '../../../client/src/cluster/clusterTreeRows';
import type { ClusterInventory } from '../../../server/src/protocol';

const base: ClusterInventory = { context: 'c', environments: [], workspaces: [], problems: [] };
const environment = { inventory: { namespace: 'gitlab-agent', name: 'inv' }, environment: 'review/x', objectCount: 2, state: 'Ready' };

test('a listing that failed whole is one message', () => {
  assert.deepEqual(topRows('Could not list the cluster: unreachable'), [{ type: 'message', text: 'Could not list the cluster: unreachable' }]);
});

test('both lists refused for one reason: one message; for two reasons: one each, and no group to claim "none"', () => {
  assert.deepEqual(topRows({ ...base, environmentsProblem: 'refused', workspacesProblem: 'refused' }), [{ type: 'message', text: 'Cannot list environments or workspaces: refused' }]);
  assert.deepEqual(topRows({ ...base, environmentsProblem: 'a', workspacesProblem: 'b' }), [
    { type: 'message', text: 'Cannot list environments: a' },
    { type: 'message', text: 'Cannot list workspaces: b' },
  ]);
});

test('each list: why it failed, or what was found, or none — saying where it looked when that was one namespace', () => {
  const listing = { ...base, environmentsProblem: 'refused' };
  assert.deepEqual(topRows(listing).map((r) => r.type), ['group', 'group']);
  assert.deepEqual(groupRows(listing, 'Environments'), [{ type: 'message', text: 'Cannot list: refused' }]);
  assert.deepEqual(groupRows(listing, 'Workspaces'), [{ type: 'message', text: 'No workspaces' }]);
  assert.deepEqual(groupRows({ ...base, environmentsNamespace: 'team' }, 'Environments'), [{ type: 'message', text: 'No managed environments in namespace team (this context may not list the other namespaces)' }]);
  assert.deepEqual(groupRows({ ...base, environments: [environment] }, 'Environments'), [{ type: 'environment', environment }]);
  assert.deepEqual(groupRows(base, 'Environments'), [{ type: 'message', text: 'No managed environments' }]);
});
