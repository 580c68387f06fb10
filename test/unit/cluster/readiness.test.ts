// kstatus subset (docs/gitlab-behaviour.md#flux-readiness for Flux objects): when an applied object counts as current.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readinessOf } from '../../../server/src/cluster/readiness';

const kustomization = (generation: number, status?: Record<string, unknown>) => ({
  apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
  kind: 'Kustomization',
  metadata: { name: 'app', generation },
  ...(status ? { status } : {}),
});

test('Namespace: Active is current, Terminating is in progress', () => {
  assert.deepEqual(readinessOf({ apiVersion: 'v1', kind: 'Namespace', status: { phase: 'Active' } } as never), { state: 'current' });
  assert.equal(readinessOf({ apiVersion: 'v1', kind: 'Namespace', status: { phase: 'Terminating' } } as never).state, 'inProgress');
});

test('objects without status are current once they exist; absent is notFound', () => {
  assert.deepEqual(readinessOf({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'a' } }), { state: 'current' });
  assert.deepEqual(readinessOf({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'a' } }), { state: 'current' });
  assert.deepEqual(readinessOf(undefined), { state: 'notFound' });
});

// docs/gitlab-behaviour.md#flux-readiness
test('a Flux object is current only with Ready=True for its current generation', () => {
  const ready = { type: 'Ready', status: 'True', reason: 'ReconciliationSucceeded' };
  assert.equal(readinessOf(kustomization(1)).state, 'inProgress', 'no status yet: the controller has not seen it');
  assert.deepEqual(readinessOf(kustomization(2, { observedGeneration: 2, conditions: [ready] })), { state: 'current' });
  assert.equal(readinessOf(kustomization(3, { observedGeneration: 2, conditions: [ready] })).state, 'inProgress', 'Ready for an older generation');
  assert.equal(readinessOf(kustomization(2, { conditions: [ready] })).state, 'inProgress', 'Ready without observedGeneration');
  const notReady = readinessOf(kustomization(2, { observedGeneration: 2, conditions: [{ type: 'Ready', status: 'False', reason: 'BuildFailed', message: 'kustomize build failed' }] }));
  assert.deepEqual(notReady, { state: 'inProgress', message: 'Ready=False (BuildFailed: kustomize build failed)' }, 'controllers retry: not final');
  assert.deepEqual(readinessOf(kustomization(2, { observedGeneration: 2, conditions: [{ type: 'Stalled', status: 'True', reason: 'InvalidPath', message: 'path not found' }] })), {
    state: 'failed',
    reason: 'InvalidPath',
    message: 'path not found',
  });
});
