// The command layer's own rules, without a cluster: plans run once and expire, cancellation from
// either LSP source aborts the one AbortSignal the engine sees, arguments are checked field by field.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CancellationTokenSource } from 'vscode-languageserver';
import { clusterTarget, record, text } from '../../server/src/lsp/cluster/args';
import { OperationCancellation } from '../../server/src/lsp/cluster/cancellation';
import { InvalidArguments } from '../../server/src/lsp/cluster/commandRouter';
import { PLAN_TTL_MS, PlanStore, type StoredPlan } from '../../server/src/lsp/cluster/planStore';

const plan = { kind: 'destroy', title: 't', target: {}, plan: {} } as unknown as StoredPlan;

test('a plan is taken at most once', () => {
  const store = new PlanStore();
  const id = store.add(plan);
  assert.equal(store.take(id), plan);
  assert.equal(store.take(id), undefined);
});

test('a plan older than 15 minutes is forgotten; a younger one is kept', () => {
  let now = 1_000_000;
  const store = new PlanStore(() => now);
  const old = store.add(plan);
  now += PLAN_TTL_MS - 1;
  const young = store.add(plan);
  now += 2;
  assert.equal(store.take(old), undefined);
  assert.equal(store.take(young), plan);
});

test('discard forgets a declined plan', () => {
  const store = new PlanStore();
  const id = store.add(plan);
  store.discard(id);
  assert.equal(store.size, 0);
});

test('either token (request or progress Cancel) aborts the signal, once', () => {
  const request = new CancellationTokenSource();
  const progress = new CancellationTokenSource();
  const cancellation = new OperationCancellation(request.token);
  cancellation.follow(progress.token);
  let aborts = 0;
  cancellation.signal.addEventListener('abort', () => (aborts += 1));
  assert.equal(cancellation.signal.aborted, false);
  progress.cancel();
  request.cancel();
  assert.equal(cancellation.signal.aborted, true);
  assert.equal(aborts, 1);
  cancellation.dispose();
});

test('a token already cancelled aborts at once', () => {
  const request = new CancellationTokenSource();
  request.cancel();
  assert.equal(new OperationCancellation(request.token).signal.aborted, true);
});

test('argument readers name the wrong field', () => {
  assert.throws(() => record(null, 'the argument'), (e: unknown) => e instanceof InvalidArguments && /expected the argument as an object/.test(e.message));
  assert.throws(() => text({}, 'planId'), /"planId" is required/);
  assert.throws(() => text({ planId: 3 }, 'planId'), /"planId" must be a string/);
  assert.throws(() => clusterTarget({ cluster: { context: 5 } }), /"context" must be a string/);
  assert.deepEqual(clusterTarget({}), {});
  assert.deepEqual(clusterTarget({ cluster: { kubeconfigPath: '/k', context: 'c' } }), { kubeconfigPath: '/k', context: 'c' });
});
