/**
 * The one pruner's deleting half: deletes what a {@link PrunePlan} lists, in the reverse of the
 * apply order (Flux → the rest → ServiceAccount/RBAC → Namespace), each object only while it is the
 * one the plan saw (read again right before, deleted with its uid and resourceVersion as
 * preconditions), and — when asked — waits until each tier is gone before the next. A Namespace
 * whose deletion would take other objects along is deleted only when that was confirmed, and only
 * while it holds no more than was confirmed. Objects the inventory lets go of but that stay lose its
 * owning annotation.
 */
import { PatchStrategy, type KubernetesObject } from '@kubernetes/client-node';
import { TIERS } from '../objects/supportedKinds';
import { owningInventory } from '../guards';
import { OWNING_INVENTORY_ANNOTATION } from '../inventory/configMap';
import type { InventoryRef } from '../kube/objMetadata';
import { DEFAULT_CONCURRENCY, mapBounded } from '../kube/concurrency';
import { withPreferredVersion } from '../kube/discovery';
import { readLiveObjects, type LiveObjects } from '../kube/liveObjects';
import { formatRef, headerOf, refKey, type ObjectRef } from '../kube/objectRef';
import { isFailure, ok, outcomeFromError, type ClusterFailure, type ClusterOutcome } from '../kube/outcome';
import type { ClusterSession } from '../kube/session';
import { readObject, waitUntilGone } from '../kube/watch';
import { reportStep, type ProgressSink } from '../progressSteps';
import { changedSincePlan, contentsDrift, freshCopy, readAgain } from '../sincePlan';
import { namespaceContents, takesOthers, type NamespaceContents } from './namespaceContents';
import type { PlannedDeletion, PrunePlan } from './plan';

/** How to carry out a prune plan. */
export interface PruneExecuteOptions {
  readonly signal?: AbortSignal;
  readonly progress?: ProgressSink;
  /** Epoch milliseconds by which the waits give up. */
  readonly deadline: number;
  readonly concurrency?: number;
  /** Wait until each tier is gone before the next (environments); otherwise only note what is still terminating (workspaces, as agentk). */
  readonly wait: boolean;
  /** Server-side dry-run: nothing is deleted. */
  readonly dryRun?: boolean;
  /** The person confirmed that deleting a namespace may delete the other objects the plan lists in it. */
  readonly deleteOthers?: boolean;
  /** The plan's objects as the caller has just read them again: the first tier needs no other read. */
  readonly fresh?: LiveObjects;
  /** The operation changed the cluster before this prune (an apply): a stop is then never "nothing changed". */
  readonly changedBefore?: boolean;
}

/** What the pruner did, also when it stopped half-way. */
export interface PruneResult {
  /** Deleted by this run (and gone, when waiting). */
  readonly deleted: readonly ObjectRef[];
  /** Gone before this run deleted it. */
  readonly alreadyGone: readonly ObjectRef[];
  /** Deletion requested, still present (finalizers); only when not waiting. */
  readonly terminating: readonly ObjectRef[];
}

/** What deleting each namespace would take along besides the operation's own objects, as message lines. */
export function cascadeLines(risky: readonly NamespaceContents[]): string[] {
  return risky.flatMap((c) => [
    `deleting ${formatRef(namespaceRef(c.namespace))} would also delete ${c.objects.length} object${c.objects.length === 1 ? '' : 's'} this inventory does not track${c.objects.length || c.unlisted.length ? ':' : ''}`,
    ...c.objects.slice(0, 20).map((o) => `  - ${formatRef(o)}`),
    ...(c.objects.length > 20 ? [`  - … and ${c.objects.length - 20} more`] : []),
    ...c.unlisted.map((u) => `  - what it holds of ${u} is unknown (cannot list)`),
  ]);
}

/** The refusal when a namespace to delete holds other objects and that was not confirmed; undefined otherwise. */
export function cascadeRefusal(cascades: readonly NamespaceContents[], verb: string): ClusterFailure | undefined {
  const risky = cascades.filter(takesOthers);
  if (risky.length === 0) return undefined;
  return {
    type: 'refused',
    ref: namespaceRef(risky[0].namespace),
    message: `Nothing was ${verb}: ${cascadeLines(risky).join('\n')}\nMove what must stay, or confirm that it goes with the namespace (agentcfg: --delete-others).`,
  };
}

function namespaceRef(name: string): ObjectRef {
  return { group: '', version: 'v1', kind: 'Namespace', namespace: '', name };
}

type Deleted = 'deleted' | 'alreadyGone' | 'terminating';

/** Deletes the object the plan saw, and only while it is as the last read found it (uid and resourceVersion). */
async function deleteOne(session: ClusterSession, d: PlannedDeletion, now: KubernetesObject | undefined, dryRun: boolean): Promise<ClusterOutcome<'deleted' | 'alreadyGone'>> {
  if (!now) return ok('alreadyGone');
  try {
    const preconditions = { uid: now.metadata?.uid, resourceVersion: now.metadata?.resourceVersion };
    await session.objects.delete(headerOf(d.ref), undefined, dryRun ? 'All' : undefined, undefined, undefined, 'Background', { preconditions });
    return ok('deleted');
  } catch (err) {
    const failure = outcomeFromError(err, d.ref);
    if (failure.type === 'notFound') return ok('alreadyGone');
    if (failure.type === 'conflict') return { type: 'refused', ref: d.ref, message: `${formatRef(d.ref)} changed in the moment before it was to be deleted; it is not deleted. Plan again.` };
    return failure;
  }
}

