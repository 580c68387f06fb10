/**
 * What this tool refuses to touch, as pure checks; the pruner (prune/) and the apply planners ask
 * them before any request that changes the cluster:
 * - an inventory entry must name an object Kubernetes could have (valid names; no `.`, `..`, `/`),
 *   so that no entry can turn a request path into another object's;
 * - the object the API returned must be the one the entry names (group, kind, namespace, name);
 * - protected namespaces — kube-system, kube-public, kube-node-lease, default, the agent's own, and
 *   any namespace that holds an inventory ConfigMap of any agent — are never deleted, adopted or
 *   owned;
 * - an object is deleted or pruned only when its live copy says this inventory owns it
 *   (`config.k8s.io/owning-inventory`, docs/gitlab-behaviour.md#inventories), and never when it is
 *   marked keep or detach (cli-utils' lifecycle annotations);
 * - an apply does not take over an object owned by another inventory, nor (unless adoption is
 *   asked for) one that no inventory owns — cli-utils' "must match" policy.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { OWNING_INVENTORY_ANNOTATION } from './inventory/configMap';
import { encodeObjMetadata, type InventoryRef } from './kube/objMetadata';
import { dnsLabelProblem, dnsSubdomainProblem, pathSegmentProblem, DNS1123_SUBDOMAIN_MAX_LENGTH } from './kube/names';
import { splitApiVersion } from './kube/objectRef';

/** Namespaces Kubernetes itself needs. */
export const SYSTEM_NAMESPACES: readonly string[] = ['kube-system', 'kube-public', 'kube-node-lease', 'default'];

/** cli-utils lifecycle annotations that keep an object when its inventory lets go of it. */
export const KEEP_ANNOTATIONS: readonly (readonly [string, string])[] = [
  ['cli-utils.sigs.k8s.io/on-remove', 'keep'],
  ['client.lifecycle.config.k8s.io/deletion', 'detach'],
];

/** Which namespaces are protected beyond the system ones. */
export interface NamespaceProtection {
  /** The agent's namespace (home of its inventories); undefined where it is not known (workspaces). */
  readonly agentNamespace?: string;
  /** Namespaces known to hold an inventory ConfigMap other than the operation's own. */
  readonly holdingInventories?: ReadonlySet<string>;
}

/** A guard's verdict. */
export type GuardVerdict = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

const ALLOWED: GuardVerdict = { allowed: true };
const KIND_PATTERN = /^[A-Za-z][A-Za-z0-9]*$/;

/** The inventory that owns a live object, per its annotation; undefined when none. */
export function owningInventory(live: KubernetesObject | undefined): string | undefined {
  const id = live?.metadata?.annotations?.[OWNING_INVENTORY_ANNOTATION];
  return id === undefined || id === '' ? undefined : id;
}

/**
 * Why an inventory entry cannot name a Kubernetes object (undefined when it can): the namespace a
 * DNS-1123 label (or '' for cluster-scoped objects), a Namespace's name a DNS-1123 label, any other
 * name a valid path segment of at most 253 characters (RBAC names may hold `:`, so no stricter rule
 * applies to every kind), the group a DNS-1123 subdomain, the kind a plain identifier.
 */
export function entryProblem(ref: InventoryRef): string | undefined {
  if (ref.namespace !== '') {
    const problem = dnsLabelProblem(ref.namespace);
    if (problem) return `its namespace '${ref.namespace}' ${problem}`;
  }
  if (ref.group === '' && ref.kind === 'Namespace') {
    const problem = dnsLabelProblem(ref.name);
    if (problem) return `its name '${ref.name}' ${problem}`;
  } else {
    const problem = ref.name === '' ? 'must not be empty' : (pathSegmentProblem(ref.name) ?? (ref.name.length > DNS1123_SUBDOMAIN_MAX_LENGTH ? `must be no more than ${DNS1123_SUBDOMAIN_MAX_LENGTH} characters` : undefined));
    if (problem) return `its name '${ref.name}' ${problem}`;
  }
  if (ref.group !== '') {
    const problem = dnsSubdomainProblem(ref.group);
    if (problem) return `its API group '${ref.group}' ${problem}`;
  }
  if (!KIND_PATTERN.test(ref.kind)) return `its kind '${ref.kind}' is not a Kubernetes kind`;
  return undefined;
}

/** Why the live object the API returned is not the one the entry names (undefined when it is). */
export function identityMismatch(entry: InventoryRef, live: KubernetesObject): string | undefined {
  const group = splitApiVersion(live.apiVersion ?? '').group;
  const actual = { group, kind: live.kind ?? '', namespace: live.metadata?.namespace ?? '', name: live.metadata?.name ?? '' };
  if (actual.group === entry.group && actual.kind === entry.kind && actual.namespace === entry.namespace && actual.name === entry.name) return undefined;
  return `the cluster answered with another object (${encodeObjMetadata(actual)}) than the entry names (${encodeObjMetadata(entry)})`;
}

