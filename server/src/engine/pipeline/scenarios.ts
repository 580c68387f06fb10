import type { JobScenario } from '../access/scenarios';

/**
 * The pipeline situations a project's jobs are mapped for: a push to the default branch, to a
 * feature branch, a tag, a merge request and a scheduled pipeline. Unlike the agent config's
 * scenarios they carry no environment: each job brings its own.
 */
export function presetPipelineScenarios(defaultBranch: string): JobScenario[] {
  return [
    { name: `push to ${defaultBranch}`, ref: defaultBranch, protectedRef: true, pipelineSource: 'push' },
    { name: 'push to feature/login', ref: 'feature/login', protectedRef: false, pipelineSource: 'push' },
    { name: 'tag v1.2.0', ref: 'v1.2.0', isTag: true, protectedRef: true, pipelineSource: 'push' },
    { name: 'merge request from feature/login', ref: 'feature/login', isMergeRequest: true, protectedRef: false, pipelineSource: 'merge_request_event' },
    { name: `schedule on ${defaultBranch}`, ref: defaultBranch, protectedRef: true, pipelineSource: 'schedule' },
  ];
}

/** The user's scenarios as pipeline situations: their environment is dropped (the job decides it). */
export function asPipelineScenario(scenario: JobScenario): JobScenario {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { environmentName, environmentTier, ...situation } = scenario;
  return situation;
}
