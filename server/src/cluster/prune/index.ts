/** The one pruner: environment prune, environment delete and workspace pruning/termination delete through it. */
export { planPrune, isGlobalFailure, namespacesHoldingInventories, type PruneScope, type PrunePlan, type PlannedDeletion, type SkippedEntry } from './plan';
export { executePrune, cascadeLines, cascadeRefusal, type PruneExecuteOptions, type PruneResult } from './execute';
export { namespaceContents, takesOthers, type NamespaceContents } from './namespaceContents';
