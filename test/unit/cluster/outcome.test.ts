// Cluster errors classified into outcomes and described.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiException } from '@kubernetes/client-node';
import { conflictManagers, describeOutcome, outcomeFromError } from '../../../server/src/cluster/kube/outcome';
import { formatRef } from '../../../server/src/cluster/kube/objectRef';

const ref = { group: 'apps', version: 'v1', kind: 'Deployment', namespace: 'ns', name: 'web' };

// docs/gitlab-behaviour.md#managed-resources-flow
test('refs are formatted like GitLab\'s delete service log', () => {
  assert.equal(formatRef(ref), "apps/v1/Deployment 'web' in namespace 'ns'");
  assert.equal(formatRef({ group: '', version: 'v1', kind: 'Namespace', namespace: '', name: 'n' }), "core/v1/Namespace 'n'");
});

test('409 from server-side apply: the other managers from the Status causes', () => {
  const body = JSON.stringify({
    kind: 'Status',
    message: 'Apply failed with 2 conflicts: conflict with "kubectl-edit" using apps/v1: .spec.replicas; conflict with "helm" using apps/v1: .spec.template',
    reason: 'Conflict',
    details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-edit" using apps/v1', field: '.spec.replicas' }, { reason: 'FieldManagerConflict', message: 'conflict with "helm" using apps/v1', field: '.spec.template' }] },
    code: 409,
  });
  const outcome = outcomeFromError(new ApiException(409, 'Conflict', body, {}), ref);
  assert.equal(outcome.type, 'conflict');
  assert.ok(outcome.type === 'conflict');
  assert.deepEqual(outcome.managers, ['kubectl-edit', 'helm']);
  assert.match(describeOutcome(outcome), /^Conflict on apps\/v1\/Deployment 'web' in namespace 'ns': fields are owned by "kubectl-edit", "helm" \(\.spec\.replicas: conflict with "kubectl-edit" using apps\/v1; \.spec\.template: .*\)\. Apply again with force/);
  assert.deepEqual(conflictManagers([], 'conflict with "a \\"quoted\\" name" using v1'), ['a "quoted" name']);
});

test('HTTP statuses map to outcomes', () => {
  const status = (code: number, message: string) => new ApiException(code, 'x', JSON.stringify({ kind: 'Status', message, code }), {});
  assert.equal(outcomeFromError(status(401, 'Unauthorized')).type, 'unauthorized');
  assert.equal(outcomeFromError(status(403, 'forbidden')).type, 'forbidden');
  assert.equal(outcomeFromError(status(404, 'not found')).type, 'notFound');
  assert.equal(outcomeFromError(status(422, 'bad')).type, 'invalid');
  assert.equal(outcomeFromError(status(504, 'slow')).type, 'timeout');
  assert.deepEqual(outcomeFromError(status(500, 'boom'), ref), { type: 'failed', ref, status: 500, message: 'boom' });
});

test('network errors are "unreachable"; aborts are "cancelled"; unknown kinds say to install the CRD', () => {
  const refused = Object.assign(new Error('request to https://127.0.0.1:1/api failed, reason: connect ECONNREFUSED 127.0.0.1:1'), { type: 'system', code: 'ECONNREFUSED' });
  assert.equal(outcomeFromError(refused).type, 'unreachable');
  const tls = Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
  assert.equal(outcomeFromError(tls).type, 'unreachable');
  const abort = Object.assign(new Error('The user aborted a request.'), { name: 'AbortError', type: 'aborted' });
  assert.equal(outcomeFromError(abort).type, 'cancelled');
  const unknown = outcomeFromError(new Error('Unrecognized API version and kind: example.com/v1 Widget'));
  assert.equal(unknown.type, 'unknownKind');
  assert.match(describeOutcome(unknown), /Install its CustomResourceDefinition/);
});

test("client-node's generated API errors: the Status message is taken from the error text", () => {
  const err = new ApiException(401, 'Unauthorized', undefined, {});
  assert.deepEqual(outcomeFromError(err), { type: 'unauthorized', ref: undefined, message: 'Unauthorized' });
});
