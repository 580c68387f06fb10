/** Apply an environment template (docs/gitlab-behaviour.md#managed-resources-flow, docs/gitlab-behaviour.md#gitlab-managed-resources): prepare (render), plan (dry-run + diff), execute. */
export { prepareEnvironment, type EnvironmentInput, type PrepareResult, type PreparedEnvironment } from './environment';
export { planApply, conflictsOf, isNoop, type ApplyAction, type ApplyPlan, type PlanOptions, type PlannedObject, type SkippedEntry } from './plan';
export { executeApply, DEFAULT_APPLY_TIMEOUT_MS, type ApplyResult, type ExecuteApplyOptions } from './execute';
export { DEFAULT_AGENT_NAMESPACE, environmentInventoryName, gitlabAnnotations, gitlabLabels } from './gitlabMetadata';
export { SUPPORTED_KINDS, TIERS, type Tier } from '../objects/supportedKinds';
export { unifiedDiff } from './diff';
