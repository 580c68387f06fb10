/**
 * Carries out a {@link DestroyPlan} through the one pruner: deletes in the reverse of the apply order,
 * waits until each tier is gone, and deletes the inventory last. Idempotent and resumable: after a
 * crash or cancellation the inventory still lists what may remain, and a new plan skips what is
 * already gone.
 */
import { formatRef, type ObjectRef } from '../kube/objectRef';
import { isFailure, ok, type ClusterOutcome } from '../kube/outcome';
import type { RequestCounts } from '../kube/requests';
import type { ClusterSession } from '../kube/session';
import { deleteInventory } from '../inventory/store';
import { executePrune } from '../prune/index';
import type { OperationOptions } from '../progress';
import { reportStep } from '../progressSteps';
import type { DestroyPlan } from './plan';

/** What a destroy did. */
export interface DestroyResult {
  /** Deleted by this run. */
  readonly deleted: readonly ObjectRef[];
  /** Planned for deletion but gone before this run deleted them. */
  readonly alreadyGone: readonly ObjectRef[];
  /** Entries left alone (gone already, or refused by a guard), with the reason. */
  readonly skipped: DestroyPlan['skipped'];
  readonly inventoryDeleted: boolean;
  readonly requests: RequestCounts;
}

/** Options of {@link executeDestroy}. */
export interface ExecuteDestroyOptions extends OperationOptions {
  readonly concurrency?: number;
  /** The person confirmed that deleting a namespace also deletes the other objects the plan lists in it. */
  readonly deleteOthers?: boolean;
}

/** Default upper bound of a destroy, waits included (namespace finalization can take a while). */
export const DEFAULT_DESTROY_TIMEOUT_MS = 5 * 60_000;

/** Deletes what the plan lists, then the inventory. Refuses (deleting nothing) when the plan is blocked or a cascade is not confirmed. */
export async function executeDestroy(session: ClusterSession, plan: DestroyPlan, options: ExecuteDestroyOptions = {}): Promise<ClusterOutcome<DestroyResult>> {
  const before = session.requests.snapshot();
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_DESTROY_TIMEOUT_MS);
  if (plan.blocked.length > 1) {
    return { type: 'refused', message: `nothing was deleted; ${plan.blocked.length} problems:\n${plan.blocked.map((b) => `- ${b.ref ? `${formatRef(b.ref)}: ` : ''}${b.message}`).join('\n')}` };
  }
  const { result, failure } = await executePrune(session, plan, 'deleted', { ...options, deadline, wait: true });
  if (failure) return failure;
  if (options.signal?.aborted) return { type: 'cancelled', message: 'cancelled' };
  let inventoryDeleted = false;
  if (plan.inventoryExists) {
    reportStep(options.progress, { kind: 'deleteInventory', inventory: plan.inventory }, 100);
    const removed = await deleteInventory(session, plan.inventory);
    if (isFailure(removed)) return removed;
    inventoryDeleted = true;
  }
  return ok({ deleted: result.deleted, alreadyGone: result.alreadyGone, skipped: plan.skipped, inventoryDeleted, requests: session.requests.since(before) });
}
