/**
 * Applies one inventory group of a workspace's `config_to_apply` the way agentk's cli-utils applier
 * does (docs/gitlab-behaviour.md#inventories): record the union of old and new objects in the
 * inventory first (so a crash never loses track of an object), server-side apply every object with
 * ForceConflicts, prune what the inventory tracked but the payload no longer has, then record
 * exactly what remains.
 *
 * Unlike a bare cli-utils applier, it touches only what is the workspace's: the inventory policy is
 * "must match" (an existing object must already be owned by this inventory, never taken from
 * another workspace or from kubectl), and pruning goes through the one pruner limited to the
 * workspace's namespace.
 *
 * Applying an inventory with no objects (Rails' termination payload) therefore deletes every object
 * it tracked: that is how a workspace's objects are deleted. A pruned object that finalizers still
 * hold stays in the inventory until it is gone, so that "the inventory's data is not empty" keeps
 * meaning "objects are still present" (agentk's test for Terminating, docs/gitlab-behaviour.md#workspace-termination).
 */
import { PatchStrategy, type KubernetesObject } from '@kubernetes/client-node';
import { readInventory, writeInventory, type InventoryRef, type ParsedInventory } from '../inventory/index';
import { INVENTORY_ID_LABEL, uniqueRefs } from '../inventory/configMap';
import { sameRefs } from '../apply/plan';
import { mayApply } from '../guards';
import { DEFAULT_CONCURRENCY, mapBounded } from '../kube/concurrency';
import { readLiveObjects, type LiveObjects } from '../kube/liveObjects';
import { CREATE_ONLY, expectedVersion, isStaleWrite, withExpectedVersion } from '../kube/preconditions';
import { objectName } from '../progressSteps';
import { freshCopy } from '../sincePlan';
import { formatRef, refFromManifest, refKey, type ObjectRef } from '../kube/objectRef';
import { isFailure, ok, outcomeFromError, type ClusterFailure, type ClusterOutcome } from '../kube/outcome';
import type { ClusterSession } from '../kube/session';
import { executePrune, planPrune } from '../prune/index';
import type { InventoryGroup, ManifestObject } from './configToApply';

export interface InventoryApplyResult {
  readonly inventory: ObjectRef;
  readonly applied: readonly ObjectRef[];
  /** Deleted by this run. */
  readonly pruned: readonly InventoryRef[];
  /** To prune, but gone before this run deleted them. */
  readonly alreadyGone: readonly InventoryRef[];
  /** Deletion requested, object still present (finalizers): kept in the inventory. */
  readonly terminating: readonly InventoryRef[];
  /** Left alone and dropped from the inventory: owned by another inventory, or marked keep/detach. */
  readonly abandoned: readonly { ref: InventoryRef; reason: string }[];
}

export interface InventoryApplyOptions {
  readonly fieldManager: string;
  readonly dryRun?: boolean;
  readonly signal?: AbortSignal;
  /** The inventory as the caller has just read it (undefined: read it here). */
  readonly stored?: ParsedInventory;
}

function sameEntries(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => b[k] === a[k]);
}

/** Someone else wrote `what` between this run's read and its write: nothing of it is taken over. */
function changedMeanwhile(what: string): ClusterFailure {
  return { type: 'refused', message: `${what} changed while the workspace was being applied; it was not written. Apply again.` };
}

function cancelled(ref?: ObjectRef): ClusterFailure {
  return { type: 'cancelled', ref, message: 'cancelled' };
}

/** The ref of a payload object, validated by the parser already. */
function manifestRef(object: ManifestObject): ObjectRef {
  return refFromManifest(object as KubernetesObject)!;
}

/**
 * Must match: every payload object that exists is this inventory's already (annotated as its own and
 * listed by it); otherwise nothing is applied.
 */
async function takeoverRefusal(session: ClusterSession, refs: readonly ObjectRef[], inventory: string, listed: ReadonlySet<string>): Promise<ClusterOutcome<LiveObjects>> {
  const live = await readLiveObjects(session, refs);
  for (const ref of refs) {
    const read = live.get(refKey(ref));
    if (!read) continue;
    if (isFailure(read)) return read;
    const guard = mayApply(ref, read.value, { inventory, listed: listed.has(refKey(ref)), adopt: false }, {});
    if (!guard.allowed) return { type: 'refused', ref, message: `${formatRef(ref)} is not applied: ${guard.reason}; a workspace never takes over objects it did not create. Nothing of inventory '${inventory}' was applied.` };
  }
  return ok(live);
}

