/**
 * Names, labels and annotations GitLab puts on workspace objects (docs/gitlab-behaviour.md#workspace-names-and-namespaces, docs/gitlab-behaviour.md#workspace-labels-and-annotations) and the cli-utils
 * keys agentk relies on (docs/gitlab-behaviour.md#inventories). One place, so the applier, the terminator, the tree view and the
 * test generator cannot drift apart.
 */
import type { LockSubject } from '../operationLock';

/** `NAMESPACE_PREFIX` of Rails' create_constants.rb (docs/gitlab-behaviour.md#workspace-names-and-namespaces). */
export const WORKSPACE_NAMESPACE_PREFIX = 'gl-rd-ns';

/** Label on every workspace object; agentk's informer selects Deployments by it (docs/gitlab-behaviour.md#workspace-labels-and-annotations). */
export const AGENT_ID_LABEL = 'agent.gitlab.com/id';
/** Label (shared-namespace mode only) and annotation carrying the workspace id (docs/gitlab-behaviour.md#workspace-labels-and-annotations). */
export const WORKSPACE_ID_KEY = 'workspaces.gitlab.com/id';
export const HOST_TEMPLATE_ANNOTATION = 'workspaces.gitlab.com/host-template';
export const MAX_RESOURCES_SHA_ANNOTATION = 'workspaces.gitlab.com/max-resources-per-workspace-sha256';

/** The cli-utils keys (docs/gitlab-behaviour.md#inventories), defined once with the inventory codec. */
export { INVENTORY_ID_LABEL, OWNING_INVENTORY_ANNOTATION } from '../inventory/configMap';

/** agentk's server-side apply field manager (`modagent.FieldManager`). */
export const AGENTK_FIELD_MANAGER = 'agentk';

/** The namespace of a workspace: the shared one, or `gl-rd-ns-<name>` (docs/gitlab-behaviour.md#workspace-names-and-namespaces). */
export function workspaceNamespace(workspaceName: string, sharedNamespace?: string): string {
  return sharedNamespace ? sharedNamespace : `${WORKSPACE_NAMESPACE_PREFIX}-${workspaceName}`;
}

/** The two inventory ConfigMaps Rails generates for a workspace (docs/gitlab-behaviour.md#workspace-names-and-namespaces). */
export function workspaceInventoryNames(workspaceName: string): { workspace: string; secrets: string } {
  return { workspace: `${workspaceName}-workspace-inventory`, secrets: `${workspaceName}-secrets-inventory` };
}

/**
 * The workspace an inventory ConfigMap belongs to, by the names Rails gives them (docs/gitlab-behaviour.md#workspace-names-and-namespaces), or
 * undefined when the name is no workspace inventory's: a workspace operation refuses such an
 * inventory (an environment's, another tool's), since applying it would prune what it tracks.
 */
export function workspaceOfInventory(inventoryName: string): string | undefined {
  for (const suffix of ['-workspace-inventory', '-secrets-inventory']) {
    if (inventoryName.endsWith(suffix) && inventoryName.length > suffix.length) return inventoryName.slice(0, -suffix.length);
  }
  return undefined;
}

/** What a workspace operation locks (operationLock.ts): the workspace, through its first inventory, in its namespace. */
export function workspaceLockSubject(workspaceName: string, namespace: string): LockSubject {
  return { namespace, inventory: workspaceInventoryNames(workspaceName).workspace, what: `workspace ${workspaceName}` };
}
