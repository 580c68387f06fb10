/**
 * Deleting an environment's resources (`delete_resources: on_stop`, docs/gitlab-behaviour.md#environment-template-file, docs/gitlab-behaviour.md#managed-resources-flow): exactly the
 * objects its inventory lists, each checked by the guards against its live copy, each deletion
 * dry-run first when a person reviews the plan. `never` refuses with GitLab's reason.
 */
import { DELETE_RESOURCES_ANNOTATION, ENVIRONMENT_INVENTORY_PREFIX, isEnvironmentInventoryName } from '../apply/gitlabMetadata';
import { workspaceOfInventory } from '../workspace/names';
import { formatRef } from '../kube/objectRef';
import { isFailure, ok, type ClusterFailure, type ClusterOutcome } from '../kube/outcome';
import type { ClusterSession } from '../kube/session';
import type { InventoryRef } from '../kube/objMetadata';
import { inventoryRef, readInventory } from '../inventory/store';
import { planPrune, type NamespaceContents, type PlannedDeletion, type SkippedEntry } from '../prune/index';
import type { OperationOptions } from '../progress';
import type { InventoryVersion } from '../sincePlan';
import { reportStep } from '../progressSteps';

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

/** Options of {@link planDestroy}. */
export interface DestroyPlanOptions extends OperationOptions {
  readonly concurrency?: number;
  /**
   * Prove each deletion with a server-side dry-run delete, for a person to review (default true).
   * False when nobody will see the plan (`agentcfg destroy --yes`): every guard still runs and a
   * namespace's other objects are still listed, but a 403 then comes from the delete itself.
   */
  readonly preview?: boolean;
}

/** What a destroy will do. */
export interface DestroyPlan {
  readonly context: string;
  readonly server: string;
  readonly inventory: { readonly name: string; readonly namespace: string };
  /** False when there is no inventory: nothing to do (never applied, or already destroyed). */
  readonly inventoryExists: boolean;
  /** Every object the inventory lists. */
  readonly tracked: readonly InventoryRef[];
  readonly deletions: readonly PlannedDeletion[];
  /** Inventory entries not deleted: gone already, or refused by a guard (with the reason). */
  readonly skipped: readonly SkippedEntry[];
  /** Problems that stop the destroy before anything is deleted (403 on a dry-run delete, a tampered inventory…). */
  readonly blocked: readonly ClusterFailure[];
  /** For each namespace to delete: the other objects it holds, which go with it (deleted only when confirmed). */
  readonly cascades: readonly NamespaceContents[];
  /** refKeys of what the destroy deletes: not "other objects" of a namespace it deletes. */
  readonly ours: ReadonlySet<string>;
  /** The inventory ConfigMap as read: the execution deletes it only while it is still this one. */
  readonly inventoryVersion?: InventoryVersion;
}

/** GitLab keeps the objects of an environment whose template says `delete_resources: never`. */
export function deletionRefusal(deleteResources: string | undefined): string | undefined {
  if (deleteResources === undefined || deleteResources === 'on_stop') return undefined;
  if (deleteResources === 'never') {
    return 'the template says `delete_resources: never`: GitLab never deletes the resources of this environment. Change it to `on_stop` to allow deleting them.';
  }
  return `the template's \`delete_resources: ${deleteResources}\` is not a value GitLab knows (on_stop, never); nothing is deleted.`;
}

/** Environment commands touch only environment inventories (a workspace's is terminated, never destroyed as an environment). */
function notEnvironmentInventory(name: string): string | undefined {
  if (isEnvironmentInventoryName(name)) return undefined;
  const workspace = workspaceOfInventory(name);
  if (workspace !== undefined) return `${name} is workspace ${workspace}'s inventory, not an environment's; nothing is deleted. Terminate the workspace instead.`;
  return `${name} is not an environment's inventory (those are named ${ENVIRONMENT_INVENTORY_PREFIX}<environment slug>-<project id>-<agent id>); nothing is deleted.`;
}

