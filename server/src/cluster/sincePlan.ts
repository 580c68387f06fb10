/**
 * No gap between plan and act: what a person confirmed is what is done. Before an execution writes
 * or deletes anything it reads again every object, inventory and namespace listing its plan was
 * made from, and stops — changing nothing — when any of them differs; the writes and deletes then
 * carry the fresh uid and resourceVersion as preconditions, so a change in the last milliseconds is
 * refused by the API server itself. A controller updating an object's status is no difference: a
 * person confirms objects, their specs and their labels, not their status.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { confirmedContent } from './objects/normalize';
import type { ParsedInventory } from './inventory/configMap';
import { readLiveObjects, type LiveObjects } from './kube/liveObjects';
import { refKey, type ObjectRef } from './kube/objectRef';
import { isFailure, ok, type ClusterFailure, type ClusterOutcome } from './kube/outcome';
import type { ClusterSession } from './kube/session';
import type { NamespaceContents } from './prune/namespaceContents';
import { objectName } from './progressSteps';

/** The version of an inventory ConfigMap a plan was made from; undefined in a plan means "absent". */
export interface InventoryVersion {
  readonly uid?: string;
  readonly resourceVersion?: string;
}

/** An object as the plan saw it: its live copy, or undefined when it did not exist. */
export interface PlannedState {
  readonly ref: ObjectRef;
  readonly live?: KubernetesObject;
}

/** Why the object is no longer as the plan saw it (undefined when it is); `goneIsFine` for an object to delete. */
export function objectDrift(ref: ObjectRef, planned: KubernetesObject | undefined, now: KubernetesObject | undefined, goneIsFine = false): string | undefined {
  if (!planned) return now ? `${objectName(ref)} was created by someone else` : undefined;
  if (!now) return goneIsFine ? undefined : `${objectName(ref)} was deleted`;
  if (now.metadata?.uid !== planned.metadata?.uid) return `${objectName(ref)} was deleted and made again`;
  if (confirmedContent(now) !== confirmedContent(planned)) return `${objectName(ref)} was changed`;
  return undefined;
}

/** Why the inventory is no longer the one the plan read (undefined when it is). */
export function inventoryDrift(where: { readonly namespace: string; readonly name: string }, planned: InventoryVersion | undefined, now: ParsedInventory | undefined): string | undefined {
  const inventory = `the inventory ${where.namespace}/${where.name}`;
  if (!planned) return now ? `${inventory} was created by another run` : undefined;
  if (!now) return `${inventory} was deleted by another run`;
  if (now.uid !== planned.uid || now.resourceVersion !== planned.resourceVersion) return `${inventory} was written by another run`;
  return undefined;
}

/**
 * Why deleting the namespace would now take more than was confirmed (undefined when it would not):
 * objects or unlistable kinds that were not in the plan's listing.
 */
export function contentsDrift(planned: NamespaceContents | undefined, now: NamespaceContents): string | undefined {
  const known = new Set((planned?.objects ?? []).map(refKey));
  const added = now.objects.filter((o) => !known.has(refKey(o)));
  const unknownKinds = now.unlisted.filter((u) => !(planned?.unlisted ?? []).includes(u));
  if (added.length === 0 && unknownKinds.length === 0) return undefined;
  const what = [...added.slice(0, 10).map(objectName), ...(added.length > 10 ? [`${added.length - 10} more`] : []), ...unknownKinds.map((u) => `what it holds of ${u} (cannot list)`)];
  return `Namespace ${now.namespace} now also holds ${what.join(', ')}, which deleting it would take along`;
}

/** The refusal: `partly` when something was done already (it is recorded in the inventory, so a re-run converges). */
export function changedSincePlan(reasons: readonly string[], partly = false): ClusterFailure {
  return {
    type: 'refused',
    message: `The cluster changed since the plan: plan again. ${partly ? 'What was done before is recorded in the inventory.' : 'Nothing was changed.'}\n${reasons.map((r) => `- ${r}`).join('\n')}`,
  };
}

/**
 * Reads the objects again; ok with the fresh reads and every difference from the plan, or why they
 * could not be read. `goneIsFine`: the objects are to be deleted, so one that is gone is no difference.
 */
export async function readAgain(
  session: ClusterSession,
  planned: readonly PlannedState[],
  options: { readonly concurrency?: number; readonly goneIsFine?: boolean } = {},
): Promise<ClusterOutcome<{ fresh: LiveObjects; drift: string[] }>> {
  const fresh = await readLiveObjects(session, planned.map((p) => p.ref), options.concurrency);
  const drift: string[] = [];
  for (const p of planned) {
    const now = fresh.get(refKey(p.ref));
    if (!now) continue;
    if (isFailure(now)) return now;
    const reason = objectDrift(p.ref, p.live, now.value, options.goneIsFine);
    if (reason) drift.push(reason);
  }
  return ok({ fresh, drift });
}

/** The live copy a read found (undefined when absent or not read). */
export function freshCopy(fresh: LiveObjects, ref: ObjectRef): KubernetesObject | undefined {
  const read = fresh.get(refKey(ref));
  return read && !isFailure(read) ? read.value : undefined;
}
