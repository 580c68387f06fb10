/**
 * The one pruner's deleting half: deletes what a {@link PrunePlan} lists, in the reverse of the
 * apply order (Flux → the rest → ServiceAccount/RBAC → Namespace), each object by its uid (a
 * same-named object made since the plan is not ours), and — when asked — waits until each tier is
 * gone before the next. A Namespace whose deletion would take other objects along is deleted only
 * when that was confirmed.
 */
import { TIERS } from '../apply/supportedKinds';
import { DEFAULT_CONCURRENCY, mapBounded } from '../kube/concurrency';
import { readLiveObjects } from '../kube/liveObjects';
import { formatRef, headerOf, refKey, type ObjectRef } from '../kube/objectRef';
import { ok, outcomeFromError, type ClusterFailure, type ClusterOutcome } from '../kube/outcome';
import type { ClusterSession } from '../kube/session';
import { waitUntilGone } from '../kube/watch';
import type { ProgressSink } from '../progress';
import { reportStep } from '../progressSteps';
import { takesOthers, type NamespaceContents } from './namespaceContents';
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

/** The refusal when a namespace to delete holds other objects and that was not confirmed; undefined otherwise. */
export function cascadeRefusal(cascades: readonly NamespaceContents[], verb: string): ClusterFailure | undefined {
  const risky = cascades.filter(takesOthers);
  if (risky.length === 0) return undefined;
  const lines = risky.flatMap((c) => [
    `deleting ${formatRef(namespaceRef(c.namespace))} would also delete ${c.objects.length} object${c.objects.length === 1 ? '' : 's'} this inventory does not track${c.objects.length || c.unlisted.length ? ':' : ''}`,
    ...c.objects.slice(0, 20).map((o) => `  - ${formatRef(o)}`),
    ...(c.objects.length > 20 ? [`  - … and ${c.objects.length - 20} more`] : []),
    ...c.unlisted.map((u) => `  - what it holds of ${u} is unknown (cannot list)`),
  ]);
  return {
    type: 'refused',
    ref: namespaceRef(risky[0].namespace),
    message: `Nothing was ${verb}: ${lines.join('\n')}\nMove what must stay, or confirm that it goes with the namespace (agentcfg: --delete-others).`,
  };
}

function namespaceRef(name: string): ObjectRef {
  return { group: '', version: 'v1', kind: 'Namespace', namespace: '', name };
}

type Deleted = 'deleted' | 'alreadyGone' | 'terminating';

async function deleteOne(session: ClusterSession, d: PlannedDeletion, dryRun: boolean): Promise<ClusterOutcome<'deleted' | 'alreadyGone'>> {
  try {
    await session.objects.delete(headerOf(d.ref), undefined, dryRun ? 'All' : undefined, undefined, undefined, 'Background', { preconditions: { uid: d.live.metadata?.uid } });
    return ok('deleted');
  } catch (err) {
    const failure = outcomeFromError(err, d.ref);
    if (failure.type === 'notFound') return ok('alreadyGone');
    if (failure.type === 'conflict') return { type: 'refused', ref: d.ref, message: `${formatRef(d.ref)} was replaced by another object since the plan was made; it is not deleted. Plan again.` };
    return failure;
  }
}

/**
 * Deletes the plan's objects. Returns what was done and, when it stopped, why: the caller keeps the
 * inventory listing everything not known gone, so a re-run converges.
 */
export async function executePrune(session: ClusterSession, plan: PrunePlan, verb: string, options: PruneExecuteOptions): Promise<{ result: PruneResult; failure?: ClusterFailure }> {
  const done: Record<Deleted, ObjectRef[]> = { deleted: [], alreadyGone: [], terminating: [] };
  const result = (): PruneResult => ({ deleted: done.deleted, alreadyGone: done.alreadyGone, terminating: done.terminating });
  const refused = plan.blocked[0] ?? (options.deleteOthers ? undefined : cascadeRefusal(plan.cascades, verb));
  if (refused) return { result: result(), failure: refused };
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  for (const tier of [...TIERS].reverse()) {
    const batch = plan.deletions.filter((d) => d.tier === tier);
    const outcomes = await mapBounded(batch, concurrency, async (d): Promise<ClusterOutcome<'deleted' | 'alreadyGone'>> => {
      if (options.signal?.aborted) return { type: 'cancelled', ref: d.ref, message: 'cancelled' };
      const outcome = await deleteOne(session, d, options.dryRun === true);
      if (outcome.type === 'ok' && outcome.value === 'deleted' && !options.dryRun) reportStep(options.progress, { kind: 'deleting', ref: d.ref, prune: verb === 'pruned' });
      return outcome;
    });
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
  return { result: result() };
}
