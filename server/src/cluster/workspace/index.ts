/** Remote development workspaces (docs/gitlab-behaviour.md#remote-development-workspaces, docs/gitlab-behaviour.md#workspace-termination): apply, terminate, list. */
export { calculateActualState, type TerminationProgress, type WorkspaceActualState } from './actualState';
export { applyWorkspace, workspaceGroups, type WorkspaceApplyOptions, type WorkspaceApplyReport } from './apply';
export { groupByInventory, parseConfigToApply, type InventoryGroup, type ManifestObject } from './configToApply';
export { listWorkspaces, summarizeWorkspace, type ListWorkspacesOptions, type WorkspaceSummary } from './list';
export { workspaceInventoryNames, workspaceNamespace, WORKSPACE_NAMESPACE_PREFIX } from './names';
export { runTermination, terminateWorkspace, type CycleResult, type TerminationOptions, type TerminationRun, type TerminationTarget } from './terminate';
export { TerminationTracker } from './terminationTracker';
