/** What a change to agent configurations does to CI/CD access: the engine behind `agentcfg diff` and the editor's comparison. */
export { accessDiff, isProductionScenario, type AccessChange, type AccessDiffInput, type AccessDiffVersion, type AccessState, type AgentConfigVersion, type ChangeKind, type ChangeLocation, type ChangeSeverity } from './accessDiff';
export type { PipelineVersion } from './pipelineDiff';
export type { ObjectSummary } from './templateObjects';
