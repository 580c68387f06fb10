import type { EnvironmentTier } from '../vars/environment-tier';
import type { Scenario } from '../vars/scenario';
import type { AccessEntry, Building } from './model';
import { BoundedCache } from '../cache';

/**
 * A CI job situation without a project: the editor applies it to every `ci_access` entry (the
 * entry's project, or a project inside the entry's group).
 */
export interface JobScenario {
  readonly name: string;
  readonly ref: string;
  readonly isTag?: boolean;
  readonly isMergeRequest?: boolean;
  readonly protectedRef?: boolean;
  /** Merge request scenarios (docs/gitlab-behaviour.md#protected-merge-request-pipelines): the project setting, the target branch, a fork. */
  readonly protectMergeRequestPipelines?: boolean;
  readonly mergeRequestTargetProtected?: boolean;
  readonly fromFork?: boolean;
  readonly environmentName?: string;
  readonly environmentTier?: EnvironmentTier;
  readonly pipelineSource?: string;
  readonly userLogin?: string;
  readonly variables?: Readonly<Record<string, string>>;
  /** Overrides the project the scenario runs in (otherwise taken from the entry). */
  readonly projectPath?: string;
}

/**
 * The built-in scenarios: the four situations most configurations are written for. The scenario
 * objects are the same (frozen) for the same default branch, in a new array each time: what the
 * rule checks derive from a scenario is remembered per object, for every file of a batch and every
 * validation of a document.
 */
export function presetScenarios(defaultBranch: string): JobScenario[] {
  return [...presetsByDefaultBranch.get(defaultBranch, () => presetScenariosFor(defaultBranch).map((scenario) => Object.freeze(scenario)))];
}

const presetsByDefaultBranch = new BoundedCache<string, readonly JobScenario[]>(16);

function presetScenariosFor(defaultBranch: string): JobScenario[] {
  return [
    { name: 'default branch → production', ref: defaultBranch, protectedRef: true, environmentName: 'production', environmentTier: 'production' },
    { name: 'feature branch → review app', ref: 'feature/login', protectedRef: false, environmentName: 'review/feature-login', environmentTier: 'development' },
    { name: 'tag release', ref: 'v1.2.0', isTag: true, protectedRef: true, environmentName: 'production', environmentTier: 'production' },
    { name: 'merge request pipeline', ref: 'feature/login', isMergeRequest: true, protectedRef: false, pipelineSource: 'merge_request_event' },
  ];
}

/** The full scenario for one entry: the project is the entry's own, or an example project in its group. */
export function scenarioForEntry(job: JobScenario, entry: AccessEntry | null, defaultBranch: string): Scenario {
  const projectPath = projectPathForEntry(job, entry);
  // Made once per entry and scenario of every check: the fields the job sets are assigned one by
  // one (a spread of a new object per optional field allocated a dozen objects per scenario).
  const scenario: Building<Scenario> = { name: job.name, projectPath, ref: job.ref, defaultBranch };
  if (job.isTag !== undefined) scenario.isTag = job.isTag;
  if (job.isMergeRequest !== undefined) scenario.isMergeRequest = job.isMergeRequest;
  if (job.protectedRef !== undefined) scenario.protectedRef = job.protectedRef;
  if (job.protectMergeRequestPipelines !== undefined) scenario.protectMergeRequestPipelines = job.protectMergeRequestPipelines;
  if (job.mergeRequestTargetProtected !== undefined) scenario.mergeRequestTargetProtected = job.mergeRequestTargetProtected;
  if (job.fromFork !== undefined) scenario.fromFork = job.fromFork;
  if (job.environmentName !== undefined) scenario.environmentName = job.environmentName;
  if (job.environmentTier !== undefined) scenario.environmentTier = job.environmentTier;
  if (job.pipelineSource !== undefined) scenario.pipelineSource = job.pipelineSource;
  if (job.userLogin !== undefined) scenario.userLogin = job.userLogin;
  if (job.variables) scenario.variables = job.variables;
  return scenario;
}

/** The project the job of {@link scenarioForEntry} runs in: the job's own, else one the entry covers. */
export function projectPathForEntry(job: JobScenario, entry: AccessEntry | null): string {
  return job.projectPath ?? (entry?.kind === 'project' ? entry.id! : entry?.kind === 'group' ? `${entry.id}/example-project` : 'example-group/example-project');
}

/** Reads user scenarios from settings, dropping malformed ones (settings are user input too). */
export function readJobScenarios(value: unknown): JobScenario[] {
  if (!Array.isArray(value)) return [];
  return value.filter((s): s is JobScenario => typeof s === 'object' && s !== null && typeof (s as JobScenario).name === 'string' && typeof (s as JobScenario).ref === 'string');
}