/** Reads the inventory and every object it lists; changes nothing. */
export async function planDestroy(session: ClusterSession, input: DestroyInput, options: DestroyPlanOptions = {}): Promise<ClusterOutcome<DestroyPlan>> {
  const refusal = deletionRefusal(input.deleteResources) ?? notEnvironmentInventory(input.inventory.name);
  if (refusal) return { type: 'refused', ref: inventoryRef(input.inventory), message: refusal };
  reportStep(options.progress, { kind: 'readInventory', inventory: input.inventory });
  const stored = await readInventory(session, input.inventory);
  if (isFailure(stored)) return stored;
  const base = { context: session.context, server: session.server };
  if (!stored.value) {
    return ok({ ...base, inventory: input.inventory, inventoryExists: false, tracked: [], deletions: [], skipped: [], blocked: [], cascades: [], ours: new Set() });
  }
  const inventory = stored.value;
  const recordedRefusal = deletionRefusal(inventory.annotations[DELETE_RESOURCES_ANNOTATION]);
  if (recordedRefusal) return { type: 'refused', ref: inventoryRef(inventory), message: `${recordedRefusal} The value was recorded when the environment was last applied: apply it again after changing it.` };
  const blocked: ClusterFailure[] = inventory.invalidKeys.map((k) => ({
    type: 'refused',
    ref: inventoryRef(inventory),
    message: `inventory entry "${k.key}" cannot be read (${k.message}); fix or remove it before deleting, so no tracked object is forgotten`,
  }));
  const pruned = await planPrune(
    session,
    inventory.objects,
    { inventory: input.inventory, agentNamespace: input.inventory.namespace, templateKindsOnly: true, dryRunFirst: options.preview ?? true, verb: 'deleted' },
    options,
  );
  if (isFailure(pruned)) return pruned;
  const { deletions, skipped, cascades, ours } = pruned.value;
  return ok({
    ...base,
    inventory: { name: inventory.name, namespace: inventory.namespace },
    inventoryExists: true,
    tracked: inventory.objects,
    deletions,
    skipped,
    blocked: [...blocked, ...pruned.value.blocked],
    cascades,
    ours,
    inventoryVersion: { uid: inventory.uid, resourceVersion: inventory.resourceVersion },
  });
}

/** The plan as text lines (for the CLI and logs), ending with the verdict; `deleteOthers`: the person confirmed the cascades. */
export function describeDestroyPlan(plan: DestroyPlan, options: { deleteOthers?: boolean } = {}): string[] {
  if (!plan.inventoryExists) return [`No inventory ${plan.inventory.namespace}/${plan.inventory.name}: nothing to delete.`];
  const lines = [
    ...plan.deletions.map((d) => `delete  ${formatRef(d.ref)}`),
    ...plan.skipped.map((s) => `skip    ${formatRef({ ...s.ref, version: '*' })}: ${s.reason}`),
    ...plan.blocked.map((b) => `blocked ${b.ref ? `${formatRef(b.ref)}: ` : ''}${b.message}`),
    ...plan.cascades.flatMap((c) => [
      ...c.objects.map((o) => `also    ${formatRef(o)} (not created by this environment: goes with namespace '${c.namespace}'; ${options.deleteOthers ? 'confirmed' : 'needs --delete-others'})`),
      ...c.unlisted.map((u) => `unknown ${u} in namespace '${c.namespace}': cannot list what goes with the namespace`),
    ]),
  ];
  if (plan.blocked.length > 0) {
    const count = plan.blocked.length;
    return [...lines, `Nothing will be deleted: ${count} problem${count === 1 ? ' blocks' : 's block'} the deletion (see blocked).`];
  }
  return [...lines, `delete  inventory ConfigMap ${plan.inventory.namespace}/${plan.inventory.name}`];
}