/**
 * Why this namespace must never be deleted, adopted or owned, whoever asks (undefined when it is
 * not protected). Every delete and apply path asks, because an inventory or a template can name anything.
 */
export function protectedNamespaceReason(name: string, protection: NamespaceProtection = {}): string | undefined {
  if (SYSTEM_NAMESPACES.includes(name)) return `namespace '${name}' is a system namespace`;
  if (name === protection.agentNamespace) return `namespace '${name}' is where the agent runs (and keeps its inventories)`;
  if (protection.holdingInventories?.has(name)) return `namespace '${name}' holds inventories (of this or another agent)`;
  return undefined;
}

/** The protection verdict for an object that may be a Namespace. */
function protectedObjectReason(ref: Pick<InventoryRef, 'group' | 'kind' | 'name'>, protection: NamespaceProtection): string | undefined {
  return ref.group === '' && ref.kind === 'Namespace' ? protectedNamespaceReason(ref.name, protection) : undefined;
}

/** Why a live object is not this inventory's to delete (undefined when it is). */
export function ownershipReason(live: KubernetesObject, inventoryId: string): string | undefined {
  const owner = owningInventory(live);
  if (owner === inventoryId) return undefined;
  return owner === undefined ? `it is not owned by inventory '${inventoryId}' (no ${OWNING_INVENTORY_ANNOTATION} annotation)` : `it is owned by another inventory ('${owner}'), not '${inventoryId}'`;
}

/** The keep/detach annotation that keeps a live object, if any. */
export function keepReason(live: KubernetesObject): string | undefined {
  const annotations = live.metadata?.annotations ?? {};
  const keep = KEEP_ANNOTATIONS.find(([key, value]) => annotations[key] === value);
  return keep ? `it is annotated ${keep[0]}: ${keep[1]}` : undefined;
}

/**
 * May this object be deleted (destroy) or pruned on behalf of inventory `inventoryId`? The entry is
 * valid and the live object is the one it names (the pruner checks both first).
 */
export function mayDelete(ref: InventoryRef, live: KubernetesObject | undefined, inventoryId: string, protection: NamespaceProtection): GuardVerdict {
  const protectedReason = protectedObjectReason(ref, protection);
  if (protectedReason) return { allowed: false, reason: `${protectedReason} and is never deleted` };
  if (!live) return ALLOWED;
  const reason = ownershipReason(live, inventoryId) ?? keepReason(live);
  return reason ? { allowed: false, reason } : ALLOWED;
}

/** Who would own an object an apply writes. */
export interface ApplyOwner {
  /** The inventory (its name, which is its id). */
  readonly inventory: string;
  /** Whether that inventory lists the object already: an annotation alone does not make it ours. */
  readonly listed: boolean;
  /** Take over an object that no inventory owns (environments only: cli-utils' AdoptIfNoInventory). */
  readonly adopt: boolean;
}

/** The verdict on writing an object; `adoptable` when only adoption would allow it. */
export type ApplyVerdict = GuardVerdict | { readonly allowed: false; readonly reason: string; readonly adoptable: true };

/**
 * May an apply on behalf of `owner.inventory` write this object (live: its live copy, if any)? A
 * protected namespace never, even when it does not exist yet (creating it would make it ours). An
 * object belongs to an inventory only when its owning annotation names it *and* the inventory lists
 * it: one that merely carries the annotation was not made through the inventory.
 */
export function mayApply(ref: Pick<InventoryRef, 'group' | 'kind' | 'name'>, live: KubernetesObject | undefined, owner: ApplyOwner, protection: NamespaceProtection): ApplyVerdict {
  const protectedReason = protectedObjectReason(ref, protection);
  if (protectedReason) return { allowed: false, reason: `${protectedReason}: an environment never creates, adopts or owns it` };
  if (!live) return ALLOWED;
  const claimed = owningInventory(live);
  if (claimed === owner.inventory && owner.listed) return ALLOWED;
  if (claimed !== undefined && claimed !== owner.inventory) return { allowed: false, reason: `it already exists and belongs to another inventory ('${claimed}')` };
  if (owner.adopt) return ALLOWED;
  const reason =
    claimed === undefined
      ? 'it already exists and no inventory owns it'
      : `it already exists and claims to belong to inventory '${claimed}' (its ${OWNING_INVENTORY_ANNOTATION} annotation), but that inventory does not list it: it was not made through it`;
  return { allowed: false, reason, adoptable: true };
}
