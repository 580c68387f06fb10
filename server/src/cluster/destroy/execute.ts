/**
 * Carries out a {@link DestroyPlan}: deletes in the reverse of the apply order (Flux → the rest →
 * ServiceAccount/RBAC → Namespace), waits (watch) until each tier is gone, and deletes the inventory
 * last. Idempotent and resumable: after a crash or cancellation the inventory still lists what may
 * remain, and a new plan skips what is already gone.
 */
import { TIERS } from '../apply/supportedKinds';
import { DEFAULT_CONCURRENCY, mapBounded } from '../kube/concurrency';
import { readLiveObjects } from '../kube/liveObjects';
import { formatRef, refKey, type ObjectRef } from '../kube/objectRef';
import { isFailure, ok, outcomeFromError, type ClusterFailure, type ClusterOutcome } from '../kube/outcome';
import type { RequestCounts } from '../kube/requests';
import type { ClusterSession } from '../kube/session';
import { waitUntilGone } from '../kube/watch';
import { deleteInventory } from '../inventory/store';
import type { OperationOptions } from '../progress';
import type { DestroyPlan } from './plan';

/** What a destroy did. */
export interface DestroyResult {
  readonly deleted: readonly ObjectRef[];
  /** Entries left alone (gone already, or refused by a guard), with the reason. */
  readonly skipped: DestroyPlan['skipped'];
  readonly inventoryDeleted: boolean;
  readonly requests: RequestCounts;
}

/** Default upper bound of a destroy, waits included (namespace finalization can take a while). */
export const DEFAULT_DESTROY_TIMEOUT_MS = 5 * 60_000;

/** Deletes what the plan lists, then the inventory. Refuses (deleting nothing) when the plan is blocked. */
export async function executeDestroy(session: ClusterSession, plan: DestroyPlan, options: OperationOptions & { concurrency?: number } = {}): Promise<ClusterOutcome<DestroyResult>> {
  const before = session.requests.snapshot();
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_DESTROY_TIMEOUT_MS);
  const { signal, progress } = options;
  if (plan.blocked.length > 0) {
    const first = plan.blocked[0];
    return plan.blocked.length === 1
      ? first
      : { type: 'refused', message: `nothing was deleted; ${plan.blocked.length} problems:\n${plan.blocked.map((b) => `- ${b.ref ? `${formatRef(b.ref)}: ` : ''}${b.message}`).join('\n')}` };
  }
  const deleted: ObjectRef[] = [];
  let done = 0;
  for (const tier of [...TIERS].reverse()) {
    const batch = plan.deletions.filter((d) => d.tier === tier);
    const results = await mapBounded(batch, options.concurrency ?? DEFAULT_CONCURRENCY, async (d): Promise<ClusterOutcome<void>> => {
      if (signal?.aborted) return { type: 'cancelled', ref: d.ref, message: 'cancelled' } satisfies ClusterFailure;
      try {
        // The uid precondition: a same-named object created since the plan is not ours to delete.
        await session.objects.delete(structuredClone(d.live), undefined, undefined, undefined, undefined, 'Background', { preconditions: { uid: d.live.metadata?.uid } });
      } catch (err) {
        const failure = outcomeFromError(err, d.ref);
        if (failure.type === 'conflict') return { type: 'refused', ref: d.ref, message: `${formatRef(d.ref)} was replaced by another object since the plan was made; it is not deleted. Plan again.` };
        if (failure.type !== 'notFound') return failure;
      }
      progress?.report(`deleting ${formatRef(d.ref)}`, Math.round((++done * 100) / Math.max(1, plan.deletions.length + 1)));
      return ok(undefined);
    });
    const failed = results.find(isFailure);
    if (failed) return failed;
    // One batched read of the tier, then a watch for each object still there (finalizers, namespaces).
    const after = await readLiveObjects(session, batch.map((d) => d.ref), options.concurrency ?? DEFAULT_CONCURRENCY);
    const waits = await mapBounded(batch, options.concurrency ?? DEFAULT_CONCURRENCY, async (d): Promise<ClusterOutcome<void>> => {
      const now = after.get(refKey(d.ref));
      const stillThere = !now || isFailure(now) || (now.value !== undefined && now.value.metadata?.uid === d.live.metadata?.uid);
      const gone = stillThere ? await waitUntilGone(session, d.ref, { signal, timeoutMs: Math.max(1, deadline - Date.now()) }) : ok(undefined);
      if (!isFailure(gone)) deleted.push(d.ref);
      return gone;
    });
    const notGone = waits.find(isFailure);
    if (notGone) return notGone;
  }
  if (signal?.aborted) return { type: 'cancelled', message: 'cancelled' };
  let inventoryDeleted = false;
  if (plan.inventoryExists) {
    progress?.report(`deleting inventory ${plan.inventory.namespace}/${plan.inventory.name}`, 100);
    const removed = await deleteInventory(session, plan.inventory);
    if (isFailure(removed)) return removed;
    inventoryDeleted = true;
  }
  return ok({ deleted, skipped: plan.skipped, inventoryDeleted, requests: session.requests.since(before) });
}
