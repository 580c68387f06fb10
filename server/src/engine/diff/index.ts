/** What a change to agent configurations does to CI/CD access: the engine behind `agentcfg diff` and the editor's comparison. */
export { accessDiff, isProductionScenario, type AccessDiffInput, type AccessDiffVersion, type AgentConfigVersion } from './accessDiff';
export type { AccessChange, AccessState, ChangeKind, ChangeLocation, ChangeSeverity } from './accessChange';
export type { PipelineVersion } from './pipelineDiff';
export type { ObjectSummary } from './templateObjects';
