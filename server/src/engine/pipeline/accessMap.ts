import { kubeContextName } from '../access/identity';
import { allEntries } from '../access/model';
import { agentReadingNote, type MappedAgent } from './agents';
import type { JobScenario } from '../access/scenarios';
import { simulateAccess, viaLabel, type AccessOutcome, type SimulationOptions } from '../access/simulate';
import { rulesIfVariables, scenarioVariables, type Scenario } from '../vars/scenario';
import { evaluatePipeline, type PipelineEvaluation } from './evaluation';
import { inputsReadBy } from './inputs';
import type { JobEnvironment, JobWhen, Pipeline, PipelineJob, SourceLocation } from './model';

export type { MappedAgent } from './agents';

/** What a trigger job gets, in words (docs/gitlab-behaviour.md#trigger-jobs). */
export const TRIGGER_JOB_ACCESS = 'trigger job: it starts a downstream pipeline and runs on no runner, so it gets no KUBECONFIG';

export interface AccessMapInput {
  readonly pipeline: Pipeline;
  /** Full path of the project the pipeline runs in. */
  readonly projectPath: string;
  readonly projectId?: number | string;
  readonly defaultBranch: string;
  readonly scenarios: readonly JobScenario[];
  readonly agents: readonly MappedAgent[];
  readonly options: SimulationOptions;
}

/** One agent's context in a job's KUBECONFIG (or why it is missing). */
export interface ContextAccess {
  /** `<agent configuration project path>:<agent name>`. */
  readonly context: string;
  readonly authorized: boolean;
  readonly namespace: string | null;
  readonly identity: string | null;
  /** `access_as` of the authorizing entry: `agent`, `ci_job`, `impersonate`. */
  readonly accessAs: AccessOutcome['access_as'];
  /** Why the job gets no context from this agent; absent when authorized. */
  readonly reason?: string;
  /** The entry that authorizes (`project acme/web`, `group acme`, …). */
  readonly via: string | null;
  /** GitLab prepares a managed environment (resource_management) for this job with this agent before it starts. */
  readonly managedEnvironment: boolean;
  /** Problems of the outcome (an invalid or truncated namespace, a rule that cannot be evaluated). */
  readonly problems: readonly string[];
}

export interface MappedEnvironment {
  /** After GitLab's expansion. */
  readonly name: string;
  readonly action: NonNullable<JobEnvironment['action']>;
  readonly tier: string | null;
  /** `environment:kubernetes:agent` after expansion; null when not set. */
  readonly agent: string | null;
  /** Variables the expansion did not know (left empty, as GitLab does). */
  readonly unresolved: readonly string[];
}

/** A context a job's script or `KUBE_CONTEXT` names. */
export interface UsedContext {
  /** The name as the job's shell sees it (variables expanded); null when the file cannot know it. */
  readonly context: string | null;
  /**
   * Why the name is not known here: variables without a value in the file (set in the project's
   * CI/CD settings, or by whoever starts the pipeline), or inputs of a CI/CD component (given by the
   * file that includes it).
   */
  readonly setOutside?: { readonly variables: readonly string[]; readonly inputs: readonly string[] };
  readonly location: SourceLocation;
}

/** A used context in words: its name, or where it is set. */
export function usedContextText(use: UsedContext): string {
  if (use.context !== null) return use.context;
  const from = [...(use.setOutside?.variables.map((name) => `$${name}`) ?? []), ...(use.setOutside?.inputs.map((name) => `input "${name}"`) ?? [])];
  const inputs = use.setOutside?.inputs.length ?? 0;
  return `${from.join(', ')}: set outside the file (${inputs ? 'given where the file is included, or when the pipeline is run' : 'CI/CD settings'})`;
}

/** One job in one pipeline situation. */
export interface JobAccess {
  readonly job: string;
  readonly scenario: string;
  readonly runs: true | false | 'depends';
  readonly when: JobWhen;
  /** What decided whether it runs. */
  readonly reason: string;
  readonly environment: MappedEnvironment | null;
  /** Every agent's context, authorized or not, in agent order; empty when the job does not run or is a trigger job. */
  readonly contexts: readonly ContextAccess[];
  /** A `trigger:` job: it starts a downstream pipeline and runs on no runner, so it gets no KUBECONFIG. */
  readonly trigger?: true;
  /** A job of a child pipeline: the trigger job it runs under. */
  readonly parent?: string;
  /** The contexts the job's script asks for (`kubectl --context`, `config use-context`), variables expanded. */
  readonly usedContexts: readonly UsedContext[];
  readonly location: SourceLocation;
}

