/**
 * Carries out a reviewed {@link ApplyPlan}: server-side apply with our fixed field manager, tier by
 * tier (Namespace → ServiceAccount/RBAC → the rest → Flux), each tier's objects concurrently (bounded)
 * and then waited for until current (kstatus, by watch); prune what the template no longer renders;
 * only what the plan showed, read again under the environment's lock and written with the fresh
 * resourceVersion as precondition (sincePlan.ts, operationLock.ts); keep the inventory so that a
 * crash at any point leaves nothing untracked:
 * - before applying: inventory = previous ∪ desired;
 * - after pruning: inventory = desired.
 * What each apply did is read from the server's answer: an object whose resourceVersion did not move
 * was unchanged (a plan without preview does not know it before applying).
 */
import { PatchStrategy, type KubernetesObject } from '@kubernetes/client-node';
import { DEFAULT_CONCURRENCY, mapBounded } from '../kube/concurrency';
import { formatRef, refKey, type ObjectRef } from '../kube/objectRef';
import { isFailure, ok, outcomeFromError, type ClusterFailure, type ClusterOutcome } from '../kube/outcome';
import type { RequestCounts } from '../kube/requests';
import type { ClusterSession } from '../kube/session';
import { formatDuration, waitForObject } from '../kube/watch';
import { uniqueRefs } from '../inventory/configMap';
import type { InventoryRef } from '../kube/objMetadata';
import { readInventory, writeInventory } from '../inventory/store';
import type { LiveObjects } from '../kube/liveObjects';
import { CREATE_ONLY, expectedVersion, isStaleWrite, withExpectedVersion } from '../kube/preconditions';
import { withOperationLock, type LockOptions, type LockSubject } from '../operationLock';
import { changedSincePlan, contentsDrift, freshCopy, inventoryDrift, readAgain } from '../sincePlan';
import { objectName, reportStep } from '../progressSteps';
import { cascadeRefusal, executePrune, namespaceContents } from '../prune/index';
import { readinessOf } from '../readiness';
import { conflictsOf, isNoop, sameRefs, type ApplyAction, type ApplyPlan, type PlannedObject } from './plan';
import { TIERS } from '../objects/supportedKinds';

/** Options of {@link executeApply}. */
export interface ExecuteApplyOptions extends LockOptions {
  /** Take over fields owned by other field managers (the plan lists them). Default false. */
  readonly force?: boolean;
  /** The person confirmed that pruning a namespace also deletes the other objects the plan lists in it. */
  readonly deleteOthers?: boolean;
  readonly concurrency?: number;
}

/** What an apply did. */
export interface ApplyResult {
  /** Every object of the plan, with what applying it did (`unchanged` also when the server found nothing to change). */
  readonly applied: readonly { readonly ref: ObjectRef; readonly action: ApplyAction }[];
  readonly pruned: readonly ObjectRef[];
  /** Whether anything changed on the cluster: an object created or updated, one pruned, the inventory or its namespace written. */
  readonly changed: boolean;
  readonly inventory: { readonly name: string; readonly namespace: string; readonly objects: readonly InventoryRef[] };
  /** HTTP requests this execution sent. */
  readonly requests: RequestCounts;
}

/** Default upper bound of an apply, waits included. */
export const DEFAULT_APPLY_TIMEOUT_MS = 5 * 60_000;

function refusal(plan: ApplyPlan): ClusterFailure | undefined {
  if (plan.blocked.length === 0) return undefined;
  if (plan.blocked.length === 1) return plan.blocked[0];
  return { type: 'refused', message: `nothing was applied; ${plan.blocked.length} objects cannot be applied:\n${plan.blocked.map((b) => `- ${b.ref ? `${formatRef(b.ref)}: ` : ''}${b.message}`).join('\n')}` };
}

