// Flux revision formats (docs/gitlab-behaviour.md#flux-revision-formats), OCI → git linkage (docs/gitlab-behaviour.md#oci-artifact-origin-revision) and readiness (docs/gitlab-behaviour.md#flux-readiness).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { kustomizationVerdict, ociArtifact, ociRepositoryProblem } from '../../../server/src/cluster/flux/readiness';
import { commitFromRevision, digestFromRevision, parseWantedRevision, revisionMatches, type WantedRevision } from '../../../server/src/cluster/flux/revision';

const SHA = '132f4e719209eb10b9485302f8593fc0e680f4fc';
const DIGEST = 'sha256:3b6cdcc7adcc9a84d3214ee1c029543789d90b5ae69debe9efa3f66e982875de';

function wanted(text: string): WantedRevision {
  const parsed = parseWantedRevision(text);
  assert.ok(!('error' in parsed), `parses ${text}`);
  return parsed;
}

// docs/gitlab-behaviour.md#flux-revision-formats
test('the digest is everything after the last @', () => {
  assert.equal(digestFromRevision(`latest@${DIGEST}`), DIGEST);
  assert.equal(digestFromRevision(DIGEST), DIGEST);
  assert.equal(digestFromRevision(`v1.0@x@${DIGEST}`), DIGEST);
});

// docs/gitlab-behaviour.md#flux-revision-formats
test('commits from git revisions, legacy <branch>/<sha> and bare shas; none from OCI digests', () => {
  assert.equal(commitFromRevision(`master@sha1:${SHA}`), SHA);
  assert.equal(commitFromRevision(`refs/heads/feature/x@sha1:${SHA.toUpperCase()}`), SHA);
  assert.equal(commitFromRevision(`main/${SHA}`), SHA);
  assert.equal(commitFromRevision('132f4e71'), '132f4e71');
  assert.equal(commitFromRevision(`latest@${DIGEST}`), undefined);
  assert.equal(commitFromRevision(DIGEST), undefined);
  assert.equal(commitFromRevision('v1.2.3'), undefined);
});

test('the revision to wait for: commit, digest, or an explained error', () => {
  assert.deepEqual(parseWantedRevision(`main@sha1:${SHA}`), { kind: 'commit', commit: SHA, text: `main@sha1:${SHA}` });
  assert.deepEqual(parseWantedRevision('132F4E71'), { kind: 'commit', commit: '132f4e71', text: '132F4E71' });
  assert.deepEqual(parseWantedRevision(`latest@${DIGEST}`), { kind: 'digest', digest: DIGEST, text: `latest@${DIGEST}` });
  const bad = parseWantedRevision('v1.2.3');
  assert.ok('error' in bad && /not a Flux revision/.test(bad.error));
});

// docs/gitlab-behaviour.md#flux-revision-formats
test('an OCI digest matches on the digest alone, whatever the tag', () => {
  assert.ok(revisionMatches(wanted(DIGEST), { revision: `latest@${DIGEST}` }));
  assert.ok(revisionMatches(wanted(`v2@${DIGEST}`), { revision: DIGEST }));
  assert.ok(!revisionMatches(wanted(DIGEST), { revision: `latest@sha256:${'0'.repeat(64)}` }));
});

// docs/gitlab-behaviour.md#flux-revision-formats
test('a git commit matches git revisions, short shas by prefix', () => {
  assert.ok(revisionMatches(wanted(SHA), { revision: `main@sha1:${SHA}` }));
  assert.ok(revisionMatches(wanted(SHA.slice(0, 8)), { revision: `main@sha1:${SHA}` }));
  assert.ok(revisionMatches(wanted(`other@sha1:${SHA}`), { revision: `main/${SHA}` }));
  assert.ok(!revisionMatches(wanted('deadbeef'), { revision: `main@sha1:${SHA}` }));
  assert.ok(!revisionMatches(wanted(SHA), {}));
});

// docs/gitlab-behaviour.md#oci-artifact-origin-revision
test('a commit matches an OCI revision through its origin revision', () => {
  const applied = { revision: `latest@${DIGEST}`, originRevisions: [`main@sha1:${SHA}`] };
  assert.ok(revisionMatches(wanted(SHA), applied));
  assert.ok(!revisionMatches(wanted(SHA), { revision: applied.revision }));
  // GitLab's tutorial pushes the short sha as org.opencontainers.image.revision.
  assert.ok(revisionMatches(wanted(SHA), { revision: applied.revision, originRevisions: [SHA.slice(0, 8)] }));
});

const kustomization = (status: Record<string, unknown>, generation = 2) => ({ metadata: { name: 'app', generation }, status: { observedGeneration: generation, ...status } });
const ready = (value: string, reason: string, message = '') => ({ type: 'Ready', status: value, reason, message });

// docs/gitlab-behaviour.md#flux-readiness
test('Ready=True for the current generation with the revision applied → synced', () => {
  const verdict = kustomizationVerdict(kustomization({ lastAppliedRevision: `main@sha1:${SHA}`, conditions: [ready('True', 'ReconciliationSucceeded', `Applied revision: main@sha1:${SHA}`)] }), wanted(SHA));
  assert.deepEqual(verdict, { state: 'synced', revision: `main@sha1:${SHA}`, message: `Applied revision: main@sha1:${SHA}` });
});

// docs/gitlab-behaviour.md#flux-readiness
test('an older observedGeneration is pending even when Ready=True', () => {
  const k = { metadata: { generation: 3 }, status: { observedGeneration: 2, lastAppliedRevision: `main@sha1:${SHA}`, conditions: [ready('True', 'ReconciliationSucceeded')] } };
  const verdict = kustomizationVerdict(k, wanted(SHA));
  assert.equal(verdict.state, 'pending');
  assert.match(verdict.message, /generation 3/);
});