/**
 * Which job gets which cluster, where and as whom: every job of the pipeline in every situation,
 * with the contexts GitLab would put in its KUBECONFIG (one per agent that authorizes the project,
 * for the job's environment and ref) and whether a managed environment is prepared before it starts
 * (docs/gitlab-behaviour.md#environments-and-contexts-of-a-job).
 */
export function accessMap(input: AccessMapInput, kept?: KeptRows): JobAccess[] {
  const out: JobAccess[] = [];
  const refusal = input.pipeline.refusal;
  const refused = refusal ? { runs: false as const, when: 'never' as const, reason: `GitLab does not create this pipeline: ${refusal.message}` } : undefined;
  for (const [s, situation] of input.scenarios.entries()) {
    const base = pipelineScenario(input, situation);
    // What rules:if reads: the situation's predefined and user variables (the pipeline's own
    // `variables:` and rule variables are added by the decision, as GitLab scopes them).
    const evaluation = evaluatePipeline(input.pipeline, rulesIfVariables(scenarioVariables(base)));
    const outcomes = input.agents.map((agent) => outcomeFor(agent, base, input));
    for (const job of input.pipeline.jobs) {
      const row = kept?.(job);
      if (row) {
        out.push(row[s]);
        continue;
      }
      const decision = refused ?? evaluation.job(job);
      const environment = mappedEnvironment(evaluation, job);
      // A trigger job is no runner's job: GitLab hands it no KUBECONFIG, whatever the agents allow.
      const contexts = decision.runs === false || job.trigger ? [] : input.agents.map((agent, i) => contextAccess(agent, job, environment, outcomes[i](job, environment)));
      const usedContexts = job.kubeContexts.map((use) => usedContext(evaluation, job, use));
      out.push({ job: job.name, scenario: situation.name, runs: decision.runs, when: decision.when, reason: decision.reason, environment, contexts, ...(job.trigger ? { trigger: true as const } : {}), usedContexts, location: job.location });
    }
  }
  return out;
}

/**
 * A job's rows from an earlier map, one per situation in order, when the caller knows they are still
 * right (same job, pipeline-wide keywords, situations, agents and options); undefined to map it.
 */
export type KeptRows = (job: PipelineJob) => readonly JobAccess[] | undefined;

/** The map's rows by job, one per situation in order (the map lists every job in each situation in turn). */
export function rowsByJob(jobs: readonly PipelineJob[], map: readonly JobAccess[]): Map<PipelineJob, JobAccess[]> {
  const out = new Map<PipelineJob, JobAccess[]>(jobs.map((job) => [job, []]));
  for (const [i, row] of map.entries()) out.get(jobs[i % jobs.length])!.push(row);
  return out;
}

/** The scenario of the pipeline as a whole: the project, the ref and the situation's variables. */
function pipelineScenario(input: AccessMapInput, situation: JobScenario): Scenario {
  return {
    name: situation.name,
    projectPath: situation.projectPath ?? input.projectPath,
    ...(input.projectId !== undefined ? { projectId: input.projectId } : {}),
    ref: situation.ref,
    ...(situation.isTag !== undefined ? { isTag: situation.isTag } : {}),
    ...(situation.isMergeRequest !== undefined ? { isMergeRequest: situation.isMergeRequest } : {}),
    protectedRef: situation.protectedRef ?? false,
    ...(situation.pipelineSource ? { pipelineSource: situation.pipelineSource } : {}),
    ...(situation.userLogin ? { userLogin: situation.userLogin } : {}),
    defaultBranch: input.defaultBranch,
    variables: { ...situation.variables },
  };
}

/**
 * The job's own scenario, for the agent's decision: the pipeline's, with the job, its environment,
 * and the pipeline's and job's `variables:` (CI variables of the job, which the `rules` design reads).
 */
