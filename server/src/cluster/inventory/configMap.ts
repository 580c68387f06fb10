/**
 * The cli-utils inventory ConfigMap (docs/gitlab-behaviour.md#inventories), pure: build one from a set of objects, read one
 * back. GitLab sets the inventory id equal to the ConfigMap's name; so do we.
 */
import type { V1ConfigMap } from '@kubernetes/client-node';
import { refKey } from '../kube/objectRef';
import { encodeObjMetadata, parseObjMetadata, type InventoryRef } from './objMetadata';

/** Label that makes a ConfigMap an inventory (non-empty value = the inventory id). */
export const INVENTORY_ID_LABEL = 'cli-utils.sigs.k8s.io/inventory-id';
/** Annotation on every managed object: the id of the inventory that owns it. */
export const OWNING_INVENTORY_ANNOTATION = 'config.k8s.io/owning-inventory';

/** Where an inventory lives and what it tracks. */
export interface Inventory {
  readonly name: string;
  readonly namespace: string;
  /** The inventory id (= name, as GitLab does). */
  readonly id: string;
  readonly objects: readonly InventoryRef[];
}

/** An inventory read back, with the keys that could not be parsed. */
export interface ParsedInventory extends Inventory {
  readonly invalidKeys: readonly { key: string; message: string }[];
  /** Labels and annotations besides the inventory label (e.g. GitLab's labels, docs/gitlab-behaviour.md#managed-object-labels-and-annotation). */
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
}

/** Whether a ConfigMap is an inventory: non-empty inventory-id label (docs/gitlab-behaviour.md#inventories). */
export function isInventoryConfigMap(cm: Pick<V1ConfigMap, 'metadata'>): boolean {
  return (cm.metadata?.labels?.[INVENTORY_ID_LABEL] ?? '') !== '';
}

/** Objects in a stable order, duplicates removed. */
export function uniqueRefs(refs: readonly InventoryRef[]): InventoryRef[] {
  const byKey = new Map<string, InventoryRef>();
  for (const r of refs) byKey.set(refKey(r), { group: r.group, kind: r.kind, namespace: r.namespace, name: r.name });
  return [...byKey.values()].sort((a, b) => encodeObjMetadata(a).localeCompare(encodeObjMetadata(b)));
}

/**
 * The ConfigMap of an inventory: data keys from docs/gitlab-behaviour.md#inventories with empty values (status tracking off,
 * as agentk's applier), the inventory-id label, and any extra labels/annotations.
 */
export function buildInventoryConfigMap(
  inventory: Inventory,
  extra: { labels?: Readonly<Record<string, string>>; annotations?: Readonly<Record<string, string>> } = {},
): V1ConfigMap & { apiVersion: string; kind: string } {
  const data: Record<string, string> = {};
  for (const ref of uniqueRefs(inventory.objects)) data[encodeObjMetadata(ref)] = '';
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: inventory.name,
      namespace: inventory.namespace,
      labels: { ...extra.labels, [INVENTORY_ID_LABEL]: inventory.id },
      ...(extra.annotations && Object.keys(extra.annotations).length > 0 ? { annotations: { ...extra.annotations } } : {}),
    },
    data,
  };
}

/** Reads an inventory ConfigMap; unparsable keys are reported, not dropped silently. */
export function readInventoryConfigMap(cm: V1ConfigMap): ParsedInventory {
  const objects: InventoryRef[] = [];
  const invalidKeys: { key: string; message: string }[] = [];
  for (const key of Object.keys(cm.data ?? {})) {
    const parsed = parseObjMetadata(key);
    if (parsed.ok) objects.push(parsed.ref);
    else invalidKeys.push({ key, message: parsed.message });
  }
  const labels = { ...(cm.metadata?.labels ?? {}) };
  const id = labels[INVENTORY_ID_LABEL] ?? '';
  delete labels[INVENTORY_ID_LABEL];
  return {
    name: cm.metadata?.name ?? '',
    namespace: cm.metadata?.namespace ?? '',
    id,
    objects: uniqueRefs(objects),
    invalidKeys,
    labels,
    annotations: { ...(cm.metadata?.annotations ?? {}) },
  };
}