/** Removes the owning annotation from an object its inventory lets go of but that stays (cli-utils' abandon). */
async function abandon(session: ClusterSession, ref: InventoryRef, inventory: string | undefined): Promise<void> {
  const full = await withPreferredVersion(session, ref);
  if (isFailure(full) || !full.value) return;
  const live = await readObject(session, full.value);
  if (isFailure(live) || !live.value || owningInventory(live.value) !== inventory) return;
  try {
    // The resourceVersion makes the patch a no-op failure if the object changed since this read.
    await session.objects.patch(
      { ...headerOf(full.value), metadata: { ...headerOf(full.value).metadata, resourceVersion: live.value.metadata?.resourceVersion, annotations: { [OWNING_INVENTORY_ANNOTATION]: null } } } as unknown as KubernetesObject,
      undefined,
      undefined,
      session.fieldManager,
      undefined,
      PatchStrategy.MergePatch,
    );
  } catch {
    // Best effort: the object stays either way, and it is no longer listed by the inventory.
  }
}

/** Why the plan's namespaces now hold more than was confirmed, re-listed right before they are deleted. */
async function cascadeDrift(session: ClusterSession, plan: PrunePlan, namespaces: readonly string[]): Promise<ClusterOutcome<string[]>> {
  const drift: string[] = [];
  for (const namespace of namespaces) {
    const now = await namespaceContents(session, namespace, plan.ours);
    if (isFailure(now)) return now;
    const reason = contentsDrift(plan.cascades.find((c) => c.namespace === namespace), now.value);
    if (reason) drift.push(reason);
  }
  return ok(drift);
}

/**
 * Deletes the plan's objects. Each tier is read again right before it is deleted (`fresh`: a read
 * the caller has just made, used for the first tier) and the deletion stops when an object is no
 * longer the one the plan saw, or a namespace now holds more than was confirmed. Returns what was
 * done and, when it stopped, why: the caller keeps the inventory listing everything not known gone,
 * so a re-run converges.
 */
export async function executePrune(session: ClusterSession, plan: PrunePlan, verb: string, options: PruneExecuteOptions): Promise<{ result: PruneResult; failure?: ClusterFailure }> {
  const done: Record<Deleted, ObjectRef[]> = { deleted: [], alreadyGone: [], terminating: [] };
  const result = (): PruneResult => ({ deleted: done.deleted, alreadyGone: done.alreadyGone, terminating: done.terminating });
  const refused = plan.blocked[0] ?? (options.deleteOthers ? undefined : cascadeRefusal(plan.cascades, verb));
  if (refused) return { result: result(), failure: refused };
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  let fresh = options.fresh;
  for (const tier of [...TIERS].reverse()) {
    const batch = plan.deletions.filter((d) => d.tier === tier);
    if (batch.length === 0) continue;
    if (!fresh) {
      const again = await readAgain(session, batch.map((d) => ({ ref: d.ref, live: d.live })), { concurrency, goneIsFine: true });
      if (isFailure(again)) return { result: result(), failure: again };
      if (again.value.drift.length > 0) return { result: result(), failure: changedSincePlan(again.value.drift, options.changedBefore || done.deleted.length > 0) };
      fresh = again.value.fresh;
    }
    if (tier === 'namespaces') {
      const drift = await cascadeDrift(session, plan, batch.map((d) => d.ref.name));
      if (isFailure(drift)) return { result: result(), failure: drift };
      if (drift.value.length > 0) return { result: result(), failure: changedSincePlan(drift.value, options.changedBefore || done.deleted.length > 0) };
    }
    const reads = fresh;
    const outcomes = await mapBounded(batch, concurrency, async (d): Promise<ClusterOutcome<'deleted' | 'alreadyGone'>> => {
      if (options.signal?.aborted) return { type: 'cancelled', ref: d.ref, message: 'cancelled' };
      const outcome = await deleteOne(session, d, freshCopy(reads, d.ref), options.dryRun === true);
      if (outcome.type === 'ok' && outcome.value === 'deleted' && !options.dryRun) reportStep(options.progress, { kind: 'deleting', ref: d.ref, prune: verb === 'pruned' });
      return outcome;
    });
    // Time passes while a tier goes: the next one is read again.
    fresh = undefined;
    const requested: PlannedDeletion[] = [];
    let failure: ClusterFailure | undefined;
    outcomes.forEach((o, i) => {
      if (o.type !== 'ok') failure ??= o;
      else if (o.value === 'alreadyGone' || options.dryRun) done[o.value].push(batch[i].ref);
      else requested.push(batch[i]);
    });
    // One batched read of what was deleted: gone, or still held by finalizers (a namespace always is, for a while).
    const after = await readLiveObjects(session, requested.map((d) => d.ref), concurrency);
    const waits = await mapBounded(requested, concurrency, async (d): Promise<ClusterOutcome<Deleted>> => {
      const now = after.get(refKey(d.ref));
      const there = !now || now.type !== 'ok' || (now.value !== undefined && now.value.metadata?.uid === d.live.metadata?.uid);
      if (!there) return ok('deleted');
      if (!options.wait) return ok('terminating');
      reportStep(options.progress, { kind: 'waitGone', ref: d.ref });
      const gone = await waitUntilGone(session, d.ref, { signal: options.signal, timeoutMs: Math.max(1, options.deadline - Date.now()) });
      return gone.type === 'ok' ? ok('deleted') : gone;
    });
    waits.forEach((o, i) => {
      if (o.type === 'ok') done[o.value].push(requested[i].ref);
      else failure ??= o;
    });
    if (failure) return { result: result(), failure };
  }
  if (!options.dryRun) for (const s of plan.skipped) if (s.abandoned) await abandon(session, s.ref, owningInventory(s.abandoned));
  return { result: result() };
}
