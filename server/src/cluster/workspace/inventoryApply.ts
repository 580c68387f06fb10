/**
 * Applies one inventory group of a workspace's `config_to_apply` the way agentk's cli-utils applier
 * does (spec §5.3): record the union of old and new objects in the inventory first (so a crash never
 * loses track of an object), server-side apply every object with ForceConflicts, prune what the
 * inventory tracked but the payload no longer has, then record exactly what remains.
 *
 * Applying an inventory with no objects (Rails' termination payload, spec §5.6) therefore deletes
 * every object it tracked: that is how a workspace's objects are deleted. A pruned object that
 * finalizers still hold stays in the inventory until it is gone, so that "the inventory's data is
 * not empty" keeps meaning "objects are still present" (seed 001's test for Terminating).
 */
import { PatchStrategy, type KubernetesObject } from '@kubernetes/client-node';
import { readInventory, writeInventory, type InventoryRef } from '../inventory/index';
import { INVENTORY_ID_LABEL, OWNING_INVENTORY_ANNOTATION } from '../inventory/configMap';
import { DEFAULT_CONCURRENCY, mapBounded } from '../kube/concurrency';
import { withPreferredVersion } from '../kube/discovery';
import { headerOf, refFromManifest, refKey, type ObjectRef } from '../kube/objectRef';
import { isFailure, ok, outcomeFromError, type ClusterFailure, type ClusterOutcome } from '../kube/outcome';
import type { ClusterSession } from '../kube/session';
import { protectedNamespaceReason } from '../guards';
import type { InventoryGroup, ManifestObject } from './configToApply';

/** cli-utils lifecycle annotations that keep an object when it leaves the inventory (spec §5.3). */
const KEEP_ANNOTATIONS: readonly [string, string][] = [
  ['cli-utils.sigs.k8s.io/on-remove', 'keep'],
  ['client.lifecycle.config.k8s.io/deletion', 'detach'],
];


export interface InventoryApplyResult {
  readonly inventory: ObjectRef;
  readonly applied: readonly ObjectRef[];
  /** Deleted (or already gone). */
  readonly pruned: readonly InventoryRef[];
  /** Deletion requested, object still present (finalizers): kept in the inventory. */
  readonly terminating: readonly InventoryRef[];
  /** Left alone and dropped from the inventory: owned by another inventory, or marked keep/detach. */
  readonly abandoned: readonly { ref: InventoryRef; reason: string }[];
}

export interface InventoryApplyOptions {
  readonly fieldManager: string;
  readonly dryRun?: boolean;
  readonly signal?: AbortSignal;
}

function cancelled(ref?: ObjectRef): ClusterFailure {
  return { type: 'cancelled', ref, message: 'cancelled' };
}

/** The ref of a payload object, validated by the parser already. */
function manifestRef(object: ManifestObject): ObjectRef {
  return refFromManifest(object as KubernetesObject)!;
}