function jobScenario(base: Scenario, pipeline: Pipeline, job: PipelineJob, environment: MappedEnvironment | null): Scenario {
  return {
    ...base,
    variables: { ...pipeline.variables, ...job.variables, ...base.variables },
    jobName: job.name,
    jobStage: job.stage,
    ...(environment
      ? {
          environmentName: environment.name,
          ...(job.environment?.deploymentTier ? { environmentTier: job.environment.deploymentTier } : {}),
          environmentAction: environment.action,
        }
      : {}),
  };
}

/** A job's context by name as its shell expands it; unknown when it reads inputs or variables without a value here. */
function usedContext(evaluation: PipelineEvaluation, job: PipelineJob, use: PipelineJob['kubeContexts'][number]): UsedContext {
  const inputs = inputsReadBy(use.context);
  const expanded = evaluation.expand(use.context, job);
  if (!inputs.length && !expanded.unresolved.length) return { context: expanded.name, location: use.location };
  return { context: null, setOutside: { variables: [...new Set(expanded.unresolved)], inputs }, location: use.location };
}

function mappedEnvironment(evaluation: PipelineEvaluation, job: PipelineJob): MappedEnvironment | null {
  if (!job.environment) return null;
  const name = evaluation.environmentName(job);
  const agent = evaluation.agentPath(job);
  return {
    name: name.name,
    action: job.environment.action ?? 'start',
    tier: job.environment.deploymentTier ?? null,
    agent: agent?.name ?? null,
    unresolved: [...new Set([...name.unresolved, ...(agent?.unresolved ?? [])])],
  };
}

/**
 * One agent's outcome for a job of one situation. Without the `rules` design in force, an agent's
 * decision reads only the job's environment (name, tier, action) besides the situation: jobs that
 * share it share the simulation (a pipeline of hundreds of jobs has a handful of environments).
 * With rules, `if:` and `namespace:` may read any of the job's variables: each job is simulated.
 */
function outcomeFor(mapped: MappedAgent, base: Scenario, input: AccessMapInput): (job: PipelineJob, environment: MappedEnvironment | null) => AccessOutcome {
  const model = mapped.ciAccess;
  const rulesRead = (input.options.target ?? 'proposal') === 'proposal' && allEntries(model).some((e) => e.rules !== undefined);
  const simulate = (job: PipelineJob, environment: MappedEnvironment | null) => simulateAccess(model, mapped.agent, jobScenario(base, input.pipeline, job, environment), input.options);
  if (rulesRead) return simulate;
  const shared = new Map<string, AccessOutcome>();
  return (job, environment) => {
    const key = environment ? `${environment.name}\u0000${job.environment?.deploymentTier ?? ''}\u0000${environment.action}` : '';
    let outcome = shared.get(key);
    if (!outcome) shared.set(key, (outcome = simulate(job, environment)));
    return outcome;
  };
}

function contextAccess(mapped: MappedAgent, job: PipelineJob, environment: MappedEnvironment | null, outcome: AccessOutcome): ContextAccess {
  const context = kubeContextName(mapped.agent);
  // GitLab prepares the environment when the job's environment names this agent, managed resources
  // are not turned off there, and the winning authorization enables resource management.
  const managedEnvironment = outcome.authorized && outcome.resource_management && environment?.agent === context && job.environment?.kubernetes?.managedResources !== false;
  // The own project's implicit authorization holds whatever the configuration; the rest of a
  // rejected configuration is GitLab's last accepted one, not this. An agent without a
  // configuration file is said to be one wherever it appears.
  const unsure = (mapped.reading?.kind === 'rejected' && outcome.via !== 'implicit') || mapped.reading?.kind === 'missing' ? agentReadingNote(mapped) : undefined;
  return {
    context,
    authorized: outcome.authorized,
    namespace: outcome.namespace,
    identity: outcome.identity?.username ?? null,
    accessAs: outcome.access_as,
    ...(outcome.denial !== null ? { reason: outcome.denial } : {}),
    via: viaLabel(outcome),
    managedEnvironment,
    problems: [...outcome.problems.map((p) => p.message), ...(unsure ? [unsure] : [])],
  };
}
