/**
 * `environment:name` and `environment:kubernetes:agent` after GitLab's expansion
 * (lib/gitlab/ci/build/context/build.rb `seed_environment`: `ExpandVariables.expand(name,
 * variables.sort_and_expand_all)`; https://docs.gitlab.com/ci/variables/where_variables_can_be_used/#gitlab-ciyml-file):
 * the variables are first expanded in one another (a job variable `ENV: review/$CI_COMMIT_REF_SLUG`
 * gives `$ENV` its full value; unknown references inside values are left as written), then the name is
 * expanded, an unknown variable becoming empty. `CI_ENVIRONMENT_*` and job-only (persisted) variables
 * do not exist yet at that point, so they are left out whatever the caller passes.
 */
import { predefinedVariable } from '../vars/predefined';
import { expandVariables } from '../vars/expand';
import { jobDecision, workflowDecision } from './decision';
import type { Pipeline, PipelineJob } from './model';
import { withYamlVariables, yamlVariables } from './jobVariables';

export interface ExpandedName {
  readonly name: string;
  /** Variables the name refers to that have no value here (expanded to ""). */
  readonly unresolved: string[];
}

/**
 * The job's environment name as GitLab stores it, with `variables` (the scenario's) and the job's
 * own `variables:`. Given `pipeline`, the global `variables:` the job inherits and the `variables` of
 * the matching workflow and job rules join, as in GitLab; without it, only the job's.
 */
export function expandEnvironmentName(job: PipelineJob, variables: ReadonlyMap<string, string>, pipeline?: Pipeline): ExpandedName {
  return expandInJobScope(job.environment?.name ?? '', job, variables, pipeline);
}

/** `environment:kubernetes:agent`, expanded the same way (https://docs.gitlab.com/ci/yaml/#environmentkubernetes); null when the job names no agent. */
export function expandAgentPath(job: PipelineJob, variables: ReadonlyMap<string, string>, pipeline?: Pipeline): ExpandedName | null {
  const agent = job.environment?.kubernetes?.agent;
  return agent === undefined ? null : expandInJobScope(agent, job, variables, pipeline);
}

/**
 * Any text expanded with the variables the job has when GitLab creates it (as for its environment
 * name): e.g. a `kubectl --context $AGENT` name, which the job's shell would expand from the same
 * variables.
 */
export function expandInJobScope(text: string, job: PipelineJob, variables: ReadonlyMap<string, string>, pipeline?: Pipeline): ExpandedName {
  const scope = expansionScope(job, variables, pipeline);
  const result = expandVariables(text, scope);
  const unresolved = [...new Set(result.references.filter((r) => r.outcome === 'blank').map((r) => r.name))];
  return { name: result.text, unresolved };
}

function expansionScope(job: PipelineJob, variables: ReadonlyMap<string, string>, pipeline: Pipeline | undefined): Map<string, string> {
  let yaml: Map<string, string>;
  if (pipeline) {
    // rules:variables of the matching rules: the workflow rule's for every job, then the job rule's (lib/gitlab/ci/pipeline/seed/build.rb `rules_attributes`).
    yaml = yamlVariables(pipeline, job, workflowDecision(pipeline, variables).variables);
    for (const [name, value] of Object.entries(jobDecision(pipeline, job, variables).variables ?? {})) yaml.set(name, value);
  } else {
    yaml = new Map(Object.entries(job.variables));
  }
  const raw = withYamlVariables(variables, yaml);
  for (const name of [...raw.keys()]) {
    const availability = predefinedVariable(name)?.availability;
    if (name.startsWith('CI_ENVIRONMENT_') || availability === 'job-only' || availability === 'environment-derived') raw.delete(name);
  }
  return expandAll(raw);
}

/**
 * `Collection#sort_and_expand_all` (lib/gitlab/ci/variables/collection.rb): each value expanded with
 * the others, in dependency order; references to unknown variables stay as written. When the
 * references form a cycle GitLab expands nothing (and fails the job), so the values stay as written.
 */
function expandAll(raw: ReadonlyMap<string, string>): Map<string, string> {
  const refsOf = new Map<string, string[]>();
  for (const [name, value] of raw) refsOf.set(name, expandVariables(value, {}, { mode: 'expand_existing' }).references.map((r) => r.name).filter((n) => raw.has(n)));
  const order = topologicalOrder(refsOf);
  if (!order) return new Map(raw);
  const done = new Map<string, string>();
  for (const name of order) done.set(name, expandVariables(raw.get(name)!, done, { mode: 'expand_existing' }).text);
  return done;
}

/** Names with the ones they refer to first; null when the references form a cycle. Iterative. */
function topologicalOrder(refsOf: ReadonlyMap<string, readonly string[]>): string[] | null {
  const state = new Map<string, 1 | 2>();
  const order: string[] = [];
  for (const start of refsOf.keys()) {
    if (state.has(start)) continue;
    const stack: { name: string; next: number }[] = [{ name: start, next: 0 }];
    state.set(start, 1);
    while (stack.length) {
      const top = stack[stack.length - 1];
      const refs = refsOf.get(top.name)!;
      if (top.next < refs.length) {
        const ref = refs[top.next++];
        if (state.get(ref) === 1) return null;
        if (!state.has(ref)) {
          state.set(ref, 1);
          stack.push({ name: ref, next: 0 });
        }
        continue;
      }
      stack.pop();
      state.set(top.name, 2);
      order.push(top.name);
    }
  }
  return order;
}
