/**
 * Names, labels and annotations GitLab puts on workspace objects (spec §5.1, §5.2) and the cli-utils
 * keys agentk relies on (spec §5.3). One place, so the applier, the terminator, the tree view and the
 * test generator cannot drift apart.
 */

/** `NAMESPACE_PREFIX` of Rails' create_constants.rb (spec §5.1). */
export const WORKSPACE_NAMESPACE_PREFIX = 'gl-rd-ns';

/** Label on every workspace object; agentk's informer selects Deployments by it (spec §5.2). */
export const AGENT_ID_LABEL = 'agent.gitlab.com/id';
/** Label (shared-namespace mode only) and annotation carrying the workspace id (spec §5.2). */
export const WORKSPACE_ID_KEY = 'workspaces.gitlab.com/id';
export const HOST_TEMPLATE_ANNOTATION = 'workspaces.gitlab.com/host-template';
export const MAX_RESOURCES_SHA_ANNOTATION = 'workspaces.gitlab.com/max-resources-per-workspace-sha256';

/** The cli-utils keys (spec §5.3), defined once with the inventory codec. */
export { INVENTORY_ID_LABEL, OWNING_INVENTORY_ANNOTATION } from '../inventory/configMap';

/** agentk's server-side apply field manager (`modagent.FieldManager`). */
export const AGENTK_FIELD_MANAGER = 'agentk';

/** The namespace of a workspace: the shared one, or `gl-rd-ns-<name>` (spec §5.1). */
export function workspaceNamespace(workspaceName: string, sharedNamespace?: string): string {
  return sharedNamespace ? sharedNamespace : `${WORKSPACE_NAMESPACE_PREFIX}-${workspaceName}`;
}

/** The two inventory ConfigMaps Rails generates for a workspace (spec §5.1). */
export function workspaceInventoryNames(workspaceName: string): { workspace: string; secrets: string } {
  return { workspace: `${workspaceName}-workspace-inventory`, secrets: `${workspaceName}-secrets-inventory` };
}

/**
 * The workspace an inventory ConfigMap belongs to, by the names Rails gives them (spec §5.1), or
 * undefined when the name is no workspace inventory's: a workspace operation refuses such an
 * inventory (an environment's, another tool's), since applying it would prune what it tracks.
 */
export function workspaceOfInventory(inventoryName: string): string | undefined {
  for (const suffix of ['-workspace-inventory', '-secrets-inventory']) {
    if (inventoryName.endsWith(suffix) && inventoryName.length > suffix.length) return inventoryName.slice(0, -suffix.length);
  }
  return undefined;
}
