/**
 * Deleting an environment's resources (`delete_resources: on_stop`, spec §2.3/§2.8): exactly the
 * objects its inventory lists, each checked by the guards against its live copy, each deletion
 * dry-run first. `never` refuses with GitLab's reason.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { tierOf, type Tier } from '../apply/supportedKinds';
import { DELETE_RESOURCES_ANNOTATION } from '../apply/gitlabMetadata';
import type { SkippedEntry } from '../apply/plan';
import { comparableYaml } from '../apply/normalize';
import { withPreferredVersion } from '../kube/discovery';
import { DEFAULT_CONCURRENCY, mapBounded } from '../kube/concurrency';
import { formatRef, type ObjectRef } from '../kube/objectRef';
import { isFailure, ok, outcomeFromError, type ClusterFailure, type ClusterOutcome } from '../kube/outcome';
import type { ClusterSession } from '../kube/session';
import { liveRead, readLiveObjects, type LiveRead } from '../kube/liveObjects';
import { mayDelete } from '../guards';
import type { InventoryRef } from '../inventory/objMetadata';
import { inventoryRef, readInventory } from '../inventory/store';
import type { OperationOptions } from '../progress';

/** Which environment to delete. */
export interface DestroyInput {
  /** The environment's inventory ConfigMap (its namespace is the agent's namespace). */
  readonly inventory: { readonly name: string; readonly namespace: string };
  /**
   * `delete_resources` of the template, as GitLab stores it; `never` refuses. The value recorded on
   * the inventory when the environment was applied refuses too (the editor's tree knows no template).
   */
  readonly deleteResources?: string;
}

/** One object to delete. */
export interface PlannedDeletion {
  readonly ref: ObjectRef;
  readonly tier: Tier;
  readonly live: KubernetesObject;
  readonly liveYaml: string;
}

/** What a destroy will do. */
export interface DestroyPlan {
  readonly context: string;
  readonly server: string;
  readonly inventory: { readonly name: string; readonly namespace: string; readonly id: string };
  /** False when there is no inventory: nothing to do (never applied, or already destroyed). */
  readonly inventoryExists: boolean;
  /** Every object the inventory lists. */
  readonly tracked: readonly InventoryRef[];
  readonly deletions: readonly PlannedDeletion[];
  /** Inventory entries not deleted: gone already, or refused by a guard (with the reason). */
  readonly skipped: readonly SkippedEntry[];
  /** Problems that stop the destroy before anything is deleted (403 on a dry-run delete, unparsable inventory…). */
  readonly blocked: readonly ClusterFailure[];
}

/** GitLab keeps the objects of an environment whose template says `delete_resources: never`. */
export function deletionRefusal(deleteResources: string | undefined): string | undefined {
  if (deleteResources === undefined || deleteResources === 'on_stop') return undefined;
  if (deleteResources === 'never') {
    return 'the template says `delete_resources: never`: GitLab never deletes the resources of this environment (spec §2.3). Change it to `on_stop` to allow deleting them.';
  }
  return `the template's \`delete_resources: ${deleteResources}\` is not a value GitLab knows (on_stop, never); nothing is deleted.`;
}

async function planOne(session: ClusterSession, entry: InventoryRef, ref: ObjectRef, live: LiveRead, inventoryId: string, agentNamespace: string): Promise<PlannedDeletion | SkippedEntry | ClusterFailure> {
  if (isFailure(live)) return live;
  const guard = mayDelete(entry, live.value, inventoryId, agentNamespace);
  if (!guard.allowed) return { ref: entry, reason: `not deleted: ${guard.reason}` };
  if (!live.value) return { ref: entry, reason: 'already gone' };
  try {
    // A dry-run delete proves the permission before anything is deleted.
    await session.objects.delete(structuredClone(live.value), undefined, 'All');
  } catch (err) {
    const failure = outcomeFromError(err, ref);
    return failure.type === 'notFound' ? { ref: entry, reason: 'already gone' } : failure;
  }
  return { ref, tier: tierOf(ref.group, ref.kind), live: live.value, liveYaml: comparableYaml(live.value) };
}

/** Reads the inventory and every object it lists; changes nothing. */
export async function planDestroy(session: ClusterSession, input: DestroyInput, options: OperationOptions & { concurrency?: number } = {}): Promise<ClusterOutcome<DestroyPlan>> {
  const refusal = deletionRefusal(input.deleteResources);
  if (refusal) return { type: 'refused', ref: inventoryRef(input.inventory), message: refusal };
  options.progress?.report(`reading inventory ${input.inventory.namespace}/${input.inventory.name}`);
  const stored = await readInventory(session, input.inventory);
  if (isFailure(stored)) return stored;
  const base = { context: session.context, server: session.server };
  if (!stored.value) {
    return ok({ ...base, inventory: { ...input.inventory, id: input.inventory.name }, inventoryExists: false, tracked: [], deletions: [], skipped: [], blocked: [] });
  }
  const inventory = stored.value;
  const recordedRefusal = deletionRefusal(inventory.annotations[DELETE_RESOURCES_ANNOTATION]);
  if (recordedRefusal) return { type: 'refused', ref: inventoryRef(inventory), message: `${recordedRefusal} The value was recorded when the environment was last applied: apply it again after changing it.` };
  const blocked: ClusterFailure[] = inventory.invalidKeys.map((k) => ({
    type: 'refused',
    ref: inventoryRef(inventory),
    message: `inventory entry "${k.key}" cannot be read (${k.message}); fix or remove it before deleting, so no tracked object is forgotten`,
  }));
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const deletions: PlannedDeletion[] = [];
  const skipped: SkippedEntry[] = [];
  const resolved: { entry: InventoryRef; ref: ObjectRef }[] = [];
  for (const entry of inventory.objects) {
    const full = await withPreferredVersion(session, entry);
    if (isFailure(full)) return full;
    if (full.value) resolved.push({ entry, ref: full.value });
    else skipped.push({ ref: entry, reason: `already gone (the cluster no longer serves group ${entry.group})` });
  }
  const batch = await readLiveObjects(session, resolved.map((r) => r.ref), concurrency);
  const results = await mapBounded(resolved, concurrency, async ({ entry, ref }) => {
    if (options.signal?.aborted) return { type: 'cancelled', message: 'cancelled' } as ClusterFailure;
    return planOne(session, entry, ref, await liveRead(session, batch, ref), inventory.id, input.inventory.namespace);
  });
  for (const r of results) {
    if ('type' in r) {
      if (r.type === 'unreachable' || r.type === 'unauthorized' || r.type === 'cancelled') return r;
      blocked.push(r);
    } else if ('live' in r) deletions.push(r);
    else skipped.push(r);
  }
  return ok({ ...base, inventory: { name: inventory.name, namespace: inventory.namespace, id: inventory.id }, inventoryExists: true, tracked: inventory.objects, deletions, skipped, blocked });
}

/** The plan as text lines (for the CLI and logs). */
export function describeDestroyPlan(plan: DestroyPlan): string[] {
  if (!plan.inventoryExists) return [`No inventory ${plan.inventory.namespace}/${plan.inventory.name}: nothing to delete.`];
  return [
    ...plan.deletions.map((d) => `delete  ${formatRef(d.ref)}`),
    ...plan.skipped.map((s) => `skip    ${formatRef({ ...s.ref, version: '*' })}: ${s.reason}`),
    ...plan.blocked.map((b) => `blocked ${b.ref ? `${formatRef(b.ref)}: ` : ''}${b.message}`),
    `delete  inventory ConfigMap ${plan.inventory.namespace}/${plan.inventory.name}`,
  ];
}
