/**
 * Whether GitLab creates the pipeline and adds a job to it in a situation given by its variables
 * (the scenario's predefined and user variables). The rules themselves are in ruleDecision.ts; for
 * many jobs in one situation, {@link evaluatePipeline} computes what they share once.
 */
import { evaluatePipeline } from './evaluation';
import type { Pipeline, PipelineJob, RunDecision } from './model';

export { DEFAULT_ONLY_REFS } from './ruleDecision';

/**
 * Whether the pipeline is created: `workflow:rules` with the global `variables:` in scope
 * (https://docs.gitlab.com/ci/yaml/workflow/). Without `workflow:rules` it always is.
 */
export function workflowDecision(pipeline: Pipeline, variables: ReadonlyMap<string, string>): RunDecision {
  return evaluatePipeline(pipeline, variables).workflow;
}

/**
 * Whether `job` is added to the pipeline, and how it runs. The pipeline's `workflow:rules` are
 * applied first: no pipeline, no job; the matching workflow rule's `variables` are in scope for the
 * job's rules. A job that runs in a pipeline whose creation depends on files also depends.
 */
export function jobDecision(pipeline: Pipeline, job: PipelineJob, variables: ReadonlyMap<string, string>): RunDecision {
  return evaluatePipeline(pipeline, variables).job(job);
}
