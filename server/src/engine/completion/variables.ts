import { PREDEFINED_VARIABLES, type PredefinedVariable } from '../vars/predefined';
import { sortKey, type CompletionCandidate, type ScenarioVariableName } from './types';

/** Where variables are being completed: a `rules:if` expression, or a namespace GitLab expands. */
export type VariableUse = 'expression' | 'namespace';

/**
 * Slugs first in namespaces: they are the values that make valid DNS-1123 labels
 * (docs/gitlab-behaviour.md#ref-and-environment-slugs), which a namespace must be.
 */
const NAMESPACE_FIRST = ['CI_ENVIRONMENT_SLUG', 'CI_PROJECT_PATH_SLUG', 'CI_COMMIT_REF_SLUG', 'CI_PROJECT_ID', 'CI_PROJECT_NAME', 'CI_ENVIRONMENT_TIER'];

const AVAILABILITY: Readonly<Record<PredefinedVariable['availability'], string>> = {
  'pre-pipeline': 'pre-pipeline variable',
  pipeline: 'pipeline variable',
  'job-only': 'job-only variable',
  'environment-derived': 'from the job\'s environment',
};

/**
 * The variables a completion offers (docs/gitlab-behaviour.md#predefined-variables and the user's scenario variables), as
 * `$NAME` or `${NAME}`. Job-only (persisted) variables are left out: GitLab does not set them when
 * it evaluates rules or expands a namespace (docs/gitlab-behaviour.md#variables-available-to-job-rules). The `CI_ENVIRONMENT_*` variables are offered
 * in both places: the rules design reads them (docs/user-guide/editor.md, "Choices in completion"), and the namespace needs them.
 */
export function variableCandidates(
  use: VariableUse,
  scenarioVariables: readonly ScenarioVariableName[],
  replace: readonly [number, number],
  syntax: 'dollar' | 'braces',
): CompletionCandidate[] {
  const out: CompletionCandidate[] = [];
  const seen = new Set<string>();
  const add = (name: string, sortText: string, detail: string, documentation: string) => {
    const text = syntax === 'braces' ? `\${${name}}` : `$${name}`;
    out.push({ label: text, kind: 'variable', insertText: text, snippet: false, replace, sortText, detail, documentation });
  };
  for (const [i, v] of scenarioVariables.entries()) {
    seen.add(v.name);
    const names = v.scenarios.map((s) => `“${s}”`).join(', ');
    add(v.name, sortKey(0, i), `your scenarios: ${v.scenarios.join(', ')}`, `Variable set by your scenario${v.scenarios.length > 1 ? 's' : ''} ${names} (setting \`gitlabAgentConfig.scenarios\`).`);
  }
  for (const [i, v] of PREDEFINED_VARIABLES.entries()) {
    if (v.availability === 'job-only' || seen.has(v.name)) continue;
    const preferred = use === 'namespace' ? NAMESPACE_FIRST.indexOf(v.name) : -1;
    add(v.name, preferred >= 0 ? sortKey(1, preferred) : sortKey(2, i), AVAILABILITY[v.availability], `${v.description}\n\n${availabilityNote(v, use)}`);
  }
  return out;
}

function availabilityNote(v: PredefinedVariable, use: VariableUse): string {
  if (v.availability !== 'environment-derived') return `Predefined (${AVAILABILITY[v.availability]}).`;
  return use === 'expression'
    ? "Set from the job's environment: the agent `rules` design reads it, GitLab's job `rules:if` cannot (https://docs.gitlab.com/ci/variables/where_variables_can_be_used/)."
    : "Set from the job's environment.";
}
