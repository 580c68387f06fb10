// The Ctrl-C summary follows the apply's progress steps: an object the apply found unchanged (the
// --yes path plans without a preview, so it learns that only from the server's answer) is done.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApplyPlan } from '../../server/src/cluster/apply/plan';
import { StepLedger } from '../../server/src/cli/interrupt';
import { observeApply } from '../../server/src/cli/progressLedgers';

const ref = { group: '', version: 'v1', kind: 'ServiceAccount', namespace: 'review-42-7', name: 'deployer' };

test('an object reported unchanged counts as done, as created and updated ones do', () => {
  for (const outcome of ['created', 'updated', 'unchanged']) {
    const ledger = new StepLedger();
    const plan = { createsInventoryNamespace: false, objects: [{ ref, tier: 'identities', action: 'update' }], prunes: [] } as unknown as ApplyPlan;
    const observe = observeApply(ledger, plan);
    observe({ kind: 'applied', ref, action: outcome as 'created' | 'updated' | 'unchanged', done: 1, total: 1 });
    assert.deepEqual(ledger.summary(), { done: [`${outcome} core/v1/ServiceAccount 'deployer' in namespace 'review-42-7'`], notDone: [] }, outcome);
  }
});
