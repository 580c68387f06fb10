/**
 * The cli-utils inventory ConfigMap (docs/gitlab-behaviour.md#inventories), pure: build one from a set of objects, read one
 * back. GitLab sets the inventory id equal to the ConfigMap's name; so do we, and an inventory whose
 * id label says otherwise is taken as tampered with ({@link tamperedIdReason}): an inventory is its
 * ConfigMap, and a label anyone can edit must not make it speak for another.
 */
import type { V1ConfigMap } from '@kubernetes/client-node';
import { refKey } from '../kube/objectRef';
import { encodeObjMetadata, parseObjMetadata, type InventoryRef } from '../kube/objMetadata';

/** Label that makes a ConfigMap an inventory (non-empty value = the inventory id). */
export const INVENTORY_ID_LABEL = 'cli-utils.sigs.k8s.io/inventory-id';
/** Annotation on every managed object: the id of the inventory that owns it. */
export const OWNING_INVENTORY_ANNOTATION = 'config.k8s.io/owning-inventory';

/** Where an inventory lives and what it tracks; its id is its name (as GitLab sets it). */
export interface Inventory {
  readonly name: string;
  readonly namespace: string;
  readonly objects: readonly InventoryRef[];
}

/** An inventory read back, with the keys that could not be parsed. */
export interface ParsedInventory extends Inventory {
  readonly invalidKeys: readonly { key: string; message: string }[];
  /** Labels and annotations besides the inventory label (e.g. GitLab's labels, docs/gitlab-behaviour.md#managed-object-labels-and-annotation). */
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  /** The ConfigMap's uid and resourceVersion when read: what a later write or delete must still find. */
  readonly uid?: string;
  readonly resourceVersion?: string;
}

/** Whether a ConfigMap is an inventory: non-empty inventory-id label (docs/gitlab-behaviour.md#inventories). */
export function isInventoryConfigMap(cm: Pick<V1ConfigMap, 'metadata'>): boolean {
  return (cm.metadata?.labels?.[INVENTORY_ID_LABEL] ?? '') !== '';
}

/**
 * Why this inventory ConfigMap cannot be trusted (undefined when it can): its id label names
 * another inventory than itself. Objects are owned by id, so such a ConfigMap would let one
 * environment's or workspace's inventory delete or take over another's objects.
 */
export function tamperedIdReason(cm: Pick<V1ConfigMap, 'metadata'>): string | undefined {
  const name = cm.metadata?.name ?? '';
  const id = cm.metadata?.labels?.[INVENTORY_ID_LABEL] ?? '';
  if (id === name) return undefined;
  return `inventory ${cm.metadata?.namespace ? `${cm.metadata.namespace}/` : ''}${name} has been tampered with: its ${INVENTORY_ID_LABEL} label says '${id}', but an inventory's id is its own name (GitLab and this tool always set both alike). Nothing is done through it; if it is yours, set the label back to '${name}'.`;
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
      labels: { ...extra.labels, [INVENTORY_ID_LABEL]: inventory.name },
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
  delete labels[INVENTORY_ID_LABEL];
  return {
    name: cm.metadata?.name ?? '',
    namespace: cm.metadata?.namespace ?? '',
    objects: uniqueRefs(objects),
    invalidKeys,
    labels,
    annotations: { ...(cm.metadata?.annotations ?? {}) },
    ...(cm.metadata?.uid ? { uid: cm.metadata.uid } : {}),
    ...(cm.metadata?.resourceVersion ? { resourceVersion: cm.metadata.resourceVersion } : {}),
  };
}
