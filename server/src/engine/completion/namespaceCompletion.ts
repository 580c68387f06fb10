import type { CompletionCandidate, ScenarioVariableName } from './types';
import { variableCandidates } from './variables';

/**
 * Completion in a namespace GitLab expands (`rules[].namespace`, and `default_namespace` reached
 * through a rule): after `$` the variables as `$NAME`, after `${` as `${NAME}` — both forms of
 * GitLab's `ExpandVariables` (docs/gitlab-behaviour.md#variable-expansion) — and, in an empty value, as `$NAME`. `value` is the text on the line, `cursor` an index into it
 * and `base` its document offset.
 */
export function namespaceCandidates(value: string, cursor: number, base: number, scenarioVariables: readonly ScenarioVariableName[]): CompletionCandidate[] {
  const before = value.slice(0, cursor);
  // An empty value: the variables, as `$NAME`, to start the namespace with.
  if (!value.trim()) return variableCandidates('namespace', scenarioVariables, [base, base + value.length], 'dollar');
  const reference = /\$(\{?)\w*$/.exec(before);
  if (!reference) return [];
  const braces = reference[1] === '{';
  const after = value.slice(cursor);
  // Replace the rest of the name, and the closing brace when the user already typed it.
  const tail = (braces ? /^\w*\}?/ : /^\w*/).exec(after)![0].length;
  return variableCandidates('namespace', scenarioVariables, [base + reference.index, base + cursor + tail], braces ? 'braces' : 'dollar');
}