/** Applies one group; the first failure is returned after the inventory has recorded what exists. */
export async function applyInventoryGroup(session: ClusterSession, group: InventoryGroup, options: InventoryApplyOptions): Promise<ClusterOutcome<InventoryApplyResult>> {
  const writer: ClusterSession = { ...session, fieldManager: options.fieldManager };
  const inventoryRef = manifestRef(group.inventory);
  const where = { name: inventoryRef.name, namespace: inventoryRef.namespace };
  const id = group.inventory.metadata.labels?.[INVENTORY_ID_LABEL] ?? inventoryRef.name;
  const { [INVENTORY_ID_LABEL]: _id, ...labels } = group.inventory.metadata.labels ?? {};
  const extra = { labels, annotations: group.inventory.metadata.annotations ?? {} };
  const record = (objects: readonly InventoryRef[]) =>
    options.dryRun ? Promise.resolve(ok(undefined)) : writeInventory(writer, { ...where, id, objects }, extra);

  const live = await readInventory(session, where);
  if (isFailure(live)) return live;
  const previous = live.value?.objects ?? [];
  const desired = group.objects.map(manifestRef);
  const desiredKeys = new Set(desired.map(refKey));

  // 1. The inventory learns about new objects before they exist.
  const before = await record([...previous, ...desired]);
  if (isFailure(before)) return before;

  // 2. Server-side apply, ForceConflicts as agentk.
  if (options.signal?.aborted) return cancelled(inventoryRef);
  const applyOutcomes = await mapBounded(group.objects, DEFAULT_CONCURRENCY, async (object): Promise<ClusterOutcome<ObjectRef>> => {
    const ref = manifestRef(object);
    if (options.signal?.aborted) return cancelled(ref);
    try {
      await session.objects.patch(object as KubernetesObject, undefined, options.dryRun ? 'All' : undefined, options.fieldManager, true, PatchStrategy.ServerSideApply);
      return ok(ref);
    } catch (err) {
      return outcomeFromError(err, ref);
    }
  });
  const applied = applyOutcomes.flatMap((o) => (o.type === 'ok' ? [o.value] : []));
  const applyFailure = applyOutcomes.find(isFailure);

  // 3. Prune what left the payload (only when every apply succeeded, as cli-utils skips pruning after failures).
  const pruneCandidates = applyFailure ? [] : previous.filter((ref) => !desiredKeys.has(refKey(ref)));
  const pruneOutcomes = await mapBounded(pruneCandidates, DEFAULT_CONCURRENCY, (ref) => pruneOne(session, ref, id, options));
  const pruned: InventoryRef[] = [];
  const terminating: InventoryRef[] = [];
  const abandoned: { ref: InventoryRef; reason: string }[] = [];
  const keep: InventoryRef[] = [];
  let pruneFailure: ClusterFailure | undefined;
  pruneOutcomes.forEach((outcome, i) => {
    const ref = pruneCandidates[i];
    if (isFailure(outcome)) {
      pruneFailure ??= outcome;
      keep.push(ref);
    } else if (outcome.value.type === 'gone') pruned.push(ref);
    else if (outcome.value.type === 'terminating') {
      terminating.push(ref);
      keep.push(ref);
    } else abandoned.push({ ref, reason: outcome.value.reason });
  });

  // 4. Record what exists: applied objects, previous ones whose apply failed, and prunes not finished.
  const failedPrevious = applyFailure ? previous.filter((ref) => !applied.some((a) => refKey(a) === refKey(ref))) : [];
  const after = await record([...applied, ...failedPrevious, ...keep]);
  if (applyFailure) return applyFailure;
  if (pruneFailure) return pruneFailure;
  if (isFailure(after)) return after;
  return ok({ inventory: inventoryRef, applied, pruned, terminating, abandoned });
}

type PruneResult = { type: 'gone' } | { type: 'terminating' } | { type: 'abandoned'; reason: string };

/** Deletes one pruned object, unless it is not ours to delete. */
async function pruneOne(session: ClusterSession, entry: InventoryRef, inventoryId: string, options: InventoryApplyOptions): Promise<ClusterOutcome<PruneResult>> {
  // A payload can annotate a system namespace as its own; that never makes it deletable.
  const protectedReason = protectedNamespaceReason(entry);
  if (protectedReason) return ok({ type: 'abandoned', reason: protectedReason });
  const full = await withPreferredVersion(session, entry);
  if (isFailure(full)) return full;
  const ref = full.value;
  if (!ref) return ok({ type: 'gone' }); // the cluster does not even serve its kind any more
  if (options.signal?.aborted) return cancelled(ref);
  const header = headerOf(ref);
  let live: KubernetesObject;
  try {
    live = await session.objects.read(header);
  } catch (err) {
    const failure = outcomeFromError(err, ref);
    return failure.type === 'notFound' ? ok({ type: 'gone' }) : failure;
  }
  const annotations = live.metadata?.annotations ?? {};
  // cli-utils' inventory policy "must match": never delete what another inventory owns.
  const owner = annotations[OWNING_INVENTORY_ANNOTATION];
  if (owner !== inventoryId) return ok({ type: 'abandoned', reason: owner ? `owned by inventory "${owner}"` : 'not owned by this inventory' });
  const keep = KEEP_ANNOTATIONS.find(([key, value]) => annotations[key] === value);
  if (keep) return ok({ type: 'abandoned', reason: `annotated ${keep[0]}: ${keep[1]}` });
  if (live.metadata?.deletionTimestamp) return ok({ type: 'terminating' });
  try {
    await session.objects.delete(header, undefined, options.dryRun ? 'All' : undefined, undefined, undefined, 'Background');
  } catch (err) {
    const failure = outcomeFromError(err, ref);
    return failure.type === 'notFound' ? ok({ type: 'gone' }) : failure;
  }
  if (options.dryRun) return ok({ type: 'gone' });
  // client-node reads the answer as a V1Status and drops the object's deletionTimestamp; whether
  // finalizers still hold the object is only known by looking again.
  try {
    await session.objects.read(header);
    return ok({ type: 'terminating' });
  } catch (err) {
    const failure = outcomeFromError(err, ref);
    return failure.type === 'notFound' ? ok({ type: 'gone' }) : failure;
  }
}
