/** Reading and writing inventory ConfigMaps through a session (server-side apply, our field manager). */
import { PatchStrategy, setHeaderOptions, type V1ConfigMap } from '@kubernetes/client-node';
import type { ObjectRef } from '../kube/objectRef';
import { ok, outcomeFromError, type ClusterOutcome } from '../kube/outcome';
import type { ClusterSession } from '../kube/session';
import { buildInventoryConfigMap, isInventoryConfigMap, readInventoryConfigMap, tamperedIdReason, type Inventory, type ParsedInventory } from './configMap';

/** The ConfigMap ref of an inventory. */
export function inventoryRef(inventory: Pick<Inventory, 'name' | 'namespace'>): ObjectRef {
  return { group: '', version: 'v1', kind: 'ConfigMap', namespace: inventory.namespace, name: inventory.name };
}

/**
 * Reads an inventory; ok(undefined) when the ConfigMap does not exist. A ConfigMap of that name that
 * is not an inventory is refused (we would otherwise adopt someone else's data), and so is one whose
 * id label is not its name (tampered with: it would speak for another inventory).
 */
export async function readInventory(session: ClusterSession, where: Pick<Inventory, 'name' | 'namespace'>): Promise<ClusterOutcome<ParsedInventory | undefined>> {
  const ref = inventoryRef(where);
  try {
    const cm = await session.core.readNamespacedConfigMap({ name: where.name, namespace: where.namespace });
    if (!isInventoryConfigMap(cm)) {
      return { type: 'refused', ref, message: 'this ConfigMap exists but is not a cli-utils inventory (no cli-utils.sigs.k8s.io/inventory-id label); choose another inventory name' };
    }
    const tampered = tamperedIdReason(cm);
    if (tampered) return { type: 'refused', ref, message: tampered };
    return ok(readInventoryConfigMap(cm));
  } catch (err) {
    const failure = outcomeFromError(err, ref);
    return failure.type === 'notFound' ? ok(undefined) : failure;
  }
}

/**
 * Writes (server-side applies) an inventory ConfigMap listing exactly these objects. `expected`: the
 * resourceVersion it must still have (`CREATE_ONLY` of kube/preconditions.ts when it must not exist yet); another write
 * since is a `conflict`.
 */
export async function writeInventory(
  session: ClusterSession,
  inventory: Inventory,
  extra: { labels?: Readonly<Record<string, string>>; annotations?: Readonly<Record<string, string>> } = {},
  expected?: string,
): Promise<ClusterOutcome<V1ConfigMap>> {
  const body = buildInventoryConfigMap(inventory, extra);
  if (expected !== undefined) body.metadata = { ...body.metadata, resourceVersion: expected };
  try {
    // force: the inventory is ours alone; a stale manager must not block recording what exists.
    const written = (await session.objects.patch(body, undefined, undefined, session.fieldManager, true, PatchStrategy.ServerSideApply)) as V1ConfigMap;
    // An apply removes only the keys its own manager set: entries another manager added (a hand
    // edit, another tool) stay, and the inventory would go on listing them. Remove them by name.
    const wanted = new Set(Object.keys(body.data ?? {}));
    const stray = Object.keys(written.data ?? {}).filter((key) => !wanted.has(key));
    if (stray.length === 0) return ok(written);
    const cleaned = await session.core.patchNamespacedConfigMap(
      {
        name: inventory.name,
        namespace: inventory.namespace,
        fieldManager: session.fieldManager,
        body: { metadata: { resourceVersion: written.metadata?.resourceVersion }, data: Object.fromEntries(stray.map((key) => [key, null])) },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    return ok(cleaned);
  } catch (err) {
    return outcomeFromError(err, inventoryRef(inventory));
  }
}

/**
 * Deletes an inventory ConfigMap; already gone is success. With `expected`, only while it is still
 * that version (another write since is a `conflict`).
 */
export async function deleteInventory(session: ClusterSession, where: Pick<Inventory, 'name' | 'namespace'>, expected?: { uid?: string; resourceVersion?: string }): Promise<ClusterOutcome<void>> {
  try {
    await session.core.deleteNamespacedConfigMap({ name: where.name, namespace: where.namespace, ...(expected ? { body: { preconditions: expected } } : {}) });
    return ok(undefined);
  } catch (err) {
    const failure = outcomeFromError(err, inventoryRef(where));
    return failure.type === 'notFound' ? ok(undefined) : failure;
  }
}

/** Every inventory ConfigMap the identity can list (all namespaces, or one). */
export async function listInventories(session: ClusterSession, namespace?: string, labelSelector?: string): Promise<ClusterOutcome<ParsedInventory[]>> {
  try {
    const selector = labelSelector ? `cli-utils.sigs.k8s.io/inventory-id,${labelSelector}` : 'cli-utils.sigs.k8s.io/inventory-id';
    const list = namespace
      ? await session.core.listNamespacedConfigMap({ namespace, labelSelector: selector })
      : await session.core.listConfigMapForAllNamespaces({ labelSelector: selector });
    return ok(list.items.filter(isInventoryConfigMap).map(readInventoryConfigMap));
  } catch (err) {
    return outcomeFromError(err);
  }
}
