/**
 * A project's `.gitlab-ci.yml` as far as it decides cluster access: reading it (includes, `extends`,
 * `!reference`, anchors, `default:`) and deciding when each job runs. Pure and editor-agnostic.
 */
export type * from './model';
export { readPipeline, RESERVED_KEYWORDS } from './readPipeline';
export { workflowDecision, jobDecision, DEFAULT_ONLY_REFS } from './decision';
export { evaluatePipeline, type PipelineEvaluation } from './evaluation';
export { expandEnvironmentName, expandAgentPath, expandInJobScope, type ExpandedName } from './environmentName';
export { refMatches, pipelineFacts, type PipelineFacts, type Tri } from './refPolicy';
export { MAX_INCLUDES } from './includes';
export { MAX_EXTENDS_ANCESTORS } from './extends';
export { MAX_REFERENCE_NESTING } from './references';
