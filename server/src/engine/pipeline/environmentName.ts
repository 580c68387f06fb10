/**
 * `environment:name` and `environment:kubernetes:agent` after GitLab's expansion
 * (lib/gitlab/ci/build/context/build.rb `seed_environment`: `ExpandVariables.expand(name,
 * variables.sort_and_expand_all)`; https://docs.gitlab.com/ci/variables/where_variables_can_be_used/#gitlab-ciyml-file):
 * the variables are first expanded in one another (a job variable `ENV: review/$CI_COMMIT_REF_SLUG`
 * gives `$ENV` its full value), then the name, an unknown variable becoming empty. `CI_ENVIRONMENT_*`
 * and job-only (persisted) variables do not exist yet at that point (see evaluation.ts, expansion.ts).
 */
import { evaluatePipeline } from './evaluation';
import type { ExpandedName } from './expansion';
import type { Pipeline, PipelineJob } from './model';

export type { ExpandedName } from './expansion';

/**
 * The job's environment name as GitLab stores it, with `variables` (the scenario's). Given
 * `pipeline`, the global `variables:` the job inherits and the `variables` of the matching workflow
 * and job rules join, as in GitLab; without it, only the job's own `variables:` (and its rules').
 */
export function expandEnvironmentName(job: PipelineJob, variables: ReadonlyMap<string, string>, pipeline?: Pipeline): ExpandedName {
  return evaluatePipeline(pipeline ?? alone(job), variables).environmentName(job);
}

/** `environment:kubernetes:agent`, expanded the same way (https://docs.gitlab.com/ci/yaml/#environmentkubernetes); null when the job names no agent. */
export function expandAgentPath(job: PipelineJob, variables: ReadonlyMap<string, string>, pipeline?: Pipeline): ExpandedName | null {
  return evaluatePipeline(pipeline ?? alone(job), variables).agentPath(job);
}

/**
 * Any text expanded with the variables the job has when GitLab creates it (as for its environment
 * name): e.g. a `kubectl --context $AGENT` name, which the job's shell would expand from the same
 * variables.
 */
export function expandInJobScope(text: string, job: PipelineJob, variables: ReadonlyMap<string, string>, pipeline?: Pipeline): ExpandedName {
  return evaluatePipeline(pipeline ?? alone(job), variables).expand(text, job);
}

/** A pipeline of just this job, without global variables or workflow rules. */
function alone(job: PipelineJob): Pipeline {
  return { jobs: [job], variables: {}, problems: [] };
}
