/**
 * The variables a job's `rules:if` (and `only:variables`) reads, and the ones its `environment:name`
 * is expanded with.
 *
 * GitLab evaluates job rules with the job's own YAML variables in scope
 * (lib/gitlab/ci/build/context/build.rb: the seed's `yaml_variables`, which are the global
 * `variables:` the job inherits, `inherit:variables`, overridden by the job's `variables:`;
 * lib/gitlab/ci/pipeline/seed/build.rb `calculate_yaml_variables!`), and `workflow:rules` with the
 * global ones only (lib/gitlab/ci/build/context/global.rb). The `variables` of the matching workflow
 * rule override the global ones for every job (https://docs.gitlab.com/ci/yaml/#workflowrulesvariables).
 * Values are read as written, not expanded (`variables_hash`).
 *
 * Precedence (https://docs.gitlab.com/ci/variables/#cicd-variable-precedence): project, group,
 * instance and pipeline variables (the scenario's own) override YAML variables, which override
 * predefined variables. The scenario's map does not say which of its names are predefined, so a name
 * this project knows as predefined is taken as predefined.
 */
import { predefinedVariable } from '../vars/predefined';
import type { Pipeline, PipelineJob } from './model';

/** Global `variables:` the job inherits (`inherit:variables`), then workflow-rule variables, then its own. */
export function yamlVariables(pipeline: Pipeline, job: PipelineJob | null, workflowVariables: Readonly<Record<string, string>> = {}): Map<string, string> {
  const out = new Map<string, string>();
  const inherit = job?.inheritVariables ?? true;
  const inherits = (name: string): boolean => inherit === true || (Array.isArray(inherit) && inherit.includes(name));
  for (const [name, value] of Object.entries(pipeline.variables)) if (inherits(name)) out.set(name, value);
  // The workflow rule's variables join the global ones before inherit:variables filters them
  // (lib/gitlab/ci/pipeline/seed/build.rb: `inherit_yaml_variables(from: root_variables, …)`).
  for (const [name, value] of Object.entries(workflowVariables)) if (inherits(name)) out.set(name, value);
  if (job) for (const [name, value] of Object.entries(job.variables)) out.set(name, value);
  return out;
}

/** The scenario's variables with YAML variables layered in by GitLab's precedence. */
export function withYamlVariables(scenario: ReadonlyMap<string, string>, yaml: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map(scenario);
  for (const [name, value] of yaml) {
    if (!scenario.has(name) || predefinedVariable(name) !== undefined) out.set(name, value);
  }
  return out;
}