function conflictFailure(objects: readonly PlannedObject[]): ClusterFailure {
  const first = objects[0];
  const managers = [...new Set(objects.flatMap((o) => o.conflict?.managers ?? []))];
  return {
    type: 'conflict',
    ref: first.ref,
    managers,
    causes: [],
    message: objects.length === 1 ? (first.conflict?.message ?? 'conflict') : `${objects.length} objects have fields owned by other managers: ${objects.map((o) => formatRef(o.ref)).join(', ')}`,
  };
}

/** Applies the object only while it is as last read (`live`: absent → create only). */
async function applyOne(session: ClusterSession, object: PlannedObject, live: KubernetesObject | undefined, force: boolean): Promise<ClusterOutcome<KubernetesObject>> {
  try {
    const applied = await session.objects.patch(withExpectedVersion(object.manifest, expectedVersion(live)), undefined, undefined, session.fieldManager, force, PatchStrategy.ServerSideApply);
    return ok(applied);
  } catch (err) {
    const failure = outcomeFromError(err, object.ref);
    return isStaleWrite(failure) ? changedSincePlan([`${objectName(object.ref)} changed in the moment before it was applied`], true) : failure;
  }
}

/** What an apply did, from the server's answer: the resourceVersion moves only when the object changed (`live`: as read right before). */
function appliedAction(object: PlannedObject, live: KubernetesObject | undefined, answer: KubernetesObject): ApplyAction {
  if (object.action === 'create' || !live) return 'create';
  return answer.metadata?.resourceVersion !== undefined && answer.metadata.resourceVersion === live.metadata?.resourceVersion ? 'unchanged' : 'update';
}

async function waitCurrent(session: ClusterSession, ref: ObjectRef, deadline: number, totalMs: number, signal: AbortSignal | undefined): Promise<ClusterOutcome<void>> {
  let last = '';
  const seen = await waitForObject(
    session,
    ref,
    (o) => {
      const r = readinessOf(o);
      if (r.state === 'inProgress') last = r.message;
      return r.state === 'current' || r.state === 'failed';
    },
    { signal, timeoutMs: Math.max(1, deadline - Date.now()), what: 'ready' },
  );
  if (isFailure(seen)) {
    if (seen.type !== 'timeout') return seen;
    return { ...seen, message: `${formatRef(ref)} was not ready within the apply's timeout of ${formatDuration(totalMs)}${last ? `; last status: ${last}` : ''}` };
  }
  const r = readinessOf(seen.value);
  if (r.state === 'failed') return { type: 'failed', ref, message: `${formatRef(ref)} failed: ${r.reason}${r.message ? `: ${r.message}` : ''}` };
  return ok(undefined);
}

/** What an apply locks: the environment's inventory. */
export function applyLockSubject(env: Pick<ApplyPlan['environment'], 'inventory' | 'data'>): LockSubject {
  return { namespace: env.inventory.namespace, inventory: env.inventory.name, what: `environment ${env.data.environment.name}` };
}

/** Reads again everything the plan was made from; the reasons it changed, and the fresh reads of the objects. */
async function readPlanAgain(session: ClusterSession, plan: ApplyPlan, concurrency: number): Promise<ClusterOutcome<{ drift: string[]; fresh: LiveObjects }>> {
  const stored = await readInventory(session, plan.environment.inventory);
  if (isFailure(stored)) return stored;
  const drift: string[] = [];
  const inventory = inventoryDrift(plan.environment.inventory, plan.inventoryVersion, stored.value);
  if (inventory) drift.push(inventory);
  const objects = await readAgain(session, plan.objects, { concurrency });
  if (isFailure(objects)) return objects;
  const prunes = await readAgain(session, plan.prunes, { concurrency, goneIsFine: true });
  if (isFailure(prunes)) return prunes;
  drift.push(...objects.value.drift, ...prunes.value.drift);
  // What deleting a pruned namespace takes along, and what an adopted namespace brings, was confirmed too.
  const ours = pruneOurs(plan);
  const namespaces = [...plan.prunes.filter((d) => d.ref.group === '' && d.ref.kind === 'Namespace').map((d) => ({ name: d.ref.name, planned: plan.pruneCascades })), ...plan.adoptions.map((a) => ({ name: a.namespace, planned: plan.adoptions }))];
  for (const { name, planned } of namespaces) {
    const now = await namespaceContents(session, name, ours);
    if (isFailure(now)) return now;
    const more = contentsDrift(planned.find((c) => c.namespace === name), now.value);
    if (more) drift.push(more);
  }
  return ok({ drift, fresh: objects.value.fresh });
}