// docs/gitlab-behaviour.md#flux-readiness
test('Ready=True on another revision is pending and says what was applied', () => {
  const verdict = kustomizationVerdict(kustomization({ lastAppliedRevision: 'main@sha1:' + 'a'.repeat(40), conditions: [ready('True', 'ReconciliationSucceeded')] }), wanted(SHA));
  assert.equal(verdict.state, 'pending');
  assert.match(verdict.message, /last applied revision main@sha1:a{40}, Ready=True \(ReconciliationSucceeded\); waiting for/);
});

// docs/gitlab-behaviour.md#flux-readiness
test('Ready=False on the revision waited for → failed with the controller’s reason and message', () => {
  const verdict = kustomizationVerdict(
    kustomization({ lastAttemptedRevision: `main@sha1:${SHA}`, conditions: [ready('False', 'BuildFailed', 'kustomization path not found')] }),
    wanted(SHA),
  );
  assert.deepEqual(verdict, { state: 'failed', reason: 'BuildFailed', message: 'kustomization path not found' });
});

// docs/gitlab-behaviour.md#flux-readiness
test('Ready=False of an older attempted revision is not the failure of the one waited for', () => {
  const verdict = kustomizationVerdict(
    kustomization({ lastAttemptedRevision: 'main@sha1:' + 'b'.repeat(40), conditions: [ready('False', 'HealthCheckFailed', 'timeout')] }),
    wanted(SHA),
  );
  assert.equal(verdict.state, 'pending');
  assert.match(verdict.message, /failed \(HealthCheckFailed: timeout\)/);
});

// docs/gitlab-behaviour.md#flux-readiness
test('Stalled=True is a failure whatever the revision', () => {
  const verdict = kustomizationVerdict(
    kustomization({ conditions: [ready('False', 'ArtifactFailed', 'x'), { type: 'Stalled', status: 'True', reason: 'InvalidPath', message: 'path ./nope not found' }] }),
    wanted(DIGEST),
  );
  assert.deepEqual(verdict, { state: 'failed', reason: 'InvalidPath', message: 'path ./nope not found' });
});

// docs/gitlab-behaviour.md#oci-artifact-origin-revision
test('the OCIRepository’s revision metadata links an applied digest to a commit', () => {
  const oci = { status: { artifact: { revision: `latest@${DIGEST}`, metadata: { 'org.opencontainers.image.revision': `main@sha1:${SHA}` } } } };
  const source = ociArtifact(oci);
  assert.deepEqual(source, { revision: `latest@${DIGEST}`, originRevision: `main@sha1:${SHA}` });
  const k = kustomization({ lastAppliedRevision: `latest@${DIGEST}`, conditions: [ready('True', 'ReconciliationSucceeded')] });
  assert.equal(kustomizationVerdict(k, wanted(SHA), source).state, 'synced');
  assert.equal(kustomizationVerdict(k, wanted(SHA)).state, 'pending', 'without the linkage a digest is no commit');
  // Metadata of a different artifact says nothing about the applied one.
  assert.equal(kustomizationVerdict(k, wanted(SHA), { ...source, revision: `latest@sha256:${'1'.repeat(64)}` }).state, 'pending');
});

// docs/gitlab-behaviour.md#oci-artifact-origin-revision
test('status.lastAppliedOriginRevision links an applied digest to a commit', () => {
  const k = kustomization({ lastAppliedRevision: `latest@${DIGEST}`, lastAppliedOriginRevision: `main@sha1:${SHA}`, conditions: [ready('True', 'ReconciliationSucceeded')] });
  assert.equal(kustomizationVerdict(k, wanted(SHA)).state, 'synced');
});

test('a Kustomization without status is pending, not a crash', () => {
  assert.equal(kustomizationVerdict({ metadata: { generation: 1 } }, wanted(SHA)).state, 'pending');
  assert.equal(kustomizationVerdict(null, wanted(SHA)).state, 'pending');
});

// docs/gitlab-behaviour.md#flux-readiness
test('an OCIRepository’s trouble — Stalled is final, FetchFailed=True or Ready=False is shown while waiting', () => {
  const oci = (conditions: object[]) => ({ status: { conditions } });
  assert.deepEqual(ociRepositoryProblem(oci([{ type: 'Stalled', status: 'True', reason: 'InvalidURL', message: 'bad url' }])), { stalled: true, reason: 'InvalidURL', message: 'bad url' });
  assert.deepEqual(ociRepositoryProblem(oci([{ type: 'Ready', status: 'False', reason: 'OCIArtifactPullFailed', message: 'x' }, { type: 'FetchFailed', status: 'True', reason: 'AuthenticationFailed', message: '401' }])), {
    stalled: false,
    reason: 'AuthenticationFailed',
    message: '401',
  });
  assert.deepEqual(ociRepositoryProblem(oci([{ type: 'Ready', status: 'False', reason: 'OCIArtifactPullFailed', message: 'x' }])), { stalled: false, reason: 'OCIArtifactPullFailed', message: 'x' });
  // Negative polarity: FetchFailed=False is fine; Ready=True is fine.
  assert.equal(ociRepositoryProblem(oci([{ type: 'Ready', status: 'True', reason: 'Succeeded' }, { type: 'FetchFailed', status: 'False', reason: 'x' }])), undefined);
  assert.equal(ociRepositoryProblem({}), undefined);
});
