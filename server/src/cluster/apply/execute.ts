/**
 * Carries out a reviewed {@link ApplyPlan}: server-side apply with our fixed field manager, tier by
 * tier (Namespace → ServiceAccount/RBAC → the rest → Flux), each tier's objects concurrently (bounded)
 * and then waited for until current (kstatus, by watch); prune what the template no longer renders;
 * keep the inventory so that a crash at any point leaves nothing untracked:
 * - before applying: inventory = previous ∪ desired;
 * - after pruning: inventory = desired.
 * What each apply did is read from the server's answer: an object whose resourceVersion did not move
 * was unchanged (a plan without preview does not know it before applying).
 */
import { PatchStrategy, type KubernetesObject } from '@kubernetes/client-node';
import { DEFAULT_CONCURRENCY, mapBounded } from '../kube/concurrency';
import { formatRef, type ObjectRef } from '../kube/objectRef';
import { isFailure, ok, outcomeFromError, type ClusterFailure, type ClusterOutcome } from '../kube/outcome';
import type { RequestCounts } from '../kube/requests';
import type { ClusterSession } from '../kube/session';
import { formatDuration, waitForObject } from '../kube/watch';
import { uniqueRefs } from '../inventory/configMap';
import type { InventoryRef } from '../inventory/objMetadata';
import { writeInventory } from '../inventory/store';
import type { OperationOptions } from '../progress';
import { reportStep } from '../progressSteps';
import { cascadeRefusal, executePrune } from '../prune/index';
import { readinessOf } from '../readiness';
import { conflictsOf, sameRefs, type ApplyAction, type ApplyPlan, type PlannedObject } from './plan';
import { TIERS } from './supportedKinds';

/** Options of {@link executeApply}. */
export interface ExecuteApplyOptions extends OperationOptions {
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

async function applyOne(session: ClusterSession, object: PlannedObject, force: boolean): Promise<ClusterOutcome<KubernetesObject>> {
  try {
    const applied = await session.objects.patch(structuredClone(object.manifest), undefined, undefined, session.fieldManager, force, PatchStrategy.ServerSideApply);
    return ok(applied);
  } catch (err) {
    return outcomeFromError(err, object.ref);
  }
}

/** What an apply did, from the server's answer: the resourceVersion moves only when the object changed. */
function appliedAction(object: PlannedObject, answer: KubernetesObject): ApplyAction {
  if (object.action === 'create' || !object.live) return 'create';
  return answer.metadata?.resourceVersion !== undefined && answer.metadata.resourceVersion === object.live.metadata?.resourceVersion ? 'unchanged' : 'update';
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

/** Executes the plan. Refuses (changing nothing) when the plan is blocked, or has conflicts and force is not set. */
export async function executeApply(session: ClusterSession, plan: ApplyPlan, options: ExecuteApplyOptions = {}): Promise<ClusterOutcome<ApplyResult>> {
  const before = session.requests.snapshot();
  const totalMs = options.timeoutMs ?? DEFAULT_APPLY_TIMEOUT_MS;
  const deadline = Date.now() + totalMs;
  const { signal, progress } = options;
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
  const cancelled = (): ClusterFailure | undefined => (signal?.aborted ? { type: 'cancelled', message: 'cancelled' } : undefined);

  let changed = false;
  if (plan.createsInventoryNamespace) {
    changed = true;
    reportStep(progress, { kind: 'createInventoryNamespace', namespace: env.inventory.namespace });
    try {
      await session.objects.patch({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: env.inventory.namespace } }, undefined, undefined, session.fieldManager, false, PatchStrategy.ServerSideApply);
    } catch (err) {
      return outcomeFromError(err, { group: '', version: 'v1', kind: 'Namespace', namespace: '', name: env.inventory.namespace });
    }
  }
  const desired = plan.objects.map((o) => o.ref);
  const extra = { labels: env.inventoryLabels, annotations: env.inventoryAnnotations };
  // What the stored inventory lists; unknown (so the first record writes) when its labels or annotations must change.
  let recorded: readonly InventoryRef[] | undefined = plan.inventoryMetadataChanged ? undefined : plan.previousInventory;
  const record = async (objects: readonly InventoryRef[]): Promise<ClusterFailure | undefined> => {
    if (recorded && sameRefs(recorded, objects)) return undefined;
    const written = await writeInventory(session, { ...env.inventory, objects }, extra);
    if (isFailure(written)) return written;
    changed = true;
    recorded = uniqueRefs(objects);
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
    const results = await mapBounded(objects, concurrency, async (object): Promise<ClusterOutcome<{ live: KubernetesObject | undefined; action: ApplyAction }>> => {
      const stop = cancelled();
      if (stop) return stop;
      if (object.action === 'unchanged') return ok({ live: object.live, action: 'unchanged' });
      const result = await applyOne(session, object, force);
      if (isFailure(result)) return result;
      // Only what happened is reported: a failed create is not "created", an apply that changed nothing is not "updated".
      const action = appliedAction(object, result.value);
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
  }

  // 3. Prune what the template no longer renders, through the pruner (the reverse of the apply order).
  const pruning = await executePrune(session, { deletions: plan.prunes, skipped: [], blocked: [], cascades: plan.pruneCascades }, 'pruned', { signal, progress, deadline, concurrency, wait: true, deleteOthers: true });
  if (pruning.failure) return pruning.failure;
  const pruned = [...pruning.result.deleted, ...pruning.result.alreadyGone];
  if (pruned.length > 0) changed = true;

  // 4. The final set.
  const final = await record(desired);
  if (final) return final;
  return ok({ applied, pruned, changed, inventory: { name: env.inventory.name, namespace: env.inventory.namespace, objects: uniqueRefs(desired) }, requests: session.requests.since(before) });
}
