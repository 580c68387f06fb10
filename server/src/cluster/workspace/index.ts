/** Remote development workspaces (spec §5, seed 001): apply, terminate, list. */
export { calculateActualState, type TerminationProgress, type WorkspaceActualState } from './actualState';
export { applyWorkspace, workspaceGroups, type WorkspaceApplyOptions, type WorkspaceApplyReport } from './apply';
export { groupByInventory, parseConfigToApply, type InventoryGroup, type ManifestObject } from './configToApply';
export { listWorkspaces, summarizeWorkspace, type ListWorkspacesOptions, type WorkspaceSummary } from './list';
export { workspaceInventoryNames, workspaceNamespace, WORKSPACE_NAMESPACE_PREFIX } from './names';
export { runTermination, terminateWorkspace, type CycleResult, type TerminationOptions, type TerminationRun, type TerminationTarget } from './terminate';
export { TerminationTracker } from './terminationTracker';