/** refKeys of what the apply keeps, creates or prunes: not "other objects" of a namespace it prunes or adopts. */
function pruneOurs(plan: ApplyPlan): Set<string> {
  return new Set([...plan.objects.map((o) => refKey(o.ref)), ...plan.prunes.map((d) => refKey(d.ref))]);
}

/**
 * Executes the plan under the environment's lock. Refuses (changing nothing) when the plan is
 * blocked, has conflicts and force is not set, or the cluster changed since the plan.
 */
export async function executeApply(session: ClusterSession, plan: ApplyPlan, options: ExecuteApplyOptions = {}): Promise<ClusterOutcome<ApplyResult>> {
  const before = session.requests.snapshot();
  const totalMs = options.timeoutMs ?? DEFAULT_APPLY_TIMEOUT_MS;
  const deadline = Date.now() + totalMs;
  const { progress } = options;
  const force = options.force ?? false;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const env = plan.environment;
  const refused = refusal(plan);
  if (refused) return refused;
  const conflicts = conflictsOf(plan);
  if (conflicts.length > 0 && !force) return conflictFailure(conflicts);
  // Checked before anything is applied, so that a refusal changes nothing.
  const cascade = options.deleteOthers ? undefined : cascadeRefusal(plan.pruneCascades, 'applied');
  if (cascade) return cascade;
  // A plan that changes nothing is carried out by doing nothing: no lock, no request.
  if (isNoop(plan)) {
    return ok({ applied: plan.objects.map((o) => ({ ref: o.ref, action: o.action })), pruned: [], changed: false, inventory: { name: env.inventory.name, namespace: env.inventory.namespace, objects: uniqueRefs(plan.objects.map((o) => o.ref)) }, requests: session.requests.since(before) });
  }

  let changed = false;
  // The lock lives beside the inventory, so its namespace comes first (creating it twice is harmless).
  if (plan.createsInventoryNamespace) {
    changed = true;
    reportStep(progress, { kind: 'createInventoryNamespace', namespace: env.inventory.namespace });
    try {
      await session.objects.patch({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: env.inventory.namespace } }, undefined, undefined, session.fieldManager, false, PatchStrategy.ServerSideApply);
    } catch (err) {
      return outcomeFromError(err, { group: '', version: 'v1', kind: 'Namespace', namespace: '', name: env.inventory.namespace });
    }
  }
  return withOperationLock(session, applyLockSubject(env), 'apply', options, async (signal) => {
    const cancelled = (): ClusterFailure | undefined => (signal?.aborted ? { type: 'cancelled', message: 'cancelled' } : undefined);
    const again = await readPlanAgain(session, plan, concurrency);
    if (isFailure(again)) return again;
    if (again.value.drift.length > 0) return changedSincePlan(again.value.drift, changed);
    let fresh: LiveObjects | undefined = again.value.fresh;

    const desired = plan.objects.map((o) => o.ref);
    const extra = { labels: env.inventoryLabels, annotations: env.inventoryAnnotations };
    // What the stored inventory lists; unknown (so the first record writes) when its labels or annotations must change.
    let recorded: readonly InventoryRef[] | undefined = plan.inventoryMetadataChanged ? undefined : plan.previousInventory;
    // The inventory is written only while it is the version last read or written here.
    let inventoryVersion = plan.inventoryVersion?.resourceVersion ?? CREATE_ONLY;
    const record = async (objects: readonly InventoryRef[]): Promise<ClusterFailure | undefined> => {
      if (recorded && sameRefs(recorded, objects)) return undefined;
      const written = await writeInventory(session, { ...env.inventory, objects }, extra, inventoryVersion);
      if (isFailure(written)) return isStaleWrite(written) ? changedSincePlan([`the inventory ${env.inventory.namespace}/${env.inventory.name} was written by another run`], changed) : written;
      changed = true;
      recorded = uniqueRefs(objects);
      inventoryVersion = written.value.metadata?.resourceVersion ?? inventoryVersion;
      return undefined;
    };

    // 1. Track everything that may exist once this runs, before creating anything.
    const tracked = await record(uniqueRefs([...(plan.previousInventory ?? []), ...desired]));
    if (tracked) return tracked;

    // 2. Apply tier by tier; wait until each tier is current before the next one.
    const applied: { ref: ObjectRef; action: ApplyAction }[] = [];
    let done = 0;
    for (const tier of TIERS) {
      const objects = plan.objects.filter((o) => o.tier === tier);
      if (objects.length === 0) continue;
      if (!fresh) {
        // Time passed while the tier before became ready: read this one again.
        const tierAgain = await readAgain(session, objects, { concurrency });
        if (isFailure(tierAgain)) return tierAgain;
        if (tierAgain.value.drift.length > 0) return changedSincePlan(tierAgain.value.drift, true);
        fresh = tierAgain.value.fresh;
      }
      const reads = fresh;
      const results = await mapBounded(objects, concurrency, async (object): Promise<ClusterOutcome<{ live: KubernetesObject | undefined; action: ApplyAction }>> => {
        const stop = cancelled();
        if (stop) return stop;
        if (object.action === 'unchanged') return ok({ live: object.live, action: 'unchanged' });
        const live = freshCopy(reads, object.ref);
        const result = await applyOne(session, object, live, force);
        if (isFailure(result)) return result;
        // Only what happened is reported: a failed create is not "created", an apply that changed nothing is not "updated".
        const action = appliedAction(object, live, result.value);
        reportStep(progress, { kind: 'applied', ref: object.ref, action: action === 'create' ? 'created' : action === 'update' ? 'updated' : 'unchanged', done: ++done, total: plan.objects.length }, Math.round((done * 100) / Math.max(1, plan.objects.length)));
        return ok({ live: result.value, action });
      });
      const failed = results.find(isFailure);
      if (failed) return failed;
      results.forEach((r, i) => {
        const action = r.type === 'ok' ? r.value.action : objects[i].action;
        if (action !== 'unchanged') changed = true;
        applied.push({ ref: objects[i].ref, action });
      });
      const waits = await mapBounded(objects, concurrency, async (object, i) => {
        const current = results[i];
        // An object the plan or the apply response already shows current needs no watch.
        if (current.type === 'ok' && readinessOf(current.value.live).state === 'current') return ok(undefined);
        reportStep(progress, { kind: 'waitReady', ref: object.ref });
        return waitCurrent(session, object.ref, deadline, totalMs, signal);
      });
      const notReady = waits.find(isFailure);
      if (notReady) return notReady;
      fresh = undefined;
    }

    // 3. Prune what the template no longer renders, through the pruner (the reverse of the apply order).
    const prunePlan = { deletions: plan.prunes, skipped: plan.skipped, blocked: [], cascades: plan.pruneCascades, ours: pruneOurs(plan) };
    const pruning = await executePrune(session, prunePlan, 'pruned', { signal, progress, deadline, concurrency, wait: true, deleteOthers: true, changedBefore: true });
    if (pruning.failure) return pruning.failure;
    const pruned = [...pruning.result.deleted, ...pruning.result.alreadyGone];
    if (pruned.length > 0) changed = true;

    // 4. The final set.
    const final = await record(desired);
    if (final) return final;
    return ok({ applied, pruned, changed, inventory: { name: env.inventory.name, namespace: env.inventory.namespace, objects: uniqueRefs(desired) }, requests: session.requests.since(before) });
  });
}
