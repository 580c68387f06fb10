// Progress reads naturally — "Deleting Namespace review-42…", never "deleting: deleting
// core/v1/Namespace". Every kind of step is worded here once; the editor shows these words and the
// CLI prints them (the CLI's bookkeeping reads the step, not the words).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeStep, reportStep, type ProgressStep } from '../../server/src/cluster/progressSteps';

const namespace = { group: '', version: 'v1', kind: 'Namespace', namespace: '', name: 'review-42' };
const binding = { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'RoleBinding', namespace: 'review-42', name: 'bind-1' };
const kustomization = { group: 'kustomize.toolkit.fluxcd.io', version: 'v1', kind: 'Kustomization', namespace: 'flux-system', name: 'app' };

const cases: [ProgressStep, string][] = [
  [{ kind: 'readInventory', inventory: { namespace: 'gitlab-agent', name: 'gitlab-env-review-42' } }, 'Reading the inventory gitlab-agent/gitlab-env-review-42…'],
  [{ kind: 'readLiveObjects', count: 1 }, 'Reading 1 object from the cluster…'],
  [{ kind: 'readLiveObjects', count: 5 }, 'Reading 5 objects from the cluster…'],
  [{ kind: 'dryRun', ref: binding, done: 2, total: 5, checked: 'dryRun' }, 'Checked 2 of 5 objects: RoleBinding review-42/bind-1 passed a server-side dry run'],
  [{ kind: 'dryRun', ref: binding, done: 1, total: 2, checked: 'blocked' }, 'Checked 1 of 2 objects: RoleBinding review-42/bind-1 is refused'],
  [{ kind: 'dryRun', ref: binding, done: 2, total: 2, checked: 'later' }, 'Checked 2 of 2 objects: RoleBinding review-42/bind-1 is checked when it is applied, in its new namespace'],
  [{ kind: 'createInventoryNamespace', namespace: 'gitlab-agent' }, 'Creating Namespace gitlab-agent for the inventory…'],
  [{ kind: 'applied', ref: namespace, action: 'created', done: 3, total: 5 }, 'Applied 3 of 5 objects (created Namespace review-42)'],
  [{ kind: 'applied', ref: binding, action: 'unchanged', done: 1, total: 1 }, 'Applied 1 of 1 object (unchanged RoleBinding review-42/bind-1)'],
  [{ kind: 'waitReady', ref: kustomization }, 'Waiting for Kustomization flux-system/app to be ready…'],
  [{ kind: 'deleting', ref: namespace, prune: false }, 'Deleting Namespace review-42…'],
  [{ kind: 'deleting', ref: binding, prune: true }, 'Pruning RoleBinding review-42/bind-1…'],
  [{ kind: 'waitGone', ref: namespace }, 'Waiting for Namespace review-42 to disappear…'],
  [{ kind: 'deleteInventory', inventory: { namespace: 'gitlab-agent', name: 'gitlab-env-review-42' } }, 'Deleting the inventory gitlab-agent/gitlab-env-review-42…'],
  [{ kind: 'workspaceNamespace', namespace: 'gl-rd-ns-ws1', dryRun: false }, 'Created Namespace gl-rd-ns-ws1'],
  [{ kind: 'workspaceNamespace', namespace: 'gl-rd-ns-ws1', dryRun: true }, 'Would create Namespace gl-rd-ns-ws1 (dry run)'],
  [{ kind: 'workspaceInventory', inventory: 'ws1-workspace-inventory', objects: 4, index: 0, total: 3 }, 'Applying inventory ws1-workspace-inventory (4 objects; 1 of 3)…'],
  [{ kind: 'workspaceProgress', workspace: 'ws1', progress: 'Terminating' }, 'Workspace ws1 is Terminating'],
  [{ kind: 'fluxWatch', ref: kustomization, revision: 'main@sha1:abc' }, 'Waiting for Flux to apply main@sha1:abc (watching Kustomization flux-system/app)…'],
  [{ kind: 'fluxState', message: 'Kustomization app: last applied revision none' }, 'Kustomization app: last applied revision none'],
  [{ kind: 'listing', what: 'environments and workspaces' }, 'Listing environments and workspaces…'],
];

test('every progress step reads as a sentence: a capital verb, the kind and name of the object, no API group path', () => {
  for (const [step, words] of cases) {
    const text = describeStep(step);
    assert.equal(text, words, step.kind);
    if (step.kind !== 'fluxState') assert.match(text, /^[A-Z]/, `${step.kind} starts with a capital`);
    assert.doesNotMatch(text, /core\/v1|\w+\.k8s\.io\/v1\/|toolkit\.fluxcd\.io\/v1\//, `${step.kind} names objects as people do`);
    assert.doesNotMatch(text, /(\b\w+)\W+\1\b/i, `${step.kind} repeats no word ("deleting: deleting")`);
  }
});

test('reportStep gives the sink the words and the step itself', () => {
  const seen: unknown[][] = [];
  const step: ProgressStep = { kind: 'deleting', ref: namespace, prune: false };
  reportStep({ report: (...args) => void seen.push(args) }, step, 40);
  assert.deepEqual(seen, [['Deleting Namespace review-42…', 40, step]]);
  reportStep(undefined, step); // no sink: nothing to do, nothing thrown
});
