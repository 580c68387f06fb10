/**
 * One situation (a scenario's variables) applied to a whole pipeline: `workflow:rules` once, then
 * each job's decision and expansions, each computed once and kept. This is what the access map asks
 * for every job × scenario; {@link jobDecision}, {@link expandEnvironmentName} and the other single
 * functions are this object used once.
 *
 * Variables in scope (lib/gitlab/ci/build/context/global.rb and build.rb; jobVariables.ts): for
 * `workflow:rules` the global `variables:`; for a job also the matching workflow rule's `variables`
 * and the job's own `variables:` (what `inherit:variables` keeps of the global ones); for the job's
 * expansions also the matching job rule's `variables` (lib/gitlab/ci/pipeline/seed/build.rb
 * `rules_attributes`). `CI_ENVIRONMENT_*` and job-only variables do not exist when GitLab expands
 * the environment name, so they are left out of expansions whatever the caller passes
 * (https://docs.gitlab.com/ci/variables/where_variables_can_be_used/#gitlab-ciyml-file).
 */
import { predefinedVariable } from '../vars/predefined';
import { expandWith, type ExpandedName } from './expansion';
import { withYamlVariables, yamlVariables } from './jobVariables';
import type { Pipeline, PipelineJob, RunDecision } from './model';
import { ownDecision, workflowRulesDecision } from './ruleDecision';

const NONE: Readonly<Record<string, string>> = Object.freeze({});

export interface PipelineEvaluation {
  /** Whether the pipeline is created. */
  readonly workflow: RunDecision;
  /** Whether the job is added, and how it runs. */
  job(job: PipelineJob): RunDecision;
  /** `environment:name` expanded as GitLab stores it; "" when the job has no environment. */
  environmentName(job: PipelineJob): ExpandedName;
  /** `environment:kubernetes:agent` expanded; null when the job names no agent. */
  agentPath(job: PipelineJob): ExpandedName | null;
  /** Any text expanded with the job's variables (e.g. a `kubectl --context $AGENT` name). */
  expand(text: string, job: PipelineJob): ExpandedName;
}

/** Evaluates `pipeline` in the situation `variables` describes. The map is read, never kept beyond this object. */
export function evaluatePipeline(pipeline: Pipeline, variables: ReadonlyMap<string, string>): PipelineEvaluation {
  const globalScope = withYamlVariables(variables, yamlVariables(pipeline, null));
  const workflow = workflowRulesDecision(pipeline, globalScope);
  const workflowVariables = workflow.runs !== false ? (workflow.variables ?? {}) : {};
  // What every job that inherits all global variables starts from.
  const sharedScope = Object.keys(workflowVariables).length ? withYamlVariables(variables, yamlVariables(pipeline, null, workflowVariables)) : globalScope;
  const yamlWins = (name: string): boolean => !variables.has(name) || predefinedVariable(name) !== undefined;

  const scopes = new Map<PipelineJob, ReadonlyMap<string, string>>();
  const scopeOf = (job: PipelineJob): ReadonlyMap<string, string> => {
    let scope = scopes.get(job);
    if (scope) return scope;
    if (job.inheritVariables !== undefined && job.inheritVariables !== true) {
      scope = withYamlVariables(variables, yamlVariables(pipeline, job, workflowVariables));
    } else if (Object.keys(job.variables).length === 0) {
      scope = sharedScope;
    } else {
      const own = new Map(sharedScope);
      for (const [name, value] of Object.entries(job.variables)) if (yamlWins(name)) own.set(name, value);
      scope = own;
    }
    scopes.set(job, scope);
    return scope;
  };

  const decisions = new Map<PipelineJob, RunDecision>();
  const decide = (job: PipelineJob): RunDecision => {
    let decision = decisions.get(job);
    if (decision) return decision;
    if (workflow.runs === false) {
      decision = { runs: false, when: 'never', reason: `no pipeline: ${workflow.reason}`, ...(workflow.rule ? { rule: workflow.rule } : {}), ...(workflow.location ? { location: workflow.location } : {}) };
    } else {
      const own = ownDecision(pipeline, job, scopeOf(job));
      decision = workflow.runs === 'depends' && own.runs === true ? { ...own, runs: 'depends', reason: `${own.reason}, if the pipeline is created (${workflow.reason})` } : own;
    }
    decisions.set(job, decision);
    return decision;
  };

  // Jobs with the shared scope and no rule variables expand alike: the same text once (an agent path, say).
  const shared = new Map<string, ExpandedName>();
  const expand = (text: string, job: PipelineJob): ExpandedName => {
    const scope = scopeOf(job);
    const ruleVariables = decide(job).variables ?? NONE;
    const memo = scope === sharedScope && (ruleVariables === NONE || Object.keys(ruleVariables).length === 0) ? shared : null;
    const known = memo?.get(text);
    if (known) return known;
    const result = expandWith(text, (name) => {
      const availability = predefinedVariable(name)?.availability;
      if (name.startsWith('CI_ENVIRONMENT_') || availability === 'job-only' || availability === 'environment-derived') return undefined;
      if (Object.hasOwn(ruleVariables, name) && yamlWins(name)) return ruleVariables[name];
      return scope.get(name);
    });
    memo?.set(text, result);
    return result;
  };

  return {
    workflow,
    job: decide,
    environmentName: (job) => expand(job.environment?.name ?? '', job),
    agentPath: (job) => (job.environment?.kubernetes?.agent === undefined ? null : expand(job.environment.kubernetes.agent, job)),
    expand,
  };
}
