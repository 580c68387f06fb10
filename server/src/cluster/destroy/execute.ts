/**
 * Carries out a {@link DestroyPlan} through the one pruner: deletes in the reverse of the apply order,
 * waits until each tier is gone, and deletes the inventory last — only what the plan showed, checked
 * again under the environment's lock (sincePlan.ts, operationLock.ts). Idempotent and resumable: after
 * a crash or cancellation the inventory still lists what may remain, and a new plan skips what is
 * already gone.
 */
import { formatRef, type ObjectRef } from '../kube/objectRef';
import { isFailure, ok, type ClusterOutcome } from '../kube/outcome';
import type { RequestCounts } from '../kube/requests';
import type { ClusterSession } from '../kube/session';
import { deleteInventory, readInventory } from '../inventory/store';
import type { LiveObjects } from '../kube/liveObjects';
import { withOperationLock, type LockOptions, type LockSubject } from '../operationLock';
import { executePrune, namespaceContents } from '../prune/index';
import { changedSincePlan, contentsDrift, inventoryDrift, readAgain } from '../sincePlan';
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
export interface ExecuteDestroyOptions extends LockOptions {
  readonly concurrency?: number;
  /** The person confirmed that deleting a namespace also deletes the other objects the plan lists in it. */
  readonly deleteOthers?: boolean;
}

/** Default upper bound of a destroy, waits included (namespace finalization can take a while). */
export const DEFAULT_DESTROY_TIMEOUT_MS = 5 * 60_000;

/** What a destroy locks: the environment's inventory. */
export function destroyLockSubject(plan: Pick<DestroyPlan, 'inventory'>): LockSubject {
  return { namespace: plan.inventory.namespace, inventory: plan.inventory.name, what: `environment inventory ${plan.inventory.namespace}/${plan.inventory.name}` };
}

/**
 * Reads again what the plan was made from (the inventory, every object to delete, what each
 * namespace to delete holds): the reasons it changed, and the fresh reads of the objects.
 */
async function readPlanAgain(session: ClusterSession, plan: DestroyPlan, concurrency: number | undefined): Promise<ClusterOutcome<{ drift: string[]; fresh: LiveObjects }>> {
  const stored = await readInventory(session, plan.inventory);
  if (isFailure(stored)) return stored;
  const drift: string[] = [];
  const changed = inventoryDrift(plan.inventory, plan.inventoryVersion, stored.value);
  if (changed) drift.push(changed);
  const again = await readAgain(session, plan.deletions.map((d) => ({ ref: d.ref, live: d.live })), { concurrency, goneIsFine: true });
  if (isFailure(again)) return again;
  drift.push(...again.value.drift);
  for (const d of plan.deletions.filter((x) => x.ref.group === '' && x.ref.kind === 'Namespace')) {
    const now = await namespaceContents(session, d.ref.name, plan.ours);
    if (isFailure(now)) return now;
    const more = contentsDrift(plan.cascades.find((c) => c.namespace === d.ref.name), now.value);
    if (more) drift.push(more);
  }
  return ok({ drift, fresh: again.value.fresh });
}

/**
 * Deletes what the plan lists, then the inventory, holding the environment's lock. Refuses (deleting
 * nothing) when the plan is blocked, a cascade is not confirmed, or the cluster changed since the plan.
 */
export async function executeDestroy(session: ClusterSession, plan: DestroyPlan, options: ExecuteDestroyOptions = {}): Promise<ClusterOutcome<DestroyResult>> {
  const before = session.requests.snapshot();
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_DESTROY_TIMEOUT_MS);
  if (plan.blocked.length > 1) {
    return { type: 'refused', message: `nothing was deleted; ${plan.blocked.length} problems:\n${plan.blocked.map((b) => `- ${b.ref ? `${formatRef(b.ref)}: ` : ''}${b.message}`).join('\n')}` };
  }
  const nothing = { deleted: [], alreadyGone: [], skipped: plan.skipped, inventoryDeleted: false };
  if (!plan.inventoryExists) return ok({ ...nothing, requests: session.requests.since(before) });
  return withOperationLock(session, destroyLockSubject(plan), 'destroy', options, async (signal) => {
    const again = await readPlanAgain(session, plan, options.concurrency);
    if (isFailure(again)) return again;
    if (again.value.drift.length > 0) return changedSincePlan(again.value.drift);
    const { result, failure } = await executePrune(session, plan, 'deleted', { ...options, signal, deadline, wait: true, fresh: again.value.fresh });
    if (failure) return failure;
    if (signal?.aborted) return { type: 'cancelled', message: 'cancelled' };
    reportStep(options.progress, { kind: 'deleteInventory', inventory: plan.inventory }, 100);
    const removed = await deleteInventory(session, plan.inventory, plan.inventoryVersion);
    if (isFailure(removed)) return removed.type === 'conflict' ? changedSincePlan([`the inventory ${plan.inventory.namespace}/${plan.inventory.name} was written by another run`], true) : removed;
    return ok({ deleted: result.deleted, alreadyGone: result.alreadyGone, skipped: plan.skipped, inventoryDeleted: true, requests: session.requests.since(before) });
  });
}
