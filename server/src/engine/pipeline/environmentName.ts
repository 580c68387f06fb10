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
  return expandJobValue(job.environment?.name ?? '', job, variables, pipeline);
}

/** `environment:kubernetes:agent`, expanded the same way (https://docs.gitlab.com/ci/yaml/#environmentkubernetes); null when the job names no agent. */
export function expandAgentPath(job: PipelineJob, variables: ReadonlyMap<string, string>, pipeline?: Pipeline): ExpandedName | null {
  const agent = job.environment?.kubernetes?.agent;
  return agent === undefined ? null : expandJobValue(agent, job, variables, pipeline);
}

function expandJobValue(text: string, job: PipelineJob, variables: ReadonlyMap<string, string>, pipeline: Pipeline | undefined): ExpandedName {
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
 * `Collection#sort_and_expand_all`: each value expanded with the others (recursively, in dependency
 * order); references to unknown variables stay as written; a variable on a reference cycle keeps its
 * value unexpanded (GitLab reports the cycle and does not expand).
 */
function expandAll(raw: ReadonlyMap<string, string>): Map<string, string> {
  const done = new Map<string, string>();
  const visiting = new Set<string>();
  const expandOne = (name: string, depth: number): string => {
    const known = done.get(name);
    if (known !== undefined) return known;
    const value = raw.get(name)!;
    if (visiting.has(name) || depth > 64) return value;
    visiting.add(name);
    let out = '';
    let last = 0;
    let cyclic = false;
    for (const ref of expandVariables(value, {}, { mode: 'expand_existing' }).references) {
      out += value.slice(last, ref.range.start);
      last = ref.range.end;
      if (raw.has(ref.name) && !visiting.has(ref.name)) out += expandOne(ref.name, depth + 1);
      else {
        if (visiting.has(ref.name)) cyclic = true;
        out += value.slice(ref.range.start, ref.range.end);
      }
    }
    out += value.slice(last);
    visiting.delete(name);
    const result = cyclic ? value : out;
    done.set(name, result);
    return result;
  };
  const out = new Map<string, string>();
  for (const name of raw.keys()) out.set(name, expandOne(name, 0));
  return out;
}