/** Applies one group; the first failure is returned after the inventory has recorded what exists. */
export async function applyInventoryGroup(session: ClusterSession, group: InventoryGroup, options: InventoryApplyOptions): Promise<ClusterOutcome<InventoryApplyResult>> {
  const writer: ClusterSession = { ...session, fieldManager: options.fieldManager };
  const inventoryRef = manifestRef(group.inventory);
  const where = { name: inventoryRef.name, namespace: inventoryRef.namespace };
  // The payload's inventories were checked to carry their own name as id (workspaceGroups).
  const { [INVENTORY_ID_LABEL]: _id, ...labels } = group.inventory.metadata.labels ?? {};
  const extra = { labels, annotations: group.inventory.metadata.annotations ?? {} };

  const live = options.stored ? ok(options.stored) : await readInventory(session, where);
  if (isFailure(live)) return live;
  const previous = live.value?.objects ?? [];
  // What the stored ConfigMap lists, when it is exactly what a write would make of it (same labels
  // and annotations, no unreadable keys): writing that list again would change nothing.
  const stored = live.value;
  let recorded: readonly InventoryRef[] | undefined =
    stored && stored.invalidKeys.length === 0 && sameEntries(stored.labels, extra.labels) && sameEntries(stored.annotations, extra.annotations) ? stored.objects : undefined;
  // Written only while it is the version read or last written here.
  let inventoryVersion = stored?.resourceVersion ?? CREATE_ONLY;
  const record = async (entries: readonly InventoryRef[]): Promise<ClusterOutcome<void>> => {
    const objects = uniqueRefs(entries);
    if (options.dryRun || (recorded && sameRefs(recorded, objects))) return ok(undefined);
    const written = await writeInventory(writer, { ...where, objects }, extra, inventoryVersion);
    if (isFailure(written)) return isStaleWrite(written) ? changedMeanwhile(`the inventory ${where.namespace}/${where.name}`) : written;
    recorded = objects;
    inventoryVersion = written.value.metadata?.resourceVersion ?? inventoryVersion;
    return ok(undefined);
  };
  const desired = group.objects.map(manifestRef);
  const desiredKeys = new Set(desired.map(refKey));
  const takeover = await takeoverRefusal(session, desired, where.name, new Set(previous.map(refKey)));
  if (isFailure(takeover)) return takeover;
  const reads = takeover.value;
  // Checked before anything changes: a tampered inventory (invalid names, objects outside the namespace) stops here.
  const pruneCandidates = previous.filter((ref) => !desiredKeys.has(refKey(ref)));
  const prunePlan = await planPrune(session, pruneCandidates, { inventory: where, onlyNamespace: where.namespace, dryRunFirst: false, verb: 'pruned' }, { signal: options.signal });
  if (isFailure(prunePlan)) return prunePlan;
  if (prunePlan.value.blocked.length > 0) return prunePlan.value.blocked[0];

  // 1. The inventory learns about new objects before they exist.
  const before = await record([...previous, ...desired]);
  if (isFailure(before)) return before;

  // 2. Server-side apply, ForceConflicts as agentk (fields of other managers; the objects are ours).
  if (options.signal?.aborted) return cancelled(inventoryRef);
  const applyOutcomes = await mapBounded(group.objects, DEFAULT_CONCURRENCY, async (object): Promise<ClusterOutcome<ObjectRef>> => {
    const ref = manifestRef(object);
    if (options.signal?.aborted) return cancelled(ref);
    try {
      // Only the object the guard just read (or, absent then, none): nothing made meanwhile is taken over.
      const manifest = withExpectedVersion(object as KubernetesObject, expectedVersion(freshCopy(reads, ref)));
      await session.objects.patch(manifest, undefined, options.dryRun ? 'All' : undefined, options.fieldManager, true, PatchStrategy.ServerSideApply);
      return ok(ref);
    } catch (err) {
      const failure = outcomeFromError(err, ref);
      return isStaleWrite(failure) ? changedMeanwhile(objectName(ref)) : failure;
    }
  });
  const applied = applyOutcomes.flatMap((o) => (o.type === 'ok' ? [o.value] : []));
  const applyFailure = applyOutcomes.find(isFailure);

  // 3. Prune what left the payload (only when every apply succeeded, as cli-utils skips pruning after failures).
  const pruning = applyFailure
    ? { result: { deleted: [], alreadyGone: [], terminating: [] } }
    : await executePrune(session, prunePlan.value, 'pruned', { signal: options.signal, deadline: Date.now(), wait: false, dryRun: options.dryRun });
  const { deleted, alreadyGone, terminating } = pruning.result;
  const gone = new Set([...deleted, ...alreadyGone, ...prunePlan.value.skipped.filter((s) => s.gone).map((s) => s.ref)].map(refKey));
  const abandoned = prunePlan.value.skipped.filter((s) => !s.gone).map((s) => ({ ref: s.ref, reason: s.reason }));
  const abandonedKeys = new Set(abandoned.map((a) => refKey(a.ref)));
  // Not known gone nor let go of: still tracked (terminating, or not reached because of a failure).
  const keep = applyFailure ? pruneCandidates : pruneCandidates.filter((ref) => !gone.has(refKey(ref)) && !abandonedKeys.has(refKey(ref)));

  // 4. Record what exists: applied objects, previous ones whose apply failed, and prunes not finished.
  const failedPrevious = applyFailure ? previous.filter((ref) => desiredKeys.has(refKey(ref)) && !applied.some((a) => refKey(a) === refKey(ref))) : [];
  const after = await record([...applied, ...failedPrevious, ...keep]);
  if (applyFailure) return applyFailure;
  if (pruning.failure) return pruning.failure;
  if (isFailure(after)) return after;
  return ok({ inventory: inventoryRef, applied, pruned: deleted, alreadyGone: [...alreadyGone, ...prunePlan.value.skipped.filter((s) => s.gone).map((s) => s.ref)], terminating, abandoned });
}
