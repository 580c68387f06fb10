/**
 * What this tool refuses to touch, decided before any request that changes the cluster:
 * - the protected namespaces (kube-system, kube-public, kube-node-lease, default, the agent's own)
 *   are never deleted;
 * - an object is deleted or pruned only when its live copy says our inventory owns it
 *   (`config.k8s.io/owning-inventory`, spec §5.3);
 * - an apply does not take over an object owned by another inventory, nor (unless adoption is
 *   asked for) one that no inventory owns — cli-utils' "must match" policy.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { OWNING_INVENTORY_ANNOTATION } from './inventory/configMap';
import type { InventoryRef } from './inventory/objMetadata';

/** Namespaces Kubernetes itself needs. */
export const SYSTEM_NAMESPACES: readonly string[] = ['kube-system', 'kube-public', 'kube-node-lease', 'default'];

/** A guard's verdict. */
export type GuardVerdict = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

const ALLOWED: GuardVerdict = { allowed: true };

/** The inventory that owns a live object, per its annotation; undefined when none. */
export function owningInventory(live: KubernetesObject | undefined): string | undefined {
  const id = live?.metadata?.annotations?.[OWNING_INVENTORY_ANNOTATION];
  return id === undefined || id === '' ? undefined : id;
}

/**
 * Why this object must never be deleted, whoever tracks it: a protected namespace (undefined when it
 * is not one). Every delete path asks, because an inventory or a payload can list anything.
 * `agentNamespace` is undefined where the agent's namespace is not known (workspaces).
 */
export function protectedNamespaceReason(ref: Pick<InventoryRef, 'group' | 'kind' | 'name'>, agentNamespace?: string): string | undefined {
  if (ref.group !== '' || ref.kind !== 'Namespace') return undefined;
  if (SYSTEM_NAMESPACES.includes(ref.name)) return `namespace '${ref.name}' is a system namespace and is never deleted`;
  if (ref.name === agentNamespace) return `namespace '${ref.name}' is where the agent runs (and keeps its inventories) and is never deleted`;
  return undefined;
}

/** May this object be deleted (destroy) or pruned (apply) on behalf of inventory `inventoryId`? */
export function mayDelete(ref: InventoryRef, live: KubernetesObject | undefined, inventoryId: string, agentNamespace: string): GuardVerdict {
  const protectedReason = protectedNamespaceReason(ref, agentNamespace);
  if (protectedReason) return { allowed: false, reason: protectedReason };
  if (!live) return ALLOWED;
  const owner = owningInventory(live);
  if (owner !== inventoryId) {
    return {
      allowed: false,
      reason: owner === undefined ? `it is not owned by inventory '${inventoryId}' (no ${OWNING_INVENTORY_ANNOTATION} annotation)` : `it is owned by another inventory ('${owner}'), not '${inventoryId}'`,
    };
  }
  return ALLOWED;
}

/** May an apply on behalf of inventory `inventoryId` write this live object? */
export function mayApply(live: KubernetesObject | undefined, inventoryId: string, adopt: boolean): GuardVerdict {
  if (!live) return ALLOWED;
  const owner = owningInventory(live);
  if (owner === inventoryId) return ALLOWED;
  if (owner !== undefined) return { allowed: false, reason: `it already exists and belongs to another inventory ('${owner}')` };
  return adopt ? ALLOWED : { allowed: false, reason: `it already exists and no inventory owns it; apply with adoption to take it over (it would then be deleted with the environment)` };
}
