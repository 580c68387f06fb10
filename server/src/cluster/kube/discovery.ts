/**
 * Versions for objects known only by group and kind (inventories store no version, docs/gitlab-behaviour.md#inventories):
 * the group's preferred version, from one discovery request per session.
 */
import { ApisApi } from '@kubernetes/client-node';
import type { InventoryRef } from './objMetadata';
import type { ObjectRef } from './objectRef';
import { ok, outcomeFromError, type ClusterOutcome } from './outcome';
import type { ClusterSession } from './session';

const preferred = new WeakMap<ClusterSession, Promise<Map<string, string>>>();

async function loadGroups(session: ClusterSession): Promise<Map<string, string>> {
  const list = await session.kubeConfig.makeApiClient(ApisApi).getAPIVersions();
  const map = new Map<string, string>();
  for (const g of list.groups) if (g.preferredVersion) map.set(g.name, g.preferredVersion.version);
  return map;
}

/**
 * The full ref of an inventory entry: core group → `v1`, otherwise the group's preferred version.
 * ok(undefined) when the cluster does not serve the group (its objects cannot exist).
 */
export async function withPreferredVersion(session: ClusterSession, ref: InventoryRef): Promise<ClusterOutcome<ObjectRef | undefined>> {
  if (ref.group === '') return ok({ ...ref, version: 'v1' });
  let groups = preferred.get(session);
  if (!groups) {
    groups = loadGroups(session);
    preferred.set(session, groups);
    groups.catch(() => preferred.delete(session));
  }
  try {
    const version = (await groups).get(ref.group);
    return ok(version ? { ...ref, version } : undefined);
  } catch (err) {
    return outcomeFromError(err);
  }
}
